/* read_tag_pool.h: the DMA engine's limit on outstanding read requests
 * (PCIe non-posted tags), shared by the RX and TX channels, with RX-priority
 * (as lan743x's CH_ARB_SEL_RX_HIGH) or round-robin arbitration. */
#ifndef NICSIM_MODELS_DMA_READ_TAG_POOL_H
#define NICSIM_MODELS_DMA_READ_TAG_POOL_H

#include <cstdint>
#include <systemc>

#include "common/waited_event.h"

namespace nicsim {

/* A counting semaphore for SC_THREADs with two requester classes, RX and TX.
 * rx_priority: a waiting RX requester is served before any TX one.
 * Round robin: when both classes wait, the class not served last goes first.
 * Within a class, requesters name their queue: when several queues of the
 * class wait, the first after the queue served last goes first (round robin
 * over the queues of a channel). */
class ReadTagPool {
 public:
  /* tags: reads that may be outstanding at once; rx_priority: the policy. */
  /* per_class: tags each class may hold at once (0: no limit but tags). */
  explicit ReadTagPool(uint32_t tags, bool rx_priority = true, uint32_t per_class = 0);
  /* Blocks the calling thread until a tag is free for its class and queue
   * (< kMaxQueues) and takes it. */
  void acquire(bool rx, uint32_t queue = 0);
  /* Returns a tag of class rx. */
  void release(bool rx);
  /* Tags in use. */
  uint32_t in_use() const { return m_tags - m_free; }
  /* Tags in total. */
  uint32_t tags() const { return m_tags; }
  /* Tags granted so far to RX and to TX requesters. */
  uint64_t granted(bool rx) const { return m_granted[rx ? 0 : 1]; }

 private:
  static constexpr uint32_t kMaxQueues = 16;
  bool eligible(int cls, uint32_t q) const;

  uint32_t m_tags;
  uint32_t m_free;
  bool m_rx_priority;
  uint32_t m_per_class;
  uint32_t m_held[2] = {0, 0}; /* tags held per class */
  uint32_t m_waiting[2] = {0, 0}; /* [0] RX, [1] TX */
  int m_last = 1;                 /* class served last */
  uint32_t m_waiting_q[2][kMaxQueues] = {}; /* waiting requesters per class and queue */
  uint32_t m_last_q[2] = {0, 0};            /* queue served last, per class */
  uint64_t m_granted[2] = {0, 0};
  WaitedEvent m_freed;
};

}  // namespace nicsim
#endif
