// test_mvneta_flow.cpp: frames through the mvneta driver: probe, TX stop and
// wake, RX errors, ring wrap, remove with frames in flight, and a long run
// that conserves every frame, buffer and skb.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "drivers/ring.h"
#include "unit/drivers/mvneta/mvneta_rig.h"

TEST(MvnetaProbe, FillsEveryRxSlotAndGivesAllButOneToTheDevice) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  EXPECT_EQ(r.nic->reg(GN_REG_DESC_SPACING), 32u);
  EXPECT_EQ(r.nic->reg(GN_REG_RX_RING_SIZE), 64u);
  EXPECT_EQ(r.nic->reg(GN_REG_RX_BUF_SIZE), 2048u - NET_SKB_PAD) << "counted from buf_phys_addr";
  EXPECT_EQ(r.nic->reg(GN_REG_RX_TAIL), 63u);
  EXPECT_EQ(r.nic->reg(GN_REG_INT_MASK), 0u);
  EXPECT_EQ(r.nic->reg(GN_REG_CTRL), GN_CTRL_RX_EN | GN_CTRL_TX_EN);
  EXPECT_EQ(r.nic->rx_owned(), 63u);
  // Ring memory is uncached on a non-coherent platform.
  EXPECT_EQ(cp_attr(&r.t.cp, r.nic->rx_ring()), NK_MEM_UNCACHED);
  EXPECT_EQ(cp_attr(&r.t.cp, r.nic->tx_ring()), NK_MEM_UNCACHED);
  std::set<uint32_t> addrs;
  for (uint32_t i = 0; i < 64; i++) {
    uint32_t a = mvneta_rx_desc_at(r.pp, i)->buf_phys_addr;
    EXPECT_EQ(a, r.pp->rxq.buf_dma_addr[i]) << i;
    EXPECT_EQ(a, r.pp->rxq.buf_virt_addr[i]->dma + NET_SKB_PAD) << i;
    addrs.insert(a);
  }
  EXPECT_EQ(addrs.size(), 64u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(MvnetaProbe, RejectsBuffersTooSmallForPadHeaderAndFrame) {
  MvnetaRig r;
  // 1518 B frames need 64 + 2 + 1514 = 1580 bytes.
  EXPECT_FALSE(r.start(false, true, true, [](nicsim_config &c) { c.driver.rx_buf_bytes = 1579; }));
  EXPECT_NE(r.probe_err.find("driver.rx_buf_bytes >= 1580"), std::string::npos) << r.probe_err;
  MvnetaRig ok;
  EXPECT_TRUE(ok.start(false, true, true, [](nicsim_config &c) { c.driver.rx_buf_bytes = 1580; })) << ok.probe_err;
  uint64_t seq = 0;
  ok.rx_frames(3, 1518, &seq);
  ok.service();
  EXPECT_EQ(ok.rx_ok, 3u);
}

TEST(MvnetaProbe, RejectsSpacingBelowTheDescriptor) {
  MvnetaRig r;
  EXPECT_FALSE(r.start(false, true, true, [](nicsim_config &c) { c.nic.desc_spacing = 16; }));
  EXPECT_NE(r.probe_err.find("desc_spacing"), std::string::npos) << r.probe_err;
}

TEST(MvnetaTx, QueueStopsAtTheThresholdAndWakesAtHalf) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  // Ring of 64: tx_stop_threshold = 63 (the ring holds size - 1), wake at 31.
  for (uint64_t s = 0; s < 63; s++) {
    ASSERT_FALSE(nk_kernel_tx_stopped(r.t.k)) << s;
    ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, s), NETDEV_TX_OK) << s;
  }
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.pp->tx_stops, 1u);
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 63), NETDEV_TX_BUSY);
  EXPECT_EQ(r.t.cp.c.mmio_writes + r.t.cp.c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(r.t.check(), "");
  nf_seq_track track{};
  r.tx_complete(31, &track);  // 32 left in flight: still stopped
  r.service();
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.pp->txq.count, 32u);
  EXPECT_EQ(r.t.check(), "");
  r.tx_complete(1, &track);  // 31: wake
  r.service();
  EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.pp->tx_wakes, 1u);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 63), NETDEV_TX_OK);
  r.tx_complete(32, &track);
  r.service();
  EXPECT_EQ(track.received, 64u);
  EXPECT_EQ(track.errors, 0u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(MvnetaRx, ErrorDescriptorsAreCountedReadOnceMoreAndHandedBack) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 0), "");
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 1, MVNETA_RXD_FIRST_LAST_DESC | MVNETA_RXD_ERR_SUMMARY), "");
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 2, MVNETA_RXD_FIRST_DESC), "");  // not a whole frame
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 3), "");
  cp_reset_counts(&r.t.cp);
  r.service();
  EXPECT_EQ(r.t.dev()->stats.rx_errors, 2u);
  EXPECT_EQ(r.t.dev()->stats.rx_packets, 2u);
  // 2 per descriptor, + 1 status read in mvneta_rx_error for each bad one.
  EXPECT_EQ(r.t.cp.c.loads[NK_MEM_UNCACHED], 4 * 2u + 2);
  // Only the good frames refill (1 store each) and copy.
  EXPECT_EQ(r.t.cp.c.stores[NK_MEM_UNCACHED], 2u);
  EXPECT_EQ(r.t.cp.c.copies, 2u);
  EXPECT_EQ(r.rx_ok, 2u);
  EXPECT_EQ(r.flows[1].gaps, 2u);
  EXPECT_EQ(r.nic->rx_owned(), 63u) << "all four descriptors went back";
  EXPECT_EQ(r.t.check(), "");
}

