// test_stmmac_counts.cpp: the stmmac driver's per-packet operations counted and
// matched against a hand count of src/drivers/stmmac.c (derivations inline),
// and the RX alignment knob (driver.rx_buf_offset) changing only the copy.

// Test config (test_support.h): rings of 64, napi_budget 16, rx_buf_bytes
// 2048, cache line 64, tx_coal_frames 25, rx_coal_frames 0, rx_buf_offset 66.
#include <gtest/gtest.h>

#include "unit/drivers/stmmac/stmmac_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;      // on the wire, FCS included
constexpr uint32_t kLen = kFrame - 4;  // DMA'd and copied: 1514 bytes
// dma_sync_single_for_cpu(buf->addr, 1514): with offset 66 the frame is at
// [66, 1580) of a line-aligned buffer: lines 1..24 = 24; with offset 0,
// [0, 1514): lines 0..23 = 24.
constexpr uint64_t kCpuLines = 24;
// stmmac_rx_refill syncs the whole 2048-byte allocation for the device: 32 lines.
constexpr uint64_t kDevLines = 2048 / 64;
// A TX skb's data is at head + 66: [66, 1580) = 24 lines cleaned by dma_map_single.
constexpr uint64_t kTxLines = 24;

// RX of N frames (N < budget) after one interrupt, from a fresh probe.
cp_counts rx_once(StmmacRig &r, uint64_t N) {
  uint64_t seq = 0;
  EXPECT_EQ(r.rx_counted(static_cast<int>(N), kFrame, &seq), 1);
  return r.t.cp.c;
}

}  // namespace

TEST(StmmacCounts, RxPerPacketOnANonCoherentPlatform) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 10;
  const cp_counts c = rx_once(r, N);

  // stmmac_rx per frame: dwmac4_wrback_get_rx_status (ld des3) and
  // dwmac4_wrback_get_rx_frame_len (ld des3) = 2; the stop on descriptor 10
  // (OWN set) = +1. stmmac_rx_refill per frame: dwmac4_set_rx_owner's
  // read-modify-write of des3 = 1 load. Total 3N + 1.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 3 * N + 1);
  // Refill per frame: dwmac4_set_addr (des0, des1), dwmac4_set_sec_addr (des2,
  // des3), dwmac4_set_rx_owner (des3) = 5 stores.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 5 * N);
  EXPECT_EQ(c.loads[NK_MEM_CACHED] + c.stores[NK_MEM_CACHED], 0u);
  // dma_wmb() before set_rx_owner per refilled descriptor; no other barrier on RX.
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], N);
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB] + c.barriers[NK_BARRIER_MB] + c.barriers[NK_BARRIER_RMB] +
                c.barriers[NK_BARRIER_WMB],
            0u);
  // Two invalidates per frame: for the CPU (24 lines) and, at refill, the
  // whole allocation for the device (32 lines).
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], 2 * N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * (kCpuLines + kDevLines));
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  // One copy per frame from buffer + 66 (& 7 == 2) into skb->data (& 7 == 2): aligned.
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * kLen);
  EXPECT_EQ(c.copies_aligned, N);
  EXPECT_EQ(c.copies_misaligned, 0u);
  // MMIO per interrupt: stmmac_interrupt reads GMAC_INT_STATUS, GMAC_INT_EN
  // (dwmac4_irq_status), MTL_INT_STATUS (dwmac4_irq_mtl_status),
  // DMA_CHAN_STATUS and DMA_CHAN_INTR_ENA (dwmac4_dma_interrupt) = 5 reads;
  // writes the handled status back (1), disables the DMA IRQ (1); the poll
  // moves the RX tail once (1) and enables the DMA IRQ (1) = 4 writes.
  EXPECT_EQ(c.mmio_reads, 5u);
  EXPECT_EQ(c.mmio_reads_reg[STMMAC_GMAC_INT_STATUS / 4], 1u);
  EXPECT_EQ(c.mmio_reads_reg[STMMAC_GMAC_INT_EN / 4], 1u);
  EXPECT_EQ(c.mmio_reads_reg[STMMAC_MTL_INT_STATUS / 4], 1u);
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_STATUS / 4], 1u);
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_MASK / 4], 1u);
  EXPECT_EQ(c.mmio_writes, 4u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_STATUS / 4], 1u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 1u);
  // One irq entry; one softirq polling RX then TX (TX NAPI is scheduled with RX).
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_IRQ_ENTRY), r.t.cfg.cpu.irq_entry_cycles);
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_NET_RX_ACTION), r.t.cfg.cpu.softirq_cycles);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->napi_polls, 2u);
  EXPECT_EQ(c.host_rx, N);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_RX_TAIL / 4], N - 1) << "tail = the new empty slot, (63 + 10) mod 64";
  EXPECT_EQ(r.t.check(), "");
}

