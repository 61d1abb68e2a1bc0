/* read_tag_pool.cpp: outstanding-read limit with arbitration (see read_tag_pool.h). */
#include "dma/read_tag_pool.h"

namespace nicsim {

ReadTagPool::ReadTagPool(uint32_t tags, bool rx_priority)
    : m_tags(tags ? tags : 1), m_free(m_tags), m_rx_priority(rx_priority) {}

bool ReadTagPool::eligible(int cls) const {
  if (m_free == 0) return false;
  const int other = 1 - cls;
  if (m_waiting[other] == 0) return true;
  if (m_rx_priority) return cls == 0;
  return m_last != cls;
}

void ReadTagPool::acquire(bool rx) {
  const int cls = rx ? 0 : 1;
  m_waiting[cls]++;
  while (!eligible(cls)) sc_core::wait(m_freed);
  m_waiting[cls]--;
  m_free--;
  m_last = cls;
  m_granted[cls]++;
  /* Others stood back for us, or may be eligible now that we are served. */
  if (m_free > 0) m_freed.notify();
}

void ReadTagPool::release() {
  m_free++;
  m_freed.notify();
}

}  // namespace nicsim
