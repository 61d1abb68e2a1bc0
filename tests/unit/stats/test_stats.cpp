// test_stats.cpp: the statistics framework on a toy model: window deltas,
// whole-run values, time averages of integrals, formulas over other metrics,
// families named at run time, presence conditions, and the registry's
// snapshots at the edges.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "common/stats.h"

namespace {

using namespace nicsim::stats;

/* A toy model's counters. */
struct Toy {
  uint64_t frames = 0;     /* a cumulative count */
  uint64_t occ_ps = 0;     /* an integral: items x ps */
  uint64_t peak = 0;       /* a whole-run maximum */
  uint64_t per_queue[3] = {};
  uint32_t queues = 0;
};
using D = Decl<Toy>;
using E = Edges<Toy>;

void queues(const E &e, FamilyOut &out) {
  char name[32], desc[64];
  for (uint32_t q = 0; q < e.b.queues; q++) {
    std::snprintf(name, sizeof name, "toy.q%u.frames", q);
    std::snprintf(desc, sizeof desc, "frames of queue %u", q);
    out.add(name, desc, static_cast<double>(e.b.per_queue[q] - e.a.per_queue[q]));
  }
}

const D kToyDecls[] = {
    D::stat("toy.frames", "frames", Kind::Count, "frames in the window", delta<&Toy::frames>),
    D::stat("toy.occupancy", "items", Kind::Real, "mean items in the window", time_avg<&Toy::occ_ps>),
    D::stat("toy.peak", "items", Kind::Count, "whole run: most items", at_finish<&Toy::peak>),
    D::stat("toy.rate", "1/s", Kind::Real, "frames per second",
            [](const E &e) { return e.delta(&Toy::frames) / e.win_s(); }),
    D::stat("toy.only_with_queues", "", Kind::Count, "reported with queues", at_finish<&Toy::queues>,
            [](const E &e) { return e.f.queues > 0; }),
    D::extra("toy.extra", "", Kind::Real, "not a column", [](const E &) { return 0.5; }),
    D::family("toy.q<q>.frames", "frames", Kind::Count, "frames of queue q in the window", queues),
    D::derived("toy.per_other", "", Kind::Real, "toy.frames per other.count",
               [](const Values &v) { return v("toy.frames") / v("other.count"); }),
    D::derived("toy.missing", "", Kind::Real, "needs a metric nobody reports",
               [](const Values &v) { return v("nobody.reports_this"); }),
};
const Table<Toy> kToy = table("toy", kToyDecls);

/* The values a registry emitted, by name, with the entry they came from. */
struct Collect : Sink {
  std::map<std::string, double> v;
  std::map<std::string, std::string> desc;
  std::map<std::string, bool> extra;
  void value(const Info &i, double x) override {
    v[i.name] = x;
    extra[i.name] = i.extra;
  }
  void instance(const Info &f, const char *name, const char *d, double x) override {
    EXPECT_EQ(f.what, What::Family);
    v[name] = x;
    desc[name] = d;
    extra[name] = true;
  }
};

/* A model whose counters a test moves between the snapshots. */
struct Model {
  Toy now;
  int reads_at_warmup = 0;
};

Run run_of(double win_ps) {
  Run r;
  r.win_ps = win_ps;
  return r;
}

TEST(Stats, WindowDeltaWholeRunAndIntegralFollowTheEdges) {
  Model m;
  Registry reg;
  reg.add(kToy, [&m](Toy &s, Edge e) {
    s = m.now;
    if (e == Edge::Warmup) m.reads_at_warmup++;
  });
  struct Other {
    uint64_t n = 0;
  };
  static const Decl<Other> kOtherDecls[] = {
      Decl<Other>::stat("other.count", "", Kind::Count, "other", delta<&Other::n>),
  };
  static const Table<Other> kOther = table("other", kOtherDecls);
  uint64_t other = 0;
  reg.add(kOther, [&other](Other &s, Edge) { s.n = other; });

  m.now.frames = 100;  /* before the window: not counted */
  m.now.occ_ps = 5000;
  m.now.peak = 7;
  reg.snapshot(Edge::Warmup);
  EXPECT_TRUE(reg.taken(Edge::Warmup));
  EXPECT_FALSE(reg.taken(Edge::Duration));
  m.now.frames = 130;  /* 30 in the window */
  m.now.occ_ps = 5000 + 2 * 1000000; /* 2 items over the 1 us window */
  other = 10;
  reg.snapshot(Edge::Duration);
  m.now.frames = 140; /* during the drain: not in the window */
  m.now.peak = 9;     /* the whole run's maximum is the finish's */
  reg.snapshot(Edge::Finish);

  Collect c;
  reg.emit(run_of(1e6), c);
  EXPECT_EQ(m.reads_at_warmup, 1);
  EXPECT_EQ(c.v["toy.frames"], 30);
  EXPECT_EQ(c.v["toy.occupancy"], 2.0);
  EXPECT_EQ(c.v["toy.peak"], 9);
  EXPECT_DOUBLE_EQ(c.v["toy.rate"], 30 / 1e-6);
  EXPECT_EQ(c.v["toy.extra"], 0.5);
  EXPECT_TRUE(c.extra["toy.extra"]);
  EXPECT_FALSE(c.extra["toy.frames"]);
  /* A derived entry sees the values of every table, whatever the order of registration. */
  EXPECT_EQ(c.v["toy.per_other"], 3.0);
  EXPECT_EQ(c.v.count("toy.missing"), 0u) << "an input nobody reported makes a derived entry absent";
  EXPECT_EQ(c.v.count("toy.only_with_queues"), 0u) << "its condition is false";
  EXPECT_EQ(c.v.count("toy.q0.frames"), 0u) << "no queues, no instances";
}

TEST(Stats, FamiliesEmitOneInstancePerItemAndConditionsHold) {
  Model m;
  Registry reg;
  reg.add(kToy, [&m](Toy &s, Edge) { s = m.now; });
  m.now.queues = 2;
  m.now.per_queue[0] = 1;
  m.now.per_queue[1] = 2;
  reg.snapshot(Edge::Warmup);
  m.now.per_queue[0] = 11;
  m.now.per_queue[1] = 32;
  reg.snapshot(Edge::Duration);
  reg.snapshot(Edge::Finish);
  Collect c;
  reg.emit(run_of(1e6), c);
  EXPECT_EQ(c.v["toy.q0.frames"], 10);
  EXPECT_EQ(c.v["toy.q1.frames"], 30);
  EXPECT_EQ(c.v.count("toy.q2.frames"), 0u);
  EXPECT_EQ(c.desc["toy.q1.frames"], "frames of queue 1");
  EXPECT_EQ(c.v["toy.only_with_queues"], 2);
}

TEST(Stats, TableViewReadsEveryEntrysInfo) {
  const TableView v(kToy);
  EXPECT_STREQ(v.model(), "toy");
  ASSERT_EQ(v.size(), sizeof kToyDecls / sizeof kToyDecls[0]);
  for (size_t i = 0; i < v.size(); i++) EXPECT_EQ(&v.at(i), &kToyDecls[i].info);
  EXPECT_EQ(v.at(6).what, What::Family);
  EXPECT_TRUE(v.at(6).extra);
  EXPECT_EQ(v.at(7).what, What::Derived);
}

TEST(Stats, PatternsMatchIdentifiersAndChoices) {
  EXPECT_TRUE(pattern_matches("nic.rxq<q>.pkts", "nic.rxq0.pkts"));
  EXPECT_TRUE(pattern_matches("nic.rxq<q>.pkts", "nic.rxq15.pkts"));
  EXPECT_FALSE(pattern_matches("nic.rxq<q>.pkts", "nic.rxq.pkts"));
  EXPECT_FALSE(pattern_matches("nic.rxq<q>.pkts", "nic.rxq1.pkts.x"));
  EXPECT_TRUE(pattern_matches("pcie.<up|down>.<purpose>.tlps", "pcie.down.msi.tlps"));
  EXPECT_FALSE(pattern_matches("pcie.<up|down>.<purpose>.tlps", "pcie.sideways.msi.tlps"));
  EXPECT_FALSE(pattern_matches("pcie.<up|down>.<purpose>.tlps", "pcie.upper.msi.tlps"));
  EXPECT_TRUE(pattern_matches("cpu.core<N>.profile.<function>", "cpu.core3.profile.stack_rx"));
  EXPECT_FALSE(pattern_matches("cpu.core<N>.profile.<function>", "cpu.core3.profile."));
  EXPECT_TRUE(pattern_matches("bus.rd_util", "bus.rd_util"));
  EXPECT_FALSE(pattern_matches("bus.rd_util", "bus.rd_utils"));
}

TEST(Stats, IdentKeepsLettersDigitsAndUnderscores) {
  EXPECT_EQ(ident("(other)"), "other");
  EXPECT_EQ(ident("mvneta_rx_swbm"), "mvneta_rx_swbm");
  EXPECT_EQ(ident("a-b.c 9"), "abc9");
}

}  // namespace
