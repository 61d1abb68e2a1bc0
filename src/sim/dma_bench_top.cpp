// dma_bench_top.cpp: builds the dma-bench top, snapshots the interconnect at the window edges and fills the metrics.
#include "sim/dma_bench_top.h"

#include <cmath>

namespace nicsim {

namespace {
uint64_t us_to_ps(double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); }
}  // namespace

DmaBenchTop::DmaBenchTop(sc_core::sc_module_name name, const nicsim_config &cfg)
    : sc_module(name),
      m_cfg(cfg),
      mem("mem", static_cast<uint64_t>(cfg.memory.size_mb) << 20,
          HostMemory::default_msi_addr(static_cast<uint64_t>(cfg.memory.size_mb) << 20)),
      bench("bench", DmaBenchParams::from_config(m_cfg)),
      no_cpu("no_cpu"),
      m_warmup_ps(us_to_ps(cfg.run.warmup_us)),
      m_duration_ps(us_to_ps(cfg.run.duration_us)),
      m_end_ps(us_to_ps(cfg.run.duration_us + cfg.run.drain_us)) {
  auto rep = [this](const std::string &c, const std::string &m) { report(c, m); };
  if (m_cfg.bus.enabled) {
    bus = new AxiBus("bus", AxiParams::from_config(m_cfg));
    bench.socket.bind(bus->dev);
    bus->mem.bind(mem.tgt);
    bus->on_violation = rep;
    no_cpu.bind(bench.regs);
  } else {
    pcie = new PcieLink("pcie", PcieParams::from_config(m_cfg));
    bench.socket.bind(pcie->dev);
    pcie->regs.bind(bench.regs);
    pcie->mem.bind(mem.tgt);
    no_cpu.bind(pcie->host);
    pcie->on_violation = rep;
    /* pcie-bench's host cache state decides whether a read misses the LLC. */
    pcie->set_llc_hit_fn([this](uint64_t, uint32_t) { return bench.llc_hit(); });
  }
  mem.on_violation = rep;
  mem.set_dram_bw(m_cfg.memory.dram_bw_gbps);
  mem.set_iommu(IommuParams::from_config(m_cfg));
  bench.on_violation = rep;
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
  m_dram_at_warmup = mem.dram().counters_at(now_ps());
  m_iommu_at_warmup = mem.iommu().counters();
  if (pcie) {
    pcie_snapshot(*pcie, m_at_warmup);
    pcie->reset_outstanding_max();
  } else {
    m_bus_at_warmup = bus->counters();
  }
  wait(sc_core::sc_time::from_value(m_duration_ps - m_warmup_ps));
  m_dram_at_duration = mem.dram().counters_at(now_ps());
  m_iommu_at_duration = mem.iommu().counters();
  if (pcie)
    pcie_snapshot(*pcie, m_at_duration);
  else
    m_bus_at_duration = bus->counters();
}

void DmaBenchTop::fill_results(nicsim_results *res) const {
  nicsim_results_init(res);
  const double win_ps = static_cast<double>(m_duration_ps - m_warmup_ps);
  if (pcie) {
    fill_pcie_metrics(res, m_at_warmup, m_at_duration, win_ps);
  } else {
    const AxiCounters &a = m_bus_at_warmup, &b = m_bus_at_duration;
    nicsim_results_set(res, NM_DMA_GBPS, static_cast<double>(b.dma_bytes - a.dma_bytes) * 8.0 / (win_ps / 1000.0));
    nicsim_results_set(res, NM_DMA_RD_LATENCY_NS, b.dma_rd_latency.mean_ps_since(a.dma_rd_latency) / 1000.0);
    nicsim_results_set(res, NM_DMA_RD_LATENCY_NS_P99,
                       b.dma_rd_latency.quantile_ps_since(a.dma_rd_latency, 0.99) / 1000.0);
    /* The bus's own figures, as extras (named at run time, like the per-purpose link traffic). */
    nicsim_results_set_extra(res, "bus.rd_util", "fraction", NM_KIND_REAL, "Busy fraction of the bus's read-data channel",
                             static_cast<double>(b.rd_busy_ps - a.rd_busy_ps) / win_ps);
    nicsim_results_set_extra(res, "bus.wr_util", "fraction", NM_KIND_REAL,
                             "Busy fraction of the bus's write-data channel",
                             static_cast<double>(b.wr_busy_ps - a.wr_busy_ps) / win_ps);
    nicsim_results_set_extra(res, "bus.bursts", "bursts", NM_KIND_COUNT, "Read and write bursts on the bus",
                             static_cast<double>(b.rd_bursts + b.wr_bursts - a.rd_bursts - a.wr_bursts));
    nicsim_results_set_extra(res, "bus.slot_stalls", "bursts", NM_KIND_COUNT,
                             "Bursts that waited for an outstanding-transaction slot",
                             static_cast<double>(b.slot_stalls - a.slot_stalls));
  }
  /* Host memory: the DRAM channel and the IOMMU (memory.dram_bw_gbps, iommu.*). */
  const DramChannel::Counters &da = m_dram_at_warmup, &db = m_dram_at_duration;
  const double dram_acc = static_cast<double>(db.accesses - da.accesses);
  nicsim_results_set(res, NM_MEM_DRAM_BUSY_FRAC, static_cast<double>(db.busy_ps - da.busy_ps) / win_ps);
  nicsim_results_set(res, NM_MEM_DRAM_WAIT_NS,
                     dram_acc > 0 ? static_cast<double>(db.wait_ps - da.wait_ps) / 1000.0 / dram_acc : 0);
  nicsim_results_set(res, NM_MEM_DRAM_BYTES, static_cast<double>(db.bytes - da.bytes));
  nicsim_results_set(res, NM_IOMMU_IOTLB_HITS, static_cast<double>(m_iommu_at_duration.hits - m_iommu_at_warmup.hits));
  nicsim_results_set(res, NM_IOMMU_IOTLB_MISSES,
                     static_cast<double>(m_iommu_at_duration.misses - m_iommu_at_warmup.misses));
  nicsim_results_set(res, NM_SIM_TIME_NS, static_cast<double>(m_end_ps / 1000));
  nicsim_results_set(res, NM_SIM_EVENTS, static_cast<double>(sc_core::sc_delta_count()));
}

}  // namespace nicsim
