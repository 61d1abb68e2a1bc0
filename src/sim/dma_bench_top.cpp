// dma_bench_top.cpp: builds the dma-bench top, snapshots its statistics at the window edges and fills the metrics.
#include "sim/dma_bench_top.h"

#include <cmath>

#include "sim/model_params.h"
#include "sim/stats_results.h"

namespace nicsim {

namespace {
uint64_t us_to_ps(double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); }
}  // namespace

DmaBenchTop::DmaBenchTop(sc_core::sc_module_name name, const nicsim_config &cfg)
    : sc_module(name),
      m_cfg(cfg),
      mem("mem", memory_params(cfg)),
      bench("bench", dma_bench_params(m_cfg)),
      no_cpu("no_cpu"),
      m_warmup_ps(us_to_ps(cfg.run.warmup_us)),
      m_duration_ps(us_to_ps(cfg.run.duration_us)),
      m_end_ps(us_to_ps(cfg.run.duration_us + cfg.run.drain_us)) {
  auto rep = [this](const std::string &c, const std::string &m) { report(c, m); };
  if (m_cfg.bus.enabled) {
    bus = new AxiBus("bus", bus_params(m_cfg));
    bench.socket.bind(bus->dev);
    bus->mem.bind(mem.tgt);
    bus->on_violation = rep;
    no_cpu.bind(bench.regs);
  } else {
    pcie = new PcieLink("pcie", pcie_params(m_cfg));
    bench.socket.bind(pcie->dev);
    pcie->regs.bind(bench.regs);
    pcie->mem.bind(mem.tgt);
    no_cpu.bind(pcie->host);
    pcie->on_violation = rep;
    /* pcie-bench's host cache state decides whether a read misses the LLC. */
    pcie->set_llc_hit_fn([this](uint64_t, uint32_t) { return bench.llc_hit(); });
  }
  mem.on_violation = rep;
  bench.on_violation = rep;
  /* No per-purpose figures: the bench's requests are all data. */
  if (pcie)
    pcie->add_stats(m_stats, false);
  else
    bus->add_stats(m_stats, false);
  mem.add_stats(m_stats);
  add_run_stats(m_stats);
  SC_HAS_PROCESS(DmaBenchTop);
  SC_THREAD(snapshot_thread);
}

void DmaBenchTop::report(const std::string &component, const std::string &msg) {
  if (m_violated) return;
  m_violated = true;
  m_component = component;
  m_msg = msg;
  m_time_ns = static_cast<double>(now_ps()) / 1000.0;
  sc_core::sc_stop();
}

void DmaBenchTop::snapshot_thread() {
  wait(sc_core::sc_time::from_value(m_warmup_ps));
  m_stats.snapshot(stats::Edge::Warmup);
  wait(sc_core::sc_time::from_value(m_duration_ps - m_warmup_ps));
  m_stats.snapshot(stats::Edge::Duration);
}

size_t DmaBenchTop::fill_results(nicsim_results *res, double wall_s) {
  m_stats.snapshot(stats::Edge::Finish);
  return nicsim::fill_results(m_stats, run_facts(m_warmup_ps, m_duration_ps, m_end_ps, wall_s), res);
}

}  // namespace nicsim
