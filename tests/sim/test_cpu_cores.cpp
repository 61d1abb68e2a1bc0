// test_cpu_cores.cpp: whole runs with cpu.cores (docs/host.md, "Cores"): one
// core is the same run as without the key; two cores put the application's
// TX stack cost and the copy to user space on the application core and raise
// a CPU-bound TX rate; the kernel lock is contended without two cores ever
// inside the kernel (a violation would fail the run); determinism,
// conservation, and cpu.util as the average over the cores. Each run in its
// own process (run_ok once per TEST, run_in_child for more).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::expect_clean_run;
using nicsim::test::expect_conservation;
using nicsim::test::expect_same_metrics;
using nicsim::test::metric;
using nicsim::test::run_in_child;
using nicsim::test::run_ok;

/* Short runs on the default platform (generic NIC, 10 GbE, x86 at 2 GHz). */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"run.duration_us=1000", "run.warmup_us=200", "run.drain_us=1000"}, sets);
}

/* TX of minimum frames: the sending application is CPU-bound (a frame costs
 * udp_sendmsg, ip_output and __alloc_skb, about 1700 instructions at IPC 2,
 * its 300-cycle system call and 0.25 x 60 cycles of copy, plus the driver's
 * xmit: about 0.7 us at 2 GHz, against 67 ns on the wire). */
nicsim_config tx_cfg(std::initializer_list<const char *> sets) {
  nicsim_config c = make_cfg({"traffic.mode=tx", "traffic.frame_bytes=64"});
  nc_error e;
  for (const char *s : sets) EXPECT_EQ(nc_config_set(&c, s, &e), 0) << s << ": " << e.msg;
  EXPECT_EQ(nc_config_check(&c, &e), 0) << e.msg;
  return c;
}

double metric_or0(const nicsim_results &r, const char *name) {
  double v = 0;
  return nicsim_results_get(&r, name, &v) ? v : 0;
}

TEST(CpuCores, OneCoreIsTheRunWithoutTheKey) {
  /* cpu.cores = 1 (and an app_core that one core ignores) must not change a
   * single figure, RX and TX: the same code path as before the key existed. */
  for (const char *mode : {"traffic.mode=rx", "traffic.mode=bidir"}) {
    SCOPED_TRACE(mode);
    nicsim_results absent, one;
    ASSERT_TRUE(run_in_child(make_cfg({mode}), &absent));
    ASSERT_TRUE(run_in_child(make_cfg({mode, "cpu.cores=1", "cpu.app_core=5"}), &one));
    expect_same_metrics(absent, one);
    double v;
    EXPECT_FALSE(nicsim_results_get(&one, "cpu.core0.util", &v)); /* per-core extras only with 2 or more */
    EXPECT_FALSE(nicsim_results_get(&one, "cpu.lock_wait_cycles", &v));
  }
}

TEST(CpuCores, TwoCoresPutTheSenderOnItsCoreAndRaiseCpuBoundTx) {
  nicsim_results one, two;
  ASSERT_TRUE(run_in_child(tx_cfg({}), &one));
  run_ok(tx_cfg({"cpu.cores=2"}), &two);
  expect_conservation(two);
  /* One core: the sender shares it with the interrupts and TX cleaning, and
   * the core is saturated. */
  EXPECT_GT(metric(one, "cpu.util"), 0.99);
  /* Two cores: the application core is saturated by the sender alone ... */
  const double u0 = metric(two, "cpu.core0.util"), u1 = metric(two, "cpu.core1.util");
  EXPECT_GT(u1, 0.99);
  /* ... core 0 only takes interrupts and cleans (a few % here) ... */
  EXPECT_LT(u0, 0.2);
  EXPECT_GT(u0, 0);
  /* ... so the sender has more cycles: more frames. */
  EXPECT_GT(metric(two, "tx.pkts"), metric(one, "tx.pkts"));
  /* Every send (udp_sendmsg, ip_output) and xmit cycle is the application core's. */
  EXPECT_GT(metric(two, "cpu.core1.profile.udp_sendmsg"), 0.3);
  EXPECT_GT(metric(two, "cpu.core1.profile.ip_output"), 0);
  EXPECT_EQ(metric_or0(two, "cpu.core0.profile.udp_sendmsg"), 0);
  EXPECT_EQ(metric_or0(two, "cpu.core0.profile.ip_output"), 0);
  EXPECT_EQ(metric_or0(two, "cpu.core0.profile.generic_xmit"), 0);
  EXPECT_GT(metric(two, "cpu.core1.profile.generic_xmit"), 0);
  /* The interrupt work stays on core 0. */
  EXPECT_GT(metric(two, "cpu.core0.profile.irq_entry"), 0);
  EXPECT_EQ(metric_or0(two, "cpu.core1.profile.irq_entry"), 0);
  /* cpu.util is the average of the cores, cpu.busy_cycles their sum. */
  EXPECT_NEAR(metric(two, "cpu.util"), (u0 + u1) / 2, 1e-9);
  const double win_cycles = 800e-6 * 2e9; /* 800 us window at 2000 MHz */
  EXPECT_NEAR(metric(two, "cpu.busy_cycles"), (u0 + u1) * win_cycles, 2);
  /* The kernel lock was contended (core 0's interrupts against the xmit)
   * and the spin is busy time of the profile. */
  EXPECT_GT(metric(two, "cpu.lock_wait_cycles"), 0);
  EXPECT_NEAR(metric(two, "cpu.profile.lock_wait") * metric(two, "cpu.busy_cycles"),
              metric(two, "cpu.lock_wait_cycles"), 1);
}

