/* read_tag_pool.cpp: outstanding-read limit with priority (see read_tag_pool.h). */
#include "dma/read_tag_pool.h"

namespace nicsim {

ReadTagPool::ReadTagPool(uint32_t tags) : m_tags(tags ? tags : 1), m_free(m_tags) {}

void ReadTagPool::acquire(bool high_priority) {
  if (high_priority) {
    m_high_waiting++;
    while (m_free == 0) sc_core::wait(m_freed);
    m_high_waiting--;
    m_free--;
    /* Low-priority waiters stood back for us; wake them if tags remain. */
    if (m_free > 0) m_freed.notify();
  } else {
    while (m_free == 0 || m_high_waiting > 0) sc_core::wait(m_freed);
    m_free--;
  }
}

void ReadTagPool::release() {
  m_free++;
  m_freed.notify();
}

}  // namespace nicsim
