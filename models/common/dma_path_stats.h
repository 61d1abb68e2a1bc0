/*
 * dma_path_stats.h: the device's DMA requests through whatever carries them
 * to memory (the PCIe link or the on-chip bus): counted by the interconnect,
 * declared once here (dma.gbps, dma.rd_latency_ns, dma.rd_latency_ns.p99).
 */
#ifndef NICSIM_MODELS_COMMON_DMA_PATH_STATS_H
#define NICSIM_MODELS_COMMON_DMA_PATH_STATS_H

#include <cstdint>

#include "common/stats.h"
#include "pcie/latency_hist.h"

namespace nicsim {

/* Device DMA requests an interconnect completed, since the start of the run. */
struct DmaPathCounters {
  uint64_t reqs = 0;      /* device DMA requests (b_transport calls) completed */
  uint64_t bytes = 0;     /* their payload bytes, B */
  LatencyHist rd_latency; /* per device read request: handed to the interconnect to its last byte back, ps */
};

extern const stats::Table<DmaPathCounters> kDmaPathStats;

}  // namespace nicsim
#endif