TEST(CpuCores, RxCopyToUserRunsOnTheApplicationCore) {
  nicsim_results one, two;
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=rx"}), &one));
  run_ok(make_cfg({"traffic.mode=rx", "cpu.cores=2"}), &two);
  expect_conservation(two);
  /* Line rate either way (one core is not saturated by 10 GbE of 1518 B). */
  EXPECT_EQ(metric(two, "rx.pkts"), metric(one, "rx.pkts"));
  EXPECT_EQ(metric(two, "rx.drops"), 0);
  /* In RX the application core only reads: all its cycles are the
   * reader's parts (the recvmsg syscall, its __schedule, the copy and the
   * skb's free), and the copy runs on no other core. */
  EXPECT_NEAR(metric(two, "cpu.core1.profile.udp_recvmsg") + metric(two, "cpu.core1.profile.__schedule") +
                  metric(two, "cpu.core1.profile.copy_to_user") + metric(two, "cpu.core1.profile.kfree_skb"),
              1.0, 1e-9);
  EXPECT_GT(metric(two, "cpu.core1.profile.copy_to_user"), 0);
  EXPECT_EQ(metric_or0(two, "cpu.core0.profile.copy_to_user"), 0);
  /* The copy costs no more than on one core, but for the copy of a poll's
   * batch straddling a window edge, which lands on either side of it (up to
   * one batch, driver.napi_budget, 64 frames). It may cost less: the copy is
   * bounded by the lines of the skb that miss the cache (stream_read_cycles),
   * and a reader on its own core copies each skb soon after the softirq
   * wrote it, where one core copies a whole batch only after the poll, with
   * more of it evicted. Never below half: the copy routine itself remains. */
  const double copy_cycles = metric(two, "cpu.core1.profile.copy_to_user") * metric(two, "cpu.core1.util") * 800e-6 * 2e9;
  const double copy_one = metric(one, "cpu.profile.copy_to_user") * metric(one, "cpu.busy_cycles");
  const double per_frame = copy_one / metric(one, "rx.pkts");
  EXPECT_LE(copy_cycles, copy_one + 64 * per_frame);
  EXPECT_GE(copy_cycles, 0.5 * copy_one);
  /* Line rate for the 800 us window: 10e9 / (1538 x 8) x 800e-6 = 650.2
   * frames, and no more copied than that plus one batch. */
  EXPECT_LE(copy_cycles, (650.2 + 64) * per_frame);
  /* The reader takes no kernel lock: nothing to spin for on RX. */
  EXPECT_EQ(metric(two, "cpu.lock_wait_cycles"), 0);
}

TEST(CpuCores, TcpBidirUnderTheLockIsCleanAndDeterministic) {
  /* Both cores enter the kernel all the time (softirq and ACKs on core 0,
   * the sender's xmit on core 1): the lock asserts one core inside, which
   * would fail the run with a violation. */
  const nicsim_config cfg = make_cfg({"traffic.protocol=tcp", "traffic.mode=bidir", "traffic.frame_bytes=1518",
                                      "cpu.cores=2"});
  nicsim_results a, b;
  ASSERT_TRUE(run_in_child(cfg, &b)); /* before this process runs its own simulation */
  run_ok(cfg, &a);
  expect_conservation(a);
  EXPECT_GT(metric(a, "cpu.lock_wait_cycles"), 0);
  EXPECT_GT(metric(a, "rx.pkts"), 0);
  EXPECT_GT(metric(a, "tx.pkts"), 0);
  expect_same_metrics(a, b);
}

