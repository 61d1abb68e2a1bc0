// test_iommu_modes.cpp: iommu.mode off / strict / lazy on whole runs (the
// default x86 platform, generic driver, one core, 64 B TX as fast as the core
// sends: CPU-bound). Strict waits for one invalidation sync per unmap, each
// as long as the queue's mechanism says; lazy flushes the domain once per
// full flush queue (or on its timer), so its invalidation wait per frame is
// far lower and its packet rate at least strict's; off has none. Each TEST
// is one or more simulation runs in child processes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

/* 64 B frames, the socket sender at the line (14.88 Mpps, more than one core
 * sends), 1 ms; the generic driver maps and unmaps every TX frame. */
nicsim_results tx64(std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(checked_config({"traffic.mode=tx", "traffic.frame_bytes=64", "run.duration_us=1000",
                                           "run.warmup_us=200"},
                                          sets),
                           &r));
  return r;
}

/* The profile share of fn, 0 if the run charged it nothing (no metric). */
double profile(const nicsim_results &r, const char *fn) {
  double v = 0;
  const std::string name = std::string("cpu.profile.") + fn;
  return nicsim_results_get(&r, name.c_str(), &v) ? v : 0;
}

}  // namespace

TEST(IommuModes, LazyCutsTheInvalidationWaitAndOffHasNone) {
  const nicsim_results off = tx64({});
  const nicsim_results strict = tx64({"iommu.mode=strict"});
  const nicsim_results lazy = tx64({"iommu.mode=lazy"});
  for (const nicsim_results *r : {&off, &strict, &lazy}) expect_conservation(*r);
  std::printf("64 B TX, one core: off %.3f Mpps; strict %.3f Mpps, %.1f ns invalidation wait per frame; "
              "lazy %.3f Mpps, %.2f ns per frame\n",
              metric(off, "tx.mpps"), metric(strict, "tx.mpps"), metric(strict, "iommu.inv_wait_ns_per_pkt"),
              metric(lazy, "tx.mpps"), metric(lazy, "iommu.inv_wait_ns_per_pkt"));

  /* Off: no mappings, no invalidations, no wait. */
  EXPECT_EQ(metric(off, "iommu.maps"), 0);
  EXPECT_EQ(metric(off, "iommu.inv_syncs"), 0);
  EXPECT_EQ(metric(off, "iommu.inv_wait_us"), 0);

  /* Strict: one VT-d page-selective invalidation and one wait per unmap (a
   * 64 B frame lies in one page). Both are counted in the same call, by the
   * core's time: an unmap at the window's end may have its sync after it. */
  const double unmaps = metric(strict, "iommu.unmaps");
  ASSERT_GT(unmaps, 100);
  /* Each frame sent is mapped once and unmapped at its TX completion: the
   * window's unmaps are its frames, give or take the completions in flight
   * at its two edges. */
  EXPECT_NEAR(unmaps, metric(strict, "tx.pkts"), 0.05 * metric(strict, "tx.pkts"));
  EXPECT_NEAR(metric(strict, "iommu.inv_syncs"), unmaps, 1);
  EXPECT_EQ(metric(strict, "iommu.inv_cmds"), metric(strict, "iommu.inv_syncs"));
  EXPECT_EQ(metric(strict, "iommu.fq_flushes_full") + metric(strict, "iommu.fq_flushes_timer"), 0);
  EXPECT_GT(profile(strict, "qi_submit_sync"), 0) << "the spin shows where perf would show it";

  /* Lazy: a flush when the one CPU's queue holds fq_size - 1 = 255 unmaps,
   * no timer flush (the 10 ms timer never expires in a 1 ms run). */
  const double lunmaps = metric(lazy, "iommu.unmaps");
  EXPECT_NEAR(metric(lazy, "iommu.fq_flushes_full"), lunmaps / 255, 1);
  EXPECT_EQ(metric(lazy, "iommu.fq_flushes_timer"), 0);
  EXPECT_EQ(metric(lazy, "iommu.inv_syncs"), metric(lazy, "iommu.fq_flushes_full"));

  /* The direction: lazy waits far less per frame and sends at least as fast. */
  EXPECT_GT(metric(strict, "iommu.inv_wait_ns_per_pkt"), 0);
  EXPECT_LT(metric(lazy, "iommu.inv_wait_ns_per_pkt"), metric(strict, "iommu.inv_wait_ns_per_pkt") / 50);
  EXPECT_GE(metric(lazy, "tx.mpps"), metric(strict, "tx.mpps"));
  EXPECT_GT(metric(off, "tx.mpps"), metric(strict, "tx.mpps")) << "map and unmap cost cycles too";
}

