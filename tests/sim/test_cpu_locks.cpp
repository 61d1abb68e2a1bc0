// test_cpu_locks.cpp: the CPU model's spinlocks (cpu.locking txq, docs/host.md
// "Cores"): two cores contending for one lock spin exactly the holder's
// remaining hold time (busy cycles in bucket lock_wait), a release hands the
// lock to the waiter rather than back to the releaser, and taking a lock
// the core holds or releasing one it does not hold is a violation naming the
// core's component. Each TEST is its own process (gtest_discover_tests).
#include <gtest/gtest.h>

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

/* Two cores at 2 GHz (500 ps per cycle), quantum 1 us, cpu.locking txq. */
struct LockBench {
  nicsim_config cfg;
  HostMemory *mem;
  CpuCore *cpu;
  test::RegTarget *regs;
  test::ScriptedInitiator *rc; /* stands for the root complex on memory's target socket */
  std::vector<std::string> violations;
  std::vector<double> violation_ns;

  explicit LockBench(int locking = NC_LOCKING_TXQ) {
    test::init_systemc();
    nc_config_defaults(&cfg);
    cfg.cpu.clock_mhz = 2000;
    cfg.cpu.quantum_ns = 1000;
    cfg.cpu.cores = 2;
    cfg.cpu.app_core = 1;
    cfg.cpu.locking = locking;
    cfg.memory.size_mb = 1;
    mem = &make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    cpu = &make<CpuCore>("cpu", cpu_params(cfg), *mem);
    regs = &make<test::RegTarget>("regs");
    rc = &make<test::ScriptedInitiator>("rc");
    cpu->mmio.bind(regs->socket);
    rc->socket.bind(mem->tgt);
    cpu->on_violation = [this](const std::string &c, const std::string &m, double t_ns) {
      violations.push_back(c + ": " + m);
      violation_ns.push_back(t_ns);
    };
  }
  void run(uint64_t until_ps = 100000000) { sc_core::sc_start(ps(until_ps)); }
  /* Cycles core c spun for locks (whole run). */
  double wait(int c) const { return cpu->core_bucket_cycles(c, cpu->lock_wait_bucket(), false); }
};

TEST(CpuLocks, TxqModeGivesTheKernelASpinOpAndBigModeDoesNot) {
  LockBench txq;
  EXPECT_TRUE(txq.cpu->txq_locking());
  EXPECT_NE(txq.cpu->platform().ops->spin, nullptr);
}

TEST(CpuLocks, BigModeHasNoSpinOp) {
  LockBench big(NC_LOCKING_BIG);
  EXPECT_FALSE(big.cpu->txq_locking());
  EXPECT_EQ(big.cpu->platform().ops->spin, nullptr); /* kernel spinlocks cost nothing under the big lock */
}

