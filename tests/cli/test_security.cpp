// test_security.cpp: `nicsim run`'s outputs against hostile or unlucky
// conditions (issue 23): the trace is written like every other output
// (atomic, capped, windowed, its failure losing nothing else), and no output
// may overwrite an input. Each test simulates, in its own process.
#include <jansson.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "cli/cli_test_util.h"

using namespace nicsim_cli_test;

namespace {

class CliSecurity : public Cli {
 protected:
  // Runs nicsim with a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored), as
  // on a disk that fills up after `bytes`.
  Result run_with_fsize(rlim_t bytes, std::initializer_list<std::string> args) {
    std::vector<std::string> a = {NICSIM_BIN};
    a.insert(a.end(), args.begin(), args.end());
    std::vector<char *> argv = argv_of(a);
    std::string out = dir_ + "/.stdout", err = dir_ + "/.stderr";
    pid_t pid = fork();
    if (pid == 0) {
      int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
      signal(SIGXFSZ, SIG_IGN);
      struct rlimit rl = {bytes, bytes};
      if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(126);
      execv(NICSIM_BIN, argv.data());
      _exit(127);
    }
    return finish(pid);
  }

  // Hidden temporary files left in the scratch directory.
  std::vector<std::string> temporaries() const {
    std::vector<std::string> out;
    if (DIR *d = opendir(dir_.c_str())) {
      while (dirent *e = readdir(d))
        if (std::string(e->d_name).find(".tmp.") != std::string::npos) out.push_back(e->d_name);
      closedir(d);
    }
    return out;
  }
};

json_t *load_json(const std::string &p) {
  json_error_t e;
  return json_load_file(p.c_str(), 0, &e);
}

void write_file(const std::string &p, const std::string &text) {
  FILE *f = fopen(p.c_str(), "wb");
  ASSERT_NE(f, nullptr) << p;
  fwrite(text.data(), 1, text.size(), f);
  fclose(f);
}

// The timed events of a trace (metadata left out).
std::vector<json_t *> timed_events(json_t *doc) {
  std::vector<json_t *> out;
  json_t *events = json_object_get(doc, "traceEvents");
  for (size_t i = 0; i < json_array_size(events); i++) {
    json_t *e = json_array_get(events, i);
    if (json_is_number(json_object_get(e, "ts"))) out.push_back(e);
  }
  return out;
}

}  // namespace

