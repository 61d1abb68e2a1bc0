// top.cpp: builds and binds the modules of one run, snapshots the counters at
// the window edges, tracks violations and the drain, and fills the metrics.
#include "sim/top.h"

#include "common/lookahead.h"
#include "dma/dma_engine.h"
#include "sim/pcie_metrics.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <memory>
#include <cstdio>

namespace nicsim {

using sc_core::sc_time;

namespace {

uint64_t us_to_ps(double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); }

/* Several queues, after the drain: every frame the NIC wrote back on RX
 * queue q reached the stack from queue q's NAPI or was counted as dropped by
 * the driver there (the kernel checked each one's RSS queue as it went up);
 * every frame the driver accepted on TX queue q was read from TX queue q.
 * False with a message naming the queue otherwise. */
bool queue_conservation(const NicCounters &c, const nk_kernel *k, std::string *msg) {
  if (k == nullptr) return true;
  char buf[256];
  for (uint32_t q = 0; c.tx_queues > 1 && q < c.tx_queues; q++) {
    const uint64_t sent = nk_kernel_txq_packets(k, q);
    if (sent == c.txq_frames[q]) continue;
    std::snprintf(buf, sizeof buf,
                  "conservation on TX queue %u: the driver accepted %" PRIu64 " frames on it, the NIC read %" PRIu64,
                  q, sent, c.txq_frames[q]);
    *msg = buf;
    return false;
  }
  if (c.rx_queues < 2) return true;
  for (uint32_t q = 0; q < c.rx_queues; q++) {
    const uint64_t up = nk_kernel_rxq_packets(k, q), dropped = nk_kernel_rxq_dropped(k, q);
    if (c.rxq_frames[q] == up + dropped && c.rxq_steered[q] == c.rxq_frames[q]) continue;
    std::snprintf(buf, sizeof buf,
                  "conservation on RX queue %u: RSS sent %" PRIu64 " frames to it, the NIC wrote back %" PRIu64
                  ", its NAPI handed %" PRIu64 " to the stack and the driver dropped %" PRIu64,
                  q, c.rxq_steered[q], c.rxq_frames[q], up, dropped);
    *msg = buf;
    return false;
  }
  return true;
}

}  // namespace

