// test_i40e_counts.cpp: the i40e driver's per-packet operations counted and
// matched against a hand count of src/drivers/i40e.c (derivations inline), and
// the DMA_ATTR_WEAK_ORDERING knob changing the RX mappings and nothing else.

// Test config: rings of 64, napi_budget 16, rx_buf_bytes 2048, 32 B RX
// descriptors, cache line 64, nic.wb_mode desc (DESC_DONE) unless stated.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "unit/drivers/i40e/i40e_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;      // on the wire, FCS included
constexpr uint32_t kLen = kFrame - 4;  // DMA'd and copied: 1514 bytes
// An RX buffer starts on a line: [0, 1514) covers ceil(1514 / 64) = 24 lines.
// A TX skb's data starts at head + 66: [66, 1580) covers lines 1..24 = 24 lines.
constexpr uint64_t kLines = 24;
// i40e_alloc_rx_buffers syncs the whole 2048 B buffer for the device: 32 lines.
constexpr uint64_t kBufLines = 2048 / 64;

const counting_platform &C(const I40eRig &r) { return r.t.cp; }

}  // namespace

// RX on a non-coherent platform: N frames, one interrupt, one poll (N < budget,
// and fewer than I40E_RX_BUFFER_WRITE cleaned, so no refill yet).
TEST(I40eCounts, RxPerPacketOnANonCoherentPlatform) {
  I40eRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r).c;

  // i40e_clean_rx_irq per frame, loads of qword1 (status_error_len):
  //   the DD/length load, i40e_is_non_eop (EOF), i40e_cleanup_headers (RXE),
  //   i40e_process_skb_fields = 4; then one load finds no DD and stops: +1.
  // i40e_clean_tx_irq (DESC_DONE mode): tx_bi[0].next_to_watch is NULL, no load.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4 * N + 1);
  // cleaned_count starts at I40E_DESC_UNUSED = 0 and reaches 10 < 32: no refill, no stores.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED] + c.stores[NK_MEM_CACHED], 0u);
  // dma_rmb() after DD, per frame; no write barrier (no refill).
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB], N);
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB] + c.barriers[NK_BARRIER_WMB] + c.barriers[NK_BARRIER_MB] +
                c.barriers[NK_BARRIER_RMB],
            0u);
  // dma_sync_single_range_for_cpu(buffer, 0, 1514): 24 lines invalidated per frame.
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * kLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  // i40e_construct_skb: one copy of the whole 1514 B frame into skb->data (& 7 == 2): misaligned.
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * kLen);
  EXPECT_EQ(c.copies_misaligned, N);
  // MMIO: i40e_msix_clean_rings masks (stands in for the hardware auto-mask),
  // i40e_napi_poll re-enables on completion: 2 writes. No tail (no refill), no reads.
  EXPECT_EQ(c.mmio_writes, 2u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);
  EXPECT_EQ(c.mmio_reads, 0u);
  const nc_cpu &cpu = r.t.cfg.cpu;
  EXPECT_DOUBLE_EQ(c.cycles, cpu.irq_entry_cycles + cpu.softirq_cycles +
                                 TestKernel::reader_cycles(cpu, N, kLen));
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.priv->rx_rings[0].next_to_clean, N);
  EXPECT_EQ(r.priv->rx_rings[0].next_to_use, 63u) << "buffers wait in next_to_alloc slots for the 32-batch refill";
  EXPECT_EQ(r.priv->rx_rings[0].next_to_alloc, (63 + N) % 64);
  EXPECT_EQ(r.t.check(), "");
}

// The refill: 40 frames with budget 16 are polls of 16, 16 and 8; the third
// poll starts with 32 cleaned buffers and gives them back in one batch.
TEST(I40eCounts, RxRefillsThirtyTwoBuffersWithOneTailWrite) {
  I40eRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 40;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r).c;
  // Poll 1: cleaned_count = UNUSED = 0 -> 16 frames, stops at the budget (no stop load).
  // Poll 2: UNUSED = 64 + 16 - 63 - 1 = 16 < 32 -> 16 frames, ends with 32 cleaned, no refill.
  // Poll 3: UNUSED = 64 + 32 - 63 - 1 = 32 -> i40e_alloc_rx_buffers(32) first, then 8 frames + stop load.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4 * N + 1);
  // i40e_alloc_rx_buffers per buffer: pkt_addr and hdr_addr = 2 stores.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 2u * 32);
  // i40e_release_rx_desc: one wmb() and one tail write for the batch.
  EXPECT_EQ(c.barriers[NK_BARRIER_WMB], 1u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 1u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_RX_TAIL / 4], (63u + 32) % 64);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);  // mask + one re-enable (only poll 3 completes)
  EXPECT_EQ(c.mmio_writes, 3u);
  // Invalidate: 24 lines per frame (sync for CPU) + 32 lines per refilled
  // buffer (dma_sync_single_range_for_device of rx_buf_len; mapped SKIP_CPU_SYNC).
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], N + 32);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * kLines + 32 * kBufLines);
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB], N);
  const struct nk_kernel_stats *st = nk_kernel_get_stats(r.t.k);
  EXPECT_EQ(st->softirqs, 3u);
  EXPECT_EQ(st->napi_full, 2u);
  EXPECT_EQ(r.priv->rx_rings[0].page_reuse_count, 32u) << "every refilled slot found its reused buffer";
  EXPECT_EQ(r.priv->rx_rings[0].alloc_page_failed, 0u);
  EXPECT_EQ(page_pool_in_use(r.priv->rx_rings[0].pool), 63u);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// The same RX path on a coherent platform (x86, SPARC): the same accesses, all cached, no maintenance.