TEST(CpuLocks, WaiterSpinsTheHoldersRemainingHoldTimeWhileTheHolderRunsAhead) {
  /* Core 0 takes spinlock 1 at 0 and holds it for 1000 cycles (500 ns,
   * under the 1 us quantum: its local time runs ahead, no sync), releasing
   * at 500 ns. Core 1 works 100 cycles (50 ns), then wants the lock: it
   * synchronises to 50 ns and finds it free but released at 500 ns (the
   * holder's local time), so it spins 450 ns = 900 cycles. */
  LockBench b;
  uint64_t got_ps = 0;
  b.cpu->set_program([](CpuCore &c) {
    c.spin(1, true);
    c.charge(1000);
    c.spin(1, false);
  });
  b.cpu->set_app_program([&](CpuCore &c) {
    c.charge(100);
    c.spin(1, true);
    got_ps = c.local_time_ps();
    c.spin(1, false);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty()) << b.violations[0];
  EXPECT_EQ(got_ps, 500000u);
  EXPECT_DOUBLE_EQ(b.wait(1), 900.0);
  EXPECT_DOUBLE_EQ(b.wait(0), 0.0);
  /* The spin is busy time: core 1 was busy 100 + 900 cycles. */
  EXPECT_DOUBLE_EQ(b.cpu->core_busy_cycles(1, false), 1000.0);
}

TEST(CpuLocks, WaiterSpinsUntilASuspendedHolderReleases) {
  /* Core 0 takes the lock and works 3000 cycles (1500 ns): past the 1 us
   * quantum its thread synchronises (suspends) at 1500 ns while holding the
   * lock. Core 1 wants it after 100 cycles (50 ns), finds it held, and spins
   * until core 0 resumes and releases it at 1500 ns: 1450 ns = 2900 cycles,
   * exactly the hold time left when it asked. */
  LockBench b;
  uint64_t got_ps = 0;
  b.cpu->set_program([](CpuCore &c) {
    c.spin(3, true);
    c.charge(3000);
    c.spin(3, false);
  });
  b.cpu->set_app_program([&](CpuCore &c) {
    c.charge(100);
    c.spin(3, true);
    got_ps = c.local_time_ps();
    c.spin(3, false);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty()) << b.violations[0];
  EXPECT_EQ(got_ps, 1500000u);
  EXPECT_DOUBLE_EQ(b.wait(1), 2900.0);
  EXPECT_DOUBLE_EQ(b.wait(0), 0.0);
}

TEST(CpuLocks, AReleaseHandsTheLockToTheWaiterNotBackToTheReleaser) {
  /* Linux's spinlocks are fair (ticket, then queued locks). Core 0 holds
   * lock 4 until 1500 ns (as above), releases it and at once asks again.
   * Core 1 has waited since 50 ns, so the release hands it the lock at
   * 1500 ns (2900 cycles of spin); it holds it 200 cycles (100 ns) and its
   * release at 1600 ns hands it back to core 0, which spun those 100 ns
   * (200 cycles). An unfair lock would let core 0 take it again at 1500 ns. */
  LockBench b;
  uint64_t got0 = 0, got1 = 0;
  b.cpu->set_program([&](CpuCore &c) {
    c.spin(4, true);
    c.charge(3000);
    c.spin(4, false);
    c.spin(4, true);
    got0 = c.local_time_ps();
    c.spin(4, false);
  });
  b.cpu->set_app_program([&](CpuCore &c) {
    c.charge(100);
    c.spin(4, true);
    got1 = c.local_time_ps();
    c.charge(200);
    c.spin(4, false);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty()) << b.violations[0];
  EXPECT_EQ(got1, 1500000u);
  EXPECT_EQ(got0, 1600000u);
  EXPECT_DOUBLE_EQ(b.wait(1), 2900.0);
  EXPECT_DOUBLE_EQ(b.wait(0), 200.0);
}

TEST(CpuLocks, DifferentLocksDoNotContend) {
  /* The same timing on two different ids: nobody waits. */
  LockBench b;
  b.cpu->set_program([](CpuCore &c) {
    c.spin(1, true);
    c.charge(3000);
    c.spin(1, false);
  });
  b.cpu->set_app_program([](CpuCore &c) {
    c.charge(100);
    c.spin(2, true);
    c.spin(2, false);
  });
  b.run();
  EXPECT_TRUE(b.violations.empty());
  EXPECT_DOUBLE_EQ(b.wait(1), 0.0);
}

TEST(CpuLocks, TakingALockTheCoreHoldsIsAViolation) {
  LockBench b;
  b.cpu->set_program([](CpuCore &c) {
    c.charge(200); /* 100 ns */
    c.spin(5, true);
    c.spin(5, true);
  });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("cpu: core 0 took spinlock 5, which it already holds"), std::string::npos)
      << b.violations[0];
  EXPECT_DOUBLE_EQ(b.violation_ns[0], 100.0);
}

TEST(CpuLocks, ReleasingALockNotHeldIsAViolation) {
  LockBench b;
  b.cpu->set_program([](CpuCore &c) { c.spin(7, false); });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("cpu: core 0 released spinlock 7, which no core holds"), std::string::npos)
      << b.violations[0];
}

TEST(CpuLocks, ReleasingAnotherCoresLockIsAViolation) {
  /* Core 0 takes lock 2 and keeps it; core 1 (after 100 cycles) releases it. */
  LockBench b;
  b.cpu->set_program([](CpuCore &c) {
    c.spin(2, true);
    c.charge(3000);
  });
  b.cpu->set_app_program([](CpuCore &c) {
    c.charge(100);
    c.spin(2, false);
  });
  b.run();
  ASSERT_FALSE(b.violations.empty());
  EXPECT_NE(b.violations[0].find("core 1 released spinlock 2, held by core 0"), std::string::npos)
      << b.violations[0];
}

TEST(CpuLocks, AnIdBeyondTheTableIsAViolation) {
  LockBench b;
  b.cpu->set_program([](CpuCore &c) { c.spin(NK_SPIN_MAX + 1, true); });
  b.run();
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("spinlock id 65"), std::string::npos) << b.violations[0];
}

}  // namespace
}  // namespace nicsim