TEST(CpuCores, IdleCoresCountInTheAverage) {
  /* Four cores, the application on core 3: cores 1 and 2 stay idle and
   * cpu.util is the sum over four. */
  nicsim_results r;
  run_ok(make_cfg({"traffic.mode=bidir", "cpu.cores=4", "cpu.app_core=3"}), &r);
  expect_conservation(r);
  EXPECT_EQ(metric(r, "cpu.core1.util"), 0);
  EXPECT_EQ(metric(r, "cpu.core2.util"), 0);
  EXPECT_GT(metric(r, "cpu.core3.profile.udp_sendmsg"), 0);
  EXPECT_NEAR(metric(r, "cpu.util"), (metric(r, "cpu.core0.util") + metric(r, "cpu.core3.util")) / 4, 1e-9);
}

TEST(CpuCores, ApplicationCoreMustExist) {
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error e;
  ASSERT_EQ(nc_config_set(&c, "cpu.cores=2", &e), 0);
  ASSERT_EQ(nc_config_set(&c, "cpu.app_core=2", &e), 0);
  /* The host's rule (CpuCore::Params::validate), not one across layers. */
  EXPECT_EQ(nc_config_check(&c, &e), 0) << e.msg;
  EXPECT_NE(nicsim_check_config(&c, &e), 0);
  EXPECT_NE(std::string(e.msg).find("cpu.app_core"), std::string::npos) << e.msg;
  ASSERT_EQ(nc_config_set(&c, "cpu.app_core=1", &e), 0);
  EXPECT_EQ(nicsim_check_config(&c, &e), 0) << e.msg;
  EXPECT_NE(nc_config_set(&c, "cpu.cores=65", &e), 0); /* max 64 */
  EXPECT_NE(nc_config_set(&c, "cpu.cores=0", &e), 0);
}


/* ---- cpu.locking txq (docs/host.md, "Cores: the lock models") ------------ */

/* Each family's driver with TX and bidir traffic on 2 and 4 cores: without
 * the big lock every frame is still accounted for, the run passes every
 * ownership and invariant check (a violation or driver fault fails the run),
 * the TX queue lock and the drivers' locks are balanced (a double take or a
 * release of a free lock is a violation), and the application core spins
 * less than under the big lock, where core 0's interrupt handler and polls
 * hold it against every xmit. */
class TxqLocking : public ::testing::TestWithParam<const char *> {};

