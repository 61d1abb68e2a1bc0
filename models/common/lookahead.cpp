/* lookahead.cpp: the kernel queries behind lookahead.h. */
#include "common/lookahead.h"

#include <algorithm>
#include <systemc>

namespace nicsim {

namespace {
uint64_t g_limit_ps = 0;
}

void set_lookahead_limit_ps(uint64_t end_ps) { g_limit_ps = end_ps; }

uint64_t lookahead_limit_ps() { return g_limit_ps; }

bool kernel_quiet_through(uint64_t t_ps) {
  if (t_ps >= g_limit_ps) return false; /* also: lookahead off */
  return t_ps > sc_core::sc_get_curr_simcontext()->time_stamp().value() && t_ps < kernel_quiet_until();
}

uint64_t kernel_quiet_until() {
  if (g_limit_ps == 0) return 0; /* lookahead off */
  sc_core::sc_simcontext *c = sc_core::sc_get_curr_simcontext();
  if (c->sim_status() != sc_core::SC_SIM_OK) return 0; /* sc_stop: nothing after this delta runs */
  const uint64_t now = c->time_stamp().value();
  /* Zero when anything is pending now (runnable processes, delta
   * notifications, updates); else the time to the next timed notification,
   * cancelled ones skipped; max_time - now when there is none. */
  const uint64_t gap = sc_core::sc_time_to_pending_activity(c).value();
  if (gap == 0) return now;
  return gap < g_limit_ps - std::min(now, g_limit_ps) ? now + gap : g_limit_ps;
}

}  // namespace nicsim
