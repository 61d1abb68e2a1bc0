// test_regress.cpp: `nicsim regress` (issue 9, docs/regress.md), run as a
// binary in a scratch directory: baselines recorded with --update pass
// unchanged; a perturbed parameter or scenario fails (exit 1) with a diff
// naming the metric; each tolerance kind passes just inside and fails just
// outside; bad suites exit 2 with file:line:col; the JUnit XML is well-formed
// and names the failures; results are identical whatever -j.
#include <jansson.h>

#include <cmath>
#include <regex>

#include "cli_test_util.h"

using nicsim_cli_test::Cli;
using nicsim_cli_test::exists;
using nicsim_cli_test::lines_of;
using nicsim_cli_test::Result;
using nicsim_cli_test::slurp;

namespace {

// A short RX run at line rate on the built-in platform (a few ms of wall time).
const char kRxScenario[] =
    "name: rx-small\n"
    "platform: x86-gen3\n"
    "traffic: {mode: rx, frame_bytes: 1518, rate_gbps: 0}\n"
    "run: {duration_us: 500, warmup_us: 50, seed: 1}\n";

// The same as a sweep over two frame sizes (two points).
const char kRxSweep[] =
    "name: rx-sweep\n"
    "platform: x86-gen3\n"
    "traffic: {mode: rx, rate_gbps: 0}\n"
    "run: {duration_us: 500, warmup_us: 50, seed: 1}\n"
    "sweep:\n"
    "  axes:\n"
    "    traffic.frame_bytes: [256, 1518]\n";

void write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

// A suite of one entry "rx" over rx.yaml with these metric lines (already
// indented by 6) and optional extra entry lines (set: ...).
std::string suite_text(const std::string &metrics, const std::string &extra = "") {
  return "name: t\n"
         "entries:\n"
         "  - name: rx\n"
         "    scenario: rx.yaml\n" +
         extra +
         "    metrics:\n" + metrics;
}

// A metric's value in a baseline file (point with this label); NaN if absent.
double baseline_value(const std::string &file, const std::string &label, const char *metric) {
  json_t *doc = json_load_file(file.c_str(), 0, nullptr);
  double v = NAN;
  json_t *pts = json_object_get(doc, "points");
  for (size_t i = 0; i < json_array_size(pts); i++) {
    json_t *p = json_array_get(pts, i);
    if (label == json_string_value(json_object_get(p, "label"))) {
      json_t *x = json_object_get(json_object_get(p, "metrics"), metric);
      if (x) v = json_number_value(x);
    }
  }
  json_decref(doc);
  return v;
}

// Rewrites one metric of a baseline file (every point) to v (an integer
// if integral, else a real with 17 significant digits).
void set_baseline_value(const std::string &file, const char *metric, double v) {
  json_t *doc = json_load_file(file.c_str(), 0, nullptr);
  ASSERT_NE(doc, nullptr) << file;
  json_t *pts = json_object_get(doc, "points");
  for (size_t i = 0; i < json_array_size(pts); i++) {
    json_t *m = json_object_get(json_array_get(pts, i), "metrics");
    json_object_set_new(m, metric, v == std::floor(v) ? json_integer((json_int_t)v) : json_real(v));
  }
  ASSERT_EQ(json_dump_file(doc, file.c_str(), JSON_INDENT(2) | JSON_REAL_PRECISION(17)), 0);
  json_decref(doc);
}

// A minimal XML well-formedness check: one root, every tag closed in order,
// attributes quoted, no raw '<' or '&' outside tags and entities. Returns ""
// or what is wrong.
std::string xml_problem(const std::string &x) {
  std::vector<std::string> stack;
  size_t i = 0, roots = 0;
  if (x.compare(0, 5, "<?xml") == 0) i = x.find("?>") + 2;
  while (i < x.size()) {
    if (x[i] == '&') {
      size_t semi = x.find(';', i);
      std::string ent = x.substr(i, semi == std::string::npos ? 10 : semi - i + 1);
      if (!std::regex_match(ent, std::regex("&(amp|lt|gt|quot|apos|#[0-9]+);")))
        return "bad entity at " + std::to_string(i) + ": " + ent;
      i = semi + 1;
      continue;
    }
    if (x[i] != '<') {
      if (stack.empty() && !isspace((unsigned char)x[i])) return "text outside the root";
      i++;
      continue;
    }
    size_t end = i + 1;
    char quote = 0;
    for (; end < x.size() && (quote || x[end] != '>'); end++) {
      if (quote && x[end] == quote) quote = 0;
      else if (!quote && (x[end] == '"' || x[end] == '\'')) quote = x[end];
      else if (quote && (x[end] == '<')) return "raw '<' in an attribute";
    }
    if (end >= x.size()) return "unterminated tag";
    std::string tag = x.substr(i + 1, end - i - 1);
    std::smatch m;
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
      stack.pop_back();
    } else if (std::regex_match(tag, m,
                                std::regex("([A-Za-z_][A-Za-z0-9_.-]*)((\\s+[A-Za-z_:][A-Za-z0-9_.:-]*"
                                           "=\"[^\"<]*\")*)\\s*(/?)"))) {
      if (stack.empty() && ++roots > 1) return "more than one root";
      if (m[4].str().empty()) stack.push_back(m[1].str());
    } else {
      return "malformed tag <" + tag + ">";
    }
    i = end + 1;
  }
  return stack.empty() && roots == 1 ? "" : "unclosed <" + (stack.empty() ? "" : stack.back()) + ">";
}

