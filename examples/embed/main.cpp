/*
 * main.cpp: embedding example (docs/embedding.md). A "virtual platform" of
 * its own builds nicsim's NIC (MAC, DMA engine, wire peer), PCIe link and
 * CPU core around ITS OWN memory target (simple_memory.h), lets the CPU core
 * run nicsim's C kernel layer and driver, runs the traffic of a nicsim
 * scenario, and prints the same summary and metrics `nicsim run` prints:
 * the models declare their statistics (models/common/stats.h), and the
 * platform registers them, snapshots them at the window's edges and fills
 * nicsim's results from them, as nicsim's own top does.
 *
 *   nicsim_embed [SCENARIO.yaml] [--point LABEL] [--set KEY=VALUE]... [--json FILE]
 *
 * Without SCENARIO.yaml it runs nicsim's built-in default scenario; --point
 * picks a sweep point (else the base point). With the same scenario, point
 * and --set values, its metrics equal `nicsim run`'s (the
 * memory here, like nicsim's, answers at the time of the call). Exit status:
 * 0 success, 1 simulation error, 2 bad input.
 */
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include <nicsim/common/dma_purpose.h>
#include <nicsim/common/stats.h>
#include <nicsim/config/config.h>
#include <nicsim/cpu/cpu_core.h>
#include <nicsim/dma/dma_engine.h>
#include <nicsim/mac/mac.h>
#include <nicsim/memory/host_memory.h>
#include <nicsim/nic/nic_device.h>
#include <nicsim/pcie/pcie_link.h>
#include <nicsim/results/metrics.h>
#include <nicsim/results/output.h>
#include <nicsim/sim/model_params.h>
#include <nicsim/sim/stats_results.h>
#include <nicsim/traffic/wire_peer.h>

#include "simple_memory.h"

namespace {

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
uint64_t us_to_ps(double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); }

/* The embedder's platform: its memory plus nicsim's NIC, link and CPU. */
class Platform : public sc_core::sc_module {
 public:
  /* Built in this order (as nicsim's own top builds them, so that processes
   * at the same instant run in the same order and the results match). */
  SimpleMemory mem;      /* the embedder's own memory target */
  nicsim::NicDevice nic;
  nicsim::CpuCore cpu;   /* runs nicsim's C kernel layer and driver */
  nicsim::PcieLink pcie;

  bool violated = false;
  std::string violation;
  bool finished = false;
  int check_rc = 0;
  std::string check_msg;

  Platform(sc_core::sc_module_name name, const nicsim_config &cfg)
      : sc_module(name),
        mem("mem", static_cast<uint64_t>(cfg.memory.size_mb) << 20,
            nicsim::HostMemory::default_msi_addr(static_cast<uint64_t>(cfg.memory.size_mb) << 20)),
        nic("nic", nicsim::nic_params(cfg)),
        cpu("cpu", nicsim::cpu_params(cfg), mem),
        pcie("pcie", nicsim::pcie_params(cfg)),
        m_warmup_ps(us_to_ps(cfg.run.warmup_us)),
        m_duration_ps(us_to_ps(cfg.run.duration_us)) {
    /* The TLM boundaries: device DMA -> link -> memory; CPU MMIO -> link -> BAR0. */
    nic.dma.bind(pcie.dev);
    pcie.mem.bind(mem.tgt);
    cpu.mmio.bind(pcie.host);
    pcie.regs.bind(nic.regs);

    /* Interrupts: the memory decodes MSI writes, the CPU core takes them. */
    mem.on_msi = [this](uint32_t data) { cpu.raise_msi(data); };
    auto stop = [this](const std::string &who, const std::string &msg) {
      if (violated) return;
      violated = true;
      char t[48];
      std::snprintf(t, sizeof t, " (at %.3f ns)", static_cast<double>(now_ps()) / 1000.0);
      violation = who + ": " + msg + t;
      sc_core::sc_stop();
    };
    mem.on_violation = stop;
    pcie.on_violation = stop;
    nic.on_violation = stop;
    cpu.on_violation = [stop](const std::string &c, const std::string &m, double) { stop(c, m); };
    /* Ownership check of CPU stores into descriptor slots the device owns. */
    cpu.device_owns = [this](uint64_t pa) { return nic.device_owns(pa); };
    /* RO on data TLPs the driver mapped with DMA_ATTR_WEAK_ORDERING. */
    nic.engine().set_relaxed_ordering_fn([this](uint64_t pa) {
      const nk_kernel *k = cpu.kernel();
      return k != nullptr && (nk_dma_attrs(k, pa) & DMA_ATTR_WEAK_ORDERING) != 0;
    });
    /* The CPU counts its window, drains, removes the driver and checks the kernel. */
    cpu.set_window(m_warmup_ps, m_duration_ps);
    cpu.drained = [this] { return in_flight() == 0; };
    cpu.on_finished = [this](int rc, const std::string &msg) {
      stats.snapshot(nicsim::stats::Edge::Finish);
      finished = true;
      check_rc = rc;
      check_msg = msg;
      sc_core::sc_stop();
    };
    /* Every statistic the models declare, plus the run's and the system's
     * (what nicsim run reports, but host memory's own: this memory is ours). */
    nic.add_stats(stats);
    cpu.add_stats(stats);
    pcie.add_stats(stats);
    nicsim::add_system_stats(stats, nic, cpu);
    nicsim::add_run_stats(stats);
    SC_HAS_PROCESS(Platform);
    SC_THREAD(window_thread);
  }