TEST_P(TxqLocking, ConservesPassesChecksAndWaitsLessThanTheBigLock) {
  const std::string fam = GetParam();
  for (const char *cores : {"2", "4"}) {
    for (const char *mode : {"tx", "bidir"}) {
      SCOPED_TRACE(fam + " cores=" + cores + " mode=" + mode);
      std::vector<std::string> sets = {"run.duration_us=1000", "run.warmup_us=200", "run.drain_us=1000",
                                       "nic.family=" + fam, "driver.name=" + fam,
                                       std::string("traffic.mode=") + mode, std::string("cpu.cores=") + cores};
      if (fam == "mvneta") sets.push_back("nic.desc_spacing=32");
      nicsim_results big, txq;
      sets.push_back("cpu.locking=big");
      ASSERT_TRUE(run_in_child(checked_config(sets), &big));
      sets.back() = "cpu.locking=txq";
      ASSERT_TRUE(run_in_child(checked_config(sets), &txq));
      expect_conservation(txq);
      EXPECT_GT(metric(txq, "tx.pkts"), 0);
      EXPECT_GT(metric(big, "cpu.lock_wait_cycles"), 0);
      EXPECT_LT(metric(txq, "cpu.lock_wait_cycles"), metric(big, "cpu.lock_wait_cycles"));
      /* The application's xmit stays on its core. */
      EXPECT_GT(metric(txq, "cpu.core1.profile.udp_sendmsg"), 0);
      EXPECT_EQ(metric_or0(txq, "cpu.core0.profile.udp_sendmsg"), 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Families, TxqLocking,
                         ::testing::Values("generic", "lan743x", "stmmac", "i40e", "mvneta"));

TEST(TxqLockingRuns, BidirTxIsNoLongerHeldBackByCore0) {
  /* Bidir on the generic NIC at line rate both ways: under the big lock the
   * sender waits for core 0's RX polls and sends far below line rate; with
   * the TX queue lock only it sends at least twice as fast, bound by its own
   * core, which also runs the reader's recvmsg and copy (the stack by its
   * parts), not by core 0. Alone (TX only) it reaches the line rate. */
  nicsim_results big, txq, tx_only;
  const std::vector<std::string> base = {"run.duration_us=1000", "run.warmup_us=200", "run.drain_us=1000",
                                         "cpu.cores=2"};
  auto with = [&](std::initializer_list<const char *> more) {
    std::vector<std::string> v = base;
    for (const char *m : more) v.push_back(m);
    return checked_config(v);
  };
  ASSERT_TRUE(run_in_child(with({"traffic.mode=bidir", "cpu.locking=big"}), &big));
  ASSERT_TRUE(run_in_child(with({"traffic.mode=tx", "cpu.locking=txq"}), &tx_only));
  run_ok(with({"traffic.mode=bidir", "cpu.locking=txq"}), &txq);
  expect_conservation(txq);
  EXPECT_LT(metric(big, "tx.gbps"), 0.5 * metric(tx_only, "tx.gbps"));
  EXPECT_LT(metric(big, "tx.gbps"), 0.5 * metric(txq, "tx.gbps"));
  EXPECT_GT(metric(txq, "cpu.core1.util"), 0.8);
  EXPECT_GT(metric(txq, "cpu.core1.profile.udp_recvmsg"), 0);
  EXPECT_EQ(metric(txq, "rx.drops"), 0);
}

TEST(TxqLockingRuns, OneCoreIgnoresTheKey) {
  /* With one core there is no second CPU to lock against: the same run. */
  for (const char *mode : {"traffic.mode=tx", "traffic.mode=bidir"}) {
    SCOPED_TRACE(mode);
    nicsim_results big, txq;
    ASSERT_TRUE(run_in_child(make_cfg({mode, "cpu.locking=big"}), &big));
    ASSERT_TRUE(run_in_child(make_cfg({mode, "cpu.locking=txq"}), &txq));
    expect_same_metrics(big, txq);
  }
}

TEST(TxqLockingRuns, TcpBidirIsCleanAndDeterministic) {
  /* TCP both ways: core 0 sends ACKs through the TX queue lock and receives
   * the sender's ACKs while the sender's socket may be owned (backlog). */
  const nicsim_config cfg = make_cfg({"traffic.protocol=tcp", "traffic.mode=bidir", "traffic.frame_bytes=1518",
                                      "cpu.cores=2", "cpu.locking=txq"});
  nicsim_results a, b;
  ASSERT_TRUE(run_in_child(cfg, &b));
  run_ok(cfg, &a);
  expect_conservation(a);
  EXPECT_GT(metric(a, "rx.pkts"), 0);
  EXPECT_GT(metric(a, "tx.pkts"), 0);
  expect_same_metrics(a, b);
}

TEST(TxqLockingRuns, RandomRunsConserveAndPassEveryCheck) {
  /* Random configurations (family, mode, protocol, frame size, rate, cores,
   * application core, quantum, multi-queue, seed) in txq mode: each run must
   * finish without a violation or driver fault and conserve frames. */
  std::mt19937_64 rng(20261130);
  const char *fams[] = {"generic", "lan743x", "stmmac", "i40e", "mvneta"};
  for (int i = 0; i < 40; i++) {
    const std::string fam = fams[rng() % 5];
    const int cores = 2 + static_cast<int>(rng() % 3);
    /* A long drain: small frames at a high rate overload core 0, and the
     * backlog it leaves must finish before conservation is checked. */
    std::vector<std::string> sets = {"run.duration_us=600", "run.warmup_us=100", "run.drain_us=5000",
                                     "nic.family=" + fam, "driver.name=" + fam, "cpu.locking=txq",
                                     "cpu.cores=" + std::to_string(cores),
                                     "cpu.app_core=" + std::to_string(1 + rng() % (cores - 1)),
                                     std::string("traffic.mode=") + (rng() % 3 ? "bidir" : "tx"),
                                     std::string("traffic.protocol=") + (rng() % 3 ? "udp" : "tcp"),
                                     "traffic.frame_bytes=" + std::to_string(64 + rng() % (1518 - 64 + 1)),
                                     "cpu.quantum_ns=" + std::to_string(50 + rng() % 2000),
                                     "run.seed=" + std::to_string(rng() % 1000),
                                     std::string("memory.coherent_dma=") + (rng() % 2 ? "true" : "false")};
    if (rng() % 2) sets.push_back("traffic.rate_gbps=" + std::to_string(1 + rng() % 9));
    if (fam == "mvneta") sets.push_back("nic.desc_spacing=32");
    if ((fam == "generic" || fam == "i40e") && rng() % 2) {
      sets.push_back("nic.tx_queues=4");
      sets.push_back("nic.rx_queues=4");
      sets.push_back("traffic.flows=8");
    }
    expect_clean_run(sets);
  }
}
}  // namespace
