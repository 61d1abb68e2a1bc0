/* dma_counters.h: what the DMA engine and its interrupt moderators count
 * (no SystemC: the engine's statistics use them). */
#ifndef NICSIM_MODELS_DMA_DMA_COUNTERS_H
#define NICSIM_MODELS_DMA_DMA_COUNTERS_H

#include <cstdint>

namespace nicsim {

constexpr uint32_t kDmaMaxQueues = 16; /* queues per direction and MSI-X vectors (GN_MAX_QUEUES) */

/* Cumulative counters of the DMA engine. */
struct DmaCounters {
  uint64_t desc_fetch_reqs = 0;  /* descriptor read requests */
  uint64_t desc_fetched = 0;     /* descriptors read */
  uint64_t desc_writebacks = 0;  /* descriptor write-back requests */
  uint64_t data_read_bytes = 0;  /* TX frame bytes read from host */
  uint64_t data_write_bytes = 0; /* RX frame bytes written to host */
  uint64_t rx_dma_frames = 0;    /* RX frames written and written back */
  uint64_t rx_drop_nodesc = 0;   /* RX frames dropped: their queue had no descriptor (rx_drop_nodesc) */
  uint64_t tx_dma_frames = 0;    /* TX frames read into the TX FIFO */
  uint64_t busy_cycles = 0;      /* NIC cycles spent on descriptors, both channels */
  uint64_t mmio_reads = 0;       /* register reads */
  uint64_t mmio_writes = 0;      /* register writes */
  uint64_t ro_data_xfers = 0;    /* data transfers issued with Relaxed Ordering */
  /* per queue (index < rx_queues / tx_queues) */
  uint64_t rxq_frames[kDmaMaxQueues] = {};  /* RX frames written back on queue q */
  uint64_t rxq_steered[kDmaMaxQueues] = {}; /* RX frames RSS sent to queue q (taken from the FIFO) */
  uint64_t txq_frames[kDmaMaxQueues] = {};  /* TX frames read from queue q into the TX FIFO */
};

/* Cumulative counters of one interrupt vector's moderator. */
struct IrqCounters {
  uint64_t raised = 0;     /* MSIs raised */
  uint64_t suppressed = 0; /* moderation conditions met while masked, folded into a later MSI */
  uint64_t throttled = 0;  /* raises merged into an MSI deferred by ITR throttling */
  uint64_t moderation_changes = 0; /* coalescing register writes that changed a value while MSI was enabled */
};

}  // namespace nicsim
#endif
