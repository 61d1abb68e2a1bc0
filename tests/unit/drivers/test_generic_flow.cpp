// test_generic_flow.cpp: frames through the generic driver: TX stop/wake, RX
// errors and drops, spacings, and a long run that conserves every frame.
#include <gtest/gtest.h>

#include <random>

#include "drivers/ring.h"
#include "unit/drivers/generic_rig.h"

TEST(GenericTx, QueueStopsWhenFullAndWakesAfterEnoughCleaning) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  // Ring of 64: 63 frames fit, the 63rd fills it and stops the queue.
  for (uint64_t s = 0; s < 63; s++) {
    ASSERT_FALSE(nk_kernel_tx_stopped(r.t.k)) << s;
    ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, s), NETDEV_TX_OK) << s;
  }
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.priv->tx_stops, 1u);
  // A stopped queue refuses without consuming: no skb, no descriptor, no doorbell.
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 63), NETDEV_TX_BUSY);
  EXPECT_EQ(r.t.cp.c.mmio_writes + r.t.cp.c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 63u);
  EXPECT_EQ(r.t.check(), "");
  // Wake threshold is 64 / 4 = 16 free descriptors: 15 cleaned are not enough...
  nf_seq_track track{};
  r.tx_complete(15, &track);
  r.service();
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(nk_ring_space(r.priv->tx[0].cur, r.priv->tx[0].dirty, 64), 15u);
  EXPECT_EQ(r.t.check(), "");
  // ...the 16th is.
  r.tx_complete(1, &track);
  r.service();
  EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.priv->tx_wakes, 1u);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 63), NETDEV_TX_OK) << "the refused frame goes now";
  r.tx_complete(48, &track);
  r.service();
  EXPECT_EQ(track.received, 64u);
  EXPECT_EQ(track.errors, 0u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 64u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericTx, DeviceErrorIsCountedAndTheSkbFreed) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 0), NETDEV_TX_OK);
  nf_header h{};
  ASSERT_EQ(r.nic->complete_tx(&h, GN_DESC_EOP | GN_DESC_ERR), "");
  r.service();
  EXPECT_EQ(r.t.dev()->stats.tx_errors, 1u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 0u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericRx, ErrorAndFragmentDescriptorsAreCountedAndTheirBuffersRecycled) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 0), "");
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 1, GN_DESC_EOP | GN_DESC_ERR), "");  // CRC error
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 2, 0), "");                          // no EOP: not a whole frame
  ASSERT_EQ(r.nic->complete_rx(1518, 1, 3), "");
  cp_reset_counts(&r.t.cp);
  r.service();
  EXPECT_EQ(r.t.dev()->stats.rx_errors, 2u);
  EXPECT_EQ(r.t.dev()->stats.rx_packets, 2u);
  EXPECT_EQ(r.t.cp.c.cache_calls[NK_CACHE_INVALIDATE], 2u) << "bad frames are not synced or copied";
  EXPECT_EQ(r.t.cp.c.copies, 2u);
  EXPECT_EQ(r.rx_ok, 2u);
  EXPECT_EQ(r.flows[1].gaps, 2u) << "seq 1 and 2 never reached the host";
  EXPECT_EQ(r.nic->rx_owned(), 63u) << "all four buffers went back to the device";
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericRx, NoSkbMeansADropAndTheBufferGoesBack) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  std::vector<sk_buff *> hog;
  while (sk_buff *s = netdev_alloc_skb(r.t.dev(), 64)) hog.push_back(s);
  uint64_t seq = 0;
  r.rx_frames(3, 1518, &seq);
  r.service();
  EXPECT_EQ(r.t.dev()->stats.rx_dropped, 3u);
  EXPECT_EQ(r.rx_ok, 0u);
  EXPECT_EQ(r.nic->rx_owned(), 63u);
  for (sk_buff *s : hog) dev_kfree_skb_any(s);
  r.rx_frames(3, 1518, &seq);
  r.service();
  EXPECT_EQ(r.rx_ok, 3u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericRx, TheRingWrapsManyTimesWithoutLosingTheEmptySlot) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  uint64_t seq = 0;
  for (int round = 0; round < 50; round++) {
    // Fill everything the device owns, then let the driver drain it.
    uint32_t n = r.nic->rx_owned();
    ASSERT_EQ(n, 63u) << round;
    r.rx_frames(static_cast<int>(n), 64 + round * 29, &seq);
    EXPECT_EQ(r.nic->complete_rx(64, 1, seq), "no RX descriptor owned by the device")
        << "the device may never get the empty slot";
    r.service();
    ASSERT_EQ(r.t.check(), "") << round;
  }
  EXPECT_EQ(r.rx_ok, 50u * 63u);
  EXPECT_EQ(r.rx_bad, 0u);
}

class GenericSpacing : public ::testing::TestWithParam<int> {};

