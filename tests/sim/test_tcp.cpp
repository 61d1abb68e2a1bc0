// test_tcp.cpp: whole runs with traffic.protocol tcp on the generic NIC:
// conservation, ACK counts, GRO's cut of the per-packet stack charge, the
// window bounding what is in flight (RX and TX), udp untouched by the tcp
// keys, and determinism (each run in its own process); SACK loss recovery:
// the sender's scoreboard by hand count, and whole runs with drops.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"
#include "traffic/tcp_sack.h"

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
  /* The stack's receive parts run once per GRO packet: ip_rcv's cycles are
   * flushes x stack.ip_rcv_instructions / cpu.kernel_ipc (its header lines
   * were read by GRO: no miss), not segments x that. */
  const double ipc = cfg.cpu.kernel_ipc;
  const double ip = metric(r, "cpu.profile.ip_rcv") * metric(r, "cpu.busy_cycles");
  const double per_ip = cfg.stack.ip_rcv_instructions / ipc;
  EXPECT_NEAR(ip, flushes * per_ip, kSlack * per_ip);
  /* GRO costs stack.gro_instructions per segment, and its first read of the
   * frame's headers may miss. */
  const double gro = metric(r, "cpu.profile.napi_gro_receive") * metric(r, "cpu.busy_cycles");
  EXPECT_GE(gro, (segs - kSlack * 45) * cfg.stack.gro_instructions / ipc);
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

/* The SACK blocks {start, end} (offsets from the cumulative ACK). */
nf_sack sack_of(std::initializer_list<std::pair<uint16_t, uint16_t>> blocks) {
  nf_sack s{};
  for (const auto &b : blocks) {
    s.blk[s.n][0] = b.first;
    s.blk[s.n][1] = b.second;
    s.n++;
  }
  return s;
}

/* Sends while the sender may; returns the segments sent, retransmissions negative - 1. */
std::vector<int64_t> send_all(nicsim::TcpSackSender &s) {
  std::vector<int64_t> v;
  while (s.can_send()) {
    bool rtx = false;
    const uint64_t q = s.next(&rtx);
    v.push_back(rtx ? -static_cast<int64_t>(q) - 1 : static_cast<int64_t>(q));
  }
  return v;
}

TEST(TcpSack, OnlyTheMissingSegmentIsResentAndTheWindowHalvesOnce) {
  nicsim::TcpSackSender s;
  s.init(100, true);
  /* Initial window 10: segments 0..9. */
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  /* 2 is lost. ACK 2 (0, 1 arrived): slow start, cwnd 12, pipe 8: 10..13. */
  using A = nicsim::TcpSackSender::Ack;
  EXPECT_EQ(s.on_ack(2, sack_of({})), A::kProgress);
  EXPECT_DOUBLE_EQ(s.cwnd(), 12);
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{10, 11, 12, 13}));
  /* Duplicate ACKs SACKing 3, 3..4, then 3..5 (offsets from 2): the third
   * starts recovery: ssthresh = cwnd = flight 12 / 2 = 6. */
  EXPECT_EQ(s.on_ack(2, sack_of({{1, 2}})), A::kDuplicate);
  EXPECT_EQ(s.on_ack(2, sack_of({{1, 3}})), A::kDuplicate);
  EXPECT_EQ(s.on_ack(2, sack_of({{1, 4}})), A::kRecovery);
  EXPECT_TRUE(s.recovering());
  EXPECT_DOUBLE_EQ(s.cwnd(), 6);
  /* Fast retransmit of 2 only (at once); then pipe = 14 - 6 (above the
   * highest SACKed) + 1 (the retransmission) = 9 >= 6: nothing more. */
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{-2 - 1}));
  /* SACKs up to 3..10: pipe = 14 - 11 + 1 = 4 < 6: two new segments, no
   * other resend (nothing else is missing). */
  EXPECT_EQ(s.on_ack(2, sack_of({{1, 9}})), A::kDuplicate);
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{14, 15}));
  /* The retransmission arrives: ACK 14 ends the recovery (una >= 14, what
   * was sent at its start); the window stays halved. */
  EXPECT_EQ(s.on_ack(14, sack_of({})), A::kProgress);
  EXPECT_FALSE(s.recovering());
  EXPECT_DOUBLE_EQ(s.cwnd(), 6);
  EXPECT_EQ(s.sacked(), 0u);
}

