// test_cpu_cache.cpp: the core's data cache against known counts: hit, miss
// and LRU eviction costs, coherent snooping and DDIO, non-coherent staleness
// (a missing dma_sync is caught), cache maintenance, profile buckets and MSI latency;
// Cache::find after fills, evictions and drops (its remembered last line).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "config/config.h"
#include "cpu/cpu_core.h"
#include "sim/model_params.h"
#include "kernel/kernel.h"
#include "memory/host_memory.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::make;
using test::now_ps;
using test::ps;

/* A core at 2 GHz (500 ps per cycle) on 1 MiB of memory; rc stands for the
 * root complex (the device's DMA) on memory's target socket. */
struct Bench {
  nicsim_config cfg;
  HostMemory *mem;
  CpuCore *cpu;
  test::RegTarget *regs;
  test::ScriptedThread *probe;
  test::ScriptedInitiator *rc;
  std::vector<std::string> violations;

  explicit Bench(void (*tweak)(nicsim_config &) = nullptr) {
    test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.memory.size_mb = 1;
    cfg.memory.dram_latency_ns = 90;  /* 180 cycles */
    cfg.cpu.cached_access_cycles = 1;
    cfg.cpu.llc_hit_cycles = 40;
    cfg.cpu.cache_maint_cycles_per_line = 20;
    if (tweak) tweak(cfg);
    mem = &make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    cpu = &make<CpuCore>("cpu", cpu_params(cfg), *mem);
    regs = &make<test::RegTarget>("regs");
    probe = &make<test::ScriptedThread>("probe");
    rc = &make<test::ScriptedInitiator>("rc");
    cpu->mmio.bind(regs->socket);
    rc->socket.bind(mem->tgt);
    cpu->on_violation = [this](const std::string &c, const std::string &m, double) {
      violations.push_back(c + ": " + m);
    };
  }
  void run(uint64_t until_ps = 100000000) { sc_core::sc_start(ps(until_ps)); }
  /* The device writes len bytes of value v at pa, at time t_ps. */
  void dma_write_at(uint64_t t_ps, uint64_t pa, uint8_t v, uint32_t len) {
    rc->script = [=](test::ScriptedInitiator &r) {
      sc_core::wait(ps(t_ps));
      std::vector<uint8_t> buf(len, v);
      EXPECT_EQ(r.transfer(tlm::TLM_WRITE_COMMAND, pa, buf.data(), len), tlm::TLM_OK_RESPONSE);
    };
  }
};

/* Cycles one call costs on core c. */
template <class F>
double cost(CpuCore &c, F f) {
  const double before = c.busy_cycles(false);
  f();
  return c.busy_cycles(false) - before;
}

void noncoherent(nicsim_config &c) { c.memory.coherent_dma = false; }

TEST(CpuCache, MissStallsForDramThenHits) {
  Bench b;
  std::vector<double> got;
  b.cpu->set_program([&](CpuCore &c) {
    got.push_back(cost(c, [&] { c.load(0x1000, 4); }));  /* miss: 90 ns */
    got.push_back(cost(c, [&] { c.load(0x1008, 8); }));  /* same line: hit */
    got.push_back(cost(c, [&] { c.load(0x103C, 8); }));  /* straddles into line 0x1040: hit + miss */
    got.push_back(cost(c, [&] { c.store(0x2000, 1, 4); })); /* store miss: buffered, allocates */
    got.push_back(cost(c, [&] { c.load(0x2000, 4); }));  /* hit */
  });
  b.run();
  const std::vector<double> want = {180, 1, 181, 1, 1};
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) EXPECT_DOUBLE_EQ(got[i], want[i]) << "access " << i;
  EXPECT_EQ(b.cpu->total().cache_misses, 3u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuCache, LruEvictsTheLeastRecentlyUsedWayOfTheSet) {
  /* 2 sets x 2 ways x 64 B: lines 0x0, 0x80, 0x100 share set 0. */
  Bench b([](nicsim_config &c) {
    c.cpu.cache_sets = 2;
    c.cpu.cache_ways = 2;
  });
  std::vector<double> got;
  b.cpu->set_program([&](CpuCore &c) {
    c.load(0x000, 4);                                     /* miss */
    c.load(0x080, 4);                                     /* miss */
    c.load(0x000, 4);                                     /* hit: 0x80 is now LRU */
    c.load(0x040, 4);                                     /* miss, set 1: no effect on set 0 */
    c.load(0x100, 4);                                     /* miss: evicts 0x80 */
    got.push_back(cost(c, [&] { c.load(0x000, 4); }));    /* still resident */
    got.push_back(cost(c, [&] { c.load(0x080, 4); }));    /* evicted: miss */
  });
  b.run();
  EXPECT_DOUBLE_EQ(got[0], 1);
  EXPECT_DOUBLE_EQ(got[1], 180);
  EXPECT_EQ(b.cpu->total().cache_misses, 5u);
  EXPECT_EQ(b.cpu->cache().evictions(), 2u);
}

