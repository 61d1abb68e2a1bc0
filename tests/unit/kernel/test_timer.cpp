// test_timer.cpp: the kernel layer's hrtimer API (src/kernel/timer.c) on the
// counting platform: arming, re-arming, cancel, expiry, restart and leaks.
#include <gtest/gtest.h>

#include "unit/kernel/test_support.h"

namespace {

// A timer embedded in a driver-like struct, as stmmac embeds its TX timer.
struct Owner {
  hrtimer timer;
  int fired = 0;
  bool restart = false;
  ktime_t restart_interval = 0;
};

enum hrtimer_restart on_expiry(hrtimer *t) {
  Owner *o = reinterpret_cast<Owner *>(reinterpret_cast<char *>(t) - offsetof(Owner, timer));
  o->fired++;
  if (o->restart) {
    hrtimer_forward_now(t, o->restart_interval);
    return HRTIMER_RESTART;
  }
  return HRTIMER_NORESTART;
}

struct TimerTest : ::testing::Test {
  TestKernel t;
  Owner o;
  void SetUp() override {
    ASSERT_TRUE(t.create(true)) << t.err;
    hrtimer_init(&o.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
    o.timer.function = on_expiry;
    ASSERT_EQ(t.fault(), nullptr);
  }
  int id() const { return o.timer.id - 1; }
};

}  // namespace

TEST_F(TimerTest, StartArmsOnePlatformTimerWithTheDelayInNs) {
  EXPECT_FALSE(hrtimer_is_queued(&o.timer));
  hrtimer_start(&o.timer, us_to_ktime(1000), HRTIMER_MODE_REL);
  EXPECT_TRUE(hrtimer_is_queued(&o.timer));
  EXPECT_EQ(t.cp.c.timer_arms, 1u);
  EXPECT_EQ(cp_armed_timer(&t.cp), id());
  EXPECT_EQ(t.cp.timer_delay_ns[id()], 1000000u);
  EXPECT_EQ(o.fired, 0) << "nothing runs until the platform fires it";
}

TEST_F(TimerTest, ExpiryRunsTheCallbackOnceAndChargesASoftirq) {
  hrtimer_start(&o.timer, 5000, HRTIMER_MODE_REL);
  cp_reset_counts(&t.cp);
  ASSERT_TRUE(cp_fire_timer(&t.cp, t.k, id()));
  EXPECT_EQ(o.fired, 1);
  EXPECT_FALSE(hrtimer_is_queued(&o.timer));
  // One charge of cpu.softirq_cycles, in the hrtimer_interrupt bucket (IRQ class).
  EXPECT_EQ(t.cp.c.charges, 1u);
  EXPECT_DOUBLE_EQ(t.bucket(NK_PROF_HRTIMER), t.cfg.cpu.softirq_cycles);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_HRTIMER)), NK_CLASS_IRQ);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->timers, 1u);
  // Not re-armed: a second expiry of the same id is stale and runs nothing.
  EXPECT_FALSE(cp_fire_timer(&t.cp, t.k, id()));
  nk_kernel_timer(t.k, id());
  EXPECT_EQ(o.fired, 1);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->timers_stale, 1u);
  EXPECT_EQ(t.cp.c.charges, 1u) << "a stale expiry charges nothing";
}

TEST_F(TimerTest, StartingAQueuedTimerMovesItsExpiry) {
  hrtimer_start(&o.timer, 1000, HRTIMER_MODE_REL);
  hrtimer_start(&o.timer, 7000, HRTIMER_MODE_REL);  // as mod_timer on a pending timer
  EXPECT_EQ(t.cp.c.timer_arms, 2u);
  EXPECT_EQ(t.cp.timer_delay_ns[id()], 7000u) << "the platform keeps only the latest expiry";
  ASSERT_TRUE(cp_fire_timer(&t.cp, t.k, id()));
  EXPECT_EQ(o.fired, 1);
}

