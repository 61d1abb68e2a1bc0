// test_mvneta_xdp.cpp: driver.xdp on mvneta (the v5.5 XDP path) counted on
// the counting platform, per packet for drop, tx and pass, against a hand
// count of src/drivers/mvneta.c (derivations inline).

// Test config (mvneta_rig.h): rings of 64, napi_budget 16, 32 B descriptors,
// rx_buf_bytes 2048, cache line 64, non-coherent. With a program the buffer
// is mapped DMA_BIDIRECTIONAL (mvneta_create_page_pool), so every sync is a
// clean+invalidate, and the frame sits XDP_PACKET_HEADROOM (256) into it,
// after the 2-byte Marvell header. rx_sync used (v5.5's page_pool with
// PP_FLAG_DMA_SYNC_DEV, max_len 2048 - 256 = 1792 B from + 256: lines 4..31 = 28).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "unit/drivers/mvneta/mvneta_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;
constexpr uint32_t kLen = kFrame - 4;  // rx_bytes: 1514
// dma_sync_single_for_cpu over data_size (1514 + 4 + 2 = 1520 B) from + 256:
// [256, 1776) = lines 4..27 = 24 lines; the put back syncs MH + rx_bytes =
// 1516 B from + 256 (lines 4..27, 24); XDP_TX syncs the frame, 1514 B from
// + 258 (lines 4..27, 24).
constexpr uint64_t kFrameLines = 24;
constexpr uint64_t kMaxLenLines = 28;  // the pool's max_len sync

bool start_xdp(MvnetaRig &r, int verdict) {
  return r.start(false, true, true, [verdict](nicsim_config &c) {
    c.driver.rx_sync = NC_RX_SYNC_USED;
    c.driver.xdp = verdict;
    c.traffic.mode = NC_MODE_RX;  // driver.xdp tx needs it (the test config is bidir)
  });
}

}  // namespace

// XDP_DROP: no skb, no copy; the buffer goes straight back to the pool.
TEST(MvnetaXdp, DropRecyclesTheBufferWithoutAnSkb) {
  MvnetaRig r;
  ASSERT_TRUE(start_xdp(r, NC_XDP_DROP)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  // mvneta_rx_swbm: status + data_size per frame (buffer address from the shadow).
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  // mvneta_rx_refill: buf_phys_addr of the new buffer.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], N);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 0u);
  // Per frame: the CPU sync (24 lines) and mvneta_xdp_put_buff's
  // page_pool_put_page(sync = 1516) (24 lines). The first refill takes the
  // pool's first buffer the device never had (max_len, 28 lines); the rest
  // take the buffer just put back (LIFO), already synced.
  EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN_INV], 2 * N + 1);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN_INV], 2 * N * kFrameLines + kMaxLenLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE] + c.cache_lines[NK_CACHE_CLEAN], 0u);
  // No skb, no copy, no map.
  EXPECT_EQ(c.copies, 0u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  // MMIO as without XDP: mask, cause, RX_HEAD, one RX_TAIL, unmask.
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(c.mmio_reads, 2u);
  // The program: stack.xdp_prog_instructions per frame, under bpf_prog_run_xdp;
  // nothing else executes (no stack part runs).
  expect_xdp_prog_ran(c, r.t.cfg, N, true);
  EXPECT_DOUBLE_EQ(c.cycles, r.t.cfg.cpu.irq_entry_cycles + r.t.cfg.cpu.softirq_cycles);
  expect_xdp_verdicts(r.t.k, 0, N, 0, 0);
  EXPECT_EQ(r.rx_ok, 0u);
  EXPECT_EQ(r.pp->rx_xdp_consumed, N);
  EXPECT_EQ(r.t.check(), "");
}

