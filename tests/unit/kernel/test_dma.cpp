// test_dma.cpp: the DMA API: uncached coherent memory, cache maintenance per
// direction and line, the attrs hook for the device, dma-debug checks, page pool,
// write-combining allocations and the IOMMU map/unmap calls.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "unit/kernel/test_support.h"

namespace {

// A cacheable, line-aligned buffer in simulated memory (an skb's head).
struct Buf {
  TestKernel &t;
  sk_buff *skb;
  explicit Buf(TestKernel &tk) : t(tk), skb(netdev_alloc_skb(tk.dev(), 1514)) {}
  ~Buf() { dev_kfree_skb_any(skb); }
  uint8_t *at(size_t off) const { return skb->head + off; }
};

uint64_t lines(const counting_platform &cp, nk_cache_op op) { return cp.c.cache_lines[op]; }
uint64_t all_lines(const counting_platform &cp) {
  return cp.c.cache_lines[NK_CACHE_CLEAN] + cp.c.cache_lines[NK_CACHE_INVALIDATE] + cp.c.cache_lines[NK_CACHE_CLEAN_INV];
}

}  // namespace

TEST(KernelDma, CoherentMemoryIsUncachedOnANonCoherentPlatform) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  cp_reset_counts(&t.cp);
  dma_addr_t h;
  void *ring = dma_alloc_coherent(t.dev(), 8192, &h);
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(t.cp.c.set_attr_calls[NK_MEM_UNCACHED], 1u);
  for (uint64_t pa = h; pa < h + 8192; pa += 64) ASSERT_EQ(cp_attr(&t.cp, pa), NK_MEM_UNCACHED) << pa;
  EXPECT_EQ(cp_attr(&t.cp, h + 8192), NK_MEM_CACHED);
  dma_free_coherent(t.dev(), 8192, ring, h);
  EXPECT_EQ(t.cp.c.set_attr_calls[NK_MEM_CACHED], 1u);
  EXPECT_EQ(cp_attr(&t.cp, h), NK_MEM_CACHED) << "freed memory is cacheable again";
  EXPECT_EQ(t.check(), "");
}

TEST(KernelDma, CoherentMemoryStaysCachedOnACoherentPlatform) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  cp_reset_counts(&t.cp);
  dma_addr_t h;
  void *ring = dma_alloc_coherent(t.dev(), 8192, &h);
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(t.cp.c.set_attr_calls[NK_MEM_UNCACHED], 0u);
  EXPECT_EQ(cp_attr(&t.cp, h), NK_MEM_CACHED);
  dma_free_coherent(t.dev(), 8192, ring, h);
}

