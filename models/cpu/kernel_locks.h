/* kernel_locks.h: the locks between the host's cores, part of CpuCore
 * (cpu.cores >= 2). Lock 0 is the one kernel lock of cpu.locking big, which
 * serialises every entry into the kernel layer and the driver; ids 1 ..
 * NK_SPIN_MAX are the kernel's spinlocks (ops->spin, cpu.locking txq). A
 * lock is taken at the core's true time; a core that finds it held spins
 * (busy cycles, bucket lock_wait) until the holder's release, and waiters
 * get it in the order they asked (fair, as Linux's ticket and queued
 * spinlocks). */
#ifndef NICSIM_MODELS_CPU_KERNEL_LOCKS_H
#define NICSIM_MODELS_CPU_KERNEL_LOCKS_H

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "kernel/platform.h"

namespace nicsim {

class CpuCore;

class KernelLocks {
 public:
  /* The locks of core, whose cores() and txq_locking() are set. */
  explicit KernelLocks(CpuCore &core);

  /* Enters (leaves) the kernel: with cpu.locking big the one lock (id 0)
   * serialising the kernel layer and the driver across cores. No-ops with
   * one core or cpu.locking txq. */
  void lock_kernel();
  void unlock_kernel();
  /* ops->spin: the kernel acquired (acquire true) or released spinlock id
   * (1 .. NK_SPIN_MAX); another id is a violation. No-op with one core. */
  void spin(unsigned id, bool acquire);
  /* Takes lock id (0: the kernel lock; 1 .. NK_SPIN_MAX: kernel spinlocks)
   * at the core's true time; a held lock is spun for (busy, bucket
   * lock_wait) until the holder's release at the holder's local time.
   * Taking a lock the core holds is a violation. */
  void lock(unsigned id);
  /* Releases lock id at the core's local time, handing it to the first
   * waiter; releasing one the core does not hold is a violation. */
  void unlock(unsigned id);

 private:
  /* "the kernel lock" or "spinlock <id>", for messages. */
  static std::string lock_name(unsigned id);
  /* A lock's state: 0 the kernel lock (cpu.locking big), 1 .. NK_SPIN_MAX the kernel's spinlocks (txq). */
  struct LockState {
    int owner = -1;       /* core holding it, -1: none */
    int inside = 0;       /* cores holding it (never above 1) */
    uint64_t free_ps = 0; /* local time of the last release, ps */
    /* Cores spinning on it, in the order they get it: by the time they
     * asked, then by core number. Linux's spinlocks are fair (ticket locks
     * since 2.6.25, the queued qspinlock since 4.2): a release hands the
     * lock to the first waiter, never back to the releasing core. */
    std::vector<std::pair<uint64_t, int>> waiters;
  };
  static constexpr int kLocks = NK_SPIN_MAX + 1;

  CpuCore &m_core;
  LockState m_locks[kLocks];
  /* Per core: a release handed it the lock it spins on (lock()). */
  std::unique_ptr<sc_core::sc_event[]> m_wake;
};

}  // namespace nicsim
#endif
