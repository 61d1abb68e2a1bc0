/* read_tag_pool.h: the DMA engine's limit on outstanding read requests
 * (PCIe non-posted tags), shared by all channels, with an optional
 * high-priority class (RX first, as lan743x's CH_ARB_SEL_RX_HIGH). */
#ifndef NICSIM_MODELS_DMA_READ_TAG_POOL_H
#define NICSIM_MODELS_DMA_READ_TAG_POOL_H

#include <cstdint>
#include <systemc>

namespace nicsim {

/* A counting semaphore for SC_THREADs; a waiting high-priority requester is
 * served before any low-priority one. */
class ReadTagPool {
 public:
  /* tags: reads that may be outstanding at once. */
  explicit ReadTagPool(uint32_t tags);
  /* Blocks the calling thread until a tag is free and takes it. */
  void acquire(bool high_priority);
  /* Returns a tag. */
  void release();
  /* Tags in use. */
  uint32_t in_use() const { return m_tags - m_free; }
  /* Tags in total. */
  uint32_t tags() const { return m_tags; }

 private:
  uint32_t m_tags;
  uint32_t m_free;
  uint32_t m_high_waiting = 0;
  sc_core::sc_event m_freed;
};

}  // namespace nicsim
#endif
