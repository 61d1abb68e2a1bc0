// test_seeds_doc.cpp: scripts/seeds.sh --write-doc and --check-doc (the
// generated tables of docs/validation.md): the real doc against the
// regression baselines (no simulation), a copy with one figure changed or
// one row gone (named, exit 1), the rewrite that restores it, bad markers.
#include <gtest/gtest.h>

#include <fstream>

#include "cli/seeds_script_util.h"

using namespace nicsim_cli_test;

namespace {

class SeedsDoc : public SeedsScript {
 protected:
  // The baselines of the regression suite: every seed point, no simulation.
  std::vector<std::string> from_baselines(const std::string &mode, const std::string &doc) {
    return {"--baselines", root() + "/tests/regress/baselines", "-o", "out", "--no-plots", mode, "--doc", doc};
  }
  void write(const std::string &file, const std::string &text) {
    std::ofstream f(file, std::ios::binary);
    f << text;
    ASSERT_TRUE(f.good()) << file;
  }
  // The index of the first line of lines that starts with prefix (or npos).
  static size_t find_line(const std::vector<std::string> &lines, const std::string &prefix, size_t from = 0) {
    for (size_t i = from; i < lines.size(); i++)
      if (lines[i].compare(0, prefix.size(), prefix) == 0) return i;
    return std::string::npos;
  }
  static std::string join(const std::vector<std::string> &lines) {
    std::string s;
    for (const std::string &l : lines) s += l + "\n";
    return s;
  }
};

// docs/validation.md as committed carries the figures the baselines give.
TEST_F(SeedsDoc, CommittedDocMatchesTheBaselines) {
  std::string doc = root() + "/docs/validation.md";
  std::string before = slurp(doc);
  Result r = seeds(from_baselines("--check-doc", doc));
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("every generated figure matches"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("table strength not checked"), std::string::npos) << r.err;  // needs --json
  EXPECT_EQ(slurp(doc), before);  // --check-doc writes nothing
}

// ... and the binary's own five sweeps give the same tables (seconds: the
// seed runs are short).
TEST_F(SeedsDoc, CommittedDocMatchesTheBinary) {
  Result r = seeds({"-j", "2", "-o", "out", "--no-plots", "--check-doc", "--doc", root() + "/docs/validation.md"},
                   NICSIM_BIN);
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("every generated figure matches"), std::string::npos) << r.err;
}

// One figure changed in a copy: exit 1, naming the line, the row, the column
// and both values; --write-doc restores the copy, after which it checks.
TEST_F(SeedsDoc, ChangedFigureIsNamedAndRewritten) {
  std::string original = slurp(root() + "/docs/validation.md");
  std::vector<std::string> lines = lines_of(original);
  size_t begin = find_line(lines, "<!-- seeds:table:summary:BEGIN -->");
  ASSERT_NE(begin, std::string::npos);
  size_t row = begin + 3;  // after the header and the rule
  ASSERT_LT(row, lines.size());
  // The nicsim cell is the fifth of the row "| seed | points | metric | published | nicsim | ...".
  std::string &line = lines[row];
  size_t at = 0;
  for (int bar = 0; bar < 4 && at != std::string::npos; bar++) at = line.find(" | ", at + 1);
  ASSERT_NE(at, std::string::npos) << line;
  std::string changed_line = line.substr(0, at + 3) + "7" + line.substr(at + 3);
  std::string cell_start = line.substr(at + 3, 12);
  line = changed_line;
  std::string copy = path("doc.md");
  write(copy, join(lines));

  Result r = seeds(from_baselines("--check-doc", copy));
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  std::string where = copy + ":" + std::to_string(row + 1) + ": table summary, row ";
  EXPECT_NE(r.err.find(where), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("column \"nicsim before \xe2\x86\x92 after (change)\": the doc has \"7" + cell_start),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 line(s) of its generated tables differ"), std::string::npos) << r.err;

  r = seeds(from_baselines("--write-doc", copy));
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(slurp(copy), original);
  r = seeds(from_baselines("--check-doc", copy));
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
}

// A failed sweep rewrites nothing: the doc keeps its tables.
TEST_F(SeedsDoc, FailedSweepLeavesTheDocAlone) {
  std::string copy = path("doc.md");
  write(copy, slurp(root() + "/docs/validation.md"));
  std::string before = slurp(copy);
  Result r = seeds({"-o", "out", "--no-plots", "--write-doc", "--doc", copy}, "/bin/false");
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("a sweep failed: " + copy + " not rewritten"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(copy), before);
}

// A row gone from a seed's table is named as missing; prose outside the
// blocks is the doc's own and never checked.
TEST_F(SeedsDoc, MissingRowIsNamed) {
  std::vector<std::string> lines = lines_of(slurp(root() + "/docs/validation.md"));
  size_t begin = find_line(lines, "<!-- seeds:table:i40e-relaxed-ordering:BEGIN -->");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_LT(begin + 4, lines.size());
  lines.erase(lines.begin() + static_cast<long>(begin) + 4);  // the x86 row
  size_t prose = find_line(lines, "**Mechanism.** The S7");
  ASSERT_NE(prose, std::string::npos);
  lines[prose] += " (edited prose)";
  std::string copy = path("doc.md");
  write(copy, join(lines));
  Result r = seeds(from_baselines("--check-doc", copy));
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("table i40e-relaxed-ordering: the doc lacks the row"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("before/x86"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("edited prose"), std::string::npos) << r.err;
}

// Markers: an unknown table, a missing END; naming seeds; no baseline.
TEST_F(SeedsDoc, BadMarkersAndUsage) {
  std::string copy = path("doc.md");
  write(copy, "# t\n<!-- seeds:table:no-such-seed:BEGIN -->\n<!-- seeds:table:no-such-seed:END -->\n");
  Result r = seeds(from_baselines("--check-doc", copy));
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(copy + ":2: unknown table \"no-such-seed\""), std::string::npos) << r.err;

  write(copy, "# t\n<!-- seeds:table:summary:BEGIN -->\n| x |\n");
  std::string before = slurp(copy);
  r = seeds(from_baselines("--write-doc", copy));
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(copy + ":2: table summary has no END marker"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(copy), before);  // nothing rewritten

  std::vector<std::string> args = from_baselines("--check-doc", copy);
  args.push_back("mvneta-uncached");
  r = seeds(args);
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("compares every seed"), std::string::npos) << r.err;

  r = seeds({"--baselines", path("nowhere"), "-o", "out", "--check-doc"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("no directory"), std::string::npos) << r.err;
}

}  // namespace
