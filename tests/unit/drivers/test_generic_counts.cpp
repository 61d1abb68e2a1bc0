// test_generic_counts.cpp: the generic driver's per-packet operations counted and
// matched against a hand count of src/drivers/generic.c (derivations inline).

// Test config: rings of 64, napi_budget 16, rx_buf_bytes 2048, cache line 64.
#include <gtest/gtest.h>

#include "unit/drivers/generic_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;          // on the wire, FCS included
constexpr uint32_t kLen = kFrame - 4;      // DMA'd and copied: 1514 bytes
// An RX buffer starts on a line: [0, 1514) covers ceil(1514 / 64) = 24 lines.
// A TX skb's data starts at head + 66: [66, 1580) covers lines 1..24 = 24 lines.
constexpr uint64_t kLines = 24;

const counting_platform &C(const GenericRig &r) { return r.t.cp; }

}  // namespace

// RX on a non-coherent platform: N frames, one interrupt, one poll (N < budget).
TEST(GenericCounts, RxPerPacketOnANonCoherentPlatform) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r).c;

  // generic_rx per frame: nk_ld16(flags) + nk_ld16(pkt_len) = 2 uncached loads;
  // after the last frame one more nk_ld16(flags) finds OWN and stops: +1.
  // generic_tx_clean: tx_dirty == tx_cur, the loop body never runs: 0.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1);
  // generic_rx_refill per frame: nk_st64(buf_addr), nk_st16(buf_len), nk_st16(flags) = 3.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 3 * N);
  // Nothing else is loaded or stored by the CPU: the frame moves by nk_memcpy.
  EXPECT_EQ(c.loads[NK_MEM_CACHED] + c.stores[NK_MEM_CACHED], 0u);
  // dma_rmb() after OWN is seen clear, dma_wmb() before OWN is set: one each per frame.
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB], N);
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], N);
  EXPECT_EQ(c.barriers[NK_BARRIER_MB] + c.barriers[NK_BARRIER_RMB] + c.barriers[NK_BARRIER_WMB], 0u);
  // dma_sync_single_for_cpu(buffer, 1514, FROM_DEVICE) invalidates 24 lines per frame; nothing else.
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * kLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  // Copy-break: one nk_memcpy of 1514 bytes per frame, buffer (& 7 == 0) into
  // skb->data (& 7 == 2): (dst ^ src) & 7 == 2, the misaligned case.
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * kLen);
  EXPECT_EQ(c.copies_misaligned, N);
  // MMIO per interrupt+poll: generic_intr masks (INT_MASK), generic_rx rings the
  // RX tail once, generic_poll unmasks (INT_MASK): 3 writes, and never a read.
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 1u);
  EXPECT_EQ(c.mmio_reads, 0u);
  // Charges: irq entry + one softirq + the RX stack per frame.
  const nc_cpu &cpu = r.t.cfg.cpu;
  EXPECT_DOUBLE_EQ(c.cycles, cpu.irq_entry_cycles + cpu.softirq_cycles +
                                 TestKernel::reader_cycles(cpu, N, kLen));
  EXPECT_EQ(c.host_rx, N);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_RX_TAIL / 4], N - 1) << "tail = the new empty slot, (63 + 10) mod 64";
  EXPECT_EQ(r.t.check(), "");
}

// The same path on a coherent platform: the same accesses, all cached, no cache maintenance.
TEST(GenericCounts, RxPerPacketOnACoherentPlatform) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const uint64_t N = 10;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r).c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 2 * N + 1);  // as above, now L1 hits
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 3 * N);
  EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(r.rx_ok, N);
}

// 40 frames with budget 16: polls of 16, 16 and 8 frames after one interrupt.
TEST(GenericCounts, RxAcrossSeveralPollsRingsTheTailOncePerPoll) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 40;
  uint64_t seq = 0;
  ASSERT_EQ(r.rx_counted(N, kFrame, &seq), 1);
  const cp_counts &c = C(r).c;
  // Polls 1 and 2 stop at the budget without reading a 17th flags word (2 * 16 loads
  // each), poll 3 reads 8 frames and one OWN descriptor: 2 * 40 + 1.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 3 * N);
  // 1 mask + 3 RX tail doorbells (one per poll) + 1 unmask (only the last poll completes).
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u);
  EXPECT_EQ(c.mmio_writes, 5u);
  const struct nk_kernel_stats *st = nk_kernel_get_stats(r.t.k);
  EXPECT_EQ(st->softirqs, 3u);
  EXPECT_EQ(st->napi_full, 2u);
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_NET_RX_ACTION), 3 * r.t.cfg.cpu.softirq_cycles);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.t.check(), "");
}

