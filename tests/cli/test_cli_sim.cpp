// test_cli_sim.cpp: nicsim commands that simulate: run's summary, JSON and CSV;
// sweep results identical whatever -j (sim.wall_s aside); failing points.
#include <jansson.h>
#include <signal.h>

#include <atomic>
#include <cstring>
#include <map>
#include <algorithm>
#include <regex>
#include <thread>

#include "cli_test_util.h"
#include "common/special_files.h"
#include "results/metrics.h"

using nicsim_cli_test::children_of;
using nicsim_cli_test::Cli;
using nicsim_cli_test::data;
using nicsim_cli_test::exists;
using nicsim_cli_test::lines_of;
using nicsim_cli_test::list_dir;
using nicsim_cli_test::slurp;

namespace {

// The scratch-directory fixture, named apart from the non-simulating tests.
class CliSim : public Cli {};

// Splits one CSV line written by nicsim (fields here hold no quotes).
std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> out;
  std::string f;
  std::stringstream ss(line);
  while (std::getline(ss, f, ',')) out.push_back(f);
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

// The CSV text with the column named `drop` removed from every line.
std::string without_column(const std::string &csv, const std::string &drop) {
  std::vector<std::string> lines = lines_of(csv);
  if (lines.empty()) return "";
  std::vector<std::string> head = split(lines[0]);
  size_t col = head.size();
  for (size_t i = 0; i < head.size(); i++)
    if (head[i] == drop) col = i;
  EXPECT_LT(col, head.size()) << "no column " << drop;
  std::string out;
  for (const std::string &l : lines) {
    std::vector<std::string> f = split(l);
    EXPECT_EQ(f.size(), head.size()) << l;
    for (size_t i = 0; i < f.size(); i++) {
      if (i == col) continue;
      out += f[i];
      out += ',';
    }
    out += '\n';
  }
  return out;
}

// Loads a JSON file; fails the test if it does not parse.
json_t *load_json(const std::string &p) {
  json_error_t err;
  json_t *j = json_load_file(p.c_str(), 0, &err);
  EXPECT_NE(j, nullptr) << p << ": " << err.text << " line " << err.line;
  return j;
}

TEST_F(CliSim, RunPrintsTheSummary) {
  auto r = run({"run", data("good.yaml")});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  for (const char *w : {"Scenario   cli-good", "Platform   x86-gen3", "Traffic    rx", "Throughput",
                        "RX rate", "Gbit/s", "CPU", "Utilisation", "PCIe", "Interrupts", "Checks",
                        "sent", "OK", "Simulation", "Simulated time"})
    EXPECT_NE(r.out.find(w), std::string::npos) << w << "\n" << r.out;
  EXPECT_EQ(r.out.find("MISMATCH"), std::string::npos) << r.out;
  std::vector<std::string> err = lines_of(r.err);
  ASSERT_EQ(err.size(), 1u) << "one progress line on stderr:\n" << r.err;
  EXPECT_EQ(err[0].rfind("nicsim: simulating cli-good", 0), 0u) << r.err;

  auto q = run({"run", data("good.yaml"), "-q"});
  ASSERT_EQ(q.status, 0) << NICSIM_SHOW(q);
  EXPECT_EQ(q.err, "") << "-q: nothing on stderr";
}

TEST_F(CliSim, RunTheBuiltInDefault) {
  auto r = run({"run", "--set", "run.duration_us=100", "--set", "run.warmup_us=20", "--set",
                "run.drain_us=200", "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("Scenario   default"), std::string::npos) << r.out;
}

TEST_F(CliSim, RunWritesJsonAndCsvWithEveryMetric) {
  auto r =
      run({"run", data("good.yaml"), "--json", path("out.json"), "--csv", path("out.csv"), "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_t *doc = load_json(path("out.json"));
  ASSERT_NE(doc, nullptr);
  EXPECT_STREQ(json_string_value(json_object_get(doc, "nicsim")), NICSIM_EXPECTED_VERSION);
  json_t *config = json_object_get(doc, "config");
  EXPECT_STREQ(json_string_value(json_object_get(config, "name")), "cli-good");
  EXPECT_EQ(json_real_value(json_object_get(json_object_get(config, "run"), "duration_us")), 100.0);
  EXPECT_STREQ(json_string_value(json_object_get(json_object_get(config, "traffic"), "mode")),
               "rx");
  json_t *metrics = json_object_get(doc, "metrics");
  const nicsim_metric_def *defs = nicsim_metric_defs();
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    json_t *v = json_object_get(metrics, defs[i].name);
    ASSERT_NE(v, nullptr) << "metric " << defs[i].name << " missing";
    if (defs[i].kind == NM_KIND_COUNT)
      EXPECT_TRUE(json_is_integer(v)) << defs[i].name;
    else
      EXPECT_TRUE(json_is_real(v) || json_is_null(v)) << defs[i].name;
  }
  EXPECT_GT(json_real_value(json_object_get(metrics, "rx.gbps")), 0.0);
  EXPECT_GT(json_integer_value(json_object_get(metrics, "rx.pkts")), 0);
  json_decref(doc);

  std::vector<std::string> csv = lines_of(slurp(path("out.csv")));
  ASSERT_EQ(csv.size(), 2u);
  std::vector<std::string> head = split(csv[0]), row = split(csv[1]);
  EXPECT_EQ(head.size(), row.size());
  ASSERT_GE(head.size(), 2u + nicsim_metric_count());
  EXPECT_EQ(head[0], "label");
  EXPECT_EQ(head[1], "bottleneck");
  EXPECT_FALSE(row[1].empty()) << "a verdict in every row";
  EXPECT_EQ(head[2], "rx.gbps");
}

// --trace writes Chrome/Perfetto trace-event JSON: it parses, holds events,
// and within each track (pid, tid) timestamps never go backwards.
TEST_F(CliSim, RunWritesATimelineTrace) {
  auto r = run({"run", data("good.yaml"), "--trace", path("t.json"), "-q"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_t *doc = load_json(path("t.json"));
  ASSERT_NE(doc, nullptr);
  json_t *events = json_is_array(doc) ? doc : json_object_get(doc, "traceEvents");
  ASSERT_TRUE(json_is_array(events));
  size_t n = json_array_size(events), timed = 0;
  EXPECT_GT(n, 10u);
  std::map<std::pair<json_int_t, json_int_t>, double> last;
  std::map<std::string, double> last_counter;
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(events, i);
    json_t *ts = json_object_get(e, "ts");
    if (!json_is_number(ts)) continue;  // metadata events (track names)
    timed++;
    double t = json_number_value(ts);
    const char *ph = json_string_value(json_object_get(e, "ph"));
    if (ph && std::strcmp(ph, "C") == 0) {
      // A counter's track is its (pid, name); the writer draws each in time order.
      const char *name = json_string_value(json_object_get(e, "name"));
      ASSERT_NE(name, nullptr);
      auto it = last_counter.find(name);
      if (it != last_counter.end()) {
        EXPECT_GE(t, it->second) << "counter " << name << " event " << i << " goes back in time";
      }
      last_counter[name] = t;
      continue;
    }
    auto key = std::make_pair(json_integer_value(json_object_get(e, "pid")),
                              json_integer_value(json_object_get(e, "tid")));
    auto it = last.find(key);
    if (it != last.end()) {
      EXPECT_GE(t, it->second) << "event " << i << " goes back in time";
    }
    last[key] = t;
  }
  EXPECT_GT(timed, 10u);
  json_decref(doc);

  // An unwritable trace path is bad input: exit 2, no simulation.
  auto bad = run({"run", data("good.yaml"), "--trace", path("no/such/dir/t.json"), "-q"});
  EXPECT_EQ(bad.status, 2) << NICSIM_SHOW(bad);
}

TEST_F(CliSim, RunAPointOfASweep) {
  auto r = run({"run", data("sweep.yaml"), "--point", "after/nic.desc_spacing=32", "--json",
                path("p.json")});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.out.find("(point after/nic.desc_spacing=32)"), std::string::npos) << r.out;
  json_t *doc = load_json(path("p.json"));
  ASSERT_NE(doc, nullptr);
  json_t *config = json_object_get(doc, "config");
  EXPECT_STREQ(json_string_value(json_object_get(config, "label")), "after/nic.desc_spacing=32");
  EXPECT_EQ(json_integer_value(json_object_get(json_object_get(config, "nic"), "desc_spacing")),
            32);
  EXPECT_EQ(json_integer_value(json_object_get(json_object_get(config, "driver"), "napi_budget")),
            16);
  json_decref(doc);

  // Without --point: the base point, with a note that the sweep is not run.
  r = run({"run", data("sweep.yaml")});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("sweep of 4 points is not run"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("(point "), std::string::npos);
}

TEST_F(CliSim, SweepIsTheSameWhateverTheParallelism) {
  auto r1 = run({"sweep", data("sweep.yaml"), "-j1", "-o", path("j1")});
  ASSERT_EQ(r1.status, 0) << NICSIM_SHOW(r1);
  auto r2 = run({"sweep", data("sweep.yaml"), "--jobs=2"});  // default directory
  ASSERT_EQ(r2.status, 0) << NICSIM_SHOW(r2);
  std::string d2 = path("nicsim-out/cli-sweep");

  std::string csv1 = slurp(path("j1/results.csv")), csv2 = slurp(d2 + "/results.csv");
  ASSERT_EQ(lines_of(csv1).size(), 5u) << csv1;
  EXPECT_EQ(without_column(csv1, "sim.wall_s"), without_column(csv2, "sim.wall_s"));
  std::vector<std::string> head = split(lines_of(csv1)[0]);
  EXPECT_EQ(head[0], "label");
  EXPECT_EQ(head[1], "nic.desc_spacing");
  EXPECT_EQ(head[2], "driver.napi_budget");
  EXPECT_EQ(split(lines_of(csv1)[1])[0], "before/nic.desc_spacing=16");
  EXPECT_EQ(split(lines_of(csv1)[4])[0], "after/nic.desc_spacing=32");

  std::set<std::string> want = {
      "0-before_nic.desc_spacing_16.json", "1-before_nic.desc_spacing_32.json",
      "2-after_nic.desc_spacing_16.json", "3-after_nic.desc_spacing_32.json"};
  EXPECT_EQ(list_dir(path("j1/points")), want);
  EXPECT_EQ(list_dir(d2 + "/points"), want);
  for (const std::string &f : want) {
    json_t *a = load_json(path("j1/points/") + f), *b = load_json(d2 + "/points/" + f);
    ASSERT_TRUE(a && b);
    json_object_del(json_object_get(a, "metrics"), "sim.wall_s");
    json_object_del(json_object_get(b, "metrics"), "sim.wall_s");
    EXPECT_TRUE(json_equal(a, b)) << f;
    json_decref(a);
    json_decref(b);
  }

  // The stdout tables hold no wall time: identical.
  EXPECT_EQ(r1.out, r2.out);
  EXPECT_EQ(lines_of(r1.out).size(), 5u) << r1.out;
  // Progress: one line per point, counted.
  int progress = 0;
  for (const std::string &l : lines_of(r2.err))
    progress += l.rfind("[", 0) == 0 && l.find("/4] ") != std::string::npos;
  EXPECT_EQ(progress, 4) << r2.err;
}

TEST_F(CliSim, RunSimulationErrorExits1) {
  // A dma-bench whose drain is too short for its last reads (a drain too short
  // for a NIC run is extended instead: issue 23, #12).
  auto r = run({"run", data("good.yaml"), "--set", "workload.kind=dma-bench", "--set",
                "pcie.tags=1", "--set", "workload.window_bytes=2097152", "--set",
                "run.drain_us=0.01", "--json", path("out.json")});
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "") << "no summary for a failed run";
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex("nicsim run: simulation error in [a-z.]+ at [0-9.]+ ns: .+")))
      << r.err;
  EXPECT_FALSE(exists(path("out.json")));
}

TEST_F(CliSim, SweepGoesOnAfterFailingPointsAndExits1) {
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--set", "workload.kind=dma-bench",
                "--set", "pcie.tags=1", "--set", "workload.window_bytes=2097152", "--set",
                "run.drain_us=0.01", "-j2"});
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  int failed = 0;
  for (const std::string &l : lines_of(r.err))
    failed += std::regex_search(l, std::regex("^\\[[1-4]/4\\] .*: FAILED: simulation error in "));
  EXPECT_EQ(failed, 4) << r.err;
  EXPECT_NE(r.err.find("4 of 4 points failed"), std::string::npos) << r.err;
  EXPECT_EQ(lines_of(slurp(path("out/results.csv"))).size(), 1u) << "header only";
  // No point file; each failed point's reason in its record, for regress's JUnit.
  const std::set<std::string> files = list_dir(path("out/points"));
  EXPECT_EQ(files.size(), 4u);
  for (const std::string &f : files) {
    ASSERT_GT(f.size(), 6u);
    EXPECT_EQ(f.substr(f.size() - 6), ".error") << f;
    const std::string why = slurp(path("out/points/" + f));
    EXPECT_EQ(why.rfind("simulation error in ", 0), 0u) << f << ": " << why;
    EXPECT_EQ(std::count(why.begin(), why.end(), '\n'), 1) << "one line: " << why;
  }
  EXPECT_EQ(lines_of(r.out).size(), 5u) << r.out;
  EXPECT_NE(lines_of(r.out)[1].find("FAILED"), std::string::npos) << r.out;
}

