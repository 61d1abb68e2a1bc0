// test_mvneta_counts.cpp: the mvneta driver's per-packet operations counted
// on the counting platform and matched against a hand count of
// src/drivers/mvneta.c (derivations inline), and each seed knob changing
// exactly the accesses its patch changes.

// Test config (mvneta_rig.h): rings of 64, napi_budget 16, 32 B descriptors,
// rx_buf_bytes 2048, cache line 64, non-coherent unless said otherwise.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include <tuple>

#include "unit/drivers/mvneta/mvneta_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;      // on the wire, FCS included
constexpr uint32_t kLen = kFrame - 4;  // rx_bytes = data_size - (FCS + Marvell header): 1514
// mvneta_rx_refill syncs the whole 2048-byte pool buffer for the device
// (what dma_map_single of a fresh buffer costs) and the old one for the CPU
// (what dma_unmap_single costs): 2048 / 64 = 32 lines each.
constexpr uint64_t kBufLines = 32;
// A TX skb's data starts at head + 66: [66, 1580) covers lines 1..24 = 24 lines.
constexpr uint64_t kTxLines = 24;

}  // namespace

// RX of large frames (> rx_copybreak): N frames, one interrupt, one poll (N < budget).
TEST(MvnetaCounts, RxLargeFramesPerPacketOnANonCoherentPlatform) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;

  // mvneta_rx_swbm per frame: nk_ld32(status) + nk_ld16(data_size); the buffer
  // address comes from the shadow buf_dma_addr[] (patch 4): 2 uncached loads.
  // No stop load: the count of filled descriptors comes from a register.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  // mvneta_rx_refill -> mvneta_rx_desc_fill: nk_st32(buf_phys_addr) = 1 per frame.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], N);
  EXPECT_EQ(c.loads[NK_MEM_CACHED] + c.stores[NK_MEM_CACHED], 0u);
  // No barrier: mvneta has no OWN bit; the writel to RX_TAIL orders the stores.
  for (int b = 0; b < CP_NBARRIER; b++) EXPECT_EQ(c.barriers[b], 0u) << b;
  // Two invalidates of 32 lines per frame (new buffer for the device, old one for the CPU).
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], 2 * N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], 2 * N * kBufLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  // nicsim has no build_skb: one copy of 1514 bytes per frame, from buffer + 66
  // (NET_SKB_PAD + Marvell header) to skb->data (head + 66): aligned.
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * kLen);
  EXPECT_EQ(c.copies_aligned, N);
  // MMIO: mvneta_isr masks (INT_MASK); mvneta_poll reads the cause (INT_STATUS);
  // mvneta_rx_swbm reads the filled count (RX_HEAD) and hands back all 10 in one
  // update (RX_TAIL); the poll completes and unmasks (INT_MASK): 3 writes, 2 reads.
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 1u);
  EXPECT_EQ(c.mmio_reads, 2u);
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_STATUS / 4], 1u);
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_RX_HEAD / 4], 1u);
  // Charges: irq entry + one softirq + the RX stack per frame.
  const nc_cpu &cpu = r.t.cfg.cpu;
  EXPECT_DOUBLE_EQ(c.cycles, cpu.irq_entry_cycles + cpu.softirq_cycles +
                                 TestKernel::reader_cycles(cpu, N, kLen));
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.pp->rx_refill_pkts, N);
  EXPECT_EQ(r.t.cp.regs[GN_REG_RX_TAIL / 4], N - 1) << "(63 + 10) mod 64";
  EXPECT_EQ(r.t.check(), "");
}

