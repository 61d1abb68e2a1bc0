// seeds_script_util.h: the fixture of the scripts/seeds.sh tests
// (test_seeds_script.cpp, test_seeds_doc.cpp): runs the script, copies the
// hand-made results of tests/cli/data/seeds, reads validation.tsv.
#ifndef NICSIM_TESTS_CLI_SEEDS_SCRIPT_UTIL_H
#define NICSIM_TESTS_CLI_SEEDS_SCRIPT_UTIL_H

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"

namespace nicsim_cli_test {

// One row of validation.tsv: column name -> value.
using Row = std::map<std::string, std::string>;

// Splits s at tabs.
inline std::vector<std::string> split_tabs(const std::string &s) {
  std::vector<std::string> f;
  size_t start = 0;
  for (;;) {
    size_t tab = s.find('\t', start);
    f.push_back(s.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return f;
    start = tab + 1;
  }
}

class SeedsScript : public Cli {
 public:
  // The source tree (the script's directory's parent).
  static std::string root() {
    std::string s = NICSIM_SEEDS_SCRIPT;
    return s.substr(0, s.rfind("/scripts/"));
  }

 protected:
  // Runs sh scripts/seeds.sh with args (and NICSIM in the environment when
  // nicsim is set), stdout and stderr captured.
  Result seeds(const std::vector<std::string> &args, const std::string &nicsim = "") {
    std::string cmd = "'" + std::string(NICSIM_SEEDS_SCRIPT) + "'";
    for (const std::string &a : args) cmd += " '" + a + "'";
    if (!nicsim.empty()) cmd = "NICSIM='" + nicsim + "' " + cmd;
    cmd += " > '" + path(".out") + "' 2> '" + path(".err") + "' < /dev/null";
    Result r;
    int st = system(cmd.c_str());
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(path(".out"));
    r.err = slurp(path(".err"));
    return r;
  }

  // Copies the fixture's sweep directories into ./out.
  void copy_fixture() {
    std::string cmd = "cp -r '" + data("seeds/out") + "' '" + path("out") + "'";
    ASSERT_EQ(system(cmd.c_str()), 0) << cmd;
  }

  // Reads out/validation.tsv into rows keyed "before-label metric".
  std::map<std::string, Row> read_tsv(const std::string &file) {
    std::map<std::string, Row> rows;
    std::vector<std::string> lines = lines_of(slurp(file));
    EXPECT_FALSE(lines.empty()) << file;
    if (lines.empty()) return rows;
    std::vector<std::string> header = split_tabs(lines[0]);
    EXPECT_EQ(header.size(), 18u) << lines[0];
    for (size_t i = 1; i < lines.size(); i++) {
      std::vector<std::string> f = split_tabs(lines[i]);
      EXPECT_EQ(f.size(), header.size()) << lines[i];
      Row r;
      for (size_t c = 0; c < header.size() && c < f.size(); c++) r[header[c]] = f[c];
      rows[r["before"] + " " + r["metric"]] = r;
    }
    return rows;
  }
};

}  // namespace nicsim_cli_test

#endif
