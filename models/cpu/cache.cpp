// cache.cpp: set search, LRU victim choice and line fills of the data cache.
#include "cpu/cache.h"

#include <cstring>
#include <new>
#include <stdexcept>

namespace nicsim {

Cache::Cache(uint32_t sets, uint32_t ways, uint32_t line_bytes)
    : m_sets(sets), m_ways(ways), m_line(line_bytes), m_shift(0) {
  if (sets == 0 || ways == 0 || line_bytes == 0 || (line_bytes & (line_bytes - 1)) != 0)
    throw std::invalid_argument("cache: sets and ways must be positive and the line size a power of two");
  while ((1u << m_shift) < line_bytes) m_shift++;
  if (sets > 1 && (sets & (sets - 1)) == 0) m_set_mask = sets - 1;
  m_lines.resize(static_cast<size_t>(sets) * ways);
  m_keys.assign(m_lines.size(), 0);
  m_last = &m_lines[0];
  m_data.reset(static_cast<uint8_t *>(std::malloc(static_cast<size_t>(sets) * ways * line_bytes)));
  if (!m_data) throw std::bad_alloc();
}

Cache::Line *Cache::find_in_set(uint64_t tag) {
  const size_t first = static_cast<size_t>(set_of(tag) - m_lines.data());
  const uint64_t *keys = m_keys.data() + first;
  for (uint32_t w = 0; w < m_ways; w++)
    if (keys[w] == tag + 1) return m_last = &m_lines[first + w];
  return nullptr;
}

Cache::Line *Cache::fill(uint64_t pa, const uint8_t *mem) {
  const uint64_t tag = pa >> m_shift;
  Line *set = set_of(tag);
  Line *victim = &set[0];
  for (uint32_t w = 0; w < m_ways; w++) {
    if (!set[w].valid) {
      victim = &set[w];
      break;
    }
    if (set[w].lru < victim->lru) victim = &set[w];
  }
  if (victim->valid) {
    m_evictions++;
    /* Memory already holds the CPU's stores (the model writes through for
     * its bytes); a dirty eviction is counted as the write-back it costs. */
    if (victim->dirty) m_dirty_evictions++;
  }
  *victim = Line{};
  victim->valid = true;
  victim->tag = tag;
  m_keys[static_cast<size_t>(victim - m_lines.data())] = tag + 1;
  std::memcpy(data(victim), mem + (tag << m_shift), m_line);
  touch(victim);
  return m_last = victim;
}

uint8_t *Cache::data(const Line *l) {
  return m_data.get() + static_cast<size_t>(l - m_lines.data()) * m_line;
}

}  // namespace nicsim
