/* ps_time.h: picosecond time helpers for the NIC-side models, which compute
 * every event time as an integer number of picoseconds. */
#ifndef NICSIM_MODELS_COMMON_PS_TIME_H
#define NICSIM_MODELS_COMMON_PS_TIME_H

#include <cmath>
#include <cstdint>
#include <systemc>

namespace nicsim {

/* A time of ps picoseconds; the models require a 1 ps time resolution.
 * Below 2^52 ps (75 simulated minutes) built inline as 1 ps x ps, exact there
 * (a double holds ps + 0.5 exactly and sc_time's product truncates it), so
 * the same value as sc_time::from_value(ps), an out-of-line library call,
 * which builds the rest. */
inline sc_core::sc_time ps_time(uint64_t ps) {
  if (ps == 0) return sc_core::SC_ZERO_TIME;
  static const sc_core::sc_time one_ps = sc_core::sc_time::from_value(1);
  if (ps < (1ull << 52)) return one_ps * static_cast<double>(ps);
  return sc_core::sc_time::from_value(ps);
}

/* t in picoseconds (exact with a 1 ps resolution). */
inline uint64_t to_ps(const sc_core::sc_time &t) { return t.value(); }

/* The SystemC kernel's time in picoseconds: sc_time_stamp() inlined (the
 * same member of the current simulation context, read without a library
 * call; the models ask for it several times per activation). Delays passed
 * to the kernel (notify, next_trigger, wait) are relative to it. */
inline uint64_t kernel_now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }

/* A process acting ahead of the kernel (lookahead, common/lookahead.h):
 * the time it acts at while it does, else 0. Per process, like the kernel;
 * set only through LogicalNow. */
inline uint64_t g_logical_now_ps = 0;

/* The current simulated time in picoseconds: the kernel's, or the time a
 * process acting ahead acts at (g_logical_now_ps). */
inline uint64_t now_ps() { return g_logical_now_ps ? g_logical_now_ps : kernel_now_ps(); }

/* While alive, now_ps() is t_ps (> the kernel's time): for a process that
 * knows (kernel_quiet_through) that nothing else acts before then. Nests:
 * restores the previous value. */
class LogicalNow {
 public:
  explicit LogicalNow(uint64_t t_ps) : m_prev(g_logical_now_ps) { g_logical_now_ps = t_ps; }
  ~LogicalNow() { g_logical_now_ps = m_prev; }
  /* The process now acts at t_ps (0: at the kernel's time). */
  void advance(uint64_t t_ps) { g_logical_now_ps = t_ps; }
  LogicalNow(const LogicalNow &) = delete;
  LogicalNow &operator=(const LogicalNow &) = delete;

 private:
  uint64_t m_prev;
};

/* Rounds a non-negative real number of picoseconds to the nearest integer. */
inline uint64_t round_ps(double ps) { return static_cast<uint64_t>(std::llround(ps)); }

/* Reports an error unless the time resolution is 1 ps (who: the module name). */
inline void require_ps_resolution(const char *who) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS)) {
    SC_REPORT_ERROR(who, "nicsim NIC models need sc_set_time_resolution(1, SC_PS)");
  }
}

}  // namespace nicsim
#endif
