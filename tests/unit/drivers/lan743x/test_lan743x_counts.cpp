// test_lan743x_counts.cpp: the lan743x driver's per-packet operations counted
// and matched against a hand count of src/drivers/lan743x.c (derivations
// inline), coherent and non-coherent, and the same counts at every spacing.

// Test config: rings of 64, napi_budget 16, cache line 64, frames of 1518 B.
#include <gtest/gtest.h>

#include <cstring>

#include "unit/drivers/lan743x/lan743x_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;      // on the wire, FCS included
constexpr uint32_t kLen = kFrame - 4;  // DMA'd and passed up: 1514 bytes
// RX: buffer_length = driver.rx_buf_bytes = 1518 (MTU 1500 + 14 + 4 +
// RX_HEAD_PADDING 0, the rig's). An skb's
// data is head + 66 with head on a line: the new buffer's map covers
// [66, 1584) = lines 1..24 = 24 lines; the old buffer's sync covers
// used_length = min(FRAME_LENGTH 1518, 1518) from +66: the same 24 lines.
constexpr uint64_t kRxLines = 24;
// TX: dma_map_single(skb->data, 1514) over [66, 1580): lines 1..24 = 24 lines.
constexpr uint64_t kTxLines = 24;

const cp_counts &C(const Lan743xRig &r) { return r.t.cp.c; }

}  // namespace

// RX on a non-coherent platform: N frames, one interrupt, one poll (N < budget).
TEST(Lan743xCounts, RxPerPacketOnANonCoherentPlatform) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r);

  // Per frame: lan743x_rx_process_buffer loads data0 once (OWN, LS, FS, EXT,
  // length); lan743x_rx_init_ring_element loads it again after
  // netdev_alloc_skb and dma_map_single (to size the sync): 2. The poll's
  // last call finds OWN at descriptor 10: +1. No TX poll runs (no TX status).
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1);
  // lan743x_rx_init_ring_element: data1, data2, data3, data0 = 4 per frame.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4 * N);
  EXPECT_EQ(c.loads[NK_MEM_CACHED] + c.stores[NK_MEM_CACHED], 0u);
  // Linux's RX path has no barrier: OWN is read once, the re-arm is plain stores.
  for (int b = 0; b < CP_NBARRIER; b++) EXPECT_EQ(c.barriers[b], 0u) << b;
  // Two invalidates per frame: the new skb's map (FROM_DEVICE), the old
  // one's dma_sync_single_for_cpu; the unmap is SKIP_CPU_SYNC.
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], 2 * N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], 2 * N * kRxLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  // Zero copy: the skb the device wrote goes up the stack.
  EXPECT_EQ(c.copies, 0u);
  // MMIO: the ISR reads INT_STATUS (INT_STS_R2C) once and writes INT_MASK
  // twice (vector off, vector on); descriptor 7 moves RX_TAIL (index & 7 ==
  // 7); the poll completes and re-enables RX (INT_MASK): 1 read, 4 writes.
  EXPECT_EQ(c.mmio_reads, 1u);
  EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_STATUS / 4], 1u);
  EXPECT_EQ(c.mmio_writes, 4u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 1u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_RX_TAIL / 4], 7u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_INT_MASK / 4], 0u) << "both sources enabled again";
  // Charges: irq entry + one softirq + the RX stack per frame.
  const nc_cpu &cpu = r.t.cfg.cpu;
  EXPECT_DOUBLE_EQ(c.cycles, cpu.irq_entry_cycles + cpu.softirq_cycles +
                                 TestKernel::reader_cycles(cpu, N, kLen));
  EXPECT_EQ(c.host_rx, N);
  EXPECT_EQ(c.host_rx_bytes, N * kLen);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.t.dev()->stats.rx_packets, N);
  EXPECT_EQ(r.t.check(), "");
}

// Before v5.12 the buffers were LAN743X_MAX_FRAME_SIZE (9216) + ETH_HLEN 14 +
// 4 + RX_HEAD_PADDING 0 = 9234 bytes whatever the MTU (driver.rx_buf_bytes =
// 9234): the new skb's map invalidates all of it, [66, 9300) = lines 1..145,
// while the old buffer's sync still covers only FRAME_LENGTH (24 lines).
TEST(Lan743xCounts, NineKiBBuffersOfBeforeV512InvalidateTheWholeBufferOnEveryRefill) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) { c.driver.rx_buf_bytes = 9216 + 14 + 4; })) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const uint64_t map_lines = (66 + 9234 - 1) / 64 - 66 / 64 + 1;
  ASSERT_EQ(map_lines, 145u);
  EXPECT_EQ(C(r).cache_calls[NK_CACHE_INVALIDATE], 2 * N);
  EXPECT_EQ(C(r).cache_lines[NK_CACHE_INVALIDATE], N * (map_lines + kRxLines));
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// lan743x_check_config: a frame (with its FCS) must fit the buffer, and the
// descriptor's 14-bit length must hold the buffer.
TEST(Lan743xCounts, BufferSizeRulesNameDriverRxBufBytes) {
  Lan743xRig small;
  EXPECT_FALSE(small.start(false, [](nicsim_config &c) {
    c.driver.rx_buf_bytes = 1517;
    c.traffic.frame_bytes = 1518;
  }));
  EXPECT_NE(small.probe_err.find("does not fit a lan743x RX buffer of driver.rx_buf_bytes = 1517"), std::string::npos)
      << small.probe_err;
  Lan743xRig big;
  EXPECT_FALSE(big.start(false, [](nicsim_config &c) { c.driver.rx_buf_bytes = 16384; }));
  EXPECT_NE(big.probe_err.find("buffer length has 14 bits"), std::string::npos) << big.probe_err;
}

