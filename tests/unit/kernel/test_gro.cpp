// test_gro.cpp: GRO and the TCP receiver of the kernel layer
// (traffic.protocol tcp) on the counting platform, by hand count: merges of
// consecutive segments up to 64 KiB, the 8-packet table flushing its oldest,
// stack_rx once per GRO packet, gro_cycles per segment, in-order delivery
// with segments after a hole held (out-of-order queue) and SACKed until the
// hole fills, SACK blocks in ACK frames, udp's per-frame path, and the
// copy to user space priced per payload (cpu.user_copy memcpy).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "net/frame.h"
#include "unit/kernel/test_support.h"

namespace {

constexpr uint32_t kFrame = 1518;          // with FCS
constexpr uint32_t kLen = kFrame - 4;      // in the skb
struct Seg {
  uint32_t flow;
  uint64_t seq;
  bool ack = false;
};

// A NAPI context whose poll hands `segs` to napi_gro_receive, then completes.
struct GroRig {
  TestKernel t;
  napi_struct napi{};
  std::vector<Seg> segs;
  std::vector<std::pair<uint32_t, uint64_t>> delivered;  // (flow, seq) at host_rx
  static GroRig *cur;

  explicit GroRig(bool tcp, int user_copy = NC_USER_COPY_PER_BYTE, int64_t read_bytes = 131072) {
    t.cfg.traffic.protocol = tcp ? NC_PROTO_TCP : NC_PROTO_UDP;
    t.cfg.cpu.user_copy = user_copy;
    t.cfg.traffic.read_bytes = read_bytes;
    t.cfg.traffic.flows = 16;
    t.cfg.driver.napi_budget = 128;
    EXPECT_TRUE(t.create(true)) << t.err;
    t.cp.on_host_rx = [](void *, uint64_t, const uint8_t *buf, uint32_t len) {
      nf_header h;
      EXPECT_EQ(nf_check(buf, len, 1, &h), NF_OK);
      cur->delivered.push_back({h.flow, h.seq});
    };
    cur = this;
    netif_napi_add(t.dev(), &napi, poll, 128);
    napi_enable(&napi);
  }
  ~GroRig() {
    if (t.k && !t.fault()) {
      napi_disable(&napi);
      netif_napi_del(&napi);
    }
  }
  static int poll(napi_struct *n, int budget) {
    int work = 0;
    for (const Seg &s : cur->segs) {
      sk_buff *skb = napi_alloc_skb(n, s.ack ? NF_ACK_FRAME - 4 : kLen);
      const uint32_t len = s.ack ? NF_ACK_FRAME - 4 : kLen;
      nf_fill(skb_put(skb, len), len, 1, s.ack ? (s.flow | NF_FLOW_ACK) : s.flow, s.seq);
      napi_gro_receive(n, skb);
      work++;
    }
    EXPECT_LT(work, budget);
    napi_complete_done(n, work);
    return work;
  }
  // One softirq polling segs.
  void run(std::vector<Seg> s) {
    segs = std::move(s);
    napi_schedule(&napi);
    nk_kernel_softirq(t.k);
  }
  const nk_kernel_stats &st() const { return *nk_kernel_get_stats(t.k); }
  std::vector<std::pair<uint32_t, uint64_t>> acks(std::vector<nf_sack> *sacks = nullptr) {
    std::vector<std::pair<uint32_t, uint64_t>> a;
    uint32_t f;
    uint64_t q;
    while (nk_kernel_ack_peek(t.k, &f, &q)) {
      a.push_back({f, q});
      nf_sack s;
      nk_kernel_ack_sack(t.k, &s);
      if (sacks) sacks->push_back(s);
      nk_kernel_ack_pop(t.k);
    }
    return a;
  }
};
GroRig *GroRig::cur = nullptr;

std::vector<Seg> one_flow(uint32_t flow, uint64_t from, int n) {
  std::vector<Seg> v;
  for (int i = 0; i < n; i++) v.push_back({flow, from + static_cast<uint64_t>(i)});
  return v;
}

TEST(KernelGro, SixtyFourSegmentsOfOneFlowAreTwoPacketsOf45And19) {
  GroRig g(true);
  g.run(one_flow(0, 0, 64));
  // 64 KiB: a packet of k segments has IP length 1500 + (k - 1) x 1448, which
  // stays below 65536 up to k = 45; the 46th starts a new packet.
  EXPECT_EQ(g.st().gro_flushes, 2u);
  EXPECT_EQ(g.st().gro_merged, 62u);
  EXPECT_EQ(g.t.cp.c.host_rx, 64u);
  // The stack's parts: GRO per segment, the rest once per packet.
  EXPECT_DOUBLE_EQ(g.t.instr("ip_rcv"), 2 * g.t.cfg.stack.ip_rcv_instructions);
  EXPECT_DOUBLE_EQ(g.t.instr("tcp_v4_rcv"), 2 * g.t.cfg.stack.tcp_rcv_instructions);
  EXPECT_DOUBLE_EQ(g.t.instr("__netif_receive_skb_core"), 2 * g.t.cfg.stack.netif_receive_instructions);
  EXPECT_DOUBLE_EQ(g.t.instr("napi_gro_receive"), 64 * g.t.cfg.stack.gro_instructions);
  EXPECT_DOUBLE_EQ(g.t.bucket("copy_to_user"), 64.0 * kLen * g.t.cfg.cpu.stack_rx_cycles_per_byte);
  // One (stretch) ACK per packet: after segment 45 and after segment 64.
  auto a = g.acks();
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0], std::make_pair(0u, uint64_t{45}));
  EXPECT_EQ(a[1], std::make_pair(0u, uint64_t{64}));
  for (size_t i = 0; i < g.delivered.size(); i++) EXPECT_EQ(g.delivered[i].second, i);
  EXPECT_EQ(g.t.fault(), nullptr);
  EXPECT_EQ(nk_kernel_skbs_in_use(g.t.k), 0u) << "GRO holds nothing after the poll";
}

