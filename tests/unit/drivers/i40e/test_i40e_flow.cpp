// test_i40e_flow.cpp: frames through the i40e driver: config limits, TX
// stop/wake, RX errors, 16-byte descriptors, and long runs that conserve every
// frame and buffer (both TX completion modes).
#include <gtest/gtest.h>

#include <random>

#include "drivers/ring.h"
#include "unit/drivers/i40e/i40e_rig.h"

TEST(I40eProbe, RejectsWhatTheQueueContextCannotExpress) {
  struct Case {
    void (*tweak)(nicsim_config &);
    const char *needle;
  } cases[] = {
      {[](nicsim_config &c) { c.nic.rx_ring_size = 100; }, "multiples of 32"},
      {[](nicsim_config &c) { c.nic.tx_ring_size = 32; }, "multiples of 32"},
      {[](nicsim_config &c) { c.nic.desc_spacing = 64; }, "packed"},
      {[](nicsim_config &c) { c.driver.rx_buf_bytes = 2000; }, "multiple of 128"},
  };
  for (const Case &k : cases) {
    I40eRig r;
    EXPECT_FALSE(r.start(false, k.tweak));
    EXPECT_NE(r.probe_err.find(k.needle), std::string::npos) << r.probe_err;
  }
}

TEST(I40eTx, QueueStopsBelowDescNeededAndWakesAtTwiceThat) {
  I40eRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  // Ring of 64 (63 usable): after each frame i40e_maybe_stop_tx(DESC_NEEDED = 23)
  // stops the queue once fewer than 23 are free: after frame 41 (63 - 41 = 22).
  uint64_t s = 0;
  while (!nk_kernel_tx_stopped(r.t.k)) {
    ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, s), NETDEV_TX_OK) << s;
    s++;
    ASSERT_LT(s, 64u);
  }
  EXPECT_EQ(s, 41u);
  EXPECT_EQ(i40e_desc_unused(&r.priv->tx_rings[0]), 22u);
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 2, s), NETDEV_TX_BUSY);
  EXPECT_EQ(r.t.cp.c.mmio_writes + r.t.cp.c.stores[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(r.t.check(), "");
  // Wake at TX_WAKE_THRESHOLD = 46 free: 23 cleaned (45 free) are not enough...
  nf_seq_track track{};
  r.tx_complete(23, &track);
  r.service();
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.t.check(), "");
  // ...24 are.
  r.tx_complete(1, &track);
  r.service();
  EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.priv->tx_rings[0].restart_queue, 1u);
  ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, s), NETDEV_TX_OK);
  r.tx_complete(18, &track);
  r.service();
  EXPECT_EQ(track.received, s + 1);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(I40eRx, ReceiveErrorIsCountedAndTheBufferReused) {
  I40eRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  uint64_t seq = 0;
  r.rx_frames(2, 600, &seq);
  ASSERT_EQ(r.nic->complete_rx(600, 1, seq++, /*error=*/true), "");
  r.rx_frames(2, 600, &seq);
  r.service();
  EXPECT_EQ(r.rx_ok, 4u);
  EXPECT_EQ(r.t.dev()->stats.rx_errors, 1u);
  EXPECT_EQ(r.t.dev()->stats.rx_packets, 4u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(page_pool_in_use(r.priv->rx_rings[0].pool), 63u);
  EXPECT_EQ(r.t.check(), "");
}

namespace {
// Random RX bursts, TX bursts until the queue stops, random TX completions.
void long_run(I40eRig &r, uint64_t frames) {
  std::mt19937_64 rng(12345);
  auto pick = [&](uint32_t lo, uint32_t hi) { return static_cast<uint32_t>(lo + rng() % (hi - lo + 1)); };
  uint64_t rx_sent = 0, tx_queued = 0, busy = 0, steps = 0;
  nf_seq_track tx_track{};
  while (rx_sent < frames || tx_track.received < frames) {
    if (rx_sent < frames) {
      uint32_t n = std::min<uint64_t>({r.nic->rx_owned(), pick(0, 80), frames - rx_sent});
      for (uint32_t i = 0; i < n; i++) ASSERT_EQ(r.nic->complete_rx(pick(64, 1518), 1, rx_sent++), "");
    }
    for (uint32_t i = pick(0, 60); i > 0 && tx_queued < frames; i--) {
      int rc = nk_kernel_xmit(r.t.k, pick(64, 1518), 2, tx_queued);
      if (rc == NETDEV_TX_BUSY) {
        busy++;
        break;
      }
      ASSERT_EQ(rc, NETDEV_TX_OK);
      tx_queued++;
    }
    r.tx_complete(static_cast<int>(std::min<uint32_t>(r.nic->tx_owned(), pick(0, 70))), &tx_track);
    r.service();
    ASSERT_EQ(r.t.fault(), nullptr);
    if (++steps % 1000 == 0) {
      ASSERT_EQ(r.t.check(), "") << "step " << steps;
    }
    ASSERT_LT(steps, 10 * frames) << "no progress";
  }
  EXPECT_EQ(r.rx_ok, frames);
  EXPECT_EQ(r.rx_bad, 0u);
  EXPECT_EQ(r.flows[1].gaps, 0u);
  EXPECT_EQ(r.t.dev()->stats.rx_packets, frames);
  EXPECT_EQ(r.t.dev()->stats.rx_dropped + r.t.dev()->stats.rx_errors, 0u);
  EXPECT_EQ(tx_track.received, frames);
  EXPECT_EQ(tx_track.errors + tx_track.gaps, 0u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, frames);
  EXPECT_GT(busy, 0u) << "the run should have stopped the TX queue at least once";
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(page_pool_in_use(r.priv->rx_rings[0].pool), r.priv->rx_rings[0].count - 1) << "no buffer leaked or lost";
  EXPECT_EQ(r.priv->rx_rings[0].alloc_page_failed, 0u);
  EXPECT_EQ(r.t.cp.c.mmio_reads, 0u);
  EXPECT_EQ(r.t.check(), "");
  // Every lock the xmits and TX cleans took was released, none twice (as cpu.locking txq needs).
  EXPECT_EQ(r.t.locks_balanced(), "");
  EXPECT_GT(r.t.cp.c.spin_acquires[1], 0u);
  nk_kernel_remove(r.t.k);
  EXPECT_EQ(r.t.check(), "") << "no skb, page, mapping, IRQ or NAPI left after remove";
}
}  // namespace

TEST(I40eLongRun, ConservesEveryFrameAndBufferWithDescriptorDone) {
  I40eRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) {
    c.nic.rx_ring_size = 256;
    c.nic.tx_ring_size = 128;
    c.driver.napi_budget = 64;
  })) << r.probe_err;
  long_run(r, 100000);
}

TEST(I40eLongRun, ConservesEveryFrameAndBufferWithHeadWriteBackAnd16ByteDescriptors) {
  I40eRig r;
  ASSERT_TRUE(r.start(true, [](nicsim_config &c) {
    c.nic.rx_ring_size = 128;
    c.nic.tx_ring_size = 64;
    c.nic.rx_desc_bytes = 16;
    c.nic.wb_mode = NC_WB_HEAD;
    c.driver.napi_budget = 64;
  })) << r.probe_err;
  long_run(r, 50000);
}
