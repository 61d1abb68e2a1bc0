// test_security_sweeps.cpp: sweeps, merge, plot and report against hostile
// or unlucky input (issue 23, defects 4, 5, 7, 8, 9, 13, 14, 15, 16 and the
// CLI's integers of 10). Each test simulates a few short points.
#include <jansson.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "cli/cli_test_util.h"

using namespace nicsim_cli_test;

namespace {

class CliSweepSecurity : public Cli {
 protected:
  void write(const std::string &name, const std::string &text) {
    std::ofstream(path(name), std::ios::binary) << text;
  }
  // A short sweep with hostile texts: its name holds OSC 52 (clipboard) and
  // CSI, its description Markdown/HTML, its labels spreadsheet formulas,
  // '#' and '"'.
  std::string hostile_scenario() {
    write("h.yaml",
          "name: \"x\\e]52;c;aGk=\\a\\u009b2J\"\n"
          "description: \"# Injected\\n<script>alert(1)</script> [a](javascript:alert(1)) `x` | y\"\n"
          "platform: x86-gen3\n"
          "run: {duration_us: 60, warmup_us: 20, drain_us: 200}\n"
          "sweep:\n"
          "  points:\n"
          "    - {label: \"=HYPERLINK(1)\", nic.desc_spacing: 16}\n"
          "    - {label: \"#hidden\", nic.desc_spacing: 32}\n"
          "    - {label: 'a\"b', nic.desc_spacing: 64}\n"
          "    - {label: \"@SUM(1)\", nic.desc_spacing: 128}\n"
          "plots:\n"
          "  - {name: spacing, x: label, y: [rx.gbps], kind: bar}\n");
    return path("h.yaml");
  }
  void edit_json(const std::string &file, const std::function<void(json_t *)> &f) {
    json_error_t e;
    json_t *j = json_load_file(file.c_str(), 0, &e);
    ASSERT_NE(j, nullptr) << file;
    f(j);
    ASSERT_EQ(json_dump_file(j, file.c_str(), JSON_INDENT(2)), 0);
    json_decref(j);
  }
  std::string point_file(const std::string &dir, const std::string &prefix) {
    for (const std::string &n : list_dir(dir + "/points"))
      if (n.rfind(prefix, 0) == 0) return dir + "/points/" + n;
    return "";
  }
};

bool has_control(const std::string &s) {
  for (size_t i = 0; i < s.size(); i++) {
    unsigned char c = s[i];
    if ((c < 0x20 && c != '\n') || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < s.size() && (unsigned char)s[i + 1] <= 0x9F) return true;
  }
  return false;
}

}  // namespace

