// test_generic_forward.cpp: traffic.mode forward (src/kernel/forward.c) on
// the generic driver and the counting platform: the forwarding path's work
// per packet against a hand count of forward.c, and the skb's lifetime.

// Test config (test_support.h): rings of 64, napi_budget 16, non-coherent
// platform (descriptors uncached, skb data cached), cache line 64.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "unit/drivers/generic_rig.h"

namespace {

constexpr uint32_t kFrame = 128;       // on the wire, FCS included
constexpr uint32_t kLen = kFrame - 4;  // DMA'd, copied into the skb, forwarded: 124 bytes
constexpr uint32_t kHh = 16;           // neigh_hh_output's copy: HH_DATA_MOD bytes

bool start_forward(GenericRig &r) {
  const bool ok = r.start(false, [](nicsim_config &c) { c.traffic.mode = NC_MODE_FORWARD; });
  if (ok) r.nic->tx_forwarded = true;
  return ok;
}

double bucket_instructions(const GenericRig &r, const char *fn) {
  const int id = nk_prof_find(fn);
  return id < 0 ? 0 : r.t.cp.c.bucket_instructions[id];
}

}  // namespace

// N packets in one poll: each is received, looked up, edited and sent on
// the same port's TX ring as the skb it arrived in.
TEST(GenericForward, EachPacketIsLookedUpEditedAndSentOnce) {
  GenericRig r;
  ASSERT_TRUE(start_forward(r)) << r.probe_err;
  const uint64_t N = 10;  // below the budget: one poll
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  const nc_stack &st = r.t.cfg.stack;

  // The stack took every packet in (the host sink checked it intact, in order).
  EXPECT_EQ(c.host_rx, N);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  // Charged per packet under the functions of the forwarding path; no local
  // delivery (udp_rcv, the reader) at all.
  EXPECT_DOUBLE_EQ(bucket_instructions(r, NK_PROF_IP_RCV), N * st.ip_rcv_instructions);
  EXPECT_DOUBLE_EQ(bucket_instructions(r, NK_PROF_FIB_LOOKUP), N * st.fib_lookup_instructions);
  EXPECT_DOUBLE_EQ(bucket_instructions(r, NK_PROF_IP_FORWARD), N * st.ip_forward_instructions);
  EXPECT_DOUBLE_EQ(bucket_instructions(r, NK_PROF_IP_OUTPUT), N * st.ip_output_instructions);
  EXPECT_DOUBLE_EQ(bucket_instructions(r, NK_PROF_UDP_RCV), 0.0);
  EXPECT_DOUBLE_EQ(bucket_instructions(r, NK_PROF_UDP_RECVMSG), 0.0);
  // ip_forward's header work, the only cacheable loads and stores of the
  // poll (generic's descriptors are uncached here, frames move by memcpy):
  // the TTL check's load and ip_decrease_ttl's checksum load, then its
  // checksum and TTL stores: 2 loads and 2 stores per packet.
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 2 * N);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 2 * N);
  // Copies: generic_rx's copy-break into the skb, then neigh_hh_output's
  // 16-byte hardware header; the packet itself is never copied again.
  EXPECT_EQ(c.copies, 2 * N);
  EXPECT_EQ(c.copy_bytes, N * (kLen + kHh));
  // One skb per packet (generic_rx's), none on the forwarding path.
  const int alloc = nk_prof_find(NK_PROF_ALLOC_SKB);
  ASSERT_GE(alloc, 0);
  EXPECT_EQ(c.bucket_execs[alloc], N);
  // One xmit per packet: one TX doorbell each, on TX queue 0 (the RX queue's).
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], N);
  const nk_kernel_stats *ks = nk_kernel_get_stats(r.t.k);
  EXPECT_EQ(ks->fwd_packets, N);
  EXPECT_EQ(ks->fwd_fib_lookups, N);
  EXPECT_EQ(ks->fwd_xmit, N);
  EXPECT_EQ(ks->fwd_drops_txq, 0u);
  EXPECT_EQ(nk_kernel_txq_packets(r.t.k, 0), N);
  // The received skbs are on the TX ring now: they live until TX completion.
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), N);

  // The frames went out edited: as sent by the peer they fail the check...
  r.nic->tx_forwarded = false;
  nf_header h{};
  EXPECT_NE(r.nic->complete_tx(&h), "");
  // ...and with the forwarding's edits undone they are the peer's frames, in order.
  r.nic->tx_forwarded = true;
  nf_seq_track track{};
  r.tx_complete(static_cast<int>(N), &track);
  EXPECT_EQ(track.received, N);
  EXPECT_EQ(track.gaps, 0u);
  // TX clean frees them: the pool is whole again.
  r.service();
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