TEST_F(CliSim, SweepReportsAWorkerKilledByASignal) {
  // A long run (time to kill a worker); over 30 ms the host's backlog in
  // the "after" points outlasts the file's 200 us drain.
  pid_t pid = start({"sweep", data("sweep.yaml"), "-o", path("out"), "-j4", "--set",
                     "run.duration_us=30000", "--set", "run.drain_us=2000"});
  ASSERT_GT(pid, 0);
  // Kill one worker as soon as one shows up (whichever point it runs).
  pid_t victim = -1;
  for (int i = 0; i < 5000 && victim < 0; i++) {
    std::vector<pid_t> kids = children_of(pid);
    if (!kids.empty())
      victim = kids[0];
    else
      usleep(1000);
  }
  ASSERT_GT(victim, 0) << "no worker process appeared";
  kill(victim, SIGKILL);
  auto r = finish(pid);
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  int killed = 0, ok = 0;
  for (const std::string &l : lines_of(r.err)) {
    killed += std::regex_search(
        l, std::regex("^\\[[1-4]/4\\] [a-z]+/nic.desc_spacing=[0-9]+: FAILED: worker process "
                      "killed by signal 9 \\(Killed\\)$"));
    ok += std::regex_search(l, std::regex("^\\[[1-4]/4\\] .*: rx [0-9.]+ Gbit/s"));
  }
  EXPECT_EQ(killed, 1) << r.err;
  EXPECT_EQ(ok, 3) << r.err;
  EXPECT_EQ(lines_of(slurp(path("out/results.csv"))).size(), 4u) << "the other 3 points ran";
  // Three point files and the killed point's failure record.
  const std::set<std::string> files = list_dir(path("out/points"));
  EXPECT_EQ(files.size(), 4u);
  EXPECT_EQ(std::count_if(files.begin(), files.end(),
                          [](const std::string &f) { return f.find(".error") != std::string::npos; }),
            1);
}