TEST(I40eCounts, RxPerPacketOnACoherentPlatform) {
  I40eRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const uint64_t N = 40;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r).c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 4 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 2u * 32);
  EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(r.rx_ok, N);
}

// TX on a non-coherent platform with DESC_DONE completion: per xmit, then per completion.
TEST(I40eCounts, TxPerPacketWithDescriptorDone) {
  I40eRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t M = 10;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  {
    const cp_counts &c = C(r).c;
    // i40e_tx_map: buffer_addr and cmd_type_offset_bsz = 2 uncached stores, no loads.
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 2 * M);
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.loads[NK_MEM_CACHED], 0u);
    // wmb() before next_to_watch and the tail; dma_map_single(TO_DEVICE) cleans 24 lines.
    EXPECT_EQ(c.barriers[NK_BARRIER_WMB], M);
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], 0u);
    EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN], M * kLines);
    EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
    // One tail write per frame (no xmit_more).
    EXPECT_EQ(c.mmio_writes, M);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], M);
    EXPECT_EQ(c.copies, 0u);
  }
  EXPECT_EQ(r.nic->tx_owned(), M);

  nf_seq_track track{};
  r.tx_complete(4, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  {
    const cp_counts &c = C(r).c;
    // i40e_clean_tx_irq: qword1 of each EOP descriptor: 4 DESC_DONE + 1 not done
    // (frame 5); i40e_clean_rx_irq: 1 qword1 load without DD: 6.
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4u + 1 + 1);
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 0u);
    EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);  // unmap TO_DEVICE: nothing
    EXPECT_EQ(c.mmio_writes, 2u);                                            // mask + re-enable
  }
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 4u);
  EXPECT_EQ(r.t.dev()->stats.tx_bytes, 4 * kLen);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), M - 4);

  r.tx_complete(6, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  // 6 DESC_DONE loads; then tx_bi[10].next_to_watch is NULL (no load); + 1 RX stop load.
  EXPECT_EQ(C(r).c.loads[NK_MEM_UNCACHED], 6u + 1);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(track.received, M);
  EXPECT_EQ(r.t.check(), "");
}

// TX with head write-back (Linux i40e): one load of the head word per clean, whatever the frames.
TEST(I40eCounts, TxCleanReadsTheWrittenBackHeadOnce) {
  I40eRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) { c.nic.wb_mode = NC_WB_HEAD; })) << r.probe_err;
  EXPECT_EQ(r.nic->reg64(GN_REG_TX_HEAD_WB_LO, GN_REG_TX_HEAD_WB_HI), r.priv->tx_rings[0].dma + 64 * 16)
      << "head_wb_addr = ring + count * 16";
  const uint64_t M = 10;
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  nf_seq_track track{};
  r.tx_complete(7, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  // i40e_get_head: 1 load; the walk stops at the head with no descriptor load; RX: 1 stop load.
  EXPECT_EQ(C(r).c.loads[NK_MEM_UNCACHED], 2u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 7u);
  r.tx_complete(3, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(C(r).c.loads[NK_MEM_UNCACHED], 2u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, M);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

// Each hot function charges its own profile bucket, with the right class.
TEST(I40eCounts, OperationsLandInTheFunctionsThatMakeThem) {
  I40eRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 5;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  EXPECT_EQ(r.t.bucket_ops("i40e_msix_clean_rings"), 1u);  // the mask write
  EXPECT_EQ(r.t.bucket_ops("i40e_napi_poll"), 1u);         // the re-enable write
  EXPECT_EQ(r.t.bucket_ops("i40e_clean_tx_irq"), 0u);
  // i40e_clean_rx_irq per frame: 4 loads, dma_rmb, sync = 6; plus the stop load.
  EXPECT_EQ(r.t.bucket_ops("i40e_clean_rx_irq"), 6 * N + 1);
  EXPECT_EQ(r.t.bucket_ops("i40e_construct_skb"), N);  // the memcpy
  ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, 0), NETDEV_TX_OK);  // registers the TX buckets
  // i40e_tx_map: dma_map_single's clean (1 cache op), 2 descriptor stores, wmb, tail write = 5.
  EXPECT_EQ(r.t.bucket_ops("i40e_tx_map"), 5u);
  EXPECT_EQ(nk_prof_class(nk_prof_find("i40e_msix_clean_rings")), NK_CLASS_IRQ);
  EXPECT_EQ(nk_prof_class(nk_prof_find("i40e_clean_rx_irq")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("i40e_clean_tx_irq")), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("i40e_xmit_frame")), NK_CLASS_TX);
}

