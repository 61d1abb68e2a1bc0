// test_napi.cpp: NAPI state rules as in Linux (schedule, MISSED, complete,
// budget, disable) and the NET_RX softirq's polling and charges; per-CPU
// poll lists (a context goes on the list of the CPU that scheduled it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit/kernel/test_support.h"

namespace {

// What the test poll function does, per NAPI context.
struct Script {
  int work = 0;            // value to return
  bool complete = true;    // call napi_complete_done(work) when work < budget
  bool complete_anyway = false;  // call it even when work == budget
  int calls = 0;
  int last_budget = -1;
  bool last_complete_result = false;
  std::vector<int> *order = nullptr;
  int tag = 0;
};

struct TestNapi {
  napi_struct napi{};
  Script s;
};

int script_poll(napi_struct *napi, int budget) {
  auto *tn = reinterpret_cast<TestNapi *>(napi);  // napi is the first member
  Script &s = tn->s;
  s.calls++;
  s.last_budget = budget;
  if (s.order) s.order->push_back(s.tag);
  if ((s.work < budget && s.complete) || s.complete_anyway) s.last_complete_result = napi_complete_done(napi, s.work);
  return s.work;
}

struct NapiRig {
  TestKernel t;
  TestNapi a;
  explicit NapiRig(int weight = 64) {
    EXPECT_TRUE(t.create(true)) << t.err;
    netif_napi_add(t.dev(), &a.napi, script_poll, weight);
    napi_enable(&a.napi);
  }
  ~NapiRig() {
    if (t.k && !t.fault()) {
      napi_disable(&a.napi);
      netif_napi_del(&a.napi);
    }
  }
};

}  // namespace

TEST(KernelNapi, BudgetIsTheSmallerOfWeightAndConfig) {
  NapiRig r(64);  // cfg napi_budget 16
  napi_schedule(&r.a.napi);
  nk_kernel_softirq(r.t.k);
  EXPECT_EQ(r.a.s.last_budget, 16);
  NapiRig r8(8);
  napi_schedule(&r8.a.napi);
  nk_kernel_softirq(r8.t.k);
  EXPECT_EQ(r8.a.s.last_budget, 8);
}

TEST(KernelNapi, PollUnderBudgetCompletesAndIsNotPolledAgain) {
  NapiRig r;
  r.a.s.work = 3;
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
  EXPECT_TRUE(napi_schedule_prep(&r.a.napi));
  __napi_schedule(&r.a.napi);
  EXPECT_TRUE(nk_kernel_napi_pending(r.t.k));
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.a.s.calls, 1);
  EXPECT_TRUE(r.a.s.last_complete_result) << "the driver may re-enable its interrupt";
  EXPECT_FALSE(r.a.napi.scheduled);
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.a.s.calls, 1);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapi, PollUsingItsWholeBudgetStaysScheduled) {
  NapiRig r;
  r.a.s.work = 16;
  napi_schedule(&r.a.napi);
  EXPECT_TRUE(nk_kernel_softirq(r.t.k));
  EXPECT_TRUE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.a.s.calls, 2);
  r.a.s.work = 5;
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.a.s.calls, 3);
  const struct nk_kernel_stats *st = nk_kernel_get_stats(r.t.k);
  EXPECT_EQ(st->napi_polls, 3u);
  EXPECT_EQ(st->napi_full, 2u);
  EXPECT_EQ(st->napi_work, 16u + 16u + 5u);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapi, CompleteDoneWithTheFullBudgetDoesNotComplete) {
  NapiRig r;
  r.a.s.work = 16;
  r.a.s.complete_anyway = true;
  napi_schedule(&r.a.napi);
  EXPECT_TRUE(nk_kernel_softirq(r.t.k));
  EXPECT_FALSE(r.a.s.last_complete_result);
  EXPECT_TRUE(r.a.napi.scheduled);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapi, ScheduleWhileScheduledMeansOneMorePoll) {
  NapiRig r;
  r.a.s.work = 1;
  napi_schedule(&r.a.napi);
  EXPECT_FALSE(napi_schedule_prep(&r.a.napi)) << "already scheduled: NAPI_STATE_MISSED";
  EXPECT_TRUE(r.a.napi.missed);
  EXPECT_TRUE(nk_kernel_softirq(r.t.k)) << "MISSED: complete refuses and reschedules";
  EXPECT_FALSE(r.a.s.last_complete_result);
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_TRUE(r.a.s.last_complete_result);
  EXPECT_EQ(r.a.s.calls, 2);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapi, ADisabledContextCannotBeScheduled) {
  NapiRig r;
  napi_disable(&r.a.napi);
  EXPECT_FALSE(napi_schedule_prep(&r.a.napi));
  napi_schedule(&r.a.napi);
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
  napi_enable(&r.a.napi);
  EXPECT_TRUE(napi_schedule_prep(&r.a.napi));
  __napi_schedule(&r.a.napi);
  napi_disable(&r.a.napi);  // removes it from the poll list
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.a.s.calls, 0);
  napi_enable(&r.a.napi);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapi, ReturningUnderBudgetWithoutCompletingIsAFault) {
  NapiRig r;
  r.a.s.work = 2;
  r.a.s.complete = false;
  napi_schedule(&r.a.napi);
  nk_kernel_softirq(r.t.k);
  ASSERT_NE(r.t.fault(), nullptr);
  EXPECT_NE(std::string(r.t.fault()).find("never run again"), std::string::npos) << r.t.fault();
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k)) << "after a fault nothing is pending";
}

