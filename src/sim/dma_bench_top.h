/*
 * dma_bench_top.h: the SystemC top of a dma-bench run: the bench initiator, the
 * interconnect (the PCIe link, or the AXI-like on-chip bus with
 * bus.enabled) and host memory (no NIC, no CPU), their statistics
 * snapshotted at the window edges, and the run's outcome.
 */
#ifndef NICSIM_SIM_DMA_BENCH_TOP_H
#define NICSIM_SIM_DMA_BENCH_TOP_H

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "bus/axi_bus.h"
#include "config/config.h"
#include "memory/host_memory.h"
#include "pcie/pcie_link.h"
#include "common/stats.h"
#include "results/metrics.h"
#include "workload/dma_bench.h"

namespace nicsim {

/* The modules of one dma-bench simulation. */
class DmaBenchTop : public sc_core::sc_module {
  nicsim_config m_cfg; /* first: the modules are built from it */

 public:
  HostMemory mem;
  DmaBench bench;
  PcieLink *pcie = nullptr; /* the interconnect: one of these two (never deleted, as the top) */
  AxiBus *bus = nullptr;
  tlm_utils::simple_initiator_socket<DmaBenchTop> no_cpu; /* binds the link's MMIO side; nothing uses it */

  /* Builds and binds the modules for cfg (checked: nicsim_check_config). */
  DmaBenchTop(sc_core::sc_module_name name, const nicsim_config &cfg);

  /* Simulated time (ps) the run lasts: duration plus drain. */
  uint64_t time_limit_ps() const { return m_end_ps; }
  /* True (with component, msg, time) if something went wrong. */
  bool violated() const { return m_violated; }
  const std::string &component() const { return m_component; }
  const std::string &message() const { return m_msg; }
  double violation_time_ns() const { return m_time_ns; }
  /* Fills the dma.* metrics of the window, the pcie.* ones on PCIe (bus.*
   * on the bus), mem.*, iommu.* and sim.*; wall_s: the run's wall-clock time. */
  size_t fill_results(nicsim_results *res, double wall_s);

 private:
  void snapshot_thread();
  void report(const std::string &component, const std::string &msg);

  uint64_t m_warmup_ps;
  uint64_t m_duration_ps;
  uint64_t m_end_ps;
  stats::Registry m_stats; /* the interconnect's and host memory's statistics */
  bool m_violated = false;
  std::string m_component, m_msg;
  double m_time_ns = 0;
};

}  // namespace nicsim
#endif
