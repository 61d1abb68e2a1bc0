/* irq_moderator.cpp: interrupt moderation and MSI delivery (see irq_moderator.h). */
#include "dma/irq_moderator.h"

#include "hw/generic_nic.h"
#include "nic/ps_time.h"

namespace nicsim {

IrqModerator::IrqModerator(sc_core::sc_module_name name, uint32_t coal_frames, double coal_usecs,
                           tlm::tlm_initiator_socket<> &socket, const NicClock &clock,
                           DmaXfer::ErrorFn on_error)
    : sc_core::sc_module(name),
      m_mask(GN_INT_ALL),
      m_coal_frames(coal_frames ? coal_frames : 1),
      m_coal_ps(round_ps(coal_usecs * 1e6)),
      m_xfer(socket, clock, std::move(on_error)) {
  SC_HAS_PROCESS(IrqModerator);
  SC_METHOD(timer_method);
  sensitive << m_timer;
  dont_initialize();
  SC_THREAD(msi_thread);
}

void IrqModerator::completion(uint32_t cause, uint32_t frames) {
  if (frames == 0) return;
  m_status |= cause;
  bool first = m_unnotified == 0;
  m_unnotified += frames;
  m_unnotified_causes |= cause;
  if (first) {
    m_first_ps = now_ps();
    arm_timer();
  }
  if (m_unnotified >= m_coal_frames) condition_met();
}

void IrqModerator::condition_met() {
  if (m_unnotified_causes & ~m_mask & GN_INT_ALL) {
    raise();
    return;
  }
  m_cnt.suppressed++;
  m_pending_causes |= m_unnotified_causes;
  m_unnotified = 0;
  m_unnotified_causes = 0;
  m_timer.cancel();
}

void IrqModerator::raise() {
  m_unnotified = 0;
  m_unnotified_causes = 0;
  m_pending_causes = 0;
  m_timer.cancel();
  if (m_msi_addr == 0) return; /* MSI not enabled: nothing can be delivered */
  m_cnt.raised++;
  m_msi_queued++;
  m_msi_kick.notify();
}

void IrqModerator::arm_timer() {
  m_timer.cancel();
  if (m_coal_ps == 0 || m_unnotified == 0) return;
  uint64_t due = m_first_ps + m_coal_ps;
  uint64_t now = now_ps();
  m_timer.notify(ps_time(due > now ? due - now : 0));
}

void IrqModerator::timer_method() {
  if (m_unnotified > 0 && m_coal_ps > 0 && now_ps() >= m_first_ps + m_coal_ps) condition_met();
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
  m_coal_frames = frames ? frames : 1;
  if (m_unnotified > 0 && m_unnotified >= m_coal_frames) condition_met();
}

uint32_t IrqModerator::coal_usecs() const {
  return static_cast<uint32_t>((m_coal_ps + 500000) / 1000000);
}

void IrqModerator::set_coal_usecs(uint32_t usecs) {
  m_coal_ps = static_cast<uint64_t>(usecs) * 1000000;
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