// RX of small frames (<= rx_copybreak 256): copied, descriptor and buffer untouched.
TEST(MvnetaCounts, RxCopybreakFramesLeaveTheDescriptorUntouched) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  uint32_t addr_before[10];
  for (uint32_t i = 0; i < N; i++) addr_before[i] = mvneta_rx_desc_at(r.pp, i)->buf_phys_addr;
  r.rx_frames(N, 64, &seq);  // 60 bytes after FCS
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  const cp_counts &c = r.t.cp.c;
  // status + data_size per frame; no store at all.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 0u);
  // dma_sync_single_range_for_cpu over the 60 frame bytes at buffer + 66: line 1 only.
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N);
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * 60);
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(c.mmio_reads, 2u);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.pp->rx_copybreak_pkts, N);
  for (uint32_t i = 0; i < N; i++) EXPECT_EQ(mvneta_rx_desc_at(r.pp, i)->buf_phys_addr, addr_before[i]) << i;
  EXPECT_EQ(r.t.check(), "");
}

// driver.rx_sync used (the page_pool driver of v5.5 on): the CPU sync covers
// only data_size (frame + Marvell header: 1518 + 2 = 1520 B from buffer + 64,
// bytes [64, 1584): lines 1..24 = 24 lines), and the pool syncs the same
// range for the device when mvneta gives the old buffer back
// (page_pool_put_page with dma_sync_size 1520). The first refill takes the
// pool's one buffer the device has never had (65 buffers for 64 slots):
// PP_FLAG_DMA_SYNC_DEV syncs its max_len (2048 - 64 = 1984 B from + 64:
// lines 1..31 = 31 lines); every later refill takes the buffer just given back
// (the free list is LIFO), already synced.
TEST(MvnetaCounts, RxSyncUsedSyncsOnlyTheReceivedLength) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false, true, true, [](nicsim_config &c) { c.driver.rx_sync = NC_RX_SYNC_USED; }))
      << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], 2 * N + 1);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], 2 * N * 24 + 31);
  EXPECT_LT(c.cache_lines[NK_CACHE_INVALIDATE], 2 * N * kBufLines) << "fewer lines than rx_sync full";
  // Everything else as with rx_sync full.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], N);
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// driver.copybreak_bytes: 0 turns mvneta's rx_copybreak off (a 64 B frame
// takes the refill path); 2000 copies 1518 B frames too (the buffer stays).
TEST(MvnetaCounts, CopybreakBytesMovesTheCopyThreshold) {
  {
    MvnetaRig r;
    ASSERT_TRUE(r.start(false, true, true, [](nicsim_config &c) { c.driver.copybreak_bytes = 0; })) << r.probe_err;
    uint64_t seq = 0;
    ASSERT_EQ(r.rx_counted(5, 64, &seq), 1);
    EXPECT_EQ(r.pp->rx_copybreak_pkts, 0u);
    EXPECT_EQ(r.pp->rx_refill_pkts, 5u);
    // A refill per frame: one store of the new buffer's address each.
    EXPECT_EQ(r.t.cp.c.stores[NK_MEM_UNCACHED], 5u);
    EXPECT_EQ(r.t.check(), "");
  }
  {
    MvnetaRig r;
    ASSERT_TRUE(r.start(false, true, true, [](nicsim_config &c) { c.driver.copybreak_bytes = 2000; }))
        << r.probe_err;
    uint64_t seq = 0;
    ASSERT_EQ(r.rx_counted(5, kFrame, &seq), 1);
    EXPECT_EQ(r.pp->rx_copybreak_pkts, 5u);
    EXPECT_EQ(r.pp->rx_refill_pkts, 0u);
    EXPECT_EQ(r.t.cp.c.stores[NK_MEM_UNCACHED], 0u) << "the descriptors stay untouched";
    EXPECT_EQ(r.t.check(), "");
  }
}

