/* dma_stats.h: the DMA engine's statistics (nic.*, irq.*), over snapshots of its counters, rings and vectors. */
#ifndef NICSIM_MODELS_DMA_DMA_STATS_H
#define NICSIM_MODELS_DMA_DMA_STATS_H

#include <cstdint>

#include "common/stats.h"
#include "dma/dma_counters.h"

namespace nicsim {

/* The engine at one instant (DmaEngine::stats_snapshot). Ring occupancy
 * integrals are device-owned descriptors x ps; the figures without a queue
 * are sums (integrals) and maxima over the queues. */
struct DmaSnapshot {
  DmaCounters c;
  IrqCounters irq;                        /* summed over the vectors */
  IrqCounters vec[kDmaMaxQueues];         /* per vector (vector q serves queue pair q) */
  uint32_t rx_queues = 1, tx_queues = 1, vectors = 1;
  uint64_t rx_occ_integral = 0, tx_occ_integral = 0;
  uint64_t rx_occ_max = 0, tx_occ_max = 0; /* most descriptors the device owned at once (whole run) */
  uint64_t rxq_occ_integral[kDmaMaxQueues] = {};
  uint64_t txq_occ_integral[kDmaMaxQueues] = {};
  uint64_t rx_read_grants = 0, tx_read_grants = 0; /* read tags granted to each channel */
};

extern const stats::Table<DmaSnapshot> kDmaStats;

}  // namespace nicsim
#endif
