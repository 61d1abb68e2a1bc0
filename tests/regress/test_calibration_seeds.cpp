// test_calibration_seeds.cpp: the seed calibration specs
// (scenarios/calibration/*.yaml, docs/calibration.md) in the regression
// suite: each is calibrated again and its fitted values, its simulated
// calibration measurements and its predictions must equal the committed
// baseline (tests/regress/baselines/calibration/<name>.json) within a
// relative 1e-6, and its verdicts (converged, identifiable, matches,
// ill_conditioned) must not change, and the spec's row of docs/calibration.md
// must be this run's summary.md. A model change that moves a calibrated
// prediction fails here.
// NICSIM_UPDATE_BASELINES=1 rewrites the baselines instead (review the diff
// and commit it with the change that moved them). One test per spec, each in
// its own process.
#include <gtest/gtest.h>
#include <jansson.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "cli/cli_test_util.h"

using namespace nicsim_cli_test;

namespace {

class CalibrationSeeds : public Cli {
 protected:
  // The subset of calibration.json a baseline holds.
  static json_t *Subset(json_t *doc) {
    json_t *b = json_object();
    for (const char *k : {"name", "params", "converged", "identifiable", "matches", "ill_conditioned"})
      json_object_set(b, k, json_object_get(doc, k));
    for (const char *list : {"calibrate", "validate"}) {
      json_t *out = json_array();
      size_t i;
      json_t *m;
      json_array_foreach(json_object_get(doc, list), i, m) {
        json_array_append_new(out, json_pack("{s:O, s:O, s:O}", "point", json_object_get(m, "point"),
                                             "metric", json_object_get(m, "metric"), "simulated",
                                             json_object_get(m, "simulated")));
      }
      json_object_set_new(b, list, out);
    }
    return b;
  }

  // Compares two JSON values: numbers within a relative 1e-6, the rest equal.
  static void Same(json_t *want, json_t *got, const std::string &where) {
    if (json_is_number(want) && json_is_number(got)) {
      double a = json_number_value(want), b = json_number_value(got);
      EXPECT_LE(std::fabs(a - b), 1e-6 * std::fabs(a)) << where << ": baseline " << a << ", now " << b;
    } else if (json_is_object(want) && json_is_object(got)) {
      const char *k;
      json_t *v;
      EXPECT_EQ(json_object_size(want), json_object_size(got)) << where;
      json_object_foreach(want, k, v) Same(v, json_object_get(got, k), where + "." + k);
    } else if (json_is_array(want) && json_is_array(got)) {
      ASSERT_EQ(json_array_size(want), json_array_size(got)) << where;
      for (size_t i = 0; i < json_array_size(want); i++)
        Same(json_array_get(want, i), json_array_get(got, i), where + "[" + std::to_string(i) + "]");
    } else {
      EXPECT_TRUE(json_equal(want, got)) << where;
    }
  }

  // docs/calibration.md's row of the spec (its generated table,
  // scripts/calibration-doc.sh) is the summary.md of this run, byte for byte.
  void DocRow(const std::string &name) {
    std::string doc = slurp(std::string(NICSIM_SOURCE_DIR) + "/docs/calibration.md"), row;
    std::string want = slurp(path("out/summary.md"));
    ASSERT_FALSE(want.empty()) << "no out/summary.md";
    bool in = false;
    for (const std::string &l : lines_of(doc)) {
      if (l == "<!-- calibration:table:BEGIN -->") in = true;
      else if (l == "<!-- calibration:table:END -->") in = false;
      else if (in && l.rfind("| " + name + " |", 0) == 0) row = l;
    }
    EXPECT_EQ(row + "\n", want) << "docs/calibration.md's row of " << name
                                 << " differs from this calibration (scripts/calibration-doc.sh --write-doc)";
  }

  void Check(const std::string &name) {
    std::string spec = std::string(NICSIM_SOURCE_DIR) + "/scenarios/calibration/" + name + ".yaml";
    std::string base = std::string(NICSIM_SOURCE_DIR) + "/tests/regress/baselines/calibration/" + name + ".json";
    Result r = run({"calibrate", spec, "-o", "out", "-j", "2", "-q", "--no-plots"});
    ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
    json_error_t e;
    json_t *doc = json_load_file(path("out/calibration.json").c_str(), 0, &e);
    ASSERT_NE(doc, nullptr) << e.text;
    json_t *now = Subset(doc);
    json_decref(doc);
    const char *update = getenv("NICSIM_UPDATE_BASELINES");
    if (update && std::string(update) == "1") {
      ASSERT_EQ(json_dump_file(now, base.c_str(), JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)), 0);
      json_decref(now);
      GTEST_SKIP() << "baseline written: " << base;
    }
    DocRow(name);
    json_t *want = json_load_file(base.c_str(), 0, &e);
    ASSERT_NE(want, nullptr) << base << ": " << e.text << " (NICSIM_UPDATE_BASELINES=1 writes it)";
    Same(want, now, name);
    json_decref(want);
    json_decref(now);
  }
};

TEST_F(CalibrationSeeds, HapsXgmac) { Check("haps-xgmac"); }
TEST_F(CalibrationSeeds, Lan743xX64) { Check("lan743x-x64"); }
TEST_F(CalibrationSeeds, Lan743xIssue) { Check("lan743x-issue"); }

}  // namespace