// The same path on a coherent platform: the same accesses, cached, no maintenance.
TEST(Lan743xCounts, RxPerPacketOnACoherentPlatform) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r);
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 2 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 4 * N);
  EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
  EXPECT_EQ(c.mmio_reads, 1u);
  EXPECT_EQ(c.mmio_writes, 4u);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// 40 frames with budget 16: polls of 16, 16 and 8 buffers after one interrupt.
TEST(Lan743xCounts, RxAcrossSeveralPollsMovesTheTailEveryEightDescriptors) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 40;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r);
  // Polls 1 and 2 stop at the budget without a 17th data0 load; poll 3 takes
  // 8 and finds OWN once: 2 * 40 + 1.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4 * N);
  // RX_TAIL at descriptors 7, 15, 23, 31, 39 (not per poll); INT_MASK: 2 in
  // the ISR + 1 when the last poll completes.
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 5u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 3u);
  EXPECT_EQ(c.mmio_writes, 8u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_RX_TAIL / 4], 39u);
  const struct nk_kernel_stats *st = nk_kernel_get_stats(r.t.k);
  EXPECT_EQ(st->softirqs, 3u);
  EXPECT_EQ(st->napi_full, 2u);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// TX on a non-coherent platform: per xmit, then per completion.
TEST(Lan743xCounts, TxPerPacketOnANonCoherentPlatform) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t M = 10;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  {
    const cp_counts &c = C(r);
    // lan743x_tx_frame_start: data1, data2, data3; lan743x_tx_frame_end:
    // data0 = 4 uncached stores; nothing is read from the ring.
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4 * M);
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.loads[NK_MEM_CACHED], 0u);
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], M);  // before the tail write
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB] + c.barriers[NK_BARRIER_WMB] + c.barriers[NK_BARRIER_MB], 0u);
    // dma_map_single(TO_DEVICE) cleans the frame's 24 lines.
    EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN], M);
    EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN], M * kTxLines);
    EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
    // One TX_TAIL doorbell per frame, no read.
    EXPECT_EQ(c.mmio_writes, M);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], M);
    EXPECT_EQ(c.mmio_reads, 0u);
    const nc_cpu &cpu = r.t.cfg.cpu;
    EXPECT_DOUBLE_EQ(c.cycles, M * TestKernel::send_cycles(cpu, kLen));
  }
  EXPECT_EQ(r.t.cp.regs[GN_REG_TX_TAIL / 4], M);
  EXPECT_EQ(r.nic->tx_owned(), M);

  // The device sends 4 and writes head = 4; interrupt and TX poll.
  nf_seq_track track{};
  r.tx_complete(4, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  {
    const cp_counts &c = C(r);
    // lan743x_tx_release_completed_descriptors: the head word once per
    // released descriptor + once to find head == last_head: 4 + 1. The RX
    // poll does not run (status has TX only).
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4u + 1);
    // lan743x_tx_release_desc: memset(descriptor, 0, 16) = two 8-byte stores.
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 2u * 4);
    // dma_unmap_single(TO_DEVICE) needs no maintenance; no barrier on this path.
    EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
    for (int b = 0; b < CP_NBARRIER; b++) EXPECT_EQ(c.barriers[b], 0u) << b;
    // Reads: INT_STATUS in the ISR, INT_EN_SET in lan743x_tx_isr, DMAC_INT_STS
    // at the poll's start and INT_STS after the re-enable (those three read
    // INT_MASK here): 4 round trips. Writes: vector off, vector on, TX enable.
    EXPECT_EQ(c.mmio_reads, 4u);
    EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_STATUS / 4], 1u);
    EXPECT_EQ(c.mmio_reads_reg[GN_REG_INT_MASK / 4], 3u);
    EXPECT_EQ(c.mmio_writes, 3u);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 3u);
  }
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 4u);
  EXPECT_EQ(r.t.dev()->stats.tx_bytes, 4 * kLen);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64 + M - 4) << "64 RX slots hold an skb each";

  // The other 6: 6 + 1 head loads, 12 stores.
  r.tx_complete(6, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(C(r).loads[NK_MEM_UNCACHED], 6u + 1);
  EXPECT_EQ(C(r).stores[NK_MEM_UNCACHED], 12u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64u);
  EXPECT_EQ(track.received, M);
  EXPECT_EQ(r.t.check(), "");
}

