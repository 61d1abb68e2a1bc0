/* irq_moderator.cpp: interrupt moderation and MSI delivery (see irq_moderator.h). */
#include "dma/irq_moderator.h"

#include <algorithm>
#include <cstdio>

#include "hw/generic_nic_regs.h"
#include "common/ps_time.h"
#include "common/trace.h"

namespace nicsim {

IrqModerator::IrqModerator(sc_core::sc_module_name name, uint32_t coal_frames, double coal_usecs,
                           tlm::tlm_initiator_socket<> &socket, const NicClock &clock,
                           DmaXfer::ErrorFn on_error, double itr_usecs)
    : sc_core::sc_module(name),
      m_mask(GN_INT_ALL),
      m_coal_frames(coal_frames ? coal_frames : 1),
      m_coal_ps(round_ps(coal_usecs * 1e6)),
      m_itr_ps(round_ps(itr_usecs * 1e6)),
      m_xfer(socket, clock, std::move(on_error)) {
  m_timer_causes = GN_INT_ALL;
  SC_HAS_PROCESS(IrqModerator);
  SC_METHOD(timer_method);
  sensitive << m_timer;
  dont_initialize();
  SC_METHOD(throttle_method);
  sensitive << m_throttle;
  dont_initialize();
  SC_THREAD(msi_thread);
}

void IrqModerator::set_trace(TraceWriter *t) {
  m_trace = t;
  if (!t) return;
  char name[32];
  std::snprintf(name, sizeof name, "irq%u.msi", m_vec);
  m_xfer.set_trace(t, t->track(name));
  std::snprintf(name, sizeof name, "irq%u.moderation", m_vec);
  m_trace_tid = t->track(name);
  /* MSIs per second, per interval of the trace's sample time. */
  std::snprintf(name, sizeof name, "irq%u MSI rate (/s)", m_vec);
  m_msi_rate = t->sampler(name, 1e12);
}

int IrqModerator::dir_of(uint32_t cause) { return (cause & GN_INT_RX) ? 0 : 1; }

void IrqModerator::completion(uint32_t cause, uint32_t frames, bool ioc) {
  if (frames == 0) return;
  m_status |= cause;
  m_unnotified += frames;
  m_unnotified_causes |= cause;
  if (m_split) {
    Dir &d = m_dir[dir_of(cause)];
    d.unnotified += frames;
    if (!d.armed || m_restart) {
      d.first_ps = now_ps();
      d.armed = true;
      arm_timer();
    }
    if (ioc || d.unnotified >= d.frames) condition_met();
    return;
  }
  if ((!m_timer_armed || m_restart) && (cause & m_timer_causes)) {
    m_first_ps = now_ps();
    m_timer_armed = true;
    arm_timer();
  }
  if (ioc || (!m_ioc_mode && m_unnotified >= m_coal_frames)) condition_met();
}

bool IrqModerator::completion_is_quiet(uint32_t cause, uint32_t frames, bool ioc) const {
  if (frames == 0) return true;
  bool met;
  if (m_split) {
    const Dir &d = m_dir[dir_of(cause)];
    /* Arming or re-arming a direction re-notifies the one timer event (even
     * at the other direction's unchanged due time): never quiet. */
    if (!d.armed || m_restart) return false;
    met = ioc || d.unnotified + frames >= d.frames;
    return !met || !((m_unnotified_causes | cause) & ~m_mask & GN_INT_ALL);
  }
  if ((!m_timer_armed || m_restart) && (cause & m_timer_causes) && m_coal_ps > 0) return false; /* arms the timer */
  met = ioc || (!m_ioc_mode && m_unnotified + frames >= m_coal_frames);
  /* condition_met raises unless every cause since the last interrupt is masked */
  return !met || !((m_unnotified_causes | cause) & ~m_mask & GN_INT_ALL);
}

void IrqModerator::set_ioc_mode(bool on) {
  m_ioc_mode = on;
  m_timer_causes = on ? GN_INT_RX : GN_INT_ALL;
}

void IrqModerator::condition_met() {
  if (m_unnotified_causes & ~m_mask & GN_INT_ALL) {
    raise();
    return;
  }
  m_cnt.suppressed++;
  if (m_trace) m_trace->instant(m_trace_tid, "suppressed", now_ps());
  m_pending_causes |= m_unnotified_causes;
  m_unnotified = 0;
  m_unnotified_causes = 0;
  m_timer_armed = false;
  clear_dirs();
  m_timer.cancel();
}

void IrqModerator::clear_dirs() {
  for (Dir &d : m_dir) {
    d.unnotified = 0;
    d.armed = false;
  }
}

void IrqModerator::raise() {
  uint32_t causes = m_unnotified_causes | m_pending_causes;
  m_unnotified = 0;
  m_unnotified_causes = 0;
  m_pending_causes = 0;
  m_timer_armed = false;
  clear_dirs();
  m_timer.cancel();
  if (m_msi_addr == 0) return; /* MSI not enabled: nothing can be delivered */
  if (m_deferred) {
    m_deferred_causes |= causes;
    m_cnt.throttled++;
    if (m_trace) m_trace->instant(m_trace_tid, "throttled", now_ps());
    return;
  }
  uint64_t now = now_ps();
  if (m_itr_ps > 0 && m_any_msi && now < m_last_msi_ps + m_itr_ps) {
    m_deferred = true;
    m_deferred_causes = causes;
    if (m_trace) m_trace->instant(m_trace_tid, "deferred", now);
    m_throttle.notify(ps_time(m_last_msi_ps + m_itr_ps - kernel_now_ps()));
    return;
  }
  send_msi();
}

void IrqModerator::send_msi() {
  m_any_msi = true;
  m_last_msi_ps = now_ps();
  m_cnt.raised++;
  if (m_trace) {
    m_trace->instant(m_trace_tid, "raise", m_last_msi_ps);
    m_msi_rate->add(m_last_msi_ps, 1);
  }
  m_msi_queued++;
  m_msi_kick.notify();
}

/* The ITR interval after the last MSI has passed: send the deferred one,
 * unless its causes were masked meanwhile (then it waits for the unmask). */
void IrqModerator::throttle_method() {
  if (!m_deferred) return;
  m_deferred = false;
  if (m_deferred_causes & ~m_mask & GN_INT_ALL) {
    m_deferred_causes = 0;
    send_msi();
  } else {
    m_cnt.suppressed++;
    if (m_trace) m_trace->instant(m_trace_tid, "suppressed", now_ps());
    m_pending_causes |= m_deferred_causes;
    m_deferred_causes = 0;
  }
}

void IrqModerator::arm_timer() {
  m_timer.cancel();
  uint64_t due = UINT64_MAX;
  if (m_split) {
    for (const Dir &d : m_dir)
      if (d.armed && d.coal_ps > 0) due = std::min(due, d.first_ps + d.coal_ps);
  } else if (m_coal_ps > 0 && m_timer_armed) {
    due = m_first_ps + m_coal_ps;
  }
  if (due == UINT64_MAX) return;
  const uint64_t kn = kernel_now_ps(); /* a delay for the kernel */
  m_timer.notify(ps_time(due > kn ? due - kn : 0));
}

void IrqModerator::timer_method() {
  if (m_split) {
    const uint64_t now = now_ps();
    for (const Dir &d : m_dir) {
      if (d.armed && d.coal_ps > 0 && now >= d.first_ps + d.coal_ps) {
        condition_met();
        return;
      }
    }
    return;
  }
  if (m_timer_armed && m_coal_ps > 0 && now_ps() >= m_first_ps + m_coal_ps) condition_met();
}

uint32_t IrqModerator::read_clear_status() {
  uint32_t v = m_status;
  m_status = 0;
  return v;
}

void IrqModerator::set_mask(uint32_t mask) {
  m_mask = mask;
  if (m_pending_causes & ~m_mask & GN_INT_ALL) raise();
}

void IrqModerator::set_coal_frames(uint32_t frames) {
  if (!m_split) count_change(m_coal_frames != (frames ? frames : 1)); /* split: counted per direction */
  m_coal_frames = frames ? frames : 1;
  if (m_split) {
    /* The shared register sets both directions. */
    set_dir_coal_frames(false, m_coal_frames);
    set_dir_coal_frames(true, m_coal_frames);
    return;
  }
  if (!m_ioc_mode && m_unnotified > 0 && m_unnotified >= m_coal_frames) condition_met();
}

void IrqModerator::split_directions() {
  if (m_split) return;
  m_split = true;
  for (Dir &d : m_dir) {
    d.frames = m_coal_frames;
    d.coal_ps = m_coal_ps;
    d.unnotified = 0;
    d.armed = false;
  }
  /* What was counted together stays pending: charge it to the directions
   * whose causes it has (all of it to RX if both), from the shared timer's start. */
  if (m_unnotified > 0) {
    Dir &d = m_dir[(m_unnotified_causes & GN_INT_RX) ? 0 : 1];
    d.unnotified = m_unnotified;
    d.armed = m_timer_armed;
    d.first_ps = m_first_ps;
  }
  m_timer_armed = false;
  arm_timer();
}

uint32_t IrqModerator::dir_coal_frames(bool tx) const { return m_split ? m_dir[tx].frames : m_coal_frames; }

uint32_t IrqModerator::dir_coal_usecs(bool tx) const {
  const uint64_t ps = m_split ? m_dir[tx].coal_ps : m_coal_ps;
  return static_cast<uint32_t>((ps + 500000) / 1000000);
}

void IrqModerator::set_dir_coal_frames(bool tx, uint32_t frames) {
  split_directions();
  Dir &d = m_dir[tx];
  count_change(d.frames != (frames ? frames : 1));
  d.frames = frames ? frames : 1;
  if (d.unnotified > 0 && d.unnotified >= d.frames) condition_met();
}

void IrqModerator::set_dir_coal_usecs(bool tx, uint32_t usecs) {
  split_directions();
  count_change(m_dir[tx].coal_ps != static_cast<uint64_t>(usecs) * 1000000);
  m_dir[tx].coal_ps = static_cast<uint64_t>(usecs) * 1000000;
  arm_timer(); /* re-armed from the oldest un-notified completion of each direction */
}

uint32_t IrqModerator::coal_usecs() const {
  return static_cast<uint32_t>((m_coal_ps + 500000) / 1000000);
}

void IrqModerator::count_change(bool changed) {
  if (!changed || m_msi_addr == 0) return; /* setup before MSI is enabled is not a change of moderation */
  m_cnt.moderation_changes++;
  if (m_trace) m_trace->instant(m_trace_tid, "moderation", now_ps());
}

void IrqModerator::set_coal_usecs(uint32_t usecs) {
  const uint64_t ps = static_cast<uint64_t>(usecs) * 1000000;
  if (!m_split) count_change(m_coal_ps != ps);
  m_coal_ps = ps;
  if (m_split) {
    for (Dir &d : m_dir) { /* the shared register sets both directions */
      count_change(d.coal_ps != ps);
      d.coal_ps = ps;
    }
  }
  arm_timer(); /* re-armed from the oldest un-notified completion */
}

void IrqModerator::set_coal_ps(uint64_t timer_ps) {
  m_coal_ps = timer_ps;
  arm_timer(); /* re-armed from the oldest un-notified completion */
}

void IrqModerator::msi_thread() {
  for (;;) {
    while (m_msi_queued == 0) wait(m_msi_kick);
    m_msi_queued--;
    for (int i = 0; i < 4; i++) m_msi_buf[i] = static_cast<uint8_t>(m_msi_data >> (8 * i));
    m_xfer.write(m_msi_addr, m_msi_buf, 4, DmaPurpose::Msi, 0);
  }
}

}  // namespace nicsim