// driver.page_pool true: v5.5's page_pool driver, which has no copybreak and
// syncs the received length (rx_sync used, left at its default here). A mix
// of 64 B frames (copied with copybreak on) and 1518 B frames counts exactly
// as rx_sync used with copybreak_bytes 0, and unlike the seed-era driver.
TEST(MvnetaCounts, PagePoolTrueIsThev55DriverWithoutCopybreak) {
  auto run = [](const std::function<void(nicsim_config &)> &tweak, cp_counts *out, uint64_t *copybreak) {
    MvnetaRig r;
    ASSERT_TRUE(r.start(false, true, true, tweak)) << r.probe_err;
    uint64_t seq = 0;
    ASSERT_EQ(r.rx_counted(4, 64, &seq), 1);
    ASSERT_EQ(r.rx_counted(4, kFrame, &seq), 1);
    *out = r.t.cp.c;
    *copybreak = r.pp->rx_copybreak_pkts;
    EXPECT_EQ(r.rx_ok, 8u);
    EXPECT_EQ(r.t.check(), "");
  };
  cp_counts v55{}, used0{}, seed{};
  uint64_t cb55 = 0, cb_used0 = 0, cb_seed = 0;
  run([](nicsim_config &c) { c.driver.page_pool = NC_PAGE_POOL_TRUE; }, &v55, &cb55);
  run(
      [](nicsim_config &c) {
        c.driver.rx_sync = NC_RX_SYNC_USED;
        c.driver.copybreak_bytes = 0;
      },
      &used0, &cb_used0);
  run([](nicsim_config &c) { c.driver.page_pool = NC_PAGE_POOL_FALSE; }, &seed, &cb_seed);
  EXPECT_EQ(cb55, 0u);
  EXPECT_EQ(cb_seed, 4u) << "the seed era copies the 64 B frames (rx_copybreak 256)";
  EXPECT_EQ(std::memcmp(&v55, &used0, sizeof v55), 0) << "page_pool true differs from rx_sync used + no copybreak";
  EXPECT_NE(v55.cache_lines[NK_CACHE_INVALIDATE], seed.cache_lines[NK_CACHE_INVALIDATE]);
}

// The same path on a coherent platform: the same accesses, all cached, no maintenance.
TEST(MvnetaCounts, RxOnACoherentPlatformHasNoUncachedAccessOrMaintenance) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 2 * N);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], N);
  EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
  EXPECT_EQ(r.rx_ok, N);
}

// 40 frames with budget 16: polls of 16, 16 and 8 after one interrupt.
TEST(MvnetaCounts, RxAcrossSeveralPollsReadsTheCountAndUpdatesOncePerPoll) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 40;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], N);
  // Each poll: readl(INT_STATUS), readl(RX_HEAD), writel(RX_TAIL). The first two
  // use the whole budget and keep the RX cause for the next poll (the cause
  // register was cleared by the first read); only the last one unmasks.
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_STATUS / 4], 3u);
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_RX_HEAD / 4], 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);
  EXPECT_EQ(c.mmio_writes, 5u);
  EXPECT_EQ(c.mmio_reads, 6u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->napi_full, 2u);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// TX on a non-coherent platform: per xmit, then per completion.
TEST(MvnetaCounts, TxPerPacketOnANonCoherentPlatform) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t M = 10;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  {
    const cp_counts &c = r.t.cp.c;
    // mvneta_tx: nk_st16(data_size), nk_st32(buf_phys_addr), nk_st32(command) = 3
    // uncached stores; after patch 3 nothing is read back.
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 3 * M);
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.loads[NK_MEM_CACHED], 0u);
    for (int b = 0; b < CP_NBARRIER; b++) EXPECT_EQ(c.barriers[b], 0u) << b;
    // dma_map_single(TO_DEVICE) cleans the frame's 24 lines.
    EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN], M);
    EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN], M * kTxLines);
    EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
    // mvneta_txq_pend_desc_add: one TX_TAIL write per frame; no read.
    EXPECT_EQ(c.mmio_writes, M);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], M);
    EXPECT_EQ(c.mmio_reads, 0u);
    const nc_cpu &cpu = r.t.cfg.cpu;
    EXPECT_DOUBLE_EQ(c.cycles, M * TestKernel::send_cycles(cpu, kLen));
  }
  EXPECT_EQ(r.nic->tx_owned(), M);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, M) << "mvneta counts TX at xmit";

  nf_seq_track track{};
  r.tx_complete(4, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  {
    const cp_counts &c = r.t.cp.c;
    // mvneta_txq_bufs_free per frame: nk_ld32(buf_phys_addr) into a local, then
    // nk_ld16(data_size) for the unmap: 2 uncached loads.
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * 4u);
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 0u);
    // dma_unmap_single(TO_DEVICE): no maintenance.
    EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
    // mask; readl(INT_STATUS) finds TX only; readl(TX_HEAD) in mvneta_txq_sent_desc_proc;
    // no RX cause, so no RX_HEAD read or RX_TAIL write; unmask.
    EXPECT_EQ(c.mmio_writes, 2u);
    EXPECT_EQ(c.mmio_reads, 2u);
    EXPECT_EQ(c.mmio_reads_reg[GN_REG_TX_HEAD / 4], 1u);
  }
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), M - 4);
  r.tx_complete(6, &track);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(track.received, M);
  EXPECT_EQ(r.t.check(), "");
}