// Issue 23, defect 3: a trace that fails (the disk fills up) kept nothing of
// the run: the summary, --json and --csv were dropped too, and the old trace
// was already truncated. Now the old trace is kept and the others written.
TEST_F(CliSecurity, AFailingTraceKeepsTheOldFileAndLosesNoOtherOutput) {
  write_file(path("t.json"), "OLD TRACE");
  auto r = run_with_fsize(200 * 1024, {"run", data("good.yaml"), "--trace", path("t.json"),
                                       "--json", path("r.json"), "--csv", path("r.csv"), "-q",
                                       "--set", "run.duration_us=1000"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("cannot write trace"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path("t.json")), "OLD TRACE");
  EXPECT_NE(r.out.find("Throughput"), std::string::npos) << "the summary is printed";
  json_t *doc = load_json(path("r.json"));
  EXPECT_NE(doc, nullptr) << "--json is written";
  json_decref(doc);
  EXPECT_NE(slurp(path("r.csv")).find("label,"), std::string::npos) << "--csv is written";
  EXPECT_TRUE(temporaries().empty());
}

// The same on a device that is always full: the other outputs are written.
TEST_F(CliSecurity, ATraceToAFullDeviceLosesNoOtherOutput) {
  auto r = run({"run", data("good.yaml"), "--trace", "/dev/full", "--json", path("r.json"),
                "--csv", path("r.csv"), "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("cannot write trace /dev/full"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Throughput"), std::string::npos);
  json_t *doc = load_json(path("r.json"));
  EXPECT_NE(doc, nullptr);
  json_decref(doc);
  EXPECT_TRUE(exists(path("r.csv")));
}

// A run killed while tracing leaves the old trace as it was (and only a
// hidden temporary file), never half a JSON document at the trace's path.
TEST_F(CliSecurity, AKilledRunLeavesTheOldTrace) {
  write_file(path("t.json"), "OLD TRACE");
  pid_t pid = start({"run", data("good.yaml"), "--trace", path("t.json"), "-q", "--set",
                     "run.duration_us=1000000", "--trace-max-mb", "0"});
  ASSERT_GT(pid, 0);
  // Wait until the temporary file holds something, then kill the run.
  bool started = false;
  for (int i = 0; i < 200 && !started; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (const std::string &t : temporaries()) {
      struct stat st;
      if (stat(path(t).c_str(), &st) == 0 && st.st_size > 4096) started = true;
    }
  }
  kill(pid, SIGKILL);
  Result r = finish(pid);
  EXPECT_TRUE(started) << "no temporary trace file grew";
  EXPECT_EQ(r.status, 128 + SIGKILL);
  EXPECT_EQ(slurp(path("t.json")), "OLD TRACE");
}

// The trace has a size cap: when reached, tracing stops, the file stays
// valid JSON under the cap and ends with a note, and stderr says so.
TEST_F(CliSecurity, TheTraceHasASizeCap) {
  auto r = run({"run", data("good.yaml"), "--trace", path("t.json"), "--trace-max-mb", "1", "-q",
                "--set", "traffic.frame_bytes=64", "--set", "run.duration_us=6000"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("reached its size cap of 1 MiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--trace-from-us"), std::string::npos) << r.err;
  struct stat st;
  ASSERT_EQ(stat(path("t.json").c_str(), &st), 0);
  EXPECT_LE(st.st_size, 1 << 20);
  EXPECT_GT(st.st_size, 1 << 19);
  json_t *doc = load_json(path("t.json"));
  ASSERT_NE(doc, nullptr) << "a cut trace is still valid JSON";
  std::vector<json_t *> ev = timed_events(doc);
  ASSERT_FALSE(ev.empty());
  EXPECT_NE(std::string(json_string_value(json_object_get(ev.back(), "name")))
                .find("trace truncated"),
            std::string::npos);
  json_decref(doc);
  // Without the option the default cap (256 MiB) is far away for this run.
  auto r2 = run({"run", data("good.yaml"), "--trace", path("t2.json"), "-q"});
  ASSERT_EQ(r2.status, 0) << NICSIM_SHOW(r2);
  EXPECT_EQ(r2.err.find("size cap"), std::string::npos) << r2.err;
}

// --trace-from-us/--trace-to-us keep only the events that overlap the window.
TEST_F(CliSecurity, TheTraceCanBeLimitedToATimeWindow) {
  auto r = run({"run", data("good.yaml"), "--trace", path("t.json"), "--trace-from-us", "50",
                "--trace-to-us", "60", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_t *doc = load_json(path("t.json"));
  ASSERT_NE(doc, nullptr);
  std::vector<json_t *> ev = timed_events(doc);
  EXPECT_GT(ev.size(), 10u);
  for (json_t *e : ev) {
    double ts = json_number_value(json_object_get(e, "ts"));
    json_t *dur = json_object_get(e, "dur");
    double end = ts + (json_is_number(dur) ? json_number_value(dur) : 0);
    EXPECT_GE(end, 50.0);
    EXPECT_LT(ts, 60.0);
  }
  json_decref(doc);
  // Bad values and options without --trace are usage errors, before simulating.
  for (auto args : std::vector<std::vector<std::string>>{
           {"--trace", path("x.json"), "--trace-max-mb", "x"},
           {"--trace", path("x.json"), "--trace-max-mb", "-1"},
           {"--trace", path("x.json"), "--trace-max-mb", "1.5"},
           {"--trace", path("x.json"), "--trace-max-mb", "99999999999999999999"},
           {"--trace", path("x.json"), "--trace-from-us", "-3"},
           {"--trace", path("x.json"), "--trace-from-us", "nan"},
           {"--trace", path("x.json"), "--trace-from-us", "80", "--trace-to-us", "50"},
           {"--trace-max-mb", "4"},
           {"--trace-from-us", "4"}}) {
    std::vector<std::string> a = {"run", data("good.yaml")};
    a.insert(a.end(), args.begin(), args.end());
    std::string cmd = std::string(NICSIM_BIN);
    for (const std::string &s : a) cmd += " '" + s + "'";
    int st = system((cmd + " >/dev/null 2>&1").c_str());
    EXPECT_EQ(WEXITSTATUS(st), 2) << cmd;
    EXPECT_FALSE(exists(path("x.json"))) << cmd;
  }
}

// Issue 23, defect 6: `run v.yaml --json v.yaml` (or --csv, --trace)
// replaced the scenario. Every output is checked against every input by file
// identity: names, symlinks and hard links alike; the scenario and its
// platform files.
TEST_F(CliSecurity, AnOutputIsNeverAnInput) {
  std::string scen = slurp(data("good.yaml"));
  write_file(path("v.yaml"), scen);
  write_file(path("p.yaml"), "cpu: {cores: 1}\n");
  write_file(path("w.yaml"), "platform: p.yaml\nrun: {duration_us: 100, warmup_us: 20}\n");
  ASSERT_EQ(symlink("v.yaml", path("link.json").c_str()), 0);
  ASSERT_EQ(link(path("v.yaml").c_str(), path("hard.csv").c_str()), 0);
  ASSERT_EQ(mkdir(path("sub").c_str(), 0755), 0);
  for (const char *opt : {"--json", "--csv", "--trace"}) {
    for (const std::string &out :
         {path("v.yaml"), std::string("v.yaml"), std::string("./sub/../v.yaml"), path("link.json"),
          path("hard.csv")}) {
      auto r = run({"run", "v.yaml", opt, out, "-q"});
      EXPECT_EQ(r.status, 2) << opt << " " << out << "\n" << NICSIM_SHOW(r);
      EXPECT_NE(r.err.find("is the scenario"), std::string::npos) << r.err;
      EXPECT_EQ(slurp(path("v.yaml")), scen);
    }
    auto r = run({"run", "w.yaml", opt, "p.yaml", "-q"});
    EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("is a platform file"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(path("p.yaml")), "cpu: {cores: 1}\n");
  }
  EXPECT_TRUE(temporaries().empty());
}

// Issue 23, defect 6 for --overlay FILE: an overlay is an input like the
// scenario; no output of run (or sweep) may replace it, by name, symlink or
// hard link. A bad overlay is exit 2 with its file named, before simulating.
TEST_F(CliSecurity, AnOutputIsNeverAnOverlay) {
  write_file(path("v.yaml"), slurp(data("good.yaml")));
  const std::string ov = "nic: {desc_spacing: 32}\n";
  write_file(path("o.yaml"), ov);
  ASSERT_EQ(link(path("o.yaml").c_str(), path("hard.json").c_str()), 0);
  for (const char *opt : {"--json", "--csv", "--trace"})
    for (const std::string &out : {std::string("o.yaml"), path("hard.json")}) {
      auto r = run({"run", "v.yaml", "--overlay", "o.yaml", opt, out, "-q"});
      EXPECT_EQ(r.status, 2) << opt << " " << out << "\n" << NICSIM_SHOW(r);
      EXPECT_NE(r.err.find("is an overlay o.yaml"), std::string::npos) << r.err;
      EXPECT_EQ(slurp(path("o.yaml")), ov);
    }
  ASSERT_EQ(mkdir(path("out").c_str(), 0755), 0);
  ASSERT_EQ(link(path("o.yaml").c_str(), path("out/results.csv").c_str()), 0);
  write_file(path("sw.yaml"), "name: sw\nplatform: x86-gen3\n"
                              "run: {duration_us: 60, warmup_us: 20, drain_us: 200}\n"
                              "sweep:\n  points:\n    - {label: a, nic.desc_spacing: 16}\n");
  auto r = run({"sweep", "sw.yaml", "--overlay", "o.yaml", "-o", "out", "-q"});
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("is an overlay"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(path("o.yaml")), ov);
  for (const char *cmd : {"run", "validate", "sweep"}) {
    r = run({cmd, std::string(cmd) == "sweep" ? "sw.yaml" : "v.yaml", "--overlay", path("out")});
    EXPECT_EQ(r.status, 2) << cmd << NICSIM_SHOW(r);
    EXPECT_NE(r.err.find("this is a directory"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(temporaries().empty());
}

// Issue 23, defect 12 (issue 27, "Drain"): a drain too short for the
// configuration failed the run after simulating it all. It is now extended
// automatically (up to 10 x run.drain_us, at least 10 ms more), with a note
// on stderr and the metric sim.drain_extended_us; a coalescing timer longer
// than that limit is refused before simulating, saying what it needs.
TEST_F(CliSecurity, ADrainTooShortIsExtendedOrRefusedBeforeSimulating) {
  auto r = run({"run", data("good.yaml"), "--set", "run.drain_us=1", "--json", path("r.json"),
                "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("run.drain_us = 1 was too short"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Drain extended by"), std::string::npos) << r.out;
  json_t *doc = load_json(path("r.json"));
  ASSERT_NE(doc, nullptr);
  json_t *ext = json_object_get(json_object_get(doc, "metrics"), "sim.drain_extended_us");
  EXPECT_TRUE(json_is_number(ext));
  EXPECT_GT(json_number_value(ext), 0);
  json_decref(doc);
  // A drain long enough reports no extension.
  auto ok = run({"run", data("good.yaml"), "--json", path("ok.json"), "-q"});
  ASSERT_EQ(ok.status, 0) << NICSIM_SHOW(ok);
  EXPECT_EQ(slurp(path("ok.json")).find("drain_extended"), std::string::npos);
  // A 1 s coalescing timer cannot drain in 2 ms + the extension: exit 2 at once.
  for (const char *cmd : {"run", "validate"}) {
    auto bad = run({cmd, data("good.yaml"), "--set", "nic.irq_coal_usecs=1000000"});
    EXPECT_EQ(bad.status, 2) << NICSIM_SHOW(bad);
    EXPECT_NE(bad.err.find("set run.drain_us to at least 1000000"), std::string::npos) << bad.err;
    EXPECT_EQ(bad.out.find("Throughput"), std::string::npos) << "nothing simulated";
  }
  auto fine = run({"validate", data("good.yaml"), "--set", "nic.irq_coal_usecs=1000000", "--set",
                   "run.drain_us=1000000"});
  EXPECT_EQ(fine.status, 0) << NICSIM_SHOW(fine);
}