  /* Frames offered or sent and not yet delivered, dropped or received. */
  int64_t in_flight() const {
    const nicsim::WirePeerCounters p = nic.peer().counters(); /* first: the MAC gets its arrivals */
    const nicsim::MacCounters m = nic.mac().counters();
    const nicsim::CpuCounters &h = cpu.total();
    const int64_t rx = static_cast<int64_t>(p.rx_offered_frames) -
                       static_cast<int64_t>(h.rx_frames + m.rx_drop_fifo + nic.engine().counters().rx_drop_nodesc);
    const int64_t tx = static_cast<int64_t>(h.tx_frames) - static_cast<int64_t>(p.tx_ok + p.tx_errors);
    return (rx > 0 ? rx : 0) + (tx > 0 ? tx : 0);
  }

  /* Every registered statistic, as nicsim computes it (the same declarations). */
  void fill(const nicsim_config &cfg, double wall_s, nicsim_results *res) {
    if (!stats.taken(nicsim::stats::Edge::Finish)) stats.snapshot(nicsim::stats::Edge::Finish);
    const uint64_t end_ps = us_to_ps(cfg.run.duration_us + cfg.run.drain_us);
    nicsim::fill_results(stats, nicsim::run_facts(m_warmup_ps, m_duration_ps, end_ps, wall_s), res);
  }

 private:
  /* Snapshots the statistics at the edges of the measurement window. */
  void window_thread() {
    wait(sc_core::sc_time::from_value(m_warmup_ps));
    stats.snapshot(nicsim::stats::Edge::Warmup);
    wait(sc_core::sc_time::from_value(m_duration_ps - m_warmup_ps));
    stats.snapshot(nicsim::stats::Edge::Duration);
  }

  nicsim::stats::Registry stats;
  uint64_t m_warmup_ps;
  uint64_t m_duration_ps;
};

int usage() {
  std::fprintf(stderr, "usage: nicsim_embed [SCENARIO.yaml] [--point LABEL] [--set KEY=VALUE]... [--json FILE]\n"
                       "                    [--mem-latency-ns NS]  (the embedder's memory's own latency, default 0)\n");
  return 2;
}

}  // namespace