// Each hot function charges its own profile bucket, with the right class.
TEST(MvnetaCounts, OperationsLandInTheFunctionsThatMakeThem) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 5;
  ASSERT_EQ(r.rx_tx_counted(N, kFrame), 1);
  EXPECT_EQ(r.t.bucket_ops("mvneta_isr"), 1u);                 // the mask write
  EXPECT_EQ(r.t.bucket_ops("mvneta_poll"), 2u);                // cause read + unmask write
  EXPECT_EQ(r.t.bucket_ops("mvneta_txq_done"), 1u);            // TX_HEAD read
  EXPECT_EQ(r.t.bucket_ops("mvneta_txq_bufs_free"), 2u);       // 2 loads, the unmap costs nothing
  // mvneta_rx_swbm: RX_HEAD read, per frame 2 loads + 1 invalidate + 1 memcpy, RX_TAIL write.
  EXPECT_EQ(r.t.bucket_ops("mvneta_rx_swbm"), 2 + 4 * N);
  EXPECT_EQ(r.t.bucket_ops("mvneta_rx_refill"), 2 * N);        // invalidate + store
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_isr")), NK_CLASS_IRQ);
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_poll")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_rx_swbm")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_rx_refill")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_txq_done")), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_txq_bufs_free")), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("mvneta_tx")), NK_CLASS_TX);
}

// ---- the seed's knobs -------------------------------------------------------------

namespace {

// Counts of one fixed workload: 8 large + 8 copybreak RX frames in one poll,
// then 8 TX frames sent and completed in another.
struct Workload {
  cp_counts rx{}, tx_xmit{}, tx_done{};
};

Workload run_workload(bool reuse, bool shadow) {
  Workload w;
  MvnetaRig r;
  EXPECT_TRUE(r.start(false, reuse, shadow)) << r.probe_err;
  if (!r.pp) return w;
  uint64_t seq = 0;
  r.rx_frames(8, kFrame, &seq);
  r.rx_frames(8, 64, &seq);
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(r.service(), 1);
  w.rx = r.t.cp.c;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < 8; s++) EXPECT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  w.tx_xmit = r.t.cp.c;
  nf_seq_track track{};
  r.tx_complete(8, &track);
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(r.service(), 1);
  w.tx_done = r.t.cp.c;
  EXPECT_EQ(r.rx_ok, 16u);
  EXPECT_EQ(track.received, 8u);
  EXPECT_EQ(r.t.check(), "");
  return w;
}

// Everything but uncached loads must be identical between two runs.
void expect_same_except_uncached_loads(const cp_counts &a, const cp_counts &b, const char *what) {
  EXPECT_EQ(a.loads[NK_MEM_CACHED], b.loads[NK_MEM_CACHED]) << what;
  for (int i = 0; i < CP_NATTR; i++) EXPECT_EQ(a.stores[i], b.stores[i]) << what << " stores " << i;
  EXPECT_EQ(a.mmio_reads, b.mmio_reads) << what;
  EXPECT_EQ(a.mmio_writes, b.mmio_writes) << what;
  for (int i = 0; i < CP_NCACHE; i++) EXPECT_EQ(a.cache_lines[i], b.cache_lines[i]) << what << " cache " << i;
  for (int i = 0; i < CP_NBARRIER; i++) EXPECT_EQ(a.barriers[i], b.barriers[i]) << what << " barrier " << i;
  EXPECT_EQ(a.copies, b.copies) << what;
  EXPECT_EQ(a.copy_bytes, b.copy_bytes) << what;
  EXPECT_DOUBLE_EQ(a.cycles, b.cycles) << what;
}

}  // namespace