// Cache maintenance per call, on a non-coherent platform: which op, how many lines.
TEST(KernelDma, MapSyncAndUnmapMaintainTheCoveredLinesByDirection) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  Buf b(t);
  ASSERT_NE(b.skb, nullptr);
  net_device *dev = t.dev();
  // [head+64, head+164): lines 1 and 2 of the buffer -> 2 lines.
  cp_reset_counts(&t.cp);
  dma_addr_t d = dma_map_single(dev, b.at(64), 100, DMA_TO_DEVICE);
  EXPECT_EQ(d, t.pa(b.at(64)));
  EXPECT_EQ(t.cp.c.cache_calls[NK_CACHE_CLEAN], 1u);
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN), 2u) << "map TO_DEVICE cleans";
  dma_sync_single_for_cpu(dev, d, 100, DMA_TO_DEVICE);
  EXPECT_EQ(all_lines(t.cp), 2u) << "for_cpu after TO_DEVICE: nothing to drop";
  dma_sync_single_for_device(dev, d, 100, DMA_TO_DEVICE);
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN), 4u);
  dma_unmap_single(dev, d, 100, DMA_TO_DEVICE);
  EXPECT_EQ(all_lines(t.cp), 4u) << "unmap TO_DEVICE: nothing";

  // [head+60, head+68) straddles a line boundary -> 2 lines.
  cp_reset_counts(&t.cp);
  d = dma_map_single(dev, b.at(60), 8, DMA_FROM_DEVICE);
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 2u) << "map FROM_DEVICE invalidates";
  dma_sync_single_for_cpu(dev, d, 8, DMA_FROM_DEVICE);
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 4u);
  dma_sync_single_for_device(dev, d, 8, DMA_FROM_DEVICE);
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 6u);
  dma_unmap_single(dev, d, 8, DMA_FROM_DEVICE);
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 8u) << "unmap FROM_DEVICE syncs for the CPU";
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN) + lines(t.cp, NK_CACHE_CLEAN_INV), 0u);

  // 1514 bytes at head+66 (an RX frame in an skb): lines 1..24 -> 24 lines.
  cp_reset_counts(&t.cp);
  d = dma_map_single(dev, b.at(66), 1514, DMA_BIDIRECTIONAL);
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN_INV), 24u);
  dma_sync_single_for_cpu(dev, d, 1514, DMA_BIDIRECTIONAL);
  dma_sync_single_for_device(dev, d, 1514, DMA_BIDIRECTIONAL);
  dma_unmap_single(dev, d, 1514, DMA_BIDIRECTIONAL);
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN_INV), 4 * 24u);
  EXPECT_EQ(t.cp.c.cache_calls[NK_CACHE_CLEAN_INV], 4u);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelDma, PartialSyncCoversOnlyItsLines) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 1536, DMA_FROM_DEVICE);
  cp_reset_counts(&t.cp);
  dma_sync_single_for_cpu(t.dev(), d, 60, DMA_FROM_DEVICE);  // a 60-byte frame: 1 line
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 1u);
  dma_sync_single_for_cpu(t.dev(), d + 128, 64, DMA_FROM_DEVICE);  // one whole line inside
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 2u);
  dma_unmap_single(t.dev(), d, 1536, DMA_FROM_DEVICE);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelDma, SkipCpuSyncSkipsMapAndUnmapButNotExplicitSyncs) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  Buf b(t);
  cp_reset_counts(&t.cp);
  dma_addr_t d = dma_map_single_attrs(t.dev(), b.at(0), 1024, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
  EXPECT_EQ(all_lines(t.cp), 0u);
  dma_sync_single_for_cpu(t.dev(), d, 1024, DMA_FROM_DEVICE);
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 16u);
  dma_unmap_single_attrs(t.dev(), d, 1024, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
  EXPECT_EQ(all_lines(t.cp), 16u);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelDma, NothingIsMaintainedOnACoherentPlatform) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  cp_reset_counts(&t.cp);
  for (auto dir : {DMA_TO_DEVICE, DMA_FROM_DEVICE, DMA_BIDIRECTIONAL}) {
    dma_addr_t d = dma_map_single(t.dev(), b.at(66), 1514, dir);
    dma_sync_single_for_cpu(t.dev(), d, 1514, dir);
    dma_sync_single_for_device(t.dev(), d, 1514, dir);
    dma_unmap_single(t.dev(), d, 1514, dir);
  }
  EXPECT_EQ(t.cp.c.cache_calls[0] + t.cp.c.cache_calls[1] + t.cp.c.cache_calls[2], 0u);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelDma, MappingAttrsAreVisibleToTheDeviceModelWhileMapped) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single_attrs(t.dev(), b.at(66), 1514, DMA_FROM_DEVICE, DMA_ATTR_WEAK_ORDERING);
  ASSERT_FALSE(dma_mapping_error(t.dev(), d));
  EXPECT_EQ(nk_dma_attrs(t.k, d), DMA_ATTR_WEAK_ORDERING);
  EXPECT_EQ(nk_dma_attrs(t.k, d + 1513), DMA_ATTR_WEAK_ORDERING);
  EXPECT_EQ(nk_dma_attrs(t.k, d + 1514), 0u) << "one past the mapping";
  EXPECT_EQ(nk_dma_attrs(t.k, d - 1), 0u) << "same cache line, outside the mapping";
  nk_dma_mapping m{};
  ASSERT_TRUE(nk_dma_lookup(t.k, d + 700, &m));
  EXPECT_EQ(m.pa, d);
  EXPECT_EQ(m.len, 1514u);
  EXPECT_EQ(m.dir, DMA_FROM_DEVICE);
  EXPECT_FALSE(m.coherent);
  dma_unmap_single_attrs(t.dev(), d, 1514, DMA_FROM_DEVICE, DMA_ATTR_WEAK_ORDERING);
  EXPECT_EQ(nk_dma_attrs(t.k, d), 0u);
  EXPECT_FALSE(nk_dma_lookup(t.k, d, &m));
  EXPECT_FALSE(nk_dma_lookup(t.k, t.cp.mem_size + 100, &m));

  dma_addr_t h;
  void *ring = dma_alloc_coherent(t.dev(), 100, &h);
  ASSERT_TRUE(nk_dma_lookup(t.k, h + 4000, &m)) << "the whole page-rounded region is device-visible";
  EXPECT_TRUE(m.coherent);
  EXPECT_EQ(m.attrs, 0u);
  dma_free_coherent(t.dev(), 100, ring, h);
  EXPECT_EQ(t.fault(), nullptr);
}

