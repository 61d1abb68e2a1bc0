// test_bottleneck.cpp: the bottleneck analysis of a run (docs/analysis.md)
// names the resource that limits throughput, one small scenario per class,
// in the JSON's "analysis" object, the summary's "Bottleneck" line and the
// CSV's bottleneck column. Each test runs nicsim in its own process.
#include <jansson.h>

#include "cli_test_util.h"

using nicsim_cli_test::Cli;
using nicsim_cli_test::lines_of;
using nicsim_cli_test::slurp;

namespace {

class Bottleneck : public Cli {
 protected:
  // The "analysis" object of out.json after a successful run; checks that
  // the summary line names the same resource's title.
  std::string verdict(const nicsim_cli_test::Result &r, double *util = nullptr) {
    EXPECT_EQ(r.status, 0) << NICSIM_SHOW(r);
    json_error_t e;
    json_t *j = json_load_file(path("out.json").c_str(), 0, &e);
    EXPECT_NE(j, nullptr) << e.text;
    if (!j) return "";
    json_t *a = json_object_get(j, "analysis");
    EXPECT_TRUE(json_is_object(a)) << "no analysis object";
    std::string b = json_string_value(json_object_get(a, "bottleneck")) ?: "";
    json_t *u = json_object_get(json_object_get(a, "utilisation"), b.c_str());
    if (util) *util = json_is_real(u) ? json_real_value(u) : -1;
    json_decref(j);
    EXPECT_NE(r.out.find("Bottleneck "), std::string::npos) << r.out;
    return b;
  }
};

#define SHORT "--set", "run.duration_us=700", "--set", "run.warmup_us=200"

TEST_F(Bottleneck, LineRateRxIsTheWire) {
  auto r = run({"run", "-q", SHORT, "--json", "out.json"});
  double u = 0;
  EXPECT_EQ(verdict(r, &u), "wire.rx");
  EXPECT_GE(u, 0.95);
  EXPECT_NE(r.out.find("Bottleneck wire RX"), std::string::npos) << r.out;
}

TEST_F(Bottleneck, OneLaneIsPcieUp) {
  auto r = run({"run", "-q", SHORT, "--set", "pcie.lanes=1", "--json", "out.json"});
  EXPECT_EQ(verdict(r), "pcie.up");
}

TEST_F(Bottleneck, SmallFramesAreTheCore) {
  auto r = run({"run", "-q", SHORT, "--set", "traffic.frame_bytes=64", "--json", "out.json"});
  EXPECT_EQ(verdict(r), "cpu.core0");
  // The core's time is split by kind of work, and the ring it leaves empty trails.
  std::string line = r.out.substr(r.out.find("Bottleneck "), 120);
  EXPECT_EQ(line.rfind("Bottleneck core 0 100 % (", 0), 0u) << line;
  EXPECT_NE(line.find("softirq"), std::string::npos) << line;
  EXPECT_NE(r.out.find("next: RX ring (empty)"), std::string::npos) << r.out;
}

TEST_F(Bottleneck, ASerialisingRootComplexIsPcieRc) {
  auto r = run({"run", "-q", NICSIM_SEEDS "/i40e-relaxed-ordering.yaml", "--point", "before/sparc",
                "--json", "out.json"});
  EXPECT_EQ(verdict(r), "pcie.rc");
  // Relaxed ordering lifts it: the core limits then.
  auto r2 = run({"run", "-q", NICSIM_SEEDS "/i40e-relaxed-ordering.yaml", "--point", "after/sparc",
                 "--json", "out.json"});
  EXPECT_EQ(verdict(r2), "cpu.core0");
}

TEST_F(Bottleneck, AShortRingWithSlowInterruptsIsTheRxRing) {
  auto r = run({"run", "-q", SHORT, "--set", "nic.rx_ring_size=16", "--set", "nic.irq_coal_usecs=100",
                "--json", "out.json"});
  EXPECT_EQ(verdict(r), "ring.rx");
}

TEST_F(Bottleneck, OneTagIsPcieTags) {
  auto r = run({"run", "-q", SHORT, "--set", "traffic.mode=tx", "--set", "pcie.tags=1", "--json",
                "out.json"});
  EXPECT_EQ(verdict(r), "pcie.tags");
}

TEST_F(Bottleneck, ABigKernelLockIsTheLock) {
  auto r = run({"run", "-q", SHORT, "--set", "traffic.frame_bytes=64", "--set", "traffic.mode=bidir",
                "--set", "cpu.cores=2", "--set", "cpu.app_core=1", "--set", "cpu.locking=big",
                "--json", "out.json"});
  EXPECT_EQ(verdict(r), "cpu.lock");
}

TEST_F(Bottleneck, BelowLineRateNothingIsSaturated) {
  auto r = run({"run", "-q", SHORT, "--set", "traffic.rate_gbps=2", "--json", "out.json"});
  EXPECT_EQ(verdict(r), "none");
  EXPECT_NE(r.out.find("Bottleneck none saturated; highest: "), std::string::npos) << r.out;
}

TEST_F(Bottleneck, TheCsvHasTheVerdictAfterTheKeys) {
  auto r = run({"run", "-q", SHORT, "--set", "pcie.lanes=1", "--csv", "out.csv"});
  ASSERT_EQ(r.status, 0) << NICSIM_SHOW(r);
  std::vector<std::string> l = lines_of(slurp(path("out.csv")));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].rfind("label,bottleneck,", 0), 0u) << l[0];
  EXPECT_EQ(l[1].rfind(",pcie.up,", 0), 0u) << l[1];
}

}  // namespace