namespace {
// The counters a run of RX and TX traffic leaves (memcmp-able parts of cp_counts).
struct Ops {
  uint64_t loads[CP_NATTR], stores[CP_NATTR], mmio_w, mmio_r, barriers[CP_NBARRIER], lines[CP_NCACHE], copies, bytes;
  double cycles;
};
Ops traffic(I40eRig &r) {
  uint64_t seq = 0;
  cp_reset_counts(&r.t.cp);
  nf_seq_track track{};
  for (int round = 0; round < 5; round++) {
    r.rx_frames(30, kFrame, &seq);  // at most 63 - 31: the refill lags by up to 31 buffers
    for (uint64_t s = 0; s < 8; s++) EXPECT_EQ(nk_kernel_xmit(r.t.k, 300, 2, round * 8 + s), NETDEV_TX_OK);
    r.tx_complete(8, &track);
    r.service();
  }
  const cp_counts &c = r.t.cp.c;
  Ops o{};
  std::memcpy(o.loads, c.loads, sizeof o.loads);
  std::memcpy(o.stores, c.stores, sizeof o.stores);
  o.mmio_w = c.mmio_writes;
  o.mmio_r = c.mmio_reads;
  std::memcpy(o.barriers, c.barriers, sizeof o.barriers);
  std::memcpy(o.lines, c.cache_lines, sizeof o.lines);
  o.copies = c.copies;
  o.bytes = c.copy_bytes;
  o.cycles = c.cycles;
  return o;
}
}  // namespace

// driver.dma_weak_ordering changes the RX buffer mappings' attributes and nothing the CPU does.
TEST(I40eWeakOrdering, ChangesTheRxMappingAttributesOnly) {
  for (bool coherent : {false, true}) {
    I40eRig on, off;
    ASSERT_TRUE(on.start(coherent, [](nicsim_config &c) { c.driver.dma_weak_ordering = true; })) << on.probe_err;
    ASSERT_TRUE(off.start(coherent, [](nicsim_config &c) { c.driver.dma_weak_ordering = false; })) << off.probe_err;
    // Every RX buffer: SKIP_CPU_SYNC always (I40E_RX_DMA_ATTR), WEAK_ORDERING only with the knob.
    for (I40eRig *r : {&on, &off}) {
      nk_kernel_set_current(r->t.k);
      const i40e_ring &rx = r->priv->rx_rings[0];
      for (uint32_t i = 0; i < 63; i++) {
        const uint64_t pa = rx.rx_bi[i].dma;
        const unsigned long want = DMA_ATTR_SKIP_CPU_SYNC | (r == &on ? DMA_ATTR_WEAK_ORDERING : 0);
        ASSERT_EQ(nk_dma_attrs(r->t.k, pa), want) << i;
        ASSERT_EQ(nk_dma_attrs(r->t.k, pa + 2047), want) << "the whole buffer, slot " << i;
      }
      // Descriptor rings (coherent allocations) carry no attribute: write-backs stay ordered.
      EXPECT_EQ(nk_dma_attrs(r->t.k, rx.dma), 0ul);
      EXPECT_EQ(nk_dma_attrs(r->t.k, r->priv->tx_rings[0].dma), 0ul);
      // TX buffers are mapped without it (Linux maps only RX with I40E_RX_DMA_ATTR).
      ASSERT_EQ(nk_kernel_xmit(r->t.k, 300, 3, 0), NETDEV_TX_OK);
      EXPECT_EQ(nk_dma_attrs(r->t.k, r->priv->tx_rings[0].tx_bi[0].dma), 0ul);
      nf_header h{};
      ASSERT_EQ(r->nic->complete_tx(&h), "");
      r->service();
    }
    nk_kernel_set_current(on.t.k);
    const Ops a = traffic(on);
    nk_kernel_set_current(off.t.k);
    const Ops b = traffic(off);
    EXPECT_EQ(std::memcmp(&a, &b, offsetof(Ops, cycles)), 0) << "coherent " << coherent;
    EXPECT_DOUBLE_EQ(a.cycles, b.cycles);
    EXPECT_GT(a.copies, 0u);
    EXPECT_EQ(on.rx_ok, off.rx_ok);
    EXPECT_EQ(on.rx_ok, 150u);
    nk_kernel_set_current(on.t.k);
    EXPECT_EQ(on.t.check(), "");
    nk_kernel_set_current(off.t.k);
    EXPECT_EQ(off.t.check(), "");
  }
}

// The TX locks as in Linux (docs/kernel.md, "Spinlocks"): the kernel's xmit
// takes TX queue 0's lock (id 1) once per frame; i40e_clean_tx_irq takes no lock (lockless
// against the xmit, with the stop / re-check of i40e_maybe_stop_tx).
TEST(I40eCounts, TxCleanIsLockless) {
  I40eRig r;
  expect_tx_locks(r, TxLocks{3, 0, 0, 0}, [](I40eRig &x) {
    ASSERT_EQ(x.service(), 1);
  });
}