Top::Top(sc_core::sc_module_name name, const nicsim_config &cfg)
    : sc_module(name),
      m_cfg(cfg),
      mem("mem", static_cast<uint64_t>(cfg.memory.size_mb) << 20,
          HostMemory::default_msi_addr(static_cast<uint64_t>(cfg.memory.size_mb) << 20)),
      nic("nic", m_cfg),
      cpu("cpu", m_cfg, mem),
      m_warmup_ps(us_to_ps(cfg.run.warmup_us)),
      m_duration_ps(us_to_ps(cfg.run.duration_us)),
      m_end_ps(us_to_ps(cfg.run.duration_us + cfg.run.drain_us)) {
  m_edges_ps[0] = m_warmup_ps;
  m_edges_ps[1] = m_duration_ps;
  m_edges_ps[2] = m_end_ps;
  m_edges_ps[3] = time_limit_ps();
  auto at_now = [this](const std::string &c, const std::string &m) {
    report(c, m, static_cast<double>(now_ps()) / 1000.0);
  };
  if (m_cfg.bus.enabled) {
    /* SoC NIC: DMA over the bus, CPU MMIO over its register port, and a
     * wired interrupt (GIC SPI) instead of MSI writes. */
    const AxiParams bp = AxiParams::from_config(m_cfg);
    bus = std::make_unique<AxiBus>("bus", bp);
    bus_regs = std::make_unique<AxiRegPort>("bus_regs", bp);
    nic.dma.bind(bus->dev);
    bus->mem.bind(mem.tgt);
    cpu.mmio.bind(bus_regs->host);
    bus_regs->regs.bind(nic.regs);
    bus->on_irq = [this](uint32_t data) { cpu.raise_msi(data); };
    bus->on_violation = at_now;
    bus_regs->on_violation = at_now;
  } else {
    pcie = std::make_unique<PcieLink>("pcie", PcieParams::from_config(m_cfg));
    nic.dma.bind(pcie->dev);
    pcie->regs.bind(nic.regs);
    pcie->mem.bind(mem.tgt);
    cpu.mmio.bind(pcie->host);
    pcie->on_violation = at_now;
  }

  mem.set_dram_bw(m_cfg.memory.dram_bw_gbps);
  mem.set_iommu(IommuParams::from_config(m_cfg));
  mem.on_msi = [this](uint32_t data) { cpu.raise_msi(data); };
  mem.on_violation = at_now;
  if (pcie && !mem.dram().limited() && !mem.iommu().enabled()) {
    /* Memory answers without delay, so a posted write can reach it when
     * something observes it (a core resuming, a snapshot, the root complex's
     * reads) rather than by a wake-up at its commit; MSIs keep theirs. What
     * it touches is dated by its commit time (docs/pcie.md, "Posted writes"). */
    pcie->set_lazy_writes(true);
    cpu.resumed = [this] { pcie->apply_posted(); };
    /* Nothing runs up to t: memory gets the writes committed by t now, as at
     * a resume at t; the run's edges (snapshots, the end) stay syncs. */
    cpu.quiet_through = [this](uint64_t t) -> uint64_t {
      const uint64_t edge = next_edge_ps(now_ps());
      if (t >= edge) return 0;
      pcie->apply_posted_until(t);
      return std::min(pcie->queued_until_ps(), edge); /* > t: what was due by t is applied */
    };
    cpu.dma_time = [this] { return pcie->mem_access_ps(); };
    mem.on_violation = [this](const std::string &c, const std::string &m) {
      report(c, m, static_cast<double>(pcie->mem_access_ps()) / 1000.0);
    };
  }
  /* IOMMU-style: the device may touch only what the driver mapped (or
   * allocated coherent), in the mapping's direction (docs/architecture.md). */
  mem.dma_check = [this](uint64_t pa, uint32_t len, bool write) { return dma_permission(pa, len, write); };
  nic.on_violation = at_now;
  cpu.on_violation = [this](const std::string &c, const std::string &m, double t_ns) { report(c, m, t_ns); };
  cpu.device_owns = [this](uint64_t pa) { return nic.device_owns(pa); };
  /* Until the interconnect's next access to memory or interrupt, and the
   * next snapshot or end of the run, a load sees memory as it is now. */
  const uint64_t msi_ps = static_cast<uint64_t>(std::llround(m_cfg.cpu.msi_latency_ns * 1000.0));
  cpu.quiet_until = [this, msi_ps] {
    const uint64_t now = now_ps();
    /* A wired interrupt may be asserted now; it reaches the core msi_ps later. */
    const uint64_t q = pcie ? pcie->quiet_until_ps() : std::min(bus->quiet_until_ps(), now + msi_ps);
    return std::min(q, next_edge_ps(now));
  };
  /* RO on data TLPs where the driver mapped with DMA_ATTR_WEAK_ORDERING (docs/pcie.md). */
  nic.engine().set_relaxed_ordering_fn([this](uint64_t pa) {
    const nk_kernel *k = cpu.kernel();
    return k != nullptr && (nk_dma_attrs(k, pa) & DMA_ATTR_WEAK_ORDERING) != 0;
  });
  cpu.set_window(m_warmup_ps, m_duration_ps);
  cpu.drained = [this] { return check_drained(); };
  cpu.on_finished = [this](int rc, const std::string &msg) {
    snapshot(m_at_finish);
    m_out.finished = true;
    m_out.check_rc = rc;
    m_out.check_msg = msg;
    std::string qmsg;
    if (!queue_conservation(m_at_finish.nic, cpu.kernel(), &qmsg))
      report("top", qmsg, static_cast<double>(now_ps()) / 1000.0);
    sc_core::sc_stop();
  };

  SC_HAS_PROCESS(Top);
  SC_THREAD(snapshot_thread);
}

Top::~Top() = default;

uint64_t Top::next_edge_ps(uint64_t now) const {
  uint64_t e = UINT64_MAX;
  for (uint64_t edge : m_edges_ps)
    if (edge >= now && edge < e) e = edge;
  return e;
}

uint64_t Top::time_limit_ps() const {
  /* Past the end of the drain the run goes on only while something is still
   * in flight: the drain is extended automatically, up to 10 times its
   * length and at least 10 ms (docs/config.md, run.drain_us; the config
   * check refuses a coalescing timer longer than that limit). */
  const uint64_t extra = std::max<uint64_t>(10 * (m_end_ps - m_duration_ps), us_to_ps(10000));
  return m_end_ps + extra;
}

