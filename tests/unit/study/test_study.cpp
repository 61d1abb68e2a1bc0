// test_study.cpp: the study library's C API (src/study/study.h) called
// directly, as an embedding program calls it: a sweep into its directory,
// a merge and a report of it, a regression suite recorded and then compared,
// the speed benchmark's workload list, and bad input refused with
// NICSIM_STUDY_BAD_INPUT. The points simulate in child processes, as in
// `nicsim sweep`; this process never starts SystemC.
#include <fstream>
#include <string>

#include "cli/cli_test_util.h"
#include "study/study.h"

using nicsim_cli_test::data;
using nicsim_cli_test::exists;
using nicsim_cli_test::lines_of;
using nicsim_cli_test::list_dir;
using nicsim_cli_test::slurp;

namespace {

// Each test in a scratch directory of its own (the current directory),
// removed afterwards; path(NAME) is a file in it.
class Study : public nicsim_cli_test::Cli {};

TEST_F(Study, BenchWorkloadsAreListedInOrder) {
  EXPECT_STREQ(nicsim_study_bench_workload(0), "rx64-10g");
  EXPECT_STREQ(nicsim_study_bench_workload(1), "bidir1500");
  EXPECT_STREQ(nicsim_study_bench_workload(2), "lan743x");
  EXPECT_STREQ(nicsim_study_bench_workload(3), "i40e");
  EXPECT_EQ(nicsim_study_bench_workload(4), nullptr);
}

TEST_F(Study, SweepMergeAndReportThroughTheApi) {
  const std::string spec = data("sweep-spec.yaml"), out = path("sweep"), all = path("all");
  struct nicsim_sweep_opts o;
  char used[4096] = "x";

  memset(&o, 0, sizeof(o));
  o.path = spec.c_str();
  o.outdir = out.c_str();
  o.jobs = 2;
  o.quiet = true;
  o.no_table = true;
  ASSERT_EQ(nicsim_study_sweep(&o, used, sizeof(used)), NICSIM_STUDY_OK);
  EXPECT_EQ(std::string(used), out);
  EXPECT_TRUE(exists(out + "/sweep.json"));
  EXPECT_EQ(list_dir(out + "/points").size(), 8u);
  std::string csv = slurp(out + "/results.csv");
  EXPECT_EQ(lines_of(csv).size(), 9u) << csv;  // the header and the 8 points

  const char *dirs[] = {out.c_str()};
  ASSERT_EQ(nicsim_study_merge(dirs, 1, all.c_str(), true), NICSIM_STUDY_OK);
  EXPECT_EQ(slurp(all + "/results.csv"), csv);
  EXPECT_EQ(list_dir(all + "/points").size(), 8u);

  ASSERT_EQ(nicsim_study_report(nullptr, all.c_str(), nullptr, false, true), NICSIM_STUDY_OK);
  EXPECT_NE(slurp(all + "/report.md").find("# Sweep report: cli-sweep-spec"), std::string::npos);
  EXPECT_NE(slurp(all + "/report.html").find("<h1>Sweep report: cli-sweep-spec</h1>"),
            std::string::npos);
}

TEST_F(Study, DryRunWritesNothing) {
  const std::string spec = data("sweep-spec.yaml"), out = path("dry");
  const char *sets[] = {"nic.desc_spacing=32"};
  struct nicsim_sweep_opts o;

  memset(&o, 0, sizeof(o));
  o.path = spec.c_str();
  o.outdir = out.c_str();
  o.sets = sets;
  o.nsets = 1;
  o.dry_run = true;
  o.shard_k = 2;
  o.shard_n = 3;
  EXPECT_EQ(nicsim_study_sweep(&o, nullptr, 0), NICSIM_STUDY_OK);
  EXPECT_FALSE(exists(out));
}

TEST_F(Study, RegressRecordsBaselinesThenPasses) {
  const std::string suite = path("suite.yaml"), out = path("out"), junit = path("junit.xml");
  std::ofstream(suite) << "name: api\n"
                          "entries:\n"
                          "  - name: one\n"
                          "    scenario: " << data("good.yaml") << "\n"
                          "    set: {run.duration_us: 100, run.warmup_us: 20}\n"
                          "    metrics:\n"
                          "      rx.pkts: exact\n"
                          "      cpu.util: {abs: 0.005}\n";
  struct nicsim_regress_opts o;

  memset(&o, 0, sizeof(o));
  o.suite = suite.c_str();
  o.outdir = out.c_str();
  o.jobs = 1;
  o.quiet = true;
  EXPECT_EQ(nicsim_study_regress(&o), NICSIM_STUDY_BAD_INPUT);  // no baseline yet
  o.update = true;
  ASSERT_EQ(nicsim_study_regress(&o), NICSIM_STUDY_OK);
  EXPECT_NE(slurp(path("baselines/one.json")).find("\"rx.pkts\""), std::string::npos);
  o.update = false;
  o.junit = junit.c_str();
  ASSERT_EQ(nicsim_study_regress(&o), NICSIM_STUDY_OK);
  EXPECT_NE(slurp(junit).find("failures=\"0\""), std::string::npos) << slurp(junit);
}

TEST_F(Study, BadInputIsRefused) {
  const std::string good = data("good.yaml"), nowhere = path("nowhere");
  struct nicsim_sweep_opts s;
  struct nicsim_regress_opts r;
  struct nicsim_bench_opts b;
  const char *dirs[] = {nowhere.c_str()}, *unknown[] = {"rx65-10g"};

  memset(&s, 0, sizeof(s));
  s.path = good.c_str();  // a scenario without a sweep
  s.outdir = nowhere.c_str();
  EXPECT_EQ(nicsim_study_sweep(&s, nullptr, 0), NICSIM_STUDY_BAD_INPUT);
  EXPECT_EQ(nicsim_study_merge(dirs, 0, nullptr, true), NICSIM_STUDY_BAD_INPUT);
  EXPECT_EQ(nicsim_study_merge(dirs, 1, nullptr, true), NICSIM_STUDY_BAD_INPUT);
  EXPECT_EQ(nicsim_study_plot(nullptr, nowhere.c_str(), true), NICSIM_STUDY_BAD_INPUT);
  EXPECT_EQ(nicsim_study_report(nullptr, nowhere.c_str(), nullptr, true, true),
            NICSIM_STUDY_BAD_INPUT);
  memset(&r, 0, sizeof(r));
  r.suite = nowhere.c_str();
  EXPECT_EQ(nicsim_study_regress(&r), NICSIM_STUDY_BAD_INPUT);
  memset(&b, 0, sizeof(b));
  b.workloads = unknown;
  b.nworkloads = 1;
  EXPECT_EQ(nicsim_study_bench(&b), NICSIM_STUDY_BAD_INPUT);
  EXPECT_FALSE(exists(nowhere));
}

}  // namespace
