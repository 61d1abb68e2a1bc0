/* mac_stats.h: the Ethernet MAC's statistics (the wire side: tx.*, FIFO drops, PAUSE frames). */
#ifndef NICSIM_MODELS_MAC_MAC_STATS_H
#define NICSIM_MODELS_MAC_MAC_STATS_H

#include "common/stats.h"
#include "mac/mac_counters.h"

namespace nicsim {

extern const stats::Table<MacCounters> kMacStats;

}  // namespace nicsim
#endif
