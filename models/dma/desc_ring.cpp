/* desc_ring.cpp: descriptor ring indices and cache (see desc_ring.h). */
#include "dma/desc_ring.h"

#include <algorithm>

#include "common/ps_time.h"
#include "common/trace.h"

namespace nicsim {

DescRing::DescRing(uint32_t cache_entries) : m_cache(cache_entries ? cache_entries : 1) {}

void DescRing::set_base_lo(uint32_t v) {
  m_base = (m_base & ~0xFFFFFFFFull) | v;
  reset();
}

void DescRing::set_base_hi(uint32_t v) {
  m_base = (m_base & 0xFFFFFFFFull) | (static_cast<uint64_t>(v) << 32);
  reset();
}

void DescRing::set_size(uint32_t entries) {
  m_size = entries;
  reset();
}

void DescRing::set_span() {
  m_span = m_size ? static_cast<uint64_t>(m_size - 1) * m_spacing + m_desc_bytes : 0;
  /* No wrap past the top of the bus address space (owns() subtracts). */
  if (m_base && m_span > 0 - m_base) m_span = 0 - m_base;
}

void DescRing::set_geometry(uint32_t spacing, uint32_t desc_bytes) {
  m_spacing = spacing;
  m_desc_bytes = desc_bytes;
  /* owns() runs for every CPU store: a shift and mask instead of two
   * divisions when the spacing is a power of two. */
  m_spacing_shift = spacing && (spacing & (spacing - 1)) == 0 ? static_cast<uint32_t>(__builtin_ctz(spacing)) : 32;
  set_span();
}

void DescRing::account() {
  uint64_t now = now_ps();
  m_occ_integral += static_cast<uint64_t>(owned()) * (now - m_occ_last_ps);
  m_occ_last_ps = now;
}

uint64_t DescRing::occupancy_integral() const {
  return m_occ_integral + static_cast<uint64_t>(owned()) * (now_ps() - m_occ_last_ps);
}

void DescRing::reset() {
  account();
  set_span();
  m_head = m_tail = m_fetch = m_fetching = 0;
  m_cache_first = m_cache_count = 0;
  m_gen++;
  m_halted = false;
  if (m_trace) trace_owned();
}

void DescRing::set_trace(TraceWriter *t, const char *name) {
  m_trace = t;
  m_trace_name = name;
}

void DescRing::trace_owned() {
  const uint32_t n = owned();
  if (n == m_traced) return;
  m_traced = n;
  m_trace->counter(m_trace_name.c_str(), now_ps(), n);
}

const char *DescRing::set_tail(uint32_t tail) {
  if (m_size == 0) return tail == 0 ? nullptr : "tail written to a ring of size 0";
  if (tail >= m_size) return "tail beyond the end of the ring";
  if (dist(m_head, tail) < dist(m_head, m_fetch) + m_fetching) {
    return "tail moved back over descriptors the device has already fetched";
  }
  account();
  m_tail = tail;
  m_occ_max = std::max(m_occ_max, owned());
  if (m_trace) trace_owned();
  m_fetch_kick.notify();
  return nullptr;
}

/* off < m_span: an offset at or past the span is past the last slot or in
 * the gap after the last descriptor, which the checks below also reject. */
bool DescRing::owns_slot(uint64_t off) const {
  uint64_t idx, in_slot;
  if (m_spacing_shift < 32) {
    idx = off >> m_spacing_shift;
    in_slot = off & (m_spacing - 1);
  } else {
    idx = off / m_spacing;
    in_slot = off % m_spacing;
  }
  if (idx >= m_size || in_slot >= m_desc_bytes) return false;
  /* dist(head, idx) < owned(), without the two divisions: idx in the
   * circular range [head, tail). */
  const uint32_t i = static_cast<uint32_t>(idx);
  return m_head <= m_tail ? (i >= m_head && i < m_tail) : (i >= m_head || i < m_tail);
}

bool DescRing::plan_fetch(uint32_t max_batch, bool batching, uint32_t *first, uint32_t *n) const {
  uint32_t unfetched = dist(m_fetch, m_tail);
  if (m_halted || unfetched == 0) return false;
  uint32_t batch = 1;
  if (batching) batch = std::min({max_batch, unfetched, m_size - m_fetch});
  if (static_cast<uint32_t>(m_cache.size()) - m_cache_count < batch) return false;
  if (m_prefetch_thresh > 0 && m_cache_count > m_prefetch_thresh) return false;
  *first = m_fetch;
  *n = batch;
  return true;
}

void DescRing::push_fetched(const DmaDesc &d) {
  uint32_t slot = mod(m_cache_first + m_cache_count, static_cast<uint32_t>(m_cache.size()));
  m_cache[slot] = Cached{m_fetch, d};
  m_cache_count++;
  m_fetch = mod(m_fetch + 1, m_size);
}

DmaDesc DescRing::pop_cached(uint32_t *idx) {
  const Cached &c = m_cache[m_cache_first];
  *idx = c.idx;
  m_cache_first = mod(m_cache_first + 1, static_cast<uint32_t>(m_cache.size()));
  m_cache_count--;
  m_fetch_kick.notify();
  return c.d;
}

void DescRing::advance_head(uint32_t n) {
  account();
  m_head = mod(m_head + n, m_size);
  if (m_trace) trace_owned();
}

}  // namespace nicsim
