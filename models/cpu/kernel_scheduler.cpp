// kernel_scheduler.cpp: the kernel main loop of core 0 (probe, IRQs, timers,
// NET_RX softirq and ACKs, the application on one core, the end of the run),
// the loops of the other cores that take vectors, and the NAPI trace hook.
#include "cpu/kernel_scheduler.h"

#include "common/ps_time.h"
#include "common/trace.h"
#include "cpu/cpu_core.h"
#include "drivers/driver.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace nicsim {

namespace {
constexpr uint64_t kDrainPollPs = 1000000; /* 1 us: drain re-check period after the end of the run */
sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }
}  // namespace

KernelScheduler::KernelScheduler(CpuCore &core, uint64_t end_ps)
    : m_core(core), m_end_ps(end_ps), m_sirq(core.m_cores.size(), SoftirqGate(core.m_p.softirq)) {
  m_napi_tid.assign(core.m_cores.size() * NK_NAPI_TRACKS, 0);
}

int KernelScheduler::cur_core() const { return m_core.cur_core(); }

double KernelScheduler::core_busy() const {
  return m_core.m_ncores >= 2 ? m_core.m_cur->busy_total : m_core.busy_cycles(false);
}

void KernelScheduler::count_sirq(unsigned ev) {
  if (!ev) return;
  m_core.count([ev](CpuCounters &c) {
    if (ev & kSirqDo) c.softirq_do++;
    if (ev & kSirqRestart) c.softirq_restarts++;
    if (ev & kSirqWake) c.ksoftirqd_wakeups++;
    if (ev & kSirqDeferred) c.softirq_deferred++;
  });
}

void KernelScheduler::exit_to_task(bool task_runnable) {
  count_sirq(gate().exit_to_task(m_core.local_time_ps(), nk_kernel_napi_pending(m_core.m_kernel), task_runnable));
}

void KernelScheduler::round_done(bool by_ksoftirqd, double cycles, bool task_runnable) {
  if (by_ksoftirqd) {
    m_core.count([cycles](CpuCounters &c) {
      c.ksoftirqd_rounds++;
      c.ksoftirqd_cycles += cycles;
    });
    return;
  }
  m_core.count([cycles](CpuCounters &c) { c.softirq_do_cycles += cycles; });
  count_sirq(gate().action_done(m_core.local_time_ps(), nk_kernel_napi_pending(m_core.m_kernel), task_runnable));
}

void KernelScheduler::check_fault() {
  /* The kernel layer caught a driver bug; it runs no more driver code. */
  const char *f = nk_kernel_fault(m_core.m_kernel);
  if (f && f[0]) m_core.violation(std::string("kernel fault: ") + f);
}

void KernelScheduler::kernel_work_done() {
  if (m_core.m_ncores < 2) return;
  m_kwork_gen++;
  m_app_event.notify(ps(m_core.m_cur->qk.local_ps()));
  m_core.note_activity();
}

void KernelScheduler::deliver_irqs() {
  CpuCore &core = m_core;
  const uint64_t mine = core.my_vectors();
  uint64_t arrival_ps = 0;
  for (int vec; (vec = core.m_irq.take(mine, &arrival_ps)) >= 0;) {
    /* Interrupt latency: from the MSI reaching memory to the kernel taking it
     * (controller latency plus whatever the core was busy with). */
    const uint64_t t = core.local_time_ps();
    const uint64_t lat = t > arrival_ps ? t - arrival_ps : 0;
    core.count([lat](CpuCounters &c) {
      c.irqs++;
      c.irq_latency_ps += lat;
      c.irq_latency_max_ps = std::max(c.irq_latency_max_ps, lat);
    });
    nk_kernel_irq(core.m_kernel, vec);
    check_fault();
  }
}

bool KernelScheduler::run_timers(uint64_t t_ps) {
  bool ran = false;
  for (int id; (id = m_core.m_irq.take_due_timer(t_ps)) >= 0;) {
    /* Like an interrupt: taken between work items, at or after its expiry;
     * the callback may re-arm it (a later expiry, not run in this pass). */
    nk_kernel_timer(m_core.m_kernel, id);
    check_fault();
    ran = true;
    if (m_core.m_violated) return ran;
  }
  return ran;
}

void KernelScheduler::finish() {
  CpuCore &core = m_core;
  core.sync();
  if (core.m_txq) {
    /* No kernel lock: the application's xmit must be out of the driver
     * before its remove (it enters no more once m_removing is set). */
    m_removing = true;
    while (m_in_kernel) core.suspend([this] { sc_core::wait(m_app_out_event); });
  }
  core.m_locks.lock_kernel();
  nk_kernel_remove(core.m_kernel);
  m_removed = true;
  core.m_locks.unlock_kernel();
  kernel_work_done();
  char err[512] = "";
  const int rc = nk_kernel_check(core.m_kernel, err, sizeof err);
  core.sync();
  if (core.on_finished) core.on_finished(rc, err);
  core.note_activity();
}

