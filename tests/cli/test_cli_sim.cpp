// test_cli_sim.cpp: nicsim commands that simulate: run's summary, JSON and CSV;
// sweep results identical whatever -j (sim.wall_s aside); failing points.
#include <jansson.h>
#include <signal.h>

#include <map>
#include <regex>

#include "cli_test_util.h"
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
  for (int i = 0; i < NM__COUNT; i++) {
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
  ASSERT_GE(head.size(), 1u + NM__COUNT);
  EXPECT_EQ(head[0], "label");
  EXPECT_EQ(head[1], "rx.gbps");
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
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(events, i);
    json_t *ts = json_object_get(e, "ts");
    if (!json_is_number(ts)) continue;  // metadata events (track names)
    timed++;
    auto key = std::make_pair(json_integer_value(json_object_get(e, "pid")),
                              json_integer_value(json_object_get(e, "tid")));
    double t = json_number_value(ts);
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
  // No drain: frames still in flight at the end violate conservation.
  auto r = run({"run", data("good.yaml"), "--set", "run.drain_us=0", "--json", path("out.json")});
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  EXPECT_EQ(r.out, "") << "no summary for a failed run";
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex("nicsim run: simulation error in [a-z.]+ at [0-9.]+ ns: .+")))
      << r.err;
  EXPECT_FALSE(exists(path("out.json")));
}

TEST_F(CliSim, SweepGoesOnAfterFailingPointsAndExits1) {
  auto r = run({"sweep", data("sweep.yaml"), "-o", path("out"), "--set", "run.drain_us=0", "-j2"});
  EXPECT_EQ(r.status, 1) << NICSIM_SHOW(r);
  int failed = 0;
  for (const std::string &l : lines_of(r.err))
    failed += std::regex_search(l, std::regex("^\\[[1-4]/4\\] .*: FAILED: simulation error in "));
  EXPECT_EQ(failed, 4) << r.err;
  EXPECT_NE(r.err.find("4 of 4 points failed"), std::string::npos) << r.err;
  EXPECT_EQ(lines_of(slurp(path("out/results.csv"))).size(), 1u) << "header only";
  EXPECT_TRUE(list_dir(path("out/points")).empty());
  EXPECT_EQ(lines_of(r.out).size(), 5u) << r.out;
  EXPECT_NE(lines_of(r.out)[1].find("FAILED"), std::string::npos) << r.out;
}

TEST_F(CliSim, SweepReportsAWorkerKilledByASignal) {
  pid_t pid = start({"sweep", data("sweep.yaml"), "-o", path("out"), "-j4", "--set",
                     "run.duration_us=30000"});
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
  EXPECT_EQ(list_dir(path("out/points")).size(), 3u);
}

}  // namespace
