// test_entry.cpp: the kernel layer's entry points with a small test driver:
// IRQ delivery, nk_kernel_xmit, probe errors and the end-of-run check.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "drivers/driver.h"
#include "net/frame.h"
#include "unit/kernel/test_support.h"

namespace {

// The test driver's behaviour and what it saw (one instance per test).
struct TestDrv {
  int probe_rc = 0;
  bool busy = false;           // ndo_start_xmit returns NETDEV_TX_BUSY
  bool leak_on_remove = false; // remove keeps the queued skbs
  bool check_fails = false;
  std::vector<sk_buff *> queued;
  int removes = 0;
  const counting_platform *cp = nullptr; // set by EntryRig
  std::vector<int> held_in_xmit;         // spinlocks held at each ndo_start_xmit
};
TestDrv *g_drv;

int td_probe(net_device *dev, char *err, size_t errlen) {
  dev->priv = g_drv;
  if (g_drv->probe_rc) snprintf(err, errlen, "testdrv: no such hardware");
  return g_drv->probe_rc;
}
void td_remove(net_device *dev) {
  auto *d = static_cast<TestDrv *>(netdev_priv(dev));
  d->removes++;
  if (!d->leak_on_remove)
    for (sk_buff *s : d->queued) dev_kfree_skb_any(s);
  d->queued.clear();
}
netdev_tx_t td_xmit(sk_buff *skb, net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  auto *d = static_cast<TestDrv *>(netdev_priv(dev));
  if (d->cp) d->held_in_xmit.push_back(cp_spins_held(d->cp));
  if (d->busy) return NETDEV_TX_BUSY;
  d->queued.push_back(skb);
  return NETDEV_TX_OK;
}
int td_check(net_device *dev, char *err, size_t errlen) {
  auto *d = static_cast<TestDrv *>(netdev_priv(dev));
  if (!d->check_fails) return 0;
  snprintf(err, errlen, "testdrv: ring indices disagree");
  return -1;
}
const nk_driver test_driver = {"testdrv", td_probe, td_remove, td_xmit, td_check, nullptr, false, false, false, false, false, false, false, false, false};

struct EntryRig {
  TestDrv drv;  // declared first: destroyed after the kernel, whose destroy runs remove
  TestKernel t;
  explicit EntryRig(bool probe = true, int tx_queues = 1) {
    g_drv = &drv;
    t.cfg.nic.tx_queues = tx_queues;
    EXPECT_TRUE(t.create(true)) << t.err;
    drv.cp = &t.cp;
    if (probe) {
      char err[256] = "";
      EXPECT_EQ(nk_kernel_probe_driver(t.k, &test_driver, err, sizeof err), 0) << err;
    }
  }
};

int irq_calls;
int irq_vec_seen;
void *irq_cookie_seen;
irqreturn_t test_handler(int vec, void *cookie) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  irq_calls++;
  irq_vec_seen = vec;
  irq_cookie_seen = cookie;
  mb();  // one operation inside the handler's own bucket
  return IRQ_HANDLED;
}

}  // namespace

TEST(KernelIrq, ChargesEntryThenRunsTheHandler) {
  EntryRig r;
  int cookie = 0;
  ASSERT_EQ(request_irq(r.t.dev(), 3, test_handler, &cookie), 0);
  EXPECT_EQ(request_irq(r.t.dev(), 3, test_handler, &cookie), -EBUSY);
  EXPECT_EQ(request_irq(r.t.dev(), 64, test_handler, &cookie), -EINVAL);
  irq_calls = 0;
  cp_reset_counts(&r.t.cp);
  nk_kernel_irq(r.t.k, 3);
  EXPECT_EQ(irq_calls, 1);
  EXPECT_EQ(irq_vec_seen, 3);
  EXPECT_EQ(irq_cookie_seen, &cookie);
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_IRQ_ENTRY), r.t.cfg.cpu.irq_entry_cycles);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_IRQ_ENTRY)), NK_CLASS_IRQ);
  EXPECT_EQ(r.t.bucket_ops("test_handler"), 1u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->irqs, 1u);
  free_irq(r.t.dev(), 3);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelIrq, SpuriousVectorIsCountedAndStillCostsEntry) {
  EntryRig r;
  cp_reset_counts(&r.t.cp);
  nk_kernel_irq(r.t.k, 7);
  nk_kernel_irq(r.t.k, -1);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->irqs_spurious, 2u);
  EXPECT_DOUBLE_EQ(r.t.cp.c.cycles, 2 * r.t.cfg.cpu.irq_entry_cycles);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelIrq, FreeingAnUnrequestedVectorIsAFault) {
  EntryRig r;
  free_irq(r.t.dev(), 5);
  EXPECT_NE(r.t.fault(), nullptr);
}