// TX on a coherent platform: the same accesses, cached, and no maintenance.
TEST(Lan743xCounts, TxPerPacketOnACoherentPlatform) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const uint64_t M = 10;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  EXPECT_EQ(C(r).stores[NK_MEM_CACHED], 4 * M);
  EXPECT_EQ(C(r).stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(C(r).cache_calls[0] + C(r).cache_calls[1] + C(r).cache_calls[2], 0u);
  EXPECT_EQ(C(r).mmio_writes, M);
  nf_seq_track track{};
  r.tx_complete(static_cast<int>(M), &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(C(r).loads[NK_MEM_CACHED], M + 1);
  EXPECT_EQ(C(r).stores[NK_MEM_CACHED], 2 * M);
  EXPECT_EQ(C(r).loads[NK_MEM_UNCACHED] + C(r).stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(C(r).mmio_reads, 4u);
  EXPECT_EQ(C(r).mmio_writes, 3u);
  EXPECT_EQ(r.t.check(), "");
}

// RX and TX in one interrupt: both sources, both polls.
TEST(Lan743xCounts, BidirectionalInterruptRunsBothPolls) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 5, M = 3;
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  nf_seq_track track{};
  r.tx_complete(static_cast<int>(M), &track);
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r);
  // RX: 2N + 1 data0 loads; TX: M + 1 head loads.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1 + M + 1);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 4 * N + 2 * M);
  // Reads: ISR status + tx_isr + 2 in the TX poll = 4. Writes: vector off,
  // vector on, RX enable, TX enable (no RX tail: descriptors 0..4).
  EXPECT_EQ(c.mmio_reads, 4u);
  EXPECT_EQ(c.mmio_writes, 4u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->napi_polls, 2u);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(track.received, M);
  EXPECT_EQ(r.t.check(), "");
}

// An MSI whose status has already been read: one read, IRQ_NONE, no write.
TEST(Lan743xCounts, InterruptWithNoStatusReadsOnceAndReturnsNone) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  cp_reset_counts(&r.t.cp);
  nk_kernel_irq(r.t.k, LAN743X_IRQ_VEC);
  EXPECT_EQ(C(r).mmio_reads, 1u);
  EXPECT_EQ(C(r).mmio_writes, 0u);
  EXPECT_EQ(r.adapter->irqs_none, 1u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->irqs_none, 1u);
  EXPECT_FALSE(nk_kernel_napi_pending(r.t.k));
}