TEST(KernelGro, EightFlowsInTurnMergeButANinthFlushesTheOldestEachTime) {
  GroRig g8(true);
  std::vector<Seg> v;
  for (uint64_t r = 0; r < 2; r++)
    for (uint32_t f = 0; f < 8; f++) v.push_back({f, r});
  g8.run(v);
  EXPECT_EQ(g8.st().gro_merged, 8u);   // the second round joins the first
  EXPECT_EQ(g8.st().gro_flushes, 8u);  // at napi_complete_done
  EXPECT_EQ(g8.acks().size(), 8u);     // each packet of 2 segments is ACKed once
}

TEST(KernelGro, NineFlowsInTurnDefeatGro) {
  GroRig g(true);
  std::vector<Seg> v;
  for (uint64_t r = 0; r < 2; r++)
    for (uint32_t f = 0; f < 9; f++) v.push_back({f, r});
  g.run(v);
  // Every arrival finds 8 packets held and flushes the oldest, which is the
  // next flow to arrive: nothing merges, 18 one-segment packets.
  EXPECT_EQ(g.st().gro_merged, 0u);
  EXPECT_EQ(g.st().gro_flushes, 18u);
  EXPECT_DOUBLE_EQ(g.t.instr("ip_rcv"), 18 * g.t.cfg.stack.ip_rcv_instructions);
  // Each flow reaches two unacknowledged segments once: 9 ACKs, none left
  // for the end of the poll.
  EXPECT_EQ(g.acks().size(), 9u);
}

// SACK block i of s as (start, end) offsets from the cumulative ACK.
std::pair<int, int> blk(const nf_sack &s, int i) { return {s.blk[i][0], s.blk[i][1]}; }

