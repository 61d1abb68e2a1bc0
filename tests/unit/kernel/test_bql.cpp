// test_bql.cpp: byte queue limits. The dql algorithm on its own (growth when
// starved, shrinking by slack only after the hold time, the bounds, refusals,
// counter wrap-around), then the kernel layer's per-queue BQL: the stack's
// stop and restart, the driver's own view, driver.bql off, and the fault for
// completing more than is in flight.
#include <gtest/gtest.h>

#include <string>

#include "kernel/dql.h"
#include "unit/kernel/test_support.h"

namespace {

constexpr uint32_t kFrame = 1514;            // skb->len of a 1518 B frame
constexpr uint64_t kHold = 1000000000ull;    // Linux's hold_time, HZ = 1 s

nk_dql fresh(uint32_t min_limit = 0, uint32_t max_limit = NK_DQL_MAX_LIMIT) {
  nk_dql d;
  nk_dql_init(&d, min_limit, max_limit, kHold, 0);
  return d;
}

// Grows a fresh queue's limit to n frames by n starved rounds of one frame more each.
nk_dql grown_to(uint32_t n) {
  nk_dql d = fresh();
  for (uint32_t i = 0; d.limit < n * kFrame; i++) {
    while (nk_dql_avail(&d) >= 0) nk_dql_queued(&d, kFrame);
    EXPECT_TRUE(nk_dql_completed(&d, nk_dql_inflight(&d), 0));
    EXPECT_LT(i, 100u) << "the limit does not grow";
    if (i >= 100) break;
  }
  return d;
}

}  // namespace

TEST(Dql, AFreshQueueStopsAfterItsFirstFrameAndGrowsByWhatCompleted) {
  nk_dql d = fresh();
  EXPECT_EQ(d.limit, 0u);
  EXPECT_EQ(nk_dql_avail(&d), 0);
  ASSERT_TRUE(nk_dql_queued(&d, kFrame));
  EXPECT_LT(nk_dql_avail(&d), 0) << "limit 0: over it after one frame";
  // Completed with nothing left in flight while over the limit: starved, so
  // the limit grows by what was queued and completed since the last completion.
  ASSERT_TRUE(nk_dql_completed(&d, kFrame, 10));
  EXPECT_EQ(d.limit, kFrame);
  EXPECT_EQ(nk_dql_inflight(&d), 0u);
  EXPECT_EQ(nk_dql_avail(&d), static_cast<int32_t>(kFrame));
}

TEST(Dql, ABusyQueueKeepsItsLimitUntilTheHoldTimeThenShrinksBySlack) {
  nk_dql d = grown_to(8);
  const uint32_t grown = d.limit;
  ASSERT_GE(grown, 8 * kFrame);
  const uint64_t t0 = d.slack_start_ns;
  // Busy throughout: two frames in flight at every completion, one completed
  // each time, so there is slack (the limit far exceeds twice what completes).
  nk_dql_queued(&d, kFrame);
  nk_dql_queued(&d, kFrame);
  for (int i = 1; i <= 5; i++) {
    nk_dql_queued(&d, kFrame);
    ASSERT_TRUE(nk_dql_completed(&d, kFrame, t0 + static_cast<uint64_t>(i) * (kHold / 10)));
    EXPECT_EQ(d.limit, grown) << "within the hold time the limit stays, round " << i;
  }
  nk_dql_queued(&d, kFrame);
  ASSERT_TRUE(nk_dql_completed(&d, kFrame, t0 + kHold + 1));
  EXPECT_LT(d.limit, grown) << "slack held for longer than the hold time";
  EXPECT_GE(d.limit, 2 * kFrame) << "never below twice what completes per interval";
}

TEST(Dql, TheLimitStaysWithinItsBounds) {
  nk_dql lo = fresh(3000);
  EXPECT_EQ(lo.limit, 3000u);
  EXPECT_EQ(nk_dql_avail(&lo), 3000);
  nk_dql hi = fresh(0, 2 * kFrame);
  for (int i = 0; i < 10; i++) {
    while (nk_dql_avail(&hi) >= 0) nk_dql_queued(&hi, kFrame);
    ASSERT_TRUE(nk_dql_completed(&hi, nk_dql_inflight(&hi), 0));
  }
  EXPECT_EQ(hi.limit, 2 * kFrame);
  nk_dql bad = fresh(5000, 100);
  EXPECT_EQ(bad.max_limit, 5000u) << "a maximum below the minimum is raised to it";
}

TEST(Dql, RefusesAnOversizedObjectAndCompletingMoreThanIsInFlight) {
  nk_dql d = fresh();
  EXPECT_FALSE(nk_dql_queued(&d, NK_DQL_MAX_OBJECT + 1));
  EXPECT_EQ(d.num_queued, 0u);
  nk_dql_queued(&d, kFrame);
  EXPECT_FALSE(nk_dql_completed(&d, kFrame + 1, 0));
  EXPECT_EQ(d.num_completed, 0u);
  EXPECT_EQ(d.limit, 0u);
  EXPECT_TRUE(nk_dql_completed(&d, kFrame, 0));
}