TEST(KernelDma, DoubleUnmapIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 256, DMA_TO_DEVICE);
  dma_unmap_single(t.dev(), d, 256, DMA_TO_DEVICE);
  EXPECT_EQ(t.fault(), nullptr);
  dma_unmap_single(t.dev(), d, 256, DMA_TO_DEVICE);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("not mapped"), std::string::npos) << t.fault();
}

TEST(KernelDma, UnmapWithAnotherSizeIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 256, DMA_TO_DEVICE);
  dma_unmap_single(t.dev(), d, 128, DMA_TO_DEVICE);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("does not match"), std::string::npos) << t.fault();
  EXPECT_TRUE(nk_dma_lookup(t.k, d, nullptr)) << "the mapping stays live";
}

TEST(KernelDma, SyncInTheWrongDirectionIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 256, DMA_FROM_DEVICE);
  cp_reset_counts(&t.cp);
  dma_sync_single_for_cpu(t.dev(), d, 256, DMA_TO_DEVICE);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("direction"), std::string::npos) << t.fault();
  EXPECT_EQ(all_lines(t.cp), 0u);
}

TEST(KernelDma, SyncPastTheEndOfTheMappingIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 256, DMA_FROM_DEVICE);
  dma_sync_single_for_cpu(t.dev(), d + 200, 100, DMA_FROM_DEVICE);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("past the end"), std::string::npos) << t.fault();
}

TEST(KernelDma, TwoMappingsSharingACacheLineIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  dma_addr_t d1 = dma_map_single(t.dev(), b.at(0), 100, DMA_FROM_DEVICE);
  EXPECT_FALSE(dma_mapping_error(t.dev(), d1));
  dma_addr_t d2 = dma_map_single(t.dev(), b.at(100), 100, DMA_TO_DEVICE);  // line 1 is shared
  EXPECT_TRUE(dma_mapping_error(t.dev(), d2));
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("share"), std::string::npos) << t.fault();
  EXPECT_EQ(nk_kernel_get_stats(t.k)->dma_map_fail, 1u);
}

