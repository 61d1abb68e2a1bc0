/* softirq_gate_test.cpp: SoftirqGate decides as kernel/softirq.c does:
 * __do_softirq at IRQ exit restarts net_rx_action while NET_RX is raised
 * again, at most MAX_SOFTIRQ_RESTART runs, within MAX_SOFTIRQ_TIME (jiffies)
 * and until a wakeup sets need_resched, then wakes ksoftirqd; with
 * "Let ksoftirqd do its job" an IRQ exit leaves NET_RX to a runnable
 * ksoftirqd, without it __do_softirq runs anyway. No simulation. */
#include <gtest/gtest.h>

#include "cpu/softirq.h"

using namespace nicsim;

namespace {
constexpr uint64_t kUs = 1000000; /* ps */

SoftirqParams params(bool defer, int restarts = 10, int hz = 250) {
  SoftirqParams p;
  p.ksoftirqd_defer = defer;
  p.max_restart = restarts;
  p.hz = hz;
  return p;
}

/* Runs actions of 1 us each, NET_RX raised again after every one, until
 * __do_softirq ends; returns how many ran. */
int actions_until_end(SoftirqGate &g, uint64_t *t, bool task_before, bool task_after) {
  int n = 0;
  while (g.in_do_softirq() && n < 100000) {
    *t += kUs;
    n++;
    g.action_done(*t, true, task_after);
  }
  (void)task_before;
  return n;
}
}  // namespace

TEST(SoftirqGate, NothingPendingRunsNothing) {
  SoftirqGate g(params(true));
  EXPECT_EQ(g.exit_to_task(0, false, false), 0u);
  EXPECT_FALSE(g.in_do_softirq());
  unsigned ev = 0;
  EXPECT_FALSE(g.ksoftirqd_runnable(false, &ev));
  EXPECT_EQ(ev, 0u);
}

TEST(SoftirqGate, DoSoftirqEndsWhenNetRxIsNotRaisedAgain) {
  SoftirqGate g(params(true));
  EXPECT_EQ(g.exit_to_task(0, true, false), unsigned(kSirqDo));
  EXPECT_TRUE(g.in_do_softirq());
  EXPECT_EQ(g.action_done(kUs, false, false), 0u);
  EXPECT_FALSE(g.in_do_softirq());
  EXPECT_FALSE(g.ksoftirqd_awake());
}

TEST(SoftirqGate, TenNetRxActionsThenKsoftirqd) {
  SoftirqGate g(params(true));
  uint64_t t = 0;
  g.exit_to_task(t, true, true);
  unsigned restarts = 0;
  int n = 0;
  while (g.in_do_softirq()) {
    t += kUs;
    n++;
    const unsigned ev = g.action_done(t, true, true);
    if (ev & kSirqRestart) restarts++;
    if (!g.in_do_softirq()) {
      EXPECT_EQ(ev, unsigned(kSirqWake));
    }
  }
  EXPECT_EQ(n, 10); /* --max_restart from 10: nine restarts */
  EXPECT_EQ(restarts, 9u);
  EXPECT_TRUE(g.ksoftirqd_awake());
  unsigned ev = 0;
  EXPECT_TRUE(g.ksoftirqd_runnable(true, &ev));
  EXPECT_EQ(ev, 0u); /* already woken */
}

TEST(SoftirqGate, MaxRestartIsAKnob) {
  SoftirqGate g(params(true, 3));
  uint64_t t = 0;
  g.exit_to_task(t, true, true);
  EXPECT_EQ(actions_until_end(g, &t, true, true), 3);
}

TEST(SoftirqGate, TheTimeLimitIsInJiffies) {
  /* HZ 100: msecs_to_jiffies(2) = 1 jiffy (10 ms), from the jiffy __do_softirq began in. */
  SoftirqGate g(params(true, 100000, 100));
  uint64_t t = 5000 * kUs; /* half way through jiffy 0 */
  g.exit_to_task(t, true, true);
  /* 1 us actions: it stops when jiffy 1 begins at 10 ms, 5000 actions later. */
  EXPECT_EQ(actions_until_end(g, &t, true, true), 5000);
  EXPECT_TRUE(g.ksoftirqd_awake());
  /* HZ 1000: 2 jiffies (2 ms) from the start of the current jiffy. */
  SoftirqGate h(params(true, 100000, 1000));
  t = 0;
  h.exit_to_task(t, true, true);
  EXPECT_EQ(actions_until_end(h, &t, true, true), 2000);
}

TEST(SoftirqGate, AWakeupFromIdleEndsItAfterOneAction) {
  SoftirqGate g(params(true));
  uint64_t t = 0;
  g.exit_to_task(t, true, false);                      /* the idle task was interrupted */
  EXPECT_EQ(g.action_done(kUs, true, true), unsigned(kSirqWake)); /* the action woke a task: need_resched */
  EXPECT_FALSE(g.in_do_softirq());
  EXPECT_TRUE(g.ksoftirqd_awake());
  /* A task that was already running does not set need_resched. */
  SoftirqGate h(params(true));
  h.exit_to_task(0, true, true);
  EXPECT_EQ(h.action_done(kUs, true, true), unsigned(kSirqRestart));
}

TEST(SoftirqGate, WithDeferralAnIrqExitLeavesNetRxToARunnableKsoftirqd) {
  SoftirqGate g(params(true));
  uint64_t t = 0;
  g.exit_to_task(t, true, false);
  g.action_done(kUs, true, true); /* ksoftirqd woken */
  EXPECT_EQ(g.exit_to_task(2 * kUs, true, true), unsigned(kSirqDeferred));
  EXPECT_FALSE(g.in_do_softirq());
  /* Once it has found nothing pending it sleeps, and IRQ exits run __do_softirq again. */
  unsigned ev = 0;
  EXPECT_FALSE(g.ksoftirqd_runnable(false, &ev));
  EXPECT_FALSE(g.ksoftirqd_awake());
  EXPECT_EQ(g.exit_to_task(3 * kUs, true, true), unsigned(kSirqDo));
}

TEST(SoftirqGate, WithoutDeferralEveryIrqExitRunsDoSoftirq) {
  SoftirqGate g(params(false));
  g.exit_to_task(0, true, false);
  g.action_done(kUs, true, true);
  EXPECT_TRUE(g.ksoftirqd_awake());
  EXPECT_EQ(g.exit_to_task(2 * kUs, true, true), unsigned(kSirqDo));
  EXPECT_TRUE(g.in_do_softirq());
  /* ksoftirqd waits while __do_softirq runs */
  unsigned ev = 0;
  EXPECT_FALSE(g.ksoftirqd_runnable(true, &ev));
}

TEST(SoftirqGate, NetRxRaisedInTaskContextWakesKsoftirqd) {
  SoftirqGate g(params(true));
  unsigned ev = 0;
  EXPECT_TRUE(g.ksoftirqd_runnable(true, &ev));
  EXPECT_EQ(ev, unsigned(kSirqWake));
}

TEST(SoftirqGate, AnIrqNestedInDoSoftirqStartsNothingNew) {
  SoftirqGate g(params(true));
  g.exit_to_task(0, true, true);
  EXPECT_EQ(g.exit_to_task(kUs / 2, true, true), 0u);
  EXPECT_TRUE(g.in_do_softirq());
}
