// test_tcp.cpp: whole runs with traffic.protocol tcp on the generic NIC:
// conservation, ACK counts, GRO's cut of the per-packet stack charge, the
// window bounding what is in flight (RX and TX), udp untouched by the tcp
// keys, and determinism. Each test runs in its own process.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;
using nicsim::test::run_ok;

/* 1518 B frames at 10 Gbit/s line rate, generic NIC, plus overrides. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"traffic.protocol=tcp", "traffic.frame_bytes=1518", "nic.line_rate_gbps=10",
                                       "pcie.gen=3", "pcie.lanes=8", "run.duration_us=1500", "run.warmup_us=300",
                                       "run.drain_us=1000"},
                                      sets);
}

double metric_or0(const nicsim_results &r, const char *name) {
  double v = 0;
  return nicsim_results_get(&r, name, &v) ? v : 0;
}

/* Window-edge slack: one GRO packet / one NAPI batch of counts. */
constexpr double kSlack = 3;

TEST(Tcp, RxAtLineRateConservesAndGroCutsTheStackChargeByItsMergeFactor) {
  nicsim_config cfg = make_cfg({"traffic.mode=rx"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_EQ(metric(r, "total.rx.dropped"), 0);
  EXPECT_EQ(metric(r, "tcp.retransmits"), 0);
  /* A 256 KiB window over a ~us RTT does not limit a 10 GbE flow: line rate
   * 10 x 1518 / 1538 = 9.87 Gbit/s. */
  EXPECT_GE(metric(r, "rx.gbps"), 0.97 * 10 * 1518 / 1538);
  const double segs = metric(r, "gro.merged") + metric(r, "gro.flushes");
  const double flushes = metric(r, "gro.flushes");
  ASSERT_GT(flushes, 0);
  /* Every data segment goes through GRO (ACKs go the other way here). */
  EXPECT_NEAR(segs, metric(r, "rx.pkts"), kSlack * 45);
  /* One flow in bursts of 44 (TSO): GRO merges far more than 4 per packet. */
  const double factor = segs / flushes;
  EXPECT_GT(factor, 4.0);
  EXPECT_LE(factor, 45.0); /* 64 KiB: 1500 + 44 x 1448 < 65536 <= 1500 + 45 x 1448 */
  /* stack_rx is charged once per GRO packet: its cycles are flushes x
   * cpu.stack_rx_cycles_per_pkt, not segments x that. */
  const double stack = metric(r, "cpu.profile.stack_rx") * metric(r, "cpu.busy_cycles");
  EXPECT_NEAR(stack, flushes * cfg.cpu.stack_rx_cycles_per_pkt, kSlack * cfg.cpu.stack_rx_cycles_per_pkt);
  /* GRO itself costs cpu.gro_cycles_per_pkt per segment. */
  const double gro = metric(r, "cpu.profile.napi_gro_receive") * metric(r, "cpu.busy_cycles");
  EXPECT_NEAR(gro, segs * cfg.cpu.gro_cycles_per_pkt, kSlack * 45 * cfg.cpu.gro_cycles_per_pkt);
  /* Each GRO packet of >= tcp_ack_every segments is ACKed once (a stretch
   * ACK, as Linux after GRO); the end of each poll ACKs the rest. So ACKs lie
   * between packets of two or more segments and all packets. */
  EXPECT_LE(metric(r, "tcp.acks"), flushes + kSlack);
  EXPECT_GE(metric(r, "tcp.acks"), 0.5 * flushes);
  /* The host sends them: TX frames are the ACKs. */
  EXPECT_NEAR(metric(r, "tx.pkts"), metric(r, "tcp.acks"), kSlack);
  EXPECT_LE(metric(r, "tcp.inflight_max"), cfg.traffic.tcp_window_bytes);
}

TEST(Tcp, WithGroDefeatedTheReceiverAcksEveryAckEverySegments) {
  /* Nine flows, one segment each in turn: each arrival finds the 8-packet
   * GRO table full and flushes the oldest, so nothing merges and every
   * packet is one segment. A flow is ACKed at its second unacknowledged
   * segment (a mid-poll ACK covers exactly tcp_ack_every segments) or, for
   * an odd remainder, at the end of the poll (at least one): so
   * segments / 2 <= ACKs <= segments, near the lower end. */
  nicsim_config cfg = make_cfg({"traffic.mode=rx", "traffic.flows=9", "traffic.tcp_burst_segments=1"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_EQ(metric(r, "gro.merged"), 0);
  const double segs = metric(r, "gro.flushes");
  ASSERT_GT(segs, 100);
  const double acks = metric(r, "tcp.acks");
  EXPECT_GE(acks, segs / cfg.traffic.tcp_ack_every - kSlack);
  EXPECT_LE(acks, segs);
  EXPECT_LT(acks / segs, 0.6) << "most ACKs are the every-second-segment ones";
}

TEST(Tcp, TheWindowBoundsWhatIsInFlightAndThereforeTheRate) {
  /* 8 segments of 1448 B: the peer may have 11,584 payload bytes
   * unacknowledged; it then waits for an ACK, which comes after interrupt
   * coalescing, a poll and the ACK's trip back, so the rate falls well
   * below the line rate. */
  nicsim_config cfg = make_cfg({"traffic.mode=rx", "traffic.tcp_window_bytes=11584"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_LE(metric(r, "tcp.inflight_max"), 11584);
  EXPECT_EQ(metric(r, "tcp.inflight_max"), 11584) << "the window is used up";
  EXPECT_LT(metric(r, "rx.gbps"), 0.8 * 10 * 1518 / 1538);
  EXPECT_GT(metric(r, "rx.gbps"), 0);
}

TEST(Tcp, TxHostNeverHasMoreThanTheWindowInFlight) {
  nicsim_config cfg = make_cfg({"traffic.mode=tx", "traffic.tcp_window_bytes=14480"}); /* 10 segments */
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_LE(metric(r, "tcp.inflight_max"), 14480);
  EXPECT_GT(metric(r, "tx.pkts"), 0);
  /* The peer ACKs every second segment: ACK frames arrive as RX frames. */
  EXPECT_NEAR(metric(r, "tcp.acks"), metric(r, "tx.pkts") / cfg.traffic.tcp_ack_every, kSlack * 5);
  EXPECT_NEAR(metric(r, "rx.pkts"), metric(r, "tcp.acks"), kSlack * 5);
  EXPECT_EQ(metric(r, "gro.merged"), 0) << "pure ACKs are not merged";
}

TEST(Tcp, BidirConserves) {
  nicsim_config cfg = make_cfg({"traffic.mode=bidir", "traffic.flows=4"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_GT(metric(r, "gro.merged"), 0);
  EXPECT_GT(metric(r, "tcp.acks"), 0);
  EXPECT_GT(metric(r, "tx.pkts"), metric(r, "tcp.acks") / 2);
}

TEST(Tcp, DropsAreRecoveredByGoBackNAndConserved) {
  /* A ring of 16 RX descriptors cannot hold a 256 KiB window (181
   * segments): frames are dropped, the receiver discards what follows a
   * hole and sends a duplicate ACK, and the peer goes back. Every frame
   * offered is delivered, discarded by TCP, or a counted drop. */
  nicsim_config cfg = make_cfg({"traffic.mode=rx", "nic.rx_ring_size=16", "nic.rx_fifo_bytes=8192"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_GT(metric(r, "total.rx.dropped"), 0);
  EXPECT_GT(metric(r, "tcp.retransmits"), 0);
  EXPECT_GT(metric(r, "rx.gbps"), 0);
}

TEST(Tcp, UdpIgnoresEveryTcpKey) {
  nicsim_config plain = nicsim::test::checked_config(
      {"traffic.mode=bidir", "traffic.flows=3", "run.duration_us=400", "run.warmup_us=100"}, {});
  nicsim_config knobs = nicsim::test::checked_config(
      {"traffic.mode=bidir", "traffic.flows=3", "run.duration_us=400", "run.warmup_us=100"},
      {"traffic.tcp_window_bytes=3000", "traffic.tcp_ack_every=7", "traffic.tcp_burst_segments=3",
       "traffic.tcp_rto_us=5", "cpu.gro_cycles_per_pkt=99999"});
  static nicsim_results a, b; /* large: off the stack */
  ASSERT_TRUE(run_in_child(plain, &a));
  ASSERT_TRUE(run_in_child(knobs, &b));
  for (int i = 0; i < NM__COUNT; i++) {
    if (i == NM_SIM_WALL_S) continue;
    EXPECT_EQ(a.value[i], b.value[i]) << nicsim_metric_defs()[i].name;
  }
  EXPECT_EQ(metric_or0(a, "tcp.acks"), 0);
  EXPECT_EQ(metric_or0(a, "gro.flushes"), 0);
}

TEST(Tcp, SameSeedGivesIdenticalResults) {
  nicsim_config cfg = make_cfg({"traffic.mode=bidir", "traffic.flows=3", "nic.rx_ring_size=16",
                                "run.duration_us=600", "run.warmup_us=100"});
  static nicsim_results a, b;
  ASSERT_TRUE(run_in_child(cfg, &a));
  ASSERT_TRUE(run_in_child(cfg, &b));
  for (int i = 0; i < NM__COUNT; i++) {
    if (i == NM_SIM_WALL_S) continue;
    EXPECT_EQ(a.present[i], b.present[i]);
    EXPECT_EQ(a.value[i], b.value[i]) << nicsim_metric_defs()[i].name;
  }
  ASSERT_EQ(a.nextra, b.nextra);
  for (size_t i = 0; i < a.nextra; i++) EXPECT_EQ(a.extra[i].value, b.extra[i].value) << a.extra[i].name;
  EXPECT_GT(a.value[NM_TCP_ACKS], 0);
}

}  // namespace
