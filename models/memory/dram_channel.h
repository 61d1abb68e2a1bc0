/*
 * dram_channel.h: host DRAM as one channel of a given peak bandwidth with a
 * queue. Every access (a device DMA, a CPU miss, uncached access,
 * write-combining burst or memcpy stream) occupies the channel for its
 * bytes / bandwidth; one that finds the channel busy waits until it is free.
 * Requests may arrive out of time order (the CPU books at its local time,
 * up to a quantum ahead of the device's accesses), so the channel keeps the
 * busy intervals booked ahead and a request takes the first gap at or after
 * its arrival that holds it: service in time order, whatever the call order.
 * Bandwidth 0 means unlimited: nothing waits and nothing is counted.
 */
#ifndef NICSIM_MODELS_MEMORY_DRAM_CHANNEL_H
#define NICSIM_MODELS_MEMORY_DRAM_CHANNEL_H

#include <cstdint>
#include <vector>

namespace nicsim {

/* One DRAM channel: service in arrival-time order, busy intervals booked ahead. */
class DramChannel {
 public:
  /* What the channel did, whole run (the top snapshots it for the window). */
  struct Counters {
    uint64_t accesses = 0; /* requests served */
    uint64_t bytes = 0;    /* bytes transferred, B */
    uint64_t busy_ps = 0;  /* time the channel was occupied, ps */
    uint64_t wait_ps = 0;  /* time requests waited for the busy channel, ps */
  };

  /* A channel of gbps GB/s (10^9 bytes per second); 0: unlimited. */
  explicit DramChannel(double gbps = 0);

  /* True if the bandwidth is limited (gbps > 0). */
  bool limited() const { return m_ps_per_byte > 0; }
  /* An access of bytes (B) arriving at t_ps (ps): returns how long it waits
   * for the channel (ps); *service_ps (if not null) gets its occupancy,
   * bytes / bandwidth (ps). Unlimited: 0 and 0. */
  uint64_t access(uint64_t t_ps, uint64_t bytes, uint64_t *service_ps = nullptr);
  /* Forgets the intervals that end at or before now_ps: no request arrives
   * earlier than the current simulated time. */
  void retire(uint64_t now_ps);
  /* The end of the last booked interval (ps): free from then on. */
  uint64_t free_ps() const { return m_busy.empty() ? 0 : m_busy.back().end; }
  /* Counters of the whole run, as booked: busy_ps includes time booked
   * beyond the latest arrival. */
  const Counters &counters() const { return m_c; }
  /* The counters at now_ps (ps): busy_ps only up to now_ps, without the
   * occupancy booked after it (what the top snapshots at the window edges). */
  Counters counters_at(uint64_t now_ps) const;

 private:
  double m_ps_per_byte;  /* 1000 / gbps; 0: unlimited */
  double m_frac_ps = 0;  /* sub-ps remainder of occupancy carried to the next access */
  struct Interval {
    uint64_t start, end; /* [start, end), ps */
  };
  std::vector<Interval> m_busy; /* sorted, disjoint, touching ones merged; reused (no steady-state allocation) */
  Counters m_c;
};

}  // namespace nicsim
#endif
