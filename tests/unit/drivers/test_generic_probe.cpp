// test_generic_probe.cpp: the generic driver's probe, config checks, error path,
// remove, and its check hook catching broken accounting.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "unit/drivers/generic_rig.h"

TEST(DriverTable, FindsGenericByName) {
  EXPECT_EQ(nk_driver_find("generic"), &nk_driver_generic);
  EXPECT_STREQ(nk_driver_generic.name, "generic");
  EXPECT_EQ(nk_driver_find("e1000"), nullptr);
  EXPECT_EQ(nk_driver_find(nullptr), nullptr);
}

TEST(DriverTable, ProbeRejectsAChoiceOutsideTheSchema) {
  GenericRig r;
  EXPECT_FALSE(r.start(true, [](nicsim_config &c) { c.driver.name = 99; }));
  EXPECT_NE(r.probe_err.find("not in the schema"), std::string::npos) << r.probe_err;
}

TEST(GenericProbe, ProgramsEveryRegister) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const generic_priv *p = r.priv;
  const nicsim_config &c = r.t.cfg;
  auto reg = [&](uint32_t off) { return r.t.cp.regs[off / 4]; };
  EXPECT_EQ(reg(GN_REG_DESC_SPACING), 16u);
  EXPECT_EQ(reg(GN_REG_RX_RING_LO), static_cast<uint32_t>(p->rx[0].ring_dma));
  EXPECT_EQ(reg(GN_REG_RX_RING_HI), static_cast<uint32_t>(p->rx[0].ring_dma >> 32));
  EXPECT_EQ(reg(GN_REG_RX_RING_SIZE), 64u);
  EXPECT_EQ(reg(GN_REG_RX_BUF_SIZE), static_cast<uint32_t>(c.driver.rx_buf_bytes));
  EXPECT_EQ(reg(GN_REG_TX_RING_LO), static_cast<uint32_t>(p->tx[0].ring_dma));
  EXPECT_EQ(reg(GN_REG_TX_RING_SIZE), 64u);
  EXPECT_EQ(reg(GN_REG_COAL_FRAMES), static_cast<uint32_t>(c.nic.irq_coal_frames));
  EXPECT_EQ(reg(GN_REG_COAL_USECS), static_cast<uint32_t>(c.nic.irq_coal_usecs + 0.5));
  EXPECT_EQ(reg(GN_REG_MSI_ADDR_LO), static_cast<uint32_t>(r.t.cp.plat.msi_addr));
  EXPECT_EQ(reg(GN_REG_MSI_ADDR_HI), static_cast<uint32_t>(r.t.cp.plat.msi_addr >> 32));
  EXPECT_EQ(reg(GN_REG_MSI_DATA), static_cast<uint32_t>(GENERIC_IRQ_VEC));
  EXPECT_EQ(reg(GN_REG_RX_TAIL), 63u) << "size - 1 buffers given: one slot stays empty";
  EXPECT_EQ(reg(GN_REG_TX_TAIL), 0u);
  EXPECT_EQ(reg(GN_REG_CTRL), GN_CTRL_RX_EN | GN_CTRL_TX_EN);
  EXPECT_EQ(reg(GN_REG_INT_MASK), 0u) << "interrupts unmasked last";
  EXPECT_EQ(r.t.cp.c.mmio_writes_reg[GN_REG_INT_MASK / 4], 2u) << "masked first, unmasked last";
  EXPECT_EQ(r.t.cp.c.mmio_reads, 0u);
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericProbe, FillsAllButOneRxDescriptor) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  const generic_priv *p = r.priv;
  for (uint32_t i = 0; i < 64; i++) {
    const gn_rx_desc *d = generic_rx_desc(&p->rx[0], i);
    if (i == 63) {
      EXPECT_EQ(d->flags, 0u);
      EXPECT_EQ(d->buf_addr, 0u);
      EXPECT_EQ(p->rx[0].buf[i], nullptr);
      continue;
    }
    ASSERT_NE(p->rx[0].buf[i], nullptr) << i;
    EXPECT_EQ(d->flags, GN_DESC_OWN) << i;
    EXPECT_EQ(d->buf_addr, p->rx[0].buf[i]->dma) << i;
    EXPECT_EQ(d->buf_len, 2048u) << i;
    EXPECT_EQ(d->buf_addr % 64, 0u) << "RX buffers start on a cache line";
  }
  EXPECT_EQ(page_pool_in_use(p->rx[0].pool), 63u);
  EXPECT_EQ(r.nic->rx_owned(), 63u);
}

TEST(GenericProbe, RingsAreUncachedOnANonCoherentPlatform) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  for (uint32_t i = 0; i < 64; i++) {
    EXPECT_EQ(cp_attr(&r.t.cp, r.t.pa(generic_rx_desc(&r.priv->rx[0], i))), NK_MEM_UNCACHED) << i;
    EXPECT_EQ(cp_attr(&r.t.cp, r.t.pa(generic_tx_desc(&r.priv->tx[0], i))), NK_MEM_UNCACHED) << i;
  }
  EXPECT_EQ(cp_attr(&r.t.cp, r.priv->rx[0].buf[0]->dma), NK_MEM_CACHED) << "buffers are cacheable";
}

