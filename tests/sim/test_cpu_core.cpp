// test_cpu_core.cpp: the CpuCore's platform ops without a driver: the cost of
// each operation, local time and synchronisation, window attribution,
// profile buckets, the ownership check and the host sink.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"
#include "cpu/cpu_core.h"
#include "sim/model_params.h"
#include "kernel/kernel.h"
#include "memory/host_memory.h"
#include "net/frame.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::make;
using test::now_ps;
using test::ps;

/* A core at 2 GHz (500 ps per cycle) on 1 MiB of memory, MMIO straight to a register file. */
struct CpuBench {
  nicsim_config cfg;
  HostMemory *mem;
  CpuCore *cpu;
  test::RegTarget *regs;
  test::ScriptedThread *probe;
  test::ScriptedInitiator *rc; /* stands for the root complex on memory's target socket */
  std::vector<std::string> violations;

  explicit CpuBench(void (*tweak)(nicsim_config &) = nullptr) {
    test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.cpu.memcpy_misaligned_cycles_per_byte = 1.0;
    cfg.memory.size_mb = 1;
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
};

TEST(CpuCore, EachOperationChargesItsConfiguredCost) {
  CpuBench b;
  b.regs->read_delay_ps = 300000; /* the register answers in 300 ns: 600 cycles of stall */
  std::vector<double> steps;
  uint64_t elapsed_ps = 0;
  double total = 0;
  b.cpu->set_program([&](CpuCore &c) {
    const uint64_t t0 = c.local_time_ps();
    c.set_attr(0x10000, 0x1000, NK_MEM_UNCACHED);
    auto step = [&](auto f) {
      const double before = c.busy_cycles(false);
      f();
      steps.push_back(c.busy_cycles(false) - before);
    };
    step([&] { c.store(0x100, 7, 4); });                      /* cached store: 1 */
    step([&] { c.store(0x10010, 7, 4); });                    /* uncached store: 10 */
    step([&] { EXPECT_EQ(c.load(0x100, 4), 7u); });           /* cached load: 1 */
    step([&] { EXPECT_EQ(c.load(0x10010, 4), 7u); });         /* uncached load: 100 ns = 200 */
    step([&] { c.copy(0x20000, 0x30000, 1000); });            /* 20 + 1000 * 0.125 = 145 */
    step([&] { c.copy(0x20002, 0x30000, 1000); });            /* (dst ^ src) & 7 = 2: 20 + 1000 * 1.0 */
    step([&] { c.cache_maint(60, 130, NK_CACHE_CLEAN); });    /* lines 0, 1, 2: 3 * 20 */
    step([&] { c.barrier(NK_BARRIER_DMA_WMB); });             /* 20 */
    step([&] { c.charge(1234.5); });                          /* as given */
    step([&] { c.mmio_write32(0x1C, 5); });                   /* 50 */
    step([&] { EXPECT_EQ(c.mmio_read32(0x1C), 5u); });        /* round trip: 600 */
    c.sync();
    elapsed_ps = now_ps() - t0;
    total = c.busy_cycles(false);
  });
  b.run();
  const std::vector<double> want = {1, 10, 1, 200, 145, 1020, 60, 20, 1234.5, 50, 600};
  ASSERT_EQ(steps.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) EXPECT_DOUBLE_EQ(steps[i], want[i]) << "step " << i;
  double sum = 0;
  for (double w : want) sum += w;
  EXPECT_DOUBLE_EQ(total, sum);
  /* Every charged cycle is 500 ps of the core's time, stalls included. */
  EXPECT_EQ(elapsed_ps, static_cast<uint64_t>(sum * 500));
  const CpuCounters &t = b.cpu->total();
  EXPECT_EQ(t.uncached_loads, 1u);
  EXPECT_EQ(t.uncached_stores, 1u);
  EXPECT_EQ(t.cached_loads, 1u);
  EXPECT_EQ(t.cached_stores, 1u);
  EXPECT_EQ(t.mmio_writes, 1u);
  EXPECT_EQ(t.mmio_reads, 1u);
  EXPECT_EQ(t.copies, 2u);
  EXPECT_EQ(t.copy_bytes, 2000u);
  EXPECT_EQ(t.cache_lines, 3u);
  EXPECT_EQ(t.barriers, 1u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuCore, MemoryOperationsMoveTheBytes) {
  CpuBench b;
  b.cpu->set_program([&](CpuCore &c) {
    c.store(0x1000, 0x1122334455667788ull, 8);
    EXPECT_EQ(c.load(0x1000, 1), 0x88u); /* little-endian */
    EXPECT_EQ(c.load(0x1002, 2), 0x5566u);
    EXPECT_EQ(c.load(0x1004, 4), 0x11223344u);
    c.copy(0x2001, 0x1000, 8);
    EXPECT_EQ(c.load(0x2001, 8), 0x1122334455667788ull);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty());
}

TEST(CpuCore, LoadsSynchroniseAndSeeDmaWrittenBeforeTheirTime) {
  CpuBench b;
  b.probe->script = [&] {
    wait(ps(500000));
    b.mem->data()[0x5000] = 42; /* a DMA write landing at 500 ns */
  };
  uint64_t first = 99, second = 99, t_second = 0;
  b.cpu->set_program([&](CpuCore &c) {
    c.charge(400); /* local time 200 ns, inside the 1 us quantum: no sync yet */
    first = c.load(0x5000, 1);
    c.charge(800); /* 200 + 90 (load miss) + 400 ns */
    second = c.load(0x5000, 1);
    t_second = now_ps();
  });
  b.run();
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(second, 42u);
  /* The second load synchronised: simulated time reached the core's time
   * (the first load missed the cache: memory.dram_latency_ns, 90 ns = 180 cycles). */
  EXPECT_EQ(t_second, (400u + 180u + 800u) * 500u);
}

TEST(CpuCore, ALoadBeforeTheQuietTimeSkipsItsWaitAndOneAtItWaits) {
  CpuBench b;
  b.probe->script = [&] {
    wait(ps(500000));
    b.mem->data()[0x5000] = 42; /* a DMA write landing at 500 ns */
  };
  /* The interconnect promises nothing touches memory before 400 ns. */
  b.cpu->quiet_until = [] { return uint64_t{400000}; };
  uint64_t v[3] = {99, 99, 99}, t[3] = {1, 1, 1};
  b.cpu->set_program([&](CpuCore &c) {
    c.charge(400); /* local time 200 ns */
    v[0] = c.load(0x5000, 1); /* 200 < 400: no wait; a miss, 90 ns: local 290 ns */
    t[0] = now_ps();
    c.charge(220); /* local 400 ns */
    v[1] = c.load(0x5000, 1); /* 400 is not before 400: waits */
    t[1] = now_ps();
    c.charge(600); /* local 700.5 ns (the hit took 1 cycle) */
    v[2] = c.load(0x5000, 1); /* after the write: waits and sees it */
    t[2] = now_ps();
  });
  b.run();
  EXPECT_EQ(v[0], 0u);
  EXPECT_EQ(t[0], 0u); /* simulated time did not move */
  EXPECT_EQ(v[1], 0u);
  EXPECT_EQ(t[1], 400000u);
  EXPECT_EQ(v[2], 42u);
  EXPECT_EQ(t[2], 700500u);
}

TEST(CpuCore, QuantumBoundsHowFarTheCoreRunsAhead) {
  CpuBench b([](nicsim_config &c) { c.cpu.quantum_ns = 250; });
  uint64_t max_ahead = 0;
  b.cpu->set_program([&](CpuCore &c) {
    for (int i = 0; i < 100; i++) {
      c.charge(100); /* 50 ns each */
      max_ahead = std::max(max_ahead, c.local_time_ps() - now_ps());
    }
  });
  b.run();
  EXPECT_GT(max_ahead, 0u);
  EXPECT_LT(max_ahead, 250000u);
}

TEST(CpuCore, StoreIntoADeviceOwnedDescriptorIsAViolation) {
  CpuBench b;
  b.cpu->device_owns = [](uint64_t pa) { return pa >= 0x8000 && pa < 0x8100; };
  b.cpu->set_program([&](CpuCore &c) {
    c.store(0x9000, 1, 4);
    EXPECT_TRUE(b.violations.empty());
    c.store(0x8010, 1, 2);
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("0x8010"), std::string::npos) << b.violations[0];
  EXPECT_NE(b.violations[0].find("device owns"), std::string::npos) << b.violations[0];
}

TEST(CpuCore, OutOfRangeAccessIsAViolation) {
  CpuBench b;
  b.cpu->set_program([&](CpuCore &c) { EXPECT_EQ(c.load((1u << 20) - 2, 4), 0u); });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("0xffffe"), std::string::npos) << b.violations[0];
}

TEST(CpuCore, WindowCountsOnlyCyclesInsideIt) {
  CpuBench b;
  b.cpu->set_window(1000000, 2000000); /* [1 us, 2 us) */
  b.cpu->set_program([&](CpuCore &c) {
    c.set_attr(0x4000, 0x1000, NK_MEM_UNCACHED);
    c.charge(1000); /* [0, 0.5 us): outside */
    c.charge(2000); /* [0.5, 1.5 us): half inside */
    c.store(0x4000, 1, 4); /* at 1.5 us: inside */
    c.charge(990);  /* to 2.0 us */
    c.store(0x4000, 1, 4); /* at 2.0 us: outside */
    c.charge(1000);
  });
  b.run();
  EXPECT_DOUBLE_EQ(b.cpu->busy_cycles(false), 1000 + 2000 + 10 + 990 + 10 + 1000);
  EXPECT_DOUBLE_EQ(b.cpu->busy_cycles(true), 1000 + 10 + 990);
  EXPECT_EQ(b.cpu->total().uncached_stores, 2u);
  EXPECT_EQ(b.cpu->window().uncached_stores, 1u);
}

TEST(CpuCore, ChargesGoToTheCurrentProfileBucketAndItsClass) {
  CpuBench b;
  const int rx = nk_prof_id("test_rx_poll", NK_CLASS_RX);
  const int tx = nk_prof_id("test_xmit", NK_CLASS_TX);
  b.cpu->set_program([&](CpuCore &c) {
    int prev = nk_prof_enter(rx);
    c.charge(300);
    c.barrier(NK_BARRIER_RMB);
    nk_prof_leave(prev);
    prev = nk_prof_enter(tx);
    c.charge(70);
    nk_prof_leave(prev);
    c.charge(50);
  });
  b.run();
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(rx, false), 320);
  EXPECT_DOUBLE_EQ(b.cpu->bucket_cycles(tx, false), 70);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_RX, false), 320);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_TX, false), 70);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_OTHER, false), 50);
  EXPECT_DOUBLE_EQ(b.cpu->class_cycles(NK_CLASS_IRQ, false), 0);
}

