/* softirq.h: when the NET_RX softirq runs on a core, as Linux decides it.
 *
 * irq_exit() (and local_bh_enable() in task context) runs __do_softirq at
 * once when NET_RX is pending: net_rx_action, then again while it was raised
 * anew, at most MAX_SOFTIRQ_RESTART (10) runs in all, while the jiffies
 * counter is before MAX_SOFTIRQ_TIME (2 ms rounded up to jiffies) and no
 * task wakeup set need_resched. What is left then goes to the core's
 * ksoftirqd thread, which the scheduler shares with the application like any
 * task. From v4.9 to v6.4 ("softirq: Let ksoftirqd do its job", reverted in
 * v6.5) an IRQ exit that finds ksoftirqd runnable leaves NET_RX to it.
 * (kernel/softirq.c: invoke_softirq, do_softirq, __do_softirq,
 * wakeup_softirqd, run_ksoftirqd.)
 *
 * SoftirqGate is one core's state of that decision; the core's loop
 * (KernelScheduler, HostApp::run) runs the rounds it asks for. */
#ifndef NICSIM_MODELS_CPU_SOFTIRQ_H
#define NICSIM_MODELS_CPU_SOFTIRQ_H

#include <cstdint>

#include "common/params.h"

namespace nicsim {

struct SoftirqParams {
  bool ksoftirqd_defer = true; /* cpu.ksoftirqd_defer */
  int max_restart = 10;        /* cpu.softirq_max_restart: net_rx_action runs per __do_softirq */
  int hz = 250;                /* cpu.hz: jiffies per second */
  void bind(ParamBinder &b);
  /* Jiffies __do_softirq may run for: msecs_to_jiffies(2). */
  uint64_t max_jiffies() const { return (2 * static_cast<uint64_t>(hz) + 999) / 1000; }
};

/* What a step of the gate did, for the core's counters (bits). */
enum SoftirqEvent : unsigned {
  kSirqDo = 1,       /* __do_softirq began (IRQ exit or local_bh_enable) */
  kSirqRestart = 2,  /* it ran net_rx_action again */
  kSirqWake = 4,     /* ksoftirqd was woken */
  kSirqDeferred = 8, /* an exit to task context left pending NET_RX to a runnable ksoftirqd */
};

class SoftirqGate {
 public:
  explicit SoftirqGate(const SoftirqParams &p) : m_p(p), m_ps_per_jiffy(1e12 / (p.hz > 0 ? p.hz : 250)) {}

  /* The core returns to task context (irq_exit after hard IRQs or timers, or
   * local_bh_enable after the task's kernel entry) at now_ps with NET_RX
   * pending or not; task_runnable: a task was running (false: the idle task,
   * which any wakeup preempts). Starts __do_softirq unless the kernel leaves
   * it to a runnable ksoftirqd. */
  unsigned exit_to_task(uint64_t now_ps, bool pending, bool task_runnable);
  /* __do_softirq is running: the core's next step is a net_rx_action. */
  bool in_do_softirq() const { return m_active; }
  /* One net_rx_action of __do_softirq ran, ending at now_ps; pending: NET_RX
   * raised again; task_runnable now (a task the idle core had not running
   * was woken: need_resched). Restarts, ends, or wakes ksoftirqd. */
  unsigned action_done(uint64_t now_ps, bool pending, bool task_runnable);
  /* ksoftirqd has NET_RX work and competes for the core; woken if NET_RX is
   * pending outside __do_softirq (raised from task context), asleep again
   * once nothing is pending. */
  bool ksoftirqd_runnable(bool pending, unsigned *events);
  bool ksoftirqd_awake() const { return m_ksoftirqd; }

 private:
  uint64_t jiffies(uint64_t ps) const { return static_cast<uint64_t>(static_cast<double>(ps) / m_ps_per_jiffy); }
  SoftirqParams m_p;
  double m_ps_per_jiffy;
  bool m_active = false;      /* inside __do_softirq */
  bool m_ksoftirqd = false;   /* ksoftirqd woken (TASK_RUNNING) */
  bool m_task_was_runnable = false;
  int m_restarts_left = 0;
  uint64_t m_end_jiffy = 0;
};

}  // namespace nicsim
#endif