// Patch 4: with the address in the descriptor (shadow_dma_addr false),
// mvneta_rx_swbm makes one more uncached load per RX frame, large or small,
// and nothing else changes; TX is not affected.
TEST(MvnetaKnobs, ShadowDmaAddrRemovesOneUncachedLoadPerRxFrame) {
  const Workload before = run_workload(true, false), after = run_workload(true, true);
  EXPECT_EQ(after.rx.loads[NK_MEM_UNCACHED], 2 * 16u);
  EXPECT_EQ(before.rx.loads[NK_MEM_UNCACHED], 3 * 16u);
  expect_same_except_uncached_loads(before.rx, after.rx, "rx");
  EXPECT_EQ(before.tx_xmit.loads[NK_MEM_UNCACHED], after.tx_xmit.loads[NK_MEM_UNCACHED]);
  EXPECT_EQ(before.tx_done.loads[NK_MEM_UNCACHED], after.tx_done.loads[NK_MEM_UNCACHED]);
}

// Patch 3 (patches 1 and 2 change only mvneta_rx_hwbm and the HWBM branch of
// mvneta_rxq_drop_pkts, which nicsim does not model): before it, mvneta_tx
// reads data_size back for dma_map_single and buf_phys_addr back for
// dma_mapping_error (+2 per frame), and mvneta_txq_bufs_free reads
// buf_phys_addr three times instead of once (+2): IS_TSO_HEADER is a macro
// that names its argument twice (addr >= tso_hdrs_phys && addr < end; the
// first test always holds, so both run), and the unmap names it again.
// data_size is read once either way. RX is not affected.
TEST(MvnetaKnobs, ReuseDescReadsRemovesFourUncachedLoadsPerTxFrame) {
  const Workload before = run_workload(false, true), after = run_workload(true, true);
  EXPECT_EQ(after.tx_xmit.loads[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(before.tx_xmit.loads[NK_MEM_UNCACHED], 2 * 8u);
  EXPECT_EQ(after.tx_done.loads[NK_MEM_UNCACHED], 2 * 8u);
  EXPECT_EQ(before.tx_done.loads[NK_MEM_UNCACHED], 4 * 8u);
  expect_same_except_uncached_loads(before.tx_xmit, after.tx_xmit, "xmit");
  expect_same_except_uncached_loads(before.tx_done, after.tx_done, "tx done");
  EXPECT_EQ(before.rx.loads[NK_MEM_UNCACHED], after.rx.loads[NK_MEM_UNCACHED]);
  expect_same_except_uncached_loads(before.rx, after.rx, "rx");
}

// All four combinations add up: before both patches vs. upstream.
TEST(MvnetaKnobs, TheKnobsAreIndependent) {
  const Workload none = run_workload(false, false), both = run_workload(true, true);
  EXPECT_EQ(none.rx.loads[NK_MEM_UNCACHED] - both.rx.loads[NK_MEM_UNCACHED], 16u);
  EXPECT_EQ(none.tx_xmit.loads[NK_MEM_UNCACHED] + none.tx_done.loads[NK_MEM_UNCACHED] -
                both.tx_xmit.loads[NK_MEM_UNCACHED] - both.tx_done.loads[NK_MEM_UNCACHED],
            4 * 8u);
}

// The TX locks as in Linux (docs/kernel.md, "Spinlocks"): the kernel's xmit
// takes TX queue 0's lock (id 1) once per frame; mvneta_poll takes it (__netif_tx_lock) around the
// TX done of a poll with the TX cause: one interrupt, one poll.
TEST(MvnetaCounts, TxDoneTakesTheQueueLock) {
  MvnetaRig r;
  expect_tx_locks(r, TxLocks{3, 0, 1, 0}, [](MvnetaRig &x) {
    ASSERT_EQ(x.service(), 1);
  });
}