TEST(TcpSack, ALostRetransmissionIsSentAgainOnceALaterSegmentArrives) {
  nicsim::TcpSackSender s;
  s.init(100, true);
  send_all(s); /* 0..9 */
  /* 0 is lost; 1..3 are SACKed by three duplicate ACKs: recovery (cwnd 5). */
  s.on_ack(0, sack_of({{1, 2}}));
  s.on_ack(0, sack_of({{1, 3}}));
  EXPECT_EQ(s.on_ack(0, sack_of({{1, 4}})), nicsim::TcpSackSender::Ack::kRecovery);
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{-0 - 1}));
  /* 4..9 arrive (sent before the retransmission): nothing new is lost;
   * pipe 1 < 5: new data 10..13. */
  s.on_ack(0, sack_of({{1, 10}}));
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{10, 11, 12, 13}));
  /* 10 (sent after the retransmission of 0) is SACKed but 0 is not: the
   * retransmission was lost too; 0 goes a third time. */
  s.on_ack(0, sack_of({{1, 11}}));
  bool rtx = false;
  ASSERT_TRUE(s.can_send());
  EXPECT_EQ(s.next(&rtx), 0u);
  EXPECT_TRUE(rtx);
}

TEST(TcpSack, AnRtoResendsWhatIsNotSackedFromOneSegment) {
  nicsim::TcpSackSender s;
  s.init(100, true);
  send_all(s); /* 0..9 */
  s.on_ack(0, sack_of({{5, 7}})); /* 5, 6 arrived */
  s.on_rto();
  EXPECT_DOUBLE_EQ(s.cwnd(), 1);
  /* cwnd 1: 0 goes; the ACK of 0 grows cwnd to 2 (slow start): 1, 2. */
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{-0 - 1}));
  s.on_ack(1, sack_of({{4, 6}}));
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{-1 - 1, -2 - 1}));
  /* 1..4 arrive: cwnd 6, pipe = 10 - 10 + 0: 7, 8, 9 (not 5, 6: SACKed),
   * then new data 10..12. */
  s.on_ack(5, sack_of({{0, 2}}));
  EXPECT_EQ(send_all(s), (std::vector<int64_t>{-7 - 1, -8 - 1, -9 - 1, 10, 11, 12}));
}

TEST(Tcp, DropsAreRecoveredSelectivelyAndConserved) {
  /* A ring of 16 RX descriptors cannot hold a 256 KiB window (181
   * segments): frames are dropped; the receiver holds what follows a hole
   * and SACKs it, and the peer resends only the missing segments. Every
   * frame offered is delivered, held, a TCP duplicate, or a counted drop.
   * With no warmup the window is the whole run: every retransmission
   * answers a drop (a segment is resent once unless its retransmission is
   * dropped too, which is itself a drop), so retransmits <= drops (here 38
   * of 38); go-back-N resent every segment after a hole (149 for 76 drops). */
  nicsim_config cfg = make_cfg({"traffic.mode=rx", "nic.rx_ring_size=16", "nic.rx_fifo_bytes=8192",
                                "run.warmup_us=0"});
  nicsim_results r;
  run_ok(cfg, &r);
  expect_conservation(r);
  EXPECT_GT(metric(r, "total.rx.dropped"), 0);
  EXPECT_GT(metric(r, "tcp.retransmits"), 0);
  EXPECT_LE(metric(r, "tcp.retransmits"), metric(r, "total.rx.dropped"));
  EXPECT_GT(metric(r, "rx.gbps"), 0);
}

TEST(Tcp, UdpIgnoresEveryTcpKey) {
  nicsim_config plain = nicsim::test::checked_config(
      {"traffic.mode=bidir", "traffic.flows=3", "run.duration_us=400", "run.warmup_us=100"}, {});
  nicsim_config knobs = nicsim::test::checked_config(
      {"traffic.mode=bidir", "traffic.flows=3", "run.duration_us=400", "run.warmup_us=100"},
      {"traffic.tcp_window_bytes=3000", "traffic.tcp_ack_every=7", "traffic.tcp_burst_segments=3",
       "traffic.tcp_rto_us=5"});
  static nicsim_results a, b; /* large: off the stack */
  ASSERT_TRUE(run_in_child(plain, &a));
  ASSERT_TRUE(run_in_child(knobs, &b));
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    if (i == nicsim_metric_find("sim.wall_s")) continue;
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
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    if (i == nicsim_metric_find("sim.wall_s")) continue;
    EXPECT_EQ(a.present[i], b.present[i]);
    EXPECT_EQ(a.value[i], b.value[i]) << nicsim_metric_defs()[i].name;
  }
  ASSERT_EQ(a.nextra, b.nextra);
  for (size_t i = 0; i < a.nextra; i++) EXPECT_EQ(a.extra[i].value, b.extra[i].value) << a.extra[i].name;
  EXPECT_GT(a.value[nicsim_metric_find("tcp.acks")], 0);
}

}  // namespace