void KernelScheduler::napi_hook(void *ctx, int index, int rx_queue, bool end, int work, int budget) {
  (void)rx_queue;
  KernelScheduler *s = static_cast<KernelScheduler *>(ctx);
  if (!s->m_trace || index < 0 || index >= NK_NAPI_TRACKS) return;
  const uint64_t t = s->m_core.local_time_ps();
  if (!end) {
    s->m_napi_start_ps[index] = t;
    return;
  }
  /* A NAPI context's polls run on the core whose softirq polls it: core 0,
   * or with spread the core that takes its vector. */
  const int core = s->m_core.cur_core();
  uint32_t &tid = s->m_napi_tid[static_cast<size_t>(core * NK_NAPI_TRACKS + index)];
  if (tid == 0) {
    char name[32];
    std::snprintf(name, sizeof name, "cpu%d.napi%d", core, index);
    tid = s->m_trace->track(name);
  }
  s->m_trace->poll(tid, s->m_napi_start_ps[index], t, work, budget);
}

void KernelScheduler::count_softirq(uint64_t polls_before) {
  CpuCore &core = m_core;
  if (!core.m_spread) return;
  const uint64_t polls = nk_kernel_cpu_stats(core.m_kernel, core.cur_core()).napi_polls - polls_before;
  if (!core.in_window(core.local_time_ps())) return;
  core.m_cur->softirqs_window++;
  core.m_cur->napi_polls_window += polls;
}

bool KernelScheduler::wait_probed() {
  while (!m_probed) {
    if (m_core.m_violated) return false;
    m_core.suspend([this] { sc_core::wait(m_probe_event | m_end_event); });
  }
  return true;
}

bool KernelScheduler::enter_kernel() {
  m_core.m_locks.lock_kernel();
  if (m_removed || m_core.m_violated || m_removing) {
    m_core.m_locks.unlock_kernel();
    return false;
  }
  m_in_kernel++;
  return true;
}

void KernelScheduler::leave_kernel() {
  m_in_kernel--;
  if (m_removing && m_in_kernel == 0) {
    m_app_out_event.notify(ps(m_core.m_cur->qk.local_ps()));
    m_core.note_activity();
  }
  m_core.m_locks.unlock_kernel();
}

bool KernelScheduler::irq_core_irqs(bool *tx_blocked, bool *ack_blocked, bool task_runnable) {
  CpuCore &core = m_core;
  if (!(core.m_irq.pending() & core.my_vectors())) return false;
  if (enter_kernel()) {
    deliver_irqs();
    leave_kernel();
  } else {
    core.m_irq.drop(core.my_vectors()); /* the driver is being removed: nothing takes them */
  }
  kernel_work_done();
  exit_to_task(task_runnable);
  if (tx_blocked && *tx_blocked && !nk_kernel_tx_stopped(core.m_kernel)) *tx_blocked = false;
  if (*ack_blocked && !nk_kernel_tx_stopped(core.m_kernel)) *ack_blocked = false;
  return true;
}

bool KernelScheduler::irq_core_net_rx(bool *ack_blocked, bool task_runnable) {
  const bool inl = gate().in_do_softirq();
  unsigned ev = 0;
  if (!inl && !gate().ksoftirqd_runnable(nk_kernel_napi_pending(m_core.m_kernel), &ev)) {
    count_sirq(ev);
    return false;
  }
  count_sirq(ev);
  const double before = core_busy();
  irq_core_softirq(ack_blocked);
  round_done(!inl, core_busy() - before, task_runnable);
  return true;
}

void KernelScheduler::irq_core_softirq(bool *ack_blocked) {
  CpuCore &core = m_core;
  if (!enter_kernel()) return;
  core.count([](CpuCounters &c) { c.softirqs++; });
  const uint64_t polls = nk_kernel_cpu_stats(core.m_kernel, core.cur_core()).napi_polls;
  nk_kernel_softirq(core.m_kernel);
  check_fault();
  count_softirq(polls);
  /* The TCP receiver's ACKs go out from the softirq, after the poll. */
  if (core.m_stack.tcp() && !*ack_blocked && !core.m_stack.send_acks()) *ack_blocked = true;
  leave_kernel();
  kernel_work_done();
  if (*ack_blocked && !nk_kernel_tx_stopped(core.m_kernel)) *ack_blocked = false;
}