TEST(GenericProbe, DescriptorsAreSpacedAsConfigured) {
  GenericRig r;
  ASSERT_TRUE(r.start(true, [](nicsim_config &c) { c.nic.desc_spacing = 64; })) << r.probe_err;
  EXPECT_EQ(r.t.cp.regs[GN_REG_DESC_SPACING / 4], 64u);
  EXPECT_EQ(r.priv->rx[0].ring_bytes, 64u * 64u);
  EXPECT_EQ(reinterpret_cast<uint8_t *>(generic_rx_desc(&r.priv->rx[0], 1)) - reinterpret_cast<uint8_t *>(generic_rx_desc(&r.priv->rx[0], 0)), 64);
}

TEST(GenericProbe, RejectsASpacingThatMisalignsTheBufferAddress) {
  GenericRig r;
  EXPECT_FALSE(r.start(true, [](nicsim_config &c) { c.nic.desc_spacing = 20; }));
  EXPECT_NE(r.probe_err.find("nic.desc_spacing = 20"), std::string::npos) << r.probe_err;
  EXPECT_EQ(r.t.check(), "") << "a refused probe leaves nothing behind";
}

TEST(GenericProbe, RejectsRxBuffersTooSmallForTheFrames) {
  GenericRig r;
  EXPECT_FALSE(r.start(true, [](nicsim_config &c) {
    c.traffic.mode = NC_MODE_RX;
    c.traffic.frame_bytes = 1518;
    c.driver.rx_buf_bytes = 1024;
  }));
  EXPECT_NE(r.probe_err.find("does not chain"), std::string::npos) << r.probe_err;
  GenericRig tx_only;
  EXPECT_TRUE(tx_only.start(true, [](nicsim_config &c) {
    c.traffic.mode = NC_MODE_TX;
    c.traffic.frame_bytes = 1518;
    c.driver.rx_buf_bytes = 1024;
  })) << "TX-only traffic never lands in RX buffers";
}

TEST(GenericProbe, RejectsAnRxBufferLengthThe16BitFieldCannotHold) {
  GenericRig r;
  EXPECT_FALSE(r.start(true, [](nicsim_config &c) { c.driver.rx_buf_bytes = 65536; }));
  EXPECT_NE(r.probe_err.find("16 bits"), std::string::npos) << r.probe_err;
}

TEST(GenericProbe, OutOfMemoryUnwindsCleanly) {
  GenericRig r;
  // 4 MiB holds the kernel's skb pool but not 4095 x 2 KiB RX buffers.
  EXPECT_FALSE(r.start(false, [](nicsim_config &c) {
    c.nic.rx_ring_size = 4096;
  }, 4u << 20));
  EXPECT_NE(r.probe_err.find("out of simulated memory"), std::string::npos) << r.probe_err;
  EXPECT_EQ(r.t.fault(), nullptr);
  EXPECT_EQ(r.t.check(), "") << "rings freed, nothing mapped, no IRQ, no NAPI";
}

TEST(GenericRemove, StopsTheDeviceAndFreesEverything) {
  GenericRig r;
  ASSERT_TRUE(r.start(false)) << r.probe_err;
  for (uint64_t s = 0; s < 5; s++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 300, 2, s), NETDEV_TX_OK);
  nk_kernel_remove(r.t.k);
  EXPECT_EQ(r.t.cp.regs[GN_REG_CTRL / 4], 0u);
  EXPECT_EQ(r.t.cp.regs[GN_REG_INT_MASK / 4], GN_INT_ALL);
  EXPECT_EQ(r.t.dev()->stats.tx_dropped, 5u) << "frames still on the ring at remove never reached the wire";
  EXPECT_EQ(r.t.check(), "");
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
}

TEST(GenericCheck, CatchesAMovedRefillIndex) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  EXPECT_EQ(r.t.check(), "");
  r.priv->rx[0].dirty = 10;
  EXPECT_NE(r.t.check().find("not one behind"), std::string::npos) << r.t.check();
  r.priv->rx[0].dirty = 63;
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericCheck, CatchesADescriptorPointingAtTheWrongBuffer) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  gn_rx_desc *d = generic_rx_desc(&r.priv->rx[0], 5);
  uint64_t saved = d->buf_addr;
  d->buf_addr = saved + 64;
  EXPECT_NE(r.t.check().find("RX descriptor 5 points at"), std::string::npos) << r.t.check();
  d->buf_addr = saved;
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericCheck, CatchesAnSkbNotOnTheRing) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  sk_buff *stray = netdev_alloc_skb(r.t.dev(), 100);
  EXPECT_NE(r.t.check().find("1 skbs allocated but 0 frames"), std::string::npos) << r.t.check();
  dev_kfree_skb_any(stray);
  EXPECT_EQ(r.t.check(), "");
}

TEST(GenericCheck, CatchesAMissedWake) {
  GenericRig r;
  ASSERT_TRUE(r.start(true)) << r.probe_err;
  netif_stop_queue(r.t.dev());  // stopped with an empty ring: nothing would ever wake it
  EXPECT_NE(r.t.check().find("missed wake"), std::string::npos) << r.t.check();
  netif_wake_queue(r.t.dev());
}
