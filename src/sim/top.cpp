// top.cpp: builds and binds the modules of one run, registers their statistics and snapshots them at
// the window edges and the finish, tracks violations and the drain, and fills the metrics.
#include "sim/top.h"

#include "common/lookahead.h"
#include "dma/dma_engine.h"
#include "mac/mac.h"
#include "sim/model_params.h"
#include "sim/stats_results.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
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
bool queue_conservation(const DmaEngine &e, const nk_kernel *k, std::string *msg) {
  if (k == nullptr) return true;
  const DmaCounters &c = e.counters();
  char buf[256];
  for (uint32_t q = 0; e.tx_queues() > 1 && q < e.tx_queues(); q++) {
    const uint64_t sent = nk_kernel_txq_packets(k, q);
    if (sent == c.txq_frames[q]) continue;
    std::snprintf(buf, sizeof buf,
                  "conservation on TX queue %u: the driver accepted %" PRIu64 " frames on it, the NIC read %" PRIu64,
                  q, sent, c.txq_frames[q]);
    *msg = buf;
    return false;
  }
  if (e.rx_queues() < 2) return true;
  for (uint32_t q = 0; q < e.rx_queues(); q++) {
    const uint64_t up = nk_kernel_rxq_packets(k, q), dropped = nk_kernel_rxq_dropped(k, q);
    const uint64_t xdp = nk_kernel_rxq_xdp(k, q);
    if (c.rxq_frames[q] == up + dropped + xdp && c.rxq_steered[q] == c.rxq_frames[q]) continue;
    std::snprintf(buf, sizeof buf,
                  "conservation on RX queue %u: RSS sent %" PRIu64 " frames to it, the NIC wrote back %" PRIu64
                  ", its NAPI handed %" PRIu64 " to the stack, XDP consumed %" PRIu64 " and the driver dropped %" PRIu64,
                  q, c.rxq_steered[q], c.rxq_frames[q], up, xdp, dropped);
    *msg = buf;
    return false;
  }
  return true;
}

}  // namespace

bool Top::forward_conservation(std::string *msg) {
  const WirePeerCounters p = nic.peer().counters();
  const nk_kernel *k = cpu.kernel();
  if (!p.forward || k == nullptr || !m_out.drained) return true;
  const nk_kernel_stats &ks = *nk_kernel_get_stats(k);
  const uint64_t nic_drops = nic.mac().counters().rx_drop_fifo + nic.engine().counters().rx_drop_nodesc;
  const uint64_t xdp_drops = ks.xdp_drop + ks.xdp_tx_errors;
  const uint64_t accounted = p.fwd_frames + nic_drops + ks.fwd_drops_txq + xdp_drops;
  if (accounted == p.rx_offered_frames && p.tx_errors == 0) return true;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "forwarding conservation: the wire peer sent %" PRIu64 " frames and received %" PRIu64
                " back forwarded (%" PRIu64 " bad); the NIC dropped %" PRIu64 ", the forwarding path %" PRIu64
                " at a stopped TX queue, XDP %" PRIu64 ": %" PRIu64 " frames unaccounted for after the drain",
                p.rx_offered_frames, p.fwd_frames, p.tx_errors, nic_drops, ks.fwd_drops_txq, xdp_drops,
                p.rx_offered_frames > accounted ? p.rx_offered_frames - accounted : accounted - p.rx_offered_frames);
  *msg = buf;
  return false;
}

