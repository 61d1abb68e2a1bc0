// test_mem_system.cpp: the host memory system against hand-derived figures:
// the DRAM channel's busy-until queue (alone, through HostMemory's TLM delay,
// and for CPU misses), the IOMMU's IOTLB (hits, misses, exact walk cost,
// strict invalidation, map/unmap cycles in the profile) and the CPU's
// write-combining buffers (merging, full-line bursts, eviction, barrier and
// uncached flushes, uncached WC loads).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/model_params.h"
#include "config/config.h"
#include "cpu/cpu_core.h"
#include "cpu/wc_buffers.h"
#include "kernel/kernel.h"
#include "memory/dram_channel.h"
#include "memory/host_memory.h"
#include "memory/iommu.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::make;
using test::now_ps;
using test::ps;

/* ---- the DRAM channel alone --------------------------------------------------- */

TEST(DramChannel, UnlimitedNeverWaitsAndCountsNothing) {
  DramChannel ch(0);
  uint64_t svc = 7;
  EXPECT_FALSE(ch.limited());
  EXPECT_EQ(ch.access(0, 4096, &svc), 0u);
  EXPECT_EQ(svc, 0u);
  EXPECT_EQ(ch.counters().accesses, 0u);
  EXPECT_EQ(ch.counters().busy_ps, 0u);
}

TEST(DramChannel, BackToBackAccessesQueue) {
  /* 8 GB/s = 8 B/ns: 256 B occupy the channel 32 ns = 32000 ps. */
  DramChannel ch(8);
  uint64_t svc = 0;
  EXPECT_EQ(ch.access(0, 256, &svc), 0u); /* free: no wait, busy [0, 32) ns */
  EXPECT_EQ(svc, 32000u);
  EXPECT_EQ(ch.access(0, 256, &svc), 32000u); /* same instant: waits 32 ns, busy [32, 64) */
  EXPECT_EQ(ch.access(40000, 64, &svc), 24000u); /* at 40 ns: waits until 64 ns; 64 B = 8 ns */
  EXPECT_EQ(svc, 8000u);
  EXPECT_EQ(ch.free_ps(), 72000u);
  EXPECT_EQ(ch.access(100000, 64, &svc), 0u); /* idle again at 100 ns */
  EXPECT_EQ(ch.counters().accesses, 4u);
  EXPECT_EQ(ch.counters().bytes, 640u);
  EXPECT_EQ(ch.counters().busy_ps, 80000u);  /* 640 B / 8 B/ns */
  EXPECT_EQ(ch.counters().wait_ps, 56000u);  /* 32 + 24 ns */
}

TEST(DramChannel, AnEarlierRequestBookedLaterUsesTheGapBeforeTheLaterOne) {
  /* 8 GB/s. The CPU books 64 B at its local time 1000 ns ([1000, 1008) ns);
   * then the device's access at 0 ns arrives: it is served first (no wait),
   * as in time order. A 64 B access at 996 ns does not fit before 1000 ns:
   * it goes after the booked one, at 1008 ns (waits 12 ns). Retiring at
   * 1010 ns forgets everything before. */
  DramChannel ch(8);
  EXPECT_EQ(ch.access(1000000, 64), 0u);
  EXPECT_EQ(ch.access(0, 256), 0u);            /* [0, 32) ns */
  EXPECT_EQ(ch.access(996000, 64), 12000u);    /* [1008, 1016) ns */
  EXPECT_EQ(ch.access(24000, 64), 8000u);      /* behind [0, 32): [32, 40) ns */
  EXPECT_EQ(ch.free_ps(), 1016000u);
  ch.retire(1010000);
  EXPECT_EQ(ch.access(1010000, 8), 6000u) << "[1008, 1016) is still booked";
  EXPECT_EQ(ch.counters().wait_ps, 26000u);
}

TEST(DramChannel, CountersAtATimeLeaveOutWhatIsBookedAfterIt) {
  /* 8 GB/s: 800 B booked at 0 ns occupy [0, 100) ns. At 40 ns, 40 ns of it
   * has passed; at 200 ns all 100 ns. */
  DramChannel ch(8);
  ch.access(0, 800);
  EXPECT_EQ(ch.counters().busy_ps, 100000u);
  EXPECT_EQ(ch.counters_at(40000).busy_ps, 40000u);
  EXPECT_EQ(ch.counters_at(200000).busy_ps, 100000u);
}

