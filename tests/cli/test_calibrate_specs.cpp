// test_calibrate_specs.cpp: one value per physical thing across calibration
// specs (docs/calibration.md, "Across specs"): a key freed by two specs on
// one platform is refused, by `nicsim calibrate` on either spec (its
// directory's other specs) and by --check-specs, naming both; the same key
// on two platforms is not a conflict; a measurement one spec fits and
// another predicts (or any prediction at a point another spec fits) is
// refused; the committed seed specs pass. Nothing is
// simulated (every refusal comes before the first evaluation).
#include <gtest/gtest.h>

#include <fstream>
#include <sys/wait.h>

#include "cli/cli_test_util.h"

using namespace nicsim_cli_test;

namespace {

class CalibrateSpecs : public Cli {
 protected:
  // A spec on the stmmac seed scenario freeing key, calibrating the
  // (point, metric) pairs in cal and validating those in val.
  void spec(const std::string &file, const std::string &key,
            const std::vector<std::pair<std::string, std::string>> &cal,
            const std::vector<std::pair<std::string, std::string>> &val = {}) {
    std::ofstream f(path(file));
    f << "name: " << file.substr(file.rfind('/') + 1, file.size() - file.rfind('/') - 6) << "\n"
      << "scenario: " << NICSIM_SOURCE_DIR << "/scenarios/seeds/stmmac-coalesce.yaml\n"
      << "free:\n  - {key: " << key << ", min: 100, max: 5000, why: \"not published\"}\n"
      << "measurements:\n  calibrate:\n";
    for (auto &m : cal)
      f << "    - {point: " << m.first << ", metric: " << m.second << ", value: 0.3, source: \"a lab\"}\n";
    if (!val.empty()) f << "  validate:\n";
    for (auto &m : val)
      f << "    - {point: " << m.first << ", metric: " << m.second << ", value: 0.3, source: \"a lab\"}\n";
    ASSERT_TRUE(f.good());
  }
  void mkdir_p(const std::string &d) { ASSERT_EQ(system(("mkdir -p '" + path(d) + "'").c_str()), 0); }
};

// Two specs free nic.reg_read_ns on the XGMAC platform: the second is
// refused wherever it is checked, naming the first.
TEST_F(CalibrateSpecs, SameKeyOnOnePlatformIsRefused) {
  mkdir_p("specs");
  spec("specs/a.yaml", "nic.reg_read_ns", {{"before/xgmac", "cpu.util"}});
  spec("specs/b.yaml", "nic.reg_read_ns", {{"after/xgmac", "cpu.util"}});

  Result r = run({"calibrate", "--check-specs", path("specs")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(path("specs/b.yaml") + ":4:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nic.reg_read_ns is also fitted by a (" + path("specs/a.yaml") + ":4:"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("on platform stmmac-xgmac-haps"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("fit it jointly in one spec"), std::string::npos) << r.err;

  // calibrate itself refuses either, before simulating anything
  r = run({"calibrate", path("specs/a.yaml"), "-o", path("out"), "-j", "1"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(path("specs/a.yaml") + ":4:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("also fitted by b (" + path("specs/b.yaml")), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out")));

  // Fitted jointly (one spec, both measurements) it is accepted.
  ASSERT_EQ(remove(path("specs/b.yaml").c_str()), 0);
  spec("specs/a.yaml", "nic.reg_read_ns", {{"before/xgmac", "cpu.util"}, {"after/xgmac", "cpu.util"}});
  r = run({"calibrate", "--check-specs", path("specs")});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("1 calibration spec: no key fitted twice"), std::string::npos) << r.out;
}

// Only regular files that look like specs are read: a FIFO named *.yaml,
// a scenario and a stray text file beside the spec are skipped.
TEST_F(CalibrateSpecs, OnlySpecFilesAreRead) {
  mkdir_p("specs");
  spec("specs/a.yaml", "nic.reg_read_ns", {{"before/xgmac", "cpu.util"}});
  ASSERT_EQ(system(("mkfifo '" + path("specs/pipe.yaml") + "'").c_str()), 0);
  std::ofstream(path("specs/scenario.yaml")) << "name: s\ntraffic: {mode: tx}\n";
  std::ofstream(path("specs/notes.yaml")) << "just: text\n";
  Result r = run({"calibrate", "--check-specs", path("specs")});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("1 calibration spec:"), std::string::npos) << r.out;
}

// The same key on two platforms is two physical things: no conflict.
TEST_F(CalibrateSpecs, SameKeyOnTwoPlatformsIsTwoThings) {
  mkdir_p("specs");
  spec("specs/xgmac.yaml", "nic.reg_read_ns", {{"before/xgmac", "cpu.util"}});
  spec("specs/gmac5.yaml", "nic.reg_read_ns", {{"before/gmac5", "cpu.util"}});
  Result r = run({"calibrate", "--check-specs", path("specs")});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("2 calibration specs"), std::string::npos) << r.out;
}

// A measurement fitted in one spec and predicted in another: refused, in
// either order of the files, and across two directories.
TEST_F(CalibrateSpecs, FittedMeasurementPredictedElsewhereIsRefused) {
  mkdir_p("one");
  mkdir_p("two");
  spec("one/fit.yaml", "nic.reg_read_ns", {{"before/xgmac", "cpu.util"}});
  spec("two/pred.yaml", "stack.udp_sendmsg_instructions", {{"after/gmac5", "cpu.util"}},
       {{"before/xgmac", "cpu.util"}});
  Result r = run({"calibrate", "--check-specs", path("one"), path("two")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(path("two/pred.yaml") + ":9:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("before/xgmac cpu.util is predicted here but its point is fitted by fit (before/xgmac "
                       "cpu.util, " + path("one/fit.yaml") + ":7:"),
            std::string::npos) << r.err;

  // the other order: the later spec fits what the earlier predicts
  r = run({"calibrate", "--check-specs", path("two"), path("one")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find(path("one/fit.yaml") + ":7:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is fitted here but its point is predicted by pred (before/xgmac cpu.util, " +
                       path("two/pred.yaml") + ":9:"),
            std::string::npos) << r.err;

  // beside each other, calibrate refuses the predicting spec
  spec("one/pred.yaml", "stack.udp_sendmsg_instructions", {{"after/gmac5", "cpu.util"}},
       {{"before/xgmac", "cpu.util"}});
  r = run({"calibrate", path("one/pred.yaml"), "-o", path("out"), "-j", "1"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("is predicted here but its point is fitted by fit"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("out")));

  // Another metric at a fitted point: the prediction depends on that point.
  ASSERT_EQ(remove(path("one/pred.yaml").c_str()), 0);
  spec("two/pred.yaml", "stack.udp_sendmsg_instructions", {{"after/gmac5", "cpu.util"}},
       {{"before/xgmac", "tx.mpps"}});
  r = run({"calibrate", "--check-specs", path("one"), path("two")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("before/xgmac tx.mpps is predicted here but its point is fitted by fit (before/xgmac cpu.util"),
            std::string::npos) << r.err;
  // at a point no spec fits, it is a prediction
  spec("two/pred.yaml", "stack.udp_sendmsg_instructions", {{"after/gmac5", "cpu.util"}},
       {{"after/xgmac", "tx.mpps"}});
  r = run({"calibrate", "--check-specs", path("one"), path("two")});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
}

// scripts/calibration-doc.sh splices each spec's summary.md into the doc's
// table (--write-doc) and names a row that differs (--check-doc, exit 1);
// here on hand-made summary.md files (--no-run), without calibrating.
TEST_F(CalibrateSpecs, CalibrationDocRowsAreSplicedAndChecked) {
  std::string script = std::string(NICSIM_SOURCE_DIR) + "/scripts/calibration-doc.sh";
  std::vector<std::string> names;
  ASSERT_EQ(system(("ls '" + std::string(NICSIM_SOURCE_DIR) + "/scenarios/calibration' > '" + path("ls") + "'").c_str()), 0);
  for (const std::string &f : lines_of(slurp(path("ls"))))
    if (f.size() > 5 && f.compare(f.size() - 5, 5, ".yaml") == 0) names.push_back(f.substr(0, f.size() - 5));
  ASSERT_FALSE(names.empty());
  for (const std::string &n : names) {
    mkdir_p("cal/" + n);
    std::ofstream(path("cal/" + n + "/summary.md")) << "| " << n << " | x=1 | converged | a | none | - |\n";
  }
  std::ofstream(path("doc.md")) << "# t\n\n<!-- calibration:table:BEGIN -->\n<!-- calibration:table:END -->\nafter\n";
  auto sh = [&](const std::string &args) {
    return system(("sh '" + script + "' " + args + " -o '" + path("cal") + "' --doc '" + path("doc.md") + "' --no-run 2> '" +
                   path("err") + "'").c_str());
  };
  EXPECT_NE(sh("--check-doc"), 0);
  EXPECT_NE(slurp(path("err")).find("doc.md:4: the doc has \"\", the calibration gives \"| Spec |"), std::string::npos)
      << slurp(path("err"));
  EXPECT_EQ(sh("--write-doc"), 0) << slurp(path("err"));
  std::string doc = slurp(path("doc.md"));
  EXPECT_NE(doc.find("| " + names[0] + " | x=1 | converged | a | none | - |\n"), std::string::npos) << doc;
  EXPECT_NE(doc.find("<!-- calibration:table:END -->\nafter\n"), std::string::npos) << doc;
  EXPECT_EQ(sh("--check-doc"), 0) << slurp(path("err"));
  std::ofstream(path("cal/" + names[0] + "/summary.md")) << "| " << names[0] << " | x=2 | converged | a | none | - |\n";
  EXPECT_EQ(WEXITSTATUS(sh("--check-doc")), 1);
  EXPECT_NE(slurp(path("err")).find("the calibration gives \"| " + names[0] + " | x=2 |"), std::string::npos)
      << slurp(path("err"));
  EXPECT_EQ(slurp(path("doc.md")), doc);  // --check-doc writes nothing
}

// The committed seed specs keep one value per physical thing; usage.
TEST_F(CalibrateSpecs, SeedSpecsPassAndUsage) {
  Result r = run({"calibrate", "--check-specs", std::string(NICSIM_SOURCE_DIR) + "/scenarios/calibration"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("no key fitted twice on one platform, no fitted measurement predicted"), std::string::npos)
      << r.out;
  r = run({"calibrate", "--check-specs"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("--check-specs needs a directory"), std::string::npos) << r.err;
  r = run({"calibrate", "--check-specs", path("nowhere")});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("cannot open the directory"), std::string::npos) << r.err;
}

}  // namespace