// TX on a non-coherent platform: per xmit, then per completion.
TEST(GenericCounts, TxPerPacketOnANonCoherentPlatform) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t M = 10;
  cp_reset_counts(&r.t.cp);
  for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  {
    const cp_counts &c = C(r).c;
    // generic_xmit: nk_st64(buf_addr), nk_st16(len), nk_st16(flags) = 3 uncached stores,
    // no loads (nothing is read back from the descriptor).
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 3 * M);
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.loads[NK_MEM_CACHED], 0u);
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_WMB], M);  // between the fields and OWN
    // dma_map_single(TO_DEVICE) cleans the 24 lines of the frame.
    EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN], M);
    EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN], M * kLines);
    EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
    // One TX tail doorbell per frame, nothing else.
    EXPECT_EQ(c.mmio_writes, M);
    EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], M);
    EXPECT_EQ(c.copies, 0u) << "the application's bytes are charged as stack_tx";
    const nc_cpu &cpu = r.t.cfg.cpu;
    EXPECT_DOUBLE_EQ(c.cycles, M * TestKernel::send_cycles(cpu, kLen));
  }
  EXPECT_EQ(r.t.cp.regs[GN_REG_TX_TAIL / 4], M);
  EXPECT_EQ(r.nic->tx_owned(), M);

  // The device sends 4 of them; interrupt and poll.
  nf_seq_track track{};
  r.tx_complete(4, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  {
    const cp_counts &c = C(r).c;
    // generic_tx_clean: 4 flags loads that find OWN clear + 1 that finds OWN
    // still set (descriptor 4); generic_rx: 1 flags load finds OWN: 6.
    EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4u + 1 + 1);
    EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 0u);
    // dma_unmap_single(TO_DEVICE) needs no maintenance; no barrier on this path.
    EXPECT_EQ(c.cache_calls[0] + c.cache_calls[1] + c.cache_calls[2], 0u);
    EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB] + c.barriers[NK_BARRIER_DMA_WMB], 0u);
    // mask + unmask; no RX tail (nothing received).
    EXPECT_EQ(c.mmio_writes, 2u);
  }
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 4u);
  EXPECT_EQ(r.t.dev()->stats.tx_bytes, 4 * kLen);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), M - 4);

  // The other 6: the walk ends at tx_cur without a stop load.
  r.tx_complete(6, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(C(r).c.loads[NK_MEM_UNCACHED], 6u + 1);  // 6 in tx_clean + 1 in generic_rx
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(track.received, M);
  EXPECT_EQ(r.t.check(), "");
}

// Each hot function charges its own profile bucket, with the right class.
TEST(GenericCounts, OperationsLandInTheFunctionsThatMakeThem) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const uint64_t N = 5;
  ASSERT_EQ(r.rx_tx_counted(N, kFrame), 1);
  // generic_intr: the mask write.
  EXPECT_EQ(r.t.bucket_ops("generic_intr"), 1u);
  // generic_poll: the unmask write.
  EXPECT_EQ(r.t.bucket_ops("generic_poll"), 1u);
  // generic_tx_clean: 1 flags load (+0 stop: the ring is then empty).
  EXPECT_EQ(r.t.bucket_ops("generic_tx_clean"), 1u);
  // generic_rx per frame: ld flags, dma_rmb, ld pkt_len, sync (1 cache op), memcpy = 5;
  // plus the stop load and the tail doorbell.
  EXPECT_EQ(r.t.bucket_ops("generic_rx"), 5 * N + 2);
  // generic_rx_refill per frame: 3 stores + dma_wmb = 4.
  EXPECT_EQ(r.t.bucket_ops("generic_rx_refill"), 4 * N);
  EXPECT_EQ(nk_prof_class(nk_prof_find("generic_intr")), NK_CLASS_IRQ);
  EXPECT_EQ(nk_prof_class(nk_prof_find("generic_poll")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("generic_rx")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("generic_rx_refill")), NK_CLASS_RX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("generic_tx_clean")), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find("generic_xmit")), NK_CLASS_TX);
  // The modelled stack is charged to its own bucket, not to generic_rx; the
  // copy to user space to copy_to_user, after the poll.
  const nc_cpu &cpu = r.t.cfg.cpu;
  EXPECT_DOUBLE_EQ(r.t.instr(NK_PROF_IP_RCV), N * r.t.cfg.stack.ip_rcv_instructions);
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_COPY_TO_USER), N * cpu.stack_rx_cycles_per_byte * kLen);
  EXPECT_DOUBLE_EQ(r.t.bucket("generic_rx"), 0.0) << "the counting platform charges only modelled work";
}

// A short frame: the invalidate and copy shrink with it; descriptor work does not.
TEST(GenericCounts, MinimumSizeFrameTouchesOneLine) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  uint64_t seq = 0;
  r.rx_frames(1, 64, &seq);  // 60 bytes DMA'd: one line
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_EQ(C(r).c.cache_lines[NK_CACHE_INVALIDATE], 1u);
  EXPECT_EQ(C(r).c.copy_bytes, 60u);
  EXPECT_EQ(C(r).c.loads[NK_MEM_UNCACHED], 3u);
  EXPECT_EQ(C(r).c.stores[NK_MEM_UNCACHED], 3u);
  EXPECT_EQ(r.rx_ok, 1u);
}

// The TX locks as in Linux (docs/kernel.md, "Spinlocks"): the kernel's xmit
// takes TX queue 0's lock (id 1) once per frame; generic_tx_clean takes it once per clean: one
// interrupt, one poll (under budget), one clean.
TEST(GenericCounts, TxCleanTakesTheQueueLock) {
  GenericRig r;
  expect_tx_locks(r, TxLocks{3, 0, 1, 0}, [](GenericRig &x) {
    ASSERT_EQ(x.service(), 1);
  });
}