TEST(KernelIrq, MsiTargetIsThePlatformsAndDataIsTheVector) {
  EntryRig r;
  EXPECT_EQ(nk_msi_addr(r.t.dev()), r.t.cp.plat.msi_addr);
  EXPECT_EQ(nk_msi_data(r.t.dev(), 5), 5u);
}

TEST(KernelXmit, FillsATestFrameChargesTheStackAndCallsTheDriver) {
  EntryRig r;
  cp_reset_counts(&r.t.cp);
  ASSERT_EQ(nk_kernel_xmit(r.t.k, 1518, 7, 42), NETDEV_TX_OK);
  ASSERT_EQ(r.drv.queued.size(), 1u);
  sk_buff *s = r.drv.queued[0];
  EXPECT_EQ(s->len, 1514u);
  EXPECT_EQ(r.t.pa(s->data) & 7, 2u);
  nf_header h{};
  ASSERT_EQ(nf_check(s->data, s->len, static_cast<uint64_t>(r.t.cfg.run.seed), &h), NF_OK);
  EXPECT_EQ(h.flow, 7u);
  EXPECT_EQ(h.seq, 42u);
  // udp_sendmsg (its instructions and the system call), the copy from user
  // space, ip_output, and the skb's allocation, each in its own bucket.
  const nc_cpu &cpu = r.t.cfg.cpu;
  const nc_stack &st = r.t.cfg.stack;
  const double copy = cpu.stack_tx_cycles_per_byte * 1514;
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_COPY_FROM_USER), copy);
  EXPECT_DOUBLE_EQ(r.t.instr(NK_PROF_UDP_SENDMSG), st.udp_sendmsg_instructions);
  EXPECT_DOUBLE_EQ(r.t.bucket(NK_PROF_UDP_SENDMSG), cpu.syscall_cycles);
  EXPECT_DOUBLE_EQ(r.t.instr(NK_PROF_IP_OUTPUT), st.ip_output_instructions);
  EXPECT_DOUBLE_EQ(r.t.instr(NK_PROF_ALLOC_SKB), st.alloc_skb_instructions);
  EXPECT_DOUBLE_EQ(r.t.cp.c.cycles, copy + cpu.syscall_cycles);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_UDP_SENDMSG)), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(nk_prof_find(NK_PROF_IP_OUTPUT)), NK_CLASS_TX);
  EXPECT_EQ(r.t.cp.c.copies + r.t.cp.c.stores[0] + r.t.cp.c.stores[1], 0u)
      << "the application's bytes are part of the stack charge, not driver operations";
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->xmit_ok, 1u);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelXmit, StoppedQueueIsBusyAndConsumesNothing) {
  EntryRig r;
  netif_stop_queue(r.t.dev());
  EXPECT_TRUE(nk_kernel_tx_stopped(r.t.k));
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 1518, 0, 0), NETDEV_TX_BUSY);
  EXPECT_TRUE(r.drv.queued.empty());
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(r.t.cp.c.charges, 0u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->xmit_busy, 1u);
  netif_wake_queue(r.t.dev());
  EXPECT_FALSE(netif_queue_stopped(r.t.dev()));
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 1518, 0, 0), NETDEV_TX_OK);
}

TEST(KernelXmit, DriverBusyGivesTheSkbBack) {
  EntryRig r;
  r.drv.busy = true;
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 64, 0, 0), NETDEV_TX_BUSY);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
  EXPECT_EQ(nk_kernel_get_stats(r.t.k)->xmit_busy_driver, 1u);
}

TEST(KernelXmit, HarnessErrorsAreNegative) {
  EntryRig unprobed(false);
  EXPECT_EQ(nk_kernel_xmit(unprobed.t.k, 1518, 0, 0), -ENODEV);
  EntryRig r;
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 63, 0, 0), -EINVAL);
  (void)nk_ld32(reinterpret_cast<void *>(8));  // a driver bug
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 1518, 0, 0), -EFAULT);
}

