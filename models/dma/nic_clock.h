/* nic_clock.h: the NIC core clock as arithmetic: edge times and cycle
 * counts, with no clock process (nothing runs on idle cycles). */
#ifndef NICSIM_MODELS_DMA_NIC_CLOCK_H
#define NICSIM_MODELS_DMA_NIC_CLOCK_H

#include <cstdint>

namespace nicsim {

/* Edge k of the clock is at round(k * period) ps, so a period that is not a
 * whole number of picoseconds does not drift. */
class NicClock {
 public:
  /* clock_mhz: core clock, MHz. */
  explicit NicClock(double clock_mhz);

  /* Period, ps. */
  double period_ps() const { return m_period_ps; }
  /* Index of the first edge at or after t_ps. */
  uint64_t edge_index_at_or_after(uint64_t t_ps) const;
  /* Time of edge k, ps. */
  uint64_t edge_ps(uint64_t k) const;
  /* Time of the first edge at or after t_ps, then `cycles` more edges, ps. */
  uint64_t after_cycles(uint64_t t_ps, uint64_t cycles) const;

 private:
  double m_period_ps;
  uint64_t m_int_period_ps; /* the period if it is a whole number of ps, else 0 */
  uint64_t m_recip = 0;     /* floor(2^64 / m_int_period_ps): division by a multiply (m_int_period_ps > 1) */
};

}  // namespace nicsim
#endif