TEST(KernelGro, SegmentsAfterAHoleAreHeldSackedAndDeliveredInOrderWhenItFills) {
  GroRig g(true);
  g.run({{0, 0}, {0, 1}, {0, 3}, {0, 4}, {0, 6}});
  // GRO packets [0,1], [3,4], [6]. [0,1] is delivered and ACKed (2, two
  // unacknowledged). [3,4] is ahead of rcv_nxt 2: held, and ACKed at once
  // with SACK 3..4 (offsets 1..3 from 2). [6] (flushed at the end of the
  // poll) is held too: ACK 2 with the latest arrival's block [6] (4..5)
  // first, then [3,4].
  EXPECT_EQ(g.t.cp.c.host_rx, 2u);
  EXPECT_EQ(g.st().tcp_discards, 0u);
  EXPECT_EQ(g.st().tcp_ooo_queued, 3u);
  EXPECT_EQ(g.st().tcp_ooo_held, 3u);
  EXPECT_EQ(nk_kernel_skbs_in_use(g.t.k), 3u) << "the out-of-order queue holds 3 skbs";
  std::vector<nf_sack> s;
  auto a = g.acks(&s);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].second, 2u);
  EXPECT_EQ(s[0].n, 0u);
  EXPECT_EQ(a[1].second, 2u) << "duplicate ACK";
  ASSERT_EQ(s[1].n, 1u);
  EXPECT_EQ(blk(s[1], 0), std::make_pair(1, 3));
  EXPECT_EQ(a[2].second, 2u) << "duplicate ACK";
  ASSERT_EQ(s[2].n, 2u);
  EXPECT_EQ(blk(s[2], 0), std::make_pair(4, 5));
  EXPECT_EQ(blk(s[2], 1), std::make_pair(1, 3));
  // The retransmission of 2 fills the first hole: 2, 3, 4 go up; 6 stays
  // held; the ACK (at once: a hole was filled) is 5 with SACK [6] (1..2).
  g.run({{0, 2}});
  EXPECT_EQ(g.t.cp.c.host_rx, 5u);
  EXPECT_EQ(g.st().tcp_ooo_held, 1u);
  s.clear();
  a = g.acks(&s);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].second, 5u);
  ASSERT_EQ(s[0].n, 1u);
  EXPECT_EQ(blk(s[0], 0), std::make_pair(1, 2));
  // 5 fills the last hole: 5, 6 up, ACK 7 without SACK.
  g.run({{0, 5}});
  EXPECT_EQ(g.t.cp.c.host_rx, 7u);
  EXPECT_EQ(g.st().tcp_ooo_held, 0u);
  s.clear();
  a = g.acks(&s);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].second, 7u);
  EXPECT_EQ(s[0].n, 0u);
  // A late duplicate (3 again) is discarded and answered at once.
  g.run({{0, 3}});
  EXPECT_EQ(g.t.cp.c.host_rx, 7u);
  EXPECT_EQ(g.st().tcp_discards, 1u);
  a = g.acks();
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].second, 7u);
  // Every segment reached the sink once, in order.
  ASSERT_EQ(g.delivered.size(), 7u);
  for (size_t i = 0; i < g.delivered.size(); i++) EXPECT_EQ(g.delivered[i].second, i);
  EXPECT_EQ(g.t.fault(), nullptr);
  EXPECT_EQ(nk_kernel_skbs_in_use(g.t.k), 0u);
}

