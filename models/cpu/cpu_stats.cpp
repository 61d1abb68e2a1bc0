// cpu_stats.cpp: the host CPU's statistics, declared once.
#include "cpu/cpu_stats.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace nicsim {

namespace {
using S = CpuSnapshot;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

/* A counter the CPU kept for the window (read at the finish). */
template <uint64_t CpuCounters::*M>
double window(const E &e) {
  return static_cast<double>(e.f.window.*M);
}
double rx_pkts(const E &e) { return static_cast<double>(e.f.window.rx_frames); }
double win_cycles(const E &e) { return e.run.win_ps * e.f.cycles_per_ps; }
bool several_cores(const E &e) { return e.f.cores >= 2; }
/* The function of bucket id, as a name and as a metric identifier. */
const char *fn_name(const S &s, int id) {
  if (id == S::kUnattributed) return "unattributed";
  return s.fn[id] ? s.fn[id] : "unknown";
}

void profile(const E &e, stats::FamilyOut &out) {
  char name[96], desc[160];
  const S &s = e.f;
  for (int id = 0; id <= S::kUnattributed; id++) {
    const double cyc = s.bucket[id];
    if (cyc <= 0 || s.busy <= 0) continue;
    std::snprintf(name, sizeof name, "cpu.profile.%s", stats::ident(fn_name(s, id)).c_str());
    std::snprintf(desc, sizeof desc, "Fraction of the window's busy CPU cycles spent in %s",
                  id == S::kUnattributed ? "no profiled function" : fn_name(s, id));
    out.add(name, desc, cyc / s.busy);
  }
}

void core_util(const E &e, stats::FamilyOut &out) {
  char name[96], desc[160];
  const S &s = e.f;
  const double wc = win_cycles(e);
  for (int core = 0; s.cores >= 2 && core < s.cores; core++) {
    std::snprintf(name, sizeof name, "cpu.core%d.util", core);
    std::snprintf(desc, sizeof desc, "Fraction of the window core %d was busy%s", core,
                  core == 0 ? " (interrupts, softirqs, timers)" : core == s.app_core ? " (the application)" : "");
    if (s.spread && core != 0)
      std::snprintf(desc, sizeof desc, "Fraction of the window core %d was busy (%s)", core,
                    core == s.app_core ? "the application, its vectors and softirqs" : "its vectors and softirqs");
    out.add(name, desc, wc > 0 ? s.core[core].busy / wc : 0);
  }
}

/* cpu.irq_affinity spread: each core's own NET_RX work (what: 0 softirqs, 1 polls, 2 the queue mask). */
void core_rx(const E &e, stats::FamilyOut &out, int what) {
  char name[96], desc[160];
  const S &s = e.f;
  for (int core = 0; s.cores >= 2 && s.spread && core < s.cores; core++) {
    const S::Core &c = s.core[core];
    if (what == 0) {
      std::snprintf(name, sizeof name, "cpu.core%d.softirqs", core);
      std::snprintf(desc, sizeof desc, "NET_RX softirq runs of core %d that polled, in the window", core);
      out.add(name, desc, static_cast<double>(c.softirqs));
    } else if (what == 1) {
      std::snprintf(name, sizeof name, "cpu.core%d.napi_polls", core);
      std::snprintf(desc, sizeof desc, "NAPI polls core %d's softirq ran (its own poll list), in the window", core);
      out.add(name, desc, static_cast<double>(c.napi_polls));
    } else {
      std::snprintf(name, sizeof name, "cpu.core%d.rx_queue_mask", core);
      std::snprintf(desc, sizeof desc,
                    "Bit q set: core %d's polls handed frames of RX queue q to the stack (whole run)", core);
      out.add(name, desc, static_cast<double>(c.rx_queue_mask));
    }
  }
}

void core_profile(const E &e, stats::FamilyOut &out) {
  char name[96], desc[160];
  const S &s = e.f;
  for (int core = 0; s.cores >= 2 && core < s.cores; core++) {
    const S::Core &c = s.core[core];
    for (int id = 0; id <= S::kUnattributed && c.busy > 0; id++) {
      const double cyc = c.bucket[id];
      if (cyc <= 0) continue;
      std::snprintf(name, sizeof name, "cpu.core%d.profile.%s", core, stats::ident(fn_name(s, id)).c_str());
      std::snprintf(desc, sizeof desc, "Fraction of core %d's busy cycles in the window spent in %s", core,
                    fn_name(s, id));
      out.add(name, desc, cyc / c.busy);
    }
  }
}

const D kDecls[] = {
    D::stat("rx.gbps", "Gbit/s", Kind::Real,
            "Ethernet frame bits (FCS included, preamble and IFG excluded) of frames sent in the window and delivered "
            "to the host stack, per second",
            [](const E &e) { return static_cast<double>(e.f.window.rx_frame_bytes) * 8.0 / e.win_ns(); }),
    D::stat("rx.mpps", "Mpkt/s", Kind::Real, "rx.pkts per second of window, in millions",
            [](const E &e) { return rx_pkts(e) / (e.win_ns() / 1000.0); }),
    D::stat("rx.goodput_gbps", "Gbit/s", Kind::Real,
            "Payload bits (UDP or TCP payload, no headers) of data frames the host stack received during the window, "
            "per second, whenever they were sent: what iperf reports; below rx.gbps when a backlog grows",
            [](const E &e) { return static_cast<double>(e.f.window.rx_goodput_bytes) * 8.0 / e.win_ns(); }),
    D::stat("rx.delivered_gbps", "Gbit/s", Kind::Real,
            "Frame bits (FCS included) of the data frames counted by rx.goodput_gbps, per second: the delivery-time "
            "counterpart of rx.gbps",
            [](const E &e) { return static_cast<double>(e.f.window.rx_delivered_bytes) * 8.0 / e.win_ns(); }),
    D::stat("rx.pkts", "frames", Kind::Count,
            "Frames sent in the window and delivered to the host stack (possibly during the drain); with rx.drops "
            "they add up to the frames offered in the window",
            rx_pkts),
    /* The average over the cores, as netperf and iperf report system-wide CPU. */
    D::stat("cpu.util", "fraction", Kind::Real, "Busy fraction of the CPU, averaged over cpu.cores",
            [](const E &e) {
              const double wc = win_cycles(e);
              return wc > 0 ? e.f.busy / (wc * e.f.cores) : 0;
            }),
    D::stat("cpu.busy_cycles", "cycles", Kind::Count, "CPU cycles spent on driver, IRQ and stack work (all cores)",
            [](const E &e) { return std::round(e.f.busy); }),
    D::stat("cpu.cycles_per_rx_pkt", "cycles", Kind::Real,
            "CPU cycles in RX context (RX poll, refill, RX stack) per delivered frame",
            [](const E &e) {
              const double n = rx_pkts(e);
              return n > 0 ? e.f.class_cycles[NK_CLASS_RX] / n : 0;
            }),
    D::stat("cpu.instructions", "instructions", Kind::Count,
            "Instructions the CPU executed in the window: the C drivers' and kernel layer's own code (cpu.isa) "
            "and the Linux stack's parts (stack.*), each turned into cycles at cpu.kernel_ipc",
            [](const E &e) {
              double n = 0;
              for (double v : e.f.instr) n += v;
              return std::round(n);
            }),
    D::stat("cpu.code_instructions", "instructions", Kind::Count,
            "Of cpu.instructions, those of the C drivers and kernel layer, counted per basic block as they run and "
            "weighed by cpu.isa's compiled code",
            [](const E &e) { return std::round(e.f.code_instr); }),
    D::stat("cpu.instructions_per_rx_pkt", "instructions", Kind::Real,
            "Instructions in RX context (RX poll, refill, RX stack) per delivered frame",
            [](const E &e) {
              const double n = rx_pkts(e);
              return n > 0 ? e.f.instr[NK_CLASS_RX] / n : 0;
            }),
    D::stat("cpu.irq_cycles", "cycles", Kind::Count,
            "CPU cycles in hard-IRQ entry/exit, IRQ handlers and softirq overhead",
            [](const E &e) { return std::round(e.f.class_cycles[NK_CLASS_IRQ]); }),
    D::stat("cpu.uncached_loads", "loads", Kind::Count, "CPU loads from uncached memory",
            window<&CpuCounters::uncached_loads>),
    D::stat("cpu.uncached_stores", "stores", Kind::Count, "CPU stores to uncached memory",
            window<&CpuCounters::uncached_stores>),
    D::stat("cpu.mmio_reads", "reads", Kind::Count, "Device register reads (readl)", window<&CpuCounters::mmio_reads>),
    D::stat("cpu.mmio_writes", "writes", Kind::Count, "Device register writes (writel)",
            window<&CpuCounters::mmio_writes>),
    D::stat("cpu.cache_misses", "accesses", Kind::Count,
            "CPU loads and stores to cacheable memory that missed the data cache (loads stall for DRAM)",
            window<&CpuCounters::cache_misses>),
    D::stat("cpu.cache_maint_lines", "lines", Kind::Count,
            "Cache lines cleaned or invalidated for non-coherent DMA (dma_map/unmap/sync)",
            window<&CpuCounters::cache_lines>),
    D::stat("cpu.memcpy_bytes.aligned", "B", Kind::Count, "Bytes copied by memcpy with (dst ^ src) & 7 == 0",
            window<&CpuCounters::memcpy_bytes_aligned>),
    D::stat("cpu.memcpy_bytes.misaligned", "B", Kind::Count, "Bytes copied by memcpy with (dst ^ src) & 7 != 0",
            window<&CpuCounters::memcpy_bytes_misaligned>),
    D::stat("cpu.irqs", "interrupts", Kind::Count, "Interrupt vectors the CPU took (hard-IRQ entries)",
            window<&CpuCounters::irqs>),
    D::stat("cpu.wc_stores", "stores", Kind::Count,
            "CPU stores to write-combining memory (dma_alloc_wc on a non-coherent platform), merged in the WC buffers",
            window<&CpuCounters::wc_stores>),
    D::stat("cpu.wc_flushes", "bursts", Kind::Count,
            "Write-combining bursts that left the core: a full line, an evicted buffer, or a flush by a barrier or "
            "uncached access",
            window<&CpuCounters::wc_flushes>),
    D::stat("iommu.maps", "mappings", Kind::Count, "IOMMU mappings the DMA API created (iommu.mode strict or lazy)",
            window<&CpuCounters::iommu_maps>),
    D::stat("iommu.unmaps", "mappings", Kind::Count,
            "IOMMU mappings the DMA API removed (strict: each invalidated at once; lazy: through the flush queue)",
            window<&CpuCounters::iommu_unmaps>),
    D::stat("iommu.inv_cmds", "commands", Kind::Count,
            "IOTLB invalidation commands the CPUs queued on the IOMMU's invalidation queue (syncs not counted)",
            window<&CpuCounters::iommu_inv_cmds>),
    D::stat("iommu.inv_syncs", "syncs", Kind::Count,
            "Syncs (VT-d invalidation-wait, SMMUv3 CMD_SYNC) the CPUs queued and spun on, one per submission",
            window<&CpuCounters::iommu_inv_syncs>),
    D::stat("iommu.fq_flushes_full", "flushes", Kind::Count,
            "Lazy mode: domain-wide flushes because a CPU's flush queue was full (iommu.fq_size)",
            window<&CpuCounters::iommu_fq_flushes_full>),
    D::stat("iommu.fq_flushes_timer", "flushes", Kind::Count,
            "Lazy mode: domain-wide flushes by the flush queue's timer (iommu.fq_timeout_ms)",
            window<&CpuCounters::iommu_fq_flushes_timer>),
    D::stat("iommu.inv_wait_us", "us", Kind::Real,
            "CPU time spent waiting for invalidation syncs (queue processing, status write, the poll's miss), all cores",
            [](const E &e) { return static_cast<double>(e.f.window.iommu_inv_wait_ps) / 1e6; }),
    D::stat("iommu.inv_wait_ns_per_pkt", "ns", Kind::Real,
            "iommu.inv_wait_us per frame the host received or sent (rx.pkts + frames handed to the driver)",
            [](const E &e) {
              const double n = static_cast<double>(e.f.window.rx_frames + e.f.window.tx_frames);
              return n > 0 ? static_cast<double>(e.f.window.iommu_inv_wait_ps) / 1000.0 / n : 0;
            }),
    D::stat("irq.latency_ns", "ns", Kind::Real,
            "Mean time from an MSI reaching host memory to the kernel taking it (0 with no interrupts)",
            [](const E &e) {
              const CpuCounters &w = e.f.window;
              return w.irqs ? static_cast<double>(w.irq_latency_ps) / 1000.0 / static_cast<double>(w.irqs) : 0;
            }),
    D::stat("irq.latency_ns_max", "ns", Kind::Real, "Longest time from an MSI reaching host memory to the kernel taking it",
            [](const E &e) { return static_cast<double>(e.f.window.irq_latency_max_ps) / 1000.0; }),
    D::stat("softirq.do_softirq", "runs", Kind::Count,
            "__do_softirq runs begun with NET_RX pending at IRQ exit or local_bh_enable, all cores (docs/host.md, "
            "Softirq)",
            window<&CpuCounters::softirq_do>),
    D::stat("softirq.restarts", "runs", Kind::Count,
            "net_rx_action runs __do_softirq made beyond its first, within cpu.softirq_max_restart and 2 ms",
            window<&CpuCounters::softirq_restarts>),
    D::stat("softirq.deferred", "exits", Kind::Count,
            "IRQ exits and local_bh_enables that left pending NET_RX to a runnable ksoftirqd (cpu.ksoftirqd_defer)",
            window<&CpuCounters::softirq_deferred>),
    D::stat("softirq.ksoftirqd_wakeups", "wakeups", Kind::Count,
            "Times ksoftirqd was woken with NET_RX work: __do_softirq ran out of restarts, time or the CPU (a task "
            "woke)",
            window<&CpuCounters::ksoftirqd_wakeups>),
    D::stat("softirq.ksoftirqd_rounds", "runs", Kind::Count,
            "net_rx_action runs ksoftirqd made, as a task the scheduler shares with the application",
            window<&CpuCounters::ksoftirqd_rounds>),
    D::stat("softirq.ksoftirqd_share", "fraction", Kind::Real,
            "Share of the NET_RX rounds' CPU cycles that ran in ksoftirqd rather than at IRQ exit (perf's "
            "ksoftirqd/N against the interrupted task)",
            [](const E &e) {
              const double k = e.f.window.ksoftirqd_cycles, all = k + e.f.window.softirq_do_cycles;
              return all > 0 ? k / all : 0;
            }),
    D::stat("softirq.time_squeeze", "runs", Kind::Count,
            "net_rx_action runs that stopped at cpu.netdev_budget packets or 2 jiffies with NAPI contexts left "
            "(/proc/net/softnet_stat's third column)",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::time_squeeze); }),
    D::stat("tx.sndbuf_waits", "waits", Kind::Count,
            "Times the host's UDP sender slept on its full socket send buffer (traffic.sndbuf_bytes)",
            window<&CpuCounters::tx_sndbuf_waits>),
    D::stat("tx.pktgen_clones", "frames", Kind::Count,
            "traffic.sender pktgen: frames sent again from an skb already sent (traffic.pktgen_clone_skb: users "
            "bumped, no skb allocated or built)",
            window<&CpuCounters::tx_pktgen_clones>),
    D::stat("tx.wmem_max", "B", Kind::Count,
            "Most skb memory (truesize) the host's sending socket held at once over the run: frames not yet freed by "
            "TX completion",
            [](const E &e) { return static_cast<double>(e.f.kstats.sk_wmem_max); }),
    D::stat("tx.bql_stops", "stops", Kind::Count,
            "Times byte queue limits stopped a TX queue in the window (driver.bql; drivers that call it)",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::bql_stops); }),
    D::stat("tx.bql_limit_max", "B", Kind::Count,
            "Largest BQL limit a TX queue reached over the run (driver.bql): the bytes in flight the completions "
            "called for",
            [](const E &e) { return static_cast<double>(e.f.kstats.bql_limit_peak); }),
    D::stat("gro.merged", "segments", Kind::Count,
            "traffic.protocol tcp: received segments GRO appended to a held packet of their flow",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::gro_merged); }),
    D::stat("gro.flushes", "packets", Kind::Count,
            "traffic.protocol tcp: packets GRO handed to the stack (each through the receive parts once)",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::gro_flushes); }),
    D::stat("xdp.pass", "frames", Kind::Count,
            "driver.xdp: frames the XDP program passed on to the skb path in the window",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::xdp_pass); }),
    D::stat("xdp.drop", "frames", Kind::Count,
            "driver.xdp: frames the XDP program dropped in the window (buffer straight back to the page_pool, no skb)",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::xdp_drop); }),
    D::stat("xdp.tx", "frames", Kind::Count,
            "driver.xdp tx: frames sent back out of the port from the RX path (XDP_TX placed on the TX ring) in the "
            "window",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::xdp_tx); }),
    D::stat("xdp.tx_errors", "frames", Kind::Count,
            "driver.xdp tx: XDP_TX frames dropped in the window because the TX ring had no room",
            [](const E &e) { return e.delta(&S::kstats, &nk_kernel_stats::xdp_tx_errors); }),
    D::stat("total.rx.xdp", "frames", Kind::Count,
            "Whole run: received frames XDP consumed before any skb (dropped, sent back, or dropped for a full TX "
            "ring): part of the RX conservation check",
            [](const E &e) {
              const nk_kernel_stats &k = e.f.kstats;
              return static_cast<double>(k.xdp_drop + k.xdp_tx + k.xdp_tx_errors);
            }),
    D::stat("total.tx.xdp", "frames", Kind::Count,
            "Whole run: frames XDP_TX sent back out (the wire peer receives them besides the host's own): part of "
            "the TX conservation check",
            [](const E &e) { return static_cast<double>(e.f.kstats.xdp_tx); }),
    /* Frames that reached the host: delivered, or discarded or held undelivered by its TCP receiver. */
    D::stat("total.rx.received", "frames", Kind::Count,
            "Whole run: frames the host received intact (tcp: also those its TCP receiver discarded)",
            [](const E &e) {
              const nk_kernel_stats &k = e.f.kstats;
              return static_cast<double>(e.f.total.rx_frames + k.tcp_discards + k.tcp_ooo_held + k.tcp_ooo_purged);
            }),
    D::stat("total.tx.sent", "frames", Kind::Count,
            "Whole run: frames the host handed to the driver (traffic.mode forward: the packets it forwarded)",
            [](const E &e) { return static_cast<double>(e.f.total.tx_frames + e.f.kstats.fwd_xmit); }),
    D::family("cpu.profile.<function>", "fraction", Kind::Real,
              "Share of the window's busy CPU cycles (`cpu.busy_cycles`) spent in a profiled driver or "
              "kernel-like-layer function (the innermost one running); `cpu.profile.unattributed` for cycles outside "
              "any. `nicsim run` lists them below the summary, largest first, with the cycles they stand for.",
              profile),
    D::family("cpu.core<N>.util", "fraction", Kind::Real,
              "With `cpu.cores` >= 2: core N's busy fraction of the window (`cpu.util` is their average; docs/host.md, "
              "Cores).",
              core_util),
    D::family("cpu.core<N>.profile.<function>", "fraction", Kind::Real,
              "With `cpu.cores` >= 2: share of core N's busy cycles in the window spent in the function.", core_profile),
    D::family("cpu.core<N>.softirqs", "softirqs", Kind::Count,
              "With `cpu.irq_affinity` spread (2 or more cores): NET_RX softirq runs of core N that polled, in the "
              "window (docs/host.md, Cores).",
              [](const E &e, stats::FamilyOut &out) { core_rx(e, out, 0); }),
    D::family("cpu.core<N>.napi_polls", "polls", Kind::Count,
              "With `cpu.irq_affinity` spread: NAPI polls core N's softirq ran (its own poll list), in the window.",
              [](const E &e, stats::FamilyOut &out) { core_rx(e, out, 1); }),
    D::family("cpu.core<N>.rx_queue_mask", "", Kind::Count,
              "With `cpu.irq_affinity` spread: bit q set if core N's polls handed frames of RX queue q to the stack "
              "(whole run).",
              [](const E &e, stats::FamilyOut &out) { core_rx(e, out, 2); }),
    D::extra("cpu.lock_wait_cycles", "cycles", Kind::Count,
             "Cycles cores spun waiting for a lock (the kernel lock, or with cpu.locking txq the TX queue and driver "
             "locks) in the window (part of cpu.busy_cycles)",
             [](const E &e) {
               const int b = e.f.lock_wait_bucket;
               return std::round(b >= 0 && b <= S::kUnattributed ? e.f.bucket[b] : 0.0);
             },
             several_cores),
};
}  // namespace

const stats::Table<CpuSnapshot> kCpuStats = stats::table("cpu", kDecls);

}  // namespace nicsim