TEST(CpuCache, UncachedMemoryBypassesTheCache) {
  Bench b([](nicsim_config &c) {
    c.memory.uncached_load_ns = 150;
    c.cpu.uncached_store_cycles = 12;
  });
  std::vector<double> got;
  b.cpu->set_program([&](CpuCore &c) {
    c.set_attr(0x4000, 0x1000, NK_MEM_UNCACHED);
    got.push_back(cost(c, [&] { c.load(0x4000, 4); }));     /* 150 ns stall = 300 */
    got.push_back(cost(c, [&] { c.load(0x4000, 4); }));     /* again: never cached */
    got.push_back(cost(c, [&] { c.store(0x4000, 9, 4); })); /* buffered: 12 */
  });
  b.run();
  EXPECT_DOUBLE_EQ(got[0], 300);
  EXPECT_DOUBLE_EQ(got[1], 300);
  EXPECT_DOUBLE_EQ(got[2], 12);
  EXPECT_EQ(b.cpu->total().uncached_loads, 2u);
  EXPECT_EQ(b.cpu->total().uncached_stores, 1u);
  EXPECT_EQ(b.cpu->total().cache_misses, 0u);
}

TEST(CpuCache, CoherentDmaWriteInvalidatesTheCpuCopy) {
  Bench b;
  b.dma_write_at(1000000, 0x3010, 0xAB, 4); /* at 1 us */
  uint64_t v = 0;
  double second = 0;
  b.cpu->set_program([&](CpuCore &c) {
    c.load(0x3000, 4); /* miss: the line is resident */
    c.charge(4000);    /* 2 us */
    second = cost(c, [&] { v = c.load(0x3010, 4); });
  });
  b.run();
  EXPECT_EQ(v, 0xABABABABu);
  EXPECT_DOUBLE_EQ(second, 180); /* snooped out: a miss */
  EXPECT_EQ(b.cpu->total().snoop_invalidates, 1u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuCache, DdioPlacesDeviceWritesInTheLastLevelCache) {
  Bench b([](nicsim_config &c) { c.memory.ddio = true; });
  b.dma_write_at(1000, 0x5000, 0x11, 128); /* two lines, not resident before */
  std::vector<double> got;
  uint64_t v = 0;
  b.cpu->set_program([&](CpuCore &c) {
    c.charge(100);
    got.push_back(cost(c, [&] { v = c.load(0x5000, 8); }));  /* first touch: LLC hit */
    got.push_back(cost(c, [&] { c.load(0x5008, 8); }));      /* now in the core's cache */
    got.push_back(cost(c, [&] { c.load(0x5040, 8); }));      /* the second line: LLC hit */
  });
  b.run();
  EXPECT_EQ(v, 0x1111111111111111ull);
  EXPECT_DOUBLE_EQ(got[0], 40);
  EXPECT_DOUBLE_EQ(got[1], 1);
  EXPECT_DOUBLE_EQ(got[2], 40);
  EXPECT_EQ(b.cpu->total().ddio_fills, 2u);
  EXPECT_EQ(b.cpu->total().llc_hits, 2u);
  EXPECT_EQ(b.cpu->total().cache_misses, 0u);
}

TEST(CpuCache, NonCoherentMissingSyncReadsStaleDataAndIsReported) {
  Bench b(noncoherent);
  b.dma_write_at(1000000, 0x6000, 0x5A, 64);
  uint64_t v = 0;
  const int fn = nk_prof_id("test_rx_poll", NK_CLASS_RX);
  b.cpu->set_program([&](CpuCore &c) {
    c.load(0x6000, 4); /* the CPU caches the buffer's line (e.g. a speculative or earlier read) */
    c.charge(4000);
    const int prev = nk_prof_enter(fn);
    v = c.load(0x6000, 4); /* no dma_sync_single_for_cpu: the cached copy */
    nk_prof_leave(prev);
  });
  b.run();
  EXPECT_EQ(v, 0u) << "the core must read its stale cached copy, not the DMA data";
  EXPECT_EQ(b.mem->data()[0x6000], 0x5A);
  ASSERT_EQ(b.violations.size(), 1u);
  const std::string &m = b.violations[0];
  EXPECT_NE(m.find("cpu: stale read"), std::string::npos) << m;
  EXPECT_NE(m.find("0x6000"), std::string::npos) << m;
  EXPECT_NE(m.find("test_rx_poll"), std::string::npos) << m;
  EXPECT_NE(m.find("1000.000 ns"), std::string::npos) << m;
  EXPECT_NE(m.find("dma_sync_single_for_cpu"), std::string::npos) << m;
}

TEST(CpuCache, NonCoherentInvalidateBeforeReadSeesTheDmaData) {
  Bench b(noncoherent);
  b.dma_write_at(1000000, 0x6000, 0x5A, 64);
  uint64_t v = 0;
  double maint = 0, load = 0;
  b.cpu->set_program([&](CpuCore &c) {
    c.load(0x6000, 4);
    c.charge(4000);
    maint = cost(c, [&] { c.cache_maint(0x6000, 64, NK_CACHE_INVALIDATE); }); /* dma_sync_single_for_cpu */
    load = cost(c, [&] { v = c.load(0x6000, 4); });
  });
  b.run();
  EXPECT_TRUE(b.violations.empty()) << b.violations[0];
  EXPECT_EQ(v, 0x5A5A5A5Au);
  EXPECT_DOUBLE_EQ(maint, 20);
  EXPECT_DOUBLE_EQ(load, 180);
}

TEST(CpuCache, NonCoherentStaleLineWithUnchangedBytesIsNotReported) {
  Bench b(noncoherent);
  b.dma_write_at(1000000, 0x6000, 0x00, 64); /* rewrites the same (zero) bytes */
  b.cpu->set_program([&](CpuCore &c) {
    c.load(0x6000, 4);
    c.charge(4000);
    EXPECT_EQ(c.load(0x6000, 4), 0u);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuCache, NonCoherentMemcpyFromAStaleLineIsReported) {
  Bench b(noncoherent);
  b.dma_write_at(1000000, 0x7000, 0x77, 256);
  b.cpu->set_program([&](CpuCore &c) {
    c.copy(0x8000, 0x7000, 256); /* first copy caches the source (a copybreak buffer) */
    c.charge(4000);
    c.copy(0x8000, 0x7000, 256); /* recycled without sync: stale source */
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("memcpy from 0x7000"), std::string::npos) << b.violations[0];
}

TEST(CpuCache, NonCoherentDeviceReadOfADirtyLineIsReported) {
  Bench b(noncoherent);
  b.rc->script = [&](test::ScriptedInitiator &r) {
    sc_core::wait(ps(1000000));
    uint8_t buf[64];
    r.transfer(tlm::TLM_READ_COMMAND, 0x9000, buf, 64);
  };
  b.cpu->set_program([&](CpuCore &c) {
    c.store(0x9000, 1, 8); /* the CPU fills a TX buffer: the line is dirty, never cleaned */
    c.charge(4000);
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("DMA read of 0x9000"), std::string::npos) << b.violations[0];
  EXPECT_NE(b.violations[0].find("dma_sync_single_for_device"), std::string::npos) << b.violations[0];
}

TEST(CpuCache, NonCoherentDeviceReadOfACleanedLineIsFine) {
  Bench b(noncoherent);
  b.rc->script = [&](test::ScriptedInitiator &r) {
    sc_core::wait(ps(1000000));
    uint8_t buf[64];
    EXPECT_EQ(r.transfer(tlm::TLM_READ_COMMAND, 0x9000, buf, 64), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(buf[0], 1); /* the CPU's data reached memory */
  };
  b.cpu->set_program([&](CpuCore &c) {
    c.store(0x9000, 1, 8);
    c.cache_maint(0x9000, 64, NK_CACHE_CLEAN);
    c.charge(4000);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuCache, NonCoherentDmaWriteOverADirtyLineIsReported) {
  Bench b(noncoherent);
  b.dma_write_at(1000000, 0xA000, 0x33, 64);
  b.cpu->set_program([&](CpuCore &c) {
    c.store(0xA020, 7, 4); /* dirty, never cleaned or invalidated */
    c.charge(4000);
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("DMA write of 0xa000"), std::string::npos) << b.violations[0];
}

TEST(CpuCache, MemcpyAndCacheMaintenanceHaveTheirOwnBucketsButTheCallersClass) {
  Bench b([](nicsim_config &c) {
    c.cpu.memcpy_call_cycles = 10;
    c.cpu.memcpy_cycles_per_byte = 0.5;
  });
  const int rx = nk_prof_id("test_rx_clean", NK_CLASS_RX);
  const int tx = nk_prof_id("test_tx_map", NK_CLASS_TX);
  b.cpu->set_program([&](CpuCore &c) {
    int prev = nk_prof_enter(rx);
    c.copy(0x10000, 0x20000, 100); /* 10 + 50 */
    c.charge(5);
    nk_prof_leave(prev);
    prev = nk_prof_enter(tx);
    c.cache_maint(0x30000, 128, NK_CACHE_CLEAN); /* 2 lines x 20 */
    nk_prof_leave(prev);
  });
  b.run();
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(b.cpu->memcpy_bucket(), false), 60);
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(b.cpu->cache_maint_bucket(), false), 40);
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(rx, false), 5);
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(tx, false), 0);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_RX, false), 65);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_TX, false), 40);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_OTHER, false), 0);
  EXPECT_DOUBLE_EQ(b.cpu->busy_cycles(false), 105);
  EXPECT_STREQ(nk_prof_name(b.cpu->memcpy_bucket()), "memcpy");
  EXPECT_STREQ(nk_prof_name(b.cpu->cache_maint_bucket()), "cache_maint");
  EXPECT_EQ(b.cpu->total().cache_lines, 2u);
}

