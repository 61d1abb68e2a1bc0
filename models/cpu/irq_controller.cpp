// irq_controller.cpp: the MSI input with its latency, per-core pending
// vectors and the kernel timers of CpuCore.
#include "cpu/irq_controller.h"

#include "common/ps_time.h"
#include "cpu/cpu_core.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace nicsim {

IrqController::IrqController(CpuCore &core, uint64_t msi_latency_ps)
    : m_core(core),
      m_ncores(core.cores()),
      m_spread(core.spread_irqs()),
      m_msi_ps(msi_latency_ps),
      m_msi_queue("msi_queue") {
  /* The vectors each core takes: all on core 0, or vector v on core v mod cores. */
  m_vec_mask.assign(core.m_cores.size(), 0);
  for (int v = 0; v < kMaxVectors; v++) m_vec_mask[static_cast<size_t>(core_of(v))] |= 1ull << v;
  m_events.reset(new sc_core::sc_event[core.m_cores.size()]);
  for (uint64_t &d : m_timer_due_ps) d = UINT64_MAX;
}

void IrqController::report(const char *msg) {
  if (m_core.on_violation) m_core.on_violation(m_core.name(), msg, static_cast<double>(kernel_now_ps()) / 1000.0);
}

void IrqController::raise_msi(uint32_t data) {
  /* The interrupt controller decodes the MSI data word as the vector number
   * (what nk_msi_data programs into the device). */
  if (data >= static_cast<uint32_t>(kMaxVectors)) {
    char msg[120];
    std::snprintf(msg, sizeof msg, "MSI with data 0x%" PRIx32 " names no interrupt vector (0..%d)", data,
                  kMaxVectors - 1);
    report(msg);
    return;
  }
  if (!(m_raised & (1ull << data))) {
    m_raised |= 1ull << data;
    m_arrival_ps[data] = kernel_now_ps();
  }
  if (m_msi_ps == 0) {
    m_pending |= 1ull << data;
    event(core_of(static_cast<int>(data))).notify();
    m_core.note_activity();
    return;
  }
  /* Through the interrupt controller: the same latency for every MSI, so
   * they reach the core in arrival order. */
  if (m_msi_count == kMsiRing) {
    char msg[120];
    std::snprintf(msg, sizeof msg, "more than %u MSIs in flight to the core at once", kMsiRing);
    report(msg);
    return;
  }
  m_msi_ring[(m_msi_head + m_msi_count++) % kMsiRing] = data;
  m_msi_queue.notify(sc_core::sc_time::from_value(m_msi_ps));
  m_core.note_activity();
}

void IrqController::msi_arrive() {
  if (m_msi_count == 0) return;
  const uint32_t data = m_msi_ring[m_msi_head];
  m_msi_head = (m_msi_head + 1) % kMsiRing;
  m_msi_count--;
  m_pending |= 1ull << data;
  event(core_of(static_cast<int>(data))).notify();
  m_core.note_activity();
}

int IrqController::take(uint64_t mask, uint64_t *arrival_ps) {
  if (!(m_pending & mask)) return -1;
  const int vec = __builtin_ctzll(m_pending & mask);
  m_pending &= ~(1ull << vec);
  m_raised &= ~(1ull << vec);
  *arrival_ps = m_arrival_ps[vec];
  return vec;
}

void IrqController::timer_arm(int id, uint64_t delay_ns) {
  if (id < 0 || id >= NK_TIMER_MAX) {
    char msg[96];
    std::snprintf(msg, sizeof msg, "kernel armed timer %d; the core has timers 0..%d", id, NK_TIMER_MAX - 1);
    m_core.violation(msg);
    return;
  }
  if (delay_ns == NK_TIMER_CANCEL) {
    m_timer_due_ps[id] = UINT64_MAX;
    return;
  }
  const uint64_t t = m_core.local_time_ps();
  const uint64_t d = delay_ns > (UINT64_MAX - t) / 1000 ? UINT64_MAX - 1 : t + delay_ns * 1000;
  m_timer_due_ps[id] = d;
  /* Core 0 runs the timers. Armed from another core (stmmac's TX timer from
   * the sender's xmit), the expiry must reach core 0, which may be idle
   * until its next interrupt: wake it then (a needless wake is harmless,
   * its loop looks again). */
  if (m_ncores >= 2 && m_core.cur_core() != 0 && d != UINT64_MAX - 1) {
    m_event0.notify(sc_core::sc_time::from_value(d - kernel_now_ps()));
    m_core.note_activity();
  }
}

uint64_t IrqController::next_timer_ps() const {
  uint64_t due = UINT64_MAX;
  for (uint64_t d : m_timer_due_ps) due = std::min(due, d);
  return due;
}

int IrqController::take_due_timer(uint64_t t_ps) {
  int id = -1;
  for (int i = 0; i < NK_TIMER_MAX; i++)
    if (m_timer_due_ps[i] <= t_ps && (id < 0 || m_timer_due_ps[i] < m_timer_due_ps[id])) id = i;
  if (id >= 0) m_timer_due_ps[id] = UINT64_MAX;
  return id;
}

}  // namespace nicsim
