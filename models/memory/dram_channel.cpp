// dram_channel.cpp: booking the DRAM channel's busy intervals in time order.
#include "memory/dram_channel.h"

#include <algorithm>
#include <cstddef>

namespace nicsim {

DramChannel::DramChannel(double gbps) : m_ps_per_byte(gbps > 0 ? 1000.0 / gbps : 0) {}

DramChannel::Counters DramChannel::counters_at(uint64_t now_ps) const {
  Counters c = m_c;
  for (const Interval &iv : m_busy)
    if (iv.end > now_ps) c.busy_ps -= iv.end - std::max(iv.start, now_ps);
  return c;
}

void DramChannel::retire(uint64_t now_ps) {
  size_t n = 0;
  while (n < m_busy.size() && m_busy[n].end <= now_ps) n++;
  if (n) m_busy.erase(m_busy.begin(), m_busy.begin() + static_cast<std::ptrdiff_t>(n));
}

uint64_t DramChannel::access(uint64_t t_ps, uint64_t bytes, uint64_t *service_ps) {
  if (service_ps) *service_ps = 0;
  if (!limited() || bytes == 0) return 0;
  /* Occupancy in whole ps; the remainder is carried, so no time is lost to rounding. */
  const double t = static_cast<double>(bytes) * m_ps_per_byte + m_frac_ps;
  const uint64_t occ = static_cast<uint64_t>(t);
  m_frac_ps = t - static_cast<double>(occ);
  /* The first gap at or after t_ps that holds occ. */
  uint64_t start = t_ps;
  size_t i = 0;
  for (; i < m_busy.size(); i++) {
    if (m_busy[i].end <= start) continue;
    if (m_busy[i].start >= start + occ) break;
    start = m_busy[i].end;
  }
  const uint64_t end = start + occ;
  /* Book [start, end) before interval i, merging with touching neighbours. */
  if (occ > 0) {
    const bool left = i > 0 && m_busy[i - 1].end == start;
    const bool right = i < m_busy.size() && m_busy[i].start == end;
    if (left && right) {
      m_busy[i - 1].end = m_busy[i].end;
      m_busy.erase(m_busy.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (left) {
      m_busy[i - 1].end = end;
    } else if (right) {
      m_busy[i].start = start;
    } else {
      m_busy.insert(m_busy.begin() + static_cast<std::ptrdiff_t>(i), Interval{start, end});
    }
  }
  const uint64_t wait = start - t_ps;
  m_c.accesses++;
  m_c.bytes += bytes;
  m_c.busy_ps += occ;
  m_c.wait_ps += wait;
  if (service_ps) *service_ps = occ;
  return wait;
}

}  // namespace nicsim
