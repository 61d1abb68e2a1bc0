// test_cpu_stack.cpp: the core model's ops for the network stack's own work
// (docs/host.md, "The stack"): instructions at the core's IPC, header reads
// that miss lines the device wrote (an in-order core stalls on each, an
// out-of-order one overlaps them), unaligned loads that trap, and the
// stream-read bound of a copy (misses over the memory-level parallelism).
#include <gtest/gtest.h>

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
using test::ps;

/* A core at 2 GHz on 1 MiB of memory, DRAM 90 ns = 180 cycles. */
struct Core {
  nicsim_config cfg;
  CpuCore *cpu;
  test::RegTarget *regs;

  explicit Core(void (*tweak)(nicsim_config &) = nullptr) {
    test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.memory.size_mb = 1;
    cfg.memory.dram_latency_ns = 90;
    if (tweak) tweak(cfg);
    HostMemory &mem = make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    cpu = &make<CpuCore>("cpu", cpu_params(cfg), mem);
    regs = &make<test::RegTarget>("regs");
    cpu->mmio.bind(regs->socket);
    make<test::ScriptedInitiator>("rc").socket.bind(mem.tgt); /* the device side, idle */
  }
  void run() { sc_core::sc_start(ps(100000000)); }
};

template <class F>
double cost(CpuCore &c, F f) {
  const double before = c.busy_cycles(false);
  f();
  return c.busy_cycles(false) - before;
}

void in_order(nicsim_config &c) {
  c.cpu.out_of_order = false;
  c.cpu.kernel_ipc = 0.5;
}
void out_of_order(nicsim_config &c) {
  c.cpu.out_of_order = true;
  c.cpu.mlp_lines = 10;
}

TEST(CpuStack, ExecTurnsInstructionsIntoCyclesAtTheCoresIpcInItsBucket) {
  Core k(in_order);
  const int rx = nk_prof_id("test_stack_rx", NK_CLASS_RX);
  const int part = nk_prof_id("test_stack_part", NK_CLASS_OTHER);
  double got = 0;
  k.cpu->set_program([&](CpuCore &c) {
    const int prev = nk_prof_enter(rx);
    got = cost(c, [&] { c.exec(1000, 200, part); }); /* 1000 / 0.5 + 200 */
    c.exec(100, 0, -1);                               /* self time of rx: 200 */
    nk_prof_leave(prev);
  });
  k.run();
  EXPECT_DOUBLE_EQ(got, 2200);
  EXPECT_DOUBLE_EQ(k.cpu->bucket_cycles(part, false), 2200);
  EXPECT_DOUBLE_EQ(k.cpu->bucket_cycles(rx, false), 200);
  EXPECT_DOUBLE_EQ(k.cpu->class_cycles(NK_CLASS_RX, false), 2400) << "the caller's class";
}

/* Three lines of headers the device just wrote (not in the cache): the
 * in-order core waits for each in turn, the out-of-order one for the first
 * while the others overlap; read again, they hit and cost nothing beyond the
 * instructions. A buffer invalidated for the next DMA misses again. (One
 * SystemC simulation per test process: each kind is its own test.) */
void header_misses(bool ooo) {
  Core k(ooo ? out_of_order : in_order);
  std::vector<double> got;
  k.cpu->set_program([&](CpuCore &c) {
    got.push_back(cost(c, [&] { c.read_headers(0x4000 + 40, 150, 0); })); /* lines 0x4000, 0x4040, 0x4080 */
    got.push_back(cost(c, [&] { c.read_headers(0x4000 + 40, 150, 0); }));
    c.cache_maint(0x4000, 192, NK_CACHE_INVALIDATE);
    got.push_back(cost(c, [&] { c.read_headers(0x4000 + 40, 60, 0); })); /* 2 lines again */
  });
  k.run();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_DOUBLE_EQ(got[0], ooo ? 180 : 3 * 180);
  EXPECT_DOUBLE_EQ(got[1], 0);
  EXPECT_DOUBLE_EQ(got[2], ooo ? 180 : 2 * 180);
  EXPECT_EQ(k.cpu->total().cache_misses, 5u);
}

TEST(CpuStack, HeaderMissesStallAnInOrderCoreForEachLine) { header_misses(false); }
TEST(CpuStack, HeaderMissesOverlapOnAnOutOfOrderCore) { header_misses(true); }

double g_trap; /* unaligned()'s trap cost, for the tweak (a function pointer) */
void unaligned(double trap) {
  g_trap = trap;
  Core k([](nicsim_config &c) { c.cpu.unaligned_trap_cycles = g_trap; });
  double got = -1;
  k.cpu->set_program([&](CpuCore &c) {
    c.read_headers(0x8000, 64, 0); /* resident */
    got = cost(c, [&] { c.read_headers(0x8000, 64, 3); });
  });
  k.run();
  EXPECT_DOUBLE_EQ(got, 3 * trap);
  EXPECT_EQ(k.cpu->total().unaligned_traps, trap > 0 ? 3u : 0u);
}

TEST(CpuStack, UnalignedHeaderLoadsTrapOnACoreThatCannotLoadThem) { unaligned(700); }
TEST(CpuStack, UnalignedHeaderLoadsCostNothingWhereTheHardwareDoesThem) { unaligned(0); }

/* A copy's source stream: each missed line costs the DRAM latency over the
 * lines the core keeps in flight; nothing is charged (the copy's price is the
 * longer of this and the copy routine), and the lines are then resident. */
TEST(CpuStack, StreamReadCyclesAreMissesOverMlpAndChargeNothing) {
  Core k([](nicsim_config &c) { c.cpu.mlp_lines = 4; });
  std::vector<double> got;
  double charged = -1;
  k.cpu->set_program([&](CpuCore &c) {
    charged = cost(c, [&] {
      got.push_back(c.stream_read_cycles(0x10000, 1024)); /* 16 lines missed */
      got.push_back(c.stream_read_cycles(0x10000, 1024)); /* resident */
    });
  });
  k.run();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_DOUBLE_EQ(got[0], 16 * 180 / 4.0);
  EXPECT_DOUBLE_EQ(got[1], 0);
  EXPECT_DOUBLE_EQ(charged, 0);
}

}  // namespace
}  // namespace nicsim
