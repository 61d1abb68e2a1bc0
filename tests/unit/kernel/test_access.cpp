// test_access.cpp: CPU loads/stores, memcpy, MMIO and barriers reach the platform
// correctly, and bad pointers are caught as driver bugs rather than crashes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "hw/generic_nic_regs.h"
#include "unit/kernel/test_support.h"

TEST(KernelAccess, LoadsAndStoresAreCountedByTheMemoryAttribute) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  dma_addr_t h;
  auto *ring = static_cast<uint8_t *>(dma_alloc_coherent(t.dev(), 4096, &h));
  sk_buff *skb = netdev_alloc_skb(t.dev(), 64);
  ASSERT_TRUE(ring && skb);
  cp_reset_counts(&t.cp);
  nk_st32(ring + 8, 0xdeadbeef);
  EXPECT_EQ(nk_ld32(ring + 8), 0xdeadbeefu);
  nk_st64(ring + 16, 0x0102030405060708ull);
  EXPECT_EQ(nk_ld64(ring + 16), 0x0102030405060708ull);
  EXPECT_EQ(nk_ld16(ring + 16), 0x0708u);
  EXPECT_EQ(nk_ld8(ring + 23), 0x01u);
  EXPECT_EQ(t.cp.c.stores[NK_MEM_UNCACHED], 2u);
  EXPECT_EQ(t.cp.c.loads[NK_MEM_UNCACHED], 4u);
  nk_st16(skb->data, 0x1234);
  nk_st8(skb->data + 2, 0x56);
  EXPECT_EQ(nk_ld16(skb->data), 0x1234u);
  EXPECT_EQ(t.cp.c.stores[NK_MEM_CACHED], 2u);
  EXPECT_EQ(t.cp.c.loads[NK_MEM_CACHED], 1u);
  EXPECT_EQ(t.fault(), nullptr);
  dev_kfree_skb_any(skb);
  dma_free_coherent(t.dev(), 4096, ring, h);
}

TEST(KernelAccess, LoadOutsideSimulatedMemoryIsAFaultNotACrash) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  uint32_t host_variable = 7;
  cp_reset_counts(&t.cp);
  EXPECT_EQ(nk_ld32(&host_variable), 0u);
  nk_st32(&host_variable, 9);
  EXPECT_EQ(host_variable, 7u) << "a store outside simulated memory must not happen";
  EXPECT_EQ(t.cp.c.loads[NK_MEM_CACHED] + t.cp.c.stores[NK_MEM_CACHED], 0u);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("outside simulated memory"), std::string::npos) << t.fault();
  EXPECT_NE(t.check().find("and 1 more"), std::string::npos) << "the second fault is counted";
}

TEST(KernelAccess, AccessToThePageAtAddressZeroIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  (void)nk_ld16(t.cp.mem + 12);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("first page"), std::string::npos) << t.fault();
}

TEST(KernelAccess, AStraddlingAccessAtTheEndOfMemoryIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  (void)nk_ld64(t.cp.mem + t.cp.mem_size - 4);
  ASSERT_NE(t.fault(), nullptr);
}

TEST(KernelAccess, FaultNamesTheProfiledFunction) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  struct Local {
    static void buggy_driver_fn() {
      NK_PROFILE_FUNC(NK_CLASS_RX);
      (void)nk_ld32(reinterpret_cast<void *>(16));
    }
  };
  Local::buggy_driver_fn();
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("(in buggy_driver_fn)"), std::string::npos) << t.fault();
}

TEST(KernelAccess, MemcpyGoesThroughThePlatformAndIsClassifiedByAlignment) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  sk_buff *a = netdev_alloc_skb(t.dev(), 1000);
  sk_buff *b = netdev_alloc_skb(t.dev(), 1000);
  ASSERT_TRUE(a && b);
  for (int i = 0; i < 100; i++) a->head[i] = static_cast<uint8_t>(i);
  cp_reset_counts(&t.cp);
  nk_memcpy(b->head, a->head, 100);        // both line aligned: (dst ^ src) % 8 == 0
  nk_memcpy(b->data, a->head, 100);        // data is head + 66: (dst ^ src) % 8 == 2
  EXPECT_EQ(t.cp.c.copies, 2u);
  EXPECT_EQ(t.cp.c.copy_bytes, 200u);
  EXPECT_EQ(t.cp.c.copies_aligned, 1u);
  EXPECT_EQ(t.cp.c.copies_misaligned, 1u);
  EXPECT_EQ(std::memcmp(b->data, a->head, 100), 0);
  EXPECT_EQ(t.fault(), nullptr);
  nk_memcpy(a->head + 10, a->head, 20);  // overlapping: memcpy's undefined case
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("overlapping"), std::string::npos) << t.fault();
  dev_kfree_skb_any(a);
  dev_kfree_skb_any(b);
}

TEST(KernelAccess, VirtToPhysRoundTrips) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  EXPECT_EQ(nk_virt_to_phys(t.cp.mem + 12345), 12345u);
  EXPECT_EQ(nk_phys_to_virt(12345), t.cp.mem + 12345);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(nk_phys_to_virt(t.cp.mem_size), nullptr);
  EXPECT_NE(t.fault(), nullptr);
}

TEST(KernelAccess, MmioReachesTheRegisterAtItsOffset) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  auto *io = static_cast<uint8_t *>(nk_ioremap(t.dev()));
  cp_reset_counts(&t.cp);
  writel(0x1234, io + GN_REG_RX_RING_SIZE);
  EXPECT_EQ(t.cp.regs[GN_REG_RX_RING_SIZE / 4], 0x1234u);
  EXPECT_EQ(t.cp.c.mmio_writes_reg[GN_REG_RX_RING_SIZE / 4], 1u);
  t.cp.regs[GN_REG_RX_HEAD / 4] = 77;
  EXPECT_EQ(readl(io + GN_REG_RX_HEAD), 77u);
  EXPECT_EQ(t.cp.c.mmio_reads, 1u);
  EXPECT_EQ(t.cp.c.mmio_writes, 1u);
  writel(1, io + GN_BAR0_SIZE - 4);  // last register: fine
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelAccess, MmioOutsideTheBarIsAFaultAndReadsAllOnes) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  auto *io = static_cast<uint8_t *>(nk_ioremap(t.dev()));
  cp_reset_counts(&t.cp);
  EXPECT_EQ(readl(io + GN_BAR0_SIZE), 0xffffffffu);
  EXPECT_EQ(t.cp.c.mmio_reads, 0u);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("BAR0"), std::string::npos) << t.fault();
}

TEST(KernelAccess, MisalignedRegisterOffsetIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  auto *io = static_cast<uint8_t *>(nk_ioremap(t.dev()));
  writel(1, io + 2);
  EXPECT_NE(t.fault(), nullptr);
  EXPECT_EQ(t.cp.c.mmio_writes, 0u);
}

TEST(KernelAccess, EachBarrierReachesThePlatformAsItsKind) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  cp_reset_counts(&t.cp);
  mb();
  rmb();
  rmb();
  wmb();
  wmb();
  wmb();
  dma_rmb();
  dma_wmb();
  dma_wmb();
  EXPECT_EQ(t.cp.c.barriers[NK_BARRIER_MB], 1u);
  EXPECT_EQ(t.cp.c.barriers[NK_BARRIER_RMB], 2u);
  EXPECT_EQ(t.cp.c.barriers[NK_BARRIER_WMB], 3u);
  EXPECT_EQ(t.cp.c.barriers[NK_BARRIER_DMA_RMB], 1u);
  EXPECT_EQ(t.cp.c.barriers[NK_BARRIER_DMA_WMB], 2u);
}
