// host_app.cpp: the host application: the paced sender of test frames (or
// the TCP sender's segments) and the reader's copy to user space, with the
// application core's thread.
#include "cpu/host_app.h"

#include "common/ps_time.h"
#include "cpu/cpu_core.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nicsim {

void HostApp::Params::bind(ParamBinder &b) {
  b.key("traffic.mode", mode, {{"rx", Mode::Rx}, {"tx", Mode::Tx}, {"bidir", Mode::Bidir}, {"forward", Mode::Forward}});
  sends = mode == Mode::Tx || mode == Mode::Bidir;
  b.key("traffic.frame_bytes", frame_bytes);
  b.key("traffic.flows", flows);
  b.key("traffic.rate_gbps", rate_gbps);
  b.key("traffic.tx_pacing", average_pacing, {{"strict", false}, {"average", true}});
  b.key("traffic.sender", pktgen, {{"socket", false}, {"pktgen", true}});
  b.key("traffic.pktgen_clone_skb", clone_skb);
}

HostApp::HostApp(CpuCore &core, const Params &p)
    : m_core(core),
      m_p(p),
      m_sends(p.sends),
      m_frame_bytes(p.frame_bytes),
      m_tx_flows(static_cast<uint64_t>(std::max<int64_t>(1, p.flows))),
      m_traffic_end_ps(p.traffic_end_ps) {
  m_interval_ps = interval_ps();
}

double HostApp::interval_ps() const {
  if (m_p.rate_gbps > 0) return static_cast<double>(m_p.frame_bytes) * 8.0 * 1000.0 / m_p.rate_gbps;
  if (m_core.m_stack.sndbuf() > 0) return 0;
  if (m_p.pktgen) return 0; /* pktgen with delay 0: back to back */
  return (static_cast<double>(m_p.frame_bytes) + 20) * 8.0 * 1000.0 / m_p.line_rate_gbps;
}

uint32_t HostApp::frame_flow() const {
  return m_core.m_stack.tcp() ? 0 : static_cast<uint32_t>(m_seq % m_tx_flows);
}

uint64_t HostApp::frame_seq(uint64_t tseq) const { return m_core.m_stack.tcp() ? tseq : m_seq / m_tx_flows; }

bool HostApp::tcp_closed(uint64_t t, bool app) {
  /* tcp: the host sends lost segments (SACK recovery) or new data while
   * its window is open; with no ACK progress for tcp_rto_us every segment
   * not SACKed is lost (an ACK or a segment was lost). */
  HostStack &stack = m_core.m_stack;
  return stack.tcp() && app && t < m_traffic_end_ps && stack.tcp_window_closed(t);
}

bool HostApp::active(uint64_t t, bool app, bool tx_blocked, bool tcp_closed) {
  return app && t < m_traffic_end_ps && !tx_blocked && !tcp_closed && !m_core.m_stack.sndbuf_wait(&m_sock_waiting);
}

bool HostApp::runnable(uint64_t t, bool app, bool tx_blocked) {
  HostStack &stack = m_core.m_stack;
  return app && t < m_traffic_end_ps && !tx_blocked && !(stack.tcp() && !stack.sender().can_send()) &&
         !stack.sndbuf_blocked(m_sock_waiting) && due(t);
}

uint64_t HostApp::next_wake(uint64_t wake, bool active, bool tcp_closed) const {
  if (active) wake = std::min(wake, static_cast<uint64_t>(std::ceil(m_next_send_ps)));
  if (tcp_closed) wake = std::min(wake, m_core.m_stack.tcp_rto_due_ps());
  return wake;
}

int HostApp::pktgen_xmit(bool *clone) {
  return nk_kernel_pktgen_xmit(m_core.m_kernel, m_frame_bytes, m_seq - m_clones, clone);
}

int HostApp::xmit(uint64_t t) {
  HostStack &stack = m_core.m_stack;
  if (m_p.pktgen) {
    bool clone = false;
    const int rc = pktgen_xmit(&clone);
    m_core.m_sched.check_fault();
    xmit_done(rc, t, clone);
    return rc;
  }
  bool rtx = false;
  const uint64_t tseq = stack.tcp() ? stack.sender().peek(&rtx) : 0;
  /* udp: frame n is flow n mod traffic.flows (as the wire peer's), so flows spread over TX queues */
  const int rc = nk_kernel_xmit(m_core.m_kernel, m_frame_bytes, frame_flow(), frame_seq(tseq));
  m_core.m_sched.check_fault();
  if (rc == NETDEV_TX_OK && stack.tcp()) stack.tcp_sent(t, tseq, rtx);
  xmit_done(rc, t);
  return rc;
}

