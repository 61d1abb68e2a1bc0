// test_bench.cpp: `nicsim bench`: the JSON it writes (every field, positive
// figures, the rx64-10g name, the kernel section), the table on stdout, and
// its usage errors (unknown workload, bad --packets or --repeat, --scaling
// with names or --repeat), and --repeat's fastest-of-N figures.
// No timing is asserted: only that the figures exist and are positive.
#include <jansson.h>

#include <cmath>

#include "cli_test_util.h"

using nicsim_cli_test::Cli;
using nicsim_cli_test::exists;

namespace {

class Bench : public Cli {};

// A positive finite number at key of obj, or a failure naming it.
::testing::AssertionResult positive(json_t *obj, const char *key) {
  json_t *v = json_object_get(obj, key);
  if (v == nullptr) return ::testing::AssertionFailure() << "no member " << key;
  if (!json_is_number(v)) return ::testing::AssertionFailure() << key << " is not a number";
  double d = json_number_value(v);
  if (!std::isfinite(d) || d <= 0) return ::testing::AssertionFailure() << key << " = " << d;
  return ::testing::AssertionSuccess();
}

TEST_F(Bench, QuickRx64WritesEveryFigure) {
  // 2000 frames at 64 B on 10 GbE: 2000 / 14.88 frames/us -> 135 us of traffic.
  auto r = run({"bench", "--quick", "--packets", "2000", "--json", "bench.json", "rx64-10g"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("rx64-10g"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("event_timed_threads *"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("nicsim bench: rx64-10g: 2000 frames"), std::string::npos) << r.err;

  json_error_t err;
  json_t *doc = json_load_file(path("bench.json").c_str(), 0, &err);
  ASSERT_NE(doc, nullptr) << err.text << " line " << err.line;
  json_t *w = json_object_get(doc, "workloads");
  ASSERT_TRUE(json_is_array(w));
  ASSERT_EQ(json_array_size(w), 1u) << "one workload asked for";
  json_t *o = json_array_get(w, 0);
  EXPECT_STREQ(json_string_value(json_object_get(o, "name")), "rx64-10g");
  EXPECT_EQ(json_object_get(o, "skipped"), nullptr) << "skipped only on skipped workloads";
  for (const char *k : {"sim_pkts_per_s", "sim_ns_per_wall_s", "events_per_pkt", "peak_rss_mb", "bound_ratio",
                        "delivered_pkts_per_s", "wall_s", "sim_ns"})
    EXPECT_TRUE(positive(o, k));
  // Every offered frame is counted: the duration is rounded up to whole
  // microseconds, so at least the 2000 asked for (and 15 more at most).
  json_int_t pkts = json_integer_value(json_object_get(o, "pkts"));
  EXPECT_GE(pkts, 2000);
  EXPECT_LE(pkts, 2000 + 15);
  // Consistency of the derived figures with the raw counts.
  double wall = json_number_value(json_object_get(o, "wall_s"));
  EXPECT_NEAR(json_number_value(json_object_get(o, "sim_pkts_per_s")), pkts / wall, 1e-6 * pkts / wall);
  EXPECT_NEAR(json_number_value(json_object_get(o, "events_per_pkt")),
              static_cast<double>(json_integer_value(json_object_get(o, "events"))) / pkts, 1e-9);

  json_t *k = json_object_get(doc, "kernel");
  ASSERT_TRUE(json_is_object(k));
  EXPECT_TRUE(positive(k, "events_per_s"));
  EXPECT_STREQ(json_string_value(json_object_get(k, "reference")), "event_timed_threads");
  json_t *vars = json_object_get(k, "variants");
  ASSERT_TRUE(json_is_array(vars));
  EXPECT_EQ(json_array_size(vars), 5u);
  for (size_t i = 0; i < json_array_size(vars); i++) {
    json_t *v = json_array_get(vars, i);
    EXPECT_TRUE(positive(v, "events_per_s")) << i;
    // --quick: 200000 counted activations per variant. Every variant has one
    // runnable process per delta cycle, so each is one delta; one more
    // delta runs the activation that finds the budget spent and stops.
    EXPECT_EQ(json_integer_value(json_object_get(v, "activations")), 200000) << i;
    EXPECT_EQ(json_integer_value(json_object_get(v, "deltas")), 200000 + 1) << i;
  }
  // bound_ratio is frames/s / (kernel events/s / events per frame).
  double bound = json_number_value(json_object_get(o, "sim_pkts_per_s")) /
                 (json_number_value(json_object_get(k, "events_per_s")) /
                  json_number_value(json_object_get(o, "events_per_pkt")));
  EXPECT_NEAR(json_number_value(json_object_get(o, "bound_ratio")), bound, 1e-9 * bound);
  json_decref(doc);
}

TEST_F(Bench, UnknownWorkloadIsAUsageError) {
  auto r = run({"bench", "--quick", "--json", "bench.json", "rx64-10g", "rx65-10g"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("nicsim bench: unknown workload 'rx65-10g'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rx64-10g, bidir1500, lan743x, i40e"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "") << "nothing ran";
  EXPECT_FALSE(exists(path("bench.json")));
}

TEST_F(Bench, BadPacketsIsAUsageError) {
  for (const char *bad : {"0", "-5", "abc", "1e3", "12x", "", "100000001"}) {
    auto r = run({"bench", "--packets", bad, "rx64-10g"});
    EXPECT_EQ(r.status, 2) << bad << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("--packets expects a whole number of frames"), std::string::npos) << bad << "\n"
                                                                                          << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
  auto r = run({"bench", "--packets"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("needs a value"), std::string::npos) << r.err;
}

TEST_F(Bench, RepeatKeepsTheFastestRun) {
  auto r = run({"bench", "--quick", "--packets", "2000", "--repeat", "3", "--json", "bench.json", "rx64-10g"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_error_t err;
  json_t *doc = json_load_file(path("bench.json").c_str(), 0, &err);
  ASSERT_NE(doc, nullptr) << err.text << " line " << err.line;
  json_t *o = json_array_get(json_object_get(doc, "workloads"), 0);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(json_integer_value(json_object_get(o, "runs")), 3);
  EXPECT_TRUE(positive(o, "wall_s_slowest"));
  // The figures are the fastest run's: its wall time is the least of the three.
  EXPECT_LE(json_number_value(json_object_get(o, "wall_s")), json_number_value(json_object_get(o, "wall_s_slowest")));
  // The same work each time: the frame count does not depend on the run.
  EXPECT_GE(json_integer_value(json_object_get(o, "pkts")), 2000);
  json_decref(doc);
}

TEST_F(Bench, BadRepeatIsAUsageError) {
  for (const char *bad : {"0", "101", "-1", "two", ""}) {
    auto r = run({"bench", "--repeat", bad, "rx64-10g"});
    EXPECT_EQ(r.status, 2) << bad << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("--repeat expects a whole number of runs from 1 to 100"), std::string::npos) << bad << "\n"
                                                                                                      << r.err;
    EXPECT_EQ(r.out, "") << bad;
  }
  auto r = run({"bench", "--scaling", "--repeat", "2"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("--repeat does not go with it"), std::string::npos) << r.err;
}

TEST_F(Bench, ScalingTakesNoWorkloadNames) {
  auto r = run({"bench", "--scaling", "bidir1500"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("--scaling runs rx64-10g only"), std::string::npos) << r.err;
}

TEST_F(Bench, HelpListsTheWorkloads) {
  auto r = run({"bench", "--help"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  for (const char *w : {"rx64-10g", "bidir1500", "lan743x", "i40e", "--scaling", "bound_ratio"})
    EXPECT_NE(r.out.find(w), std::string::npos) << w;
}

}  // namespace
