/*
 * top_stats.h: the statistics the top declares: the run's own (sim.*) and
 * the system-level figures that span models (a per-frame ratio of CPU
 * cycles over the MAC's frames, TCP counts of host and wire peer). No
 * SystemC: the catalogue (stats_catalog.cpp) lists them.
 */
#ifndef NICSIM_SIM_TOP_STATS_H
#define NICSIM_SIM_TOP_STATS_H

#include "common/stats.h"
#include "cpu/cpu_stats.h"
#include "mac/mac_counters.h"
#include "traffic/wire_peer_counters.h"

namespace nicsim {

/* The run's facts alone (stats::Run): nothing to snapshot. */
struct RunFacts {};
/* sim.time_ns, sim.events, sim.wall_s: every run. */
extern const stats::Table<RunFacts> kRunStats;

/* The models a system-level figure spans, at one instant. */
struct SystemSnapshot {
  CpuSnapshot cpu;
  MacCounters mac;
  WirePeerCounters peer;
};
/* A NIC run's figures across the host, the NIC and the wire peer. */
extern const stats::Table<SystemSnapshot> kSystemStats;

}  // namespace nicsim
#endif
