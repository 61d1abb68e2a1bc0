/*
 * sim_run_util.h: helpers for tests that run whole simulations through
 * nicsim_simulate: a config from defaults plus "key=value" overrides, a
 * metric by name, and a run that fails the test on a simulation error.
 */
#ifndef NICSIM_TESTS_SIM_SIM_RUN_UTIL_H
#define NICSIM_TESTS_SIM_SIM_RUN_UTIL_H

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"

namespace nicsim {
namespace test {

/* Schema defaults, then each of base and then sets applied as --set would
 * apply them; not cross-checked (see checked_config). */
inline nicsim_config config_with(std::initializer_list<const char *> base,
                                 std::initializer_list<const char *> sets) {
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error e;
  for (const char *s : base) EXPECT_EQ(nc_config_set(&c, s, &e), 0) << s << ": " << e.msg;
  for (const char *s : sets) EXPECT_EQ(nc_config_set(&c, s, &e), 0) << s << ": " << e.msg;
  return c;
}

/* config_with, then the cross-key checks every resolved scenario passes. */
inline nicsim_config checked_config(std::initializer_list<const char *> base,
                                    std::initializer_list<const char *> sets) {
  nicsim_config c = config_with(base, sets);
  nc_error e;
  EXPECT_EQ(nc_config_check(&c, &e), 0) << e.msg;
  return c;
}

/* The metric `name` of r; fails the test (and returns NaN) if it is absent. */
inline double metric(const nicsim_results &r, const char *name) {
  double v = NAN;
  EXPECT_TRUE(nicsim_results_get(&r, name, &v)) << name;
  return v;
}

/* Runs cfg; fails the test with the simulation error if there is one. */
inline void run_ok(const nicsim_config &cfg, nicsim_results *res) {
  nicsim_sim_error err;
  const int rc = nicsim_simulate(&cfg, res, &err, 0);
  ASSERT_EQ(rc, 0) << err.component << " at " << err.time_ns << " ns: " << err.msg;
}

}  // namespace test
}  // namespace nicsim
#endif
