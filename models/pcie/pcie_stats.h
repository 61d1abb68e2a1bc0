/* pcie_stats.h: the PCIe link's statistics (pcie.*), over snapshots of its counters. */
#ifndef NICSIM_MODELS_PCIE_PCIE_STATS_H
#define NICSIM_MODELS_PCIE_PCIE_STATS_H

#include "common/stats.h"
#include "pcie/pcie_counters.h"

namespace nicsim {

/* The link's counters at one instant. */
struct PcieSnapshot {
  PcieDirCounters up;   /* device to host */
  PcieDirCounters down; /* host to device */
  PcieReadStats rd;     /* the device's reads */
  uint64_t partial_lines = 0; /* PcieLink::partial_line_writes() */
  uint64_t cold_reads = 0;    /* PcieLink::cold_reads() */
};

/* The two directions' counters, for the per-purpose figures. */
struct PcieDirs {
  PcieDirCounters up;
  PcieDirCounters down;
};

/* TLPs, bytes, utilisation, credits and reads of the window. */
extern const stats::Table<PcieSnapshot> kPcieStats;
/* The same traffic by DMA purpose (pcie.<up|down>.<purpose>.tlps|bytes). */
extern const stats::Table<PcieDirs> kPciePurposeStats;

}  // namespace nicsim
#endif