// The TX ring fills (its completions never come): the driver stops the
// queue, and every further packet is dropped, freed and counted.
TEST(GenericForward, AStoppedTxQueueDropsAndFreesThePacket) {
  GenericRig r;
  ASSERT_TRUE(start_forward(r)) << r.probe_err;
  const uint64_t rounds = 2, per_round = 40;  // 80 packets for a ring that holds 63
  uint64_t seq = 0;
  for (uint64_t i = 0; i < rounds; i++) {
    r.rx_frames(static_cast<int>(per_round), kFrame, &seq);
    r.service();
  }
  const nk_kernel_stats *ks = nk_kernel_get_stats(r.t.k);
  const uint64_t owned = r.nic->tx_owned();
  EXPECT_EQ(owned, static_cast<uint64_t>(r.t.cfg.nic.tx_ring_size) - 1);  // nk_ring_space leaves one slot
  EXPECT_EQ(ks->fwd_packets, rounds * per_round);
  EXPECT_EQ(ks->fwd_xmit, owned);
  EXPECT_EQ(ks->fwd_drops_txq, rounds * per_round - owned);
  // Only the sent ones hold an skb.
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), owned);
  nf_seq_track track{};
  r.tx_complete(static_cast<int>(owned), &track);
  r.service();
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

// The peer's inverse of the edit: ip_decrease_ttl's checksum update undone
// for every checksum word, the ambiguous 1 included (net/frame.c).
TEST(GenericForward, TheForwardingEditIsUndoneForEveryChecksumWord) {
  std::vector<uint8_t> f(kLen), g(kLen);
  for (uint32_t c = 0; c <= 0xFFFF; c += 0x101) {
    for (uint32_t cc : {c, 0xFFFEu, 0xFFFFu, 0u}) {
      // A frame whose checksum word holds cc: seq's bytes 2-3 (frame bytes 24-25).
      const uint64_t seq = static_cast<uint64_t>(cc) << 16 | 0x42;
      nf_fill(f.data(), kLen, 7, 3, seq);
      g = f;
      // forward.c's edit: the swapped addresses, check + 1 with the end-around carry, --ttl.
      const uint8_t host[6] = {NF_HOST_MAC}, peer[6] = {NF_PEER_MAC};
      memcpy(g.data(), peer, 6);
      memcpy(g.data() + 6, host, 6);
      const uint32_t v = static_cast<uint32_t>(g[24] | g[25] << 8) + 1;
      const uint16_t w = static_cast<uint16_t>(v + (v >= 0xFFFF));
      g[24] = static_cast<uint8_t>(w & 0xff);
      g[25] = static_cast<uint8_t>(w >> 8);
      g[22]--;
      nf_header h{};
      ASSERT_EQ(nf_ip_forward_undo(g.data(), kLen, 7, &h), NF_OK) << cc;
      EXPECT_EQ(h.seq, seq);
      EXPECT_EQ(g, f) << cc;
    }
  }
  // An unforwarded frame is not taken for a forwarded one.
  nf_fill(f.data(), kLen, 7, 3, 5);
  EXPECT_EQ(nf_ip_forward_undo(f.data(), kLen, 7, nullptr), NF_BAD_ADDR);
}