// Defects 4, 7, 8, 9: every writer of text escapes what came from outside.
TEST_F(CliSweepSecurity, HostileTextsAreInertInEveryOutput) {
  std::string scen = hostile_scenario();
  auto dry = run({"sweep", scen, "--dry-run", "-o", path("out")});
  ASSERT_EQ(dry.status, 0) << NICSIM_SHOW(dry);
  EXPECT_FALSE(has_control(dry.err)) << "#7: stderr of --dry-run: " << dry.err;
  EXPECT_FALSE(has_control(dry.out)) << dry.out;
  auto sw = run({"sweep", scen, "-o", path("out"), "-j", "2"});
  ASSERT_EQ(sw.status, 0) << NICSIM_SHOW(sw);
  EXPECT_FALSE(has_control(sw.err)) << sw.err;
  EXPECT_FALSE(has_control(sw.out)) << sw.out;
  // #8: CSV cells that spreadsheets would run are quoted.
  std::string csv = slurp(path("out/results.csv"));
  EXPECT_NE(csv.find("\n'=HYPERLINK(1),"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n'@SUM(1),"), std::string::npos) << csv;
  for (const std::string &line : lines_of(csv))
    EXPECT_TRUE(line.empty() || std::string("=+-@").find(line[0]) == std::string::npos) << line;
  // #9: every label reaches the plot data whole.
  auto pl = run({"plot", path("out"), "-q"});
  ASSERT_EQ(pl.status, 0) << NICSIM_SHOW(pl);
  std::string dat = slurp(path("out/plots/spacing.dat"));
  std::vector<std::string> rows;
  for (const std::string &line : lines_of(dat))
    if (!line.empty() && line[0] != '#') rows.push_back(line);
  EXPECT_EQ(rows.size(), 4u) << dat;
  EXPECT_NE(dat.find("\n\"#hidden\"\t"), std::string::npos) << dat;
  EXPECT_NE(dat.find("\n\"a''b\"\t"), std::string::npos) << dat;
  // #4, #7, #8: the report, with a hostile sweep.json and a hostile plot file name.
  edit_json(path("out/sweep.json"), [](json_t *m) {
    json_object_set_new(m, "hash", json_string("<img src=x onerror=alert(1)>"));
    json_object_set_new(m, "nicsim", json_string("<script>alert(2)</script>\x1b]52;c;x\x07"));
  });
  write("out/plots/x\" onerror=\"alert(3).svg", "<svg/>");
  auto rep = run({"report", path("out"), "--no-plots", "-q"});
  ASSERT_EQ(rep.status, 0) << NICSIM_SHOW(rep);
  std::string html = slurp(path("out/report.html")), md = slurp(path("out/report.md"));
  for (const char *bad : {"<img src=x", "<script>", "onerror=\"alert", "x\" onerror"})
    EXPECT_EQ(html.find(bad), std::string::npos) << bad;
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(html.find("src=\"plots/x%22%20onerror%3D%22alert%283%29.svg\""), std::string::npos)
      << html;
  EXPECT_FALSE(has_control(html));
  EXPECT_FALSE(has_control(md));
  // No link, tag or code span can form: the texts' [ ] < > ` are escaped.
  EXPECT_NE(md.find("\\[a\\](javascript:alert(1))"), std::string::npos) << md;
  EXPECT_NE(md.find("\\<script\\>"), std::string::npos) << md;
  EXPECT_NE(md.find("\\`x\\`"), std::string::npos) << md;
  EXPECT_NE(md.find("\\<img src=x onerror=alert(1)\\>"), std::string::npos) << md;
  for (size_t i = md.find('<'); i != std::string::npos; i = md.find('<', i + 1))
    EXPECT_EQ(md[i - 1], '\\') << "an unescaped '<' in report.md: " << md.substr(i, 30);
  for (const std::string &line : lines_of(md))
    EXPECT_NE(line.rfind("# Injected", 0), 0u) << "an injected heading: " << line;
}

// The report in a real browser (Debian's chromium, headless; skipped when it
// is not installed): a sweep.json, labels and a plot file name that would
// run script if they reached the HTML as markup leave the page unchanged,
// and the page has its intended structure (setup, one row per point).
TEST_F(CliSweepSecurity, ReportHtmlRunsNoScriptInABrowser) {
  if (system("command -v chromium >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "chromium is not installed (Debian: apt-get install chromium)";
  std::string scen = hostile_scenario();
  auto sw = run({"sweep", scen, "-o", path("out"), "-q"});
  ASSERT_EQ(sw.status, 0) << NICSIM_SHOW(sw);
  const char *mark = "document.body.setAttribute('data-pwned','1')";
  edit_json(path("out/sweep.json"), [mark](json_t *m) {
    json_object_set_new(m, "hash", json_string((std::string("<img src=x onerror=\"") + mark + "\">").c_str()));
    json_object_set_new(m, "description", json_string((std::string("<script>") + mark + "</script>").c_str()));
    json_t *o = json_array();
    json_array_append_new(o, json_string((std::string("<svg onload=\"") + mark + "\">").c_str()));
    json_object_set_new(m, "overrides", o);
  });
  write("out/plots/x\" onerror=\"document.body.setAttribute('data-pwned','1').svg", "<svg/>");
  auto rep = run({"report", path("out"), "--no-plots", "-q"});
  ASSERT_EQ(rep.status, 0) << NICSIM_SHOW(rep);
  // As root (CI) chromium needs --no-sandbox; its profile goes to the scratch
  // directory and its shared memory to /tmp, whatever HOME and /dev/shm are.
  const std::string cmd = "timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage "
                          "--user-data-dir='" + path("chromium-profile") + "' --dump-dom 'file://" +
                          path("out/report.html") + "' 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string dom;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) dom.append(buf, n);
  ASSERT_EQ(pclose(p), 0) << "chromium failed";
  ASSERT_NE(dom.find("<h2>Setup</h2>"), std::string::npos) << dom;
  EXPECT_EQ(dom.find("data-pwned=\"1\""), std::string::npos) << "a script ran:\n" << dom;
  EXPECT_EQ(dom.find("<script"), std::string::npos) << dom;
  EXPECT_EQ(dom.find("<img src=\"x\""), std::string::npos) << dom;
  // The hostile texts are shown as text, and every point has its row.
  EXPECT_NE(dom.find("&lt;img src=x onerror="), std::string::npos) << dom;
  for (const char *label : {"=HYPERLINK(1)", "#hidden", "a\"b", "@SUM(1)"})
    EXPECT_NE(dom.find(std::string("<td>") + label + "</td>"), std::string::npos) << label << "\n" << dom;
}

// Defect 5: a running sweep owns its directory; a killed one does not block.
TEST_F(CliSweepSecurity, ARunningSweepOwnsItsDirectory) {
  write("long.yaml",
        "name: long\nplatform: x86-gen3\nrun: {duration_us: 20000, warmup_us: 20, drain_us: 200}\n"
        "sweep: {axes: {nic.desc_spacing: [16, 32]}}\n");
  pid_t first = start({"sweep", path("long.yaml"), "-o", path("out"), "-j", "1", "-q"});
  ASSERT_GT(first, 0);
  bool locked = false;
  for (int i = 0; i < 100 && !locked; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    locked = slurp(path("out/.nicsim.lock")).find(std::to_string(first)) != std::string::npos;
  }
  ASSERT_TRUE(locked) << "the running sweep writes its pid into the lock";
  // A second sweep into it (even with --force), and a merge into it, are refused.
  write("other.yaml", slurp(data("sweep.yaml")));
  pid_t second = start({"sweep", path("other.yaml"), "-o", path("out"), "--force", "-q"});
  Result r2 = finish(second);
  EXPECT_EQ(r2.status, 2) << NICSIM_SHOW(r2);
  EXPECT_NE(r2.err.find("in use by a running sweep (pid " + std::to_string(first) + ")"),
            std::string::npos)
      << r2.err;
  kill(first, SIGKILL);
  finish(first);
  // The killed sweep's lock does not block the next one.
  auto r3 = run({"sweep", path("other.yaml"), "-o", path("out"), "--force", "-q"});
  EXPECT_EQ(r3.status, 0) << NICSIM_SHOW(r3);
}

// Defect 5 (merge), 13, 14: point files and sweep.json are checked.
TEST_F(CliSweepSecurity, MergeAndResumeCheckWhatTheyRead) {
  auto sw = run({"sweep", data("sweep.yaml"), "-o", path("a"), "-q"});
  ASSERT_EQ(sw.status, 0) << NICSIM_SHOW(sw);
  // A point file whose config contradicts its label: another point's config
  // with this point's label.
  std::string p0 = point_file(path("a"), "0-"), p1 = point_file(path("a"), "1-");
  ASSERT_FALSE(p0.empty());
  ASSERT_FALSE(p1.empty());
  std::string keep1 = slurp(p1);
  json_error_t e;
  json_t *j1 = json_load_file(p1.c_str(), 0, &e);
  std::string label1 = json_string_value(json_object_get(json_object_get(j1, "config"), "label"));
  json_decref(j1);
  std::string text0 = slurp(p0);
  write("swap.json", text0);
  edit_json(path("swap.json"), [&](json_t *d) {
    json_object_set_new(json_object_get(d, "config"), "label", json_string(label1.c_str()));
  });
  write(p1.substr(dir_.size() + 1), slurp(path("swap.json")));
  auto m = run({"merge", path("a"), "-o", path("m"), "-q"});
  EXPECT_EQ(m.status, 2) << NICSIM_SHOW(m);
  EXPECT_NE(m.err.find("not point '" + label1 + "'"), std::string::npos) << m.err;
  EXPECT_FALSE(exists(path("m/results.csv")));
  // #13: a point file missing a metric is rerun by --resume, refused by merge.
  write(p1.substr(dir_.size() + 1), keep1);
  edit_json(p1, [](json_t *d) { json_object_del(json_object_get(d, "metrics"), "rx.gbps"); });
  m = run({"merge", path("a"), "-o", path("m"), "-q"});
  EXPECT_EQ(m.status, 2) << NICSIM_SHOW(m);
  EXPECT_NE(m.err.find("has no metric rx.gbps"), std::string::npos) << m.err;
  auto res = run({"sweep", data("sweep.yaml"), "-o", path("a"), "--resume"});
  EXPECT_EQ(res.status, 0) << NICSIM_SHOW(res);
  EXPECT_NE(res.err.find("rerunning " + label1), std::string::npos) << res.err;
  EXPECT_NE(slurp(p1).find("\"rx.gbps\""), std::string::npos);
  // #14: an out-of-range baseline is an error, not the first point.
  for (json_int_t b : {(json_int_t)4, (json_int_t)-1, (json_int_t)99}) {
    edit_json(path("a/sweep.json"), [&](json_t *d) { json_object_set_new(d, "baseline", json_integer(b)); });
    auto rep = run({"report", path("a"), "--no-plots", "-q"});
    EXPECT_EQ(rep.status, 2) << b << NICSIM_SHOW(rep);
    EXPECT_NE(rep.err.find("\"baseline\" must be null or a point index from 0 to 3"),
              std::string::npos)
        << rep.err;
  }
}

// Defects 15 and 16, and the CLI's integers (10).
TEST_F(CliSweepSecurity, PlotsForceAndCountsAreChecked) {
  auto sw = run({"sweep", data("sweep.yaml"), "-o", path("a"), "-q"});
  ASSERT_EQ(sw.status, 0) << NICSIM_SHOW(sw);
  // #15: an unknown y metric or kind in sweep.json is bad input (exit 2).
  for (const char *edit : {"y", "kind", "x"}) {
    edit_json(path("a/sweep.json"), [&](json_t *d) {
      json_t *p = json_pack("{s:s, s:s, s:[s], s:s}", "name", "p", "x", "label", "y", "rx.gbps",
                            "kind", "line");
      if (std::string(edit) == "y") json_object_set_new(p, "y", json_pack("[s]", "rx.gbpz"));
      if (std::string(edit) == "kind") json_object_set_new(p, "kind", json_string("pie"));
      if (std::string(edit) == "x") json_object_set_new(p, "x", json_string("nic.nope"));
      json_object_set_new(d, "plots", json_pack("[o]", p));
    });
    auto pl = run({"plot", path("a"), "-q"});
    EXPECT_EQ(pl.status, 2) << edit << NICSIM_SHOW(pl);
  }
  // #16: --force removes only point files from points/.
  write("a/points/notes.json", "{\"mine\": true}");
  write("a/points/README", "kept");
  write("b.yaml", slurp(data("good.yaml")) + "sweep: {axes: {nic.desc_spacing: [16, 32]}}\n");
  auto f = run({"sweep", path("b.yaml"), "-o", path("a"), "--force", "-q"});
  EXPECT_EQ(f.status, 0) << NICSIM_SHOW(f);
  EXPECT_TRUE(exists(path("a/points/notes.json")));
  EXPECT_TRUE(exists(path("a/points/README")));
  // #16, #10: counts are whole numbers in range, and the errors say the range.
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--shard", "1/100001"}, {"--shard", "1/2.0"}, {"--shard", "1.5/2"},
           {"--shard", "0x1/2x"}, {"-j", "1.5"}, {"-j", "99999999999999999999"}, {"-j", "0"}}) {
    std::string cmd = std::string(NICSIM_BIN) + " sweep " + data("sweep.yaml") + " --dry-run";
    for (const std::string &a : args) cmd += " '" + a + "'";
    std::string out = path("err.txt");
    int st = system((cmd + " >/dev/null 2>" + out).c_str());
    EXPECT_EQ(WEXITSTATUS(st), 2) << cmd;
    if (args[0] == "--shard") {
      EXPECT_NE(slurp(out).find("N <= 100000"), std::string::npos) << slurp(out);
    }
  }
}

// Defect 6 for sweeps: a sweep's files may not replace its scenario.
TEST_F(CliSweepSecurity, ASweepNeverWritesOverItsScenario) {
  ASSERT_EQ(mkdir(path("d").c_str(), 0755), 0);
  std::string text = slurp(data("sweep.yaml"));
  for (const char *name : {"d/sweep.json", "d/results.csv"}) {
    write(name, text);
    auto r = run({"sweep", path(name), "-o", path("d"), "--force", "-q"});
    EXPECT_EQ(r.status, 2) << name << NICSIM_SHOW(r);
    EXPECT_EQ(slurp(path(name)), text);
    unlink(path(name).c_str());
  }
}

// Defect 6 for regress: the JUnit report may not replace the suite or a baseline.
TEST_F(CliSweepSecurity, RegressNeverWritesItsReportOverAnInput) {
  write("good.yaml", slurp(data("good.yaml")));
  std::string suite = "entries:\n  - {name: e, scenario: good.yaml, metrics: {rx.gbps: exact}}\n";
  write("suite.yaml", suite);
  ASSERT_EQ(mkdir(path("baselines").c_str(), 0755), 0);
  write("baselines/e.json", "{}");
  auto r = run({"regress", path("suite.yaml"), "--junit", path("baselines/e.json"), "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("is a baseline"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path("baselines/e.json")), "{}");
  r = run({"regress", path("suite.yaml"), "--junit", path("suite.yaml"), "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("is the suite"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path("suite.yaml")), suite);
}
