/* ps_time.h: picosecond time helpers for the NIC-side models, which compute
 * every event time as an integer number of picoseconds. */
#ifndef NICSIM_MODELS_NIC_PS_TIME_H
#define NICSIM_MODELS_NIC_PS_TIME_H

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

/* The current simulated time in picoseconds: sc_time_stamp() inlined (the
 * same member of the current simulation context, read without a library
 * call; the models ask for it several times per activation). */
inline uint64_t now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }

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
