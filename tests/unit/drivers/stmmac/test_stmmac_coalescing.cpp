// test_stmmac_coalescing.cpp: the stmmac coalescing knobs (driver.rx_coal_frames,
// tx_coal_frames, tx_coal_per_packet, tx_coal_timer_us) change the IOC bits the
// driver writes and when the TX timer runs, exactly as the coalescing series
// says; and a long mixed run conserves frames, skbs and buffers.
#include <gtest/gtest.h>

#include <random>

#include "unit/drivers/stmmac/stmmac_rig.h"

namespace {

constexpr uint32_t kFrame = 1518;

// IOC bits among the RX descriptors the device owns now.
uint64_t rx_ioc_in_ring(StmmacRig &r) {
  uint64_t n = 0;
  const uint32_t size = r.nic->reg(GN_REG_RX_RING_SIZE);
  for (uint32_t k = 0, i = r.nic->rx_head; k < r.nic->rx_owned(); k++, i = (i + 1) % size)
    n += (r.nic->desc(r.nic->rx_ring(), i).des3 & STMMAC_RDES3_INT_ON_COMPLETION_EN) != 0;
  return n;
}

}  // namespace

// Patch 1/7: rx_coal_frames 25 (before) sets IOC on every refilled RX
// descriptor (the refill arithmetic resets the count each time); 0 (after)
// sets none and leaves the RX watchdog to interrupt. The stores are the same:
// the bit rides in dwmac4_set_rx_owner's one store.
TEST(StmmacCoalescing, RxCoalFramesDecidesTheIocBitOfEveryRefill) {
  const uint64_t N = 12;
  StmmacRig before, after;
  ASSERT_TRUE(before.start(false, [](nicsim_config &c) { c.driver.rx_coal_frames = 25; })) << before.probe_err;
  ASSERT_TRUE(after.start(false, [](nicsim_config &c) { c.driver.rx_coal_frames = 0; })) << after.probe_err;
  // Probe fills with the watchdog in use (stmmac_init_rx_desc(use_riwt)): no IOC either way.
  EXPECT_EQ(rx_ioc_in_ring(before), 0u);
  EXPECT_EQ(rx_ioc_in_ring(after), 0u);
  uint64_t sb = 0, sa = 0;
  before.rx_frames(N, kFrame, &sb);
  after.rx_frames(N, kFrame, &sa);
  cp_reset_counts(&before.t.cp);
  cp_reset_counts(&after.t.cp);
  ASSERT_EQ(before.service(), 1);  // the watchdog: the probe-time descriptors have no IOC
  ASSERT_EQ(after.service(), 1);
  // The N refilled descriptors: IOC on each before, none after.
  EXPECT_EQ(before.priv->rx_set_ic_bit, N);
  EXPECT_EQ(after.priv->rx_set_ic_bit, 0u);
  EXPECT_EQ(rx_ioc_in_ring(before), N);
  EXPECT_EQ(rx_ioc_in_ring(after), 0u);
  EXPECT_EQ(before.t.cp.c.stores[NK_MEM_UNCACHED], after.t.cp.c.stores[NK_MEM_UNCACHED]);
  EXPECT_EQ(before.t.cp.c.loads[NK_MEM_UNCACHED], after.t.cp.c.loads[NK_MEM_UNCACHED]);

  // Go round the ring: once the refilled descriptors come back, each one
  // before the patch asks for an interrupt; after it none does.
  before.nic->rx_ioc_seen = after.nic->rx_ioc_seen = 0;
  const int M = 80;  // more than a ring: reaches the refilled descriptors
  int irq_b = 0, irq_a = 0;
  for (int i = 0; i < M; i++) {
    ASSERT_EQ(before.nic->complete_rx(kFrame, 1, sb++), "");
    ASSERT_EQ(after.nic->complete_rx(kFrame, 1, sa++), "");
    irq_b += before.service();
    irq_a += after.service();
  }
  // 51 probe-time descriptors (12..62) without IOC, then 29 refilled ones with it.
  EXPECT_EQ(before.nic->rx_ioc_seen, static_cast<uint64_t>(M - (63 - N)));
  EXPECT_EQ(after.nic->rx_ioc_seen, 0u);
  EXPECT_EQ(before.rx_ok, N + M);
  EXPECT_EQ(after.rx_ok, N + M);
  EXPECT_EQ(before.t.check(), "");
  EXPECT_EQ(after.t.check(), "");
}

