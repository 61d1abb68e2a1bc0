/* axi_counters.h: what the AXI-like bus counts (no SystemC: its statistics use it). */
#ifndef NICSIM_MODELS_BUS_AXI_COUNTERS_H
#define NICSIM_MODELS_BUS_AXI_COUNTERS_H

#include <cstdint>

#include "common/dma_path_stats.h"
#include "common/dma_purpose.h"

namespace nicsim {

/* Cumulative counters of the bus. */
struct AxiCounters {
  uint64_t rd_bursts = 0, wr_bursts = 0;
  uint64_t rd_bytes = 0, wr_bytes = 0;
  uint64_t rd_busy_ps = 0, wr_busy_ps = 0; /* data channels busy, up to the time asked for, ps */
  uint64_t slot_stalls = 0;                /* bursts that waited for an outstanding slot */
  uint64_t purpose_bursts[kDmaPurposes] = {}; /* read and write bursts by DmaPurpose */
  uint64_t purpose_bytes[kDmaPurposes] = {};  /* their data bytes by DmaPurpose */
  uint64_t irqs = 0;                       /* wired interrupts asserted (on_irq set) */
  DmaPathCounters dma;                     /* the device's requests through the bus */
};

}  // namespace nicsim
#endif
