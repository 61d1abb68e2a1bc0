// test_lan743x_flow.cpp: frames through the lan743x driver: TX overflow frame
// with stop and wake, RX errors, config errors, remove without leaks, and a
// long run with ring wraps that conserves every frame and buffer.
#include <gtest/gtest.h>

#include <random>

#include "drivers/ring.h"
#include "unit/drivers/lan743x/lan743x_rig.h"

TEST(Lan743xTx, FrameThatDoesNotFitWaitsAsOverflowAndGoesAfterTheNextRelease) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  // Ring of 64: 63 frames fit without stopping the queue (Linux stops only
  // when a frame does not fit).
  for (uint64_t s = 0; s < 63; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, s), NETDEV_TX_OK) << s;
  EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
  // The 64th is accepted into overflow_skb and the queue stops.
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 63), NETDEV_TX_OK);
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.adapter->tx_stops, 1u);
  EXPECT_NE(r.adapter->tx.overflow_skb, nullptr);
  EXPECT_EQ(r.t.cp.c.mmio_writes + r.t.cp.c.stores[NK_MEM_UNCACHED], 0u) << "no descriptor, no doorbell";
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64u + 64u);
  EXPECT_EQ(r.t.check(), "");
  // A stopped queue refuses the next one without consuming it.
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 64), NETDEV_TX_BUSY);
  // One frame sent: the TX poll releases it, sends the overflow frame
  // (4 stores, a doorbell) and wakes the queue.
  nf_seq_track track{};
  r.tx_complete(1, &track);
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(r.service(), 1);
  EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(r.adapter->tx_wakes, 1u);
  EXPECT_EQ(r.adapter->tx.overflow_skb, nullptr);
  EXPECT_EQ(r.t.cp.c.mmio_writes_reg[GN_REG_TX_TAIL / 4], 1u);
  EXPECT_EQ(r.t.cp.c.stores[NK_MEM_UNCACHED], 2u + 4u) << "memset of the released one + the overflow frame";
  EXPECT_EQ(r.nic->tx_owned(), 63u);
  EXPECT_EQ(r.t.check(), "");
  ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 2, 64), NETDEV_TX_OK);  // the refused one; overflows again
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  r.tx_complete(63, &track);
  r.service();
  r.tx_complete(1, &track);
  r.service();
  EXPECT_EQ(track.received, 65u);
  EXPECT_EQ(track.errors, 0u);
  EXPECT_EQ(r.t.dev()->stats.tx_packets, 65u);
  EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(Lan743xRx, BufferWithoutFirstAndLastIsAnErrorAndTheSlotIsReArmed) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  uint64_t seq = 0;
  ASSERT_EQ(r.nic->complete_rx(1518, 1, seq++, LAN743X_RX_DESC_DATA0_FS), "");  // a frame split over buffers
  ASSERT_EQ(r.nic->complete_rx(1518, 1, seq++), "");
  r.service();
  EXPECT_EQ(r.t.dev()->stats.rx_errors, 1u);
  EXPECT_EQ(r.rx_ok, 1u);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(Lan743xProbe, RejectsSpacingsAndRingSizesTheDriverCannotUse) {
  {
    Lan743xRig r;
    EXPECT_FALSE(r.start(true, [](nicsim_config &c) { c.nic.desc_spacing = 48; }));
    EXPECT_NE(r.probe_err.find("nic.desc_spacing = 48"), std::string::npos) << r.probe_err;
  }
  {
    Lan743xRig r;
    EXPECT_FALSE(r.start(true, [](nicsim_config &c) { c.nic.rx_ring_size = 60; }));
    EXPECT_NE(r.probe_err.find("multiple of 8"), std::string::npos) << r.probe_err;
  }
  {
    // Simulated memory too small for the RX skbs' rings: a clear error, nothing leaked.
    Lan743xRig r;
    EXPECT_FALSE(r.start(true, [](nicsim_config &c) { c.nic.rx_ring_size = 4096; }, 4u << 20));
    EXPECT_FALSE(r.probe_err.empty());
  }
}