TEST(DramChannel, FractionalOccupancyIsCarriedNotLost) {
  /* 3 GB/s: 1 B = 333.33 ps. Rounding each access down would lose 1/3 ps
   * per access (300 accesses: 99900 ps); carrying the remainder keeps the
   * total at 100000 ps within the last access's fraction. */
  DramChannel ch(3);
  for (int i = 0; i < 300; i++) ch.access(static_cast<uint64_t>(i) * 1000000, 1);
  EXPECT_GE(ch.counters().busy_ps, 99999u);
  EXPECT_LE(ch.counters().busy_ps, 100000u);
}

/* ---- HostMemory: the delay it returns to the interconnect ------------------------- */

/* Issues DMA accesses straight into HostMemory's target and records the
 * delay each returned and when it completes (now + delay). */
class DelayProbe : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DelayProbe> socket;
  struct Op {
    uint64_t at_ps;
    bool write;
    uint64_t addr;
    uint32_t len;
  };
  std::vector<Op> ops;
  std::vector<uint64_t> delay_ps;

  explicit DelayProbe(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    SC_HAS_PROCESS(DelayProbe);
    SC_THREAD(run);
  }

 private:
  void run() {
    static uint8_t buf[8192];
    for (const Op &o : ops) {
      if (o.at_ps > now_ps()) wait(ps(o.at_ps - now_ps()));
      tlm::tlm_generic_payload p;
      p.set_command(o.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address(o.addr);
      p.set_data_ptr(buf);
      p.set_data_length(o.len);
      p.set_streaming_width(o.len);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      socket->b_transport(p, d);
      EXPECT_TRUE(p.is_response_ok());
      delay_ps.push_back(d.value());
    }
  }
};

struct MemProbe {
  HostMemory *mem;
  DelayProbe *probe;
  explicit MemProbe(std::vector<DelayProbe::Op> ops) {
    test::init_systemc();
    mem = &make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    probe = &make<DelayProbe>("probe");
    probe->socket.bind(mem->tgt);
    probe->ops = std::move(ops);
  }
  void run() { sc_core::sc_start(ps(10000000)); }
};

TEST(HostMemoryDram, BackToBackDmaWritesFinishAtTheComputedTimes) {
  /* memory.dram_bw_gbps 8: a 256 B write occupies the channel 32 ns. Two
   * writes at t = 0: the first completes at 32 ns (delay 32), the second
   * waits for it and completes at 64 ns (delay 64). A 4 KiB read at 100 ns
   * finds it idle: 4096 / 8 = 512 ns. */
  MemProbe b({{0, true, 0x1000, 256}, {0, true, 0x2000, 256}, {100000, false, 0x3000, 4096}});
  b.mem->set_dram_bw(8);
  b.run();
  ASSERT_EQ(b.probe->delay_ps.size(), 3u);
  EXPECT_EQ(b.probe->delay_ps[0], 32000u);
  EXPECT_EQ(b.probe->delay_ps[1], 64000u);
  EXPECT_EQ(b.probe->delay_ps[2], 512000u);
  /* Busy 32 + 32 + 512 = 576 ns; waited 32 ns in all. */
  EXPECT_EQ(b.mem->dram().counters().busy_ps, 576000u);
  EXPECT_EQ(b.mem->dram().counters().wait_ps, 32000u);
  EXPECT_EQ(b.mem->dram().counters().bytes, 256u + 256u + 4096u);
}

TEST(HostMemoryDram, UnlimitedReturnsNoDelay) {
  MemProbe b({{0, true, 0x1000, 256}, {0, true, 0x2000, 256}});
  b.run();
  ASSERT_EQ(b.probe->delay_ps.size(), 2u);
  EXPECT_EQ(b.probe->delay_ps[0], 0u);
  EXPECT_EQ(b.probe->delay_ps[1], 0u);
}

/* ---- the IOMMU ------------------------------------------------------------------- */

IommuParams iommu_params(uint32_t entries, uint32_t ways) {
  IommuParams p;
  p.enabled = true;
  p.entries = entries;
  p.ways = ways;
  p.walk_levels = 4;
  p.read_ps = 90000; /* 90 ns per page-table read */
  return p;
}

