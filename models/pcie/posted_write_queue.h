/*
 * posted_write_queue.h: posted writes (MWr TLPs) travelling on one link
 * direction, in arrival order, with their bytes copied into a reusable pool,
 * so no heap allocation happens per packet once the pool has grown to the
 * run's peak.
 */
#ifndef NICSIM_MODELS_PCIE_POSTED_WRITE_QUEUE_H
#define NICSIM_MODELS_PCIE_POSTED_WRITE_QUEUE_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/tlp.h"

namespace nicsim {

/* One posted write waiting to arrive; data points into the queue's pool. */
struct PostedWrite {
  uint64_t arrival_ps = 0; /* when the last byte reaches the receiver, ps */
  uint64_t addr = 0;       /* target address (bus address, or BAR offset) */
  uint32_t len = 0;        /* payload bytes */
  DmaPurpose purpose = DmaPurpose::Other;
  TlpAttrs attrs;          /* the TLP's RO / no-snoop / traffic class */
  uint8_t *data = nullptr; /* len bytes, valid until pop() */
};

/* A FIFO of posted writes whose arrival times never decrease. */
class PostedWriteQueue {
 public:
  /* max_payload: largest write accepted, bytes; initial_slots: pool size to start with. */
  explicit PostedWriteQueue(uint32_t max_payload, size_t initial_slots = 64);

  /* Appends a write arriving at arrival_ps (ps, not before the last one's), copying len bytes. */
  void push(uint64_t arrival_ps, uint64_t addr, const uint8_t *data, uint32_t len, DmaPurpose purpose,
            const TlpAttrs &attrs = TlpAttrs());
  /* True if no write is waiting. */
  bool empty() const { return m_count == 0; }
  /* Writes waiting. */
  size_t size() const { return m_count; }
  /* Slots in the pool (grows by doubling when full). */
  size_t capacity() const { return m_slots.size(); }
  /* The earliest write; the queue must not be empty. */
  const PostedWrite &front() const { return m_slots[m_head]; }
  /* The i-th earliest write (i < size()). */
  const PostedWrite &at(size_t i) const { return m_slots[wrap(m_head + i)]; }
  /* Drops the earliest write. */
  void pop();

 private:
  void grow();
  /* Slot index i (< 2 x slots) taken modulo the slot count, without a division. */
  size_t wrap(size_t i) const { return i >= m_slots.size() ? i - m_slots.size() : i; }

  uint32_t m_max_payload;
  std::vector<PostedWrite> m_slots;
  std::vector<uint8_t> m_pool; /* m_slots.size() * m_max_payload bytes */
  size_t m_head = 0;
  size_t m_count = 0;
};

}  // namespace nicsim
#endif