// Patch 6/7's TX default: IOC on every tx_coal_frames-th frame, the timer
// armed for the others. tx_coal_frames 1 (before) puts IOC on every frame
// and never arms the timer.
TEST(StmmacCoalescing, TxCoalFramesSetsIocOnEveryNthFrameAndArmsTheTimerOtherwise) {
  for (int64_t frames : {1, 4, 25}) {
    StmmacRig r;
    ASSERT_TRUE(r.start(false, [frames](nicsim_config &c) { c.driver.tx_coal_frames = frames; })) << r.probe_err;
    const uint64_t M = 40;
    cp_reset_counts(&r.t.cp);
    for (uint64_t s = 0; s < M; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK) << s;
    // count++ then "tx_coal_frames > count ? arm : IOC and reset": IOC on
    // frames frames, 2 frames, ...: M / frames of them.
    const uint64_t ioc = M / static_cast<uint64_t>(frames);
    EXPECT_EQ(r.priv->tx_set_ic_bit, ioc) << frames;
    EXPECT_EQ(r.t.cp.c.timer_arms, M - ioc) << frames;
    // dwmac4_set_tx_ic is one more load and store per IOC frame.
    EXPECT_EQ(r.t.cp.c.loads[NK_MEM_UNCACHED], 2 * M + ioc) << frames;
    EXPECT_EQ(r.t.cp.c.stores[NK_MEM_UNCACHED], 4 * M + ioc) << frames;
    nf_seq_track track{};
    r.tx_complete(static_cast<int>(M), &track);
    EXPECT_EQ(r.nic->tx_ioc_seen, ioc) << frames;
    // An IOC completion interrupts and its TX poll cleans every frame done
    // by then; whatever is left (none here: all 40 are done) the timer cleans.
    r.service();
    if (hrtimer_is_queued(&r.priv->txtimer)) {
      ASSERT_TRUE(r.fire_tx_timer());
    }
    EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u) << frames;
    EXPECT_EQ(r.t.dev()->stats.tx_packets, M);
    EXPECT_EQ(r.t.check(), "");
  }
}

// Patch 7/7: counting per packet or per descriptor. nicsim's skbs are linear
// (one descriptor per frame, nfrags 0), so both count 1 per frame: the knob
// changes nothing here, as it changes nothing in Linux for linear skbs.
TEST(StmmacCoalescing, TxCoalPerPacketIsTheSameForLinearSkbs) {
  StmmacRig a, b;
  ASSERT_TRUE(a.start(false, [](nicsim_config &c) { c.driver.tx_coal_per_packet = true; })) << a.probe_err;
  ASSERT_TRUE(b.start(false, [](nicsim_config &c) { c.driver.tx_coal_per_packet = false; })) << b.probe_err;
  cp_reset_counts(&a.t.cp);
  cp_reset_counts(&b.t.cp);
  for (uint64_t s = 0; s < 40; s++) {
    ASSERT_EQ(nk_kernel_xmit(a.t.k, kFrame, 2, s), NETDEV_TX_OK);
    ASSERT_EQ(nk_kernel_xmit(b.t.k, kFrame, 2, s), NETDEV_TX_OK);
  }
  EXPECT_EQ(a.priv->tx_set_ic_bit, b.priv->tx_set_ic_bit);
  EXPECT_EQ(a.priv->tx_set_ic_bit, 1u);  // frame 25
  EXPECT_EQ(std::memcmp(&a.t.cp.c, &b.t.cp.c, sizeof a.t.cp.c), 0);
}