TEST(Iommu, HitsAndMissesOfAKnownPatternWithLru) {
  /* 4 entries, 2 ways: 2 sets; page n goes to set n % 2. */
  Iommu io(iommu_params(4, 2));
  DramChannel dram(0);
  auto page = [](uint64_t n) { return n * Iommu::kPageBytes; };
  /* Pages 0, 2, 4 share set 0 (2 ways). */
  io.translate(0, page(0), 64, dram); /* miss */
  io.translate(0, page(2), 64, dram); /* miss */
  io.translate(0, page(0), 64, dram); /* hit: page 2 is now LRU */
  io.translate(0, page(4), 64, dram); /* miss: evicts page 2 */
  io.translate(0, page(0), 64, dram); /* hit */
  io.translate(0, page(2), 64, dram); /* miss again (evicted): evicts 4 */
  io.translate(0, page(1), 64, dram); /* miss, set 1 */
  io.translate(0, page(1) + 4064, 64, dram); /* crosses into page 2: hit page 1, hit page 2 */
  EXPECT_EQ(io.counters().misses, 5u);
  EXPECT_EQ(io.counters().hits, 4u);
  EXPECT_TRUE(io.cached(page(0)));
  EXPECT_FALSE(io.cached(page(4)));
}

TEST(Iommu, AMissAddsExactlyTheWalkAndAHitNothing) {
  Iommu io(iommu_params(64, 64));
  DramChannel dram(0);
  /* 4 dependent reads of 90 ns: 360 ns. */
  EXPECT_EQ(io.translate(1000, 0x5000, 256, dram), 360000u);
  EXPECT_EQ(io.translate(2000, 0x5100, 256, dram), 0u);
  EXPECT_EQ(io.counters().walk_ps, 360000u);
}

TEST(Iommu, WalkReadsQueueOnABusyDramChannel) {
  Iommu io(iommu_params(64, 64));
  /* 6.4 GB/s: a 64 B page-table read occupies 10 ns. The channel is busy
   * until 50 ns: the first read waits 50 ns, the next three find it free
   * again (each starts 90 ns after the one before). Walk = 50 + 4 x 90 ns. */
  DramChannel dram(6.4);
  dram.access(0, 320); /* busy [0, 50) ns */
  EXPECT_EQ(io.translate(0, 0x9000, 64, dram), 410000u);
}

TEST(Iommu, UnmapInvalidatesStrictly) {
  Iommu io(iommu_params(64, 64));
  DramChannel dram(0);
  io.translate(0, 0x3000, 64, dram);                  /* miss */
  EXPECT_EQ(io.translate(0, 0x3800, 64, dram), 0u);   /* hit */
  io.invalidate(0x3800, 0x100);                       /* the mapping's page goes */
  EXPECT_EQ(io.counters().invalidations, 1u);
  EXPECT_EQ(io.translate(0, 0x3000, 64, dram), 360000u) << "the next access after an unmap walks again";
  EXPECT_EQ(io.counters().misses, 2u);
  EXPECT_EQ(io.counters().hits, 1u);
}

TEST(Iommu, DisabledTranslatesForFree) {
  IommuParams p = iommu_params(64, 64);
  p.enabled = false;
  Iommu io(p);
  DramChannel dram(0);
  EXPECT_EQ(io.translate(0, 0x3000, 64, dram), 0u);
  EXPECT_EQ(io.counters().misses + io.counters().hits, 0u);
}

TEST(HostMemoryIommu, TheWalkIsAddedToTheDmaDelayBeforeTheDramQueue) {
  /* A 256 B write at 0 misses: 4 x 90 ns walk, then 32 ns on the 8 GB/s
   * channel (the walk's own four 64 B reads took 8 ns each, long done):
   * 360 + 32 = 392 ns. The same page at 1 us hits: 32 ns. */
  MemProbe b({{0, true, 0x4000, 256}, {1000000, true, 0x4100, 256}});
  b.mem->set_dram_bw(8);
  b.mem->set_iommu(iommu_params(64, 64));
  b.run();
  ASSERT_EQ(b.probe->delay_ps.size(), 2u);
  EXPECT_EQ(b.probe->delay_ps[0], 392000u);
  EXPECT_EQ(b.probe->delay_ps[1], 32000u);
  EXPECT_EQ(b.mem->iommu().counters().misses, 1u);
  EXPECT_EQ(b.mem->iommu().counters().hits, 1u);
}

/* ---- the CPU: DRAM queueing, IOMMU map costs, write-combining ---------------------- */

