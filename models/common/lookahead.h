/* lookahead.h: asks the SystemC kernel whether any process can act before a
 * given time, so that a method about to sleep until then may do now what it
 * would do then: the same result with one activation fewer (docs/nic.md,
 * "Lookahead"). */
#ifndef NICSIM_MODELS_COMMON_LOOKAHEAD_H
#define NICSIM_MODELS_COMMON_LOOKAHEAD_H

#include <cstdint>
#include <systemc>

namespace nicsim {

/* The end (in ps) of the sc_start(T) about to run; sc_start does not tell
 * its processes. 0, the default, turns lookahead off: a bench that does not
 * set it keeps every activation. Per process, like the SystemC kernel. */
void set_lookahead_limit_ps(uint64_t end_ps);
uint64_t lookahead_limit_ps();

/* True when nothing else in the simulation can act at or before t_ps (> now):
 * no process runnable now, no delta notification or update pending, no timed
 * notification at or before t_ps, no sc_stop pending, and t_ps before the
 * limit. A method that would next_trigger until t_ps may then act now as at
 * t_ps, if all it reads is its own state and state that changes only at
 * known times (it must take t_ps as its "now"). */
bool kernel_quiet_through(uint64_t t_ps);

/* The same as a bound: kernel_quiet_through(t) for every t with now < t <
 * kernel_quiet_until() (the next timed notification, or the limit; 0 or
 * now when nothing is quiet). A caller may keep it while it is the only
 * process running and has created no kernel activity since (no notify, no
 * next_trigger, no wait), checking sim_ok() for an sc_stop. */
uint64_t kernel_quiet_until();

/* False once sc_stop was called (nothing after the current delta runs). */
inline bool sim_ok() { return sc_core::sc_get_curr_simcontext()->sim_status() == sc_core::SC_SIM_OK; }

/* kernel_quiet_through for a process that asks several times in one
 * activation: the kernel is asked once (kernel_quiet_until) and the answer
 * kept until reset(), which the process calls at the start of each
 * activation and whenever it may have given the kernel something to do
 * since (a notification; its own next_trigger comes last). */
class QuietBound {
 public:
  void reset() { m_valid = false; }
  bool through(uint64_t t_ps) {
    if (!m_valid) {
      m_until = kernel_quiet_until();
      m_valid = true;
    }
    return t_ps < m_until && t_ps > sc_core::sc_get_curr_simcontext()->time_stamp().value() && sim_ok();
  }

 private:
  uint64_t m_until = 0;
  bool m_valid = false;
};

}  // namespace nicsim
#endif