TEST(IommuModes, AStrictSyncWaitsForTheQueuesFetchCommandSyncAndThePoll) {
  /* One core, no DRAM bandwidth limit, so the queue is idle at each
   * submission: the wait is the IOMMU's fetch of the entries (one DRAM
   * read), the command, the sync, and the core's poll missing on the status
   * line (another DRAM latency). */
  const nicsim_results r = tx64({"iommu.mode=strict", "iommu.inv_cmd_ns=400", "iommu.inv_sync_ns=900",
                                 "memory.dram_latency_ns=80", "cpu.clock_mhz=2000"});
  const double syncs = metric(r, "iommu.inv_syncs");
  ASSERT_GT(syncs, 100);
  const double per_sync_ns = metric(r, "iommu.inv_wait_us") * 1000 / syncs;
  EXPECT_NEAR(per_sync_ns, 400 + 900 + 2 * 80, 1e-6);
  /* The wait is busy time in qi_submit_sync, with the commands' writes and the doorbell. */
  const double busy = metric(r, "cpu.busy_cycles");
  const double ghz = 2.0; /* cpu.clock_mhz */
  const double wait_cycles = metric(r, "iommu.inv_wait_us") * 1000 * ghz;
  EXPECT_GE(profile(r, "qi_submit_sync") * busy, wait_cycles * 0.99);
}

TEST(IommuModes, Smmuv3InvalidatesEachPageAndSpinsInTheCommandQueue) {
  /* 1518 B frames: a buffer that crosses a page boundary takes two
   * CMD_TLBI_NH_VA (no range invalidation), one CMD_SYNC per unmap. */
  nicsim_results r;
  ASSERT_TRUE(run_in_child(checked_config({"traffic.mode=tx", "traffic.frame_bytes=1518", "run.duration_us=1000",
                                           "run.warmup_us=200", "iommu.mode=strict", "iommu.kind=smmuv3"},
                                          {}),
                           &r));
  const double syncs = metric(r, "iommu.inv_syncs");
  ASSERT_GT(syncs, 100);
  EXPECT_GE(metric(r, "iommu.inv_cmds"), syncs);
  EXPECT_LE(metric(r, "iommu.inv_cmds"), 2 * syncs);
  EXPECT_GT(profile(r, "arm_smmu_cmdq_issue_cmdlist"), 0);
  EXPECT_EQ(profile(r, "qi_submit_sync"), 0);
}

TEST(IommuModes, LazyTimerFlushesALightLoad) {
  /* 0.05 Gbit/s of 1518 B frames (4 kframes/s, one per 250 us) with a 50 us
   * timer: the queue never fills; each unmap after a flush arms the timer,
   * which flushes 50 us later. */
  nicsim_results r;
  ASSERT_TRUE(run_in_child(checked_config({"traffic.mode=tx", "traffic.frame_bytes=1518", "traffic.rate_gbps=0.05",
                                           "run.duration_us=3000", "run.warmup_us=500", "iommu.mode=lazy",
                                           "iommu.fq_timeout_ms=0.05"},
                                          {}),
                           &r));
  EXPECT_EQ(metric(r, "iommu.fq_flushes_full"), 0);
  const double timer = metric(r, "iommu.fq_flushes_timer");
  EXPECT_GT(timer, 0);
  /* At most one flush per timeout in the 2500 us window. */
  EXPECT_LE(timer, 2500 / 50 + 1);
  EXPECT_EQ(metric(r, "iommu.inv_syncs"), timer);
  expect_conservation(r);
}