// A DMA_TO_DEVICE mapping inside a live DMA_FROM_DEVICE one (i40e's XDP_TX
// maps the frame inside its RX page), as dma-debug allows: the device may
// read through it and nowhere else in the parent; it is unmapped as mapped;
// the parent cannot go first.
TEST(KernelDma, AToDeviceMappingInsideAnRxMappingIsAnAlias) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  Buf b(t);
  cp_reset_counts(&t.cp);
  const dma_addr_t rx = dma_map_single(t.dev(), b.at(0), 1024, DMA_FROM_DEVICE);
  const dma_addr_t tx = dma_map_single(t.dev(), b.at(66), 128, DMA_TO_DEVICE);
  ASSERT_FALSE(dma_mapping_error(t.dev(), tx)) << (t.fault() ? t.fault() : "");
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(tx, rx + 66);
  // The alias's map cleans its own lines: [66, 194) = lines 1..3.
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN), 3u);
  char why[256];
  EXPECT_TRUE(nk_dma_device_may_access(t.k, tx, 128, false, why, sizeof why)) << why;
  EXPECT_FALSE(nk_dma_device_may_access(t.k, rx + 512, 64, false, why, sizeof why)) << "outside the alias";
  EXPECT_FALSE(nk_dma_device_may_access(t.k, tx, 256, false, why, sizeof why)) << "past the alias's end";
  EXPECT_TRUE(nk_dma_device_may_access(t.k, rx + 512, 64, true, why, sizeof why)) << why;
  // A second alias elsewhere in the parent, left live: unmapping the parent
  // while it is live is a fault (below).
  const dma_addr_t tx2 = dma_map_single(t.dev(), b.at(512), 64, DMA_TO_DEVICE);
  EXPECT_FALSE(dma_mapping_error(t.dev(), tx2));
  dma_unmap_single(t.dev(), tx, 128, DMA_TO_DEVICE);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_FALSE(nk_dma_device_may_access(t.k, tx, 128, false, why, sizeof why)) << "the alias is gone";
  dma_unmap_single(t.dev(), rx, 1024, DMA_FROM_DEVICE);
  ASSERT_NE(t.fault(), nullptr) << "the parent unmapped while an alias is live";
  EXPECT_NE(std::string(t.fault()).find("inside it is live"), std::string::npos) << t.fault();
}

TEST(KernelDma, AnAliasEndsBeforeItsParent) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  const dma_addr_t rx = dma_map_single(t.dev(), b.at(0), 1024, DMA_FROM_DEVICE);
  const dma_addr_t tx = dma_map_single(t.dev(), b.at(66), 128, DMA_TO_DEVICE);
  dma_unmap_single(t.dev(), tx, 128, DMA_TO_DEVICE);
  dma_unmap_single(t.dev(), rx, 1024, DMA_FROM_DEVICE);
  EXPECT_EQ(t.fault(), nullptr) << t.fault();
  dev_kfree_skb_any(b.skb);  // so that only a live mapping could be a leak
  b.skb = nullptr;
  EXPECT_EQ(t.check(), "") << "no mapping record left live";
}

TEST(KernelDma, MappingAHostPointerFails) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  char host[64];
  dma_addr_t d = dma_map_single(t.dev(), host, sizeof host, DMA_TO_DEVICE);
  EXPECT_TRUE(dma_mapping_error(t.dev(), d));
  EXPECT_NE(t.fault(), nullptr);
}

TEST(KernelDma, ALiveMappingIsALeakOnceNoDriverIsBound) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 256, DMA_TO_DEVICE);
  dev_kfree_skb_any(b.skb);  // so that the live mapping is the only leak
  b.skb = nullptr;
  std::string msg = t.check();
  EXPECT_NE(msg.find("DMA mapping(s) still live"), std::string::npos) << msg;
  dma_unmap_single(t.dev(), d, 256, DMA_TO_DEVICE);
}