bool KernelScheduler::irq_core_acks(bool *ack_blocked) {
  CpuCore &core = m_core;
  HostStack &stack = core.m_stack;
  if (!stack.tcp() || *ack_blocked || stack.ack_sender_busy() || !nk_kernel_ack_peek(core.m_kernel, nullptr, nullptr))
    return false;
  if (enter_kernel()) {
    if (!stack.send_acks()) *ack_blocked = true;
    leave_kernel();
  }
  kernel_work_done();
  if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
  return true;
}

void KernelScheduler::irq_core_thread(int c) {
  CpuCore &core = m_core;
  core.enter_core(c);
  if (!wait_probed()) return;
  bool ack_blocked = false; /* tcp: an ACK got NETDEV_TX_BUSY; retry after kernel work */
  for (;;) {
    if (core.m_violated || m_removed || m_removing) {
      core.sync();
      return;
    }
    if (irq_core_irqs(nullptr, &ack_blocked, false)) continue;
    if (irq_core_acks(&ack_blocked)) continue;
    /* No task on this core: __do_softirq, then ksoftirqd, runs alone. */
    if (irq_core_net_rx(&ack_blocked, false)) {
      /* Let the rest of the model catch up between polls. */
      if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
      continue;
    }
    /* Idle: wait for one of its vectors (or, with ACKs waiting, for any
     * core's kernel work that may have woken the TX queue). */
    core.sync();
    if ((core.m_irq.pending() & core.my_vectors()) || nk_kernel_napi_pending(core.m_kernel))
      continue; /* raised during the sync */
    sc_core::sc_event &ev = core.m_irq.event(c);
    if (core.m_stack.tcp() && nk_kernel_ack_peek(core.m_kernel, nullptr, nullptr))
      core.suspend([this, &ev] { sc_core::wait(ev | m_app_event | m_end_event); });
    else
      core.suspend([this, &ev] { sc_core::wait(ev | m_end_event); });
  }
}

