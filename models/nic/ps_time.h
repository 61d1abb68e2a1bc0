/* ps_time.h: picosecond time helpers for the NIC-side models, which compute
 * every event time as an integer number of picoseconds. */
#ifndef NICSIM_MODELS_NIC_PS_TIME_H
#define NICSIM_MODELS_NIC_PS_TIME_H

#include <cmath>
#include <cstdint>
#include <systemc>

namespace nicsim {

/* A time of ps picoseconds; the models require a 1 ps time resolution. */
inline sc_core::sc_time ps_time(uint64_t ps) { return sc_core::sc_time::from_value(ps); }

/* t in picoseconds (exact with a 1 ps resolution). */
inline uint64_t to_ps(const sc_core::sc_time &t) { return t.value(); }

/* The current simulated time in picoseconds. */
inline uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }

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
