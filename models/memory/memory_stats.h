/* memory_stats.h: host memory's statistics: the DRAM channel (mem.*) and the IOMMU's IOTLB (iommu.*). */
#ifndef NICSIM_MODELS_MEMORY_MEMORY_STATS_H
#define NICSIM_MODELS_MEMORY_MEMORY_STATS_H

#include "common/stats.h"
#include "memory/dram_channel.h"
#include "memory/iommu.h"

namespace nicsim {

extern const stats::Table<DramChannel::Counters> kDramStats;
extern const stats::Table<Iommu::Counters> kIommuStats;

}  // namespace nicsim
#endif