class Regress : public Cli {
 protected:
  // Writes rx.yaml (the single-run scenario) and suite.yaml, records the
  // baselines; returns the recorded rx.pkts.
  double record(const std::string &suite) {
    write_file(path("rx.yaml"), kRxScenario);
    write_file(path("suite.yaml"), suite);
    Result r = run({"regress", "suite.yaml", "--update", "-j", "2"});
    EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
    double n = baseline_value(path("baselines/rx.json"), "", "rx.pkts");
    EXPECT_GT(n, 100) << "a 450 us window at 10 GbE delivers hundreds of 1518 B frames";
    return n;
  }
};

TEST_F(Regress, UnchangedTreePassesAgainstFreshBaselines) {
  double n = record(suite_text("      rx.pkts: exact\n"
                               "      rx.gbps: {rel: 0.001}\n"
                               "      pcie.up.tlps: exact\n"));
  // The baseline records the version, the config hash and the values.
  json_t *doc = json_load_file(path("baselines/rx.json").c_str(), 0, nullptr);
  ASSERT_NE(doc, nullptr);
  EXPECT_STREQ(json_string_value(json_object_get(doc, "nicsim")), NICSIM_EXPECTED_VERSION);
  EXPECT_TRUE(std::regex_match(json_string_value(json_object_get(doc, "hash")),
                               std::regex("[0-9a-f]{16}")));
  EXPECT_STREQ(json_string_value(json_object_get(doc, "entry")), "rx");
  EXPECT_TRUE(json_is_integer(
      json_object_get(json_object_get(json_array_get(json_object_get(doc, "points"), 0), "metrics"),
                      "rx.pkts")));
  json_decref(doc);

  Result r = run({"regress", "suite.yaml"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::vector<std::string> l = lines_of(r.out);
  ASSERT_GE(l.size(), 4u) << r.out;
  EXPECT_TRUE(std::regex_search(l[0], std::regex("^entry/point +metric +baseline +now +delta +tolerance +verdict$"))) << l[0];
  char pkts[32];
  snprintf(pkts, sizeof pkts, "%.0f", n);
  EXPECT_TRUE(std::regex_search(l[1], std::regex(std::string("^rx +rx\\.pkts +") + pkts + " +" + pkts +
                                                 " +0 +exact +ok$")))
      << l[1];
  EXPECT_TRUE(std::regex_search(l[2], std::regex("^rx +rx\\.gbps .* rel 0\\.1% +ok$"))) << l[2];
  EXPECT_NE(r.out.find("t: 3 checks in 1 point of 1 entry: 3 passed, 0 failed"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("Regressions"), std::string::npos);
}

TEST_F(Regress, PerturbedParameterFailsWithADiffNamingTheMetric) {
  double n = record(suite_text("      rx.pkts: exact\n"
                               "      rx.gbps: {rel: 0.001}\n"));
  // set: in the suite, as --set: 1024 B frames make more, shorter frames.
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"
                                            "      rx.gbps: {rel: 0.001}\n",
                                            "    set: {traffic.frame_bytes: 1024}\n"));
  Result r = run({"regress", "suite.yaml"});
  ASSERT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nrx +rx\\.pkts .* exact +FAIL\n"))) << r.out;
  char pkts[32];
  snprintf(pkts, sizeof pkts, "%.0f", n);
  // "Regressions:" then "  rx: rx.pkts: 1463 -> 2136 (delta +673 (+46%)), outside tolerance exact".
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(std::string("\nRegressions:\n  rx: rx\\.pkts: ") + pkts +
                        " -> [0-9]+ \\(delta \\+[0-9]+ \\(\\+[0-9.]+%\\)\\), outside tolerance exact\n")))
      << r.out;
  EXPECT_NE(r.out.find("the configuration differs from the baseline's (config hash"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("failed"), std::string::npos);

  // The same through an edited copy of the scenario (no set:).
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"
                                            "      rx.gbps: {rel: 0.001}\n"));
  std::string edited = kRxScenario;
  edited.replace(edited.find("frame_bytes: 1518"), 17, "frame_bytes: 512");
  write_file(path("rx.yaml"), edited);
  r = run({"regress", "suite.yaml"});
  ASSERT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find(std::string("  rx: rx.pkts: ") + pkts + " -> "), std::string::npos) << r.out;

  // --update shows old -> new and records it; then the suite passes again.
  r = run({"regress", "suite.yaml", "--update"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex(std::string("  rx: rx\\.pkts: ") + pkts +
                                                  " -> [0-9]+ \\(\\+[0-9]+ \\(\\+[0-9.]+%\\)\\)\n")))
      << r.out;
  EXPECT_NE(r.out.find("baselines/rx.json: updated (2 of 2 values changed)"), std::string::npos) << r.out;
  r = run({"regress", "suite.yaml"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = run({"regress", "suite.yaml", "--update"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("baselines/rx.json: unchanged (2 values)"), std::string::npos) << r.out;
}

// Runs the suite with rx.pkts' baseline replaced by base and its tolerance
// by tol; returns the result.
class Tolerance : public Regress {
 protected:
  Result check(double base, const std::string &tol) {
    write_file(path("suite.yaml"), suite_text("      rx.pkts: " + tol + "\n"));
    set_baseline_value(path("baselines/rx.json"), "rx.pkts", base);
    return run({"regress", "suite.yaml", "-q"});
  }
};

TEST_F(Tolerance, ExactPassesOnlyTheSameValue) {
  double n = record(suite_text("      rx.pkts: exact\n"));
  Result r = check(n, "exact");
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = check(n + 1, "exact");
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("outside tolerance exact"), std::string::npos) << r.out;
  r = check(n - 1, "exact");
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
}

TEST_F(Tolerance, AbsPassesAtTheLimitAndFailsPastIt) {
  double n = record(suite_text("      rx.pkts: exact\n"));
  // |now - baseline| = 5 frames: inside abs 5, outside abs 4.999.
  Result r = check(n + 5, "{abs: 5}");
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = check(n - 5, "{abs: 5}");
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = check(n + 5, "{abs: 4.999}");
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("outside tolerance abs 4.999"), std::string::npos) << r.out;
}