TEST(KernelPagePool, BuffersAreMappedAlignedAndRecycledInO1) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  cp_reset_counts(&t.cp);
  page_pool *pool = page_pool_create_attrs(t.dev(), 8, 2000, DMA_FROM_DEVICE, DMA_ATTR_WEAK_ORDERING);
  ASSERT_NE(pool, nullptr);
  // Each buffer mapped FROM_DEVICE once: 2000 bytes from a line boundary -> 32 lines.
  EXPECT_EQ(t.cp.c.cache_lines[NK_CACHE_INVALIDATE], 8 * 32u);
  nk_page *pages[8];
  for (auto &p : pages) {
    p = page_pool_dev_alloc_pages(pool);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->dma % 64, 0u);
    EXPECT_EQ(p->dma, t.pa(p->addr));
    EXPECT_EQ(nk_dma_attrs(t.k, p->dma + 1999), DMA_ATTR_WEAK_ORDERING);
  }
  EXPECT_EQ(page_pool_dev_alloc_pages(pool), nullptr);
  EXPECT_EQ(page_pool_in_use(pool), 8u);
  page_pool_recycle_direct(pool, pages[3]);
  EXPECT_EQ(page_pool_dev_alloc_pages(pool), pages[3]) << "LIFO recycling";
  for (auto *p : pages) page_pool_recycle_direct(pool, p);
  EXPECT_EQ(page_pool_in_use(pool), 0u);
  page_pool_destroy(pool);
  EXPECT_EQ(t.fault(), nullptr);
  EXPECT_EQ(t.check(), "");
}

TEST(KernelPagePool, DestroyWithBuffersOutIsAFaultAndALeak) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  page_pool *pool = page_pool_create(t.dev(), 4, 2048, DMA_FROM_DEVICE);
  ASSERT_NE(pool, nullptr);
  ASSERT_NE(page_pool_dev_alloc_pages(pool), nullptr);
  std::string leak = t.check();
  EXPECT_NE(leak.find("page pool"), std::string::npos) << leak;
  page_pool_destroy(pool);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_NE(std::string(t.fault()).find("never returned"), std::string::npos) << t.fault();
}

TEST(KernelPagePool, RecyclingTwiceIsAFault) {
  TestKernel t;
  ASSERT_TRUE(t.create(true)) << t.err;
  page_pool *pool = page_pool_create(t.dev(), 4, 2048, DMA_FROM_DEVICE);
  nk_page *p = page_pool_dev_alloc_pages(pool);
  page_pool_recycle_direct(pool, p);
  EXPECT_EQ(t.fault(), nullptr);
  page_pool_recycle_direct(pool, p);
  ASSERT_NE(t.fault(), nullptr);
  EXPECT_EQ(page_pool_in_use(pool), 0u);
  page_pool_destroy(pool);
}

TEST(KernelDma, ABidirectionalMappingMaySyncInEitherDirection) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  Buf b(t);
  dma_addr_t d = dma_map_single(t.dev(), b.at(0), 128, DMA_BIDIRECTIONAL);
  cp_reset_counts(&t.cp);
  dma_sync_single_for_cpu(t.dev(), d, 128, DMA_FROM_DEVICE);
  dma_sync_single_for_device(t.dev(), d, 128, DMA_TO_DEVICE);
  EXPECT_EQ(t.fault(), nullptr) << "dma-debug accepts either direction on a bidirectional mapping";
  EXPECT_EQ(lines(t.cp, NK_CACHE_INVALIDATE), 2u);  // the sync's own direction decides the op
  EXPECT_EQ(lines(t.cp, NK_CACHE_CLEAN), 2u);
  dma_unmap_single(t.dev(), d, 128, DMA_BIDIRECTIONAL);
  EXPECT_EQ(t.fault(), nullptr);
}

