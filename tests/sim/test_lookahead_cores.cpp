// test_lookahead_cores.cpp: run.lookahead changes no result with several
// cores under cpu.locking txq, where the cores' shared skb pool follows the
// order the kernel resumes them and acting ahead would change that order for
// cores due at the same time (docs/nic.md, "Lookahead"): the stress draw
// that found it (2 cores, txq, IOMMU on, so buffer addresses decide IOTLB
// hits) gives the same metrics with lookahead on and off.
#include <gtest/gtest.h>

#include "config/config.h"
#include "sim_run_util.h"

namespace {

/* The stress draw on the x86-gen3 platform, with lookahead on or off. */
nicsim_config stress_draw(const char *lookahead) {
  nc_scenario *s = nullptr;
  nc_error e;
  nicsim_config c;
  EXPECT_EQ(nc_scenario_load_string("t.yaml", "name: t\nplatform: x86-gen3\n", &s, &e), 0) << e.msg;
  const char *sets[] = {"cpu.cores=2",          "cpu.locking=txq",      "cpu.irq_affinity=core0",
                        "traffic.flows=10",     "traffic.mode=bidir",   "traffic.protocol=udp",
                        "traffic.frame_bytes=512", "iommu.enabled=true", "run.duration_us=2000",
                        "run.warmup_us=100",    "run.drain_us=20000",   "run.seed=69",
                        lookahead};
  EXPECT_EQ(nc_scenario_resolve(s, -1, sets, sizeof sets / sizeof sets[0], &c, &e), 0) << e.msg;
  nc_scenario_free(s);
  return c;
}

}  // namespace

TEST(LookaheadCores, TxqLockingOnTwoCoresGivesTheSameResultsWithAndWithout) {
  nicsim_results on, off;
  ASSERT_TRUE(nicsim::test::run_in_child(stress_draw("run.lookahead=true"), &on));
  ASSERT_TRUE(nicsim::test::run_in_child(stress_draw("run.lookahead=false"), &off));
  EXPECT_GT(nicsim::test::metric(on, "iommu.iotlb_misses"), 0.0);
  nicsim::test::expect_same_metrics(on, off);
}