TEST(CpuCore, HostSinkCountsIntactFramesInOrder) {
  CpuBench b;
  const uint32_t len = nf_dma_len(128);
  for (uint64_t s = 0; s < 3; s++) nf_fill(b.mem->data() + 0x1000 * (s + 1), len, b.cfg.run.seed, 0, s);
  b.cpu->set_program([&](CpuCore &c) {
    c.host_rx(0x1000, len);
    c.host_rx(0x3000, len); /* seq 2: a gap is allowed (a counted drop) */
  });
  b.run();
  EXPECT_TRUE(b.violations.empty());
  EXPECT_EQ(b.cpu->total().rx_frames, 2u);
  EXPECT_EQ(b.cpu->total().rx_frame_bytes, 2u * 128u);
  EXPECT_EQ(b.cpu->rx_sequence_gaps(), 1u);
}

TEST(CpuCore, HostSinkReportsAReorderedFrame) {
  CpuBench b;
  const uint32_t len = nf_dma_len(64);
  nf_fill(b.mem->data() + 0x1000, len, b.cfg.run.seed, 0, 5);
  nf_fill(b.mem->data() + 0x2000, len, b.cfg.run.seed, 0, 4);
  b.cpu->set_program([&](CpuCore &c) {
    c.host_rx(0x1000, len);
    c.host_rx(0x2000, len);
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("out of order"), std::string::npos) << b.violations[0];
}

TEST(CpuCore, HostSinkReportsAFrameReceivedBeforeItWasSent) {
  CpuBench b;
  const uint32_t len = nf_dma_len(64);
  nf_fill_ts(b.mem->data() + 0x1000, len, b.cfg.run.seed, 0, 0, 100);            /* sent at 100 ps */
  nf_fill_ts(b.mem->data() + 0x2000, len, b.cfg.run.seed, 0, 1, 5'000'000'000ull); /* at 5 ms */
  b.cpu->set_program([&](CpuCore &c) {
    c.charge(2000); /* 1 us at 2 GHz */
    c.host_rx(0x1000, len);
    EXPECT_TRUE(b.violations.empty());
    c.host_rx(0x2000, len);
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("before it was sent"), std::string::npos) << b.violations[0];
}

TEST(CpuCore, HostSinkReportsACorruptedFrame) {
  CpuBench b;
  const uint32_t len = nf_dma_len(256);
  nf_fill(b.mem->data() + 0x1000, len, b.cfg.run.seed, 0, 0);
  b.mem->data()[0x1000 + 100] ^= 0x40;
  b.cpu->set_program([&](CpuCore &c) { c.host_rx(0x1000, len); });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("corrupted"), std::string::npos) << b.violations[0];
  EXPECT_EQ(b.cpu->total().rx_frames, 0u);
}

TEST(CpuCore, MsiWithAnUnknownVectorIsAViolation) {
  CpuBench b;
  b.cpu->set_program([](CpuCore &) {});
  b.probe->script = [&] { b.cpu->raise_msi(1000); };
  b.run(1000);
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("0x3e8"), std::string::npos) << b.violations[0];
}

}  // namespace
}  // namespace nicsim
