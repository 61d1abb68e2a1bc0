// kernel_locks.cpp: the kernel lock (cpu.locking big) and the kernel's
// spinlocks (txq) between the host's cores, with fair hand-over and spin
// time charged as busy cycles.
#include "cpu/kernel_locks.h"

#include "cpu/cpu_core.h"

#include <algorithm>
#include <cstdio>

namespace nicsim {

KernelLocks::KernelLocks(CpuCore &core) : m_core(core) {
  const size_t n = core.m_cores.size();
  m_wake.reset(new sc_core::sc_event[n]);
  for (LockState &l : m_locks) l.waiters.reserve(n); /* no allocation while spinning */
}

void KernelLocks::lock_kernel() {
  if (m_core.m_ncores < 2 || m_core.m_txq) return;
  lock(0);
}

void KernelLocks::unlock_kernel() {
  if (m_core.m_ncores < 2 || m_core.m_txq) return;
  unlock(0);
}

std::string KernelLocks::lock_name(unsigned id) {
  return id == 0 ? std::string("the kernel lock") : "spinlock " + std::to_string(id);
}

void KernelLocks::spin(unsigned id, bool acquire) {
  if (m_core.m_ncores < 2) return;
  if (id == 0 || id >= static_cast<unsigned>(kLocks)) {
    char msg[120];
    std::snprintf(msg, sizeof msg, "kernel used spinlock id %u; the platform has ids 1..%d", id, NK_SPIN_MAX);
    m_core.violation(msg);
    return;
  }
  if (acquire)
    lock(id);
  else
    unlock(id);
}

void KernelLocks::lock(unsigned id) {
  CpuCore &core = m_core;
  LockState &l = m_locks[id];
  const int me = core.cur_core();
  /* Decide at the core's true time: with its local time ahead, the lock's
   * state would be read out of order with the other core's. */
  core.sync();
  if (l.owner == me) {
    core.violation("core " + std::to_string(me) + " took " + lock_name(id) + ", which it already holds");
    return;
  }
  const uint64_t t0 = core.local_time_ps();
  if (l.owner >= 0 || !l.waiters.empty()) {
    /* Queue behind the earlier waiters (same time: lower core first) and
     * spin until a release hands the lock over (unlock). */
    const std::pair<uint64_t, int> w(t0, me);
    l.waiters.insert(std::upper_bound(l.waiters.begin(), l.waiters.end(), w), w);
    sc_core::sc_event &ev = m_wake[static_cast<size_t>(me)];
    while (l.owner != me) core.suspend([&ev] { sc_core::wait(ev); });
    /* The spin: from wanting the lock to the holder's release (its local
     * time, which may still be ahead of this core's). Busy cycles. */
    const uint64_t t1 = core.local_time_ps();
    if (t1 > t0) core.account(static_cast<double>(t1 - t0) / core.m_ps_per_cycle, t0, t1 - t0, core.m_prof_lock_wait);
    if (l.free_ps > t1) core.spend_ps(l.free_ps - t1, core.m_prof_lock_wait);
    return;
  }
  /* Free: take it, then spin until its release if that was at the
   * releaser's local time, still ahead (the spin may suspend this thread,
   * so the lock is taken first). */
  l.owner = me;
  if (++l.inside != 1) {
    core.violation(std::to_string(l.inside) + " cores hold " + lock_name(id) + " at once (lock broken)");
  }
  if (l.free_ps > t0) core.spend_ps(l.free_ps - t0, core.m_prof_lock_wait);
}

void KernelLocks::unlock(unsigned id) {
  CpuCore &core = m_core;
  LockState &l = m_locks[id];
  const int me = core.cur_core();
  if (l.owner != me) {
    core.violation("core " + std::to_string(me) + " released " + lock_name(id) +
                   (l.owner < 0 ? std::string(", which no core holds") : ", held by core " + std::to_string(l.owner)));
    if (l.owner < 0) return;
  }
  l.inside--;
  l.owner = -1;
  l.free_ps = core.local_time_ps();
  if (l.waiters.empty()) return;
  /* Hand it to the first waiter, which resumes at this core's local time. */
  const int next = l.waiters.front().second;
  l.waiters.erase(l.waiters.begin());
  l.owner = next;
  if (++l.inside != 1) {
    core.violation(std::to_string(l.inside) + " cores hold " + lock_name(id) + " at once (lock broken)");
  }
  m_wake[static_cast<size_t>(next)].notify(sc_core::sc_time::from_value(core.m_cur->qk.local_ps()));
  core.note_activity();
}

}  // namespace nicsim