TEST(CpuCache, MsiReachesTheCoreAfterTheControllerLatency) {
  Bench b([](nicsim_config &c) { c.cpu.msi_latency_ns = 200; });
  b.probe->script = [&] {
    sc_core::wait(ps(100000));
    b.cpu->raise_msi(3); /* at 100 ns */
    sc_core::wait(ps(199000));
    EXPECT_EQ(b.cpu->irqs_pending(), 0u) << "at 299 ns";
    sc_core::wait(ps(2000));
    EXPECT_EQ(b.cpu->irqs_pending(), 1u << 3) << "at 301 ns";
  };
  b.cpu->set_program([](CpuCore &) {});
  b.run(1000000);
  EXPECT_TRUE(b.violations.empty());
}

/* Cache::find checks the line it found last before searching the set: a
 * line that was evicted (its way refilled with another line) or dropped
 * since must not be returned, a line in its old way's place must. */
TEST(CpuCache, FindSeesEvictionsAndDropsOfTheLineItFoundLast) {
  /* 2 sets x 2 ways x 64 B: line numbers 0 (0x000), 2 (0x080) and 4 (0x100)
   * share set 0; line 1 (0x040) is in set 1. */
  Cache c(2, 2, 64);
  std::vector<uint8_t> mem(4096, 0);
  Cache::Line *a = c.fill(0x000, mem.data());
  EXPECT_EQ(c.find(0x000), a);
  EXPECT_EQ(c.find(0x03F), a);                /* the last byte of the line */
  EXPECT_EQ(c.find(0x040), nullptr);          /* set 1 is empty */
  Cache::Line *b = c.fill(0x080, mem.data()); /* the other way of set 0 */
  EXPECT_NE(b, a);
  EXPECT_EQ(c.find(0x080), b);
  EXPECT_EQ(c.find(0x000), a);
  c.touch(a);                                 /* 0x080 is now LRU */
  EXPECT_EQ(c.find(0x080), b);                /* remembered: b */
  Cache::Line *l4 = c.fill(0x100, mem.data()); /* evicts 0x080, into b's way */
  EXPECT_EQ(l4, b);
  EXPECT_EQ(c.find(0x080), nullptr);          /* b's way holds line 4 now */
  EXPECT_EQ(c.find(0x100), b);
  EXPECT_EQ(c.find(0x000), a);                /* remembered: a */
  c.drop(a);
  EXPECT_EQ(c.find(0x000), nullptr);          /* line number 0, dropped */
  EXPECT_EQ(c.find(0x100), b);
  EXPECT_EQ(c.fill(0x000, mem.data()), a);    /* the free way */
  EXPECT_EQ(c.find(0x010), a);
  EXPECT_EQ(c.evictions(), 1u);
}