/* A core at 2 GHz (500 ps per cycle) on 1 MiB of memory. */
struct Bench {
  nicsim_config cfg;
  HostMemory *mem;
  CpuCore *cpu;
  test::RegTarget *regs;
  std::vector<std::string> violations;

  explicit Bench(void (*tweak)(nicsim_config &) = nullptr) {
    test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.memory.size_mb = 1;
    cfg.memory.dram_latency_ns = 90; /* 180 cycles */
    cfg.memory.uncached_load_ns = 100;
    cfg.cpu.cached_access_cycles = 1;
    cfg.cpu.uncached_store_cycles = 12;
    cfg.cpu.barrier_cycles = 20;
    cfg.cpu.wc_buffers = 4;
    cfg.cpu.wc_flush_cycles = 30;
    cfg.memory.coherent_dma = false;
    if (tweak) tweak(cfg);
    mem = &make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    mem->set_dram_bw(cfg.memory.dram_bw_gbps);
    mem->set_iommu(nicsim::memory_params(cfg).iommu);
    cpu = &make<CpuCore>("cpu", cpu_params(cfg), *mem);
    regs = &make<test::RegTarget>("regs");
    cpu->mmio.bind(regs->socket);
    make<test::ScriptedInitiator>("rc").socket.bind(mem->tgt); /* the device side, idle */
    cpu->on_violation = [this](const std::string &c, const std::string &m, double) {
      violations.push_back(c + ": " + m);
    };
  }
  void run(uint64_t until_ps = 100000000) { sc_core::sc_start(ps(until_ps)); }
};

/* Cycles one call costs on core c. */
template <class F>
double cost(CpuCore &c, F f) {
  const double before = c.busy_cycles(false);
  f();
  return c.busy_cycles(false) - before;
}

TEST(CpuDram, AMissBehindABusyChannelStallsLonger) {
  /* 6.4 GB/s: a 64 B line occupies 10 ns. Two misses back to back: the
   * first stalls 90 ns (channel idle; busy [0, 10) ns at its start); the
   * second is issued at 90 ns, the channel is free: 90 ns again. Then the
   * device keeps the channel busy with a 6400 B write (1 us) issued by the
   * test at the core's time; a miss right after waits the whole 1000 ns. */
  Bench b([](nicsim_config &c) { c.memory.dram_bw_gbps = 6.4; });
  std::vector<double> got;
  b.cpu->set_program([&](CpuCore &c) {
    got.push_back(cost(c, [&] { c.load(0x1000, 4); })); /* 180 cycles */
    got.push_back(cost(c, [&] { c.load(0x2000, 4); })); /* 180 */
    c.sync();
    b.mem->cpu_dram_access(c.local_time_ps(), 6400); /* 1000 ns of traffic from now */
    got.push_back(cost(c, [&] { c.load(0x3000, 4); })); /* 180 + 2000 cycles */
  });
  b.run();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_DOUBLE_EQ(got[0], 180);
  EXPECT_DOUBLE_EQ(got[1], 180);
  EXPECT_DOUBLE_EQ(got[2], 2180);
  EXPECT_EQ(b.mem->dram().counters().wait_ps, 1000000u);
}

TEST(CpuDram, UnlimitedChannelLeavesCostsAsBefore) {
  Bench b;
  double miss = 0, unc = 0;
  b.cpu->set_program([&](CpuCore &c) {
    miss = cost(c, [&] { c.load(0x1000, 4); });
    c.set_attr(0x8000, 0x1000, NK_MEM_UNCACHED);
    unc = cost(c, [&] { c.load(0x8000, 4); });
  });
  b.run();
  EXPECT_DOUBLE_EQ(miss, 180);
  EXPECT_DOUBLE_EQ(unc, 200);
  EXPECT_EQ(b.mem->dram().counters().accesses, 0u);
}

void with_iommu(nicsim_config &c) {
  c.iommu.enabled = true;
  c.iommu.map_cycles = 700;
  c.iommu.unmap_cycles = 2500;
}

