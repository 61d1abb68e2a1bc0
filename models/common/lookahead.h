/* lookahead.h: asks the SystemC kernel whether any process can act before a
 * given time, so that a method about to sleep until then may do now what it
 * would do then: the same result with one activation fewer (docs/nic.md,
 * "Lookahead"). */
#ifndef NICSIM_MODELS_COMMON_LOOKAHEAD_H
#define NICSIM_MODELS_COMMON_LOOKAHEAD_H

#include <cstdint>

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

}  // namespace nicsim
#endif