void KernelScheduler::kernel_main() {
  CpuCore &core = m_core;
  HostStack &stack = core.m_stack;
  HostApp &happ = core.m_app;
  KernelLocks &locks = core.m_locks;
  m_end_event.notify(ps(m_end_ps - kernel_now_ps()));
  core.note_activity();
  char err[512] = "";
  if (!core.m_p.make_kernel) {
    core.violation("no kernel: CpuCore::Params::make_kernel is unset and no program was given");
    return;
  }
  core.m_kernel = core.m_p.make_kernel(&core.m_platform, err, sizeof err);
  nk_kernel *const k = core.m_kernel;
  if (!k) {
    core.violation(std::string("kernel create failed: ") + err);
    return;
  }
  if (nk_driver_probe(k, err, sizeof err) != 0) {
    core.violation(std::string("driver probe failed: ") + err);
    return;
  }
  check_fault();
  m_probed = true;
  m_probe_event.notify(ps(core.m_cur->qk.local_ps()));
  core.note_activity();
  m_trace = TraceWriter::global();
  if (m_trace) nk_kernel_set_napi_hook(k, &KernelScheduler::napi_hook, this);

  /* The host application: frames of traffic.frame_bytes, flow 0, paced at
   * traffic.rate_gbps frame bits per second, or back to back at the line
   * rate with preamble and inter-frame gap (20 B) when it is 0. With
   * several cores it runs on its own (HostApp::run). */
  const bool app = core.m_ncores < 2 && happ.sends();
  bool tx_blocked = false; /* got NETDEV_TX_BUSY; retry after the next interrupt work */
  bool ack_blocked = false; /* tcp: an ACK got NETDEV_TX_BUSY; the same */
  bool end_reached = false;
  double vr_softirq = 0, vr_app = 0; /* CPU cycles each context has consumed (CFS vruntime) */
  bool rx_was_ready = false, app_was_ready = false;

  for (;;) {
    if (core.m_violated) {
      core.sync();
      return;
    }
    const uint64_t t = core.local_time_ps();
    if (t >= m_end_ps) {
      if (!end_reached) {
        end_reached = true;
        core.sync();
      }
      if (!core.drained || core.drained()) {
        finish();
        return;
      }
    }
    /* Hard IRQs and timers, then irq_exit: __do_softirq may begin. The task
     * it interrupted is the application if it was runnable (else idle). */
    if (core.m_irq.pending() & core.my_vectors()) {
      const bool task = happ.runnable(t, app, tx_blocked);
      locks.lock_kernel();
      deliver_irqs();
      locks.unlock_kernel();
      kernel_work_done();
      if (tx_blocked && !nk_kernel_tx_stopped(k)) tx_blocked = false;
      if (ack_blocked && !nk_kernel_tx_stopped(k)) ack_blocked = false;
      exit_to_task(task);
      continue;
    }
    if (core.m_irq.next_timer_ps() <= t) {
      const bool task = happ.runnable(t, app, tx_blocked);
      locks.lock_kernel();
      run_timers(t);
      locks.unlock_kernel();
      kernel_work_done();
      if (tx_blocked && !nk_kernel_tx_stopped(k)) tx_blocked = false;
      if (ack_blocked && !nk_kernel_tx_stopped(k)) ack_blocked = false;
      exit_to_task(task);
      continue;
    }
    /* tcp: ACKs the stack queued and could not send yet (softirq context). */
    if (stack.tcp() && !ack_blocked && !stack.ack_sender_busy() && nk_kernel_ack_peek(k, nullptr, nullptr)) {
      const double before = core.busy_cycles(false);
      locks.lock_kernel();
      if (!stack.send_acks()) ack_blocked = true;
      locks.unlock_kernel();
      kernel_work_done();
      vr_softirq += core.busy_cycles(false) - before;
      if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
      continue;
    }
    /* __do_softirq: its net_rx_action runs go before any task. Its cycles
     * count towards no task's vruntime (IRQ time accounting). */
    const bool inl = gate().in_do_softirq();
    /* Else ksoftirqd (NET_RX work left to it) and the application share the
     * core by consumed CPU time, as CFS shares it between two tasks under
     * load: the one that has run less goes next; one that was not runnable
     * starts level with the other, banking no credit. */
    const bool tcp_closed = happ.tcp_closed(t, app);
    unsigned ev = 0;
    const bool rx_ready = !inl && gate().ksoftirqd_runnable(nk_kernel_napi_pending(k), &ev);
    count_sirq(ev);
    const bool app_active = happ.active(t, app, tx_blocked, tcp_closed);
    const bool app_ready = app_active && happ.due(t);
    if (rx_ready && !rx_was_ready) vr_softirq = std::max(vr_softirq, vr_app);
    if (app_ready && !app_was_ready) vr_app = std::max(vr_app, vr_softirq);
    rx_was_ready = rx_ready;
    app_was_ready = app_ready;
    if (inl || (rx_ready && (!app_ready || vr_softirq <= vr_app))) {
      const double before = core_busy();
      core.count([](CpuCounters &c) { c.softirqs++; });
      locks.lock_kernel();
      const uint64_t polls = core.m_spread ? nk_kernel_cpu_stats(k, 0).napi_polls : 0;
      nk_kernel_softirq(k);
      check_fault();
      count_softirq(polls);
      /* The TCP receiver's ACKs go out from the softirq, after the poll. */
      if (stack.tcp() && !ack_blocked && !stack.send_acks()) ack_blocked = true;
      locks.unlock_kernel();
      kernel_work_done();
      const double cycles = core_busy() - before;
      if (!inl) vr_softirq += cycles;
      if (tx_blocked && !nk_kernel_tx_stopped(k)) tx_blocked = false;
      if (ack_blocked && !nk_kernel_tx_stopped(k)) ack_blocked = false;
      round_done(!inl, cycles, happ.runnable(core.local_time_ps(), app, tx_blocked));
      /* Let the rest of the model catch up between polls. */
      if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
      continue;
    }
    if (app_ready) {
      const double before = core.busy_cycles(false);
      const int rc = happ.xmit(t);
      vr_app += core.busy_cycles(false) - before;
      /* Queue stopped or no skb free: retry once interrupt work has run. */
      if (rc == NETDEV_TX_BUSY) tx_blocked = true;
      /* dev_queue_xmit's local_bh_enable: do_softirq if NET_RX is pending. */
      exit_to_task(true);
      if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
      continue;
    }
    /* Idle: wait for an interrupt, the next send, or the end of the run. */
    core.sync();
    const uint64_t now = kernel_now_ps();
    /* Past the end with work still in flight: look again every microsecond
     * (frames leaving on the wire need no interrupt to finish). */
    uint64_t wake = happ.next_wake(end_reached ? now + kDrainPollPs : UINT64_MAX, app_active, tcp_closed);
    wake = std::min(wake, core.m_irq.next_timer_ps()); /* a kernel timer expires */
    if (wake <= now) continue;
    /* A timeout left pending when the interrupt comes first stays in the
     * kernel's timed queue until it expires: only near ones are used; the
     * end of the run is an event notified once. */
    sc_core::sc_event &irq_ev = core.m_irq.event(0);
    if (wake == UINT64_MAX)
      core.suspend([this, &irq_ev] { sc_core::wait(irq_ev | m_end_event); });
    else
      core.suspend([this, &irq_ev, wake, now] { sc_core::wait(ps(wake - now), irq_ev | m_end_event); });
  }
}

}  // namespace nicsim
