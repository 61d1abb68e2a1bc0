/*
 * pcie_metrics.h: fills the pcie.* and dma.* metrics of a window from two snapshots of
 * the link's counters and read statistics (shared by the NIC and dma-bench tops), and
 * the dma.* metrics and bus.* extras of a window on the on-chip bus (NIC top).
 */
#ifndef NICSIM_SIM_PCIE_METRICS_H
#define NICSIM_SIM_PCIE_METRICS_H

#include "bus/axi_bus.h"
#include "pcie/pcie_link.h"
#include "results/metrics.h"

namespace nicsim {

/* Link counters at one instant. */
struct PcieSnapshot {
  PcieDirCounters up;
  PcieDirCounters down;
  PcieReadStats rd;
  uint64_t partial_lines = 0; /* PcieLink::partial_line_writes() */
  uint64_t cold_reads = 0;    /* PcieLink::cold_reads() */
};

/* Takes a snapshot of link now into s (large: keep it off coroutine stacks). */
void pcie_snapshot(const PcieLink &link, PcieSnapshot &s);
/* Sets every pcie.* and dma.* metric for the window from a to b, win_ps long (ps); outstanding_max is b's. */
void fill_pcie_metrics(nicsim_results *res, const PcieSnapshot &a, const PcieSnapshot &b, double win_ps);
/* Sets dma.* and the bus.* extras (utilisation, bursts, slot stalls, bursts and bytes
 * per DMA purpose, wired interrupts) for the window from a to b, win_ps long (ps). */
void fill_bus_metrics(nicsim_results *res, const AxiCounters &a, const AxiCounters &b, double win_ps);

}  // namespace nicsim
#endif