/* SystemC's start-up (sc_elab_and_sim, from main below) calls this. */
int sc_main(int argc, char **argv) {
  const char *scenario = nullptr, *json = nullptr, *point = nullptr;
  std::vector<const char *> sets;
  double mem_latency_ns = 0;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
      sets.push_back(argv[++i]);
    } else if (std::strcmp(argv[i], "--point") == 0 && i + 1 < argc) {
      point = argv[++i];
    } else if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
      json = argv[++i];
    } else if (std::strcmp(argv[i], "--mem-latency-ns") == 0 && i + 1 < argc) {
      char *end = nullptr;
      mem_latency_ns = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(mem_latency_ns >= 0 && mem_latency_ns <= 1e6)) {
        std::fprintf(stderr, "nicsim_embed: --mem-latency-ns wants a number of ns from 0 to 1e6, not '%s'\n", argv[i]);
        return 2;
      }
    } else if (argv[i][0] != '-' && !scenario) {
      scenario = argv[i];
    } else {
      return usage();
    }
  }

  /* The configuration: a scenario (nicsim's built-in default without one),
   * resolved with --set overrides and validated by nicsim's config API. */
  nc_scenario *s = nullptr;
  nc_error err;
  static nicsim_config cfg; /* large: static, and it must outlive the modules */
  if (nc_scenario_load(scenario, &s, &err) != 0) {
    nc_error_print(&err, stderr);
    return 2;
  }
  const long index = point ? nc_scenario_find_point(s, point) : -1;
  if (point && index < 0) {
    std::fprintf(stderr, "nicsim_embed: the scenario has no sweep point '%s'\n", point);
    nc_scenario_free(s);
    return 2;
  }
  if (nc_scenario_resolve(s, index, sets.data(), sets.size(), &cfg, &err) != 0) {
    nc_error_print(&err, stderr);
    nc_scenario_free(s);
    return 2;
  }
  nc_scenario_free(s);
  if (cfg.bus.enabled || cfg.workload.kind == NC_WORKLOAD_DMA_BENCH) {
    std::fprintf(stderr, "nicsim_embed: this example wires a PCIe link to a NIC: bus.enabled and "
                         "workload.kind dma-bench are not supported\n");
    return 2;
  }

  /* No info reports on stdout (as nicsim run). */
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS); /* nicsim's models need 1 ps */
  /* Never deleted: the CPU thread may be suspended inside driver code at the end. */
  const auto wall0 = std::chrono::steady_clock::now();
  Platform *top = new Platform("top", cfg);
  top->mem.set_latency(sc_core::sc_time::from_value(static_cast<uint64_t>(std::llround(mem_latency_ns * 1000.0))));
  /* Past the end of the drain, as long again (at least 10 ms) for stragglers. */
  const uint64_t end_ps = us_to_ps(cfg.run.duration_us + cfg.run.drain_us);
  const uint64_t extra = std::max<uint64_t>(10 * us_to_ps(cfg.run.drain_us), us_to_ps(10000));
  sc_core::sc_start(sc_core::sc_time::from_value(end_ps + extra));

  if (top->violated) {
    std::fprintf(stderr, "nicsim_embed: %s\n", top->violation.c_str());
    return 1;
  }
  if (!top->finished || top->in_flight() != 0 || top->check_rc != 0) {
    std::fprintf(stderr, "nicsim_embed: the run did not finish cleanly (%" PRId64 " frames in flight%s%s)\n",
                 top->in_flight(), top->check_rc ? "; kernel check: " : "", top->check_msg.c_str());
    return 1;
  }

  static nicsim_results res; /* large: static */
  top->fill(cfg, std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count(), &res);
  nicsim_summary_print(stdout, &cfg, &res);

  /* What the embedder's memory saw, by TlpExt purpose. */
  const SimpleMemory::Counters &mc = top->mem.counters();
  std::printf("\nEmbedder's memory (whole run)\n");
  for (unsigned p = 0; p < nicsim::kDmaPurposes; p++)
    if (mc.requests[p])
      std::printf("  %-16s %10" PRIu64 " requests %12" PRIu64 " B\n",
                  nicsim::dma_purpose_name(static_cast<nicsim::DmaPurpose>(p)), mc.requests[p], mc.bytes[p]);
  std::printf("  %-16s %10" PRIu64 "\n", "MSIs", mc.msis);
  std::printf("  %-16s %10" PRIu64 "\n", "RO requests", mc.ro_requests);

  /* Every metric, one per line: name value unit. */
  std::printf("\nMetrics\n");
  nicsim_metric_view v;
  char buf[64];
  for (size_t i = 0; nicsim_results_at(&res, i, &v); i++) {
    nicsim_format_metric(v.value, v.kind, buf, sizeof buf);
    std::printf("  %s %s %s\n", v.name, buf, v.unit);
  }
  if (json && nicsim_json_write(json, "embed", &cfg, &res) != 0) {
    std::fprintf(stderr, "nicsim_embed: cannot write %s\n", json);
    return 2;
  }
  return 0;
}

/* Our own main() (it takes precedence over libsystemc's): no SystemC banner,
 * then SystemC's usual start-up, which calls sc_main. */
int main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