// The IOMMU-style check the simulation applies to every device access.
TEST(KernelDma, DeviceMayAccessOnlyLiveMappingsInTheirDirection) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  char why[256];
  dma_addr_t ring_pa;
  void *ring = dma_alloc_coherent(t.dev(), 4096, &ring_pa);
  ASSERT_NE(ring, nullptr);
  // Coherent memory: both directions, up to its end.
  EXPECT_TRUE(nk_dma_device_may_access(t.k, ring_pa, 4096, true, why, sizeof why)) << why;
  EXPECT_TRUE(nk_dma_device_may_access(t.k, ring_pa + 4000, 96, false, why, sizeof why)) << why;
  EXPECT_FALSE(nk_dma_device_may_access(t.k, ring_pa + 4000, 97, false, why, sizeof why));
  EXPECT_NE(std::string(why).find("runs past the end of its mapping"), std::string::npos) << why;

  Buf tx(t), rx(t);
  dma_addr_t to = dma_map_single(t.dev(), tx.at(0), 1514, DMA_TO_DEVICE);
  dma_addr_t from = dma_map_single(t.dev(), rx.at(0), 1514, DMA_FROM_DEVICE);
  EXPECT_TRUE(nk_dma_device_may_access(t.k, to, 1514, false, why, sizeof why)) << why;
  EXPECT_FALSE(nk_dma_device_may_access(t.k, to, 64, true, why, sizeof why));
  EXPECT_NE(std::string(why).find("DMA_TO_DEVICE"), std::string::npos) << why;
  EXPECT_TRUE(nk_dma_device_may_access(t.k, from, 1514, true, why, sizeof why)) << why;
  EXPECT_FALSE(nk_dma_device_may_access(t.k, from, 64, false, why, sizeof why));
  EXPECT_NE(std::string(why).find("DMA_FROM_DEVICE"), std::string::npos) << why;

  // After the unmap the device may not touch the buffer at all.
  dma_unmap_single(t.dev(), to, 1514, DMA_TO_DEVICE);
  EXPECT_FALSE(nk_dma_device_may_access(t.k, to, 64, false, why, sizeof why));
  EXPECT_NE(std::string(why).find("has not mapped"), std::string::npos) << why;
  dma_unmap_single(t.dev(), from, 1514, DMA_FROM_DEVICE);
  dma_free_coherent(t.dev(), 4096, ring, ring_pa);
  EXPECT_FALSE(nk_dma_device_may_access(t.k, ring_pa, 16, true, why, sizeof why));
  EXPECT_EQ(t.fault(), nullptr);
}

namespace {

// The IOMMU calls the DMA API made, recorded by a platform op the test installs.
struct IommuCall {
  uint64_t pa, len;
  bool map;
};
std::vector<IommuCall> g_iommu_calls;
void record_iommu(void *, uint64_t pa, uint64_t len, bool map) { g_iommu_calls.push_back({pa, len, map}); }

}  // namespace

TEST(KernelDma, EveryMappingAndUnmappingReachesThePlatformsIommu) {
  TestKernel t;
  ASSERT_TRUE(t.create(false)) << t.err;
  t.cp.ops.iommu_map = record_iommu; /* the kernel holds a pointer to these ops */
  g_iommu_calls.clear();
  dma_addr_t d;
  {
    Buf b(t);
    ASSERT_NE(b.skb, nullptr);
    d = dma_map_single(t.dev(), b.at(0), 1514, DMA_TO_DEVICE);
    ASSERT_FALSE(dma_mapping_error(t.dev(), d));
    dma_sync_single_for_cpu(t.dev(), d, 1514, DMA_TO_DEVICE); /* a sync is no IOMMU operation */
    dma_unmap_single(t.dev(), d, 1514, DMA_TO_DEVICE);
  }
  dma_addr_t h;
  void *ring = dma_alloc_coherent(t.dev(), 100, &h); /* one page */
  ASSERT_NE(ring, nullptr);
  dma_free_coherent(t.dev(), 100, ring, h);
  ASSERT_EQ(g_iommu_calls.size(), 4u);
  EXPECT_EQ(g_iommu_calls[0].pa, d);
  EXPECT_EQ(g_iommu_calls[0].len, 1514u);
  EXPECT_TRUE(g_iommu_calls[0].map);
  EXPECT_EQ(g_iommu_calls[1].pa, d);
  EXPECT_FALSE(g_iommu_calls[1].map);
  EXPECT_EQ(g_iommu_calls[2].pa, h);
  EXPECT_EQ(g_iommu_calls[2].len, 4096u) << "coherent memory is mapped in whole pages";
  EXPECT_TRUE(g_iommu_calls[2].map);
  EXPECT_FALSE(g_iommu_calls[3].map);
  t.cp.ops.iommu_map = nullptr;
  EXPECT_EQ(t.check(), "");
}

