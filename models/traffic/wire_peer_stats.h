/* wire_peer_stats.h: the wire peer's statistics (what it sent and received over the whole run). */
#ifndef NICSIM_MODELS_TRAFFIC_WIRE_PEER_STATS_H
#define NICSIM_MODELS_TRAFFIC_WIRE_PEER_STATS_H

#include "common/stats.h"
#include "traffic/wire_peer_counters.h"

namespace nicsim {

extern const stats::Table<WirePeerCounters> kWirePeerStats;

}  // namespace nicsim
#endif
