// test_calibrate.cpp: `nicsim calibrate` end to end (issue 25): a hidden
// parameter recovered from measurements nicsim made, a parameter without
// effect reported unidentifiable, every refusal of a dishonest or broken
// spec (exit 2, file:line:col), the same calibration.json whatever -j,
// --resume, another spec's DIR, and calibrated.yaml as an overlay of run.
// Each test runs in its own process and scratch directory; the scenario is
// a CPU-bound UDP sender with short runs, so a calibration takes seconds.
#include <gtest/gtest.h>
#include <jansson.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <map>
#include <string>

#include "cli/cli_test_util.h"

using namespace nicsim_cli_test;

namespace {

// A UDP sender whose per-packet stack cost sets the throughput: two points.
const char kScenario[] = "name: tx-cost\n"
                         "platform: x86-gen3\n"
                         "traffic: {mode: tx, frame_bytes: 1518, rate_gbps: 0, sndbuf_bytes: 212992}\n"
                         "cpu: {clock_mhz: 500}\n"
                         "run: {duration_us: 2100, warmup_us: 100, drain_us: 500}\n"
                         "sweep:\n"
                         "  points:\n"
                         "    - {label: small, traffic.frame_bytes: 256}\n"
                         "    - {label: big, traffic.frame_bytes: 1518}\n";

const double kHidden = 4321; // stack.udp_sendmsg_instructions the measurements are made at

class Calibrate : public Cli {
 protected:
  void SetUp() override {
    Cli::SetUp();
    std::ofstream(path("scen.yaml")) << kScenario;
  }
  void Write(const std::string &name, const std::string &text) { std::ofstream(path(name)) << text; }

  // tx.gbps of each point of a sweep at the hidden value ("measurements").
  std::map<std::string, double> Measure() {
    Result r = run({"sweep", "scen.yaml", "-o", "hidden", "-j", "2", "-q", "--set",
                    "stack.udp_sendmsg_instructions=" + std::to_string((int)kHidden)});
    EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
    std::map<std::string, double> m;
    for (const char *p : {"0-small", "1-big"}) {
      json_error_t e;
      json_t *doc = json_load_file(path(std::string("hidden/points/") + p + ".json").c_str(), 0, &e);
      EXPECT_NE(doc, nullptr) << e.text;
      m[p + 2] = json_number_value(json_object_get(json_object_get(doc, "metrics"), "tx.gbps"));
      json_decref(doc);
    }
    return m;
  }

  // The recovery spec: calibrate on small, validate on big.
  std::string RecoverySpec(const std::map<std::string, double> &m, const std::string &fit = "") {
    char buf[2048];
    snprintf(buf, sizeof buf,
             "name: recover\n"
             "scenario: scen.yaml\n"
             "free:\n"
             "  - {key: stack.udp_sendmsg_instructions, min: 1000, max: 20000, start: 1500,\n"
             "     scale: log, why: \"hidden by the test\"}\n"
             "measurements:\n"
             "  calibrate:\n"
             "    - {point: small, metric: tx.gbps, value: %.17g, source: \"nicsim at the hidden value\"}\n"
             "  validate:\n"
             "    - {point: big, metric: tx.gbps, value: %.17g, source: \"nicsim at the hidden value\"}\n"
             "%s",
             m.at("small"), m.at("big"), fit.c_str());
    return buf;
  }

