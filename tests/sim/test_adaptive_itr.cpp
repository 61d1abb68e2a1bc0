// test_adaptive_itr.cpp: driver.rx_coal_adaptive itr, i40e's adaptive ITR
// (i40e_update_enable_itr and i40e_set_new_dynamic_itr of v4.10), on whole
// runs of the i40e NIC at 40 GbE with 64 B RX frames: with ITR at 50 us and
// a 64-frame threshold (the i40e platforms' coalescing), the algorithm moves
// the vector's interval by its latency classes, the NIC honours the
// register writes, and the interrupt rate follows. Each TEST is one or two
// simulation runs in child processes.
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

/* 64 B RX at rate_gbps for 20 ms, counted from the start (the first
 * decision is at the first poll), fixed or adaptive. */
nicsim_results run_rx64(const char *rate, bool adaptive) {
  nicsim_results r;
  const std::string rate_set = std::string("traffic.rate_gbps=") + rate;
  EXPECT_TRUE(run_in_child(
      checked_config({"nic.family=i40e", "driver.name=i40e", "nic.line_rate_gbps=40", "nic.desc_spacing=32",
                      "nic.rx_fifo_bytes=262144", "nic.irq_coal_frames=64", "nic.irq_coal_usecs=50",
                      "traffic.mode=rx", "traffic.frame_bytes=64", "run.duration_us=20000", "run.warmup_us=0"},
                     {rate_set.c_str(), adaptive ? "driver.rx_coal_adaptive=itr" : "driver.rx_coal_adaptive=none"}),
      &r));
  return r;
}

}  // namespace

/* 0.39 M frames/s (the schema's default host about half busy): past
 * RX_ULTRA_PACKET_RATE (40000/s), so RX goes to the 8K class (124 us), RX
 * and TX take the larger ITR, and an interrupt covers 124 us of frames
 * instead of 50. */
TEST(AdaptiveItr, ManySmallFramesMoveToTheUltraClassAndFewerInterrupts) {
  const nicsim_results fixed = run_rx64("0.2", false), itr = run_rx64("0.2", true);
  expect_conservation(fixed);
  expect_conservation(itr);
  EXPECT_EQ(metric(fixed, "irq.moderation_changes"), 0);
  EXPECT_GT(metric(itr, "irq.moderation_changes"), 0);
  EXPECT_LT(metric(itr, "irq.per_sec"), 0.85 * metric(fixed, "irq.per_sec"));
  EXPECT_EQ(metric(itr, "rx.pkts"), metric(fixed, "rx.pkts")) << "the same frames arrive";
}

/* 39 k frames/s of 64 B: a few MB/s, the lowest class for RX, but TX (no
 * traffic, never adapted) keeps 50 us and both take the larger; the
 * packet-rate estimate (packets over 100 ITR intervals, not over the real
 * time) then crosses 40000/s and the vector swings between the ultra and
 * the low class: v4.10's algorithm, not a tuned outcome. */
TEST(AdaptiveItr, ATrickleSwingsBetweenClassesAsV410Does) {
  const nicsim_results fixed = run_rx64("0.02", false), itr = run_rx64("0.02", true);
  expect_conservation(fixed);
  expect_conservation(itr);
  EXPECT_GE(metric(itr, "irq.moderation_changes"), 2);
  EXPECT_EQ(metric(itr, "rx.drops"), 0);
  const double a = metric(itr, "irq.per_sec"), b = metric(fixed, "irq.per_sec");
  EXPECT_LT(a, 0.9 * b) << "the 124 us interval spans more frames per interrupt";
}

TEST(AdaptiveItr, OtherDriversRefuseIt) {
  nicsim_config c = nicsim::test::config_with({"driver.rx_coal_adaptive=itr"}, {});
  nc_error e;
  ASSERT_NE(nicsim_check_config(&c, &e), 0);
  EXPECT_NE(std::string(e.msg).find("the generic driver has no adaptive ITR"), std::string::npos) << e.msg;
  EXPECT_NE(std::string(e.hint).find("driver.name: i40e"), std::string::npos) << e.hint;
}
