/* quantum_keeper.h: a CPU core's local time (TLM-2.0 loosely timed):
 * tlm_utils::tlm_quantumkeeper's arithmetic in integer picoseconds. */
#ifndef NICSIM_MODELS_CPU_QUANTUM_KEEPER_H
#define NICSIM_MODELS_CPU_QUANTUM_KEEPER_H

#include <cstdint>
#include <tlm>

namespace nicsim {

/* tlm_utils::tlm_quantumkeeper (SystemC 2.3.4) in integer picoseconds,
 * the same arithmetic without an sc_time per charge: local time (offset
 * from simulated time), next sync point = the time of the last reset plus
 * the global quantum's compute_local_quantum (q - now % q; 0 if q is 0),
 * need_sync when now + local >= next. It can also stand for a sync it
 * skips. The caller passes simulated time (now_ps). */
class QuantumKeeper {
 public:
  /* Local time: the offset of the core's time from simulated time, ps. */
  uint64_t local_ps() const { return m_local_ps; }
  /* Moves the local time by t_ps. */
  void inc(uint64_t t_ps) { m_local_ps += t_ps; }
  /* True if the core's time (now_ps + local) has reached the next sync point. */
  bool need_sync(uint64_t now_ps) const { return now_ps + m_local_ps >= m_next_sync_ps; }
  /* After a sync at simulated time now_ps: no local time, the next sync
   * point at the next multiple of the global quantum after now_ps. */
  void reset(uint64_t now_ps) {
    m_local_ps = 0;
    m_next_sync_ps = now_ps + local_quantum(now_ps);
  }
  /* Moves the next sync point to where a sync would set it at local time
   * local_ps (ps), keeping the local time (the core did not wait). */
  void skip_sync(uint64_t local_ps) { m_next_sync_ps = local_ps + local_quantum(local_ps); }

 private:
  /* tlm_global_quantum::compute_local_quantum at simulated time t_ps. */
  static uint64_t local_quantum(uint64_t t_ps) {
    const uint64_t q = tlm::tlm_global_quantum::instance().get().value();
    return q ? q - t_ps % q : 0;
  }
  uint64_t m_local_ps = 0;
  uint64_t m_next_sync_ps = 0;
};

}  // namespace nicsim
#endif