TEST(KernelDma, WcMemoryIsWriteCombiningOnlyOnANonCoherentPlatform) {
  for (bool coherent : {false, true}) {
    TestKernel t;
    ASSERT_TRUE(t.create(coherent)) << t.err;
    cp_reset_counts(&t.cp);
    dma_addr_t h;
    void *buf = dma_alloc_wc(t.dev(), 4096, &h);
    ASSERT_NE(buf, nullptr);
    /* Linux's dma_pgprot: a coherent device gets the normal cacheable mapping. */
    EXPECT_EQ(cp_attr(&t.cp, h), coherent ? NK_MEM_CACHED : NK_MEM_WC);
    EXPECT_EQ(t.cp.c.set_attr_calls[NK_MEM_WC], coherent ? 0u : 1u);
    struct nk_dma_mapping m;
    EXPECT_TRUE(nk_dma_lookup(t.k, h, &m)) << "the device may DMA to it";
    dma_free_wc(t.dev(), 4096, buf, h);
    EXPECT_EQ(cp_attr(&t.cp, h), NK_MEM_CACHED);
    EXPECT_EQ(t.check(), "");
  }
}

// ---- the IOTLB invalidations: strict at every unmap, lazy through the flush queue ----

namespace {

// The invalidations the kernel asked the platform for, by a recording iommu_inv op.
struct InvCall {
  uint64_t pa, len;
  nk_iommu_inv why;
};
std::vector<InvCall> g_invs;
void record_inv(void *, uint64_t pa, uint64_t len, nk_iommu_inv why) { g_invs.push_back({pa, len, why}); }
void no_map(void *, uint64_t, uint64_t, bool) {}

size_t count_invs(nk_iommu_inv why) {
  size_t n = 0;
  for (const InvCall &c : g_invs) n += c.why == why;
  return n;
}

// A kernel whose platform has an IOMMU in mode, flush queue fq_size entries.
struct IommuKernel {
  TestKernel t;
  IommuKernel(nc_iommu_mode mode, int64_t fq_size) {
    t.cfg.iommu.mode = mode;
    t.cfg.iommu.fq_size = fq_size;
    t.cfg.iommu.fq_timeout_ms = 10;
    g_invs.clear();
  }
  bool create() {
    if (!t.create(true)) return false;
    t.cp.ops.iommu_map = no_map;
    t.cp.ops.iommu_inv = record_inv;
    return true;
  }
  // n map/unmap pairs of 1514 bytes at distinct addresses of one skb's buffer.
  void unmaps(int n) {
    sk_buff *skb = netdev_alloc_skb(t.dev(), 1514);
    ASSERT_NE(skb, nullptr);
    for (int i = 0; i < n; i++) {
      dma_addr_t d = dma_map_single(t.dev(), skb->head, 1514, DMA_TO_DEVICE);
      ASSERT_FALSE(dma_mapping_error(t.dev(), d));
      dma_unmap_single(t.dev(), d, 1514, DMA_TO_DEVICE);
    }
    dev_kfree_skb_any(skb);
  }
};

}  // namespace

