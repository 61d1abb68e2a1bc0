// test_metrics.cpp: the metric registry: definitions, iteration order,
// extras sorted and replaced, lookup by name, capacity limits.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "results_test_util.h"

using nicsim_test::make_zeroed;

namespace {

// Names of every metric at() yields, in order.
std::vector<std::string> names_in_order(const nicsim_results *r) {
  std::vector<std::string> out;
  nicsim_metric_view m;
  for (size_t i = 0; nicsim_results_at(r, i, &m); i++) out.push_back(m.name);
  return out;
}

TEST(Metrics, DefinitionsAreCompleteAndUnique) {
  const nicsim_metric_def *defs = nicsim_metric_defs();
  std::set<std::string> seen;
  int wall = 0;
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    ASSERT_NE(defs[i].name, nullptr);
    EXPECT_TRUE(seen.insert(defs[i].name).second) << "duplicate " << defs[i].name;
    EXPECT_GT(strlen(defs[i].unit), 0u) << defs[i].name;
    EXPECT_GT(strlen(defs[i].desc), 10u) << defs[i].name;
    EXPECT_EQ(nicsim_metric_find(defs[i].name), i);
    wall += defs[i].kind == NM_KIND_WALL;
  }
  EXPECT_EQ(wall, 1) << "exactly one metric (sim.wall_s) is not deterministic";
  EXPECT_STREQ(defs[nicsim_metric_find("rx.gbps")].name, "rx.gbps");
  EXPECT_STREQ(defs[nicsim_metric_find("sim.wall_s")].name, "sim.wall_s");
  EXPECT_EQ(defs[nicsim_metric_find("sim.wall_s")].kind, NM_KIND_WALL);
  EXPECT_EQ(defs[nicsim_metric_find("rx.pkts")].kind, NM_KIND_COUNT);
  EXPECT_EQ(nicsim_metric_find("rx.nope"), -1);
  EXPECT_STREQ(nicsim_metric_kind_name(NM_KIND_COUNT), "count");
  EXPECT_STREQ(nicsim_metric_kind_name(NM_KIND_REAL), "real");
  EXPECT_STREQ(nicsim_metric_kind_name(NM_KIND_WALL), "wall");
}

TEST(Metrics, InitLeavesNothingPresent) {
  auto r = make_zeroed<nicsim_results>();
  memset(r.get(), 0xab, sizeof *r);
  nicsim_results_init(r.get());
  nicsim_metric_view m;
  EXPECT_FALSE(nicsim_results_at(r.get(), 0, &m));
  double v = -1;
  EXPECT_FALSE(nicsim_results_get(r.get(), "rx.gbps", &v));
  EXPECT_EQ(v, -1);
  EXPECT_EQ(r->nextra, 0u);
}

TEST(Metrics, StaticMetricsIterateInDeclarationOrderWhateverTheSetOrder) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("sim.wall_s"), 1.5);
  nicsim_results_set(r.get(), nicsim_metric_find("pcie.up.tlps"), 42);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.gbps"), 9.87);
  EXPECT_EQ(names_in_order(r.get()),
            (std::vector<std::string>{"rx.gbps", "pcie.up.tlps", "sim.wall_s"}));

  nicsim_metric_view m;
  ASSERT_TRUE(nicsim_results_at(r.get(), 1, &m));
  EXPECT_STREQ(m.name, "pcie.up.tlps");
  EXPECT_STREQ(m.unit, "TLPs");
  EXPECT_EQ(m.kind, NM_KIND_COUNT);
  EXPECT_EQ(m.value, 42);
  EXPECT_FALSE(nicsim_results_at(r.get(), 3, &m));
}

TEST(Metrics, SetTwiceKeepsTheLastValue) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("rx.pkts"), 1);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.pkts"), 2);
  double v = 0;
  ASSERT_TRUE(nicsim_results_get(r.get(), "rx.pkts", &v));
  EXPECT_EQ(v, 2);
  EXPECT_EQ(names_in_order(r.get()).size(), 1u);
}

TEST(Metrics, ExtrasAreSortedByNameAfterStaticMetrics) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("irq.count"), 7);
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "cpu.profile.z_fn", "cycles", NM_KIND_COUNT, "z", 3),
            0);
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "cpu.profile.a_fn", "cycles", NM_KIND_COUNT, "a", 1),
            0);
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "cpu.profile.m_fn", "cycles", NM_KIND_COUNT, "m", 2),
            0);
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "aaa.first", "x", NM_KIND_REAL, "", 0.5), 0);
  EXPECT_EQ(names_in_order(r.get()),
            (std::vector<std::string>{"irq.count", "aaa.first", "cpu.profile.a_fn",
                                      "cpu.profile.m_fn", "cpu.profile.z_fn"}));
  nicsim_metric_view m;
  ASSERT_TRUE(nicsim_results_at(r.get(), 3, &m));
  EXPECT_STREQ(m.name, "cpu.profile.m_fn");
  EXPECT_STREQ(m.desc, "m");
  EXPECT_EQ(m.value, 2);
}

