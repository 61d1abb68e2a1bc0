// test_softirq.cpp: who runs NET_RX on whole runs (cpu/softirq.h): at light
// load __do_softirq at IRQ exit does all of it; when the core is shared
// with a sending application under load, NET_RX moves to ksoftirqd and the
// IRQ exits leave it there (v4.9 to v6.4), which a v6.5 kernel
// (cpu.ksoftirqd_defer false) does not; net_rx_action stops at
// net.core.netdev_budget. Each TEST is one simulation run in a child process.
#include <gtest/gtest.h>

#include <string>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

nicsim_results run(std::initializer_list<const char *> base, std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(checked_config(base, sets), &r));
  expect_conservation(r);
  return r;
}

/* Bidirectional 64 B at the line on the default platform's one core: the
 * sender and NET_RX compete for it. */
nicsim_results bidir(std::initializer_list<const char *> sets) {
  return run({"traffic.mode=bidir", "traffic.frame_bytes=64", "run.duration_us=3000", "run.warmup_us=500"}, sets);
}

}  // namespace

TEST(Softirq, AtLightLoadEveryRoundRunsAtIrqExit) {
  const nicsim_results r =
      run({"traffic.mode=rx", "traffic.frame_bytes=1518", "traffic.rate_gbps=1", "run.duration_us=3000"}, {});
  EXPECT_GT(metric(r, "softirq.do_softirq"), 0);
  EXPECT_LE(metric(r, "softirq.do_softirq"), metric(r, "cpu.irqs"));
  EXPECT_EQ(metric(r, "softirq.ksoftirqd_wakeups"), 0);
  EXPECT_EQ(metric(r, "softirq.ksoftirqd_rounds"), 0);
  EXPECT_EQ(metric(r, "softirq.ksoftirqd_share"), 0);
  EXPECT_EQ(metric(r, "softirq.deferred"), 0);
}

TEST(Softirq, UnderLoadWithASenderNetRxMovesToKsoftirqdAndStaysThere) {
  const nicsim_results defer = bidir({});
  const nicsim_results v65 = bidir({"cpu.ksoftirqd_defer=false"});
  /* v4.9 to v6.4: woken once the sender is runnable, ksoftirqd does most
   * of NET_RX and the IRQ exits leave it to it. */
  EXPECT_GT(metric(defer, "softirq.ksoftirqd_wakeups"), 0);
  EXPECT_GT(metric(defer, "softirq.deferred"), 0);
  EXPECT_GT(metric(defer, "softirq.ksoftirqd_share"), 0.5);
  /* v6.5: every IRQ exit runs __do_softirq, so less is left to ksoftirqd
   * and the sender gets less of the core. */
  EXPECT_EQ(metric(v65, "softirq.deferred"), 0);
  EXPECT_GT(metric(v65, "softirq.do_softirq"), 2 * metric(defer, "softirq.do_softirq"));
  EXPECT_LT(metric(v65, "softirq.ksoftirqd_share"), metric(defer, "softirq.ksoftirqd_share"));
  EXPECT_LT(metric(v65, "tx.pkts"), metric(defer, "tx.pkts"));
}

TEST(Softirq, WithoutATaskDoSoftirqRestartsThenHandsOverAtMaxRestart) {
  /* RX at the line on one core, no task: __do_softirq keeps restarting while
   * the poll uses its budget, ten runs at most, then ksoftirqd. */
  const nicsim_results r =
      run({"traffic.mode=rx", "traffic.frame_bytes=64", "run.duration_us=3000", "run.warmup_us=500"}, {});
  const nicsim_results once = run({"traffic.mode=rx", "traffic.frame_bytes=64", "run.duration_us=3000",
                                   "run.warmup_us=500", "cpu.softirq_max_restart=1"},
                                  {});
  EXPECT_GT(metric(r, "softirq.restarts"), 0);
  EXPECT_GT(metric(r, "softirq.ksoftirqd_wakeups"), 0);
  EXPECT_LE(metric(r, "softirq.restarts"), 9 * metric(r, "softirq.do_softirq") + 9);
  EXPECT_EQ(metric(once, "softirq.restarts"), 0);
  EXPECT_GT(metric(once, "softirq.ksoftirqd_share"), metric(r, "softirq.ksoftirqd_share"));
}

TEST(Softirq, NetRxActionStopsAtTheNetdevBudget) {
  /* Eight RX queues polled by core 0 at 64 B line rate, a budget of one
   * full poll: a run stops with contexts left, which go first next time. */
  std::initializer_list<const char *> base = {"traffic.mode=rx", "traffic.frame_bytes=64", "cpu.cores=2",
                                              "nic.rx_queues=8", "traffic.flows=8", "run.duration_us=2000",
                                              "run.warmup_us=500"};
  const nicsim_results r = run(base, {"cpu.netdev_budget=64"});
  const nicsim_results wide = run(base, {"cpu.netdev_budget=100000"});
  EXPECT_GT(metric(r, "softirq.time_squeeze"), 0);
  EXPECT_EQ(metric(wide, "softirq.time_squeeze"), 0);
}
