// test_security3.cpp: issue 35, a hostile review's third round, classes A
// (outputs written or deleted through links onto inputs), B (non-regular
// files in results directories, FIFOs as inputs), C (text escaping its
// format), D (signals and temporary files) and F (plot's silent partial
// success). Each TEST names the defects it holds (#N of the issue) and adds
// variants of its class: other files, commands and fields. The numbers and
// resources of calibrate (E, #20) are in test_security3_calib.cpp.
#include <jansson.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "cli/security3_util.h"

using namespace nicsim_cli_test;

// #1: `regress --junit FILE` where FILE is an entry's scenario (or its
// platform file) is refused naming both, and nothing is replaced; a --junit
// that is a symlink to the entry replaces the link, never the scenario.
TEST_F(Sec3, RegressJunitIsNeverAnEntryOrItsPlatform) {
  write("p.yaml", "cpu: {cores: 1}\n");
  const std::string entry = "platform: p.yaml\n" kTINY_BODY kTINY_POINTS;
  write("e.yaml", entry);
  write("suite.yaml", "name: t\nentries:\n  - {name: e, scenario: e.yaml, metrics: {rx.gbps: {rel: 0.5}}}\n");
  Result up = run({"regress", "suite.yaml", "--update", "-o", "out"});
  ASSERT_EQ(up.status, 0) << NICSIM_SHOW(up);
  for (const char *victim : {"e.yaml", "p.yaml"}) {
    std::string before = slurp(path(victim));
    Result r = run({"regress", "suite.yaml", "--junit", victim, "-o", "out", "--force"});
    EXPECT_EQ(r.status, 2) << victim << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find(victim), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("an input of this command"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(path(victim)), before) << victim << " was replaced";
  }
  // Variant: a symlink to the entry is replaced by the report; the entry stays.
  ASSERT_EQ(symlink("e.yaml", path("j.xml").c_str()), 0);
  Result r = run({"regress", "suite.yaml", "--junit", "j.xml", "-o", "out", "--force"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(slurp(path("e.yaml")), entry);
  EXPECT_TRUE(is_regular(path("j.xml")));
  EXPECT_NE(slurp(path("j.xml")).find("<testsuites"), std::string::npos);
}

// #2: a point file that is a symlink to the scenario (or to any file) is
// replaced by the point, never written through, with or without --resume.
TEST_F(Sec3, SweepNeverWritesThroughAPointFileLink) {
  write("s.yaml", kTiny);
  write("victim.txt", "precious\n");
  Result r = run({"sweep", "s.yaml", "-o", "out", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  for (const char *mode : {"--resume", "--force"}) {
    ASSERT_EQ(unlink(path("out/points/0-a.json").c_str()), 0);
    ASSERT_EQ(symlink("../../s.yaml", path("out/points/0-a.json").c_str()), 0);
    ASSERT_EQ(unlink(path("out/points/1-b.json").c_str()), 0);
    ASSERT_EQ(symlink(path("victim.txt").c_str(), path("out/points/1-b.json").c_str()), 0);
    r = run({"sweep", "s.yaml", "-o", "out", "-q", mode});
    EXPECT_EQ(slurp(path("s.yaml")), kTiny) << mode << ": the scenario was written over\n"
                                           << NICSIM_SHOW(r);
    EXPECT_EQ(slurp(path("victim.txt")), "precious\n") << mode;
    EXPECT_TRUE(is_regular(path("out/points/0-a.json"))) << mode;
    EXPECT_TRUE(is_regular(path("out/points/1-b.json"))) << mode;
    EXPECT_EQ(r.status, 0) << mode << "\n" << NICSIM_SHOW(r);
  }
}

// #3: report.md linked to sweep.json, plots/NAME.gp linked to a point file,
// DIR1/results.csv linked to a point file of DIR2: each link is replaced and
// its target is intact. Variants: report.html linked to the scenario,
// plots/NAME.dat linked to sweep.json.
TEST_F(Sec3, ReportPlotAndMergeReplaceLinksNotTargets) {
  write("s.yaml", kTinyPlot);
  Result r = run({"sweep", "s.yaml", "-o", "d1", "-q", "--shard", "1/2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = run({"sweep", "s.yaml", "-o", "d2", "-q", "--shard", "2/2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  const std::string manifest = slurp(path("d1/sweep.json")), point2 = slurp(path("d2/points/1-b.json"));
  const std::string point1 = slurp(path("d1/points/0-a.json"));
  ASSERT_FALSE(point2.empty());
  ASSERT_EQ(symlink("sweep.json", path("d1/report.md").c_str()), 0);
  ASSERT_EQ(symlink("../s.yaml", path("d1/report.html").c_str()), 0);
  r = run({"report", path("d1"), "--no-plots", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(slurp(path("d1/sweep.json")), manifest);
  EXPECT_EQ(slurp(path("s.yaml")), kTinyPlot);
  EXPECT_TRUE(is_regular(path("d1/report.md")));
  ASSERT_EQ(mkdir(path("d1/plots").c_str(), 0755) == 0 || errno == EEXIST, true);
  unlink(path("d1/plots/thr.gp").c_str());
  unlink(path("d1/plots/thr.dat").c_str());
  ASSERT_EQ(symlink("../points/0-a.json", path("d1/plots/thr.gp").c_str()), 0);
  ASSERT_EQ(symlink("../sweep.json", path("d1/plots/thr.dat").c_str()), 0);
  r = run({"plot", path("d1"), "-q"});
  EXPECT_EQ(slurp(path("d1/points/0-a.json")), point1) << NICSIM_SHOW(r);
  EXPECT_EQ(slurp(path("d1/sweep.json")), manifest);
  EXPECT_TRUE(is_regular(path("d1/plots/thr.gp")));
  unlink(path("d1/results.csv").c_str());
  ASSERT_EQ(symlink("../d2/points/1-b.json", path("d1/results.csv").c_str()), 0);
  r = run({"merge", path("d1"), path("d2"), "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(slurp(path("d2/points/1-b.json")), point2) << "merge wrote into its input shard";
  EXPECT_TRUE(is_regular(path("d1/results.csv")));
  // Variants: a plots/ or points/ directory that is a link is refused, and
  // nothing is written where it points.
  ASSERT_EQ(mkdir(path("elsewhere").c_str(), 0755), 0);
  ASSERT_EQ(system(("rm -rf '" + path("d1/plots") + "'").c_str()), 0);
  ASSERT_EQ(symlink("../elsewhere", path("d1/plots").c_str()), 0);
  r = run({"plot", path("d1"), "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
  ASSERT_EQ(system(("rm -rf '" + path("d2/points") + "'").c_str()), 0);
  ASSERT_EQ(symlink("../elsewhere", path("d2/points").c_str()), 0);
  r = run({"sweep", "s.yaml", "-o", "d2", "-q", "--shard", "2/2", "--resume"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
  EXPECT_TRUE(list_dir(path("elsewhere")).empty());
}

// #4: removing a sweep's or an evaluation's results never follows a link:
// sweep --force over a points/ that links to another sweep's points, and
// calibrate --force over evals/e-* linked to an unrelated sweep directory.
TEST_F(Sec3, DeletionNeverFollowsLinks) {
  write("s.yaml", kTiny);
  write("s2.yaml", std::string(kTiny) + "description: another\n");
  Result r = run({"sweep", "s.yaml", "-o", "victim", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  const std::set<std::string> before = list_dir(path("victim/points"));
  ASSERT_EQ(before.size(), 2u);
  // Variant: a sweep directory whose points/ links to the victim's.
  ASSERT_EQ(mkdir(path("other").c_str(), 0755), 0);
  ASSERT_EQ(symlink("../victim/points", path("other/points").c_str()), 0);
  write("other/results.csv", "x\n");
  r = run({"sweep", "s2.yaml", "-o", "other", "-q", "--force"});
  EXPECT_EQ(list_dir(path("victim/points")), before) << NICSIM_SHOW(r);
  // calibrate: an evals/e-* that links to the victim, then --force.
  write("spec.yaml", tiny_spec("source: s"));
  ASSERT_EQ(mkdir(path("cal").c_str(), 0755), 0);
  ASSERT_EQ(mkdir(path("cal/evals").c_str(), 0755), 0);
  write("cal/evals/identity", "0000000000000000\n");
  ASSERT_EQ(symlink("../../victim", path("cal/evals/e-0000000000000001").c_str()), 0);
  r = run({"calibrate", "spec.yaml", "-o", "cal", "--force", "-q", "--no-plots", "-j", "2"});
  EXPECT_EQ(list_dir(path("victim/points")), before) << NICSIM_SHOW(r);
  EXPECT_TRUE(exists(path("victim/sweep.json")));
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
}

// #5: a suite's baselines stay inside its directory: '..', an absolute path
// and (with --update) a baselines directory that links out are refused.
TEST_F(Sec3, BaselinesStayInsideTheSuiteDirectory) {
  write("e.yaml", kTiny);
  ASSERT_EQ(mkdir(path("s").c_str(), 0755), 0);
  write("s/e.yaml", kTiny);
  for (const char *b : {"../../..", "/tmp", "x/../../y", ".."}) {
    write("s/suite.yaml", std::string("name: t\nbaselines: ") + b +
                              "\nentries:\n  - {name: e, scenario: e.yaml, metrics: {rx.gbps: {rel: 0.5}}}\n");
    Result r = run({"regress", "s/suite.yaml", "--update", "-o", "out"});
    EXPECT_EQ(r.status, 2) << b << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("s/suite.yaml:2:12"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("inside the suite's directory"), std::string::npos) << r.err;
  }
  // A link out of the suite's directory (variant).
  ASSERT_EQ(mkdir(path("elsewhere").c_str(), 0755), 0);
  ASSERT_EQ(symlink("../elsewhere", path("s/bl").c_str()), 0);
  write("s/suite.yaml", "name: t\nbaselines: bl\nentries:\n  - {name: e, scenario: e.yaml, metrics: {rx.gbps: {rel: 0.5}}}\n");
  Result r = run({"regress", "s/suite.yaml", "--update", "-o", "out"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("outside the suite's directory"), std::string::npos) << r.err;
  EXPECT_TRUE(list_dir(path("elsewhere")).empty());
}

// #6: a failure record (points/N-label.error) that is a symlink is never
// followed: the file it names never reaches report.html or report.md.
// Variant: the same record read by regress's JUnit report.
TEST_F(Sec3, FailureRecordLinksAreNeverFollowed) {
  write("s.yaml", kTiny);
  write("secret.txt", "SECRET-TOKEN-123\n");
  Result r = run({"sweep", "s.yaml", "-o", "out", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  ASSERT_EQ(unlink(path("out/points/1-b.json").c_str()), 0);
  ASSERT_EQ(symlink(path("secret.txt").c_str(), path("out/points/1-b.error").c_str()), 0);
  r = run({"report", path("out"), "--no-plots", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(slurp(path("out/report.html")).find("SECRET"), std::string::npos);
  EXPECT_EQ(slurp(path("out/report.md")).find("SECRET"), std::string::npos);
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("SECRET"), std::string::npos) << r.err;
}

// #7: a FIFO never blocks: a .error FIFO under report, a point-file FIFO under
// sweep (with and without --resume), a FIFO named as the scenario under
// validate, regress and calibrate. Variants: sweep.json a FIFO under plot and
// merge, a baseline FIFO under regress, the suite and the spec as FIFOs.
TEST_F(Sec3, FifosNeverBlock) {
  write("s.yaml", kTiny);
  Result r = run({"sweep", "s.yaml", "-o", "out", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  ASSERT_EQ(unlink(path("out/points/0-a.json").c_str()), 0); /* a failed point: its record is read */
  ASSERT_EQ(mkfifo(path("out/points/0-a.error").c_str(), 0600), 0);
  r = run_for(30, {"report", path("out"), "--no-plots", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  ASSERT_EQ(unlink(path("out/points/1-b.json").c_str()), 0);
  ASSERT_EQ(mkfifo(path("out/points/1-b.json").c_str(), 0600), 0);
  for (const char *mode : {"--resume", "--force"}) {
    r = run_for(60, {"sweep", "s.yaml", "-o", "out", "-q", mode});
    EXPECT_NE(r.status, 128 + SIGKILL) << mode << ": blocked on the FIFO";
    EXPECT_TRUE(exists(path("out/points/0-a.json"))) << mode;
  }
  ASSERT_EQ(mkfifo(path("fifo.yaml").c_str(), 0600), 0);
  write("suite.yaml", "name: t\nentries:\n  - {name: e, scenario: fifo.yaml, metrics: {rx.gbps: {rel: 0.5}}}\n");
  write("spec.yaml", tiny_spec("source: s", "fifo.yaml"));
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"validate", "fifo.yaml"},
           {"run", "fifo.yaml"},
           {"regress", "suite.yaml", "-o", "rg"},
           {"regress", "fifo.yaml", "-o", "rg"},
           {"calibrate", "spec.yaml", "-o", "cal"},
           {"calibrate", "fifo.yaml", "-o", "cal"}}) {
    r = run_for(30, args);
    EXPECT_EQ(r.status, 2) << args[0] << " " << args[1] << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << args[0] << ": " << r.err;
  }
  // A manifest FIFO (plot, merge) and a baseline FIFO (regress).
  const std::string man = slurp(path("out/sweep.json"));
  ASSERT_EQ(unlink(path("out/sweep.json").c_str()), 0);
  ASSERT_EQ(mkfifo(path("out/sweep.json").c_str(), 0600), 0);
  for (const char *cmd : {"plot", "merge"}) {
    r = run_for(30, {cmd, path("out"), "-q"});
    EXPECT_EQ(r.status, 2) << cmd << "\n" << NICSIM_SHOW(r);
  }
  write("e.yaml", kTiny);
  write("suite2.yaml", "name: t\nentries:\n  - {name: e, scenario: e.yaml, metrics: {rx.gbps: {rel: 0.5}}}\n");
  ASSERT_EQ(mkdir(path("baselines").c_str(), 0755), 0);
  ASSERT_EQ(mkfifo(path("baselines/e.json").c_str(), 0600), 0);
  r = run_for(60, {"regress", "suite2.yaml", "-o", "rg2"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
}

// #9: U+FFFE and U+FFFF in a label and in the suite's name never reach the
// JUnit XML raw (it stays well-formed: every character is XML 1.0's Char).
// Variant: a label with U+FFFF in a failing comparison's message.
TEST_F(Sec3, JunitHoldsOnlyXmlCharacters) {
  write("e.yaml", std::string(kTinyBase) +
                      "sweep:\n  points:\n    - {label: \"a\\uFFFEb\", nic.desc_spacing: 16}\n"
                      "    - {label: \"c\\uFFFFd\", nic.desc_spacing: 32}\n");
  write("suite.yaml", "name: \"suite\\uFFFF\\uFFFE\"\nentries:\n  - {name: e, scenario: e.yaml, metrics: {rx.gbps: {rel: 1e-9}}}\n");
  Result r = run({"regress", "suite.yaml", "--update", "-o", "out"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  r = run({"regress", "suite.yaml", "-o", "out", "--force", "--junit", "j.xml"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  // Variant: make the comparison fail so the label is in a failure message.
  set_all_metrics(path("baselines/e.json"), 1234.5);
  Result f = run({"regress", "suite.yaml", "-o", "out", "--force", "--junit", "k.xml"});
  EXPECT_EQ(f.status, 1) << NICSIM_SHOW(f);
  for (const char *file : {"j.xml", "k.xml"}) {
    std::string xml = slurp(path(file));
    ASSERT_FALSE(xml.empty()) << file;
    EXPECT_TRUE(xml_chars_only(xml)) << file << ":\n" << xml;
    EXPECT_NE(xml.find("\xEF\xBF\xBD"), std::string::npos) << file << ": the replacement character";
  }
}

// #10: a file name holding a newline never makes a line of its own:
// validate's "FILE: OK (N points)" and "N errors in FILE", and an error's
// "FILE:LINE:COL:" prefix (variant).
TEST_F(Sec3, FileNamesStayOnTheirLine) {
  const std::string good = "g.yaml\nfake.yaml: OK (9 points)", bad = "b.yaml\n3 errors in x.yaml";
  write(good, kTiny);
  write(bad, "nic: {desc_spacing: banana}\n");
  Result r = run({"validate", good});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(lines_of(r.out).size(), 1u) << r.out;
  EXPECT_NE(r.out.find("g.yaml\\x0Afake.yaml: OK (9 points): OK (2 points)"), std::string::npos) << r.out;
  r = run({"validate", bad});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  for (const std::string &line : lines_of(r.err)) {
    EXPECT_NE(line.rfind("3 errors in x.yaml", 0), 0u) << r.err;
    EXPECT_NE(line.rfind("fake.yaml", 0), 0u) << r.err;
  }
  EXPECT_NE(r.err.find("b.yaml\\x0A3 errors in x.yaml:1:"), std::string::npos) << r.err;
  // Variants: every message quoting a name (plot, report, merge of a
  // directory that is none; regress of a missing suite).
  const std::string dir = "d\nnicsim plot: fake OK";
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"plot", dir}, {"report", dir}, {"merge", dir, "-o", "m"}, {"regress", dir + ".yaml"}}) {
    Result v = run_for(30, args);
    EXPECT_EQ(v.status, 2) << args[0] << "\n" << NICSIM_SHOW(v);
    for (const std::string &line : lines_of(v.err))
      EXPECT_NE(line.rfind("nicsim plot: fake OK", 0), 0u) << args[0] << ": " << v.err;
    EXPECT_NE(v.err.find("d\\x0Anicsim plot: fake OK"), std::string::npos) << args[0] << ": " << v.err;
  }
}

// #11: a scenario (and an overlay, variant) whose name is not UTF-8 is swept;
// sweep.json stores the name escaped, reversibly, and says so.
TEST_F(Sec3, NonUtf8FileNamesAreStoredEscaped) {
  const std::string name = "caf\xE9\\x.yaml", ov = "ov\xFF.yaml";
  write(name, kTiny);
  write(ov, "nic: {rx_ring_size: 256}\n");
  Result r = run({"sweep", name, "--overlay", ov, "-o", "out", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_EQ(r.err.find("out of memory"), std::string::npos) << r.err;
  json_t *m = json_load_file(path("out/sweep.json").c_str(), 0, nullptr);
  ASSERT_NE(m, nullptr);
  EXPECT_STREQ(json_string_value(json_object_get(m, "file")), "caf\\xE9\\\\x.yaml");
  EXPECT_STREQ(json_string_value(json_array_get(json_object_get(m, "overlays"), 0)), "ov\\xFF.yaml");
  EXPECT_TRUE(json_is_true(json_object_get(m, "names_escaped")));
  json_decref(m);
  r = run({"report", path("out"), "--no-plots", "-q"});
  EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
  // Variant: calibrate's calibration.json names a spec that is not UTF-8.
  write("s.yaml", kTiny);
  const std::string spec = "sp\xE9" "c.yaml";
  write(spec, tiny_spec("source: s"));
  r = run({"calibrate", spec, "-o", "cal", "-q", "--no-plots", "-j", "2"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  m = json_load_file(path("cal/calibration.json").c_str(), 0, nullptr);
  ASSERT_NE(m, nullptr);
  EXPECT_STREQ(json_string_value(json_object_get(m, "spec")), "sp\\xE9c.yaml");
  EXPECT_TRUE(json_is_true(json_object_get(m, "names_escaped")));
  json_decref(m);
}

// #12: a sweep's workers die with it: SIGTERM and SIGINT are passed on,
// and after SIGKILL of the sweep (which can pass nothing on) the kernel
// kills them (PR_SET_PDEATHSIG).
TEST_F(Sec3, SweepWorkersDieWithTheirParent) {
  write("slow.yaml", kSlow);
  for (int sig : {SIGTERM, SIGINT, SIGKILL}) {
    pid_t pid = start({"sweep", "slow.yaml", "-o", "out" + std::to_string(sig), "-j", "2", "-q"});
    std::vector<pid_t> workers;
    for (int i = 0; i < 200 && workers.size() < 2; i++) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      workers = children_of(pid);
    }
    ASSERT_EQ(workers.size(), 2u) << "the sweep started no workers";
    kill(pid, sig);
    Result r = finish(pid);
    EXPECT_EQ(r.status, 128 + sig) << NICSIM_SHOW(r);
    for (pid_t w : workers) {
      bool gone = false;
      for (int i = 0; i < 200 && !gone; i++) {
        gone = kill(w, 0) != 0 || slurp("/proc/" + std::to_string(w) + "/stat").find(") Z") != std::string::npos;
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(25));
      }
      EXPECT_TRUE(gone) << "worker " << w << " outlived its sweep (signal " << sig << ")";
      if (!gone) kill(w, SIGKILL);
    }
  }
}

// #13: a traced run stopped by SIGTERM removes its temporary file; one
// killed outright leaves it, and the next run in that directory removes it.
// Variants: a stale temporary beside --json, beside a sweep's sweep.json;
// a file that is not of nicsim's naming stays.
TEST_F(Sec3, TemporaryFilesDoNotOutliveTheirRun) {
  write("s.yaml", kSlow);
  pid_t pid = start({"run", "s.yaml", "--point", "a", "--trace", path("t.json"), "-q"});
  bool started = false;
  for (int i = 0; i < 400 && !started; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    for (const std::string &n : list_all(dir_))
      started = started || n.rfind(".t.json.tmp.", 0) == 0;
  }
  ASSERT_TRUE(started) << "no temporary trace appeared";
  kill(pid, SIGTERM);
  Result r = finish(pid);
  EXPECT_EQ(r.status, 128 + SIGTERM) << NICSIM_SHOW(r);
  for (const std::string &n : list_all(dir_)) EXPECT_EQ(n.find(".tmp."), std::string::npos) << n;
  // Stale ones, as a kill -9 leaves them.
  write(".t.json.tmp.Ab12Cd", std::string(4096, 'x'));
  write(".r.json.tmp.zz99ZZ", "x");
  write(".notes.tmp", "mine");
  write(".keep.tmp.toolong7", "mine");
  write("q.yaml", kTiny);
  r = run({"run", "q.yaml", "--point", "a", "--trace", path("t.json"), "--json", path("r.json"), "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::set<std::string> left = list_all(dir_);
  EXPECT_EQ(left.count(".t.json.tmp.Ab12Cd"), 0u);
  EXPECT_EQ(left.count(".r.json.tmp.zz99ZZ"), 0u);
  EXPECT_EQ(left.count(".notes.tmp"), 1u);
  EXPECT_EQ(left.count(".keep.tmp.toolong7"), 1u);
  ASSERT_EQ(mkdir(path("sw").c_str(), 0755), 0);
  write("sw/.sweep.json.tmp.QQQQQQ", "{");
  r = run({"sweep", "q.yaml", "-o", "sw", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_FALSE(exists(path("sw/.sweep.json.tmp.QQQQQQ")));
}

// #17: a trace sample interval below the simulator's resolution (1 ps) is
// refused, never silently replaced by the default. Variants: 5e-7, 0.0000009.
TEST_F(Sec3, TraceSampleBelowOnePicosecondIsRefused) {
  write("q.yaml", kTiny);
  for (const char *v : {"1e-7", "5e-7", "0.0000009"}) {
    Result r = run({"run", "q.yaml", "--point", "a", "--trace", path("t.json"), "--trace-sample-us", v});
    EXPECT_EQ(r.status, 2) << v << "\n" << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("1 ps"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(path("t.json")));
  }
  Result ok = run({"run", "q.yaml", "--point", "a", "--trace", path("t.json"), "--trace-sample-us", "0.000001", "-q"});
  EXPECT_EQ(ok.status, 0) << NICSIM_SHOW(ok);
}

// #18: regress's delta against a baseline of 1e308 is -100 %, never -inf%.
// Variant: against -1e308 it is +100 %.
TEST_F(Sec3, DeltasAgainstHugeBaselinesPrintCorrectly) {
  write("e.yaml", kTiny);
  write("suite.yaml", "name: t\nentries:\n  - {name: e, scenario: e.yaml, metrics: {rx.gbps: {rel: 0.01}}}\n");
  Result up = run({"regress", "suite.yaml", "--update", "-o", "out"});
  ASSERT_EQ(up.status, 0) << NICSIM_SHOW(up);
  for (double b : {1e308, -1e308}) {
    set_all_metrics(path("baselines/e.json"), b);
    Result r = run({"regress", "suite.yaml", "-o", "out", "--force"});
    EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
    EXPECT_EQ(r.out.find("inf%"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(b > 0 ? "(-100%)" : "(+100%)"), std::string::npos) << r.out;
  }
}

// #19: plot on a directory whose every point file is corrupt exits 2 saying
// so; a sweep.json with more plots than are drawn says which are not.
// Variant: every point file a symlink.
TEST_F(Sec3, PlotNeverSucceedsSilentlyWithNothing) {
  write("s.yaml", kTinyPlot);
  Result r = run({"sweep", "s.yaml", "-o", "out", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  // 150 declared plots: 100 drawn, the rest named on stderr.
  json_t *m = json_load_file(path("out/sweep.json").c_str(), 0, nullptr);
  ASSERT_NE(m, nullptr);
  json_t *plots = json_object_get(m, "plots"), *first = json_deep_copy(json_array_get(plots, 0));
  json_array_clear(plots);
  for (int i = 0; i < 150; i++) {
    json_t *p = json_deep_copy(first);
    json_object_set_new(p, "name", json_string(("p" + std::to_string(i)).c_str()));
    json_array_append_new(plots, p);
  }
  json_decref(first);
  ASSERT_EQ(json_dump_file(m, path("out/sweep.json").c_str(), JSON_INDENT(2)), 0);
  json_decref(m);
  r = run({"plot", path("out"), "-q"});
  EXPECT_NE(r.err.find("declares 150 plots; only the first 100 are drawn (from 'p100' on, 50 are not)"),
            std::string::npos) << NICSIM_SHOW(r);
  for (const char *f : {"out/points/0-a.json", "out/points/1-b.json"}) write(f, "{\"config\": 3");
  r = run({"plot", path("out"), "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("none of the 2 point files"), std::string::npos) << r.err;
  for (const char *f : {"0-a.json", "1-b.json"}) {
    unlink(path(std::string("out/points/") + f).c_str());
    ASSERT_EQ(symlink("../sweep.json", path(std::string("out/points/") + f).c_str()), 0);
  }
  r = run({"plot", path("out"), "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
}
