// test_pcie_lazy.cpp: the PcieLink's lazy posted writes (set_lazy_writes):
// a write reaches memory only when observed, at and after its commit time and
// never before, dated by its commit; an MSI keeps its wake-up; a serialising
// root complex's read still waits for an earlier write; and, with a CpuCore
// hooked to the link as src/sim/top.cpp hooks it, loads exactly at and after
// a commit see the write, and the core's DMA bookkeeping (DDIO window counts,
// the stale-line report) uses the commit time, not the time it was applied.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "config/config.h"
#include "cpu/cpu_core.h"
#include "sim/model_params.h"
#include "pcie/pcie_link.h"
#include "pcie_bench.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::Bench;
using test::gen1x1;
using test::kMsi;
using test::make;
using test::now_ps;
using test::ps;

/* One DMA access memory reported: address, the link's access time, the time it was applied. */
struct Applied {
  uint64_t addr, at_ps, now_ps;
};

/* Records every DMA access of b's memory with the link's access time. */
void record_dma(Bench &b, std::vector<Applied> *log) {
  b.mem->on_dma = [&b, log](uint64_t pa, uint32_t, bool write) {
    if (write) log->push_back({pa, b.link->mem_access_ps(), now_ps()});
  };
}

TEST(PcieLinkLazy, AWriteReachesMemoryWhenObservedAtOrAfterItsCommitDatedByIt) {
  Bench b(gen1x1());
  b.link->set_lazy_writes(true);
  std::vector<Applied> log;
  record_dma(b, &log);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 0xAB);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x100, buf.data(), 64);
    std::fill(buf.begin(), buf.end(), 0xCD);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x100, buf.data(), 64);
  };
  /* 64 + 12 + 8 = 84 wire bytes at 4 ns: the first write commits at 336 +
   * 100 = 436 ns, the second (queued behind it on the wire) at 772 ns. */
  uint8_t just_before = 0xFF, at_unobserved = 0xFF, at = 0, later_unobserved = 0, later = 0;
  b.probe->script = [&] {
    wait(ps(436000 - 1));
    b.link->apply_posted();
    just_before = b.mem->data()[0x100];
    wait(ps(1));
    at_unobserved = b.mem->data()[0x100]; /* nothing has observed it yet */
    b.link->apply_posted();
    at = b.mem->data()[0x100]; /* observed at its very commit time */
    wait(ps(900000 - 436000));
    later_unobserved = b.mem->data()[0x100];
    b.link->apply_posted();
    later = b.mem->data()[0x100];
  };
  b.run(2000000);
  EXPECT_EQ(just_before, 0);
  EXPECT_EQ(at_unobserved, 0);
  EXPECT_EQ(at, 0xAB);
  EXPECT_EQ(later_unobserved, 0xAB);
  EXPECT_EQ(later, 0xCD);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].at_ps, 436000u);
  EXPECT_EQ(log[0].now_ps, 436000u);
  EXPECT_EQ(log[1].at_ps, 772000u); /* dated by its commit ... */
  EXPECT_EQ(log[1].now_ps, 900000u); /* ... though applied when observed */
  EXPECT_EQ(b.link->mem_access_ps(), 2000000u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieLinkLazy, AnMsiKeepsItsWakeUpAndFollowsTheDataWrittenBeforeIt) {
  Bench b(gen1x1());
  b.link->set_lazy_writes(true);
  std::vector<Applied> log;
  record_dma(b, &log);
  bool data_there = false;
  test::data_then_msi(b, &data_there);
  b.run(20000000);
  /* As eagerly (PcieLink.MsiArrivesAfterTheDataWrittenBeforeIt): 1500 B are
   * 5 x (256 + 20) + (220 + 20) = 1620 B, the MSI 4 + 20 = 24 B, 4 ns each. */
  ASSERT_EQ(b.msis.size(), 1u);
  EXPECT_EQ(b.msis[0].first, (1620u + 24u) * 4000u + 100000u);
  EXPECT_TRUE(data_there);
  /* The six data TLPs were applied by the MSI's wake-up, each dated by its own commit. */
  ASSERT_EQ(log.size(), 6u);
  EXPECT_EQ(log[0].at_ps, 276u * 4000u + 100000u);
  EXPECT_EQ(log[5].at_ps, 1620u * 4000u + 100000u);
  for (const Applied &a : log) EXPECT_EQ(a.now_ps, b.msis[0].first);
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieLinkLazy, ASerialisingRootComplexsReadWaitsForAnEarlierWrite) {
  PcieParams p = gen1x1();
  p.rc_serialize_writes = true;
  p.rc_commit_ps = 1000000; /* 1 us per cache line */
  p.line_bytes = 64;
  Bench b(p);
  b.link->set_lazy_writes(true);
  uint8_t got[16] = {};
  uint64_t returned = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> v(256, 0x55);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000, v.data(), 256);
    d.transfer(tlm::TLM_READ_COMMAND, 0x1000, got, 16);
    returned = now_ps();
  };
  /* The write: 276 B, 1104 ns on the wire, arrives at 1204 ns and commits
   * its 4 lines one after the other: 5204 ns. The MRd (20 B, 80 ns) leaves
   * at 1104 ns, arrives at 1284 ns; the root complex answers at
   * max(1284 + 200, 5204) = 5204 ns, seeing the write; the CplD (16 + 20 B,
   * 144 ns) arrives 100 ns later: 5448 ns. */
  uint8_t before_commit = 0xFF;
  b.probe->script = [&] {
    wait(ps(5204000 - 1));
    b.link->apply_posted();
    before_commit = b.mem->data()[0x1000];
  };
  b.run(20000000);
  EXPECT_EQ(before_commit, 0);
  EXPECT_EQ(got[0], 0x55);
  EXPECT_EQ(got[15], 0x55);
  EXPECT_EQ(returned, 5448000u);
  EXPECT_TRUE(b.violations.empty());
}

