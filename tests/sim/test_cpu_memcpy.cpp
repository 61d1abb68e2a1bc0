// test_cpu_memcpy.cpp: memcpy cost by length, relative alignment and CPU kind:
// the path each kind's memcpy takes, the aligned/misaligned cost ratio the
// parameters imply, and the core's counters and charges for copies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"
#include "cpu/cpu_core.h"
#include "cpu/memcpy_cost.h"
#include "memory/host_memory.h"
#include "sim/model_params.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

MemcpyParams params(CpuKind kind) {
  MemcpyParams p;
  p.kind = kind;
  p.call_cycles = 0;
  p.cycles_per_byte = 0.25;
  p.misaligned_cycles_per_byte = 0.375;
  p.byte_loop_cycles_per_byte = 6;
  return p;
}

TEST(Memcpy, X86AndArm64RatioIsTheirPerByteRates) {
  for (CpuKind kind : {CpuKind::X86, CpuKind::Arm64}) {
    const MemcpyParams p = params(kind);
    const double aligned = memcpy_cycles(p, 0x1000, 0x2000, 1514);
    const double misaligned = memcpy_cycles(p, 0x1002, 0x2000, 1514); /* skb->data & 7 == 2 */
    EXPECT_DOUBLE_EQ(aligned, 1514 * 0.25);
    EXPECT_DOUBLE_EQ(misaligned, 1514 * 0.375);
    EXPECT_DOUBLE_EQ(misaligned / aligned, p.misaligned_cycles_per_byte / p.cycles_per_byte);
  }
}

TEST(Memcpy, RiscvFallsBackToBytesWhenNotCoAligned) {
  const MemcpyParams p = params(CpuKind::Riscv);
  /* 1536 B, both 8-aligned: twelve 128 B blocks, all word copies. */
  EXPECT_DOUBLE_EQ(memcpy_cycles(p, 0x1000, 0x2000, 1536), 1536 * 0.25);
  /* (dst ^ src) & 7 == 2 (the stmmac case): the lb/sb loop for every byte. */
  EXPECT_DOUBLE_EQ(memcpy_cycles(p, 0x1002, 0x2000, 1536), 1536 * 6.0);
  EXPECT_DOUBLE_EQ(memcpy_cycles(p, 0x1002, 0x2000, 1536) / memcpy_cycles(p, 0x1000, 0x2000, 1536),
                   p.byte_loop_cycles_per_byte / p.cycles_per_byte);
}

TEST(Memcpy, RiscvPlanFollowsMemcpyS) {
  /* Co-aligned at 2 mod 8, 1514 B: 6 head bytes, 11 blocks (1408 B), a
   * 100 B tail whose ends are 4-aligned (word loop). */
  MemcpyPlan a = memcpy_plan(CpuKind::Riscv, 0x1002, 0x2002, 1514);
  EXPECT_EQ(a.byte_loop_bytes, 6u);
  EXPECT_EQ(a.bulk_bytes, 1408u + 100u);
  EXPECT_EQ(a.misaligned_bytes, 0u);
  /* Short copy (< 128 B), all 4-aligned: the word tail loop. */
  MemcpyPlan b = memcpy_plan(CpuKind::Riscv, 0x1004, 0x2000, 64);
  EXPECT_EQ(b.bulk_bytes, 64u);
  EXPECT_EQ(b.byte_loop_bytes, 0u);
  /* Short copy with an odd end: bytes. */
  MemcpyPlan c = memcpy_plan(CpuKind::Riscv, 0x1000, 0x2000, 63);
  EXPECT_EQ(c.byte_loop_bytes, 63u);
  /* 4-aligned but not 8-co-aligned, long: tail loop in words. */
  MemcpyPlan d = memcpy_plan(CpuKind::Riscv, 0x1004, 0x2000, 256);
  EXPECT_EQ(d.bulk_bytes, 256u);
  /* x86 never uses the byte loop. */
  MemcpyPlan e = memcpy_plan(CpuKind::X86, 0x1001, 0x2000, 63);
  EXPECT_EQ(e.misaligned_bytes, 63u);
  EXPECT_EQ(e.byte_loop_bytes + e.bulk_bytes, 0u);
}

