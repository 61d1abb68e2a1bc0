// test_mem.cpp: the kernel layer's allocator over simulated memory, seen
// through dma_alloc_coherent, and nk_kernel_create's error paths.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "unit/kernel/test_support.h"

TEST(KernelMem, CoherentAllocIsPageAlignedZeroedAndNeverAtZero) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  dma_addr_t h1 = 0, h2 = 0;
  auto *a = static_cast<uint8_t *>(dma_alloc_coherent(t.dev(), 100, &h1));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(h1 % 4096, 0u);
  EXPECT_GE(h1, 4096u) << "page 0 stays unused so that DMA address 0 is never valid";
  EXPECT_EQ(t.pa(a), h1);
  // cp_init filled memory with 0xA5: every byte of the (page-rounded) allocation must be zero.
  for (int i = 0; i < 4096; i++) ASSERT_EQ(a[i], 0) << "byte " << i;
  auto *b = static_cast<uint8_t *>(dma_alloc_coherent(t.dev(), 5000, &h2));
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(h2 % 4096, 0u);
  EXPECT_TRUE(h2 >= h1 + 4096 || h2 + 8192 <= h1) << "allocations overlap";
  for (int i = 0; i < 8192; i++) ASSERT_EQ(b[i], 0) << "byte " << i;
  dma_free_coherent(t.dev(), 5000, b, h2);
  dma_free_coherent(t.dev(), 100, a, h1);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(t.check(), "");
}

TEST(KernelMem, FreedRangesAreReusedCoalescedAndReturnedToTheTop) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  dma_addr_t ha, hb, hc, hd, he, hf;
  void *a = dma_alloc_coherent(t.dev(), 4096, &ha);
  void *b = dma_alloc_coherent(t.dev(), 4096, &hb);
  void *c = dma_alloc_coherent(t.dev(), 4096, &hc);
  ASSERT_TRUE(a && b && c);
  ASSERT_EQ(hb, ha + 4096);
  ASSERT_EQ(hc, hb + 4096);
  dma_free_coherent(t.dev(), 4096, b, hb);
  void *d = dma_alloc_coherent(t.dev(), 4096, &hd);
  EXPECT_EQ(hd, hb) << "first fit reuses the hole";
  dma_free_coherent(t.dev(), 4096, a, ha);
  dma_free_coherent(t.dev(), 4096, d, hd);
  void *e = dma_alloc_coherent(t.dev(), 8192, &he);
  EXPECT_EQ(he, ha) << "the two freed neighbours coalesced into one 8 KiB range";
  dma_free_coherent(t.dev(), 8192, e, he);
  dma_free_coherent(t.dev(), 4096, c, hc);
  void *f = dma_alloc_coherent(t.dev(), 3 * 4096, &hf);
  EXPECT_EQ(hf, ha) << "everything freed: the bump pointer is back where a started";
  dma_free_coherent(t.dev(), 3 * 4096, f, hf);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(t.check(), "");
}

TEST(KernelMem, ExhaustionFailsCleanlyWithAMessage) {
  TestKernel t;
  ASSERT_TRUE(t.create(true, 4u << 20)) << t.err;
  dma_addr_t h = 1;
  EXPECT_EQ(dma_alloc_coherent(t.dev(), 8u << 20, &h), nullptr);
  EXPECT_EQ(h, DMA_MAPPING_ERROR);
  EXPECT_NE(std::string(nk_kernel_last_error(t.k)).find("out of simulated memory"), std::string::npos)
      << nk_kernel_last_error(t.k);
  EXPECT_EQ(t.fault(), nullptr) << "running out of memory is not a driver bug";
  // Fill what is left with 64 KiB blocks, then give it all back.
  std::vector<std::pair<void *, dma_addr_t>> blocks;
  for (;;) {
    dma_addr_t hh;
    void *p = dma_alloc_coherent(t.dev(), 65536, &hh);
    if (!p) break;
    blocks.emplace_back(p, hh);
  }
  EXPECT_GT(blocks.size(), 10u);
  EXPECT_LT(blocks.size(), 64u);
  for (auto &bl : blocks) dma_free_coherent(t.dev(), 65536, bl.first, bl.second);
  dma_addr_t h2;
  void *again = dma_alloc_coherent(t.dev(), 65536 * blocks.size(), &h2);
  EXPECT_NE(again, nullptr) << "freed blocks coalesce back into one range";
  dma_free_coherent(t.dev(), 65536 * blocks.size(), again, h2);
  EXPECT_EQ(t.check(), "");
}

TEST(KernelMem, FreeOfAnUnknownAddressIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  dma_addr_t h;
  void *a = dma_alloc_coherent(t.dev(), 4096, &h);
  ASSERT_NE(a, nullptr);
  dma_free_coherent(t.dev(), 4096, a, h);
  EXPECT_EQ(t.fault(), nullptr);
  dma_free_coherent(t.dev(), 4096, a, h);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("not mapped"), std::string::npos) << t.fault();
  EXPECT_NE(t.check().find("driver bug"), std::string::npos);
}

TEST(KernelCreate, FailsWhenMemoryCannotHoldTheSkbPool) {
  TestKernel t;
  t.cfg.nic.tx_ring_size = 4096;
  EXPECT_FALSE(t.create(true, 1u << 20));
  EXPECT_NE(t.err.find("skb pool"), std::string::npos) << t.err;
  EXPECT_NE(t.err.find("memory.size_mb"), std::string::npos) << t.err;
}

TEST(KernelCreate, RejectsACacheLineThatIsNotAPowerOfTwo) {
  TestKernel t;
  t.cfg.cpu.cache_line_bytes = 48;
  EXPECT_FALSE(t.create(true));
  EXPECT_NE(t.err.find("cache_line_bytes"), std::string::npos) << t.err;
}

TEST(KernelCreate, RejectsAPlatformWithAMissingOp) {
  counting_platform cp{};
  ASSERT_EQ(cp_init(&cp, 4u << 20, true, 64), 0);
  cp.ops.copy = nullptr;
  nicsim_config cfg = test_config();
  char err[256] = "";
  EXPECT_EQ(nk_kernel_create(&cp.plat, &cfg, nullptr, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("platform op"), std::string::npos) << err;
  cp_fini(&cp);
}

TEST(KernelCreate, SkbPoolIsSizedForTheTxRingPlusTwoBudgets) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  // tx_ring_size 64 + 2 * napi_budget 16 + 64 slack = 160 skbs.
  std::vector<sk_buff *> skbs;
  while (sk_buff *s = netdev_alloc_skb(t.dev(), 100)) skbs.push_back(s);
  EXPECT_EQ(skbs.size(), 160u);
  EXPECT_EQ(nk_kernel_skbs_in_use(t.k), 160u);
  EXPECT_EQ(nk_kernel_get_stats(t.k)->skb_alloc_fail, 1u);
  for (sk_buff *s : skbs) dev_kfree_skb_any(s);
  EXPECT_EQ(nk_kernel_skbs_in_use(t.k), 0u);
  EXPECT_EQ(t.fault(), nullptr);
}
