/* lookahead_test.cpp: kernel_quiet_through (common/lookahead.h) says "nothing
 * else can act up to t" exactly when the SystemC kernel has no process
 * runnable now, no delta notification, no timed notification at or before t,
 * no sc_stop pending, and t is before the lookahead limit; and
 * IrqModerator::completion_is_quiet predicts exactly whether a completion
 * schedules anything. Each TEST is one simulation (its own process). */
#include <gtest/gtest.h>

#include <vector>

#include "common/lookahead.h"
#include "dma/irq_moderator.h"
#include "dma/nic_clock.h"
#include "hw/generic_nic_regs.h"
#include "models/test_rig.h"
#include "common/ps_time.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

/* A method that asks kernel_quiet_through(now + d) for each d at 10 ns
 * (its first activation), and a thread that wakes at 50 ns. Options put
 * other activity at 10 ns: a thread woken then too (runnable after the
 * method), a delta notification, or an sc_stop. */
struct Probe : sc_core::sc_module {
  std::vector<uint64_t> ask_ps;  /* offsets from 10 ns */
  std::vector<int> answer;       /* 1 = quiet */
  bool thread_at_10 = false, delta_at_10 = false, stop_at_10 = false;
  sc_core::sc_event delta_ev;
  bool first = true;
  explicit Probe(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(Probe);
    SC_METHOD(probe);
    SC_THREAD(later);
    SC_THREAD(same_time);
  }
  void probe() {
    if (first) {
      first = false;
      sc_core::next_trigger(sc_core::sc_time(10, sc_core::SC_NS));
      return;
    }
    if (delta_at_10) delta_ev.notify(sc_core::SC_ZERO_TIME);
    if (stop_at_10) sc_core::sc_stop();
    for (uint64_t d : ask_ps) answer.push_back(kernel_quiet_through(nicsim::now_ps() + d) ? 1 : 0);
  }
  void later() { wait(50, sc_core::SC_NS); }
  void same_time() {
    if (thread_at_10) wait(10, sc_core::SC_NS);
  }
};

/* Asks at 10 ns for 1 ps, 39.999 ns, 40 ns (the thread's 50 ns) and 45 ns ahead. */
std::vector<int> ask(Probe &p, uint64_t limit_ps) {
  p.ask_ps = {1, 39999, 40000, 45000};
  set_lookahead_limit_ps(limit_ps);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
  return p.answer;
}

}  // namespace

TEST(Lookahead, QuietUpToTheNextTimedActivityExclusive) {
  setup_systemc();
  Probe p("p");
  const std::vector<int> want = {1, 1, 0, 0};
  EXPECT_EQ(ask(p, 100000), want);
}

TEST(Lookahead, OffWithoutALimit) {
  setup_systemc();
  Probe p("p");
  const std::vector<int> want = {0, 0, 0, 0};
  EXPECT_EQ(ask(p, 0), want);
}

TEST(Lookahead, NotAtOrPastTheLimit) {
  setup_systemc();
  Probe p("p");
  /* Limit at 30 ns: 10 ns + 1 ps and + 19.999 ns are before it, + 20 ns is not. */
  p.ask_ps = {1, 19999, 20000};
  set_lookahead_limit_ps(30000);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
  const std::vector<int> want = {1, 1, 0};
  EXPECT_EQ(p.answer, want);
}

TEST(Lookahead, NotWhileAnotherProcessIsRunnableNow) {
  setup_systemc();
  Probe p("p");
  p.thread_at_10 = true; /* woken at 10 ns with the method; threads run after methods */
  const std::vector<int> want = {0, 0, 0, 0};
  EXPECT_EQ(ask(p, 100000), want);
}

TEST(Lookahead, NotWithADeltaNotificationPending) {
  setup_systemc();
  Probe p("p");
  p.delta_at_10 = true;
  const std::vector<int> want = {0, 0, 0, 0};
  EXPECT_EQ(ask(p, 100000), want);
}

TEST(Lookahead, NotAfterScStop) {
  setup_systemc();
  Probe p("p");
  p.stop_at_10 = true;
  const std::vector<int> want = {0, 0, 0, 0};
  EXPECT_EQ(ask(p, 100000), want);
}

/* ---- IrqModerator::completion_is_quiet ------------------------------------ */