  static json_t *Load(const std::string &p) {
    json_error_t e;
    json_t *doc = json_load_file(p.c_str(), 0, &e);
    EXPECT_NE(doc, nullptr) << p << ": " << e.text;
    return doc;
  }
};

TEST_F(Calibrate, RecoversAHiddenParameterAndPredictsTheValidationPoint) {
  std::map<std::string, double> m = Measure();
  Write("spec.yaml", RecoverySpec(m));
  Result r = run({"calibrate", "spec.yaml", "-o", "out", "-j", "2", "-q", "--no-plots"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_t *doc = Load(path("out/calibration.json"));
  ASSERT_NE(doc, nullptr);
  double x = json_number_value(json_object_get(json_object_get(doc, "params"), "stack.udp_sendmsg_instructions"));
  EXPECT_NEAR(x, kHidden, 0.02 * kHidden) << NICSIM_SHOW(r);
  EXPECT_TRUE(json_is_true(json_object_get(doc, "converged")));
  EXPECT_TRUE(json_is_true(json_object_get(json_object_get(doc, "identifiable"), "stack.udp_sendmsg_instructions")));
  json_t *val = json_array_get(json_object_get(doc, "validate"), 0);
  EXPECT_STREQ(json_string_value(json_object_get(val, "point")), "big");
  double sim = json_number_value(json_object_get(val, "simulated"));
  EXPECT_NEAR(sim, m.at("big"), 0.02 * m.at("big")) << "the validation point does not match";
  EXPECT_LT(std::fabs(json_number_value(json_object_get(val, "error"))), 0.02);
  EXPECT_NE(r.out.find("Parameter    stack.udp_sendmsg_instructions="), std::string::npos) << r.out;

  // calibrated.yaml given to run reproduces the prediction exactly.
  Result rr = run({"run", "scen.yaml", "--point", "big", "--overlay", "out/calibrated.yaml", "-q",
                   "--json", "big.json"});
  ASSERT_EQ(rr.status, 0) << NICSIM_SHOW(rr);
  json_t *run_doc = Load(path("big.json"));
  ASSERT_NE(run_doc, nullptr);
  EXPECT_EQ(json_number_value(json_object_get(json_object_get(run_doc, "metrics"), "tx.gbps")), sim);
  json_t *stack = json_object_get(json_object_get(run_doc, "config"), "stack");
  EXPECT_EQ(json_number_value(json_object_get(stack, "udp_sendmsg_instructions")), x);
  json_decref(run_doc);
  json_decref(doc);
  std::string yaml = slurp(path("out/calibrated.yaml"));
  EXPECT_NE(yaml.find("# C: calibrated, identifiable"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("#   C: fitted to small tx.gbps"), std::string::npos) << yaml;
  for (const char *f : {"report.md", "report.html", "evaluations.csv", "plots/fit.gp",
                        "plots/profile-stack.udp_sendmsg_instructions.dat"})
    EXPECT_TRUE(exists(path(std::string("out/") + f))) << f;
}

TEST_F(Calibrate, ReportsAParameterWithoutEffectUnidentifiable) {
  // Pause frames are off: their quanta move nothing.
  Write("spec.yaml", "scenario: scen.yaml\n"
                     "free: [{key: nic.pause_quanta, min: 1, max: 65535, start: 100, scale: log,\n"
                     "        why: \"no effect without nic.pause_enable\"}]\n"
                     "measurements:\n"
                     "  calibrate: [{point: small, metric: tx.gbps, value: 0.3, source: made up}]\n"
                     "fit: {grid: 5, profile_points: 5, max_evaluations: 10}\n");
  Result r = run({"calibrate", "spec.yaml", "-o", "out", "-j", "2", "-q", "--no-plots"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_t *doc = Load(path("out/calibration.json"));
  ASSERT_NE(doc, nullptr);
  EXPECT_TRUE(json_is_false(json_object_get(json_object_get(doc, "identifiable"), "nic.pause_quanta")));
  json_t *f = json_array_get(json_object_get(doc, "free"), 0);
  EXPECT_NE(std::string(json_string_value(json_object_get(f, "reason"))).find("moves no calibration measurement"),
            std::string::npos);
  EXPECT_TRUE(json_is_true(json_object_get(doc, "ill_conditioned")));
  EXPECT_TRUE(json_is_null(json_object_get(doc, "condition_number")));
  EXPECT_TRUE(json_is_false(json_object_get(doc, "matches")));
  json_decref(doc);
  EXPECT_NE(r.out.find("NOT identifiable: moves no calibration measurement"), std::string::npos) << r.out;
}

// Each rule refuses with exit 2, file:line:col and a hint, before simulating.
TEST_F(Calibrate, RefusesBadSpecsWithALocatedError) {
  const std::string one = "free: [{key: nic.reg_read_ns, min: 10, max: 1000, why: w}]\n";
  const std::string cal = "measurements: {calibrate: [{point: small, metric: tx.gbps, value: 1, source: s}]}\n";
  struct Case {
    std::string text, where, msg;
  } cases[] = {
      {"free:\n  - {key: nic.reg_read_ns, min: 10, max: 1000, why: w}\n"
       "  - {key: stack.udp_sendmsg_instructions, min: 10, max: 1000, why: w}\n" + cal,
       ":2:1:", "2 free parameters but only 1 calibration measurement"},
      {one + "measurements:\n  calibrate: [{point: small, metric: tx.gbps, value: 1, source: s}]\n"
             "  validate: [{point: small, metric: tx.gbps, value: 1, source: s}]\n",
       ":5:14:", "both calibrated"},
      {"free: [{key: traffic.frame_bytes, min: 64, max: 1518, why: w}]\n" + cal, ":2:14:",
       "varied by the scenario's sweep"},
      {"free: [{key: nic.reg_read_nss, min: 10, max: 1000, why: w}]\n" + cal, ":2:14:",
       "unknown key 'nic.reg_read_nss'"},
      {one + "measurements: {calibrate: [{point: small, metric: tx.gpbs, value: 1, source: s}]}\n",
       ":3:51:", "unknown metric 'tx.gpbs'"},
      {one + "measurements: {calibrate: [{point: smal, metric: tx.gbps, value: 1, source: s}]}\n",
       ":3:36:", "no point 'smal'"},
      {"free: [{key: nic.reg_read_ns, min: 100, max: 10, why: w}]\n" + cal, ":2:46:", "not above min"},
      {"free: [{key: nic.reg_read_ns, min: 10, max: 100, start: 1, why: w}]\n" + cal, ":2:57:",
       "start 1 is outside"},
      {"free: [{key: nic.reg_read_ns, min: 0, max: 100, scale: log, why: w}]\n" + cal, ":2:36:",
       "scale log with min 0"},
      {"free: [{key: nic.reg_read_ns, min: 10, max: 100, why: w}, {key: nic.reg_read_ns, min: 1, "
       "max: 9, why: w}]\n" + cal, ":2:65:", "free twice"},
      {"free: [{key: nic.reg_read_ns, min: 10, max: 100}]\n" + cal, ":2:8:", "needs why:"},
      {one + "measurements: {calibrate: [{point: small, metric: tx.gbps, value: 1}]}\n", ":3:28:",
       "needs source:"},
  };
  for (const Case &c : cases) {
    Write("spec.yaml", "scenario: scen.yaml\n" + c.text);
    Result r = run({"calibrate", "spec.yaml", "-o", "out", "-q"});
    EXPECT_EQ(r.status, 2) << c.text << NICSIM_SHOW(r);
    EXPECT_EQ(r.err.rfind("spec.yaml" + c.where + " error: ", 0), 0u) << c.text << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find(c.msg), std::string::npos) << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("  hint: "), std::string::npos) << NICSIM_SHOW(r);
    EXPECT_FALSE(exists(path("out"))) << "nothing is written before the spec is accepted";
  }
  Result r = run({"calibrate"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("usage: nicsim calibrate SPEC.yaml"), std::string::npos) << NICSIM_SHOW(r);
}

// Issue 23, defects 1, 2, 5 and 6 for calibrate's inputs and outputs: a spec
// that is no YAML spec (its content never shown), huge, a directory, a
// scenario naming a platform outside the allowed places, a path too long to
// keep whole; an output that would replace an input (by file identity); a
// directory a running sweep or calibration owns; evaluation directories
// removed only under their lock. All exit 2 before simulating.
TEST_F(Calibrate, RefusesHostileSpecsAndNeverWritesOverAnInput) {
  const std::string ok = "scenario: scen.yaml\n"
                         "free: [{key: nic.reg_read_ns, min: 10, max: 1000, why: w}]\n"
                         "measurements: {calibrate: [{point: small, metric: tx.gbps, value: 1, "
                         "source: s}]}\n";
  auto refused = [&](std::initializer_list<std::string> args, const std::string &msg) {
    Result r = run(args);
    EXPECT_EQ(r.status, 2) << msg << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find(msg), std::string::npos) << NICSIM_SHOW(r);
    for (const char *w : {"SECRETHASH", "hunter2", "root:"})
      EXPECT_EQ(r.err.find(w), std::string::npos) << w << NICSIM_SHOW(r);
    return r;
  };
  Write("shadow", "root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n");
  refused({"calibrate", "shadow", "-o", "out", "-q"}, "shadow:1:1: error: ");
  Write("env.yaml", "name: x\nPASSWORD: hunter2\n");
  refused({"calibrate", "env.yaml", "-o", "out", "-q"}, "env.yaml:2:1: error: not a calibration spec");
  Write("dup.yaml", "PASSWORD: hunter2\nPASSWORD: hunter2\n");
  refused({"calibrate", "dup.yaml", "-o", "out", "-q"}, "dup.yaml:");
  ASSERT_EQ(mkdir(path("dir.yaml").c_str(), 0755), 0);
  refused({"calibrate", "dir.yaml", "-o", "out", "-q"}, "this is a directory");
  Write("big.yaml", ok + std::string(2u << 20, '#') + "\n");
  refused({"calibrate", "big.yaml", "-o", "out", "-q"}, "larger than 1 MiB");
  Write("s2.yaml", "platform: /etc/shadow\n");
  Write("spec2.yaml", "scenario: s2.yaml\n" + ok.substr(ok.find('\n') + 1));
  refused({"calibrate", "spec2.yaml", "-o", "out", "-q"}, "is not allowed: it is absolute");
  Write("spec3.yaml", "scenario: shadow\n" + ok.substr(ok.find('\n') + 1));
  refused({"calibrate", "spec3.yaml", "-o", "out", "-q"}, "error: ");
  std::string deep = "d";
  for (int i = 0; i < 4; i++) deep += "/" + std::string(200, 'a' + i);
  ASSERT_EQ(system(("mkdir -p '" + path(deep) + "'").c_str()), 0);
  Write(deep + "/s.yaml", "scenario: " + std::string(200, 'x') + ".yaml\n" + ok.substr(ok.find('\n') + 1));
  refused({"calibrate", path(deep + "/s.yaml"), "-o", "out", "-q"}, "is longer than");
  EXPECT_FALSE(exists(path("out")));

  // An output is never an input: by name, and by hard link.
  Write("report.md", ok);
  refused({"calibrate", "report.md", "-o", ".", "-q"}, "the output ./report.md is the spec report.md");
  EXPECT_EQ(slurp(path("report.md")), ok);
  Write("spec.yaml", ok);
  ASSERT_EQ(mkdir(path("o2").c_str(), 0755), 0);
  ASSERT_EQ(link(path("scen.yaml").c_str(), path("o2/calibrated.yaml").c_str()), 0);
  refused({"calibrate", "spec.yaml", "-o", "o2", "-q"}, "is the scenario");
  EXPECT_EQ(slurp(path("scen.yaml")), kScenario);

  // A directory in use by a sweep (or calibration) is refused.
  ASSERT_EQ(mkdir(path("busy").c_str(), 0755), 0);
  int fd = open(path("busy/.nicsim.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);
  refused({"calibrate", "spec.yaml", "-o", "busy", "-q"}, "is in use by a running sweep");
  close(fd);
  // An evaluation directory in use is not removed by --force.
  ASSERT_EQ(system(("mkdir -p '" + path("o3/evals/e-1/points") + "'").c_str()), 0);
  Write("o3/evals/identity", "0123456789abcdef\n");
  Write("o3/evals/e-1/points/0-small.json", "{}");
  fd = open(path("o3/evals/e-1/.nicsim.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);
  refused({"calibrate", "spec.yaml", "-o", "o3", "-q", "--force"}, "o3/evals/e-1 is in use");
  EXPECT_TRUE(exists(path("o3/evals/e-1/points/0-small.json")));
  close(fd);
}

// Issue 23, defects 4, 7, 8 and 9 for calibrate: the spec's texts and the
// scenario's labels reach every output only through the writer of its
// language: Markdown, HTML, CSV (formula guard), gnuplot data and scripts.
TEST_F(Calibrate, HostileTextsAreInertInEveryOutput) {
  Write("h.yaml", "name: h\nplatform: x86-gen3\n"
                  "traffic: {mode: tx, frame_bytes: 256, rate_gbps: 0, sndbuf_bytes: 212992}\n"
                  "cpu: {clock_mhz: 500}\n"
                  "run: {duration_us: 600, warmup_us: 100, drain_us: 300}\n"
                  "sweep:\n  points:\n"
                  "    - {label: \"=HYPERLINK(1)\", traffic.frame_bytes: 256}\n"
                  "    - {label: 'a\"b `id` $HOME', traffic.frame_bytes: 512}\n");
  Write("spec.yaml",
        "name: \"`id` @x $y\"\n"
        "description: \"# Injected <script>alert(1)</script> [a](javascript:alert(1))\"\n"
        "scenario: h.yaml\n"
        "free: [{key: stack.udp_sendmsg_instructions, min: 1000, max: 9000, why: \"<b>w</b>\"}]\n"
        "measurements:\n"
        "  calibrate: [{point: \"=HYPERLINK(1)\", metric: tx.gbps, value: 0.5, source: \"=cmd|' /C calc'!A0\"}]\n"
        "  validate: [{point: 'a\"b `id` $HOME', metric: tx.gbps, value: 0.5, source: s}]\n"
        "fit: {grid: 3, profile_points: 3, max_evaluations: 3}\n");
  Result r = run({"calibrate", "spec.yaml", "-o", "out", "-j", "2", "-q", "--no-plots"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  for (const char *f : {"report.md", "report.html"}) {
    std::string t = slurp(path(std::string("out/") + f));
    EXPECT_EQ(t.find("<script>"), std::string::npos) << f;
    EXPECT_EQ(t.find("<b>w</b>"), std::string::npos) << f;
    if (std::string(f) == "report.md") {
      EXPECT_EQ(t.find("[a](javascript:"), std::string::npos);
    }
    EXPECT_EQ(t.find("href=\"javascript"), std::string::npos) << f;
    EXPECT_EQ(t.find("\n# Injected"), std::string::npos) << f;
  }
  std::string csv = slurp(path("out/evaluations.csv"));
  EXPECT_NE(csv.find(",'=HYPERLINK(1) tx.gbps"), std::string::npos) << csv;
  EXPECT_EQ(csv.find(",=HYPERLINK"), std::string::npos) << csv;
  // gnuplot data keeps the label whole (its quote as ''), scripts run nothing.
  std::string dat = slurp(path("out/plots/fit.dat"));
  EXPECT_NE(dat.find("\"a''b `id` $HOME tx.gbps\""), std::string::npos) << dat;
  for (const std::string &g : list_dir(path("out/plots")))
    if (g.size() > 3 && g.substr(g.size() - 3) == ".gp") {
      std::string t = slurp(path("out/plots/" + g));
      EXPECT_EQ(t.find('`'), std::string::npos) << g << "\n" << t;
      EXPECT_EQ(t.find("$HOME"), std::string::npos) << g;
    }
  EXPECT_EQ(r.out.find("\x1b"), std::string::npos);
}

TEST_F(Calibrate, SameResultWhateverJobsAndResumeReusesEvaluations) {
  std::map<std::string, double> m = Measure();
  Write("spec.yaml", RecoverySpec(m, "fit: {grid: 5, profile_points: 5, max_evaluations: 12}\n"));
  Result r1 = run({"calibrate", "spec.yaml", "-o", "j1", "-j", "1", "-q", "--no-plots", "--cv"});
  ASSERT_EQ(r1.status, 0) << NICSIM_SHOW(r1);
  Result r2 = run({"calibrate", "spec.yaml", "-o", "j2", "-j", "2", "-q", "--no-plots", "--cv"});
  ASSERT_EQ(r2.status, 0) << NICSIM_SHOW(r2);
  std::string a = slurp(path("j1/calibration.json"));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, slurp(path("j2/calibration.json")));
  EXPECT_EQ(slurp(path("j1/evaluations.csv")), slurp(path("j2/evaluations.csv")));
  EXPECT_EQ(slurp(path("j1/calibrated.yaml")), slurp(path("j2/calibrated.yaml")));
  EXPECT_NE(a.find("\"cv\""), std::string::npos);

  // --resume: every evaluation is on disk, so no point file is rewritten.
  std::map<std::string, time_t> before;
  for (const std::string &e : list_dir(path("j2/evals")))
    if (e.rfind("e-", 0) == 0)
      for (const std::string &p : list_dir(path("j2/evals/" + e + "/points"))) {
        struct stat st;
        ASSERT_EQ(stat(path("j2/evals/" + e + "/points/" + p).c_str(), &st), 0);
        before[e + "/points/" + p] = st.st_mtim.tv_sec * 1000000000L + st.st_mtim.tv_nsec;
      }
  ASSERT_FALSE(before.empty());
  Result r3 = run({"calibrate", "spec.yaml", "-o", "j2", "-j", "2", "-q", "--no-plots", "--cv", "--resume"});
  ASSERT_EQ(r3.status, 0) << NICSIM_SHOW(r3);
  EXPECT_EQ(slurp(path("j2/calibration.json")), a);
  for (const auto &kv : before) {
    struct stat st;
    ASSERT_EQ(stat(path("j2/evals/" + kv.first).c_str(), &st), 0) << kv.first;
    EXPECT_EQ(st.st_mtim.tv_sec * 1000000000L + st.st_mtim.tv_nsec, kv.second) << kv.first << " was simulated again";
  }

  // Another spec's evaluations: refused, then replaced with --force.
  Write("other.yaml", "scenario: scen.yaml\n"
                      "free: [{key: stack.ip_rcv_instructions, min: 100, max: 9000, why: w}]\n"
                      "measurements: {calibrate: [{point: small, metric: tx.gbps, value: 0.2, source: s}]}\n"
                      "fit: {grid: 3, profile_points: 3, max_evaluations: 3}\n");
  Result r4 = run({"calibrate", "other.yaml", "-o", "j2", "-q", "--no-plots", "--resume"});
  EXPECT_EQ(r4.status, 2) << NICSIM_SHOW(r4);
  EXPECT_NE(r4.err.find("holds another spec's evaluations"), std::string::npos) << NICSIM_SHOW(r4);
  EXPECT_EQ(slurp(path("j2/calibration.json")), a) << "a refused run changes nothing";
  Result r5 = run({"calibrate", "other.yaml", "-o", "j2", "-q", "--no-plots", "--force"});
  EXPECT_EQ(r5.status, 0) << NICSIM_SHOW(r5);
  EXPECT_NE(slurp(path("j2/calibration.json")), a);
  for (const auto &kv : before) EXPECT_FALSE(exists(path("j2/evals/" + kv.first))) << kv.first;
}

}  // namespace