// driver.stmmac_queues and nic.stmmac_asp (the HAPS boards of the coalescing
// seed): stmmac_interrupt reads the safety package's two status registers,
// the MAC's two, MTL_INT_STATUS once per queue and each channel's status and
// enable: 2 + 2 + 4 + 2 x 4 = 16 reads, and writes each channel's status
// back. The idle channels change nothing else: the same frames, the same
// memory accesses and the same NAPI work as with one queue.
TEST(StmmacCounts, EveryInterruptReadsEachQueueAndTheSafetyStatus) {
  const uint64_t N = 10;
  StmmacRig one, four;
  ASSERT_TRUE(one.start(false)) << one.probe_err;
  ASSERT_TRUE(four.start(false, [](nicsim_config &c) {
    c.driver.stmmac_queues = 4;
    c.nic.stmmac_asp = true;
  })) << four.probe_err;
  const cp_counts a = rx_once(one, N);
  const cp_counts b = rx_once(four, N);
  EXPECT_EQ(a.mmio_reads, 5u);
  EXPECT_EQ(b.mmio_reads, 16u);
  EXPECT_EQ(b.mmio_reads_reg[STMMAC_MTL_SAFETY_INT_STATUS / 4], 1u);
  EXPECT_EQ(b.mmio_reads_reg[STMMAC_DMA_SAFETY_INT_STATUS / 4], 1u);
  EXPECT_EQ(b.mmio_reads_reg[STMMAC_GMAC_INT_STATUS / 4], 1u);
  EXPECT_EQ(b.mmio_reads_reg[STMMAC_GMAC_INT_EN / 4], 1u);
  EXPECT_EQ(b.mmio_reads_reg[STMMAC_MTL_INT_STATUS / 4], 4u);
  for (uint32_t q = 0; q < 4; q++) {
    EXPECT_EQ(b.mmio_reads_reg[STMMAC_DMA_CHAN_STATUS(q) / 4], 1u) << "channel " << q;
    EXPECT_EQ(b.mmio_reads_reg[STMMAC_DMA_CHAN_INTR_ENA(q) / 4], 1u) << "channel " << q;
    EXPECT_EQ(b.mmio_writes_reg[STMMAC_DMA_CHAN_STATUS(q) / 4], 1u) << "channel " << q;
  }
  EXPECT_EQ(b.mmio_writes, a.mmio_writes + 3);
  EXPECT_EQ(std::memcmp(&a.loads, &b.loads, sizeof a.loads), 0);
  EXPECT_EQ(std::memcmp(&a.stores, &b.stores, sizeof a.stores), 0);
  EXPECT_EQ(a.copies, b.copies);
  EXPECT_EQ(nk_kernel_get_stats(four.t.k)->napi_polls, 2u);
  EXPECT_EQ(four.rx_ok, N);
  EXPECT_EQ(four.t.check(), "");
}

TEST(StmmacCounts, RxOnACoherentPlatformHasTheSameAccessesCachedAndNoMaintenance) {
  StmmacRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const uint64_t N = 10;
  const cp_counts c = rx_once(r, N);
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 3 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 5 * N);
  EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.mmio_reads, 5u);
  EXPECT_EQ(c.mmio_writes, 4u);
  EXPECT_EQ(r.rx_ok, N);
}