namespace {

/* One IrqModerator whose MSI writes land in a target that accepts them; a
 * method at 1 us runs each case: the prediction, then the completion, then
 * whether the completion gave the kernel anything to do (an MSI raised, a
 * timer armed). The cases keep state in order, as a driver would. */
struct IrqRig : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<IrqRig> init{"init"};
  tlm_utils::simple_target_socket<IrqRig> target{"target"};
  NicClock clock{250};
  IrqModerator irq;
  struct Case {
    uint32_t mask, coal_frames;
    uint64_t coal_ps;
    bool ioc_mode;
    uint32_t cause, frames;
    bool ioc;
  };
  std::vector<Case> cases;
  std::vector<int> predicted, scheduled; /* 1 = quiet / 1 = scheduled something */
  bool first = true;
  explicit IrqRig(sc_core::sc_module_name n)
      : sc_module(n), irq("irq", 1, 0, init, clock, [](const std::string &) {}) {
    init.bind(target);
    target.register_b_transport(this, &IrqRig::b_transport);
    irq.set_msi_addr_lo(0xFEE00000u);
    SC_HAS_PROCESS(IrqRig);
    SC_METHOD(run);
  }
  void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &) { p.set_response_status(tlm::TLM_OK_RESPONSE); }
  /* Each case in two activations 1 us apart: the registers (which may raise
   * what an earlier case left pending), then, with nothing else due, the
   * prediction and the completion. */
  size_t next = 0;
  bool measure = false;
  void run() {
    if (first) {
      first = false;
      sc_core::next_trigger(sc_core::sc_time(1, sc_core::SC_US));
      return;
    }
    if (next >= cases.size()) return;
    const Case &c = cases[next];
    if (!measure) {
      /* A clean state: all masked, no timer, anything pending folded away. */
      irq.set_mask(GN_INT_ALL);
      irq.set_coal_ps(0);
      irq.completion(GN_INT_RX, 1, true);
      irq.set_ioc_mode(c.ioc_mode);
      irq.set_coal_frames(c.coal_frames);
      irq.set_coal_ps(c.coal_ps);
      irq.set_mask(c.mask);
      measure = true;
      sc_core::next_trigger(sc_core::sc_time(1, sc_core::SC_US));
      return;
    }
    const uint64_t before_gap = sc_core::sc_time_to_pending_activity().value();
    const uint64_t raised = irq.counters().raised;
    predicted.push_back(irq.completion_is_quiet(c.cause, c.frames, c.ioc) ? 1 : 0);
    irq.completion(c.cause, c.frames, c.ioc);
    const bool now_pending = sc_core::sc_pending_activity_at_current_time();
    const bool earlier = sc_core::sc_time_to_pending_activity().value() < before_gap;
    scheduled.push_back(now_pending || earlier || irq.counters().raised != raised ? 1 : 0);
    next++;
    measure = false;
    sc_core::next_trigger(sc_core::sc_time(1, sc_core::SC_US));
  }
};

}  // namespace

TEST(Lookahead, IrqCompletionIsQuietExactlyWhenItSchedulesNothing) {
  setup_systemc();
  IrqRig r("r");
  const uint64_t us = 1000000;
  r.cases = {
      /* mask, coal_frames, coal_ps, ioc_mode, cause, frames, ioc */
      {GN_INT_ALL, 1, 0, false, GN_INT_RX, 1, true},        /* masked: suppressed, quiet */
      {0, 1, 0, false, GN_INT_RX, 1, true},                 /* unmasked, due: raises */
      {0, 4, 0, false, GN_INT_RX, 1, false},                /* below the frame threshold, no timer: quiet */
      {0, 4, 20 * us, false, GN_INT_RX, 1, false},          /* below the threshold, arms the timer */
      {GN_INT_ALL, 4, 20 * us, false, GN_INT_RX, 1, false}, /* masked, arms the timer all the same */
      {0, 1, 0, true, GN_INT_RX, 1, false},                 /* IOC mode, no IOC, no watchdog: quiet */
      {0, 1, 0, true, GN_INT_RX, 1, true},                  /* IOC mode, IOC: raises */
      {GN_INT_RX, 1, 0, false, GN_INT_TX, 1, true},         /* RX masked, a TX completion: raises */
      {0, 1, 0, false, GN_INT_RX, 0, true},                 /* no frames: nothing */
  };
  set_lookahead_limit_ps(0);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  ASSERT_EQ(r.predicted.size(), r.cases.size());
  const std::vector<int> want_quiet = {1, 0, 1, 0, 0, 1, 0, 0, 1};
  EXPECT_EQ(r.predicted, want_quiet);
  for (size_t i = 0; i < r.cases.size(); i++)
    EXPECT_EQ(r.predicted[i], 1 - r.scheduled[i]) << "case " << i << ": the prediction and what completion did disagree";
}
