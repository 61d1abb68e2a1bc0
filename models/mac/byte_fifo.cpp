/* byte_fifo.cpp: the frame FIFO over byte-accounted ring storage (see byte_fifo.h). */
#include "mac/byte_fifo.h"

#include <systemc>

namespace nicsim {

ByteFifo::ByteFifo(uint32_t capacity, uint32_t max_frame, uint32_t min_frame)
    : m_capacity(capacity),
      m_max_frame(max_frame),
      m_storage(static_cast<size_t>(capacity) + max_frame),
      m_entries(capacity / (min_frame ? min_frame : 1) + 2) {
  if (capacity == 0 || max_frame == 0) {
    SC_REPORT_ERROR("nicsim/ByteFifo", "capacity and max_frame must be positive");
  }
}

bool ByteFifo::can_append(uint32_t len) const {
  if (m_open_len + len > m_max_frame) return false;
  if (used_bytes() + len > m_capacity) return false;
  return m_count < m_entries.size();
}

uint8_t *ByteFifo::append(uint32_t len) {
  if (!can_append(len)) return nullptr;
  uint8_t *p = m_storage.data() + m_open_off + m_open_len;
  m_open_len += len;
  return p;
}

void ByteFifo::close_frame() {
  if (m_open_len == 0) {
    SC_REPORT_ERROR("nicsim/ByteFifo", "close_frame() with an empty open frame");
    return;
  }
  uint32_t slot = (m_first + m_count) % static_cast<uint32_t>(m_entries.size());
  m_entries[slot] = Entry{m_open_off, m_open_len};
  m_count++;
  m_used += m_open_len;
  m_open_off = (m_open_off + m_open_len) % m_capacity;
  m_open_len = 0;
}

void ByteFifo::abort_frame() { m_open_len = 0; }

void ByteFifo::publish_frame() {
  if (m_published >= m_count) {
    SC_REPORT_ERROR("nicsim/ByteFifo", "publish_frame() with no closed frame");
    return;
  }
  m_published++;
}

const uint8_t *ByteFifo::front(uint32_t *len) const {
  if (m_published == 0) {
    *len = 0;
    return nullptr;
  }
  const Entry &e = m_entries[m_first];
  *len = e.len;
  return m_storage.data() + e.off;
}

void ByteFifo::pop() {
  if (m_pop_hook) m_pop_hook(m_pop_ctx);
  if (m_published == 0) {
    SC_REPORT_ERROR("nicsim/ByteFifo", "pop() on an empty FIFO");
    return;
  }
  const Entry &e = m_entries[m_first];
  m_used -= e.len;
  m_first = (m_first + 1) % static_cast<uint32_t>(m_entries.size());
  m_count--;
  m_published--;
}

}  // namespace nicsim