// The alignment seed: rx_buf_offset 0 (before) vs 66 (after). Every RX copy
// moves from misaligned ((dst ^ src) & 7 == 2) to aligned, and no other count
// changes: not the loads, stores, barriers, lines, MMIO, bytes or charges.
TEST(StmmacCounts, RxBufOffsetMovesEveryCopyToAlignedAndChangesNothingElse) {
  const uint64_t N = 12;
  StmmacRig before, after;
  ASSERT_TRUE(before.start(false, [](nicsim_config &c) { c.driver.rx_buf_offset = 0; })) << before.probe_err;
  ASSERT_TRUE(after.start(false, [](nicsim_config &c) { c.driver.rx_buf_offset = 66; })) << after.probe_err;
  cp_counts b = rx_once(before, N);
  cp_counts a = rx_once(after, N);
  // The device wrote each frame at the buffer's start, or 66 bytes in.
  EXPECT_EQ(before.nic->last_rx_buf % 64, 0u);
  EXPECT_EQ(after.nic->last_rx_buf % 64, 66u % 64);
  EXPECT_EQ(b.copies_misaligned, N);
  EXPECT_EQ(b.copies_aligned, 0u);
  EXPECT_EQ(a.copies_aligned, N);
  EXPECT_EQ(a.copies_misaligned, 0u);
  // Everything else is identical, field by field.
  b.copies_aligned = a.copies_aligned;
  b.copies_misaligned = a.copies_misaligned;
  EXPECT_EQ(std::memcmp(&a.loads, &b.loads, sizeof a.loads), 0);
  EXPECT_EQ(std::memcmp(&a.stores, &b.stores, sizeof a.stores), 0);
  EXPECT_EQ(std::memcmp(&a.barriers, &b.barriers, sizeof a.barriers), 0);
  EXPECT_EQ(std::memcmp(&a.cache_calls, &b.cache_calls, sizeof a.cache_calls), 0);
  EXPECT_EQ(std::memcmp(&a.cache_lines, &b.cache_lines, sizeof a.cache_lines), 0);
  EXPECT_EQ(std::memcmp(&a.mmio_reads_reg, &b.mmio_reads_reg, sizeof a.mmio_reads_reg), 0);
  EXPECT_EQ(std::memcmp(&a.mmio_writes_reg, &b.mmio_writes_reg, sizeof a.mmio_writes_reg), 0);
  EXPECT_EQ(a.copies, b.copies);
  EXPECT_EQ(a.copy_bytes, b.copy_bytes);
  EXPECT_EQ(a.charges, b.charges);
  EXPECT_DOUBLE_EQ(a.cycles, b.cycles);
  EXPECT_EQ(std::memcmp(&a.bucket_ops, &b.bucket_ops, sizeof a.bucket_ops), 0);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "some other counter differs";
  EXPECT_EQ(before.rx_ok, N);
  EXPECT_EQ(after.rx_ok, N);
  EXPECT_EQ(before.t.check(), "");
  EXPECT_EQ(after.t.check(), "");
}

// driver.page_pool false: the v4.14 to v5.3 RX path. Each RX slot holds an
// skb of dma_buf_sz = (2048 - 66) & ~7 = 1976 bytes whose data starts 66
// bytes into a line-aligned skb buffer.
TEST(StmmacCounts, RxWithoutPagePoolPassesEachSlotsSkbUpAndMapsANewOne) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) { c.driver.page_pool = NC_PAGE_POOL_FALSE; })) << r.probe_err;
  ASSERT_FALSE(r.priv->use_page_pool);
  ASSERT_EQ(r.priv->page_pool, nullptr);
  EXPECT_EQ(r.priv->dma_buf_sz, 1976u);
  const uint64_t N = 10;
  const cp_counts c = rx_once(r, N);
  // The descriptor work is the page_pool path's: 3N + 1 loads, 5N stores.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 3 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 5 * N);
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], N);
  // No copy: the frame goes up in the skb the device wrote it into.
  EXPECT_EQ(c.copies, 0u);
  EXPECT_EQ(r.priv->rx_zeroc, N);
  // Per frame two invalidates over dma_buf_sz at skb->data, [66, 2042) of the
  // buffer = lines 1..31: dma_unmap_single at receive (for the CPU) and
  // dma_map_single of the new skb at refill (for the device).
  const uint64_t kSkbLines = (66 + 1976 + 63) / 64 - 66 / 64;
  ASSERT_EQ(kSkbLines, 31u);
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], 2 * N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], 2 * N * kSkbLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  // The device wrote the frame at the skb's data: 66 bytes into a line.
  EXPECT_EQ(r.nic->last_rx_buf % 64, 66u % 64);
  EXPECT_EQ(c.mmio_reads, 5u);
  EXPECT_EQ(c.mmio_writes, 4u);
  EXPECT_EQ(r.rx_ok, N) << "every frame reached the stack intact";
  EXPECT_EQ(r.t.check(), "") << "an skb in every slot but the empty one, none leaked";
}