void HostApp::xmit_done(int rc, uint64_t t, bool clone) {
  if (rc == NETDEV_TX_OK) {
    m_seq++;
    m_core.count([](CpuCounters &c) { c.tx_frames++; });
    if (clone) {
      m_clones++;
      m_core.count([](CpuCounters &c) { c.tx_pktgen_clones++; });
    }
    if (m_p.average_pacing) {
      /* The average rate since the first frame (m_seq is now 1 after it): a
       * late sender catches up back to back (iperf3 -b). */
      m_next_send_ps = (m_seq == 1 ? static_cast<double>(t) : m_next_send_ps) + m_interval_ps;
      return;
    }
    /* Next frame one interval later, but no credit for time lost while
     * the core was busy elsewhere beyond the current frame. */
    m_next_send_ps = std::max(m_next_send_ps + m_interval_ps, static_cast<double>(t));
  } else if (rc == NETDEV_TX_BUSY) {
    m_core.count([](CpuCounters &c) { c.tx_busy++; });
  } else {
    char msg[96];
    std::snprintf(msg, sizeof msg, "nk_kernel_xmit failed with %d", rc);
    m_core.violation(msg);
  }
}

void HostApp::run() {
  CpuCore &core = m_core;
  KernelScheduler &sched = core.m_sched;
  HostStack &stack = core.m_stack;
  if (!sched.wait_probed()) return;
  nk_kernel *k = core.m_kernel;
  const bool app = m_sends;
  bool tx_blocked = false;
  uint64_t blocked_gen = 0; /* core 0's kernel work pass when the send got NETDEV_TX_BUSY */
  bool prepaid = false;     /* the stack cost of the frame to send is charged (it waits in the qdisc) */
  /* spread: this core's vectors and NET_RX softirq share it with the
   * application as on one core (kernel_main): a hard IRQ runs first, then
   * softirq and application by consumed cycles (CFS between ksoftirqd and
   * the task; a softirq newly raised starts level, so it runs on IRQ exit). */
  bool ack_blocked = false;
  double vr_softirq = 0, vr_app = 0;
  bool rx_was_ready = false, app_was_ready = false;
  int ran = 0; /* what the last iteration ran: 1 softirq work, 2 application */
  double busy_mark = 0;
  for (;;) {
    if (core.m_violated || sched.removed()) {
      core.sync();
      return;
    }
    const uint64_t t = core.local_time_ps();
    if (core.m_spread) {
      const double d = core.m_cur->busy_total - busy_mark;
      busy_mark = core.m_cur->busy_total;
      if (ran == 1) vr_softirq += d;
      if (ran == 2) vr_app += d;
      ran = 1;
      /* The task its IRQs interrupt: the application if it was runnable (copy or send). */
      const bool task = nk_kernel_user_copy_pending(k) > 0 || runnable(t, app, tx_blocked);
      if (sched.irq_core_irqs(&tx_blocked, &ack_blocked, task)) continue;
      if (sched.irq_core_acks(&ack_blocked)) continue;
      if (tx_blocked && sched.kwork_gen() != blocked_gen && !nk_kernel_tx_stopped(k)) tx_blocked = false;
      /* __do_softirq first; else ksoftirqd and the application by CFS. */
      const bool inl = sched.gate().in_do_softirq();
      unsigned ev = 0;
      const bool rx_ready = !inl && sched.gate().ksoftirqd_runnable(nk_kernel_napi_pending(k), &ev);
      sched.count_sirq(ev);
      const bool send_ready = app && t < m_traffic_end_ps && !tx_blocked &&
                              !(stack.tcp() && !stack.sender().can_send()) && !stack.sndbuf_wait(&m_sock_waiting) &&
                              due(t);
      const bool app_ready = nk_kernel_user_copy_pending(k) > 0 || send_ready;
      if (rx_ready && !rx_was_ready) vr_softirq = std::max(vr_softirq, vr_app);
      if (app_ready && !app_was_ready) vr_app = std::max(vr_app, vr_softirq);
      rx_was_ready = rx_ready;
      app_was_ready = app_ready;
      if (inl || (rx_ready && (!app_ready || vr_softirq <= vr_app))) {
        const double before = core.m_cur->busy_total;
        sched.irq_core_softirq(&ack_blocked);
        if (tx_blocked && sched.kwork_gen() != blocked_gen && !nk_kernel_tx_stopped(k)) tx_blocked = false;
        const uint64_t now = core.local_time_ps();
        sched.round_done(!inl, core.m_cur->busy_total - before,
                         nk_kernel_user_copy_pending(k) > 0 || runnable(now, app, tx_blocked));
        if (inl) ran = 0; /* __do_softirq: no task's vruntime */
        if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
        continue;
      }
      ran = 2;
    }
    /* The reader copies what the softirq delivered (process context, no lock). */
    if (nk_kernel_user_copy_pending(k)) {
      nk_kernel_user_copy(k);
      if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
      continue;
    }
    if (tx_blocked && sched.kwork_gen() != blocked_gen && !nk_kernel_tx_stopped(k)) tx_blocked = false;
    const bool closed = tcp_closed(t, app);
    const bool app_active = active(t, app, tx_blocked, closed);
    if (app_active && due(t)) {
      /* The stack's work runs outside the kernel lock, then the driver's xmit inside it
       * (cpu.locking txq: no kernel lock; the xmit takes the TX queue lock). */
      if (!prepaid && !m_p.pktgen) {
        nk_kernel_stack_tx(k, m_frame_bytes);
        prepaid = true;
      }
      if (!sched.enter_kernel()) continue;
      if (m_p.pktgen) {
        /* pktgen's kthread: pktgen_xmit calls the driver itself (no socket, no stack). */
        bool clone = false;
        const int rc = pktgen_xmit(&clone);
        sched.check_fault();
        sched.leave_kernel();
        xmit_done(rc, t, clone);
        if (core.m_spread) sched.exit_to_task(true); /* pktgen_xmit's local_bh_enable */
        if (rc == NETDEV_TX_BUSY) {
          tx_blocked = true;
          blocked_gen = sched.kwork_gen();
        }
        if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
        continue;
      }
      /* txq: core 0 runs meanwhile; its ACK processing waits for the socket. */
      if (core.m_txq && stack.tcp()) stack.sock_lock();
      bool rtx = false;
      const uint64_t tseq = stack.tcp() ? stack.sender().peek(&rtx) : 0;
      const int rc = nk_kernel_xmit_prepared(k, m_frame_bytes, frame_flow(), frame_seq(tseq));
      sched.check_fault();
      sched.leave_kernel();
      if (rc == NETDEV_TX_OK && stack.tcp()) stack.tcp_sent(t, tseq, rtx);
      if (stack.sock_owned()) stack.sock_release();
      xmit_done(rc, t);
      /* dev_queue_xmit's local_bh_enable: do_softirq if this core's NET_RX is pending. */
      if (core.m_spread) sched.exit_to_task(true);
      if (rc == NETDEV_TX_OK) {
        prepaid = false;
      } else if (rc == NETDEV_TX_BUSY) {
        tx_blocked = true;
        blocked_gen = sched.kwork_gen();
      }
      if (core.m_cur->qk.need_sync(kernel_now_ps())) core.qk_sync();
      continue;
    }
    /* Idle: wait for core 0's kernel work, the next send or an RTO. */
    core.sync();
    const uint64_t now = kernel_now_ps();
    uint64_t wake = next_wake(UINT64_MAX, app_active, closed);
    if (app && t < m_traffic_end_ps) wake = std::min(wake, m_traffic_end_ps);
    if (wake <= now) continue;
    sc_core::sc_event &app_ev = sched.app_event();
    if (core.m_spread) {
      /* Its own vectors wake it too (one raised during the sync is pending already). */
      if (core.m_irq.pending() & core.my_vectors()) continue;
      sc_core::sc_event &ev = core.m_irq.event(core.cur_core());
      if (wake == UINT64_MAX)
        core.suspend([&app_ev, &ev] { sc_core::wait(app_ev | ev); });
      else
        core.suspend([&app_ev, &ev, wake, now] { sc_core::wait(sc_core::sc_time::from_value(wake - now), app_ev | ev); });
      continue;
    }
    if (wake == UINT64_MAX)
      core.suspend([&app_ev] { sc_core::wait(app_ev); });
    else
      core.suspend([&app_ev, wake, now] { sc_core::wait(sc_core::sc_time::from_value(wake - now), app_ev); });
  }
}

}  // namespace nicsim
