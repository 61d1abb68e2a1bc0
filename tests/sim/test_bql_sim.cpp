// test_bql_sim.cpp: byte queue limits (driver.bql) in whole runs. stmmac
// with an interrupt per TX frame keeps the wire busy with a limit of about
// two frames; with 25 frames per interrupt and the 1 ms coalescing timer as
// the only other completion, BQL starves the queue (limit 0 at start, grown
// only by what each timer round completed), which stmmac's TBU interrupt
// (the seed's patch 3, driver.stmmac_tbu) prevents, at the price of an
// interrupt whenever the ring drains. mvneta and i40e keep
// BQL's bytes in flight equal to their rings' (their end-of-run checks).
#include <gtest/gtest.h>

#include <initializer_list>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

constexpr double kFrame = 1514; /* skb->len of a 1518 B frame */

/* stmmac at 1 GbE, an unpaced UDP sender (netperf's socket), plus overrides. */
nicsim_results stmmac_tx(std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(nicsim::test::checked_config(
                               {"nic.family=stmmac", "driver.name=stmmac", "nic.line_rate_gbps=1", "traffic.mode=tx",
                                "traffic.protocol=udp", "traffic.sndbuf_bytes=212992", "traffic.frame_bytes=1518",
                                "run.duration_us=2000", "run.warmup_us=200", "run.drain_us=4000"},
                               sets),
                           &r));
  expect_conservation(r);
  return r;
}

}  // namespace

TEST(StmmacBql, AnInterruptPerFrameKeepsTheLineFullWithALimitOfAFewFrames) {
  nicsim_results r = stmmac_tx({"driver.tx_coal_frames=1", "driver.bql=true"});
  EXPECT_GT(metric(r, "tx.gbps"), 0.98);
  EXPECT_GT(metric(r, "tx.bql_stops"), 0.0) << "the limit is reached between completions";
  EXPECT_GE(metric(r, "tx.bql_limit_max"), kFrame);
  EXPECT_LE(metric(r, "tx.bql_limit_max"), 4 * kFrame) << "completions come every frame: a small limit suffices";
}

TEST(StmmacBql, CoalescedCompletionsStarveTheQueueUntilTheTimerFires) {
  nicsim_results off = stmmac_tx({"driver.tx_coal_frames=25", "driver.bql=false"});
  EXPECT_GT(metric(off, "tx.gbps"), 0.98) << "without BQL the socket and the 512-entry ring keep the wire busy";
  EXPECT_EQ(metric(off, "tx.bql_stops"), 0.0);
  nicsim_results on = stmmac_tx({"driver.tx_coal_frames=25", "driver.bql=true"});
  EXPECT_LT(metric(on, "tx.gbps"), 0.1) << "each 1 ms timer round lets only the frames the limit has grown to";
  EXPECT_LT(metric(on, "tx.bql_limit_max"), 25 * kFrame) << "never enough for an IOC within 2 ms";
}

// The TBU interrupt (driver.stmmac_tbu, the seed's patch 3): the DMA
// interrupts when it has sent everything it was given, so a queue BQL
// stopped is cleaned at once, not at the timer: line rate again.
TEST(StmmacBql, TheTbuInterruptCleansAQueueBqlStoppedAtOnce) {
  nicsim_results r = stmmac_tx({"driver.tx_coal_frames=25", "driver.bql=true", "driver.stmmac_tbu=true"});
  EXPECT_GT(metric(r, "tx.gbps"), 0.98);
  EXPECT_GT(metric(r, "tx.bql_stops"), 0.0);
}

// TBU's cost: a sender slower than the wire drains the ring after every
// frame, and each drain is an interrupt that coalescing would have saved.
TEST(StmmacTbu, ASlowSenderTakesAnInterruptPerFrame) {
  nicsim_results off = stmmac_tx({"traffic.sndbuf_bytes=0", "traffic.rate_gbps=0.5", "driver.tx_coal_frames=25"});
  nicsim_results on = stmmac_tx(
      {"traffic.sndbuf_bytes=0", "traffic.rate_gbps=0.5", "driver.tx_coal_frames=25", "driver.stmmac_tbu=true"});
  const double frames = metric(on, "tx.pkts");
  ASSERT_GT(frames, 50.0);
  EXPECT_EQ(metric(off, "tx.pkts"), frames);
  EXPECT_LT(metric(off, "irq.count"), frames / 10) << "without TBU: an IOC per 25 frames and the timer";
  EXPECT_GE(metric(on, "irq.count"), 0.9 * frames) << "with TBU: the ring drains after every frame";
}

TEST(BqlDrivers, MvnetaAndI40eKeepBqlsBytesInFlightEqualToTheirRings) {
  nicsim_results mv;
  ASSERT_TRUE(run_in_child(nicsim::test::checked_config(
                               {"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32", "nic.line_rate_gbps=1",
                                "traffic.mode=tx", "driver.bql=true", "run.duration_us=2000", "run.drain_us=4000"},
                               {}),
                           &mv));
  expect_conservation(mv);
  EXPECT_GT(metric(mv, "tx.bql_limit_max"), 0.0);
  nicsim_results i40e;
  ASSERT_TRUE(run_in_child(nicsim::test::checked_config(
                               {"nic.family=i40e", "driver.name=i40e", "nic.tx_queues=2", "nic.rx_queues=2",
                                "traffic.mode=bidir", "traffic.protocol=tcp", "traffic.flows=4", "driver.bql=true",
                                "run.duration_us=1000"},
                               {}),
                           &i40e));
  expect_conservation(i40e);
  EXPECT_GT(metric(i40e, "tx.bql_limit_max"), 0.0);
  EXPECT_GT(metric(i40e, "tx.gbps"), 1.0);
}