TEST(KernelNapi, ReturningMoreThanTheBudgetIsAFault) {
  NapiRig r;
  r.a.s.work = 17;
  napi_schedule(&r.a.napi);
  nk_kernel_softirq(r.t.k);
  ASSERT_NE(r.t.fault(), nullptr);
  EXPECT_NE(std::string(r.t.fault()).find("outside its budget"), std::string::npos) << r.t.fault();
}

TEST(KernelNapi, SoftirqChargesOncePerRunAndNothingWhenIdle) {
  NapiRig r;
  TestNapi b;
  netif_napi_add(r.t.dev(), &b.napi, script_poll, 64);
  napi_enable(&b.napi);
  std::vector<int> order;
  r.a.s.order = b.s.order = &order;
  r.a.s.tag = 1;
  b.s.tag = 2;
  cp_reset_counts(&r.t.cp);
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.t.cp.c.charges, 0u) << "no NAPI scheduled: no softirq";
  napi_schedule(&b.napi);
  napi_schedule(&r.a.napi);
  nk_kernel_softirq(r.t.k);
  EXPECT_EQ(order, (std::vector<int>{2, 1})) << "polled in the order scheduled, each once";
  EXPECT_EQ(r.t.cp.c.charges, 1u);
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_NET_RX_ACTION), r.t.cfg.cpu.softirq_cycles);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_NET_RX_ACTION)), NK_CLASS_IRQ);
  napi_disable(&b.napi);
  netif_napi_del(&b.napi);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapi, DisableFromItsOwnPollIsAFault) {
  NapiRig r;
  static napi_struct *self;
  self = &r.a.napi;
  r.a.napi.poll = [](napi_struct *n, int) {
    napi_disable(self);
    napi_complete_done(n, 0);
    return 0;
  };
  napi_schedule(&r.a.napi);
  nk_kernel_softirq(r.t.k);
  ASSERT_NE(r.t.fault(), nullptr);
  EXPECT_NE(std::string(r.t.fault()).find("own poll"), std::string::npos) << r.t.fault();
}

TEST(KernelNapi, ARegisteredContextIsALeakAfterwards) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  TestNapi a;
  netif_napi_add(t.dev(), &a.napi, script_poll, 64);
  EXPECT_NE(t.check().find("NAPI context is still registered"), std::string::npos) << t.check();
  netif_napi_del(&a.napi);
  EXPECT_EQ(t.check(), "");
}

// ---- per-CPU NET_RX state (nk_kernel_set_cpu; cpu.irq_affinity spread) ----

namespace {
// Puts the current CPU back to 0 when a test ends, whatever it asserted.
struct CpuGuard {
  ~CpuGuard() { nk_kernel_set_cpu(0); }
};
}  // namespace

