// region_map.cpp: sorted ranges of non-cached memory with a last-hit cache.
#include "memory/region_map.h"

#include <algorithm>

namespace nicsim {

void RegionMap::set(uint64_t pa, uint64_t len, nk_mem_attr attr) {
  if (len == 0) return;
  const uint64_t end = pa + len;
  std::vector<Range> out;
  out.reserve(m_ranges.size() + 2);
  for (const Range &r : m_ranges) {
    if (r.end <= pa || r.begin >= end) {
      out.push_back(r);
      continue;
    }
    /* Keep the parts of r outside [pa, end). */
    if (r.begin < pa) out.push_back({r.begin, pa, r.attr});
    if (r.end > end) out.push_back({end, r.end, r.attr});
  }
  if (attr != NK_MEM_CACHED) out.push_back({pa, end, attr});
  std::sort(out.begin(), out.end(), [](const Range &a, const Range &b) { return a.begin < b.begin; });
  /* Merge touching ranges with the same attribute. */
  std::vector<Range> merged;
  merged.reserve(out.size());
  for (const Range &r : out) {
    if (!merged.empty() && merged.back().end == r.begin && merged.back().attr == r.attr)
      merged.back().end = r.end;
    else
      merged.push_back(r);
  }
  m_ranges.swap(merged);
  m_last = 0;
}

nk_mem_attr RegionMap::get(uint64_t pa) const {
  if (m_ranges.empty()) return NK_MEM_CACHED;
  if (m_last < m_ranges.size()) {
    const Range &r = m_ranges[m_last];
    if (pa >= r.begin && pa < r.end) return r.attr;
  }
  /* First range beginning after pa; the one before it may hold pa. */
  auto it = std::upper_bound(m_ranges.begin(), m_ranges.end(), pa,
                             [](uint64_t a, const Range &r) { return a < r.begin; });
  if (it == m_ranges.begin()) return NK_MEM_CACHED;
  --it;
  if (pa < it->end) {
    m_last = static_cast<size_t>(it - m_ranges.begin());
    return it->attr;
  }
  return NK_MEM_CACHED;
}

}  // namespace nicsim