Top::Top(sc_core::sc_module_name name, const nicsim_config &cfg)
    : sc_module(name),
      m_cfg(cfg),
      mem("mem", memory_params(cfg)),
      nic("nic", nic_params(cfg)),
      cpu("cpu", cpu_params(m_cfg), mem),
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
    const AxiParams bp = bus_params(m_cfg);
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
    pcie = std::make_unique<PcieLink>("pcie", pcie_params(m_cfg));
    nic.dma.bind(pcie->dev);
    pcie->regs.bind(nic.regs);
    pcie->mem.bind(mem.tgt);
    cpu.mmio.bind(pcie->host);
    pcie->on_violation = at_now;
  }

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
    snapshot(stats::Edge::Finish);
    m_out.finished = true;
    m_out.check_rc = rc;
    m_out.check_msg = msg;
    std::string qmsg;
    if (!queue_conservation(nic.engine(), cpu.kernel(), &qmsg) || !forward_conservation(&qmsg))
      report("top", qmsg, static_cast<double>(now_ps()) / 1000.0);
    sc_core::sc_stop();
  };

  /* The statistics of every model built (the peer's first: reading its
   * counters hands the MAC its arrivals up to now). */
  nic.add_stats(m_stats);
  cpu.add_stats(m_stats);
  if (pcie)
    pcie->add_stats(m_stats);
  else
    bus->add_stats(m_stats);
  mem.add_stats(m_stats);
  add_system_stats(m_stats, nic, cpu);
  add_run_stats(m_stats);

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

void Top::snapshot(stats::Edge e) {
  /* Counters see every posted write committed by now, as at an eager commit. */
  if (pcie) pcie->apply_posted();
  m_stats.snapshot(e);
}

void Top::snapshot_thread() {
  wait(sc_time::from_value(m_warmup_ps));
  snapshot(stats::Edge::Warmup);
  wait(sc_time::from_value(m_duration_ps - m_warmup_ps));
  snapshot(stats::Edge::Duration);
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
  const WirePeerCounters p = nic.peer().counters(); /* first: the MAC gets the peer's arrivals up to now */
  const MacCounters m = nic.mac().counters();
  const DmaCounters &d = nic.engine().counters();
  const CpuCounters &h = cpu.total();
  /* tcp: segments the host's TCP receiver discarded (duplicate, out of
   * window) or holds out of order (or freed held at remove: their hole never
   * filled), and duplicates the peer discarded, arrived too. */
  const nk_kernel *k = cpu.kernel();
  const nk_kernel_stats *ks = k ? nk_kernel_get_stats(k) : nullptr;
  const uint64_t rx_discards = ks ? ks->tcp_discards + ks->tcp_ooo_held + ks->tcp_ooo_purged : 0;
  /* driver.xdp: received frames XDP consumed (dropped, or sent back out:
   * those the peer receives besides the host's own frames). */
  const uint64_t xdp_rx = ks ? ks->xdp_drop + ks->xdp_tx + ks->xdp_tx_errors : 0;
  const uint64_t xdp_tx = ks ? ks->xdp_tx : 0;
  /* traffic.mode forward: packets the stack received (in h.rx_frames) and
   * forwarded: the driver took them, they are TX frames now. */
  const uint64_t fwd_tx = ks ? ks->fwd_xmit : 0;
  const int64_t rx = static_cast<int64_t>(p.rx_offered_frames) -
                     static_cast<int64_t>(h.rx_frames + rx_discards + xdp_rx + m.rx_drop_fifo + d.rx_drop_nodesc);
  const int64_t tx = static_cast<int64_t>(h.tx_frames + xdp_tx + fwd_tx) -
                     static_cast<int64_t>(p.tx_ok + p.tx_errors + p.tx_dups);
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

size_t Top::fill_results(nicsim_results *res, double wall_s) {
  /* If the run stopped before the CPU finished (a violation), the end state is now's. */
  if (!m_stats.taken(stats::Edge::Finish)) snapshot(stats::Edge::Finish);
  stats::Run run = run_facts(m_warmup_ps, m_duration_ps, m_end_ps, wall_s);
  /* Frames in flight at the end of the drain that all finished later: the drain was extended. */
  if ((m_out.rx_in_flight > 0 || m_out.tx_in_flight > 0) && m_out.drained)
    run.drain_extended_us = std::ceil(static_cast<double>(m_out.drained_ps - m_out.end_ps) / 1e6);
  return nicsim::fill_results(m_stats, run, res);
}

}  // namespace nicsim