TEST(Metrics, SetExtraReplacesByName) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "q.rx0.pkts", "frames", NM_KIND_COUNT, "old", 1), 0);
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "q.rx0.pkts", "frames", NM_KIND_COUNT, "new", 5), 0);
  EXPECT_EQ(r->nextra, 1u);
  double v = 0;
  ASSERT_TRUE(nicsim_results_get(r.get(), "q.rx0.pkts", &v));
  EXPECT_EQ(v, 5);
  EXPECT_STREQ(r->extra[0].desc, "new");
}

TEST(Metrics, SetExtraRejectsBadNamesAndAFullTable) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  EXPECT_EQ(nicsim_results_set_extra(r.get(), "", "u", NM_KIND_REAL, "", 1), -1);
  EXPECT_EQ(
      nicsim_results_set_extra(r.get(), std::string(96, 'x').c_str(), "u", NM_KIND_REAL, "", 1),
      -1);
  EXPECT_EQ(
      nicsim_results_set_extra(r.get(), std::string(95, 'x').c_str(), "u", NM_KIND_REAL, "", 1), 0);
  EXPECT_EQ(nicsim_results_set_extra(r.get(), "rx.gbps", "u", NM_KIND_REAL, "", 1), -1)
      << "an extra must not shadow a static metric";
  for (int i = 1; i < NICSIM_MAX_EXTRA_METRICS; i++) {
    char name[32];
    snprintf(name, sizeof name, "extra.%03d", NICSIM_MAX_EXTRA_METRICS - i);  // reverse order
    ASSERT_EQ(nicsim_results_set_extra(r.get(), name, "u", NM_KIND_COUNT, "", i), 0) << name;
  }
  EXPECT_EQ(r->nextra, (size_t)NICSIM_MAX_EXTRA_METRICS);
  EXPECT_EQ(nicsim_results_set_extra(r.get(), "extra.new", "u", NM_KIND_COUNT, "", 1), -1);
  // Replacing an existing one still works when full.
  EXPECT_EQ(nicsim_results_set_extra(r.get(), "extra.001", "u", NM_KIND_COUNT, "", 99), 0);
  double v = 0;
  ASSERT_TRUE(nicsim_results_get(r.get(), "extra.001", &v));
  EXPECT_EQ(v, 99);
  for (size_t i = 1; i < r->nextra; i++)
    EXPECT_LT(strcmp(r->extra[i - 1].name, r->extra[i].name), 0) << i;
}

TEST(Metrics, LongUnitAndDescriptionAreTruncatedNotOverflowed) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  std::string desc(500, 'd'), unit(100, 'u');
  ASSERT_EQ(nicsim_results_set_extra(r.get(), "x", unit.c_str(), NM_KIND_REAL, desc.c_str(), 1), 0);
  EXPECT_EQ(strlen(r->extra[0].desc), sizeof(r->extra[0].desc) - 1);
  EXPECT_EQ(strlen(r->extra[0].unit), sizeof(r->extra[0].unit) - 1);
}

TEST(Metrics, GetDistinguishesAbsentStaticAndExtra) {
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("tx.gbps"), 0.0);
  nicsim_results_set_extra(r.get(), "b.extra", "u", NM_KIND_REAL, "", -3.25);
  double v = 1;
  ASSERT_TRUE(nicsim_results_get(r.get(), "tx.gbps", &v));
  EXPECT_EQ(v, 0.0);
  ASSERT_TRUE(nicsim_results_get(r.get(), "b.extra", &v));
  EXPECT_EQ(v, -3.25);
  EXPECT_FALSE(nicsim_results_get(r.get(), "rx.gbps", &v)) << "declared but never set";
  EXPECT_FALSE(nicsim_results_get(r.get(), "a.extra", &v));
  EXPECT_FALSE(nicsim_results_get(r.get(), "c.extra", &v));
}

}  // namespace

TEST(Metrics, ExtraFamiliesAreRecognisedByPattern) {
  EXPECT_TRUE(nicsim_metric_is_extra_name("cpu.profile.memcpy"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("cpu.ns_per_gb.mvneta_rx_swbm"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("pcie.up.desc_fetch.tlps"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("pcie.down.data.bytes"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("bus.data.bursts"));
  EXPECT_FALSE(nicsim_metric_is_extra_name("cpu.profile."));          // no function
  EXPECT_FALSE(nicsim_metric_is_extra_name("cpu.profile.a.b"));       // two identifiers
  EXPECT_FALSE(nicsim_metric_is_extra_name("pcie.up.data"));          // no .tlps/.bytes
  EXPECT_FALSE(nicsim_metric_is_extra_name("pcie.up.data.bursts"));   // a bus suffix
  EXPECT_FALSE(nicsim_metric_is_extra_name("rx.gbpss"));
  EXPECT_FALSE(nicsim_metric_is_extra_name(nullptr));
  EXPECT_TRUE(nicsim_metric_is_extra_name("cpu.core1.util"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("cpu.core12.profile.stack_tx"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("cpu.lock_wait_cycles"));
  EXPECT_FALSE(nicsim_metric_is_extra_name("cpu.core.util"));
  EXPECT_FALSE(nicsim_metric_is_extra_name("cpu.core1.profile."));
  EXPECT_FALSE(nicsim_metric_is_extra_name("cpu.core1.busy"));
}