/* A core at 2 GHz (500 ps per cycle) hooked to a lazy link as src/sim/top.cpp
 * hooks it; a scripted device writes through the link. */
struct CoreBench {
  nicsim_config cfg;
  HostMemory *mem;
  PcieLink *link;
  CpuCore *cpu;
  test::RegTarget *regs;
  test::ScriptedInitiator *dev;
  std::vector<std::string> violations;

  explicit CoreBench(bool coherent) {
    test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.memory.size_mb = 1;
    cfg.memory.coherent_dma = coherent;
    cfg.memory.ddio = coherent;
    mem = &make<HostMemory>("mem", 1ull << 20, kMsi);
    link = &make<PcieLink>("pcie", gen1x1());
    cpu = &make<CpuCore>("cpu", cpu_params(cfg), *mem);
    regs = &make<test::RegTarget>("regs");
    dev = &make<test::ScriptedInitiator>("dev");
    dev->socket.bind(link->dev);
    link->mem.bind(mem->tgt);
    link->regs.bind(regs->socket);
    cpu->mmio.bind(link->host);
    link->set_lazy_writes(true);
    cpu->resumed = [this] { link->apply_posted(); };
    cpu->dma_time = [this] { return link->mem_access_ps(); };
    cpu->quiet_until = [this] { return link->quiet_until_ps(); };
    cpu->on_violation = [this](const std::string &c, const std::string &m, double) {
      violations.push_back(c + ": " + m);
    };
    /* The device writes 64 B of 0xAB at 0x5000 at 0 ns: committed at 436 ns. */
    dev->script = [](test::ScriptedInitiator &d) {
      std::vector<uint8_t> buf(64, 0xAB);
      d.transfer(tlm::TLM_WRITE_COMMAND, 0x5000, buf.data(), 64);
    };
  }
  void run(uint64_t until_ps = 10000000) { sc_core::sc_start(ps(until_ps)); }
};

TEST(PcieLinkLazy, CoreLoadsBeforeAndAfterTheCommitSeeOldThenNewBytesDatedByTheCommit) {
  CoreBench b(true);
  /* The window ends 1 ps after the commit: the DDIO fill belongs to it only
   * if dated by the commit (436 ns), not by when the core observed it. */
  b.cpu->set_window(0, 436001);
  uint64_t v[2] = {99, 99}, t[2] = {0, 0};
  b.cpu->set_program([&](CpuCore &c) {
    c.charge(871);            /* local 435.5 ns */
    v[0] = c.load(0x5000, 1); /* waits (not before the link's 100 ns bound) to 435.5 ns: old bytes */
    t[0] = now_ps();
    v[1] = c.load(0x5000, 1); /* the miss took 90 ns: waits to 525.5 ns, after the commit */
    t[1] = now_ps();
  });
  b.run();
  EXPECT_EQ(t[0], 435500u);
  EXPECT_EQ(v[0], 0u);
  EXPECT_EQ(t[1], 525500u);
  EXPECT_EQ(v[1], 0xABu);
  EXPECT_EQ(b.cpu->total().ddio_fills, 1u);
  EXPECT_EQ(b.cpu->window().ddio_fills, 1u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieLinkLazy, CoreLoadExactlyAtTheCommitSeesTheWrite) {
  CoreBench b(true);
  uint64_t v[2] = {99, 99}, t[2] = {0, 0};
  b.cpu->set_program([&](CpuCore &c) {
    c.charge(692);            /* local 346 ns */
    v[0] = c.load(0x5000, 1); /* at 346 ns: old bytes; a miss, 90 ns: local 436 ns */
    t[0] = now_ps();
    v[1] = c.load(0x5000, 1); /* exactly at the commit: not before the quiet time, waits to 436 ns */
    t[1] = now_ps();
  });
  b.run();
  EXPECT_EQ(v[0], 0u);
  EXPECT_EQ(t[0], 346000u);
  EXPECT_EQ(v[1], 0xABu);
  EXPECT_EQ(t[1], 436000u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieLinkLazy, StaleLineReportGivesTheDevicesCommitTime) {
  CoreBench b(false);
  uint64_t v[2] = {99, 99};
  b.cpu->set_program([&](CpuCore &c) {
    v[0] = c.load(0x5000, 1); /* at 0 ns: caches the line (clean, old bytes) */
    c.charge(1220);           /* local 90 + 610 = 700 ns */
    v[1] = c.load(0x5000, 1); /* waits to 700 ns; the write lands (436 ns) behind the cached copy */
  });
  b.run();
  EXPECT_EQ(v[0], 0u);
  EXPECT_EQ(v[1], 0u); /* the core's stale copy */
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("rewrote at 436.000 ns"), std::string::npos) << b.violations[0];
}

}  // namespace
}  // namespace nicsim