TEST(KernelIommu, StrictInvalidatesEveryUnmapsRangeAtOnce) {
  IommuKernel ik(NC_IOMMU_STRICT, 256);
  ASSERT_TRUE(ik.create()) << ik.t.err;
  const int n = 37;
  ik.unmaps(n);
  ASSERT_EQ(g_invs.size(), static_cast<size_t>(n)) << "one invalidation (and its sync) per unmap, none per map";
  for (const InvCall &c : g_invs) {
    EXPECT_EQ(c.why, NK_IOMMU_INV_UNMAP);
    EXPECT_EQ(c.len, 1514u) << "the unmapped range, not the domain";
  }
  EXPECT_EQ(cp_armed_timer(&ik.t.cp), -1) << "strict mode has no flush queue";
  EXPECT_EQ(ik.t.check(), "");
}

TEST(KernelIommu, LazyFlushesTheDomainEachTimeACpusQueueIsFull) {
  // fq_full is (tail + 1) % size == head: a queue holds size - 1 unmaps, and
  // the unmap that finds it full flushes first. The flush frees every entry
  // queued before it, so the next one comes size - 1 unmaps later:
  // (n - 1) / (size - 1) flushes for n unmaps.
  for (int64_t q : {2, 8, 256}) {
    for (int n : {1, static_cast<int>(q) - 1, static_cast<int>(q), 3 * static_cast<int>(q) + 5}) {
      IommuKernel ik(NC_IOMMU_LAZY, q);
      ASSERT_TRUE(ik.create()) << ik.t.err;
      ik.unmaps(n);
      const size_t want = static_cast<size_t>((n - 1) / (q - 1));
      EXPECT_EQ(count_invs(NK_IOMMU_INV_FQ_FULL), want) << "fq_size " << q << ", " << n << " unmaps";
      EXPECT_EQ(g_invs.size(), want) << "no per-unmap invalidation in lazy mode";
      for (const InvCall &c : g_invs) EXPECT_EQ(c.len, 0u) << "a flush invalidates the whole domain";
    }
  }
}

TEST(KernelIommu, LazyTimerFlushesWhenTrafficStopsAndEmptiesTheQueues) {
  const int64_t q = 16;
  IommuKernel ik(NC_IOMMU_LAZY, q);
  ASSERT_TRUE(ik.create()) << ik.t.err;
  ik.unmaps(5);
  EXPECT_TRUE(g_invs.empty());
  const int id = cp_armed_timer(&ik.t.cp);
  ASSERT_GE(id, 0) << "the first queued unmap arms the flush timer";
  EXPECT_EQ(ik.t.cp.timer_delay_ns[id], 10000000u) << "iommu.fq_timeout_ms";
  EXPECT_EQ(ik.t.cp.c.timer_arms, 1u) << "armed once while pending, not per unmap";
  ASSERT_TRUE(cp_fire_timer(&ik.t.cp, ik.t.k, id));
  ASSERT_EQ(g_invs.size(), 1u);
  EXPECT_EQ(g_invs[0].why, NK_IOMMU_INV_FQ_TIMER);
  EXPECT_EQ(g_invs[0].len, 0u);
  EXPECT_EQ(cp_armed_timer(&ik.t.cp), -1) << "no traffic, no timer";
  // The timer freed the 5 entries: q - 1 more unmaps fit without a full flush.
  ik.unmaps(static_cast<int>(q) - 1);
  EXPECT_EQ(count_invs(NK_IOMMU_INV_FQ_FULL), 0u);
  EXPECT_EQ(ik.t.cp.c.timer_arms, 2u) << "the next unmap re-armed it";
  ik.unmaps(1);
  EXPECT_EQ(count_invs(NK_IOMMU_INV_FQ_FULL), 1u);
}

TEST(KernelIommu, ModeOffInvalidatesNothingEvenWithAnIommuOp) {
  IommuKernel ik(NC_IOMMU_OFF, 256);
  ASSERT_TRUE(ik.create()) << ik.t.err;
  ik.unmaps(300);
  EXPECT_TRUE(g_invs.empty());
  EXPECT_EQ(cp_armed_timer(&ik.t.cp), -1);
}
