// test_i40e_xdp.cpp: driver.xdp on i40e (the v5.4 XDP path) counted on the
// counting platform, per verdict, against a hand count of src/drivers/i40e.c
// (derivations inline), and its config rules.

// Test config (i40e_rig.h): rings of 64, napi_budget 16, rx_buf_bytes 2048,
// 32 B RX descriptors, cache line 64, non-coherent, nic.wb_mode desc
// (DESC_DONE), one queue pair: the XDP ring is device TX queue 1 (after
// nic.tx_queues = 1), linked to vector 0. With a program the frame sits
// I40E_SKB_PAD (64 + NET_IP_ALIGN) into its line-aligned pool buffer: the
// 1514 bytes of a 1518 B frame cover lines 1..24 either way (24 lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "unit/drivers/i40e/i40e_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;
constexpr uint32_t kLen = kFrame - 4;  // DMA'd: 1514 bytes
constexpr uint64_t kLines = 24;
constexpr uint32_t kXdpQueue = 1;  // device TX queue of queue pair 0's XDP ring

bool start_xdp(I40eRig &r, int verdict, bool coherent = false) {
  return r.start(coherent, [verdict](nicsim_config &c) {
    c.driver.xdp = verdict;
    c.traffic.mode = NC_MODE_RX;  // driver.xdp tx needs it
  });
}

// Probes with the verdict, then receives n frames of kFrame (flow 1): true if
// one interrupt took them; the platform's counts are then the driver's for them.
bool rx_xdp(I40eRig &r, int verdict, uint64_t n, bool coherent = false) {
  if (!start_xdp(r, verdict, coherent)) {
    ADD_FAILURE() << r.probe_err;
    return false;
  }
  uint64_t seq = 0;
  return r.rx_counted(static_cast<int>(n), kFrame, &seq) == 1;
}

}  // namespace

// The probe: an XDP ring after the stack's TX queue, on vector 0, with its
// own tail; the RX buffers keep I40E_SKB_PAD of headroom.
TEST(I40eXdp, ProbeSetsUpTheXdpRingAsTxQueueOne) {
  I40eRig r;
  ASSERT_TRUE(start_xdp(r, NC_XDP_TX)) << r.probe_err;
  const i40e_ring &xr = r.priv->xdp_rings[0];
  EXPECT_TRUE(xr.is_xdp);
  EXPECT_EQ(xr.queue_index, kXdpQueue);
  EXPECT_EQ(xr.count, 64u);
  EXPECT_EQ(r.nic->reg(GN_QREG(kXdpQueue, GN_Q_TX_RING_SIZE)), 64u);
  EXPECT_EQ(r.nic->reg64(GN_QREG(kXdpQueue, GN_Q_TX_RING_LO), GN_QREG(kXdpQueue, GN_Q_TX_RING_HI)), xr.dma);
  EXPECT_EQ(r.nic->reg(GN_REG_TXQ_VEC(kXdpQueue)), 0u) << "QINT_TQCTL: the queue pair's vector";
  EXPECT_EQ(r.t.cp.c.mmio_writes_reg[GN_REG_TXQ_VEC(kXdpQueue) / 4], 1u)
      << "probe writes the XDP ring's vector (the register's reset value would also read 0)";
  EXPECT_EQ(r.priv->rx_rings[0].rx_bi[0].page_offset, static_cast<uint32_t>(I40E_SKB_PAD));
  EXPECT_EQ(r.priv->rx_rings[0].xdp_ring, &r.priv->xdp_rings[0]);
  EXPECT_EQ(r.t.check(), "");
  // Without a program: no XDP ring, legacy-rx buffers.
  I40eRig off;
  ASSERT_TRUE(off.start(false)) << off.probe_err;
  EXPECT_EQ(off.priv->xdp_prog, nullptr);
  EXPECT_EQ(off.priv->rx_rings[0].rx_bi[0].page_offset, 0u);
  EXPECT_EQ(off.nic->reg(GN_QREG(kXdpQueue, GN_Q_TX_RING_SIZE)), 0u);
}

