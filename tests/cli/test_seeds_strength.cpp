// test_seeds_strength.cpp: scripts/seeds.sh --json (docs/seeds.md,
// "Strength") on two short seeds: with the S7 figure of a copy of
// plots/published.tsv moved so that nicsim's ratio lies just inside the
// rule's band, the i40e S7 ratio is a knife-edge whose flip a hand run with
// the named value reproduces; the x86 one is a tautology, the JH7100
// throughput a ceiling (the RX wire at both points); the -10 % runs stay
// within --strength-keys. Simulates (about 100 short runs).
#include <gtest/gtest.h>
#include <jansson.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "cli/seeds_script_util.h"

using namespace nicsim_cli_test;

namespace {

class SeedsStrength : public SeedsScript {
 protected:
  // The comparison of the JSON whose before label and metric are these.
  static json_t *find(json_t *list, const std::string &before, const std::string &metric) {
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c) {
      if (before == json_string_value(json_object_get(c, "before")) &&
          metric == json_string_value(json_object_get(c, "metric")))
        return c;
    }
    return nullptr;
  }
  static std::string str(json_t *o, const char *k) {
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "(none)";
  }
};

TEST_F(SeedsStrength, LabelsAndTheFlipReproduced) {
  // nicsim's S7 ratio, then a published ratio that puts it 2 % above the
  // band's lower edge (0.75 x published): a knife-edge by construction.
  std::string cmd = std::string("'") + NICSIM_BIN + "' sweep '" + root() +
                    "/scenarios/seeds/i40e-relaxed-ordering.yaml' -o '" + path("nominal/i40e-relaxed-ordering") + "' -j 2 > /dev/null 2>&1";
  ASSERT_EQ(system(cmd.c_str()), 0) << cmd;
  Result nom = seeds({"--no-run", "--no-plots", "-o", "nominal", "i40e-relaxed-ordering"});
  ASSERT_EQ(nom.status, 0) << NICSIM_SHOW(nom);
  std::map<std::string, Row> nrows = read_tsv(path("nominal/validation.tsv"));
  const double ratio = std::stod(nrows["before/sparc rx.goodput_gbps"]["nicsim_after"]) /
                       std::stod(nrows["before/sparc rx.goodput_gbps"]["nicsim_before"]);
  const double published_after = 2.33 * ratio / (0.75 * 1.02);
  std::string pub = slurp(root() + "/plots/published.tsv");
  const std::string s7_row = "before/sparc\tafter/sparc\trx.goodput_gbps\t2.33\t31.6\t";
  const size_t at = pub.find(s7_row);
  ASSERT_NE(at, std::string::npos);
  char fig[32];
  std::snprintf(fig, sizeof fig, "%.4f", published_after);
  pub.replace(at, s7_row.size(), "before/sparc\tafter/sparc\trx.goodput_gbps\t2.33\t" + std::string(fig) + "\t");
  std::ofstream(path("published.tsv")) << pub;
  Result r = seeds({"-j", "2", "-o", "out", "--no-plots", "--strength-keys", "2", "--json", path("s.json"),
                    "--published", path("published.tsv"), "i40e-relaxed-ordering", "stmmac-rx-align"},
                   NICSIM_BIN);
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_error_t e;
  json_t *doc = json_load_file(path("s.json").c_str(), 0, &e);
  ASSERT_NE(doc, nullptr) << e.text << " at line " << e.line;
  json_t *list = json_object_get(doc, "comparisons");
  ASSERT_TRUE(json_is_array(list));
  EXPECT_EQ(json_array_size(list), 4u);  // two rows of each seed in plots/published.tsv

  size_t i;
  json_t *c;
  json_array_foreach(list, i, c) {
    SCOPED_TRACE(str(c, "before") + " " + str(c, "metric"));
    for (const char *k : {"published", "nicsim", "verdict", "strength", "flips", "keys_tried"})
      EXPECT_NE(json_object_get(c, k), nullptr) << k;
    // the cap: each comparison picks at most --strength-keys keys for -10 %;
    // the JH7100's two comparisons share their points, so each sees both
    // picks (at most 2 x 2), i40e's one each (at most 2)
    json_t *tried = json_object_get(c, "keys_tried");
    EXPECT_LE(json_integer_value(json_object_get(tried, "minus")), str(c, "seed") == "stmmac-rx-align" ? 4 : 2);
    EXPECT_GT(json_integer_value(json_object_get(tried, "plus")), 5);
  }

  json_t *s7 = find(list, "before/sparc", "rx.goodput_gbps");
  ASSERT_NE(s7, nullptr);
  EXPECT_EQ(str(s7, "verdict"), "PASS");
  EXPECT_EQ(str(s7, "strength"), "knife-edge");
  // The first flip the JSON names: a marked value at +-10 % of its nominal.
  json_t *flip = json_array_get(json_object_get(s7, "flips"), 0);
  ASSERT_NE(flip, nullptr) << json_dumps(s7, 0);
  EXPECT_EQ(str(flip, "verdict"), "MISS");
  const std::string key = str(flip, "key"), mark = str(flip, "mark");
  EXPECT_TRUE(mark == "E" || mark == "C") << mark;
  const double value = json_number_value(json_object_get(flip, "value"));
  const double nominal = json_number_value(json_object_get(flip, "nominal"));
  EXPECT_TRUE(std::fabs(value - 0.9 * nominal) < 1e-9 * nominal || std::fabs(value - 1.1 * nominal) < 1e-9 * nominal)
      << value << " against " << nominal;

  // By hand: the sweep with that value, compared as always, misses.
  char set[128];
  std::snprintf(set, sizeof set, "%s=%.17g", key.c_str(), value);
  cmd = std::string("'") + NICSIM_BIN + "' sweep '" + root() + "/scenarios/seeds/i40e-relaxed-ordering.yaml' --set " +
        set + " -o '" + path("hand/i40e-relaxed-ordering") + "' -j 2 --force > /dev/null 2>&1";
  ASSERT_EQ(system(cmd.c_str()), 0) << cmd;
  r = seeds({"--no-run", "--no-plots", "-o", "hand", "--published", path("published.tsv"), "i40e-relaxed-ordering"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::map<std::string, Row> rows = read_tsv(path("hand/validation.tsv"));
  EXPECT_EQ(rows["before/sparc rx.goodput_gbps"]["verdict"], "MISS");

  // The doc's strength rows (DIR/strength.tsv, the strength table of --write-doc).
  std::string tsv = slurp(path("out/strength.tsv"));
  EXPECT_NE(tsv.find("i40e-relaxed-ordering\tbefore/sparc -> after/sparc\trx.goodput_gbps\tPASS\tknife-edge\t"),
            std::string::npos) << tsv;
  EXPECT_NE(tsv.find(key + " = "), std::string::npos) << tsv;

  json_t *x86 = find(list, "before/x86", "rx.goodput_gbps");
  ASSERT_NE(x86, nullptr);
  EXPECT_EQ(str(x86, "strength"), "tautology");  // the x86 root complex ignores RO

  json_t *jh = find(list, "before/jh7100", "rx.goodput_gbps");
  ASSERT_NE(jh, nullptr);
  EXPECT_EQ(str(jh, "strength"), "ceiling");
  EXPECT_EQ(str(jh, "saturated"), "wire.rx");
  json_t *memcpy_share = find(list, "before/jh7100", "cpu.profile.memcpy");
  ASSERT_NE(memcpy_share, nullptr);
  EXPECT_NE(str(memcpy_share, "strength"), "ceiling");  // not a throughput
  json_decref(doc);
}

// --json needs simulations; --strength-keys a positive count.
TEST_F(SeedsStrength, UsageErrors) {
  Result r = seeds({"--baselines", root() + "/tests/regress/baselines", "-o", "out", "--json", path("s.json")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("--json simulates"), std::string::npos) << r.err;
  r = seeds({"--no-run", "-o", "out", "--strength-keys", "0"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("--strength-keys wants a positive integer"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("s.json")));
}

}  // namespace