TEST_F(Tolerance, RelPassesAtTheLimitAndFailsPastIt) {
  double n = record(suite_text("      rx.pkts: exact\n"));
  // Baseline B = 4096 (a power of two above n): d = B - n frames, and
  // d / B is exact in binary, so rel d/B is the limit to the last bit.
  const double b = 4096;
  ASSERT_LT(n, b);
  double d = b - n;
  char inside[64], outside[64];
  snprintf(inside, sizeof inside, "{rel: %.17g}", d / b);
  snprintf(outside, sizeof outside, "{rel: %.17g}", (d - 1) / b);
  Result r = check(b, inside);
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r) << inside;
  r = check(b, outside);
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r) << outside;
  EXPECT_NE(r.out.find("outside tolerance rel"), std::string::npos) << r.out;
}

TEST_F(Regress, SweepEntriesCompareEveryPoint) {
  write_file(path("rx.yaml"), kRxSweep);
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"));
  Result r = run({"regress", "suite.yaml", "--update"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("  rx/traffic.frame_bytes=256: rx.pkts: (new) "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  rx/traffic.frame_bytes=1518: rx.pkts: (new) "), std::string::npos) << r.out;
  double small = baseline_value(path("baselines/rx.json"), "traffic.frame_bytes=256", "rx.pkts");
  double big = baseline_value(path("baselines/rx.json"), "traffic.frame_bytes=1518", "rx.pkts");
  EXPECT_GT(small, 0);
  EXPECT_GT(big, 0);
  EXPECT_NE(small, big) << "two points, two different figures";
  r = run({"regress", "suite.yaml"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nrx/traffic\\.frame_bytes=256 +rx\\.pkts .* ok\n")))
      << r.out;
  // Only the changed point fails.
  set_baseline_value(path("baselines/rx.json"), "rx.pkts", small);
  r = run({"regress", "suite.yaml"});
  ASSERT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nrx/traffic\\.frame_bytes=256 +rx\\.pkts .* ok\n")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nrx/traffic\\.frame_bytes=1518 +rx\\.pkts .* FAIL\n")))
      << r.out;
}

TEST_F(Regress, ResultsAreIdenticalWhateverJobs) {
  // The same suite in two directories, recorded with -j1 and -j4: the
  // baselines are the same bytes; --check-determinism reruns every point.
  for (const char *d : {"a", "b"}) {
    ASSERT_EQ(mkdir(path(d).c_str(), 0755), 0);
    write_file(path(std::string(d) + "/rx.yaml"), kRxSweep);
    write_file(path(std::string(d) + "/suite.yaml"),
               suite_text("      rx.pkts: exact\n      rx.gbps: exact\n      sim.events: exact\n"
                          "      cpu.util: exact\n      pcie.up.bytes: exact\n"));
  }
  Result r = run({"regress", "a/suite.yaml", "--update", "-j", "1", "-o", "out-a"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = run({"regress", "b/suite.yaml", "--update", "-j", "4", "-o", "out-b"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::string a = slurp(path("a/baselines/rx.json")), b = slurp(path("b/baselines/rx.json"));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  r = run({"regress", "a/suite.yaml", "--check-determinism", "-j", "2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nrx/traffic\\.frame_bytes=256 +\\(rerun\\) .* identical +ok\n")))
      << r.out;
  EXPECT_NE(r.out.find("12 checks in 2 points of 1 entry: 12 passed, 0 failed"), std::string::npos) << r.out;
  EXPECT_TRUE(exists(path("nicsim-out/regress/rx.again/sweep.json")));
}

TEST_F(Regress, JUnitIsWellFormedAndNamesTheFailures) {
  double n = record(suite_text("      rx.pkts: exact\n"
                               "      rx.gbps: {rel: 0.001}\n"
                               "      pcie.up.tlps: exact\n"));
  set_baseline_value(path("baselines/rx.json"), "rx.pkts", n + 7);
  Result r = run({"regress", "suite.yaml", "--junit", "report.xml", "--check-determinism"});
  ASSERT_EQ(r.status, 1) << NICSIM_SHOW(r);
  std::string x = slurp(path("report.xml"));
  EXPECT_EQ(xml_problem(x), "") << x;
  if (system("command -v xmllint >/dev/null 2>&1") == 0) {
    std::string cmd = "xmllint --noout '" + path("report.xml") + "'";
    EXPECT_EQ(system(cmd.c_str()), 0) << x;
  }
  // Three metrics and the rerun: 4 testcases, 1 failure.
  EXPECT_NE(x.find("<testsuites name=\"t\" tests=\"4\" failures=\"1\" errors=\"0\""), std::string::npos) << x;
  EXPECT_NE(x.find("<testsuite name=\"t.rx\" tests=\"4\" failures=\"1\" errors=\"0\""), std::string::npos) << x;
  EXPECT_NE(x.find("<testcase classname=\"t.rx\" name=\"rx.gbps\" time=\"0\"/>"), std::string::npos) << x;
  EXPECT_NE(x.find("<testcase classname=\"t.rx\" name=\"determinism\" time=\"0\"/>"), std::string::npos) << x;
  char want[160];
  snprintf(want, sizeof want,
           "<testcase classname=\"t.rx\" name=\"rx.pkts\" time=\"0\">\n"
           "      <failure type=\"regression\" message=\"rx.pkts: %.0f -&gt; %.0f (delta -7",
           n + 7, n);
  EXPECT_NE(x.find(want), std::string::npos) << want << "\n" << x;
}

TEST_F(Regress, JUnitSaysWhyAPointFailedToSimulate) {
  record(suite_text("      rx.pkts: exact\n"));
  // The same entry as a DMA bench that cannot finish its 2 MiB window
  // through one tag in its drain: the point fails to simulate (exit 1).
  write_file(path("suite.yaml"),
             suite_text("      rx.pkts: exact\n",
                        "    set: {workload.kind: dma-bench, pcie.tags: 1, workload.window_bytes: 2097152,\n"
                        "          run.drain_us: 0.01}\n"));
  Result r = run({"regress", "suite.yaml", "--junit", "report.xml"});
  ASSERT_EQ(r.status, 1) << NICSIM_SHOW(r);
  std::string x = slurp(path("report.xml"));
  EXPECT_EQ(xml_problem(x), "") << x;
  EXPECT_NE(x.find("message=\"rx.pkts: the point failed to simulate: simulation error in "), std::string::npos) << x;
  EXPECT_EQ(x.find("in the log above"), std::string::npos) << x;
  EXPECT_NE(r.out.find("rx.pkts: the point failed to simulate: simulation error in "), std::string::npos) << r.out;
  // Once the point simulates again, its failure record is gone.
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"));
  r = run({"regress", "suite.yaml", "--junit", "report.xml"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  for (const std::string &f : nicsim_cli_test::list_dir(path("nicsim-out/regress/rx/points")))
    EXPECT_EQ(f.find(".error"), std::string::npos) << f;
}

TEST_F(Regress, AMissingBaselineStillWritesAJUnitReportThatSaysSo) {
  write_file(path("rx.yaml"), kRxScenario);
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"));
  Result r = run({"regress", "suite.yaml", "--junit", "report.xml"});
  ASSERT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("entry 'rx' has no baseline"), std::string::npos) << r.err;
  std::string x = slurp(path("report.xml"));
  EXPECT_EQ(xml_problem(x), "") << x;
  EXPECT_NE(x.find("<testsuites name=\"t\" tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos) << x;
  EXPECT_NE(x.find("<testcase classname=\"t.rx\" name=\"baseline\" time=\"0\">\n      <error type=\"input\" "
                   "message=\"no baseline: "),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("record it with &apos;nicsim regress --update --entry rx&apos;"), std::string::npos) << x;
  EXPECT_FALSE(exists(path("nicsim-out/regress/rx/sweep.json"))) << "nothing simulated";
}

// One bad suite: exit 2, this error at this position, nothing simulated.
struct BadSuite {
  const char *what, *text, *where, *msg;
};

TEST_F(Regress, BadSuitesExit2WithFileLineCol) {
  write_file(path("rx.yaml"), kRxScenario);
  const BadSuite cases[] = {
      {"no scenario",
       "entries:\n  - name: rx\n    metrics: {rx.pkts: exact}\n",
       "suite.yaml:2:5: error: ", "entry 'rx' has no 'scenario'"},
      {"no metrics",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n",
       "suite.yaml:2:5: error: ", "entry 'rx' has no 'metrics'"},
      {"no entries", "name: t\n", "suite.yaml:1:1: error: ", "the suite has no 'entries'"},
      {"unknown metric",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    metrics:\n      rx.pkts: exact\n"
       "      rx.gbsp: {rel: 0.01}\n",
       "suite.yaml:6:7: error: ", "entry 'rx': unknown metric 'rx.gbsp'\n  hint: did you mean 'rx.gbps'?"},
      {"duplicate metric",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    metrics:\n      rx.pkts: exact\n"
       "      rx.pkts: {abs: 1}\n",
       "suite.yaml:6:7: error: ",
       "duplicate key 'entries[0].metrics.rx.pkts' (first defined at suite.yaml:5:7)"},
      {"duplicate entry key",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    scenario: rx.yaml\n    metrics: {rx.pkts: exact}\n",
       "suite.yaml:4:5: error: ", "duplicate key"},
      {"duplicate entry name",
       "entries:\n  - {name: rx, scenario: rx.yaml, metrics: {rx.pkts: exact}}\n"
       "  - {name: rx, scenario: rx.yaml, metrics: {rx.gbps: exact}}\n",
       "suite.yaml:3:12: error: ", "duplicate entry name 'rx' (first at suite.yaml:2:5)"},
      {"bad tolerance",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    metrics:\n      rx.pkts: {rel: -1}\n",
       "suite.yaml:5:22: error: ", "tolerance of 'rx.pkts': rel needs a number >= 0"},
      {"unknown tolerance kind",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    metrics:\n      rx.pkts: {relative: 0.1}\n",
       "suite.yaml:5:17: error: ", "tolerance of 'rx.pkts': unknown kind 'relative'"},
      {"wall-clock metric",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    metrics:\n      sim.wall_s: {rel: 0.1}\n",
       "suite.yaml:5:7: error: ", "entry 'rx': 'sim.wall_s' is wall-clock time"},
      {"misspelt entry key",
       "entries:\n  - name: rx\n    scenaro: rx.yaml\n    metrics: {rx.pkts: exact}\n",
       "suite.yaml:3:5: error: ", "unknown key 'scenaro' in an entry\n  hint: did you mean 'scenario'?"},
      {"bad set: value",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    set: {nic.desc_spacing: many}\n"
       "    metrics: {rx.pkts: exact}\n",
       "suite.yaml:4:29: error: ", "entry 'rx': set: "},
      {"unknown set: key",
       "entries:\n  - name: rx\n    scenario: rx.yaml\n    set: {nic.desc_spacng: 32}\n"
       "    metrics: {rx.pkts: exact}\n",
       "suite.yaml:4:11: error: ", "entry 'rx': set: "},
  };
  for (const BadSuite &c : cases) {
    write_file(path("suite.yaml"), c.text);
    Result r = run({"regress", "suite.yaml"});
    EXPECT_EQ(r.status, 2) << c.what << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find(std::string(c.where) + c.msg), std::string::npos)
        << c.what << ": want " << c.where << c.msg << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.what;
  }
  EXPECT_FALSE(exists(path("nicsim-out"))) << "nothing may be simulated for a bad suite";
}

TEST_F(Regress, MissingOrStaleBaselinesExit2AndSayRunUpdate) {
  write_file(path("rx.yaml"), kRxScenario);
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"));
  Result r = run({"regress", "suite.yaml"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("entry 'rx' has no baseline: baselines/rx.json: No such file"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nicsim regress --update --entry rx"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(path("nicsim-out")));

  // A metric added to the suite after the baseline was recorded.
  record(suite_text("      rx.pkts: exact\n"));
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n      rx.drops: exact\n"));
  r = run({"regress", "suite.yaml"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("baselines/rx.json: the baseline has no rx.drops for rx"), std::string::npos)
      << r.err;

  // A metric the workload does not report (dma-bench has no frames):
  // --update refuses it, naming where the suite asks for it.
  write_file(path("rx.yaml"),
             "name: dma\nplatform: x86-gen3\nworkload: {kind: dma-bench, op: read, size_bytes: 256}\n"
             "run: {duration_us: 60, warmup_us: 10, drain_us: 10, seed: 1}\n");
  write_file(path("suite.yaml"), suite_text("      dma.gbps: {rel: 0.01}\n      rx.pkts: exact\n"));
  r = run({"regress", "suite.yaml", "--update"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("suite.yaml:7:7: error: entry 'rx': rx does not report rx.pkts"), std::string::npos)
      << r.err;
}

TEST_F(Regress, DefaultSuiteIsFoundFromTheTreeOrAParent) {
  // No suite anywhere above a scratch directory.
  Result r = run({"regress"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("no suite given and no tests/regress/suite.yaml"), std::string::npos) << r.err;

  ASSERT_EQ(system(("mkdir -p '" + path("tree/tests/regress") + "' '" + path("tree/build/sub") + "'").c_str()), 0);
  write_file(path("tree/tests/regress/rx.yaml"), kRxScenario);
  write_file(path("tree/tests/regress/suite.yaml"), suite_text("      rx.pkts: exact\n"));
  ASSERT_EQ(chdir(path("tree/build/sub").c_str()), 0);
  r = run({"regress", "--update", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_TRUE(exists(path("tree/tests/regress/baselines/rx.json")));
  r = run({"regress", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  ASSERT_EQ(chdir(dir_.c_str()), 0);
}

TEST_F(Regress, UsageErrorsExit2) {
  write_file(path("rx.yaml"), kRxScenario);
  write_file(path("suite.yaml"), suite_text("      rx.pkts: exact\n"));
  Result r = run({"regress", "suite.yaml", "--update", "--junit", "x.xml"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  r = run({"regress", "suite.yaml", "--entry", "nope"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("suite.yaml has no entry 'nope'; its entries: rx"), std::string::npos) << r.err;
  r = run({"regress", "suite.yaml", "-j", "0"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  r = run({"regress", "suite.yaml", "--junit", "no/such/dir/x.xml"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  r = run({"regress", "missing.yaml"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("missing.yaml"), std::string::npos) << r.err;
  r = run({"regress", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--check-determinism"), std::string::npos);
}

// Another sweep's results in DIR/<entry> are left alone (exit 2, before
// anything runs) unless --force; regress's own earlier run of the entry is
// replaced without asking, even after the entry's config changed.
TEST_F(Regress, AnotherSweepInTheEntryDirectoryNeedsForce) {
  record(suite_text("      rx.pkts: exact\n"));
  write_file(path("sweep.yaml"), kRxSweep);
  Result s = run({"sweep", "sweep.yaml", "-o", "out/rx", "-q", "--set", "run.duration_us=100"});
  ASSERT_EQ(s.status, 0) << NICSIM_SHOW(s);
  std::string csv = slurp(path("out/rx/results.csv"));
  Result r = run({"regress", "suite.yaml", "-o", "out"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("out/rx holds the results of a sweep that is not regress entry 'rx' "
                       "(scenario 'rx-sweep'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "") << "nothing ran";
  EXPECT_EQ(slurp(path("out/rx/results.csv")), csv) << "the other sweep's results were touched";
  EXPECT_TRUE(exists(path("out/rx/points/1-traffic.frame_bytes_1518.json")));

  r = run({"regress", "suite.yaml", "-o", "out", "--force", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_FALSE(exists(path("out/rx/points/1-traffic.frame_bytes_1518.json")));
  json_t *m = json_load_file(path("out/rx/sweep.json").c_str(), 0, nullptr);
  ASSERT_NE(m, nullptr);
  EXPECT_STREQ(json_string_value(json_object_get(m, "regress")), "rx");
  json_decref(m);

  // The entry's own directory, after its scenario changed: no --force needed.
  std::string changed = kRxScenario;
  changed.replace(changed.find("seed: 1"), 7, "seed: 2");
  write_file(path("rx.yaml"), changed);
  r = run({"regress", "suite.yaml", "-o", "out", "--update", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.err.find("removing"), std::string::npos) << r.err;
}

}  // namespace
