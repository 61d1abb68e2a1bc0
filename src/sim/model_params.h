/*
 * model_params.h: each model's Params from a resolved config: the keys its
 * bind() names (sim/params.h), plus the facts that span layers, which only
 * src/sim computes (the traffic's longest frame sizing the MAC's FIFOs, a
 * driver key turning a device behaviour on, the run's window). And the
 * check of a config against every rule of the models a run builds.
 */
#ifndef NICSIM_SIM_MODEL_PARAMS_H
#define NICSIM_SIM_MODEL_PARAMS_H

#include "bus/axi_bus.h"
#include "config/config.h"
#include "cpu/cpu_core.h"
#include "memory/host_memory.h"
#include "nic/nic_device.h"
#include "pcie/pcie_params.h"
#include "workload/dma_bench.h"

namespace nicsim {

PcieParams pcie_params(const nicsim_config &cfg);
AxiParams bus_params(const nicsim_config &cfg);
HostMemory::Params memory_params(const nicsim_config &cfg);
NicDevice::Params nic_params(const nicsim_config &cfg);
/* The host; its make_kernel creates the kernel layer with cfg, which must
 * outlive the core. */
CpuCore::Params cpu_params(const nicsim_config &cfg);
DmaBenchParams dma_bench_params(const nicsim_config &cfg);

/* The first rule broken by cfg's run window (run.*, src/sim's own) or by
 * the Params of the models its run builds (the host, host memory, its
 * interconnect, its workload), as a config error at the blamed key: -1 with
 * *err filled; else 0. */
int check_model_params(const nicsim_config &cfg, nc_error *err);
/* The same, adding the first broken rule of each group (the run's window,
 * each model) to *errs (nc_errors_add_blamed). 0 or -1. */
int check_model_params_all(const nicsim_config &cfg, nc_errors *errs);

}  // namespace nicsim
#endif
