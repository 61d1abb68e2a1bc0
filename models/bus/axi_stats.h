/* axi_stats.h: the on-chip bus's statistics (bus.*), over snapshots of its counters. */
#ifndef NICSIM_MODELS_BUS_AXI_STATS_H
#define NICSIM_MODELS_BUS_AXI_STATS_H

#include "bus/axi_counters.h"
#include "common/stats.h"

namespace nicsim {

/* Channel utilisation, bursts and slot stalls of the window. */
extern const stats::Table<AxiCounters> kAxiStats;
/* A device's traffic on the bus: its wired interrupts and its bursts and
 * bytes by DMA purpose (the NIC workload). */
extern const stats::Table<AxiCounters> kAxiDeviceStats;

}  // namespace nicsim
#endif