// --json/--csv replace a symlink (never writing through it: the file it
// named stays as it was) and write into a FIFO in place (the FIFO stays a
// FIFO); a directory or socket is bad input.
TEST_F(CliSim, RunReplacesSymlinksAndWritesIntoFifos) {
  ASSERT_EQ(mkdir(path("real").c_str(), 0700), 0);
  ASSERT_EQ(symlink("real/out.csv", path("link.csv").c_str()), 0);
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  // The read end is opened first and never blocks: nothing hangs if nicsim
  // does not write into the FIFO.
  int fd = open(path("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  std::atomic<bool> done{false};
  std::string got;
  std::thread reader([&] {
    char buf[4096];
    for (;;) {
      bool last = done;
      ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0) got.append(buf, static_cast<size_t>(n));
      else if (last) break;
      else usleep(1000);
    }
  });
  auto r = run({"run", data("good.yaml"), "-q", "--json", path("fifo"), "--csv", path("link.csv")});
  done = true;
  reader.join();
  close(fd);
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  json_t *doc = json_loads(got.c_str(), 0, nullptr);
  EXPECT_NE(doc, nullptr) << got;
  json_decref(doc);
  struct stat st;
  ASSERT_EQ(lstat(path("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced by a file";
  ASSERT_EQ(lstat(path("link.csv").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode)) << "the symlink was written through";
  EXPECT_EQ(lines_of(slurp(path("link.csv"))).size(), 2u);
  EXPECT_FALSE(exists(path("real/out.csv")));

  ASSERT_TRUE(nicsim_test::make_socket_file(path("sock")));
  auto k = run({"run", data("good.yaml"), "--json", path("sock")});
  EXPECT_EQ(k.status, 2) << NICSIM_SHOW(k);
  EXPECT_NE(k.err.find("is neither a regular file, a FIFO nor a character device"),
            std::string::npos)
      << k.err;
  EXPECT_EQ(k.err.find("simulating"), std::string::npos) << "checked before simulating";
  ASSERT_EQ(lstat(path("sock").c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  auto d = run({"run", data("good.yaml"), "--csv", path("real")});
  EXPECT_EQ(d.status, 2) << NICSIM_SHOW(d);
  EXPECT_NE(d.err.find("Is a directory"), std::string::npos) << d.err;
}

// Outputs that cannot be written, or that name one file twice, are bad input
// found before anything is simulated.
TEST_F(CliSim, RunRefusesUnwritableOrCollidingOutputsBeforeSimulating) {
  std::ofstream(path("file")) << "keep\n";
  auto a = run({"run", data("good.yaml"), "--json", path("file/out.json")});
  EXPECT_EQ(a.status, 2) << NICSIM_SHOW(a);
  EXPECT_NE(a.err.find(path("file") + " is not a directory"), std::string::npos) << a.err;
  EXPECT_EQ(a.err.find("simulating"), std::string::npos) << a.err;
  auto b = run({"run", data("good.yaml"), "--csv", path("missing/out.csv")});
  EXPECT_EQ(b.status, 2) << NICSIM_SHOW(b);
  EXPECT_NE(b.err.find("directory " + path("missing") + ": No such file or directory"),
            std::string::npos)
      << b.err;
  EXPECT_EQ(b.err.find("simulating"), std::string::npos) << b.err;
  // One file for both, by name or through a symlink.
  auto c = run({"run", data("good.yaml"), "--json", path("x"), "--csv", path("x")});
  EXPECT_EQ(c.status, 2) << NICSIM_SHOW(c);
  EXPECT_NE(c.err.find("--json and --csv name the same file (" + path("x") + ")"),
            std::string::npos)
      << c.err;
  // A dangling symlink to the other output is replaced, never written
  // through: two files, nothing overwritten.
  ASSERT_EQ(symlink("x", path("y").c_str()), 0);
  auto d = run({"run", data("good.yaml"), "-q", "--csv", path("y"), "--json", path("x")});
  EXPECT_EQ(d.status, 0) << NICSIM_SHOW(d);
  struct stat yst;
  ASSERT_EQ(lstat(path("y").c_str(), &yst), 0);
  EXPECT_TRUE(S_ISREG(yst.st_mode));
  EXPECT_EQ(slurp(path("y")).rfind("label,", 0), 0u) << "y holds the CSV";
  EXPECT_EQ(slurp(path("x")).find("{"), 0u) << "x holds the JSON";
  // A live one names one file (by identity): refused.
  ASSERT_EQ(unlink(path("y").c_str()), 0);
  ASSERT_EQ(symlink("x", path("y").c_str()), 0);
  auto d3 = run({"run", data("good.yaml"), "--csv", path("y"), "--json", path("x")});
  EXPECT_EQ(d3.status, 2) << NICSIM_SHOW(d3);
  EXPECT_NE(d3.err.find("name the same file"), std::string::npos) << d3.err;
  EXPECT_EQ(d3.err.find("simulating"), std::string::npos) << d3.err;
  ASSERT_EQ(unlink(path("x").c_str()), 0);
  ASSERT_EQ(unlink(path("y").c_str()), 0);
  auto e = run({"run", data("good.yaml"), "--csv", path("x"), "--json", dir_ + "/./x"});
  EXPECT_EQ(e.status, 2) << NICSIM_SHOW(e);
  EXPECT_NE(e.err.find("name the same file"), std::string::npos) << e.err;
  EXPECT_FALSE(exists(path("x")));
  // The same character device twice loses nothing, so it passes the check;
  // the missing scenario then stops the run before anything is written
  // (the real /dev/null is never written by the tests).
  auto n = run({"run", path("missing.yaml"), "--json", "/dev/null", "--csv", "/dev/null"});
  EXPECT_EQ(n.status, 2) << NICSIM_SHOW(n);
  EXPECT_EQ(n.err.find("same file"), std::string::npos) << n.err;
  EXPECT_NE(n.err.find("missing.yaml"), std::string::npos) << n.err;
  EXPECT_EQ(slurp(path("file")), "keep\n");
}

// A directory the user may not write: refused up front. Root may write
// anywhere, so this needs an unprivileged user.
TEST_F(CliSim, RunRefusesAnUnwritableDirectoryBeforeSimulating) {
  if (geteuid() == 0) GTEST_SKIP() << "root bypasses directory permissions";
  ASSERT_EQ(mkdir(path("ro").c_str(), 0555), 0);
  auto r = run({"run", data("good.yaml"), "--json", path("ro/out.json")});
  chmod(path("ro").c_str(), 0700);
  EXPECT_EQ(r.status, 2) << NICSIM_SHOW(r);
  EXPECT_NE(r.err.find("directory " + path("ro") + ": Permission denied"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("simulating"), std::string::npos) << r.err;
}

}  // namespace