// XDP_DROP: no skb, no copy; the buffer is reused in place (pagecnt_bias++).
TEST(I40eXdp, DropReusesTheBufferWithoutAnSkb) {
  I40eRig r;
  const uint64_t N = 10;
  ASSERT_TRUE(rx_xdp(r, NC_XDP_DROP, N));
  const cp_counts &c = r.t.cp.c;
  // i40e_clean_rx_irq per frame: the DD/length load and i40e_is_non_eop's EOF
  // load; i40e_cleanup_headers stops at the XDP result (no RXE load, no
  // i40e_process_skb_fields); then one load finds no DD: 2N + 1.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED] + c.stores[NK_MEM_CACHED], 0u);
  // i40e_get_rx_buffer's sync for the CPU, 24 lines a frame; nothing else.
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * kLines);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN] + c.cache_lines[NK_CACHE_CLEAN_INV], 0u);
  EXPECT_EQ(c.barriers[NK_BARRIER_DMA_RMB], N);
  EXPECT_EQ(c.barriers[NK_BARRIER_WMB], 0u);
  EXPECT_EQ(c.copies, 0u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  // MMIO: the mask and the re-enable; no tail (no refill, no XDP_TX).
  EXPECT_EQ(c.mmio_writes, 2u);
  EXPECT_EQ(c.mmio_reads, 0u);
  // The program: stack.xdp_prog_instructions per frame, the only instructions run.
  expect_xdp_prog_ran(c, r.t.cfg, N, true);
  expect_xdp_verdicts(r.t.k, 0, N, 0, 0);
  EXPECT_EQ(r.rx_ok, 0u);
  // Every buffer went to a next_to_alloc slot for the refill.
  EXPECT_EQ(r.priv->rx_rings[0].next_to_alloc, (63 + N) % 64);
  EXPECT_EQ(page_pool_in_use(r.priv->rx_rings[0].pool), 63u);
  EXPECT_EQ(r.t.check(), "");
}

// XDP_TX: per frame the xdp_frame into the headroom, a mapping, one data
// descriptor on the XDP ring; one wmb() and ONE tail write for the poll
// (i40e_finalize_xdp_rx). At completion the buffers go back to the pool.
TEST(I40eXdp, TxWritesTheXdpTailOncePerPoll) {
  I40eRig r;
  const uint64_t N = 10;
  ASSERT_TRUE(rx_xdp(r, NC_XDP_TX, N));
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 2 * N + 1);
  // i40e_xmit_xdp_ring: buffer_addr and cmd_type_offset_bsz of the XDP descriptor.
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED], 2 * N);
  // convert_to_xdp_frame: the 7 fields of struct xdp_frame into the headroom.
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 7 * N);
  // The CPU sync (24 lines invalidated) and dma_map_single(DMA_TO_DEVICE) of
  // the frame (24 lines cleaned), per frame.
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * kLines);
  EXPECT_EQ(c.cache_calls[NK_CACHE_CLEAN], N);
  EXPECT_EQ(c.cache_lines[NK_CACHE_CLEAN], N * kLines);
  EXPECT_EQ(c.copies, 0u);
  // One XDP tail write for the 10 frames, after one wmb(); plus mask and re-enable.
  EXPECT_EQ(c.mmio_writes_reg[GN_QREG(kXdpQueue, GN_Q_TX_TAIL) / 4], 1u);
  EXPECT_EQ(r.t.cp.regs[GN_QREG(kXdpQueue, GN_Q_TX_TAIL) / 4], N);
  EXPECT_EQ(c.barriers[NK_BARRIER_WMB], 1u);
  EXPECT_EQ(c.mmio_writes, 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_TX_TAIL / 4], 0u) << "the stack's TX queue is not used";
  expect_xdp_verdicts(r.t.k, 0, 0, N, 0);
  EXPECT_EQ(nk_kernel_txq_packets(r.t.k, kXdpQueue), N);
  EXPECT_EQ(r.priv->xdp_rings[0].xdp_tx_active, N);
  // The frames' buffers left the RX ring: 53 in the slots + 10 on the XDP ring.
  EXPECT_EQ(page_pool_in_use(r.priv->rx_rings[0].pool), 63u);
  EXPECT_EQ(r.t.check(), "");

  // The device sends them on TX queue 1: each is the frame the peer sent, in order.
  {
    nf_seq_track track{};
    for (uint64_t i = 0; i < N; i++) {
      nf_header h{};
      ASSERT_EQ(r.nic->complete_tx_q(kXdpQueue, &h), "") << i;
      EXPECT_EQ(h.flow, 1u);
      ASSERT_TRUE(nf_seq_accept(&track, h.seq)) << h.seq;
    }
  }
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  // i40e_clean_tx_irq on the XDP ring (the same NAPI poll): the DESC_DONE
  // load per frame, then the empty slot stops it; dma_unmap_single of a
  // DMA_TO_DEVICE mapping has nothing to invalidate. RX: one load, no DD.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], N + 1);
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE] + c.cache_calls[NK_CACHE_CLEAN] + c.cache_calls[NK_CACHE_CLEAN_INV],
            0u);
  EXPECT_EQ(c.mmio_writes, 2u);
  EXPECT_EQ(r.priv->xdp_rings[0].xdp_tx_active, 0u);
  EXPECT_EQ(r.priv->xdp_rings[0].next_to_clean, N);
  EXPECT_EQ(page_pool_in_use(r.priv->rx_rings[0].pool), 53u) << "the 10 XDP_TX buffers are back in the pool";
  EXPECT_EQ(r.t.check(), "");
}

