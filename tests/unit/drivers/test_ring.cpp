// test_ring.cpp: ring index arithmetic (src/drivers/ring.h) and the generic
// NIC's descriptor layout against the offsets the DMA model uses.
#include <gtest/gtest.h>

#include <cstddef>

#include "drivers/ring.h"
#include "hw/generic_nic_regs.h"

TEST(Ring, NextAndPrevWrap) {
  EXPECT_EQ(nk_ring_next(0, 8), 1u);
  EXPECT_EQ(nk_ring_next(7, 8), 0u);
  EXPECT_EQ(nk_ring_prev(0, 8), 7u);
  EXPECT_EQ(nk_ring_prev(5, 8), 4u);
  EXPECT_EQ(nk_ring_next(9, 10), 0u) << "sizes need not be powers of two";
}

TEST(Ring, EmptyFullAndSizeMinusOneUsable) {
  const uint32_t size = 10;
  EXPECT_EQ(nk_ring_used(3, 3, size), 0u);
  EXPECT_EQ(nk_ring_space(3, 3, size), size - 1);
  // Fill from cons = 7 until no space: exactly size - 1 entries fit.
  uint32_t prod = 7, n = 0;
  while (nk_ring_space(prod, 7, size) > 0) {
    prod = nk_ring_next(prod, size);
    n++;
  }
  EXPECT_EQ(n, size - 1);
  EXPECT_EQ(prod, nk_ring_prev(7, size)) << "full: the producer is one behind the consumer";
  EXPECT_EQ(nk_ring_used(prod, 7, size), size - 1);
}

TEST(Ring, UsedAcrossTheWrap) {
  EXPECT_EQ(nk_ring_used(2, 8, 10), 4u);  // 8, 9, 0, 1
  EXPECT_EQ(nk_ring_space(2, 8, 10), 5u);
  EXPECT_EQ(nk_ring_used(8, 2, 10), 6u);
}

TEST(Ring, InFlightMembership) {
  // [8, 2) in a ring of 10: 8, 9, 0, 1.
  for (uint32_t i = 0; i < 10; i++) {
    bool want = i == 8 || i == 9 || i == 0 || i == 1;
    EXPECT_EQ(nk_ring_in_flight(i, 2, 8, 10) != 0, want) << i;
  }
  for (uint32_t i = 0; i < 10; i++) EXPECT_FALSE(nk_ring_in_flight(i, 4, 4, 10)) << "empty ring, " << i;
}

TEST(GenericLayout, DescriptorOffsetsMatchTheSharedConstants) {
  EXPECT_EQ(sizeof(gn_rx_desc), GN_DESC_SIZE);
  EXPECT_EQ(sizeof(gn_tx_desc), GN_DESC_SIZE);
  EXPECT_EQ(offsetof(gn_rx_desc, buf_addr), 0u);
  EXPECT_EQ(offsetof(gn_rx_desc, buf_len), 8u);
  EXPECT_EQ(offsetof(gn_rx_desc, pkt_len), 10u);
  EXPECT_EQ(offsetof(gn_rx_desc, flags), GN_OFF_RX_FLAGS);
  EXPECT_EQ(offsetof(gn_tx_desc, buf_addr), 0u);
  EXPECT_EQ(offsetof(gn_tx_desc, len), 8u);
  EXPECT_EQ(offsetof(gn_tx_desc, flags), GN_OFF_TX_FLAGS);
}

TEST(GenericLayout, RegistersAreDistinctAlignedAndInsideTheBar) {
  const uint32_t regs[] = {GN_REG_CTRL,        GN_REG_INT_STATUS,  GN_REG_INT_MASK,    GN_REG_DESC_SPACING,
                           GN_REG_RX_RING_LO,  GN_REG_RX_RING_HI,  GN_REG_RX_RING_SIZE, GN_REG_RX_TAIL,
                           GN_REG_RX_HEAD,     GN_REG_RX_BUF_SIZE, GN_REG_TX_RING_LO,  GN_REG_TX_RING_HI,
                           GN_REG_TX_RING_SIZE, GN_REG_TX_TAIL,    GN_REG_TX_HEAD,     GN_REG_COAL_FRAMES,
                           GN_REG_COAL_USECS,  GN_REG_MSI_ADDR_LO, GN_REG_MSI_ADDR_HI, GN_REG_MSI_DATA};
  const size_t n = sizeof regs / sizeof regs[0];
  for (size_t i = 0; i < n; i++) {
    EXPECT_EQ(regs[i] % 4, 0u);
    EXPECT_LT(regs[i], GN_BAR0_SIZE);
    for (size_t j = i + 1; j < n; j++) EXPECT_NE(regs[i], regs[j]) << i << " " << j;
  }
}
