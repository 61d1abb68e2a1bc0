// posted_write_queue.cpp: a growable ring of posted writes with pooled payload bytes.
#include "pcie/posted_write_queue.h"

#include <cstring>
#include <stdexcept>

namespace nicsim {

PostedWriteQueue::PostedWriteQueue(uint32_t max_payload, size_t initial_slots)
    : m_max_payload(max_payload) {
  if (initial_slots == 0) initial_slots = 1;
  m_slots.resize(initial_slots);
  m_pool.resize(initial_slots * m_max_payload);
  for (size_t i = 0; i < m_slots.size(); i++) m_slots[i].data = m_pool.data() + i * m_max_payload;
}

void PostedWriteQueue::grow() {
  const size_t old = m_slots.size();
  std::vector<PostedWrite> slots(old * 2);
  std::vector<uint8_t> pool(slots.size() * m_max_payload);
  for (size_t i = 0; i < slots.size(); i++) slots[i].data = pool.data() + i * m_max_payload;
  for (size_t i = 0; i < m_count; i++) {
    const PostedWrite &w = m_slots[(m_head + i) % old];
    PostedWrite &n = slots[i];
    n.arrival_ps = w.arrival_ps;
    n.addr = w.addr;
    n.len = w.len;
    n.purpose = w.purpose;
    n.attrs = w.attrs;
    std::memcpy(n.data, w.data, w.len);
  }
  m_slots.swap(slots);
  m_pool.swap(pool);
  m_head = 0;
}

void PostedWriteQueue::push(uint64_t arrival_ps, uint64_t addr, const uint8_t *data, uint32_t len,
                            DmaPurpose purpose, const TlpAttrs &attrs) {
  if (len > m_max_payload) throw std::length_error("posted write larger than the queue's max payload");
  if (m_count && arrival_ps < m_slots[wrap(m_head + m_count - 1)].arrival_ps)
    throw std::logic_error("posted writes must be queued in arrival order");
  if (m_count == m_slots.size()) grow();
  PostedWrite &w = m_slots[wrap(m_head + m_count)];
  w.arrival_ps = arrival_ps;
  w.addr = addr;
  w.len = len;
  w.purpose = purpose;
  w.attrs = attrs;
  std::memcpy(w.data, data, len);
  m_count++;
}

void PostedWriteQueue::pop() {
  if (m_count == 0) throw std::logic_error("pop from an empty posted-write queue");
  m_head = wrap(m_head + 1);
  m_count--;
}

}  // namespace nicsim