TEST(Memcpy, RiscvUserCopyFollowsUaccessSBeforeV514) {
  /* A TCP payload at skb->data + 66 (skb->data & 7 == 2, so & 7 == 4) into
   * an 8-aligned user buffer: not co-aligned, so all 1448 B byte by byte,
   * where memcpy.S would use its 4-byte word tail loop. */
  MemcpyPlan a = usercopy_plan(CpuKind::Riscv, 0x10000, 0x2044, 1448);
  EXPECT_EQ(a.byte_loop_bytes, 1448u);
  EXPECT_EQ(a.bulk_bytes, 0u);
  EXPECT_EQ(memcpy_plan(CpuKind::Riscv, 0x10000, 0x2044, 1448).byte_loop_bytes, 0u);
  /* Co-aligned at 4 mod 8, 1448 B: 4 head bytes, 180 words (1440 B), 4 tail bytes. */
  MemcpyPlan b = usercopy_plan(CpuKind::Riscv, 0x10004, 0x2044, 1448);
  EXPECT_EQ(b.byte_loop_bytes, 8u);
  EXPECT_EQ(b.bulk_bytes, 1440u);
  /* Co-aligned but shorter than a word after alignment: bytes. */
  MemcpyPlan c = usercopy_plan(CpuKind::Riscv, 0x10003, 0x2003, 5);
  EXPECT_EQ(c.byte_loop_bytes, 5u);
  EXPECT_EQ(c.bulk_bytes, 0u);
  /* Other kinds copy to user space as their memcpy does. */
  const MemcpyParams x = params(CpuKind::Arm64);
  EXPECT_DOUBLE_EQ(usercopy_cycles(x, 0x10000, 0x2044, 1448), memcpy_cycles(x, 0x10000, 0x2044, 1448));
  /* Cost: the riscv misaligned user copy at the byte-loop rate. */
  EXPECT_DOUBLE_EQ(usercopy_cycles(params(CpuKind::Riscv), 0x10000, 0x2044, 1448), 1448 * 6.0);
}

TEST(Memcpy, CallCostIsPaidOncePerCall) {
  MemcpyParams p = params(CpuKind::X86);
  p.call_cycles = 20;
  EXPECT_DOUBLE_EQ(memcpy_cycles(p, 0x1000, 0x2000, 0), 20);
  EXPECT_DOUBLE_EQ(memcpy_cycles(p, 0x1000, 0x2000, 8), 22);
}

TEST(Memcpy, CoreChargesAndCountsCopiesByAlignment) {
  test::init_systemc();
  nicsim_config cfg;
  nc_config_defaults(&cfg);
  cfg.cpu.kind = NC_CPU_RISCV;
  cfg.cpu.clock_mhz = 1000;
  cfg.cpu.memcpy_call_cycles = 30;
  cfg.cpu.memcpy_cycles_per_byte = 0.25;
  cfg.cpu.memcpy_byte_loop_cycles_per_byte = 6;
  cfg.memory.size_mb = 1;
  HostMemory &mem = test::make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
  CpuCore &cpu = test::make<CpuCore>("cpu", cpu_params(cfg), mem);
  test::RegTarget &regs = test::make<test::RegTarget>("regs");
  test::ScriptedInitiator &rc = test::make<test::ScriptedInitiator>("rc");
  cpu.mmio.bind(regs.socket);
  rc.socket.bind(mem.tgt);
  std::vector<std::string> violations;
  cpu.on_violation = [&](const std::string &c, const std::string &m, double) { violations.push_back(c + m); };
  double aligned = 0, misaligned = 0;
  for (int i = 0; i < 1536; i++) mem.data()[0x20000 + i] = static_cast<uint8_t>(i * 7);
  cpu.set_program([&](CpuCore &c) {
    double t = c.busy_cycles(false);
    c.copy(0x10000, 0x20000, 1536);
    aligned = c.busy_cycles(false) - t;
    t = c.busy_cycles(false);
    c.copy(0x30002, 0x20000, 1536);
    misaligned = c.busy_cycles(false) - t;
  });
  sc_core::sc_start(test::ps(100000000));
  EXPECT_TRUE(violations.empty());
  EXPECT_DOUBLE_EQ(aligned, 30 + 1536 * 0.25);
  EXPECT_DOUBLE_EQ(misaligned, 30 + 1536 * 6.0);
  EXPECT_EQ(cpu.total().memcpy_bytes_aligned, 1536u);
  EXPECT_EQ(cpu.total().memcpy_bytes_misaligned, 1536u);
  EXPECT_EQ(cpu.total().copies, 2u);
  EXPECT_EQ(mem.data()[0x30002 + 100], static_cast<uint8_t>(700));
  EXPECT_EQ(mem.data()[0x10000 + 1535], static_cast<uint8_t>(1535 * 7));
}

}  // namespace
}  // namespace nicsim