void Top::snapshot(Snapshot &s) const {
  /* Counters see every posted write committed by now, as at an eager commit. */
  if (pcie) pcie->apply_posted();
  s.time_ps = now_ps();
  s.nic = nic.counters();
  if (pcie) {
    s.up = pcie->up_counters();
    s.down = pcie->down_counters();
    pcie->read_stats(s.rd);
    s.partial_lines = pcie->partial_line_writes();
    s.cold_reads = pcie->cold_reads();
  } else {
    s.bus = bus->counters();
  }
  s.peer = const_cast<NicDevice &>(nic).peer().counters(); /* peer() has no const overload; only read here */
  if (const nk_kernel *k = cpu.kernel()) s.kstats = *nk_kernel_get_stats(k);
  s.dram = mem.dram().counters_at(now_ps());
  s.iommu = mem.iommu().counters();
}

void Top::snapshot_thread() {
  wait(sc_time::from_value(m_warmup_ps));
  snapshot(m_at_warmup);
  if (pcie) pcie->reset_outstanding_max();
  wait(sc_time::from_value(m_duration_ps - m_warmup_ps));
  snapshot(m_at_duration);
}

void Top::report(const std::string &component, const std::string &msg, double time_ns) {
  if (m_out.violated) return;
  m_out.violated = true;
  m_out.component = component;
  m_out.msg = msg;
  m_out.time_ns = time_ns;
  sc_core::sc_stop();
}

std::string Top::dma_permission(uint64_t pa, uint32_t len, bool write) const {
  const nk_kernel *k = cpu.kernel();
  char why[256];
  if (k == nullptr || nk_dma_device_may_access(k, pa, len, write, why, sizeof why)) return "";
  return why;
}

bool Top::check_drained() {
  const NicCounters c = nic.counters();
  const CpuCounters &h = cpu.total();
  /* tcp: segments the host's TCP receiver discarded (duplicate, out of
   * window) or holds out of order (or freed held at remove: their hole never
   * filled), and duplicates the peer discarded, arrived too. */
  const nk_kernel *k = cpu.kernel();
  const nk_kernel_stats *ks = k ? nk_kernel_get_stats(k) : nullptr;
  const uint64_t rx_discards = ks ? ks->tcp_discards + ks->tcp_ooo_held + ks->tcp_ooo_purged : 0;
  const uint64_t tx_dups = nic.peer().counters().tx_dups;
  const int64_t rx = static_cast<int64_t>(c.rx_offered_frames) -
                     static_cast<int64_t>(h.rx_frames + rx_discards + c.rx_drop_fifo + c.rx_drop_nodesc);
  const int64_t tx =
      static_cast<int64_t>(h.tx_frames) - static_cast<int64_t>(c.tx_peer_ok + c.tx_peer_errors + tx_dups);
  if (!m_out.end_seen) {
    m_out.end_seen = true;
    m_out.end_ps = now_ps();
    m_out.rx_in_flight = rx;
    m_out.tx_in_flight = tx;
    m_out.nic_in_flight = nic.frames_in_flight();
  }
  /* A negative count (more received than sent) is not "in flight": stop and let the checks report it. */
  if (rx > 0 || tx > 0) return false;
  m_out.drained = true;
  m_out.drained_ps = now_ps();
  m_out.rx_final = rx;
  m_out.tx_final = tx;
  return true;
}