TEST(KernelProbe, ProbeErrorIsPassedOn) {
  EntryRig r(false);
  r.drv.probe_rc = -ENOMEM;
  char err[256] = "";
  EXPECT_EQ(nk_kernel_probe_driver(r.t.k, &test_driver, err, sizeof err), -ENOMEM);
  EXPECT_STREQ(err, "testdrv: no such hardware");
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 1518, 0, 0), -ENODEV);
}

TEST(KernelProbe, ProbingTwiceIsRefused) {
  EntryRig r;
  char err[256] = "";
  EXPECT_EQ(nk_kernel_probe_driver(r.t.k, &test_driver, err, sizeof err), -EBUSY);
}

TEST(KernelCheck, WhileProbedItRunsTheDriversCheck) {
  EntryRig r;
  EXPECT_EQ(r.t.check(), "");
  r.drv.check_fails = true;
  EXPECT_EQ(r.t.check(), "testdrv: ring indices disagree");
}

TEST(KernelCheck, CleanRemoveLeavesNothing) {
  EntryRig r;
  for (int i = 0; i < 5; i++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 0, static_cast<uint64_t>(i)), NETDEV_TX_OK);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 5u);
  nk_kernel_remove(r.t.k);
  EXPECT_EQ(r.drv.removes, 1);
  EXPECT_EQ(r.t.check(), "");
  nk_kernel_remove(r.t.k);  // idempotent
  EXPECT_EQ(r.drv.removes, 1);
}

TEST(KernelCheck, AnSkbKeptByRemoveIsALeak) {
  EntryRig r;
  r.drv.leak_on_remove = true;
  ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 0, 0), NETDEV_TX_OK);
  nk_kernel_remove(r.t.k);
  std::string msg = r.t.check();
  EXPECT_NE(msg.find("leak after remove: 1 of"), std::string::npos) << msg;
}

TEST(KernelCheck, ADriverCheckFailingAtRemoveIsReportedAfterwards) {
  EntryRig r;
  r.drv.check_fails = true;
  nk_kernel_remove(r.t.k);
  r.drv.check_fails = false;
  EXPECT_EQ(r.t.check(), "testdrv: ring indices disagree (at remove)");
}

TEST(KernelCheck, AFaultStopsEntryPointsAndIsReportedFirst) {
  EntryRig r;
  int cookie;
  ASSERT_EQ(request_irq(r.t.dev(), 1, test_handler, &cookie), 0);
  nk_st32(reinterpret_cast<void *>(64), 1);
  ASSERT_NE(r.t.fault(), nullptr);
  irq_calls = 0;
  nk_kernel_irq(r.t.k, 1);
  EXPECT_EQ(irq_calls, 0) << "after a fault no driver code runs";
  EXPECT_EQ(r.t.check().rfind("driver bug: ", 0), 0u) << r.t.check();
  free_irq(r.t.dev(), 1);
}

// HARD_TX_LOCK: the TX queue's lock (id 1 for queue 0: the kernel hands the
// TX queues the first spinlock ids) is taken once and released once per
// frame that reaches the driver, and is held while ndo_start_xmit runs.
TEST(KernelXmitLock, TakesAndReleasesTheQueueLockOncePerFrame) {
  EntryRig r;
  cp_reset_counts(&r.t.cp);
  for (int i = 0; i < 5; i++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, 0, static_cast<uint64_t>(i)), NETDEV_TX_OK);
  EXPECT_EQ(r.t.cp.c.spin_acquires[1], 5u);
  EXPECT_EQ(r.t.cp.c.spin_releases[1], 5u);
  EXPECT_EQ(r.t.cp.c.spin_misuse, 0u);
  EXPECT_EQ(cp_spins_held(&r.t.cp), 0);
  EXPECT_EQ(r.drv.held_in_xmit, std::vector<int>(5, 1));
  // No other lock was touched.
  uint64_t others = 0;
  for (int id = 2; id <= NK_SPIN_MAX; id++) others += r.t.cp.c.spin_acquires[id];
  EXPECT_EQ(others, 0u);
}