TEST(CpuIommu, MapAndUnmapCyclesGoToTheirBucketsAndAnInvalidationDropsTheEntry) {
  Bench b(with_iommu);
  double map_cost = 0, unmap_cost = 0;
  bool cached_before = false, cached_after = true;
  b.cpu->set_program([&](CpuCore &c) {
    const nk_platform &p = c.platform();
    map_cost = cost(c, [&] { p.ops->iommu_map(p.ctx, 0x7000, 2048, true); });
    /* The device touches the page (a 64 B DMA write): the IOTLB holds it. */
    DramChannel none(0);
    const_cast<Iommu &>(b.mem->iommu()).translate(now_ps(), 0x7000, 64, none); /* as HostMemory's target would */
    cached_before = b.mem->iommu().cached(0x7000);
    unmap_cost = cost(c, [&] { p.ops->iommu_map(p.ctx, 0x7000, 2048, false); });
    /* The unmap alone leaves the IOTLB as it was (lazy mode's window); the
     * kernel's invalidation (strict: at once; lazy: at a flush) drops it. */
    const bool cached_unmapped = b.mem->iommu().cached(0x7000);
    p.ops->iommu_inv(p.ctx, 0x7000, 2048, NK_IOMMU_INV_UNMAP);
    cached_after = b.mem->iommu().cached(0x7000) || !cached_unmapped;
  });
  b.run();
  EXPECT_DOUBLE_EQ(map_cost, 700);
  EXPECT_DOUBLE_EQ(unmap_cost, 2500);
  ASSERT_GE(b.cpu->iommu_map_bucket(), 0);
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(b.cpu->iommu_map_bucket(), false), 700);
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(b.cpu->iommu_unmap_bucket(), false), 2500);
  EXPECT_EQ(b.cpu->total().iommu_maps, 1u);
  EXPECT_EQ(b.cpu->total().iommu_unmaps, 1u);
  EXPECT_TRUE(cached_before);
  EXPECT_FALSE(cached_after);
}

TEST(CpuIommu, DisabledCostsNothing) {
  Bench b;
  double c2 = -1;
  b.cpu->set_program([&](CpuCore &c) {
    const nk_platform &p = c.platform();
    c2 = cost(c, [&] {
      p.ops->iommu_map(p.ctx, 0x7000, 2048, true);
      p.ops->iommu_map(p.ctx, 0x7000, 2048, false);
    });
  });
  b.run();
  EXPECT_DOUBLE_EQ(c2, 0);
  EXPECT_EQ(b.cpu->iommu_map_bucket(), -1);
  EXPECT_EQ(b.cpu->total().iommu_maps, 0u);
}

TEST(WcBuffers, MergeFillEvictAndFlush) {
  WcBuffers wc(2);
  for (int i = 0; i < 7; i++) EXPECT_EQ(wc.store(0x1000 + 8 * i, 8), 0u); /* 56 of 64 B */
  EXPECT_EQ(wc.store(0x1038, 8), 1u) << "the eighth 8 B store fills the line: one burst";
  EXPECT_EQ(wc.used(), 0u);
  EXPECT_EQ(wc.store(0x2000, 4), 0u);
  EXPECT_EQ(wc.store(0x3000, 4), 0u);
  EXPECT_EQ(wc.store(0x4000, 4), 1u) << "a third line evicts the oldest buffer";
  EXPECT_EQ(wc.flush_line(0x2000), 0u) << "0x2000 was the one evicted";
  /* Buffers now: 0x3000 (older), 0x4000. A 4 B store at 0x303E merges 2 B
   * into 0x3000 and needs a buffer for 0x3040: the oldest, 0x3000, leaves. */
  EXPECT_EQ(wc.store(0x303E, 4), 1u);
  EXPECT_EQ(wc.flush_line(0x3000), 0u);
  EXPECT_EQ(wc.flush_all(), 2u) << "0x4000 and 0x3040";
  EXPECT_EQ(wc.used(), 0u);
}

void wc_tweak(nicsim_config &c) { c.cpu.wc_buffers = 2; }