// Two polls of XDP_TX (40 frames, budget 16: polls of 16, 16, 8): a tail
// write per poll, not per frame.
TEST(I40eXdp, TxTailWritesFollowThePolls) {
  I40eRig r;
  const uint64_t N = 40;
  ASSERT_TRUE(rx_xdp(r, NC_XDP_TX, N));
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->softirqs, 3u);
  EXPECT_EQ(c.mmio_writes_reg[GN_QREG(kXdpQueue, GN_Q_TX_TAIL) / 4], 3u);
  EXPECT_EQ(r.t.cp.regs[GN_QREG(kXdpQueue, GN_Q_TX_TAIL) / 4], N);
  // Poll 3 refills the 32 slots polls 1-2 emptied (XDP_TX took their
  // buffers): fresh buffers from the pool, none reused.
  EXPECT_EQ(c.mmio_writes_reg[GN_REG_RX_TAIL / 4], 1u);
  EXPECT_EQ(r.priv->rx_rings[0].page_reuse_count, 0u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->xdp_tx, N);
  EXPECT_EQ(r.t.check(), "");
}

// XDP_TX with the XDP ring full: counted as xdp.tx_errors (tx_busy), the
// frame dropped and its buffer reused.
TEST(I40eXdp, TxOnAFullXdpRingDropsAndCounts) {
  I40eRig r;
  ASSERT_TRUE(start_xdp(r, NC_XDP_TX)) << r.probe_err;
  const uint64_t room = 63;  // I40E_DESC_UNUSED of an empty 64-entry ring
  uint64_t seq = 0;
  // 10 frames per poll, nothing completed: the last 5 find the ring full.
  r.rx_in_batches(room + 5, 10, kFrame, &seq);
  expect_xdp_verdicts(r.t.k, 0, 0, room, 5);
  EXPECT_EQ(r.priv->xdp_rings[0].tx_busy, 5u);
  EXPECT_EQ(r.priv->xdp_rings[0].xdp_tx_active, room);
  EXPECT_EQ(nk_kernel_txq_packets(r.t.k, kXdpQueue), room);
  EXPECT_EQ(r.t.check(), "");
}

// XDP_PASS: the program runs, then the skb path as without XDP (a copy of
// the frame from behind the headroom; the buffer reused).
TEST(I40eXdp, PassContinuesToTheSkbPath) {
  I40eRig r;
  const uint64_t N = 10;
  ASSERT_TRUE(rx_xdp(r, NC_XDP_PASS, N));
  const cp_counts &c = r.t.cp.c;
  // As without XDP: DD, EOF, RXE, skb fields per frame, and the stop load.
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED], 4 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_UNCACHED] + c.stores[NK_MEM_CACHED], 0u);
  EXPECT_EQ(c.cache_lines[NK_CACHE_INVALIDATE], N * kLines);
  EXPECT_EQ(c.copies, N);
  EXPECT_EQ(c.copy_bytes, N * kLen);
  EXPECT_EQ(c.mmio_writes, 2u);
  expect_xdp_prog_ran(c, r.t.cfg, N, false);
  expect_xdp_verdicts(r.t.k, N, 0, 0, 0);
  EXPECT_EQ(r.rx_ok, N);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.t.check(), "");
}