// A stopped queue is refused before the lock; a driver's NETDEV_TX_BUSY
// still releases it.
TEST(KernelXmitLock, StoppedQueueTakesNoLockAndDriverBusyReleasesIt) {
  EntryRig r;
  netif_stop_queue(r.t.dev());
  cp_reset_counts(&r.t.cp);
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 0, 0), NETDEV_TX_BUSY);
  EXPECT_EQ(r.t.cp.c.spin_acquires[1], 0u);
  netif_wake_queue(r.t.dev());
  r.drv.busy = true;
  EXPECT_EQ(nk_kernel_xmit(r.t.k, 200, 0, 0), NETDEV_TX_BUSY);
  EXPECT_EQ(r.t.cp.c.spin_acquires[1], 1u);
  EXPECT_EQ(r.t.cp.c.spin_releases[1], 1u);
  EXPECT_EQ(cp_spins_held(&r.t.cp), 0);
  EXPECT_EQ(nk_kernel_skbs_in_use(r.t.k), 0u);
}

// With four TX queues, flow f goes to queue f mod 4 and takes lock f mod 4 + 1:
// eight flows, two frames on each queue's lock. A fifth id is the first one
// spin_lock_init hands a driver.
TEST(KernelXmitLock, EachTxQueueHasItsOwnLock) {
  EntryRig r(true, 4);
  ASSERT_EQ(netif_set_real_num_tx_queues(r.t.dev(), 4), 0);
  cp_reset_counts(&r.t.cp);
  for (uint32_t f = 0; f < 8; f++) ASSERT_EQ(nk_kernel_xmit(r.t.k, 200, f, 0), NETDEV_TX_OK);
  for (int q = 0; q < 4; q++) {
    EXPECT_EQ(r.t.cp.c.spin_acquires[q + 1], 2u) << q;
    EXPECT_EQ(r.t.cp.c.spin_releases[q + 1], 2u) << q;
  }
  EXPECT_EQ(r.t.cp.c.spin_acquires[5], 0u);
  EXPECT_EQ(netdev_get_tx_queue(r.t.dev(), 3)->_xmit_lock.id, 4u);
  spinlock_t l{};
  spin_lock_init(&l);
  EXPECT_EQ(l.id, 5u);
  unsigned long flags;
  spin_lock_irqsave(&l, flags);
  EXPECT_EQ(cp_spins_held(&r.t.cp), 1);
  spin_unlock_irqrestore(&l, flags);
  spin_lock_bh(&l);
  spin_unlock_bh(&l);
  EXPECT_EQ(r.t.cp.c.spin_acquires[5], 2u);
  EXPECT_EQ(r.t.cp.c.spin_misuse, 0u);
  EXPECT_EQ(r.t.fault(), nullptr);
}

TEST(KernelSpinlock, AnUninitialisedLockIsAFault) {
  EntryRig r;
  spinlock_t l{};
  cp_reset_counts(&r.t.cp);
  spin_lock(&l);
  ASSERT_NE(r.t.fault(), nullptr);
  EXPECT_NE(std::string(r.t.fault()).find("spin_lock_init missing"), std::string::npos) << r.t.fault();
  EXPECT_EQ(r.t.cp.c.spin_acquires[0], 0u); /* never reaches the platform */
}

TEST(KernelSpinlock, AQueueBeyondTheDevicesIsAFault) {
  EntryRig r; /* one TX queue */
  EXPECT_EQ(netdev_get_tx_queue(r.t.dev(), 1), netdev_get_tx_queue(r.t.dev(), 0));
  ASSERT_NE(r.t.fault(), nullptr);
  EXPECT_NE(std::string(r.t.fault()).find("netdev_get_tx_queue(1)"), std::string::npos) << r.t.fault();
}

TEST(KernelSpinlock, MoreThanTheTableIsAFault) {
  EntryRig r; /* the TX queue has id 1 */
  spinlock_t l[NK_SPIN_MAX];
  for (int i = 0; i < NK_SPIN_MAX - 1; i++) spin_lock_init(&l[i]);
  EXPECT_EQ(l[NK_SPIN_MAX - 2].id, static_cast<unsigned>(NK_SPIN_MAX));
  EXPECT_EQ(r.t.fault(), nullptr);
  spin_lock_init(&l[NK_SPIN_MAX - 1]);
  EXPECT_EQ(l[NK_SPIN_MAX - 1].id, 0u);
  ASSERT_NE(r.t.fault(), nullptr);
}
