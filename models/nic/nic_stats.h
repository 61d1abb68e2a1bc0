/* nic_stats.h: the NIC's own statistics: the frames it dropped, counted by two of its parts. */
#ifndef NICSIM_MODELS_NIC_NIC_STATS_H
#define NICSIM_MODELS_NIC_NIC_STATS_H

#include <cstdint>

#include "common/stats.h"

namespace nicsim {

/* The NIC's drops at one instant (NicDevice::add_stats). */
struct NicDrops {
  uint64_t fifo = 0;   /* the MAC's: RX FIFO full */
  uint64_t nodesc = 0; /* the DMA engine's: no RX descriptor (nic.rx_drop_nodesc) */
};

extern const stats::Table<NicDrops> kNicStats;

}  // namespace nicsim
#endif
