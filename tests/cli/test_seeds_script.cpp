// test_seeds_script.cpp: scripts/seeds.sh (issue 7's seed validation report):
// the verdict rule on hand-made results.csv files (tests/cli/data/seeds),
// the validation.tsv and .dat formats, usage errors, one plot, one real run.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "cli/seeds_script_util.h"

using namespace nicsim_cli_test;

namespace {

// The fixture run: every case of the rule (see the fixture's published.tsv).
TEST_F(SeedsScript, VerdictRule) {
  copy_fixture();
  Result r = seeds({"--no-run", "--no-plots", "-o", "out", "--published", data("seeds/published.tsv")});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);  // a report: misses do not fail it
  std::map<std::string, Row> rows = read_tsv(path("out/validation.tsv"));
  ASSERT_EQ(rows.size(), 19u);

  struct Case {
    const char *key, *rule, *verdict, *note;
    double nicsim_change;  // "-" when NAN
  };
  const Case cases[] = {
      // -9.2% published: band [-11.5%, -6.9%]; nicsim 2.0 -> 1.82 = -9%.
      {"b/rel-pass tx.gbps", "relative", "PASS", "", -0.09},
      {"b/rel-small tx.gbps", "relative", "MISS", "change too small", -0.05},
      {"b/rel-large tx.gbps", "relative", "MISS", "change too large", -0.20},
      // +8.2% published, nicsim -3%.
      {"b/rel-wrongdir tx.gbps", "relative", "MISS", "wrong direction", -0.03},
      // 0.956 / 0.143 = 6.69x: band [5.01x, 8.36x]; nicsim 0.6 / 0.1 = 6x.
      {"b/ratio-pass tx.gbps", "ratio", "PASS", "", 6.0},
      // 2.5x: band [1.875x, 3.125x] holds 1.9x (relative would want +112.5% .. +187.5%).
      {"b/ratio-not-rel tx.gbps", "ratio", "PASS", "", 1.9},
      // +90% (1.9x < 2): band [+67.5%, +112.5%] misses +50% (ratio would pass 1.5x in [1.425, 2.375]).
      {"b/rel-not-ratio tx.gbps", "relative", "MISS", "change too small", 0.5},
      // 0.3471 / 0.1507 = 2.303x down: band [1.727x, 2.879x]; nicsim 0.8 / 0.35 = 2.286x.
      {"b/ratio-down-pass cpu.util", "ratio", "PASS", "", 0.8 / 0.35},
      {"b/ratio-down-large cpu.util", "ratio", "MISS", "change too large", 4.0},
      // 6.69x up published, nicsim 0.6 -> 0.5: ratio in the published direction 0.833.
      {"b/ratio-wrongdir tx.gbps", "ratio", "MISS", "wrong direction", 0.5 / 0.6},
      {"b/unch-in tx.gbps", "unchanged", "PASS", "", 0.04},
      {"b/unch-out tx.gbps", "unchanged", "MISS", "changed by more than 5%", -0.06},
      {"b/unch-nopub tx.gbps", "unchanged", "PASS", "", 0.0},
      {"b/unch-low tx.gbps", "unchanged", "PASS", "", 0.0},
      {"b/info tx.gbps", "relative", "INFO", "", 1.0},
      {"b/nothere tx.gbps", "ratio", "MISSING", "no point b/nothere", NAN},
      {"b/rel-pass rx.gbps", "ratio", "MISSING", "no column rx.gbps", NAN},
      {"b/empty cpu.util", "ratio", "MISSING", "no value of cpu.util", NAN},
      {"b/x tx.gbps", "ratio", "MISSING", "no out/fix-norun/results.csv", NAN},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.key);
    ASSERT_TRUE(rows.count(c.key));
    Row &row = rows[c.key];
    EXPECT_EQ(row["rule"], c.rule);
    EXPECT_EQ(row["verdict"], c.verdict);
    EXPECT_EQ(row["note"], c.note);
    if (std::isnan(c.nicsim_change))
      EXPECT_EQ(row["nicsim_change"], "-");
    else
      EXPECT_NEAR(std::stod(row["nicsim_change"]), c.nicsim_change, 1e-5);
  }

  // The bands and the off-by of two rows, by hand.
  Row &rel = rows["b/rel-pass tx.gbps"];
  EXPECT_NEAR(std::stod(rel["published_change"]), -0.092, 1e-9);
  EXPECT_NEAR(std::stod(rel["low"]), -0.115, 1e-9);     // 1.25 x -9.2%
  EXPECT_NEAR(std::stod(rel["high"]), -0.069, 1e-9);    // 0.75 x -9.2%
  EXPECT_NEAR(std::stod(rel["off_by"]), -0.09 / -0.092 - 1, 1e-5);
  EXPECT_EQ(rel["nicsim_before"], "2.0");               // as results.csv wrote it
  Row &ratio = rows["b/ratio-pass tx.gbps"];
  EXPECT_NEAR(std::stod(ratio["published_change"]), 0.956 / 0.143, 1e-5);
  EXPECT_NEAR(std::stod(ratio["low"]), 0.75 * 0.956 / 0.143, 1e-4);
  EXPECT_NEAR(std::stod(ratio["high"]), 1.25 * 0.956 / 0.143, 1e-4);
  Row &unch = rows["b/unch-nopub tx.gbps"];
  EXPECT_EQ(unch["published_before"], "-");
  EXPECT_EQ(unch["published_change"], "-");
  EXPECT_EQ(unch["low"], "-0.05");
  EXPECT_EQ(unch["high"], "0.05");
  EXPECT_NE(unch["weak"].find("no published figures"), std::string::npos) << unch["weak"];
  // An unchanged figure also checks its level: within 25 % of the board's at
  // both points, or weak (0.15 against 0.961 and 0.956: -84.4 %, -84.3 %).
  EXPECT_EQ(rows["b/unch-in tx.gbps"]["weak"], "");  // +4.1 % and +8.8 % off the board
  EXPECT_EQ(rows["b/unch-low tx.gbps"]["weak"], "level -84.4% / -84.3% off the board");
  EXPECT_EQ(rows["b/rel-pass tx.gbps"]["weak"], "");

  // The human table: one line per row plus header, rule and summary.
  EXPECT_NE(r.out.find("7 PASS, 7 MISS, 1 INFO, 4 MISSING"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.143 -> 0.956 (6.69x)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.8 -> 0.35 (1/2.29x)"), std::string::npos) << r.out;

  // The plot data: after/before and the band in after/before terms.
  std::vector<std::string> dat = lines_of(slurp(path("out/fix.dat")));
  ASSERT_EQ(dat.size(), 2u + 18u);  // two comment lines, 18 rows of seed fix
  std::vector<std::string> down = split_tabs(dat[2 + 7]);  // ratio-down-pass
  ASSERT_EQ(down.size(), 8u);
  EXPECT_EQ(down[1], "ratio-down-pass");
  EXPECT_NEAR(std::stod(down[3]), 0.1507 / 0.3471, 1e-5);
  EXPECT_NEAR(std::stod(down[4]), 0.35 / 0.8, 1e-5);
  EXPECT_NEAR(std::stod(down[5]), 1 / (1.25 * 0.3471 / 0.1507), 1e-5);
  EXPECT_NEAR(std::stod(down[6]), 1 / (0.75 * 0.3471 / 0.1507), 1e-5);
  EXPECT_EQ(down[7], "PASS");
}

// Naming seeds compares only those.
TEST_F(SeedsScript, OnlyTheNamedSeeds) {
  copy_fixture();
  Result r = seeds({"--no-run", "--no-plots", "-o", "out", "--published", data("seeds/published.tsv"), "fix-norun"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::map<std::string, Row> rows = read_tsv(path("out/validation.tsv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows["b/x tx.gbps"]["verdict"], "MISSING");
  EXPECT_FALSE(exists(path("out/fix.dat")));
}

// Usage errors and a bad published.tsv exit 2 with a message.
TEST_F(SeedsScript, UsageErrors) {
  Result r = seeds({"--bogus"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("unknown option '--bogus'"), std::string::npos) << r.err;

  r = seeds({"--no-run", "-o", "out", "-j", "0"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("-j wants a positive integer"), std::string::npos) << r.err;

  r = seeds({"--no-run", "-o", "out", "no-such-seed"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("unknown seed 'no-such-seed'"), std::string::npos) << r.err;

  r = seeds({"--no-run", "-o", "out", "-o"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("-o needs a value"), std::string::npos) << r.err;

  FILE *f = fopen(path("bad.tsv").c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("seed\tbefore\tafter\tmetric\tpublished_before\tpublished_after\tkind\tsource\n"
        "s\tb\ta\ttx.gbps\t1\t2\theadline\tok\n"
        "s\tb\ta\ttx.gbps\t1\t2\tbig\tbad kind\n"
        "s\tb\ta\ttx.gbps\t-\t-\theadline\theadline without figures\n"
        "s\tb\ta\ttx.gbps\t1\t1\theadline\theadline without a change\n",
        f);
  fclose(f);
  r = seeds({"--no-run", "-o", "out", "--published", path("bad.tsv")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("bad.tsv:3: kind \"big\" is not headline, unchanged or info"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.tsv:4: a headline row needs published figures"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.tsv:5: a headline row needs a published change"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out/validation.tsv")));

  r = seeds({"--help"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("Usage: scripts/seeds.sh"), std::string::npos) << r.out;
}

// The real published.tsv and plots/i40e-relaxed-ordering.gp on a results.csv
// taken from a run: the SVG is written where --plot-dir says.
TEST_F(SeedsScript, RendersTheSeedPlot) {
  if (system("command -v gnuplot > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot not installed";
  copy_fixture();
  Result r = seeds({"--no-run", "-o", "out", "--plot-dir", "svg", "i40e-relaxed-ordering"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::map<std::string, Row> rows = read_tsv(path("out/validation.tsv"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows["before/sparc rx.goodput_gbps"]["rule"], "ratio");        // 31.6 / 2.33 = 13.6x
  EXPECT_EQ(rows["before/x86 rx.goodput_gbps"]["verdict"], "PASS");        // 13.1307 both
  std::string svg = slurp(path("svg/i40e-relaxed-ordering.svg"));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("i40e-relaxed-ordering: RX throughput"), std::string::npos);
}

// A real run: seeds.sh runs the (short) i40e sweep with the built nicsim and
// finds every figure it compares.
TEST_F(SeedsScript, RunsASeedSweep) {
  Result r = seeds({"-j", "2", "-o", "out", "--no-plots", "i40e-relaxed-ordering"}, NICSIM_BIN);
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_TRUE(exists(path("out/i40e-relaxed-ordering/results.csv")));
  std::map<std::string, Row> rows = read_tsv(path("out/validation.tsv"));
  ASSERT_EQ(rows.size(), 2u);
  for (auto &kv : rows) {
    SCOPED_TRACE(kv.first);
    EXPECT_NE(kv.second["verdict"], "MISSING");
    EXPECT_NE(kv.second["nicsim_before"], "-");
  }
  // A rerun into the same directory works (--force, same sweep).
  r = seeds({"-j", "2", "-o", "out", "--no-plots", "i40e-relaxed-ordering"}, NICSIM_BIN);
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
}

}  // namespace
