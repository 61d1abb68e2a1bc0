/* dma_arbiter_test.cpp: DmaArbiter releases the requests of one edge in key
 * order whatever order their threads ran in, requests of different edges in
 * time order, and a request for the current time one delta later, after
 * the ones already released. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dma/dma_arbiter.h"
#include "models/test_rig.h"
#include "common/ps_time.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

/* One requester per (key, start time, delay before asking); each logs
 * "key@time" when the arbiter lets it go. Threads are created in the order
 * given, so a test can make the kernel run them in any order it likes. */
struct Bench : sc_core::sc_module {
  struct Who {
    uint64_t key;
    uint64_t ask_ps;   /* when the requester asks */
    uint64_t start_ps; /* the edge it asks for */
  };
  DmaArbiter arb;
  std::vector<Who> who;
  std::vector<sc_core::sc_event *> evs;
  std::vector<std::string> log;

  Bench(sc_core::sc_module_name n, std::vector<Who> w) : sc_module(n), arb("arb"), who(std::move(w)) {
    for (size_t i = 0; i < who.size(); i++) {
      evs.push_back(new sc_core::sc_event);
      sc_core::sc_spawn([this, i] { run(i); });
    }
  }
  ~Bench() override {
    for (auto *e : evs) delete e;
  }
  void run(size_t i) {
    const Who &w = who[i];
    if (w.ask_ps > 0) sc_core::wait(ps_time(w.ask_ps));
    arb.wait_turn(w.start_ps, w.key, *evs[i]);
    log.push_back(std::to_string(w.key) + "@" + std::to_string(nicsim::now_ps()));
  }
};

}  // namespace

TEST(DmaArbiter, SameEdgeRequestsGoInKeyOrderWhateverOrderTheyAsked) {
  setup_systemc();
  /* Keys 5, 1, 3 ask at time 0 for the edge at 4 ns, created (and so run by
   * the kernel) in that order; key 2 asks at 2 ns for the same edge. */
  Bench b("b", {{5, 0, 4000}, {1, 0, 4000}, {3, 0, 4000}, {2, 2000, 4000}});
  sc_core::sc_start(us(1));
  EXPECT_EQ(b.log, (std::vector<std::string>{"1@4000", "2@4000", "3@4000", "5@4000"}));
  EXPECT_EQ(b.arb.contested(), 1u);
}

TEST(DmaArbiter, DifferentEdgesGoInTimeOrderThenKeyOrder) {
  setup_systemc();
  /* A small key at a later edge waits for a larger key at an earlier one. */
  Bench b("b", {{1, 0, 8000}, {9, 0, 4000}, {7, 0, 8000}, {4, 1000, 4000}});
  sc_core::sc_start(us(1));
  EXPECT_EQ(b.log, (std::vector<std::string>{"4@4000", "9@4000", "1@8000", "7@8000"}));
  EXPECT_EQ(b.arb.contested(), 2u);
}

TEST(DmaArbiter, ARequestForNowGoesOneDeltaLaterAfterThoseAlreadyReleased) {
  setup_systemc();
  /* Key 8 asks for the edge at 4 ns in advance; key 1 asks at 4 ns for 4 ns
   * (its own time, as a request made on an edge): it cannot overtake the
   * release that was already due, so it goes after 8 despite its key. A
   * start in the past counts as now. */
  Bench b("b", {{8, 0, 4000}, {1, 4000, 4000}, {0, 6000, 5000}});
  sc_core::sc_start(us(1));
  EXPECT_EQ(b.log, (std::vector<std::string>{"8@4000", "1@4000", "0@6000"}));
}
