/* nic_clock.cpp: NIC clock edge arithmetic (see nic_clock.h). */
#include "dma/nic_clock.h"

#include <cmath>

namespace nicsim {

NicClock::NicClock(double clock_mhz) : m_period_ps(1e6 / clock_mhz), m_int_period_ps(0) {
  double r = std::round(m_period_ps);
  if (r >= 1 && std::fabs(m_period_ps - r) < 1e-9) m_int_period_ps = static_cast<uint64_t>(r);
  if (m_int_period_ps > 1) m_recip = static_cast<uint64_t>((static_cast<unsigned __int128>(1) << 64) / m_int_period_ps);
}

uint64_t NicClock::edge_ps(uint64_t k) const {
  if (m_int_period_ps) return k * m_int_period_ps;
  return static_cast<uint64_t>(std::llround(static_cast<double>(k) * m_period_ps));
}

uint64_t NicClock::edge_index_at_or_after(uint64_t t_ps) const {
  if (m_recip) {
    /* ceil(t / p) = floor((t + p - 1) / p); the reciprocal's quotient is
     * exact or one short (Granlund and Montgomery, "Division by invariant
     * integers using multiplication", 1994): one check settles it. */
    const uint64_t x = t_ps + m_int_period_ps - 1;
    uint64_t q = static_cast<uint64_t>((static_cast<unsigned __int128>(x) * m_recip) >> 64);
    if (x - q * m_int_period_ps >= m_int_period_ps) q++;
    return q;
  }
  if (m_int_period_ps) return (t_ps + m_int_period_ps - 1) / m_int_period_ps;
  uint64_t k = static_cast<uint64_t>(std::ceil(static_cast<double>(t_ps) / m_period_ps));
  /* Correct the floating-point estimate against the rounded edge times. */
  while (edge_ps(k) < t_ps) k++;
  while (k > 0 && edge_ps(k - 1) >= t_ps) k--;
  return k;
}

uint64_t NicClock::after_cycles(uint64_t t_ps, uint64_t cycles) const {
  return edge_ps(edge_index_at_or_after(t_ps) + cycles);
}

}  // namespace nicsim