TEST(Lan743xProbe, ProgramsRingsHeadWriteBackAndEnables) {
  Lan743xRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  const auto &a = *r.adapter;
  EXPECT_EQ(r.nic->reg(GN_REG_RX_RING_SIZE), 64u);
  EXPECT_EQ(r.nic->reg(GN_REG_RX_TAIL), 63u);
  EXPECT_EQ(r.nic->rx_owned(), 63u);
  EXPECT_EQ(r.nic->reg(GN_REG_TX_TAIL), 0u);
  EXPECT_EQ(r.nic->head_wb(), a.tx.head_dma_ptr);
  EXPECT_EQ(cp_attr(&r.t.cp, a.tx.head_dma_ptr), NK_MEM_UNCACHED) << "head word is coherent memory";
  EXPECT_EQ(r.nic->reg(GN_REG_CTRL), GN_CTRL_RX_EN | GN_CTRL_TX_EN);
  EXPECT_EQ(r.nic->reg(GN_REG_INT_MASK), 0u);
  EXPECT_EQ(r.nic->reg(GN_REG_COAL_FRAMES), static_cast<uint32_t>(r.t.cfg.nic.irq_coal_frames));
  EXPECT_NE(r.nic->reg(GN_REG_MSI_ADDR_LO), 0u);
  EXPECT_EQ(a.rx.buffer_length, 1518u);
  // Every RX slot holds an skb, OWN set, its address in data1/data2.
  for (uint32_t i = 0; i < 64; i++) {
    const struct lan743x_rx_desc *d = lan743x_rx_desc(&a.rx, i);
    EXPECT_EQ(d->data0, LAN743X_RX_DESC_DATA0_OWN | 1518u) << i;
    EXPECT_EQ(d->data1, static_cast<uint32_t>(a.rx.buffer_info[i].dma_ptr)) << i;
  }
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64u);
  EXPECT_EQ(r.t.check(), "");
  nk_kernel_remove(r.t.k);
  EXPECT_EQ(r.t.check(), "") << "remove frees every skb, mapping, ring and NAPI";
}

// Random interleavings of device completions, host sends and interrupts over
// many ring wraps, on both platform kinds: every frame arrives once, in order,
// and every skb and buffer is accounted for at every step and after remove.
TEST(Lan743xFlow, LongRunConservesFramesAndBuffers) {
  for (bool coherent : {false, true}) {
    Lan743xRig r;
    ASSERT_TRUE(r.start(coherent)) << r.probe_err;
    std::mt19937_64 rng(coherent ? 7 : 11);
    uint64_t rx_sent = 0, tx_seq = 0, busy = 0;
    nf_seq_track track{};
    for (int step = 0; step < 3000; step++) {
      switch (rng() % 4) {
        case 0: {  // the device receives some frames
          uint32_t n = static_cast<uint32_t>(rng() % 12);
          for (uint32_t i = 0; i < n && r.nic->rx_owned() > 0; i++) {
            uint32_t bytes = 64 + static_cast<uint32_t>(rng() % (1518 - 64 + 1));
            ASSERT_EQ(r.nic->complete_rx(bytes, 1, rx_sent++), "");
          }
          break;
        }
        case 1: {  // the host sends until the queue stops
          uint32_t n = static_cast<uint32_t>(rng() % 24);
          for (uint32_t i = 0; i < n; i++) {
            int rc = nk_kernel_xmit(r.t.k, 64 + static_cast<uint32_t>(rng() % 1455), 2, tx_seq);
            if (rc == NETDEV_TX_BUSY) {
              busy++;
              break;
            }
            ASSERT_EQ(rc, NETDEV_TX_OK);
            tx_seq++;
          }
          break;
        }
        case 2: {  // the device sends some
          uint32_t n = static_cast<uint32_t>(rng() % 16);
          for (uint32_t i = 0; i < n && r.nic->tx_owned() > 0; i++) {
            nf_header h{};
            ASSERT_EQ(r.nic->complete_tx(&h), "");
            ASSERT_TRUE(nf_seq_accept(&track, h.seq)) << h.seq;
          }
          break;
        }
        default: r.service(); break;
      }
      ASSERT_EQ(r.t.check(), "") << "step " << step;
      ASSERT_EQ(r.t.fault(), nullptr);
    }
    // Drain: everything the host handed over reaches the wire.
    for (int i = 0; i < 10 && (r.nic->tx_owned() > 0 || r.adapter->tx.overflow_skb || r.nic->irq_due()); i++) {
      while (r.nic->tx_owned() > 0) {
        nf_header h{};
        ASSERT_EQ(r.nic->complete_tx(&h), "");
        ASSERT_TRUE(nf_seq_accept(&track, h.seq));
      }
      r.service();
    }
    EXPECT_EQ(r.rx_ok, rx_sent);
    EXPECT_EQ(r.rx_bad, 0u);
    EXPECT_EQ(track.received, tx_seq);
    EXPECT_EQ(track.errors, 0u);
    EXPECT_EQ(r.t.dev()->stats.tx_packets, tx_seq);
    EXPECT_GT(rx_sent, 20u * 64) << "the RX ring wrapped many times";
    EXPECT_GT(tx_seq, 20u * 64) << "the TX ring wrapped many times";
    EXPECT_GT(r.adapter->tx_stops, 0u);
    EXPECT_EQ(r.adapter->tx_wakes, r.adapter->tx_stops);
    EXPECT_GT(busy, 0u);
    EXPECT_FALSE(nk_kernel_tx_stopped(r.t.k));
    EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 64u);
    EXPECT_EQ(r.t.check(), "");
    // Every lock the xmits and TX cleans took was released, none twice (as cpu.locking txq needs).
    EXPECT_EQ(r.t.locks_balanced(), "");
    EXPECT_GT(r.t.cp.c.spin_acquires[1], 0u);
    EXPECT_GT(r.t.cp.c.spin_acquires[2], 0u); /* ring_lock */
    nk_kernel_remove(r.t.k);
    EXPECT_EQ(r.t.check(), "");
  }
}
