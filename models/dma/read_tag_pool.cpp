/* read_tag_pool.cpp: outstanding-read limit with arbitration (see read_tag_pool.h). */
#include "dma/read_tag_pool.h"

namespace nicsim {

ReadTagPool::ReadTagPool(uint32_t tags, bool rx_priority, uint32_t per_class)
    : m_tags(tags ? tags : 1), m_free(m_tags), m_rx_priority(rx_priority), m_per_class(per_class) {}

bool ReadTagPool::eligible(int cls, uint32_t q) const {
  if (m_free == 0) return false;
  /* A channel at its own limit waits, and does not hold the other back. */
  if (m_per_class && m_held[cls] >= m_per_class) return false;
  const int other = 1 - cls;
  if (m_waiting[other] != 0 && !(m_per_class && m_held[other] >= m_per_class) &&
      (m_rx_priority ? cls != 0 : m_last == cls))
    return false;
  /* Round robin over the class's waiting queues, from the one after the last served. */
  for (uint32_t i = 1; i <= kMaxQueues; i++) {
    const uint32_t c = (m_last_q[cls] + i) % kMaxQueues;
    if (m_waiting_q[cls][c] != 0) return c == q;
  }
  return true;
}

void ReadTagPool::acquire(bool rx, uint32_t queue) {
  const int cls = rx ? 0 : 1;
  const uint32_t q = queue % kMaxQueues;
  m_waiting[cls]++;
  m_waiting_q[cls][q]++;
  while (!eligible(cls, q)) m_freed.wait();
  m_waiting[cls]--;
  m_waiting_q[cls][q]--;
  m_last_q[cls] = q;
  m_free--;
  m_held[cls]++;
  m_last = cls;
  m_granted[cls]++;
  /* Others stood back for us, or may be eligible now that we are served. */
  if (m_free > 0) m_freed.notify();
}

void ReadTagPool::release(bool rx) {
  m_free++;
  m_held[rx ? 0 : 1]--;
  m_freed.notify();
}

}  // namespace nicsim