TEST(Dql, CountersWrapAroundAsFreeRunningValues) {
  nk_dql d = fresh();
  const uint32_t near = UINT32_MAX - kFrame / 2;  // the next frame wraps num_queued
  d.num_queued = d.num_completed = d.prev_num_queued = near;
  d.adj_limit = near;
  ASSERT_TRUE(nk_dql_queued(&d, kFrame));
  EXPECT_LT(d.num_queued, kFrame) << "wrapped";
  EXPECT_EQ(nk_dql_inflight(&d), kFrame);
  EXPECT_LT(nk_dql_avail(&d), 0);
  ASSERT_TRUE(nk_dql_completed(&d, kFrame, 0));
  EXPECT_EQ(d.limit, kFrame) << "starved growth across the wrap";
  EXPECT_EQ(nk_dql_avail(&d), static_cast<int32_t>(kFrame));
}

TEST(Bql, TheStackStopsAndRestartsTheQueueWhileTheDriversViewStaysAwake) {
  TestKernel t;
  t.cfg.driver.bql = true;
  ASSERT_TRUE(t.create(true)) << t.err;
  net_device *dev = t.dev();
  netdev_sent_queue(dev, kFrame);
  EXPECT_TRUE(netif_xmit_stopped(dev, 0)) << "BQL stopped the queue for the stack";
  EXPECT_FALSE(netif_queue_stopped(dev)) << "the driver did not stop it";
  EXPECT_EQ(nk_netdev_bql_inflight(dev, 0), kFrame);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->bql_stops, 1u);
  netdev_completed_queue(dev, 1, kFrame);
  EXPECT_FALSE(netif_xmit_stopped(dev, 0));
  EXPECT_EQ(nk_netdev_bql_inflight(dev, 0), 0u);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->bql_limit_peak, kFrame);
  // A driver stop shows through netif_xmit_stopped too.
  netif_stop_queue(dev);
  EXPECT_TRUE(netif_xmit_stopped(dev, 0));
  netif_wake_queue(dev);
  netdev_sent_queue(dev, kFrame);
  netdev_reset_queue(dev);
  EXPECT_FALSE(netif_xmit_stopped(dev, 0));
  EXPECT_EQ(nk_netdev_bql_inflight(dev, 0), 0u);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(Bql, OffItNeverStopsAndCountsNothing) {
  TestKernel t;
  t.cfg.driver.bql = false;
  ASSERT_TRUE(t.create(true)) << t.err;
  net_device *dev = t.dev();
  for (int i = 0; i < 100; i++) netdev_sent_queue(dev, kFrame);
  EXPECT_FALSE(netif_xmit_stopped(dev, 0));
  EXPECT_EQ(nk_netdev_bql_inflight(dev, 0), 0u);
  netdev_completed_queue(dev, 1, 10 * kFrame);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->bql_stops, 0u);
}

TEST(Bql, CompletingMoreThanWasSentIsAFault) {
  TestKernel t;
  t.cfg.driver.bql = true;
  ASSERT_TRUE(t.create(true)) << t.err;
  netdev_sent_queue(t.dev(), kFrame);
  netdev_completed_queue(t.dev(), 1, 2 * kFrame);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("netdev_tx_completed_queue"), std::string::npos) << t.fault();
}

TEST(Bql, SlackHoldTimeComesFromThePlatformClock) {
  TestKernel t;
  t.cfg.driver.bql = true;
  t.cfg.driver.bql_hold_time_ms = 2;
  ASSERT_TRUE(t.create(true)) << t.err;
  net_device *dev = t.dev();
  // Grow the limit to 4 frames while starved, at time 0.
  for (int round = 0; round < 4; round++) {
    while (!netif_xmit_stopped(dev, 0)) netdev_sent_queue(dev, kFrame);
    netdev_completed_queue(dev, 0, nk_netdev_bql_inflight(dev, 0));
  }
  const u32 grown = static_cast<u32>(nk_kernel_get_stats(t.k)->bql_limit_peak);
  ASSERT_GE(grown, 4 * kFrame);
  // Keep it busy with slack; the clock passes the 2 ms hold.
  netdev_sent_queue(dev, kFrame);
  netdev_sent_queue(dev, kFrame);
  for (int i = 1; i <= 3; i++) {
    t.cp.now_ns = static_cast<uint64_t>(i) * 1000000u;
    netdev_sent_queue(dev, kFrame);
    netdev_completed_queue(dev, 1, kFrame);
    if (i < 3) {
      EXPECT_EQ(netdev_get_tx_queue(dev, 0)->dql.limit, grown) << "at " << i << " ms, within the hold";
    }
  }
  EXPECT_LT(netdev_get_tx_queue(dev, 0)->dql.limit, grown) << "shrunk once 2 ms of slack had passed";
  EXPECT_EQ(t.fault(), nullptr);
}