TEST(KernelGro, AckFramesCarryTheirSackBlocksThroughTheChecksum) {
  uint8_t buf[NF_ACK_FRAME - 4];
  nf_sack s{};
  s.n = 2;
  s.blk[0][0] = 4;
  s.blk[0][1] = 5;
  s.blk[1][0] = 1;
  s.blk[1][1] = 3;
  nf_fill_ack(buf, sizeof buf, 1, 3, 42, 0, &s);
  nf_header h;
  ASSERT_EQ(nf_check(buf, sizeof buf, 1, &h), NF_OK);
  EXPECT_TRUE(nf_is_ack(&h));
  EXPECT_EQ(nf_flow_id(&h), 3u);
  EXPECT_EQ(h.seq, 42u);
  nf_sack r;
  nf_ack_sack(buf, sizeof buf, &r);
  ASSERT_EQ(r.n, 2u);
  EXPECT_EQ(blk(r, 0), std::make_pair(4, 5));
  EXPECT_EQ(blk(r, 1), std::make_pair(1, 3));
  buf[NF_SACK_OFF + 2] ^= 1;  // a corrupted block
  EXPECT_EQ(nf_check(buf, sizeof buf, 1, &h), NF_BAD_CHECKSUM);
  // A longer ACK-flagged frame keeps checking the rest of its payload.
  uint8_t big[200];
  nf_fill_ack(big, sizeof big, 1, 0, 7, 0, &s);
  ASSERT_EQ(nf_check(big, sizeof big, 1, &h), NF_OK);
}

TEST(KernelGro, AcksGoUpAtOnceAndAnOddRemainderIsAckedAtTheEndOfThePoll) {
  GroRig g(true);
  g.run({{0, 0}, {5, 7, true}, {0, 1}, {0, 2}});
  // The ACK frame (flow 5) is not merged and goes up at once; data [0..2] is
  // one packet of 3, ACKed once (3 >= 2).
  EXPECT_EQ(g.st().gro_flushes, 1u);
  EXPECT_EQ(g.st().gro_merged, 2u);
  EXPECT_DOUBLE_EQ(g.t.instr("ip_rcv"), 2 * g.t.cfg.stack.ip_rcv_instructions);
  // The ACK is tcp_ack's work, the data packet tcp_v4_rcv's.
  EXPECT_DOUBLE_EQ(g.t.instr("tcp_ack"), g.t.cfg.stack.tcp_ack_instructions);
  EXPECT_DOUBLE_EQ(g.t.instr("tcp_v4_rcv"), g.t.cfg.stack.tcp_rcv_instructions);
  EXPECT_DOUBLE_EQ(g.t.instr("napi_gro_receive"), 4 * g.t.cfg.stack.gro_instructions);
  EXPECT_EQ(g.acks().size(), 1u);
  g.t.cfg.traffic.tcp_ack_every = 4;  // the kernel reads cfg live
  g.run(one_flow(0, 3, 1));
  auto a = g.acks();
  ASSERT_EQ(a.size(), 1u) << "the end of the poll ACKs the one unacknowledged segment";
  EXPECT_EQ(a[0].second, 4u);
}

TEST(KernelGro, UdpHasNoGroEveryFrameIsOnePacket) {
  GroRig g(false);
  g.run(one_flow(0, 0, 10));
  EXPECT_EQ(g.st().gro_flushes, 0u);
  EXPECT_EQ(g.st().gro_merged, 0u);
  EXPECT_EQ(g.t.cp.c.host_rx, 10u);
  EXPECT_DOUBLE_EQ(g.t.instr("ip_rcv"), 10 * g.t.cfg.stack.ip_rcv_instructions);
  EXPECT_DOUBLE_EQ(g.t.instr("udp_rcv"), 10 * g.t.cfg.stack.udp_rcv_instructions);
  // GRO is still tried on every frame (dev_gro_receive), and merges nothing.
  EXPECT_DOUBLE_EQ(g.t.instr("napi_gro_receive"), 10 * g.t.cfg.stack.gro_instructions);
  EXPECT_TRUE(g.acks().empty());
}

// cpu.user_copy memcpy: the copies the kernel prices through ops->user_copy_cycles.
struct UserCopy {
  uint64_t dst, src, len;
};
std::vector<UserCopy> g_copies;
double record_copy(void *, uint64_t dst, uint64_t src, uint64_t len) {
  g_copies.push_back({dst, src, len});
  return 2.0 * static_cast<double>(len) + 1.0;  // any function of the call
}
constexpr uint64_t kTcpPayload = kFrame - NF_TCP_OVERHEAD;  // 1448: headers 66 + FCS 4
constexpr uint64_t kTcpHdrs = NF_TCP_OVERHEAD - 4;