// The timer: armed with tx_coal_timer_us, re-armed (moved) by each frame
// without IOC; its expiry schedules TX NAPI; if NAPI is already scheduled it
// retries in 10 us.
TEST(StmmacCoalescing, TxTimerIsArmedWithTheCoalTimeAndRetriesWhenNapiIsBusy) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) { c.driver.tx_coal_timer_us = 250; })) << r.probe_err;
  ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, 0), NETDEV_TX_OK);
  const int id = r.priv->txtimer.id - 1;
  ASSERT_GE(id, 0);
  EXPECT_TRUE(r.t.cp.timer_armed[id]);
  EXPECT_EQ(r.t.cp.timer_delay_ns[id], 250000u);
  EXPECT_TRUE(hrtimer_is_queued(&r.priv->txtimer));

  // TX NAPI already scheduled (an RX interrupt scheduled it with RX NAPI):
  // the timer re-arms at 10 us instead.
  uint64_t seq = 0;
  r.rx_frames(1, kFrame, &seq);
  r.nic->irq_sent();
  nk_kernel_irq(r.t.k, STMMAC_IRQ_VEC);
  ASSERT_TRUE(r.priv->tx_napi.scheduled);
  ASSERT_TRUE(cp_fire_timer(&r.t.cp, r.t.k, id));
  EXPECT_EQ(r.priv->tx_timer_busy, 1u);
  EXPECT_TRUE(r.t.cp.timer_armed[id]);
  EXPECT_EQ(r.t.cp.timer_delay_ns[id], 10000u);
  r.softirqs();
  // The frame is not sent yet: tx_clean left it and re-armed the 10 us timer.
  EXPECT_TRUE(r.t.cp.timer_armed[id]);
  nf_seq_track track{};
  r.tx_complete(1, &track);
  ASSERT_TRUE(r.fire_tx_timer());
  EXPECT_EQ(r.priv->tx_timer_fired, 2u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 1u);
  EXPECT_FALSE(r.t.cp.timer_armed[id]);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

// Remove cancels the timer and frees every frame still on the TX ring.
TEST(StmmacCoalescing, RemoveCancelsTheTimerAndLeaksNothing) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  for (uint64_t s = 0; s < 5; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  const int id = r.priv->txtimer.id - 1;
  ASSERT_TRUE(r.t.cp.timer_armed[id]);
  nk_kernel_remove(r.t.k);
  EXPECT_FALSE(r.t.cp.timer_armed[id]);
  EXPECT_EQ(r.t.dev()->stats.tx_dropped, 5u);
  EXPECT_EQ(r.t.check(), "");
}

// A long bidirectional run with random device timing: every frame is
// delivered or sent exactly once, and no skb, buffer or descriptor leaks.
TEST(StmmacLongRun, ConservesFramesSkbsAndBuffers) {
  for (bool coherent : {false, true}) {
    StmmacRig r;
    ASSERT_TRUE(r.start(coherent, [](nicsim_config &c) {
      c.driver.rx_coal_frames = 5;
      c.driver.tx_coal_frames = 7;
    })) << r.probe_err;
    std::mt19937_64 rng(42);
    uint64_t rx_seq = 0, tx_seq = 0, tx_busy = 0;
    nf_seq_track track{};
    const uint64_t kSteps = 20000;
    for (uint64_t step = 0; step < kSteps; step++) {
      switch (rng() % 5) {
        case 0:
        case 1:
          if (r.nic->rx_owned() > 0) {
            ASSERT_EQ(r.nic->complete_rx(kFrame, 1, rx_seq++), "");
          }
          break;
        case 2: {
          int rc = nk_kernel_xmit(r.t.k, kFrame, 2, tx_seq);
          if (rc == NETDEV_TX_OK)
            tx_seq++;
          else
            tx_busy++;
          break;
        }
        case 3:
          if (r.nic->tx_owned() > 0) r.tx_complete(1, &track);
          break;
        default:
          r.service();
          if (rng() % 4 == 0) r.fire_tx_timer();
          break;
      }
      ASSERT_EQ(r.t.fault(), nullptr) << r.t.fault();
      if (step % 1000 == 0) {
        ASSERT_EQ(r.t.check(), "") << step;
      }
    }
    // Drain: the device finishes TX, interrupts and the timer run until idle.
    while (r.nic->tx_owned() > 0) r.tx_complete(1, &track);
    for (int i = 0; i < 4; i++) {
      r.service();
      r.fire_tx_timer();
    }
    EXPECT_GT(rx_seq, 5000u);
    EXPECT_GT(tx_seq, 3000u);
    EXPECT_EQ(r.rx_ok, rx_seq);
    EXPECT_EQ(r.rx_bad, 0u);
    EXPECT_EQ(track.received, tx_seq);
    EXPECT_EQ(r.t.dev()->stats.tx_packets, tx_seq);
    EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
    EXPECT_EQ(r.t.check(), "");
    // Every lock the xmits and TX cleans took was released, none twice (as cpu.locking txq needs).
    EXPECT_EQ(r.t.locks_balanced(), "");
    EXPECT_GT(r.t.cp.c.spin_acquires[1], 0u);
    nk_kernel_remove(r.t.k);
    EXPECT_EQ(r.t.check(), "") << "conservation after remove";
    EXPECT_EQ(r.t.dev()->stats.tx_dropped, 0u);
  }
}

