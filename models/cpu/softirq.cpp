// softirq.cpp: __do_softirq's restart rule and the hand-over to ksoftirqd
// (kernel/softirq.c), per core.
#include "cpu/softirq.h"

namespace nicsim {

void SoftirqParams::bind(ParamBinder &b) {
  b.key("cpu.ksoftirqd_defer", ksoftirqd_defer);
  b.key("cpu.softirq_max_restart", max_restart);
  b.key("cpu.hz", hz);
}

unsigned SoftirqGate::exit_to_task(uint64_t now_ps, bool pending, bool task_runnable) {
  if (!pending || m_active) return 0; /* nothing raised, or an IRQ nested in __do_softirq */
  if (m_ksoftirqd && m_p.ksoftirqd_defer) return kSirqDeferred; /* invoke_softirq: ksoftirqd_running() */
  m_active = true;
  m_task_was_runnable = task_runnable;
  m_restarts_left = m_p.max_restart;
  m_end_jiffy = jiffies(now_ps) + m_p.max_jiffies();
  return kSirqDo;
}

unsigned SoftirqGate::action_done(uint64_t now_ps, bool pending, bool task_runnable) {
  if (!m_active) return 0;
  if (!pending) {
    m_active = false;
    return 0;
  }
  /* if (time_before(jiffies, end) && !need_resched() && --max_restart) goto restart; */
  const bool need_resched = task_runnable && !m_task_was_runnable;
  if (jiffies(now_ps) < m_end_jiffy && !need_resched && --m_restarts_left > 0) return kSirqRestart;
  m_active = false;
  const unsigned ev = m_ksoftirqd ? 0u : kSirqWake;
  m_ksoftirqd = true; /* wakeup_softirqd() */
  return ev;
}

bool SoftirqGate::ksoftirqd_runnable(bool pending, unsigned *events) {
  if (m_active) return false;
  if (!pending) {
    m_ksoftirqd = false; /* nothing pending: it sleeps */
    return false;
  }
  if (!m_ksoftirqd) {
    *events |= kSirqWake; /* raised in task context: raise_softirq wakes it */
    m_ksoftirqd = true;
  }
  return true;
}

}  // namespace nicsim
