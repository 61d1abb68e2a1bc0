// params.cpp: ParamError's constructor (see params.h).
#include "common/params.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace nicsim {

ParamError param_error(std::initializer_list<const char *> keys, std::string hint, const char *fmt, ...) {
  ParamError e;
  for (const char *k : keys) e.keys.emplace_back(k);
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  e.msg = msg;
  e.hint = std::move(hint);
  return e;
}

std::string real_text(double v) {
  if (v == 0) v = 0; /* no "-0" */
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

bool pow2(uint64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string nearest_pow2(uint64_t v, uint64_t lo, uint64_t hi) {
  uint64_t below = lo, above = hi;
  for (uint64_t p = lo; p <= hi; p *= 2) {
    if (p <= v) below = p;
    if (p >= v) {
      above = p;
      break;
    }
  }
  if (below == above || v < lo) return std::to_string(v < lo ? lo : below);
  return std::to_string(below) + " or " + std::to_string(above);
}

}  // namespace nicsim