// The sending socket's memory (traffic.sndbuf_bytes blocks the UDP sender on
// it): each accepted frame charges its truesize, TX completion gives it back
// when stmmac_tx_clean frees the skb, and a refused frame (NETDEV_TX_BUSY)
// leaves it as it was.
TEST(SocketMemory, TheSocketHoldsEachFrameUntilTxCleanFreesIt) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false, [](nicsim_config &c) { c.driver.tx_coal_frames = 1; })) << r.probe_err;
  const uint64_t ts = nk_skb_truesize(kFrame);
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), 0u);
  for (uint64_t s = 0; s < 6; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK) << s;
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), 6 * ts);
  nf_seq_track track{};
  r.tx_complete(4, &track);
  r.service();
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 4u);
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), 2 * ts) << "the 4 completed frames are freed, 2 still on the ring";
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->sk_wmem_max, 6 * ts);
  // Fill the ring until the driver stops the queue: the refused frame is not charged.
  uint64_t s = 6;
  while (nk_kernel_xmit(r.t.k, kFrame, 2, s) == NETDEV_TX_OK) s++;
  const uint64_t on_ring = s - 4;
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), on_ring * ts);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_BUSY);
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), on_ring * ts);
  r.tx_complete(static_cast<int>(on_ring), &track);
  r.service();
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

// Frames left on the ring at remove are freed there (tx_dropped) and give
// their memory back too: the leak check finds the socket empty.
TEST(SocketMemory, RemoveGivesBackWhatTheRingHeld) {
  StmmacRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  for (uint64_t s = 0; s < 3; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, kFrame, 2, s), NETDEV_TX_OK);
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), 3 * nk_skb_truesize(kFrame));
  nk_kernel_remove(r.t.k);
  EXPECT_EQ(nk_kernel_sk_wmem(r.t.k), 0u);
  EXPECT_EQ(r.t.check(), "");
}

// truesize as Linux v5.4 sizes a UDP send on x86-64: the head (frame - 18 +
// 31 bytes, aligned to 64, plus 320 of skb_shared_info) in kmalloc's
// power-of-two class, plus 256 for struct sk_buff.
TEST(SocketMemory, TruesizeFollowsKmallocSizeClasses) {
  EXPECT_EQ(nk_skb_truesize(64), 512u + 256u);     // 77 -> 128 + 320 = 448 -> 512
  EXPECT_EQ(nk_skb_truesize(1446), 2048u + 256u);  // 1400 B of payload: 1459 -> 1472 + 320 = 1792 -> 2048
  EXPECT_EQ(nk_skb_truesize(1518), 2048u + 256u);  // 1531 -> 1536 + 320 = 1856 -> 2048
  EXPECT_EQ(nk_skb_truesize(1728), 4096u + 256u);  // 1741 -> 1792 + 320 = 2112 -> 4096
  EXPECT_EQ(nk_skb_truesize(9018), 16384u + 256u); // 9031 -> 9088 + 320 = 9408 -> 16384
}