/* Random fills, finds, touches and drops over 40 lines on caches with a
 * power-of-two and a non-power-of-two set count: find always answers the
 * resident line each fill returned, or nullptr. */
TEST(CpuCache, FindAgreesWithTheLinesFillReturned) {
  for (uint32_t sets : {4u, 3u, 1u}) {
    Cache c(sets, 2, 64);
    std::vector<uint8_t> mem(64 * 40, 0);
    std::map<uint64_t, Cache::Line *> resident; /* line number -> line */
    std::mt19937 rng(sets);
    for (int step = 0; step < 20000; step++) {
      const uint64_t n = rng() % 40, pa = n * 64 + rng() % 64;
      const auto it = resident.find(n);
      Cache::Line *want = it == resident.end() ? nullptr : it->second;
      Cache::Line *got = c.find(pa);
      ASSERT_EQ(got, want) << "sets " << sets << " step " << step << " line " << n;
      const unsigned op = rng() % 4;
      if (!got && op < 2) {
        Cache::Line *l = c.fill(pa, mem.data());
        for (auto r = resident.begin(); r != resident.end(); ++r)
          if (r->second == l) {
            resident.erase(r); /* the victim */
            break;
          }
        resident[n] = l;
      } else if (got && op == 2) {
        c.touch(got);
      } else if (got && op == 3) {
        c.drop(got);
        resident.erase(n);
      }
    }
  }
}

}  // namespace
}  // namespace nicsim