TEST_F(TimerTest, CancelDisarmsAndReportsWhetherItWasQueued) {
  EXPECT_EQ(hrtimer_cancel(&o.timer), 0);
  EXPECT_EQ(t.cp.c.timer_cancels, 0u) << "cancelling an idle timer tells the platform nothing";
  hrtimer_start(&o.timer, 1000, HRTIMER_MODE_REL);
  EXPECT_EQ(hrtimer_cancel(&o.timer), 1);
  EXPECT_EQ(t.cp.c.timer_cancels, 1u);
  EXPECT_EQ(cp_armed_timer(&t.cp), -1);
  // An expiry the platform had already decided on arrives anyway: ignored.
  nk_kernel_timer(t.k, id());
  EXPECT_EQ(o.fired, 0);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->timers_stale, 1u);
}

TEST_F(TimerTest, RestartReArmsWithTheForwardedInterval) {
  o.restart = true;
  o.restart_interval = 250;
  hrtimer_start(&o.timer, 1000, HRTIMER_MODE_REL);
  ASSERT_TRUE(cp_fire_timer(&t.cp, t.k, id()));
  EXPECT_TRUE(hrtimer_is_queued(&o.timer));
  EXPECT_EQ(t.cp.timer_delay_ns[id()], 250u);
  o.restart = false;
  ASSERT_TRUE(cp_fire_timer(&t.cp, t.k, id()));
  EXPECT_EQ(o.fired, 2);
  EXPECT_FALSE(hrtimer_is_queued(&o.timer));
  EXPECT_EQ(t.fault(), nullptr);
}

TEST_F(TimerTest, RestartWithoutForwardIsAFault) {
  o.restart = true;
  o.restart_interval = 0;
  hrtimer_start(&o.timer, 1000, HRTIMER_MODE_REL);
  ASSERT_TRUE(cp_fire_timer(&t.cp, t.k, id()));
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("HRTIMER_RESTART without hrtimer_forward_now"), std::string::npos);
}

TEST_F(TimerTest, TimersGetDistinctPlatformIds) {
  Owner o2;
  hrtimer_init(&o2.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
  o2.timer.function = on_expiry;
  EXPECT_NE(o2.timer.id, o.timer.id);
  hrtimer_start(&o.timer, 10, HRTIMER_MODE_REL);
  hrtimer_start(&o2.timer, 20, HRTIMER_MODE_REL);
  ASSERT_TRUE(cp_fire_timer(&t.cp, t.k, o2.timer.id - 1));
  EXPECT_EQ(o2.fired, 1);
  EXPECT_EQ(o.fired, 0);
  EXPECT_TRUE(hrtimer_is_queued(&o.timer));
}

TEST_F(TimerTest, StartWithoutInitOrFunctionIsAFault) {
  hrtimer bare{};
  bare.function = on_expiry;
  hrtimer_start(&bare, 10, HRTIMER_MODE_REL);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("hrtimer_init"), std::string::npos);
}

TEST_F(TimerTest, StartWithoutAFunctionIsAFault) {
  Owner o2;
  hrtimer_init(&o2.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
  hrtimer_start(&o2.timer, 10, HRTIMER_MODE_REL);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("no function"), std::string::npos);
}

TEST(TimerTable, RunningOutOfPlatformTimersIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  static Owner owners[NK_TIMER_MAX + 1];
  for (int i = 0; i < NK_TIMER_MAX; i++) hrtimer_init(&owners[i].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
  EXPECT_EQ(t.fault(), nullptr);
  hrtimer_init(&owners[NK_TIMER_MAX].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("platform timers are in use"), std::string::npos);
}

TEST(TimerTable, APlatformWithoutTimersRefusesToStartOne) {
  TestKernel t;
  ASSERT_EQ(cp_init(&t.cp, 16u << 20, true, 64), 0);
  t.cp.ops.timer_arm = nullptr;  // an older platform: the op is optional
  char err[256] = "";
  t.k = nk_kernel_create(&t.cp.plat, &t.cfg, nullptr, err, sizeof err);
  ASSERT_NE(t.k, nullptr) << err;
  nk_kernel_set_current(t.k);
  Owner o;
  hrtimer_init(&o.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
  o.timer.function = on_expiry;
  hrtimer_start(&o.timer, 10, HRTIMER_MODE_REL);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("no timers"), std::string::npos);
}
