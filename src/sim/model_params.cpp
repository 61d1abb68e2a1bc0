// model_params.cpp: every model's Params from a resolved config, with the facts across layers, and their check.
#include "sim/model_params.h"

#include <algorithm>
#include <cmath>

#include "config/derived.h"
#include "drivers/driver.h"
#include "sim/params.h"

namespace nicsim {

namespace {
uint64_t us_to_ps(double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); }
}  // namespace

PcieParams pcie_params(const nicsim_config &cfg) {
  PcieParams p = bind_params<PcieParams>(cfg);
  p.mem_size = static_cast<uint64_t>(cfg.memory.size_mb) << 20;
  p.line_bytes = static_cast<uint32_t>(cfg.cpu.cache_line_bytes);
  return p;
}

AxiParams bus_params(const nicsim_config &cfg) { return bind_params<AxiParams>(cfg); }

HostMemory::Params memory_params(const nicsim_config &cfg) {
  HostMemory::Params p = bind_params<HostMemory::Params>(cfg);
  /* iommu.mode, or iommu.enabled as its shorthand. */
  p.iommu.enabled = nc_iommu_mode(&cfg) != NC_IOMMU_OFF;
  return p;
}

NicDevice::Params nic_params(const nicsim_config &cfg) {
  NicDevice::Params p = bind_params<NicDevice::Params>(cfg);
  /* The MAC carries the traffic's longest frame; its FIFOs and pause
   * levels follow from it where their keys say 0 (config/derived.h). */
  p.mac.max_frame_bytes = static_cast<uint32_t>(nc_mac_max_frame(&cfg));
  p.mac.tx_fifo_bytes = static_cast<uint32_t>(nc_tx_fifo_bytes(&cfg));
  p.mac.xoff_bytes = static_cast<uint32_t>(nc_pause_xoff_bytes(&cfg));
  p.mac.xon_bytes = static_cast<uint32_t>(nc_pause_xon_bytes(&cfg));
  /* The wire peer offers frames during the run's traffic, from its seed. */
  p.peer.duration_ps = us_to_ps(cfg.run.duration_us);
  p.peer.seed = static_cast<uint64_t>(cfg.run.seed);
  /* forward: IPv4 forwarding edits the frames; XDP_TX sends them back as they came. */
  p.peer.fwd_rewrite = cfg.driver.xdp != NC_XDP_TX;
  /* DWMAC4 sets TBU when the TX DMA finds the next descriptor not its own
   * (it has sent everything it was given); the stmmac driver enables it
   * with TBUE (driver.stmmac_tbu). */
  p.dma.tx_irq_on_drain = cfg.nic.family == NC_NIC_STMMAC && cfg.driver.stmmac_tbu;
  /* A driver with dedicated XDP rings (i40e) has one more TX queue per RX
   * queue with driver.xdp, after nic.tx_queues; the vectors stay one per
   * queue pair (the driver links each XDP ring to its RX ring's vector). */
  const uint32_t txq = nk_driver_device_tx_queues(nk_driver_of(&cfg), &cfg);
  if (txq != p.dma.tx_queues) {
    p.dma.vectors = std::max(p.dma.rx_queues, p.dma.tx_queues);
    p.dma.tx_queues = txq;
  }
  return p;
}

CpuCore::Params cpu_params(const nicsim_config &cfg) {
  CpuCore::Params p = bind_params<CpuCore::Params>(cfg);
  /* What the host sees of memory and the IOMMU (their keys are theirs). */
  p.uncached_load_ps = static_cast<uint64_t>(std::llround(cfg.memory.uncached_load_ns * 1000.0));
  p.dram_ps = static_cast<uint64_t>(std::llround(cfg.memory.dram_latency_ns * 1000.0));
  p.coherent_dma = cfg.memory.coherent_dma;
  p.ddio = cfg.memory.ddio;
  p.iommu = nc_iommu_mode(&cfg) != NC_IOMMU_OFF;
  p.iommu_smmuv3 = cfg.iommu.kind == NC_IOMMU_SMMUV3;
  p.iommu_map_cycles = cfg.iommu.map_cycles;
  p.iommu_unmap_cycles = cfg.iommu.unmap_cycles;
  /* The run's window, the payload pattern's seed, the NIC's line rate. */
  p.end_ps = us_to_ps(cfg.run.duration_us + cfg.run.drain_us);
  p.stack.seed = static_cast<uint64_t>(cfg.run.seed);
  p.app.traffic_end_ps = us_to_ps(cfg.run.duration_us);
  p.app.line_rate_gbps = cfg.nic.line_rate_gbps;
  /* The kernel layer and the driver read the run's config themselves. */
  const nicsim_config *c = &cfg;
  p.make_kernel = [c](const nk_platform *pl, char *err, size_t errlen) { return nk_kernel_create(pl, c, nk_driver_of(c), err, errlen); };
  return p;
}

DmaBenchParams dma_bench_params(const nicsim_config &cfg) {
  DmaBenchParams p = bind_params<DmaBenchParams>(cfg);
  p.llc_bytes = static_cast<uint64_t>(std::llround(cfg.memory.llc_mb * 1048576.0));
  p.seed = static_cast<uint64_t>(cfg.run.seed);
  p.warmup_ps = us_to_ps(cfg.run.warmup_us);
  p.stop_ps = us_to_ps(cfg.run.duration_us);
  return p;
}

static ParamCheck check_run_window(const nicsim_config &cfg) {
  /* The run is src/sim's: it measures [warmup, duration) of the traffic. */
  if (cfg.run.warmup_us >= cfg.run.duration_us) {
    const std::string w = real_text(cfg.run.warmup_us), d = real_text(cfg.run.duration_us);
    return param_error({"run.warmup_us", "run.duration_us"},
                       "set run.warmup_us below " + d + ", or run.duration_us above " + w,
                       "run.warmup_us (%s us) must be below run.duration_us (%s us)", w.c_str(), d.c_str());
  }
  return std::nullopt;
}

int check_model_params(const nicsim_config &cfg, nc_error *err) {
  ParamCheck e = check_run_window(cfg);
  if (!e) e = cpu_params(cfg).validate();
  if (!e) e = memory_params(cfg).validate();
  if (!e) e = cfg.bus.enabled ? bus_params(cfg).validate() : pcie_params(cfg).validate();
  if (!e) e = cfg.workload.kind == NC_WORKLOAD_NIC ? nic_params(cfg).validate() : dma_bench_params(cfg).validate();
  return e ? param_config_error(cfg, *e, err) : 0;
}

int check_model_params_all(const nicsim_config &cfg, nc_errors *errs) {
  const ParamCheck groups[] = {
      check_run_window(cfg),
      cpu_params(cfg).validate(),
      memory_params(cfg).validate(),
      cfg.bus.enabled ? bus_params(cfg).validate() : pcie_params(cfg).validate(),
      cfg.workload.kind == NC_WORKLOAD_NIC ? nic_params(cfg).validate() : dma_bench_params(cfg).validate(),
  };
  int bad = 0;
  for (const ParamCheck &e : groups) {
    if (!e) continue;
    nc_error err{};
    param_config_error(cfg, *e, &err);
    nc_errors_add_blamed(errs, &cfg, &err);
    bad = -1;
  }
  return bad;
}

}  // namespace nicsim