// XDP_TX: the frame goes out of the same port from its RX buffer: no map,
// a sync for the device, one descriptor and one TXQ_UPDATE doorbell per frame
// (v5.5's mvneta_xdp_xmit_back); the buffer returns to the pool at TX completion.
TEST(MvnetaXdp, TxSendsTheBufferBackAndRecyclesItAtCompletion) {
  MvnetaRig r;
  ASSERT_TRUE(start_xdp(r, NC_XDP_TX)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  // RX descriptor refill (1) + the TX descriptor's command, buf_phys_addr and data_size (3).
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4 * N);
  // convert_to_xdp_frame: the 7 fields of struct xdp_frame into the headroom.
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 7 * N);
  // Per frame: CPU sync (24), the XDP_TX sync for the device (24), and a
  // refill from a buffer the device never had (28): the buffer just received
  // is on the TX ring, not back in the pool.
  EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN_INV], 3 * N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN_INV], N * (2 * kFrameLines + kMaxLenLines));
  EXPECT_EQ(c.copies, 0u);
  // MMIO: mask, cause, RX_HEAD, RX_TAIL, unmask + one TX_TAIL per frame.
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], N);
  EXPECT_EQ(c.mmio_writes, 3u + N);
  EXPECT_EQ(c.mmio_reads, 2u);
  expect_xdp_verdicts(r.t.k, 0, 0, N, 0);
  EXPECT_EQ(r.pp->xdp_tx_pending, N);
  EXPECT_EQ(r.t.check(), "") << "the pool holds 64 slot buffers + 10 on the TX ring";

  // The device sends them: each is the frame the peer sent (nf_check passes in
  // the fake), in order.
  {
    nf_seq_track track{};
    for (uint64_t i = 0; i < N; i++) {
      nf_header h{};
      ASSERT_EQ(r.nic->complete_tx(&h), "") << i;
      EXPECT_EQ(h.flow, 1u);
      ASSERT_TRUE(nf_seq_accept(&track, h.seq)) << h.seq;
    }
  }
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  // mvneta_txq_done: TX_HEAD; mvneta_txq_bufs_free per frame: buf_phys_addr
  // (IS_TSO_HEADER), no unmap (buf->type XDP_TX), page_pool_put_page(-1): a
  // max_len sync for the device (28 lines).
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_TX_HEAD / 4], 1u);
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], N);
  EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN_INV], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN_INV], N * kMaxLenLines);
  EXPECT_EQ(r.pp->xdp_tx_pending, 0u);
  EXPECT_EQ(r.t.check(), "");
}

// XDP_TX with a full TX ring: counted as tx_errors, the buffer back in the pool.
TEST(MvnetaXdp, TxOnAFullRingDropsAndCounts) {
  MvnetaRig r;
  ASSERT_TRUE(start_xdp(r, NC_XDP_TX)) << r.probe_err;
  const uint64_t stop = r.pp->txq.tx_stop_threshold;  // 63: room on the ring
  uint64_t seq = 0;
  // Fill the ring without completing anything: stop + 5 frames, 10 per poll;
  // the last 5 find it full.
  r.rx_in_batches(stop + 5, 10, kFrame, &seq);
  expect_xdp_verdicts(r.t.k, 0, 0, stop, 5);
  EXPECT_EQ(r.pp->xdp_tx_pending, stop);
  EXPECT_EQ(r.t.check(), "");
}

// XDP_PASS: the program runs, then the skb path as without XDP (a copy into
// a new skb; the buffer back to the pool).
TEST(MvnetaXdp, PassContinuesToTheSkbPath) {
  MvnetaRig r;
  ASSERT_TRUE(start_xdp(r, NC_XDP_PASS)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], N);
  EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN_INV], 2 * N + 1);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN_INV], 2 * N * kFrameLines + kMaxLenLines);
  // One copy of 1514 B from buffer + 258 into skb->data (head + 66): both 2 mod 64.
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * kLen);
  EXPECT_EQ(c.mmio_writes, 3u);
  expect_xdp_prog_ran(c, r.t.cfg, N, false);
  expect_xdp_verdicts(r.t.k, N, 0, 0, 0);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// Drivers without an XDP path refuse driver.xdp, naming the key (mvneta and
// i40e have one).
TEST(MvnetaXdp, OtherDriversRefuseTheKey) {
  for (int d : {NC_DRIVER_GENERIC, NC_DRIVER_STMMAC, NC_DRIVER_LAN743X}) {
    nicsim_config cfg;
    nc_config_defaults(&cfg);
    cfg.driver.name = d;
    cfg.driver.xdp = NC_XDP_DROP;
    nc_error err{};
    EXPECT_NE(nk_driver_check_config(&cfg, &err), 0) << d;
    EXPECT_NE(std::string(err.msg).find("driver.xdp"), std::string::npos) << err.msg;
  }
}