TEST(CpuWc, StoresMergeAndABarrierFlushes) {
  /* WC memory at 0x9000 (dma_alloc_wc on a non-coherent platform). Costs:
   * a WC store 1 cycle (merged); a burst 30 cycles; wmb 20 + its bursts. */
  Bench b(wc_tweak);
  std::vector<double> got;
  uint64_t v = 0;
  b.cpu->set_program([&](CpuCore &c) {
    c.set_attr(0x9000, 0x1000, NK_MEM_WC);
    /* 8 x 8 B to one line: 7 merge (1 cycle each), the 8th fills it: 1 + 30. */
    got.push_back(cost(c, [&] {
      for (int i = 0; i < 8; i++) c.store(0x9000 + 8 * i, i, 8);
    }));
    /* Half a line, then wmb: 4 x 1 + 20 + one burst 30. */
    got.push_back(cost(c, [&] {
      for (int i = 0; i < 4; i++) c.store(0x9040 + 8 * i, i, 8);
      c.barrier(NK_BARRIER_WMB);
    }));
    /* rmb does not flush: one store (1) + rmb (20); the buffer stays. */
    got.push_back(cost(c, [&] {
      c.store(0x9080, 1, 4);
      c.barrier(NK_BARRIER_RMB);
    }));
    /* A load from WC memory: uncached (100 ns = 200 cycles); it first sends
     * out its own line's buffer (30). */
    got.push_back(cost(c, [&] { v = c.load(0x9080, 4); }));
    /* Loads are never cached: again 200 (nothing buffered). */
    got.push_back(cost(c, [&] { c.load(0x9000, 8); }));
  });
  b.run();
  ASSERT_EQ(got.size(), 5u);
  EXPECT_DOUBLE_EQ(got[0], 8 + 30);
  EXPECT_DOUBLE_EQ(got[1], 4 + 20 + 30);
  EXPECT_DOUBLE_EQ(got[2], 1 + 20);
  EXPECT_DOUBLE_EQ(got[3], 30 + 200);
  EXPECT_DOUBLE_EQ(got[4], 200);
  EXPECT_EQ(v, 1u);
  EXPECT_EQ(b.cpu->total().wc_stores, 13u);
  EXPECT_EQ(b.cpu->total().wc_flushes, 3u);
  EXPECT_EQ(b.cpu->total().uncached_loads, 2u);
  EXPECT_EQ(b.cpu->total().uncached_stores, 0u);
  EXPECT_EQ(b.cpu->total().cache_misses, 0u) << "WC memory never enters the cache";
  EXPECT_EQ(b.cpu->total().cached_loads, 0u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuWc, EvictionAndUncachedAccessesFlush) {
  /* Two WC buffers. Three partial lines: the third evicts the first (one
   * burst). An MMIO write then drains the other two (two bursts), and an
   * uncached store drains what was stored since (one). */
  Bench b(wc_tweak);
  std::vector<double> got;
  b.cpu->set_program([&](CpuCore &c) {
    c.set_attr(0x9000, 0x1000, NK_MEM_WC);
    c.set_attr(0xA000, 0x1000, NK_MEM_UNCACHED);
    got.push_back(cost(c, [&] {
      c.store(0x9000, 1, 4);
      c.store(0x9040, 1, 4);
      c.store(0x9080, 1, 4); /* evicts 0x9000: 1 + 30 */
    }));
    c.mmio_write32(0x10, 1); /* drains 0x9040 and 0x9080 */
    got.push_back(static_cast<double>(b.cpu->total().wc_flushes));
    c.store(0x90C0, 1, 4);
    got.push_back(cost(c, [&] { c.store(0xA000, 1, 4); })); /* 30 (drain) + 12 */
  });
  b.run();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_DOUBLE_EQ(got[0], 3 + 30);
  EXPECT_DOUBLE_EQ(got[1], 3);
  EXPECT_DOUBLE_EQ(got[2], 30 + 12);
  EXPECT_EQ(b.cpu->total().wc_flushes, 4u);
  EXPECT_EQ(b.cpu->total().uncached_stores, 1u);
}

TEST(CpuWc, BurstsOccupyTheDramChannel) {
  /* 6.4 GB/s: each 64 B burst is 10 ns of channel time; a full line = 1 burst. */
  Bench b([](nicsim_config &c) { c.memory.dram_bw_gbps = 6.4; });
  b.cpu->set_program([&](CpuCore &c) {
    c.set_attr(0x9000, 0x1000, NK_MEM_WC);
    for (int l = 0; l < 3; l++)
      for (int i = 0; i < 8; i++) c.store(0x9000 + 64 * l + 8 * i, i, 8);
  });
  b.run();
  EXPECT_EQ(b.cpu->total().wc_flushes, 3u);
  EXPECT_EQ(b.mem->dram().counters().accesses, 3u);
  EXPECT_EQ(b.mem->dram().counters().busy_ps, 30000u);
}

}  // namespace
}  // namespace nicsim
