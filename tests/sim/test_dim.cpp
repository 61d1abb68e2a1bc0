// test_dim.cpp: driver.rx_coal_adaptive dim on whole runs (the generic
// driver on the default x86 platform, 10 GbE RX): under load net_dim
// changes the moderation and takes fewer interrupts than its most eager
// profile held fixed; on a trickle it keeps an interrupt per frame (low
// latency). Each TEST is one simulation run in a child process.
#include <gtest/gtest.h>

#include <cmath>
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

/* RX of 1518 B frames at 5 Gbit/s for 10 ms: half the line, where the core
 * still takes interrupts (at the line, NAPI keeps polling with a full
 * budget and there are none for net_dim to count), over several of
 * net_dim's 64-interrupt periods. */
nicsim_results loaded(std::initializer_list<const char *> sets) {
  nicsim_results r;
  /* Loaded, not saturated: the stack's parts alone (cpu.isa none) on the schema's host. */
  EXPECT_TRUE(run_in_child(checked_config({"traffic.mode=rx", "traffic.frame_bytes=1518", "traffic.rate_gbps=5",
                                           "run.duration_us=10000", "run.warmup_us=1000", "cpu.isa=none"},
                                          sets),
                           &r));
  return r;
}

}  // namespace

TEST(Dim, UnderLoadItChangesTheModerationAndTakesFewerInterruptsThanItsEagerestProfile) {
  const nicsim_results dim = loaded({"driver.rx_coal_adaptive=dim"});
  /* net_dim's profile 0 (1 us, 256 frames) held fixed: the same registers, no adaptation. */
  const nicsim_results eager =
      loaded({"nic.rx_irq_coal_frames=256", "nic.rx_irq_coal_usecs=1", "nic.tx_irq_coal_frames=1"});
  expect_conservation(dim);
  expect_conservation(eager);
  EXPECT_GT(metric(dim, "irq.moderation_changes"), 0);
  EXPECT_EQ(metric(eager, "irq.moderation_changes"), 0);
  /* The eager profile interrupts for nearly every frame (about 325k/s on
   * the schema's default host); net_dim leaves it and batches (about half). */
  EXPECT_LT(metric(dim, "irq.per_sec"), 0.75 * metric(eager, "irq.per_sec"));
  EXPECT_LT(metric(dim, "cpu.util"), metric(eager, "cpu.util"));
  EXPECT_EQ(metric(dim, "rx.drops"), 0);
}

TEST(Dim, OnATrickleEveryFrameStillGetsItsInterrupt) {
  nicsim_results r;
  /* 1518 B every 30 us (0.4 Gbit/s): longer than any profile's timer but the last two. */
  ASSERT_TRUE(run_in_child(checked_config({"traffic.mode=rx", "traffic.frame_bytes=1518", "traffic.rate_gbps=0.4",
                                           "run.duration_us=20000", "run.warmup_us=1000",
                                           "driver.rx_coal_adaptive=dim"},
                                          {}),
                           &r));
  expect_conservation(r);
  const double pkts = metric(r, "rx.pkts"), irqs = metric(r, "irq.count");
  ASSERT_GT(pkts, 500);
  EXPECT_NEAR(irqs, pkts, 0.02 * pkts) << "an interrupt per frame: net_dim did not trade latency for batching";
}

TEST(Dim, OtherDriversRefuseIt) {
  nicsim_config c = nicsim::test::config_with({"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32",
                                               "driver.rx_coal_adaptive=dim"},
                                              {});
  nc_error e;
  ASSERT_NE(nicsim_check_config(&c, &e), 0);
  EXPECT_NE(std::string(e.msg).find("the mvneta driver has no net_dim"), std::string::npos) << e.msg;
}