// On a coherent platform (x86) XDP_TX costs no cache maintenance; the
// accesses are the same, all cached.
TEST(I40eXdp, TxOnACoherentPlatform) {
  I40eRig r;
  const uint64_t N = 10;
  ASSERT_TRUE(rx_xdp(r, NC_XDP_TX, N, true));
  const cp_counts &c = r.t.cp.c;
  EXPECT_EQ(c.loads[NK_MEM_UNCACHED] + c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(c.loads[NK_MEM_CACHED], 2 * N + 1);
  EXPECT_EQ(c.stores[NK_MEM_CACHED], 2 * N + 7 * N);
  EXPECT_EQ(c.cache_calls[NK_CACHE_INVALIDATE] + c.cache_calls[NK_CACHE_CLEAN] + c.cache_calls[NK_CACHE_CLEAN_INV],
            0u);
  EXPECT_EQ(c.mmio_writes_reg[GN_QREG(kXdpQueue, GN_Q_TX_TAIL) / 4], 1u);
  EXPECT_EQ(r.t.check(), "");
}

// The config rules: the XDP rings must fit the device's 16 TX queues, and a
// frame must fit one receive buffer (i40e_xdp_setup); both name their keys.
TEST(I40eXdp, ConfigRulesNameTheirKeys) {
  auto check = [](void (*edit)(nicsim_config &)) {
    nicsim_config cfg;
    nc_config_defaults(&cfg);
    cfg.driver.name = NC_DRIVER_I40E;
    cfg.nic.family = NC_NIC_I40E;
    cfg.driver.xdp = NC_XDP_DROP;
    edit(cfg);
    nc_error err{};
    const int rc = nk_driver_check_config(&cfg, &err);
    return rc == 0 ? std::string() : std::string(err.msg) + " | " + err.hint;
  };
  EXPECT_EQ(check([](nicsim_config &) {}), "");
  const std::string queues = check([](nicsim_config &c) {
    c.nic.rx_queues = 8;
    c.nic.tx_queues = 9;
  });
  EXPECT_NE(queues.find("nic.tx_queues"), std::string::npos) << queues;
  EXPECT_NE(queues.find("driver.xdp"), std::string::npos) << queues;
  EXPECT_EQ(check([](nicsim_config &c) {
              c.nic.rx_queues = 8;
              c.nic.tx_queues = 8;
            }),
            "");
  const std::string frame = check([](nicsim_config &c) {
    c.driver.rx_buf_bytes = 1024;
    c.traffic.frame_bytes = 1518;
  });
  EXPECT_NE(frame.find("driver.rx_buf_bytes"), std::string::npos) << frame;
  EXPECT_NE(frame.find("1536"), std::string::npos) << "the hint names the next 128-byte multiple: " << frame;
  // IMIX brings 1518-byte frames whatever traffic.frame_bytes says.
  const std::string imix = check([](nicsim_config &c) {
    c.driver.rx_buf_bytes = 512;
    c.traffic.frame_bytes = 64;
    c.traffic.frame_dist = NC_DIST_IMIX;
  });
  EXPECT_NE(imix.find("traffic.frame_dist imix's 1518-byte frames"), std::string::npos) << imix;
  EXPECT_EQ(check([](nicsim_config &c) {
              c.driver.rx_buf_bytes = 512;
              c.traffic.frame_bytes = 64;
            }),
            "")
      << "fixed 64-byte frames fit a 512-byte buffer";
  // Sixteen RX queues leave no room for XDP rings: the hint lowers nic.rx_queues.
  const std::string all = check([](nicsim_config &c) {
    c.nic.rx_queues = 16;
    c.nic.tx_queues = 1;
  });
  EXPECT_NE(all.find("nic.rx_queues: 8, nic.tx_queues: 8"), std::string::npos) << all;
  // The rules every XDP driver shares still hold for i40e.
  const std::string tcp = check([](nicsim_config &c) { c.traffic.protocol = NC_PROTO_TCP; });
  EXPECT_NE(tcp.find("traffic.protocol"), std::string::npos) << tcp;
  const std::string tx = check([](nicsim_config &c) {
    c.driver.xdp = NC_XDP_TX;
    c.traffic.mode = NC_MODE_BIDIR;
  });
  EXPECT_NE(tx.find("traffic.mode"), std::string::npos) << tx;
}