TEST_P(GenericSpacing, FramesFlowBothWaysAtThisSpacing) {
  GenericRig r;
  const int spacing = GetParam();
  ASSERT_TRUE(r.start(false, [spacing](nicsim_config &c) { c.nic.desc_spacing = spacing; })) << r.probe_err;
  uint64_t rx_seq = 0, tx_seq = 0;
  nf_seq_track track{};
  for (int i = 0; i < 20; i++) {
    r.rx_frames(30, 1518, &rx_seq);
    for (int j = 0; j < 30; j++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 1518, 2, tx_seq++), NETDEV_TX_OK);
    r.tx_complete(30, &track);
    r.service();
  }
  EXPECT_EQ(r.rx_ok, 600u);
  EXPECT_EQ(track.received, 600u);
  // Per RX frame the uncached accesses do not depend on spacing.
  uint64_t seq = rx_seq;
  r.rx_frames(10, 1518, &seq);
  cp_reset_counts(&r.t.cp);
  r.service();
  EXPECT_EQ(r.t.cp.c.loads[NK_MEM_UNCACHED], 2 * 10u + 1);
  EXPECT_EQ(r.t.check(), "");
}

INSTANTIATE_TEST_SUITE_P(Spacings, GenericSpacing, ::testing::Values(16, 24, 32, 64, 128, 4096));

// 100k frames each way with random sizes, bursts and interleaving.
TEST(GenericLongRun, ConservesEveryFrameAndLeaksNothing) {
  GenericRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) {
    c.nic.rx_ring_size = 256;
    c.nic.tx_ring_size = 128;
    c.driver.napi_budget = 64;
  })) << r.probe_err;
  std::mt19937_64 rng(12345);
  auto pick = [&](uint32_t lo, uint32_t hi) { return static_cast<uint32_t>(lo + rng() % (hi - lo + 1)); };
  const uint64_t kFrames = 100000;
  uint64_t rx_sent = 0, tx_queued = 0, busy = 0;
  nf_seq_track tx_track{};
  uint64_t steps = 0;
  while (rx_sent < kFrames || tx_track.received < kFrames) {
    // The wire delivers a burst into what the device owns.
    if (rx_sent < kFrames) {
      uint32_t n = std::min<uint64_t>({r.nic->rx_owned(), pick(0, 80), kFrames - rx_sent});
      for (uint32_t i = 0; i < n; i++) ASSERT_EQ(r.nic->complete_rx(pick(64, 1518), 1, rx_sent++), "");
    }
    // The application sends until the queue stops.
    for (uint32_t i = pick(0, 60); i > 0 && tx_queued < kFrames; i--) {
      int rc = nk_kernel_xmit(r.t.k, pick(64, 1518), 2, tx_queued);
      ASSERT_GE(rc, 0);
      if (rc == NETDEV_TX_BUSY) {
        busy++;
        break;
      }
      tx_queued++;
    }
    // The MAC sends some of what it owns.
    uint32_t m = std::min<uint32_t>(r.nic->tx_owned(), pick(0, 70));
    r.tx_complete(static_cast<int>(m), &tx_track);
    r.service();
    ASSERT_EQ(r.t.fault(), nullptr);
    if (++steps % 1000 == 0) {
      ASSERT_EQ(r.t.check(), "") << "step " << steps;
    }
    ASSERT_LT(steps, 10u * kFrames) << "no progress";
  }
  // Conservation: every frame the wire delivered reached the host once, in order,
  // intact; every frame the application sent left on the wire once, in order.
  EXPECT_EQ(r.rx_ok, kFrames);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.flows[1].gaps, 0u);
  EXPECT_EQ(r.t.dev()->stats.rx_packets, kFrames);
  EXPECT_EQ(r.t.dev()->stats.rx_dropped + r.t.dev()->stats.rx_errors, 0u);
  EXPECT_EQ(tx_track.received, kFrames);
  EXPECT_EQ(tx_track.errors + tx_track.gaps, 0u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, kFrames);
  EXPECT_GT(busy, 0u) << "the run should have filled the TX ring at least once";
  EXPECT_EQ(r.priv->tx_stops, r.priv->tx_wakes + (nk_kernel_tx_stopped(r.t.k) ? 1 : 0));
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(page_pool_in_use(r.priv->rx[0].pool), 255u);
  EXPECT_EQ(r.t.cp.c.mmio_reads, 0u);
  EXPECT_EQ(r.t.check(), "");
  // Every lock the xmits and TX cleans took was released, none twice (as cpu.locking txq needs).
  EXPECT_EQ(r.t.locks_balanced(), "");
  EXPECT_GT(r.t.cp.c.spin_acquires[1], 0u);
  nk_kernel_remove(r.t.k);
  EXPECT_EQ(r.t.check(), "") << "no skb, page, mapping, IRQ or NAPI left after remove";
}