TEST(KernelNapiPerCpu, ScheduledContextGoesOnTheListOfTheCpuThatScheduledIt) {
  CpuGuard g;
  NapiRig r;
  TestNapi b;
  netif_napi_add(r.t.dev(), &b.napi, script_poll, 64);
  napi_enable(&b.napi);
  std::vector<int> order;
  r.a.s.work = 2;
  r.a.s.order = &order;
  r.a.s.tag = 1;
  b.s.work = 3;
  b.s.order = &order;
  b.s.tag = 2;
  nk_kernel_set_cpu(1);
  napi_schedule(&r.a.napi);  // a hard IRQ on CPU 1
  nk_kernel_set_cpu(2);
  napi_schedule(&b.napi);  // one on CPU 2
  nk_kernel_set_cpu(0);
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k)) << "CPU 0 scheduled nothing";
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_TRUE(order.empty()) << "CPU 0's softirq polls only its own list";
  nk_kernel_set_cpu(2);
  EXPECT_TRUE(nk_kernel_napi_pending(r.t.k));
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(order, (std::vector<int>{2}));
  nk_kernel_set_cpu(1);
  EXPECT_TRUE(nk_kernel_napi_pending(r.t.k));
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(order, (std::vector<int>{2, 1}));
  // Counts per CPU: one softirq and one poll each on CPUs 1 and 2, none on 0.
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 0).softirqs, 0u);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 1).softirqs, 1u);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 1).napi_polls, 1u);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 1).napi_work, 2u);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 2).napi_polls, 1u);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 2).napi_work, 3u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->napi_polls, 2u) << "the kernel-wide count is the sum";
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, NK_CPU_MAX).softirqs, 0u) << "out of range: zeros";
  EXPECT_EQ(r.t.fault(), nullptr);
  nk_kernel_set_cpu(0);
  napi_disable(&b.napi);
  netif_napi_del(&b.napi);
}

TEST(KernelNapiPerCpu, FullBudgetAndMissedStayOnThePollingCpu) {
  CpuGuard g;
  NapiRig r;
  r.a.s.work = 16;  // the whole budget (cfg napi_budget 16)
  nk_kernel_set_cpu(3);
  napi_schedule(&r.a.napi);
  EXPECT_TRUE(nk_kernel_softirq(r.t.k)) << "still scheduled, on CPU 3's list";
  nk_kernel_set_cpu(0);
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
  nk_kernel_set_cpu(3);
  r.a.s.work = 1;
  EXPECT_FALSE(napi_schedule_prep(&r.a.napi)) << "scheduled: MISSED";
  EXPECT_TRUE(nk_kernel_softirq(r.t.k)) << "MISSED: polled once more, on CPU 3";
  EXPECT_FALSE(nk_kernel_softirq(r.t.k));
  EXPECT_EQ(r.a.s.calls, 3);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 3).napi_polls, 3u);
  EXPECT_EQ(nk_kernel_cpu_stats(r.t.k, 0).napi_polls, 0u);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelNapiPerCpu, DisableTakesTheContextOffAnotherCpusList) {
  CpuGuard g;
  NapiRig r;
  nk_kernel_set_cpu(5);
  napi_schedule(&r.a.napi);
  nk_kernel_set_cpu(0);
  napi_disable(&r.a.napi);  // the driver's remove, on CPU 0
  nk_kernel_set_cpu(5);
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
  EXPECT_EQ(r.t.fault(), nullptr);
  nk_kernel_set_cpu(0);
  napi_enable(&r.a.napi);  // the rig's destructor disables it again
}

TEST(KernelNapiPerCpu, OutOfRangeCpuIsCpu0) {
  CpuGuard g;
  nk_kernel_set_cpu(NK_CPU_MAX);
  EXPECT_EQ(nk_kernel_get_cpu(), 0);
  nk_kernel_set_cpu(-1);
  EXPECT_EQ(nk_kernel_get_cpu(), 0);
  nk_kernel_set_cpu(7);
  EXPECT_EQ(nk_kernel_get_cpu(), 7);
}