void Top::fill_results(nicsim_results *res) const {
  nicsim_results_init(res);
  const Snapshot &a = m_at_warmup;
  const Snapshot &b = m_at_duration;
  /* If the run stopped before the CPU finished (a violation), take the end state now. */
  std::unique_ptr<Snapshot> now;
  if (!m_out.finished) {
    now = std::make_unique<Snapshot>();
    snapshot(*now);
  }
  const Snapshot &f = m_out.finished ? m_at_finish : *now;
  const CpuCounters &w = cpu.window();
  const CpuCounters &t = cpu.total();
  const double win_ps = static_cast<double>(m_duration_ps - m_warmup_ps);
  const double win_ns = win_ps / 1000.0;
  const double win_s = win_ps * 1e-12;

  const double rx_pkts = static_cast<double>(w.rx_frames);
  const double tx_pkts = static_cast<double>(b.nic.tx_wire_frames - a.nic.tx_wire_frames);
  const double tx_bytes = static_cast<double>(b.nic.tx_wire_bytes - a.nic.tx_wire_bytes);
  const double rx_drops = static_cast<double>((b.nic.rx_drop_fifo + b.nic.rx_drop_nodesc) -
                                              (a.nic.rx_drop_fifo + a.nic.rx_drop_nodesc));
  const double busy = cpu.busy_cycles(true);
  const double win_cycles = win_ps * cpu.cycles_per_ps();

  nicsim_results_set(res, NM_RX_GBPS, static_cast<double>(w.rx_frame_bytes) * 8.0 / win_ns);
  nicsim_results_set(res, NM_RX_GOODPUT_GBPS, static_cast<double>(w.rx_goodput_bytes) * 8.0 / win_ns);
  nicsim_results_set(res, NM_RX_DELIVERED_GBPS, static_cast<double>(w.rx_delivered_bytes) * 8.0 / win_ns);
  nicsim_results_set(res, NM_RX_MPPS, rx_pkts / (win_ns / 1000.0));
  nicsim_results_set(res, NM_RX_PKTS, rx_pkts);
  nicsim_results_set(res, NM_RX_DROPS, rx_drops);
  nicsim_results_set(res, NM_RX_DROPS_FIFO, static_cast<double>(b.nic.rx_drop_fifo - a.nic.rx_drop_fifo));
  nicsim_results_set(res, NM_RX_DROPS_NODESC, static_cast<double>(b.nic.rx_drop_nodesc - a.nic.rx_drop_nodesc));
  nicsim_results_set(res, NM_TX_GBPS, tx_bytes * 8.0 / win_ns);
  nicsim_results_set(res, NM_TX_MPPS, tx_pkts / (win_ns / 1000.0));
  nicsim_results_set(res, NM_TX_PKTS, tx_pkts);
  /* The average over the cores, as netperf and iperf report system-wide CPU. */
  const int ncores = cpu.cores();
  nicsim_results_set(res, NM_CPU_UTIL, win_cycles > 0 ? busy / (win_cycles * ncores) : 0);
  nicsim_results_set(res, NM_CPU_BUSY_CYCLES, std::round(busy));
  const double rx_cyc = cpu.class_cycles(NK_CLASS_RX, true);
  const double tx_cyc = cpu.class_cycles(NK_CLASS_TX, true);
  nicsim_results_set(res, NM_CPU_CYCLES_PER_RX_PKT, rx_pkts > 0 ? rx_cyc / rx_pkts : 0);
  nicsim_results_set(res, NM_CPU_CYCLES_PER_TX_PKT, tx_pkts > 0 ? tx_cyc / tx_pkts : 0);
  nicsim_results_set(res, NM_CPU_IRQ_CYCLES, std::round(cpu.class_cycles(NK_CLASS_IRQ, true)));
  nicsim_results_set(res, NM_CPU_UNCACHED_LOADS, static_cast<double>(w.uncached_loads));
  nicsim_results_set(res, NM_CPU_UNCACHED_STORES, static_cast<double>(w.uncached_stores));
  nicsim_results_set(res, NM_CPU_MMIO_READS, static_cast<double>(w.mmio_reads));
  nicsim_results_set(res, NM_CPU_MMIO_WRITES, static_cast<double>(w.mmio_writes));
  nicsim_results_set(res, NM_CPU_CACHE_MISSES, static_cast<double>(w.cache_misses));
  nicsim_results_set(res, NM_CPU_CACHE_MAINT_LINES, static_cast<double>(w.cache_lines));
  nicsim_results_set(res, NM_CPU_MEMCPY_BYTES_ALIGNED, static_cast<double>(w.memcpy_bytes_aligned));
  nicsim_results_set(res, NM_CPU_MEMCPY_BYTES_MISALIGNED, static_cast<double>(w.memcpy_bytes_misaligned));
  nicsim_results_set(res, NM_CPU_IRQS, static_cast<double>(w.irqs));
  nicsim_results_set(res, NM_IRQ_LATENCY_NS,
                     w.irqs ? static_cast<double>(w.irq_latency_ps) / 1000.0 / static_cast<double>(w.irqs) : 0);
  nicsim_results_set(res, NM_IRQ_LATENCY_NS_MAX, static_cast<double>(w.irq_latency_max_ps) / 1000.0);
  nicsim_results_set(res, NM_CPU_WC_STORES, static_cast<double>(w.wc_stores));
  nicsim_results_set(res, NM_CPU_WC_FLUSHES, static_cast<double>(w.wc_flushes));
  /* Host memory: the DRAM channel and the IOMMU between the snapshots; maps by the core's time. */
  const double dram_acc = static_cast<double>(b.dram.accesses - a.dram.accesses);
  nicsim_results_set(res, NM_MEM_DRAM_BUSY_FRAC, static_cast<double>(b.dram.busy_ps - a.dram.busy_ps) / win_ps);
  nicsim_results_set(res, NM_MEM_DRAM_WAIT_NS,
                     dram_acc > 0 ? static_cast<double>(b.dram.wait_ps - a.dram.wait_ps) / 1000.0 / dram_acc : 0);
  nicsim_results_set(res, NM_MEM_DRAM_BYTES, static_cast<double>(b.dram.bytes - a.dram.bytes));
  nicsim_results_set(res, NM_IOMMU_IOTLB_HITS, static_cast<double>(b.iommu.hits - a.iommu.hits));
  nicsim_results_set(res, NM_IOMMU_IOTLB_MISSES, static_cast<double>(b.iommu.misses - a.iommu.misses));
  nicsim_results_set(res, NM_IOMMU_MAPS, static_cast<double>(w.iommu_maps));
  nicsim_results_set(res, NM_IOMMU_UNMAPS, static_cast<double>(w.iommu_unmaps));

  /* No pcie.* metrics on the bus (as in a dma-bench bus run): bus.* extras instead. */
  if (pcie)
    fill_pcie_metrics(res, PcieSnapshot{a.up, a.down, a.rd, a.partial_lines, a.cold_reads},
                      PcieSnapshot{b.up, b.down, b.rd, b.partial_lines, b.cold_reads}, win_ps);
  else
    fill_bus_metrics(res, a.bus, b.bus, win_ps);

  const double fetch_reqs = static_cast<double>(b.nic.desc_fetch_reqs - a.nic.desc_fetch_reqs);
  nicsim_results_set(res, NM_NIC_DESC_FETCH_REQS, fetch_reqs);
  nicsim_results_set(res, NM_NIC_DESC_FETCHED, static_cast<double>(b.nic.desc_fetched - a.nic.desc_fetched));
  nicsim_results_set(res, NM_NIC_DESC_FETCH_REQS_PER_PKT,
                     rx_pkts + tx_pkts > 0 ? fetch_reqs / (rx_pkts + tx_pkts) : 0);
  nicsim_results_set(res, NM_NIC_DESC_WRITEBACKS,
                     static_cast<double>(b.nic.desc_writebacks - a.nic.desc_writebacks));
  const double irqs = static_cast<double>(b.nic.irqs_raised - a.nic.irqs_raised);
  nicsim_results_set(res, NM_IRQ_COUNT, irqs);
  nicsim_results_set(res, NM_IRQ_PER_SEC, irqs / win_s);
  nicsim_results_set(res, NM_IRQ_SUPPRESSED, static_cast<double>(b.nic.irqs_suppressed - a.nic.irqs_suppressed));
  nicsim_results_set(res, NM_IRQ_THROTTLED, static_cast<double>(b.nic.irqs_throttled - a.nic.irqs_throttled));
  nicsim_results_set(res, NM_NIC_DATA_READ_BYTES, static_cast<double>(b.nic.data_read_bytes - a.nic.data_read_bytes));
  nicsim_results_set(res, NM_NIC_DATA_WRITE_BYTES,
                     static_cast<double>(b.nic.data_write_bytes - a.nic.data_write_bytes));
  nicsim_results_set(res, NM_NIC_RX_RING_OCCUPANCY,
                     static_cast<double>(b.nic.rx_ring_occ_integral - a.nic.rx_ring_occ_integral) / win_ps);
  nicsim_results_set(res, NM_NIC_TX_RING_OCCUPANCY,
                     static_cast<double>(b.nic.tx_ring_occ_integral - a.nic.tx_ring_occ_integral) / win_ps);
  nicsim_results_set(res, NM_NIC_RX_RING_OCCUPANCY_MAX, static_cast<double>(f.nic.rx_ring_occ_max));
  nicsim_results_set(res, NM_NIC_TX_RING_OCCUPANCY_MAX, static_cast<double>(f.nic.tx_ring_occ_max));
  nicsim_results_set(res, NM_NIC_RX_READ_GRANTS, static_cast<double>(b.nic.rx_read_grants - a.nic.rx_read_grants));
  nicsim_results_set(res, NM_NIC_TX_READ_GRANTS, static_cast<double>(b.nic.tx_read_grants - a.nic.tx_read_grants));
  nicsim_results_set(res, NM_NIC_PAUSE_FRAMES, static_cast<double>((b.nic.pause_xoff + b.nic.pause_xon) -
                                                                     (a.nic.pause_xoff + a.nic.pause_xon)));

  nicsim_results_set(res, NM_TCP_ACKS,
                     static_cast<double>(w.tcp_acks_sent + (b.peer.tcp_acks_sent - a.peer.tcp_acks_sent)));
  nicsim_results_set(res, NM_TX_SNDBUF_WAITS, static_cast<double>(w.tx_sndbuf_waits));
  nicsim_results_set(res, NM_TX_WMEM_MAX, static_cast<double>(f.kstats.sk_wmem_max));
  nicsim_results_set(res, NM_TX_BQL_STOPS, static_cast<double>(b.kstats.bql_stops - a.kstats.bql_stops));
  nicsim_results_set(res, NM_TX_BQL_LIMIT_MAX, static_cast<double>(f.kstats.bql_limit_peak));
  nicsim_results_set(res, NM_TCP_RETRANSMITS,
                     static_cast<double>(w.tcp_retransmits + (b.peer.tcp_retransmits - a.peer.tcp_retransmits)));
  nicsim_results_set(res, NM_TCP_INFLIGHT_MAX,
                     static_cast<double>(std::max(f.peer.tcp_inflight_max, cpu.tcp_inflight_max())));
  nicsim_results_set(res, NM_GRO_MERGED, static_cast<double>(b.kstats.gro_merged - a.kstats.gro_merged));
  nicsim_results_set(res, NM_GRO_FLUSHES, static_cast<double>(b.kstats.gro_flushes - a.kstats.gro_flushes));

  nicsim_results_set(res, NM_TOTAL_RX_SENT, static_cast<double>(f.nic.rx_offered_frames));
  /* Frames that reached the host: delivered, or discarded or held undelivered by its TCP receiver. */
  nicsim_results_set(res, NM_TOTAL_RX_RECEIVED,
                     static_cast<double>(t.rx_frames + f.kstats.tcp_discards + f.kstats.tcp_ooo_held +
                                         f.kstats.tcp_ooo_purged));
  nicsim_results_set(res, NM_TOTAL_RX_DROPPED, static_cast<double>(f.nic.rx_drop_fifo + f.nic.rx_drop_nodesc));
  nicsim_results_set(res, NM_TOTAL_TX_SENT, static_cast<double>(t.tx_frames));
  nicsim_results_set(res, NM_TOTAL_TX_RECEIVED, static_cast<double>(f.nic.tx_peer_ok + f.peer.tx_dups));
  nicsim_results_set(res, NM_SIM_TIME_NS, static_cast<double>(m_end_ps / 1000));
  nicsim_results_set(res, NM_SIM_EVENTS, static_cast<double>(sc_core::sc_delta_count()));

  /* Extras: where the busy cycles went, by profiled function. */
  char name[96];
  char desc[160];
  for (int id = 0; id <= CpuCore::kUnattributed; id++) {
    const double cyc = cpu.bucket_cycles(id, true);
    if (cyc <= 0 || busy <= 0) continue;
    const char *fn = id == CpuCore::kUnattributed ? "unattributed" : nk_prof_name(id);
    if (!fn) fn = "unknown";
    /* Metric names are dotted identifiers: "(other)" becomes "other". */
    char ident[64];
    size_t n = 0;
    for (const char *c = fn; *c && n + 1 < sizeof ident; c++)
      if (std::isalnum(static_cast<unsigned char>(*c)) || *c == '_') ident[n++] = *c;
    ident[n] = '\0';
    std::snprintf(name, sizeof name, "cpu.profile.%s", ident);
    std::snprintf(desc, sizeof desc, "Fraction of the window's busy CPU cycles spent in %s",
                  id == CpuCore::kUnattributed ? "no profiled function" : fn);
    nicsim_results_set_extra(res, name, "fraction", NM_KIND_REAL, desc, cyc / busy);
    /* CPU time per GB, as the mvneta seed measured it ("sending 1GB in
     * mvneta_tx() costs N ns"): inclusive time in the function (itself and
     * all it calls) per GB of its direction's frame bytes with FCS: RX
     * functions per GB delivered, TX functions per GB sent, others per GB
     * of both. */
    const enum nk_class fcls = id == CpuCore::kUnattributed ? NK_CLASS_OTHER : nk_prof_class(id);
    const double rx_gb = static_cast<double>(w.rx_frame_bytes) / 1e9, tx_gb = tx_bytes / 1e9;
    const double dir_gb = fcls == NK_CLASS_RX ? rx_gb : fcls == NK_CLASS_TX ? tx_gb : rx_gb + tx_gb;
    if (dir_gb > 0) {
      std::snprintf(name, sizeof name, "cpu.ns_per_gb.%s", ident);
      std::snprintf(desc, sizeof desc, "CPU time in %s and its callees per GB of %s frame bytes",
                    id == CpuCore::kUnattributed ? "no profiled function" : fn,
                    fcls == NK_CLASS_RX ? "RX" : fcls == NK_CLASS_TX ? "TX" : "RX plus TX");
      nicsim_results_set_extra(res, name, "ns/GB", NM_KIND_REAL, desc,
                               cpu.bucket_incl_cycles(id, true) / (m_cfg.cpu.clock_mhz / 1000.0) / dir_gb);
    }
  }
  /* Extras with several cores: each core's utilisation and profile, and the
   * kernel lock's spin. */
  for (int core = 0; ncores >= 2 && core < ncores; core++) {
    const double cbusy = cpu.core_busy_cycles(core, true);
    std::snprintf(name, sizeof name, "cpu.core%d.util", core);
    std::snprintf(desc, sizeof desc, "Fraction of the window core %d was busy%s", core,
                  core == 0 ? " (interrupts, softirqs, timers)" : core == cpu.app_core() ? " (the application)" : "");
    if (cpu.spread_irqs() && core != 0)
      std::snprintf(desc, sizeof desc, "Fraction of the window core %d was busy (%s)", core,
                    core == cpu.app_core() ? "the application, its vectors and softirqs" : "its vectors and softirqs");
    nicsim_results_set_extra(res, name, "fraction", NM_KIND_REAL, desc, win_cycles > 0 ? cbusy / win_cycles : 0);
    if (cpu.spread_irqs()) {
      /* cpu.irq_affinity spread: each core's own NET_RX work. */
      std::snprintf(name, sizeof name, "cpu.core%d.softirqs", core);
      std::snprintf(desc, sizeof desc, "NET_RX softirq runs of core %d that polled, in the window", core);
      nicsim_results_set_extra(res, name, "softirqs", NM_KIND_COUNT, desc,
                               static_cast<double>(cpu.core_softirqs(core)));
      std::snprintf(name, sizeof name, "cpu.core%d.napi_polls", core);
      std::snprintf(desc, sizeof desc, "NAPI polls core %d's softirq ran (its own poll list), in the window", core);
      nicsim_results_set_extra(res, name, "polls", NM_KIND_COUNT, desc,
                               static_cast<double>(cpu.core_napi_polls(core)));
      std::snprintf(name, sizeof name, "cpu.core%d.rx_queue_mask", core);
      std::snprintf(desc, sizeof desc,
                    "Bit q set: core %d's polls handed frames of RX queue q to the stack (whole run)", core);
      nicsim_results_set_extra(res, name, "", NM_KIND_COUNT, desc, static_cast<double>(cpu.core_rx_queue_mask(core)));
    }
    for (int id = 0; id <= CpuCore::kUnattributed && cbusy > 0; id++) {
      const double cyc = cpu.core_bucket_cycles(core, id, true);
      if (cyc <= 0) continue;
      const char *fn = id == CpuCore::kUnattributed ? "unattributed" : nk_prof_name(id);
      if (!fn) fn = "unknown";
      char ident[64];
      size_t n = 0;
      for (const char *ch = fn; *ch && n + 1 < sizeof ident; ch++)
        if (std::isalnum(static_cast<unsigned char>(*ch)) || *ch == '_') ident[n++] = *ch;
      ident[n] = '\0';
      std::snprintf(name, sizeof name, "cpu.core%d.profile.%s", core, ident);
      std::snprintf(desc, sizeof desc, "Fraction of core %d's busy cycles in the window spent in %s", core, fn);
      nicsim_results_set_extra(res, name, "fraction", NM_KIND_REAL, desc, cyc / cbusy);
    }
  }
  if (ncores >= 2)
    nicsim_results_set_extra(res, "cpu.lock_wait_cycles", "cycles", NM_KIND_COUNT,
                             "Cycles cores spun waiting for a lock (the kernel lock, or with cpu.locking txq the TX queue and driver locks) in the window (part of cpu.busy_cycles)",
                             std::round(cpu.bucket_cycles(cpu.lock_wait_bucket(), true)));
  /* Extras with several queues: frames and ring occupancy per queue, MSIs per vector. */
  if (b.nic.rx_queues > 1 || b.nic.tx_queues > 1) {
    /* One direction's queues: frames (what) and mean ring occupancy per queue. */
    const auto queues = [&](const char *dir, const char *what, uint32_t n, const uint64_t *fa, const uint64_t *fb,
                            const uint64_t *oa, const uint64_t *ob) {
      for (uint32_t q = 0; q < n; q++) {
        std::snprintf(name, sizeof name, "nic.%sq%u.pkts", dir, q);
        std::snprintf(desc, sizeof desc, "%s queue %u in the window", what, q);
        nicsim_results_set_extra(res, name, "frames", NM_KIND_COUNT, desc, static_cast<double>(fb[q] - fa[q]));
        std::snprintf(name, sizeof name, "nic.%sq%u.occupancy", dir, q);
        std::snprintf(desc, sizeof desc, "Mean descriptors %s queue %u's ring gave the device in the window",
                      dir[0] == 'r' ? "RX" : "TX", q);
        nicsim_results_set_extra(res, name, "descriptors", NM_KIND_REAL, desc,
                                 static_cast<double>(ob[q] - oa[q]) / win_ps);
      }
    };
    queues("rx", "RX frames the NIC wrote back on RX", b.nic.rx_queues, a.nic.rxq_frames, b.nic.rxq_frames,
           a.nic.rxq_occ_integral, b.nic.rxq_occ_integral);
    queues("tx", "TX frames the NIC read from TX", b.nic.tx_queues, a.nic.txq_frames, b.nic.txq_frames,
           a.nic.txq_occ_integral, b.nic.txq_occ_integral);
    for (uint32_t v = 0; v < b.nic.vectors; v++) {
      std::snprintf(name, sizeof name, "irq.vec%u.count", v);
      std::snprintf(desc, sizeof desc, "MSIs the NIC raised on vector %u (queue pair %u) in the window", v, v);
      nicsim_results_set_extra(res, name, "interrupts", NM_KIND_COUNT, desc,
                               static_cast<double>(b.nic.vec_irqs_raised[v] - a.nic.vec_irqs_raised[v]));
      std::snprintf(name, sizeof name, "irq.vec%u.suppressed", v);
      std::snprintf(desc, sizeof desc, "Moderation conditions met on vector %u while it was masked, in the window", v);
      nicsim_results_set_extra(res, name, "interrupts", NM_KIND_COUNT, desc,
                               static_cast<double>(b.nic.vec_irqs_suppressed[v] - a.nic.vec_irqs_suppressed[v]));
    }
  }
  /* Extras: link traffic by DMA purpose (on the bus, fill_bus_metrics did it). */
  for (size_t p = 0; pcie && p < kDmaPurposes; p++) {
    const char *pn = dma_purpose_name(static_cast<DmaPurpose>(p));
    const struct {
      const char *dir;
      const PcieDirCounters &x, &y;
    } dirs[2] = {{"up", a.up, b.up}, {"down", a.down, b.down}};
    for (const auto &d : dirs) {
      std::snprintf(name, sizeof name, "pcie.%s.%s.tlps", d.dir, pn);
      std::snprintf(desc, sizeof desc, "TLPs %s for purpose %s", d.dir[0] == 'u' ? "device to host" : "host to device", pn);
      nicsim_results_set_extra(res, name, "TLPs", NM_KIND_COUNT, desc,
                               static_cast<double>(d.y.purpose_tlps[p] - d.x.purpose_tlps[p]));
      std::snprintf(name, sizeof name, "pcie.%s.%s.bytes", d.dir, pn);
      std::snprintf(desc, sizeof desc, "Wire bytes %s for purpose %s",
                    d.dir[0] == 'u' ? "device to host" : "host to device", pn);
      nicsim_results_set_extra(res, name, "B", NM_KIND_COUNT, desc,
                               static_cast<double>(d.y.purpose_wire_bytes[p] - d.x.purpose_wire_bytes[p]));
    }
  }
}

}  // namespace nicsim