// The same frames through the page_pool path (v5.4): the copy replaces the
// zero-copy hand-over, and the syncs cover the frame and the allocation
// instead of two whole skb buffers.
TEST(StmmacCounts, PagePoolTradesTheCopyForSmallerSyncs) {
  const uint64_t N = 10;
  StmmacRig pp, skb;
  ASSERT_TRUE(pp.start(false, [](nicsim_config &c) { c.driver.page_pool = NC_PAGE_POOL_TRUE; })) << pp.probe_err;
  ASSERT_TRUE(skb.start(false, [](nicsim_config &c) { c.driver.page_pool = NC_PAGE_POOL_FALSE; })) << skb.probe_err;
  const cp_counts a = rx_once(pp, N), b = rx_once(skb, N);
  EXPECT_EQ(a.copies, N);
  EXPECT_EQ(a.copy_bytes, N * kLen);
  EXPECT_EQ(b.copies, 0u);
  EXPECT_EQ(a.cache_lines[NK_CACHE_INVALIDATE], N * (kCpuLines + kDevLines));
  EXPECT_GT(b.cache_lines[NK_CACHE_INVALIDATE], a.cache_lines[NK_CACHE_INVALIDATE]);
  EXPECT_EQ(pp.rx_ok, N);
  EXPECT_EQ(skb.rx_ok, N);
}

// TX: per xmit, then per completion. tx_coal_frames 25, so the first 24
// frames get no IOC and arm the TX timer.
TEST(StmmacCounts, TxPerPacketOnANonCoherentPlatform) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t M = 10;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  {
    const cp_counts &c = r.t.cp.c;
    // stmmac_xmit per frame: dwmac4_set_addr (2 stores), then
    // dwmac4_rd_prepare_tx_desc: ld des3, ld des2 + st des2, dma_wmb, st des3:
    // 2 loads, 4 stores. (No IOC: no dwmac4_set_tx_ic.)
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * M);
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4 * M);
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], M);  // before OWN of the first descriptor
    EXPECT_EQ(c.barriers[NK_BARRIER_WMB], M);      // the wmb() before the tail write
    EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN], M);   // dma_map_single(TO_DEVICE)
    EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN], M * kTxLines);
    EXPECT_EQ(c.mmio_writes, M);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], M);
    EXPECT_EQ(c.mmio_reads, 0u);
    EXPECT_EQ(c.timer_arms, M) << "stmmac_tx_timer_arm per frame without IOC";
  }
  EXPECT_EQ(r.priv->tx_set_ic_bit, 0u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_TX_TAIL / 4], M);
  EXPECT_EQ(r.nic->tx_owned(), M);

  // The device sends 4; no IOC, so no interrupt: the TX timer cleans.
  nf_seq_track track{};
  r.tx_complete(4, &track);
  EXPECT_EQ(r.service(), 0);
  cp_reset_counts(&r.t.cp);
  ASSERT_TRUE(r.fire_tx_timer());
  {
    const cp_counts &c = r.t.cp.c;
    // stmmac_tx_clean: per cleaned descriptor ld des3 (dwmac4_wrback_get_tx_status),
    // dma_rmb, dma_unmap_single (no maintenance for TO_DEVICE), 4 stores
    // (dwmac4_release_tx_desc); then ld des3 of descriptor 4, still OWN: 4 + 1 loads.
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4u + 1);
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4u * 4);
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB], 4u);
    EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
    // 6 frames still pending: stmmac_napi_poll_tx writes the tail again
    // ("force transmission restart") and tx_clean re-arms the timer at 10 us.
    EXPECT_EQ(c.mmio_writes, 1u);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], 1u);
    EXPECT_EQ(c.timer_arms, 1u);
    // The expiry: one hrtimer_interrupt charge and one softirq.
    EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_HRTIMER), r.t.cfg.cpu.softirq_cycles);
    EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_NET_RX_ACTION), r.t.cfg.cpu.softirq_cycles);
  }
  EXPECT_EQ(r.t.cp.timer_delay_ns[r.priv->txtimer.id - 1], 10000u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 4u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), M - 4);

  // The other 6; the retry timer cleans them and does not re-arm.
  r.tx_complete(6, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_TRUE(r.fire_tx_timer());
  EXPECT_EQ(r.t.cp.c.loads[NK_MEM_UNCACHED], 6u) << "the walk ends at cur_tx without a stop load";
  EXPECT_EQ(r.t.cp.c.timer_arms, 0u);
  EXPECT_EQ(r.t.cp.c.mmio_writes, 0u);
  EXPECT_FALSE(hrtimer_is_queued(&r.priv->txtimer));
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(track.received, M);
  EXPECT_EQ(r.t.check(), "");
}

