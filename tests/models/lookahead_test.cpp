/* lookahead_test.cpp: kernel_quiet_through (common/lookahead.h) says "nothing
 * else can act up to t" exactly when the SystemC kernel has no process
 * runnable now, no delta notification, no timed notification at or before t,
 * no sc_stop pending, and t is before the lookahead limit. Each TEST is one
 * simulation (its own process). */
#include <gtest/gtest.h>

#include <vector>

#include "common/lookahead.h"
#include "models/test_rig.h"
#include "nic/ps_time.h"

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
