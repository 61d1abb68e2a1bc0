/*
 * sim_run_util.h: helpers for tests that run whole simulations through
 * nicsim_simulate: a config from defaults plus "key=value" overrides, a
 * metric by name, frame conservation, a run that fails the test on a
 * simulation error, and a run in a child process (for tests that need more
 * than the one simulation SystemC allows per process).
 */
#ifndef NICSIM_TESTS_SIM_SIM_RUN_UTIL_H
#define NICSIM_TESTS_SIM_SIM_RUN_UTIL_H

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <vector>
#include <string>

#include "common/child_process.h"
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

/* Every frame is accounted for: RX frames sent were received, consumed by
 * XDP or dropped; TX frames sent (the host's, and those XDP_TX sent back)
 * were received. */
inline void expect_conservation(const nicsim_results &r) {
  EXPECT_EQ(metric(r, "total.rx.sent"),
            metric(r, "total.rx.received") + metric(r, "total.rx.xdp") + metric(r, "total.rx.dropped"));
  EXPECT_EQ(metric(r, "total.tx.sent") + metric(r, "total.tx.xdp"), metric(r, "total.tx.received"));
}

/* Schema defaults with sets applied in order as --set would apply them,
 * then the cross-key checks. */
inline nicsim_config checked_config(const std::vector<std::string> &sets) {
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error e;
  for (const std::string &s : sets) EXPECT_EQ(nc_config_set(&c, s.c_str(), &e), 0) << s << ": " << e.msg;
  EXPECT_EQ(nc_config_check(&c, &e), 0) << e.msg;
  return c;
}

/* Runs cfg; fails the test with the simulation error if there is one. */
inline void run_ok(const nicsim_config &cfg, nicsim_results *res) {
  nicsim_sim_error err;
  const int rc = nicsim_simulate(&cfg, res, &err, 0);
  ASSERT_EQ(rc, 0) << err.component << " at " << err.time_ns << " ns: " << err.msg;
}

/* Runs cfg in a child process (SystemC elaborates once per process) and
 * returns its results through a pipe; false if the run failed. */
inline bool run_in_child(const nicsim_config &cfg, nicsim_results *out) {
  return nicsim_test::in_child_process(
      [&cfg](nicsim_results *r) {
        nicsim_sim_error err;
        const int rc = nicsim_simulate(&cfg, r, &err, 0);
        if (rc != 0) std::fprintf(stderr, "run_in_child: %s at %.3f ns: %s\n", err.component, err.time_ns, err.msg);
        return rc;
      },
      out);
}

/* Runs the checked config of sets in a child process: it must finish
 * without a violation or driver fault and conserve frames (a failure names
 * the sets). */
inline void expect_clean_run(const std::vector<std::string> &sets) {
  std::string all;
  for (const std::string &s : sets) all += s + " ";
  SCOPED_TRACE(all);
  nicsim_results r;
  ASSERT_TRUE(run_in_child(checked_config(sets), &r));
  expect_conservation(r);
}

/* Every metric but wall-clock ones and sim.events (delta cycles: not a
 * result of the model) has the same value in a and b, and both have the same
 * set of metrics (more than 30 of them). */
inline void expect_same_metrics(const nicsim_results &a, const nicsim_results &b) {
  size_t n = 0;
  nicsim_metric_view va, vb;
  for (size_t i = 0; nicsim_results_at(&a, i, &va); i++, n++) {
    ASSERT_TRUE(nicsim_results_at(&b, i, &vb)) << "b lacks metric " << i << " (" << va.name << ")";
    ASSERT_STREQ(va.name, vb.name);
    if (va.kind == NM_KIND_WALL) continue;
    if (std::strcmp(va.name, "sim.events") == 0) continue;
    EXPECT_EQ(va.value, vb.value) << va.name;
  }
  EXPECT_FALSE(nicsim_results_at(&b, n, &vb)) << "b has more metrics than a";
  EXPECT_GT(n, 30u);
}

/* Frames per second the host handled in a window of window_s seconds:
 * delivered to the stack, or taken by an XDP program (dropped, sent back,
 * or lost to a full XDP_TX ring). */
inline double xdp_handled_mpps(const nicsim_results &r, double window_s) {
  return (metric(r, "rx.pkts") + metric(r, "xdp.drop") + metric(r, "xdp.tx") + metric(r, "xdp.tx_errors")) /
         window_s / 1e6;
}

/* What every XDP driver shows at 64 B beyond one core's stack rate: pass
 * sends every frame through the skb path (and the NIC drops what the stack
 * cannot take); drop lets no frame reach the stack, runs the program, and
 * handles more than twice pass's rate with fewer NIC drops; nothing goes
 * back to the wire. */
inline void expect_xdp_drop_beats_pass(const nicsim_results &pass, const nicsim_results &drop, double window_s) {
  expect_conservation(pass);
  expect_conservation(drop);
  std::printf("64 B: pass %.3f Mpps handled (%.0f NIC drops), drop %.3f Mpps (%.0f NIC drops)\n",
              xdp_handled_mpps(pass, window_s), metric(pass, "rx.drops"), xdp_handled_mpps(drop, window_s),
              metric(drop, "rx.drops"));
  EXPECT_GT(metric(pass, "xdp.pass"), 0);
  EXPECT_EQ(metric(pass, "xdp.drop"), 0);
  EXPECT_GT(metric(pass, "rx.drops"), 0) << "one core cannot run the stack at the offered rate";
  EXPECT_EQ(metric(drop, "rx.pkts"), 0);
  EXPECT_EQ(metric(drop, "xdp.pass"), 0);
  EXPECT_GT(xdp_handled_mpps(drop, window_s), 2 * xdp_handled_mpps(pass, window_s));
  EXPECT_LT(metric(drop, "rx.drops"), metric(pass, "rx.drops"));
  EXPECT_GT(metric(drop, "cpu.profile.bpf_prog_run_xdp"), 0);
  EXPECT_EQ(metric(pass, "total.tx.received"), 0);
}

}  // namespace test
}  // namespace nicsim
#endif
