// test_sndbuf.cpp: the host's UDP sender. With a socket send buffer
// (traffic.sndbuf_bytes), unpaced, it keeps at most the buffer's worth of
// frames (by truesize) between the socket and TX completion and sleeps on
// it; without one it stays paced; with a large one the TX ring is the limit.
// Paced, traffic.tx_pacing average catches up where strict loses turns.
#include <gtest/gtest.h>

#include <initializer_list>

#include "config/config.h"
#include "kernel/kernel.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

/* 1518 B UDP send at 1 GbE on the default platform, plus overrides, checked. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"traffic.mode=tx", "traffic.frame_bytes=1518", "nic.line_rate_gbps=1",
                                       "run.duration_us=2000", "run.warmup_us=200", "run.drain_us=4000"},
                                      sets);
}

}  // namespace

// The sender may send while the socket holds less than sndbuf: with 16384 B
// and 2304 B per frame that is 8 frames (7 x 2304 = 16128 < 16384), never a
// ninth; the wire drains faster than the sender is let in, so it sleeps.
static void expect_eight_frames_in_flight(std::initializer_list<const char *> sets) {
  ASSERT_EQ(nk_skb_truesize(1518), 2304u);
  nicsim_results r;
  run_ok(make_cfg(sets), &r);
  EXPECT_EQ(metric(r, "tx.wmem_max"), 8 * 2304.0);
  EXPECT_LE(metric(r, "nic.tx_ring_occupancy_max"), 8.0);
  EXPECT_GT(metric(r, "tx.sndbuf_waits"), 0.0);
  EXPECT_GT(metric(r, "tx.gbps"), 0.0);
  nicsim::test::expect_conservation(r);
}

TEST(SocketSendBuffer, BoundsTheFramesInFlightAndMakesTheSenderSleep) {
  expect_eight_frames_in_flight({"traffic.sndbuf_bytes=16384"});
}

// The same on two cores: the sender on core 1 sleeps until core 0's TX
// clean has freed the socket down to half.
TEST(SocketSendBuffer, BoundsTheFramesInFlightOnItsOwnCoreToo) {
  expect_eight_frames_in_flight({"traffic.sndbuf_bytes=16384", "cpu.cores=2", "cpu.locking=txq"});
}

// sndbuf 0: the paced sender of before; it never waits on the socket.
TEST(SocketSendBuffer, ZeroKeepsThePacedSender) {
  nicsim_results r;
  run_ok(make_cfg({}), &r);
  EXPECT_EQ(metric(r, "tx.sndbuf_waits"), 0.0);
  EXPECT_LE(metric(r, "nic.tx_ring_occupancy_max"), 3.0) << "paced at the line rate, the ring stays nearly empty";
  nicsim::test::expect_conservation(r);
}

// A buffer larger than the ring: the unpaced sender fills the TX ring to the
// driver's stop threshold and waits on the queue, not on the socket; the
// wire runs at line rate.
TEST(SocketSendBuffer, ALargeBufferLeavesTheTxRingAsTheLimit) {
  nicsim_results r;
  run_ok(make_cfg({"traffic.sndbuf_bytes=4194304", "nic.tx_ring_size=64"}), &r);
  EXPECT_EQ(metric(r, "tx.sndbuf_waits"), 0.0);
  EXPECT_GE(metric(r, "nic.tx_ring_occupancy_max"), 32.0);
  EXPECT_LT(metric(r, "tx.wmem_max"), 4194304.0);
  EXPECT_GT(metric(r, "tx.gbps"), 0.95);
  nicsim::test::expect_conservation(r);
}

// A paced sender on a core the RX softirq keeps busy (500 MHz, bidir at
// 1 GbE): strict pacing loses the turns the softirq takes; average pacing
// (iperf3 -b) sends them late, back to back, and keeps the line busy, but
// never sends more than the rate allows: frame k is due at t0 + k x 12.304
// us, so at most 4000 / 12.304 + 1 = 326 frames in the 4 ms run. The
// softirq's load is the stack's parts alone (cpu.isa none): with the
// driver's own instructions too, this core has no turns left to catch up.
TEST(HostPacing, AverageCatchesUpWhereStrictLosesTurns) {
  nicsim_results strict, average;
  ASSERT_TRUE(nicsim::test::run_in_child(
      make_cfg({"traffic.mode=bidir", "cpu.clock_mhz=500", "run.duration_us=4000", "run.warmup_us=500", "cpu.isa=none"}),
      &strict));
  ASSERT_TRUE(nicsim::test::run_in_child(make_cfg({"traffic.mode=bidir", "cpu.clock_mhz=500", "run.duration_us=4000",
                                                   "run.warmup_us=500", "traffic.tx_pacing=average", "cpu.isa=none"}),
                                          &average));
  EXPECT_LT(metric(strict, "tx.gbps"), 0.9) << "strict pacing loses turns on the busy core";
  EXPECT_GT(metric(average, "tx.gbps"), 0.98) << "average pacing catches up to the line";
  EXPECT_LE(metric(average, "total.tx.sent"), 326.0);
  EXPECT_GT(metric(average, "tx.pkts"), metric(strict, "tx.pkts"));
  nicsim::test::expect_conservation(strict);
  nicsim::test::expect_conservation(average);
}

// stmmac with 25 frames per IOC and a 3-frame socket: only the TX
// coalescing timer frees the socket. Armed by the sender's xmit on core 1,
// it must wake core 0 (which runs the timers) even when no interrupt does;
// before that wake, such a run sent nothing after its first frames.
TEST(SocketSendBuffer, ATimerArmedOnTheSendersCoreFreesTheSocket) {
  for (const char *cores : {"cpu.cores=1", "cpu.cores=4"}) {
    nicsim_results r;
    ASSERT_TRUE(nicsim::test::run_in_child(
        make_cfg({"nic.family=stmmac", "driver.name=stmmac", "driver.tx_coal_frames=25", "traffic.sndbuf_bytes=8192",
                  "cpu.locking=txq", "run.duration_us=10000", cores}),
        &r));
    EXPECT_GT(metric(r, "tx.pkts"), 15.0) << cores << ": a 1 ms timer round per 3 frames over 9.8 ms";
    EXPECT_GT(metric(r, "tx.sndbuf_waits"), 0.0) << cores;
    nicsim::test::expect_conservation(r);
  }
}