// Each hot function charges its own profile bucket.
TEST(StmmacCounts, OperationsLandInTheFunctionsThatMakeThem) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 5;
  rx_once(r, N);
  // stmmac_interrupt's reads are in the dwmac4 readers, as in the seed's profile.
  EXPECT_EQ(r.t.bucket_ops("dwmac4_irq_status"), 2u);
  EXPECT_EQ(r.t.bucket_ops("dwmac4_irq_mtl_status"), 1u);
  // dwmac4_dma_interrupt: 2 reads + the status write = 3; the DMA IRQ
  // disable (stmmac_napi_check, not profiled) lands in stmmac_interrupt.
  EXPECT_EQ(r.t.bucket_ops("dwmac4_dma_interrupt"), 3u);
  EXPECT_EQ(r.t.bucket_ops("stmmac_interrupt"), 1u) << "stmmac_disable_dma_irq from stmmac_napi_check";
  // stmmac_rx per frame: 2 loads, sync (1 cache op), memcpy = 4; plus the stop load.
  EXPECT_EQ(r.t.bucket_ops("stmmac_rx"), 4 * N + 1);
  // stmmac_rx_refill per frame: sync (1) + 5 stores + 1 load + dma_wmb = 8; + the tail write.
  EXPECT_EQ(r.t.bucket_ops("stmmac_rx_refill"), 8 * N + 1);
  EXPECT_EQ(r.t.bucket_ops("stmmac_napi_poll_rx"), 1u);  // enable DMA IRQ
  EXPECT_EQ(nk_prof_class(nk_prof_find("stmmac_interrupt")), NK_CLASS_IRQ);
  EXPECT_EQ(nk_prof_class(nk_prof_find("dwmac4_dma_interrupt")), NK_CLASS_IRQ);
  EXPECT_EQ(nk_prof_class(nk_prof_find("stmmac_rx")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("stmmac_tx_clean")), NK_CLASS_TX);
}

TEST(StmmacProbe, RejectsSpacedDescriptorsSmallRingsAndShortBuffers) {
  {
    StmmacRig r;
    EXPECT_FALSE(r.start(false, [](nicsim_config &c) { c.nic.desc_spacing = 32; }));
    EXPECT_NE(r.probe_err.find("nic.desc_spacing"), std::string::npos) << r.probe_err;
  }
  {
    StmmacRig r;
    EXPECT_FALSE(r.start(false, [](nicsim_config &c) { c.nic.rx_ring_size = 32; }));
    EXPECT_NE(r.probe_err.find("is not an stmmac ring size"), std::string::npos) << r.probe_err;
  }
  {
    StmmacRig r;
    EXPECT_FALSE(r.start(false, [](nicsim_config &c) {
      c.driver.rx_buf_bytes = 1536;
      c.driver.rx_buf_offset = 66;
    }));
    EXPECT_NE(r.probe_err.find("driver.rx_buf_offset"), std::string::npos) << r.probe_err;
  }
}

TEST(StmmacProbe, ProgramsTheRingsBufferSizeAndWatchdog) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) { c.driver.rx_riwt = 0x10; })) << r.probe_err;
  const uint32_t *regs = r.t.cp.regs;
  EXPECT_EQ(regs[GN_REG_DESC_SPACING / 4], 16u);
  EXPECT_EQ(regs[GN_REG_RX_RING_SIZE / 4], 64u);
  EXPECT_EQ(regs[GN_REG_RX_BUF_SIZE / 4], (2048u - 66) & ~7u);
  EXPECT_EQ(regs[GN_REG_RX_WATCHDOG / 4], 0x10u);
  EXPECT_EQ(regs[GN_REG_RX_TAIL / 4], 63u);
  EXPECT_EQ(regs[GN_REG_INT_MASK / 4], 0u);
  EXPECT_EQ(regs[GN_REG_CTRL / 4], GN_CTRL_RX_EN | GN_CTRL_TX_EN);
  // Descriptors from dma_alloc_coherent: uncached on a non-coherent platform.
  EXPECT_EQ(cp_attr(&r.t.cp, r.priv->dma_rx_phy), NK_MEM_UNCACHED);
  EXPECT_EQ(cp_attr(&r.t.cp, r.priv->dma_tx_phy), NK_MEM_UNCACHED);
  EXPECT_EQ(r.t.check(), "");
}

// The TX locks as in Linux (docs/kernel.md, "Spinlocks"): the kernel's xmit
// takes TX queue 0's lock (id 1) once per frame; stmmac_tx_clean takes it
// (__netif_tx_lock_bh) once per TX NAPI poll. Three frames under
// tx_coal_frames carry no IOC: no interrupt; the coalescing timer schedules
// TX NAPI: one poll, one clean (nothing is left in flight, so it does not re-arm).
TEST(StmmacCounts, TxCleanTakesTheQueueLock) {
  StmmacRig r;
  expect_tx_locks(r, TxLocks{3, 0, 1, 0}, [](StmmacRig &x) {
    ASSERT_EQ(x.service(), 0);
    ASSERT_TRUE(x.fire_tx_timer());
  });
}
