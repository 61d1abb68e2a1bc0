/* kernel_scheduler.h: what each host core runs, part of CpuCore: the kernel
 * main loop of core 0 (driver probe, hard IRQs, kernel timers, the NET_RX
 * softirq as __do_softirq at IRQ exit or as ksoftirqd (SoftirqGate), which
 * shares the core with the application by consumed cycles as CFS does, the
 * TCP receiver's ACKs; the end of the run and the driver's remove), and with cpu.irq_affinity spread the loop of every
 * other core that takes vectors (its IRQs, its own softirq). Every entry
 * into the kernel layer goes through the locks (KernelLocks) and is
 * followed by a check for a kernel fault. The application core's loop is
 * HostApp::run, which uses the IRQ-core steps here. */
#ifndef NICSIM_MODELS_CPU_KERNEL_SCHEDULER_H
#define NICSIM_MODELS_CPU_KERNEL_SCHEDULER_H

#include <cstdint>
#include <systemc>
#include <vector>

#include "cpu/softirq.h"

namespace nicsim {

class CpuCore;
class TraceWriter;
constexpr int NK_NAPI_TRACKS = 16; /* NAPI contexts traced (the kernel's NK_NAPI_MAX) */

class KernelScheduler {
 public:
  /* The scheduler of core, whose cores() is set; end_ps: duration + drain, ps. */
  KernelScheduler(CpuCore &core, uint64_t end_ps);

  /* Core 0's thread: creates the kernel, probes the driver, then takes
   * interrupts, runs timers, softirqs and (one core) the application until
   * the end of the run and the drain, then removes the driver (finish). */
  void kernel_main();
  /* spread: the thread of core c when it is neither core 0 nor the application core. */
  void irq_core_thread(int c);

  /* ---- what the other cores' loops share -------------------------------- */
  /* Waits until the driver is probed; false if the run failed first. */
  bool wait_probed();
  /* A core enters (leaves) the kernel for work the driver's remove must
   * not overlap (the application's xmit; with spread, IRQs and softirqs):
   * the kernel lock (big), and a count finish() waits on before the remove.
   * false (nothing taken) once the remove has begun or the run failed. */
  bool enter_kernel();
  void leave_kernel();
  /* Core 0 (or with spread any core) did kernel work: wakes the application
   * core (TX queue, copies). */
  void kernel_work_done();
  /* After every kernel entry: the kernel layer caught a driver bug (a violation). */
  void check_fault();
  /* spread: takes the current core's pending vectors (true if there were
   * any; tx_blocked, ack_blocked cleared if the TX queue woke), then exits
   * to task context (exit_to_task); runs one NET_RX softirq round on it,
   * then its ACKs. */
  bool irq_core_irqs(bool *tx_blocked, bool *ack_blocked, bool task_runnable);
  void irq_core_softirq(bool *ack_blocked);
  /* spread: irq_core_softirq's round as the gate calls for it (by
   * __do_softirq or a runnable ksoftirqd; task_runnable as for round_done);
   * false if neither runs now. */
  bool irq_core_net_rx(bool *ack_blocked, bool task_runnable);
  /* spread, tcp: if no core is sending the queued ACKs and none blocked
   * (*ack_blocked), sends them from the current core (its kernel entry, as
   * an IRQ core) and returns true; *ack_blocked if the driver was busy. */
  bool irq_core_acks(bool *ack_blocked);
  /* When NET_RX runs on the current core (cpu/softirq.h). */
  SoftirqGate &gate() { return m_sirq[static_cast<size_t>(cur_core())]; }
  /* irq_exit (after hard IRQs or timers) or local_bh_enable (after the
   * task's kernel entry) on the current core; task_runnable: a task, not
   * the idle one, was running. May begin __do_softirq. */
  void exit_to_task(bool task_runnable);
  /* A NET_RX round of `cycles` ran on the current core, by __do_softirq
   * (gate().in_do_softirq() was true) or by ksoftirqd; task_runnable now
   * (for need_resched). Counts it and moves __do_softirq on. */
  void round_done(bool by_ksoftirqd, double cycles, bool task_runnable);
  /* Counts SoftirqEvent bits on the current core. */
  void count_sirq(unsigned ev);
  /* The driver's remove has run (or is under way). */
  bool removed() const { return m_removed; }
  bool removing() const { return m_removing; }
  /* Kernel work passes (kernel_work_done) so far. */
  uint64_t kwork_gen() const { return m_kwork_gen; }
  /* Notified by kernel_work_done. */
  sc_core::sc_event &app_event() { return m_app_event; }
  /* --trace is on (NAPI polls are recorded). */
  bool tracing() const { return m_trace != nullptr; }

 private:
  /* Takes the current core's pending vectors, lowest first (nk_kernel_irq). */
  void deliver_irqs();
  /* Runs every kernel timer due at or before local time t_ps, earliest first;
   * false if none was due. */
  bool run_timers(uint64_t t_ps);
  /* spread: counts a softirq run of the current core and its polls (the
   * kernel's count for it was polls_before) into its window counters. */
  void count_softirq(uint64_t polls_before);
  /* The end of the run: waits for the other cores to leave the kernel,
   * removes the driver and checks the kernel (on_finished). */
  void finish();
  /* The kernel's NAPI hook: a poll of NAPI index started (end false) or ended. */
  static void napi_hook(void *ctx, int index, int rx_queue, bool end, int work, int budget);

  int cur_core() const;
  /* Busy cycles of the current core so far (whole run). */
  double core_busy() const;
  CpuCore &m_core;
  const uint64_t m_end_ps; /* duration + drain */
  std::vector<SoftirqGate> m_sirq; /* per core */
  /* txq: cores other than 0 inside the kernel (the application's
   * nk_kernel_xmit_prepared; with spread, IRQs and softirqs); finish() waits
   * for them to leave before the driver's remove (m_removing). */
  int m_in_kernel = 0;
  bool m_removing = false;
  bool m_removed = false; /* the driver's remove has run */
  bool m_probed = false;
  uint64_t m_kwork_gen = 0;          /* kernel work passes of core 0 */
  sc_core::sc_event m_app_out_event; /* the last core left the kernel while removing */
  sc_core::sc_event m_app_event;     /* core 0 did kernel work */
  sc_core::sc_event m_probe_event;   /* the driver is probed */
  sc_core::sc_event m_end_event;     /* duration + drain */
  /* --trace: NAPI polls on tracks cpu<core>.napi<index> (nk_kernel_set_napi_hook) */
  TraceWriter *m_trace = nullptr;
  std::vector<uint32_t> m_napi_tid;              /* track per (core, NAPI index) (0: not created) */
  uint64_t m_napi_start_ps[NK_NAPI_TRACKS] = {}; /* local time its running poll started */
};

}  // namespace nicsim
#endif