// The knob: descriptors move apart, the CPU's per-packet counts do not change.
TEST(Lan743xCounts, DescSpacingMovesDescriptorsButNotTheCpuCounts) {
  cp_counts ref{};
  for (int64_t sp : {16, 32, 64, 128}) {
    Lan743xRig r;
    ASSERT_TRUE(r.start(false, [sp](nicsim_config &c) { c.nic.desc_spacing = sp; })) << r.probe_err;
    // The driver programs the spacing and lays both rings out at that stride.
    EXPECT_EQ(r.nic->spacing(), static_cast<uint32_t>(sp));
    for (uint32_t i : {1u, 7u, 63u}) {
      EXPECT_EQ(r.t.pa(lan743x_rx_desc(&r.adapter->rx, i)), r.nic->rx_desc_pa(0) + i * static_cast<uint64_t>(sp));
      EXPECT_EQ(r.t.pa(lan743x_tx_desc(&r.adapter->tx, i)), r.nic->tx_desc_pa(0) + i * static_cast<uint64_t>(sp));
    }
    EXPECT_EQ(r.t.pa(lan743x_rx_desc(&r.adapter->rx, 0)), r.nic->rx_ring());
    // Identical traffic at each spacing: 20 RX (wrapping no ring) and 10 TX frames.
    cp_reset_counts(&r.t.cp);
    uint64_t seq = 0;
    r.rx_frames(20, kFrame, &seq);
    for (uint64_t s = 0; s < 10; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
    nf_seq_track track{};
    r.tx_complete(10, &track);
    ASSERT_EQ(r.service(), 1);
    EXPECT_EQ(r.rx_ok, 20u);
    EXPECT_EQ(r.t.check(), "");
    const cp_counts &c = C(r);
    if (sp == 16) {
      ref = c;
      continue;
    }
    for (int a = 0; a < CP_NATTR; a++) {
      EXPECT_EQ(c.loads[a], ref.loads[a]) << "spacing " << sp;
      EXPECT_EQ(c.stores[a], ref.stores[a]) << "spacing " << sp;
    }
    EXPECT_EQ(c.mmio_reads, ref.mmio_reads) << sp;
    EXPECT_EQ(c.mmio_writes, ref.mmio_writes) << sp;
    for (int o = 0; o < CP_NCACHE; o++) EXPECT_EQ(c.cache_lines[o], ref.cache_lines[o]) << sp;
    for (int b = 0; b < CP_NBARRIER; b++) EXPECT_EQ(c.barriers[b], ref.barriers[b]) << sp;
    EXPECT_DOUBLE_EQ(c.cycles, ref.cycles) << sp;
  }
}

// Each hot function charges its own profile bucket, with the right class.
TEST(Lan743xCounts, OperationsLandInTheFunctionsThatMakeThem) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 5;
  ASSERT_EQ(r.rx_tx_counted(N, kFrame), 1);
  // ISR: status read, vector off, vector on.
  EXPECT_EQ(r.t.bucket_ops("lan743x_intr_entry_isr"), 3u);
  EXPECT_EQ(r.t.bucket_ops("lan743x_tx_isr"), 1u);  // the INT_EN_SET read
  EXPECT_EQ(r.t.bucket_ops("lan743x_rx_isr"), 0u);
  // RX poll: the RX enable write.
  EXPECT_EQ(r.t.bucket_ops("lan743x_rx_napi_poll"), 1u);
  // process_buffer: one data0 load per frame + the stop load.
  EXPECT_EQ(r.t.bucket_ops("lan743x_rx_process_buffer"), N + 1);
  // init_ring_element per frame: map (1 cache op), data0 load, sync (1 cache op), 4 stores = 7.
  EXPECT_EQ(r.t.bucket_ops("lan743x_rx_init_ring_element"), 7 * N);
  // TX poll: DMAC_INT_STS read, TX enable write, INT_STS read.
  EXPECT_EQ(r.t.bucket_ops("lan743x_tx_napi_poll"), 3u);
  EXPECT_EQ(r.t.bucket_ops("lan743x_tx_release_completed_descriptors"), 2u);  // head loads: 1 + stop
  EXPECT_EQ(r.t.bucket_ops("lan743x_tx_release_desc"), 2u);                  // memset: 2 stores
  EXPECT_EQ(nk_prof_class(nk_prof_find("lan743x_intr_entry_isr")), NK_CLASS_IRQ);
  EXPECT_EQ(nk_prof_class(nk_prof_find("lan743x_rx_napi_poll")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("lan743x_rx_process_buffer")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("lan743x_tx_napi_poll")), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("lan743x_tx_xmit_frame")), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("lan743x_tx_frame_start")), NK_CLASS_TX);
  const nc_cpu &cpu = r.t.cfg.cpu;
  // The modelled stack (and the reader's copy, where the kernel layer charges it
  // apart) lands in the kernel's buckets, not in the driver's.
  EXPECT_DOUBLE_EQ(r.t.instr(NK_PROF_IP_RCV), N * r.t.cfg.stack.ip_rcv_instructions);
  EXPECT_DOUBLE_EQ(r.t.bucket("copy_to_user"),
                   N * cpu.stack_rx_cycles_per_byte * kLen);
  EXPECT_DOUBLE_EQ(r.t.bucket("lan743x_rx_process_buffer"), 0.0);
}

// A minimum-size frame: the sync shrinks to its one line; the new buffer's map does not.
TEST(Lan743xCounts, MinimumSizeFrameSyncsOneLine) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  uint64_t seq = 0;
  r.rx_frames(1, 64, &seq);  // FRAME_LENGTH 64: sync [66, 130) = lines 1..2
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(C(r).cache_lines[NK_CACHE_INVALIDATE], kRxLines + 2);
  EXPECT_EQ(C(r).host_rx_bytes, 60u);
  EXPECT_EQ(C(r).loads[NK_MEM_UNCACHED], 3u);
  EXPECT_EQ(C(r).stores[NK_MEM_UNCACHED], 4u);
  EXPECT_EQ(r.rx_ok, 1u);
}

// The TX locks as in Linux (docs/kernel.md, "Spinlocks"): the kernel's xmit
// takes TX queue 0's lock (id 1) once per frame; lan743x's own ring_lock (id 2, its first
// spin_lock_init) is taken inside it by every xmit and once by the TX NAPI
// poll (spin_lock_irqsave), which takes no queue lock: one interrupt, one
// TX poll.
TEST(Lan743xCounts, RingLockInXmitAndTxPoll) {
  Lan743xRig r;
  expect_tx_locks(r, TxLocks{3, 3, 0, 1}, [](Lan743xRig &x) {
    ASSERT_EQ(x.service(), 1);
  });
}