TEST(MvnetaRx, TheRingWrapsManyTimes) {
  MvnetaRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  uint64_t seq = 0;
  for (int round = 0; round < 50; round++) {
    uint32_t n = r.nic->rx_owned();
    ASSERT_EQ(n, 63u) << round;
    r.rx_frames(static_cast<int>(n), 64 + round * 29, &seq);  // copybreak and refill sizes
    EXPECT_EQ(r.nic->complete_rx(64, 1, seq), "no RX descriptor owned by the device");
    r.service();
    ASSERT_EQ(r.t.check(), "") << round;
  }
  EXPECT_EQ(r.rx_ok, 50u * 63u);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_GT(r.pp->rx_copybreak_pkts, 0u);
  EXPECT_GT(r.pp->rx_refill_pkts, 0u);
}

TEST(MvnetaRemove, FramesInFlightAreReleasedAndNothingLeaks) {
  for (bool shadow : {true, false}) {
    MvnetaRig r;
    ASSERT_TRUE(r.start(false, false, shadow)) << r.probe_err;
    uint64_t seq = 0;
    r.rx_frames(5, 1518, &seq);  // completed by the device, never polled
    for (uint64_t s = 0; s < 7; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 1518, 2, s), NETDEV_TX_OK);
    nk_kernel_remove(r.t.k);
    EXPECT_EQ(r.t.check(), "") << "shadow " << shadow;
    EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  }
}

// Thousands of frames each way, random sizes across rx_copybreak, bursts
// that wrap both rings many times, the TX queue stopping and waking.
TEST(MvnetaLongRun, ConservesEveryFrameAndLeaksNothing) {
  for (bool knobs : {true, false}) {
    MvnetaRig r;
    ASSERT_TRUE(r.start(false, knobs, knobs, [](nicsim_config &c) {
      c.nic.rx_ring_size = 128;
      c.nic.tx_ring_size = 64;
      c.driver.napi_budget = 16;
    })) << r.probe_err;
    std::mt19937_64 rng(7);
    uint64_t rx_seq = 0, tx_seq = 0, tx_accepted = 0, rx_sent = 0;
    nf_seq_track track{};
    uint32_t busy_seen = 0;
    while (rx_sent < 20000 || tx_accepted < 20000) {
      // RX burst of up to what the device owns.
      uint32_t n = static_cast<uint32_t>(rng() % (r.nic->rx_owned() + 1));
      for (uint32_t i = 0; i < n && rx_sent < 20000; i++, rx_sent++)
        ASSERT_EQ(r.nic->complete_rx(64 + static_cast<uint32_t>(rng() % 1455), 1, rx_seq++), "");
      // TX burst until the queue stops or the burst ends.
      uint32_t m = static_cast<uint32_t>(rng() % 80);
      for (uint32_t i = 0; i < m && tx_accepted < 20000; i++) {
        int rc = nk_kernel_xmit(r.t.k, 64 + static_cast<uint32_t>(rng() % 1455), 2, tx_seq);
        if (rc == NETDEV_TX_BUSY) {
          busy_seen++;
          break;
        }
        ASSERT_EQ(rc, NETDEV_TX_OK);
        tx_seq++;
        tx_accepted++;
      }
      // The device sends some of what it owns.
      r.tx_complete(static_cast<int>(rng() % (r.nic->tx_owned() + 1)), &track);
      r.service();
      ASSERT_EQ(r.t.fault(), nullptr) << r.t.fault();
      ASSERT_EQ(r.t.check(), "");
    }
    r.tx_complete(static_cast<int>(r.nic->tx_owned()), &track);
    r.service();
    EXPECT_EQ(r.rx_ok, 20000u);
    EXPECT_EQ(r.rx_bad, 0u);
    EXPECT_EQ(r.flows[1].gaps, 0u);
    EXPECT_EQ(track.received, 20000u);
    EXPECT_EQ(track.errors, 0u);
    EXPECT_GT(busy_seen, 0u) << "the TX queue never stopped";
    EXPECT_GT(r.pp->tx_wakes, 0u);
    EXPECT_EQ(r.pp->tx_stops, r.pp->tx_wakes);
    EXPECT_GT(r.pp->rx_copybreak_pkts, 1000u);
    EXPECT_GT(r.pp->rx_refill_pkts, 1000u);
    EXPECT_EQ(r.pp->rxq.missed, 0u);
    EXPECT_EQ(r.t.dev()->stats.rx_packets, 20000u);
    EXPECT_EQ(r.t.dev()->stats.tx_packets, 20000u);
    EXPECT_EQ(r.t.dev()->stats.rx_errors + r.t.dev()->stats.tx_dropped, 0u);
    EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
    EXPECT_EQ(r.t.check(), "");
    // Every lock the xmits and TX cleans took was released, none twice (as cpu.locking txq needs).
    EXPECT_EQ(r.t.locks_balanced(), "");
    EXPECT_GT(r.t.cp.c.spin_acquires[1], 0u);
    nk_kernel_remove(r.t.k);
    EXPECT_EQ(r.t.check(), "") << "leak after remove";
  }
}
