/* waited_event_test.cpp: WaitedEvent (an immediate notification nobody waits
 * for is skipped) wakes exactly the threads an sc_event would, and ps_time
 * and now_ps give exactly sc_time::from_value and sc_time_stamp. */
#include <gtest/gtest.h>

#include <vector>

#include "common/waited_event.h"
#include "models/test_rig.h"
#include "common/ps_time.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

/* Two waiters on a WaitedEvent and two on a plain sc_event, one notifier
 * doing the same to both; the wake-up times must agree. */
struct Pair : sc_core::sc_module {
  WaitedEvent counted;
  sc_core::sc_event plain;
  std::vector<uint64_t> woke_counted, woke_plain;
  explicit Pair(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(Pair);
    SC_THREAD(notifier);
    SC_THREAD(waiter_counted);
    SC_THREAD(waiter_plain);
    SC_THREAD(late_counted);
    SC_THREAD(late_plain);
  }
  void both() {
    counted.notify();
    plain.notify();
  }
  /* Notifications at 10..50 ns; the early waiters wait from 15 ns and again
   * from 45 ns, the late ones from 25 ns: 10 and 40 ns find nobody waiting. */
  void notifier() {
    for (int i = 0; i < 5; i++) {
      wait(10, sc_core::SC_NS);
      both();
    }
  }
  void waiter_counted() {
    wait(15, sc_core::SC_NS);
    counted.wait();
    woke_counted.push_back(nicsim::now_ps());
    wait(25, sc_core::SC_NS);
    counted.wait();
    woke_counted.push_back(nicsim::now_ps());
  }
  void waiter_plain() {
    wait(15, sc_core::SC_NS);
    wait(plain);
    woke_plain.push_back(nicsim::now_ps());
    wait(25, sc_core::SC_NS);
    wait(plain);
    woke_plain.push_back(nicsim::now_ps());
  }
  void late_counted() {
    wait(25, sc_core::SC_NS);
    counted.wait();
    woke_counted.push_back(nicsim::now_ps());
  }
  void late_plain() {
    wait(25, sc_core::SC_NS);
    wait(plain);
    woke_plain.push_back(nicsim::now_ps());
  }
};

TEST(WaitedEvent, WakesExactlyTheThreadsAnScEventWakes) {
  setup_systemc();
  Pair p("p");
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
  /* Early waiters: woken at 20 ns and 50 ns; late ones at 30 ns. */
  const std::vector<uint64_t> want = {20000, 30000, 50000};
  EXPECT_EQ(p.woke_plain, want);
  EXPECT_EQ(p.woke_counted, want);
}

/* A method that arms the WaitedEvent (arm() + next_trigger) at 15 ns and
 * again after each wake, until 45 ns; notifications at 10..50 ns. */
struct Armed : sc_core::sc_module {
  WaitedEvent ev;
  std::vector<uint64_t> woke;
  explicit Armed(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(Armed);
    SC_THREAD(notifier);
    SC_METHOD(method);
  }
  void notifier() {
    for (int i = 0; i < 5; i++) {
      wait(10, sc_core::SC_NS);
      ev.notify();
    }
  }
  void method() {
    const uint64_t now = nicsim::now_ps();
    if (now == 0) {
      next_trigger(15, sc_core::SC_NS);
      return;
    }
    if (now != 15000) woke.push_back(now);
    if (now < 45000) {
      next_trigger(ev.arm());
    } else {
      next_trigger(100, sc_core::SC_NS); /* stops waiting: a later notify is skipped */
    }
  }
};

TEST(WaitedEvent, AnArmedMethodIsFiredByTheNextNotifyOnly) {
  setup_systemc();
  Armed a("a");
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
  /* Armed from 15 ns: fired at 20, 30, 40 (re-armed each time) and 50 ns
   * (armed at 40 < 45); at 50 it stops waiting on the event. */
  const std::vector<uint64_t> want = {20000, 30000, 40000, 50000};
  EXPECT_EQ(a.woke, want);
}

TEST(PsTime, EqualsFromValueAndTheTimeStamp) {
  setup_systemc();
  const uint64_t edge = 1ull << 52;
  const std::vector<uint64_t> values = {0, 1, 2, 999, 4000, 1234567891, edge - 2, edge - 1, edge, edge + 1,
                                         (1ull << 60) + 3, ~0ull};
  for (uint64_t v : values) {
    EXPECT_EQ(ps_time(v).value(), v) << v;
    EXPECT_EQ(ps_time(v), sc_core::sc_time::from_value(v)) << v;
  }
  for (uint64_t v = 0; v < 100000; v += 7) EXPECT_EQ(ps_time(v).value(), v);
  sc_core::sc_start(ps_time(123456));
  EXPECT_EQ(nicsim::now_ps(), sc_core::sc_time_stamp().value());
  EXPECT_EQ(nicsim::now_ps(), 123456u);
}

}  // namespace