TEST(KernelUserCopy, TcpPayloadsFillTheReadBufferInOrderFromItsStart) {
  GroRig g(true, NC_USER_COPY_MEMCPY);
  g.t.cp.ops.user_copy_cycles = record_copy;
  g_copies.clear();
  g.run({{0, 0}, {0, 1}, {3, 0, true}, {0, 2}});
  // Three data segments (the ACK frame has no payload for the reader), each
  // from skb->data + 66 into the buffer at 0, 1448, 2896 (one read()).
  ASSERT_EQ(g_copies.size(), 3u);
  for (size_t i = 0; i < 3; i++) {
    EXPECT_EQ(g_copies[i].len, kTcpPayload);
    EXPECT_EQ(g_copies[i].dst - g_copies[0].dst, i * kTcpPayload);
    // skb->data sits NET_SKB_PAD + NET_IP_ALIGN into a line-aligned buffer.
    EXPECT_EQ((g_copies[i].src - kTcpHdrs) % 8, 2u);
  }
  EXPECT_EQ(g_copies[0].dst % 16, 0u) << "the reader's buffer is malloc-aligned";
  EXPECT_DOUBLE_EQ(g.t.bucket("copy_to_user"), 3 * (2.0 * kTcpPayload + 1.0));
  // The next softirq's read() starts at the buffer's start again.
  const uint64_t base = g_copies[0].dst;
  g_copies.clear();
  g.run({{0, 3}});
  ASSERT_EQ(g_copies.size(), 1u);
  EXPECT_EQ(g_copies[0].dst, base);
}

TEST(KernelUserCopy, ASegmentCrossingTheEndOfTheReadIsCopiedInTwoReads) {
  GroRig g(true, NC_USER_COPY_MEMCPY, 2000);
  g.t.cp.ops.user_copy_cycles = record_copy;
  g_copies.clear();
  g.run(one_flow(0, 0, 3));
  // read_bytes 2000: 1448 at 0 | 552 at 1448, 896 at 0 | 1104 at 896, 344 at 0.
  ASSERT_EQ(g_copies.size(), 5u);
  const uint64_t b = g_copies[0].dst;
  const uint64_t want[5][2] = {{0, 1448}, {1448, 552}, {0, 896}, {896, 1104}, {0, 344}};
  for (size_t i = 0; i < 5; i++) {
    EXPECT_EQ(g_copies[i].dst - b, want[i][0]) << i;
    EXPECT_EQ(g_copies[i].len, want[i][1]) << i;
  }
  EXPECT_EQ(g_copies[2].src, g_copies[1].src + 552) << "the split continues in the same payload";
}

TEST(KernelUserCopy, UdpDatagramsEachLandAtTheBufferStart) {
  GroRig g(false, NC_USER_COPY_MEMCPY);
  g.t.cp.ops.user_copy_cycles = record_copy;
  g_copies.clear();
  g.run(one_flow(0, 0, 2));
  ASSERT_EQ(g_copies.size(), 2u);
  EXPECT_EQ(g_copies[0].dst, g_copies[1].dst);
  EXPECT_EQ(g_copies[0].len, kLen - 42u);  // Ethernet 14 + IPv4 20 + UDP 8
  EXPECT_EQ((g_copies[0].src - 42) % 8, 2u);
}

TEST(KernelUserCopy, PerByteChargesTheRateAndPricesNothing) {
  GroRig g(false);
  g.t.cp.ops.user_copy_cycles = record_copy;
  g_copies.clear();
  g.run(one_flow(0, 0, 2));
  EXPECT_TRUE(g_copies.empty());
  EXPECT_DOUBLE_EQ(g.t.bucket("copy_to_user"), 2.0 * kLen * g.t.cfg.cpu.stack_rx_cycles_per_byte);
}

}  // namespace
