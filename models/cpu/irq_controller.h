/* irq_controller.h: the host's interrupt controller and kernel timers, part
 * of CpuCore. MSIs (and the AXI bus's wired interrupt, which arrives as an
 * MSI data word) reach the cores cpu.msi_latency_ns after they reach memory,
 * in arrival order; each vector is pending on the core that takes it (core
 * 0, or with cpu.irq_affinity spread core v mod cores) until that core's
 * main loop takes it. The kernel's hrtimers keep one expiry per id and run
 * on core 0. */
#ifndef NICSIM_MODELS_CPU_IRQ_CONTROLLER_H
#define NICSIM_MODELS_CPU_IRQ_CONTROLLER_H

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "kernel/platform.h"

namespace nicsim {

class CpuCore;

class IrqController {
 public:
  static constexpr int kMaxVectors = 64; /* interrupt vectors (bits of pending()) */

  /* The controller of core, whose cores() and spread_irqs() are set;
   * msi_latency_ps: cpu.msi_latency_ns in ps. Built while core is being
   * constructed (its event queue is a child of core). */
  IrqController(CpuCore &core, uint64_t msi_latency_ps);

  /* ---- interrupts ------------------------------------------------------ */
  /* An MSI with data word `data` (the vector) arrived now; the core that
   * takes it sees it msi_latency_ps later. An unknown vector, or more than
   * kMsiRing MSIs in flight, is a violation. */
  void raise_msi(uint32_t data);
  /* The event queue's method: the oldest MSI in flight reaches its core. */
  void msi_arrive();
  /* The event queue MSIs travel through (CpuCore's msi_arrive is sensitive to it). */
  sc_core::sc_event_queue &msi_queue() { return m_msi_queue; }
  /* True while an MSI is on its way to a core. */
  bool msi_in_flight() const { return m_msi_count != 0; }
  /* Vectors signalled and not yet taken (bit per vector). */
  uint64_t pending() const { return m_pending; }
  /* The core that takes vector vec. */
  int core_of(int vec) const { return m_spread ? vec % m_ncores : 0; }
  /* Vectors core c takes (bit per vector). */
  uint64_t vectors(int c) const { return m_vec_mask[static_cast<size_t>(c)]; }
  /* Takes the lowest pending vector of mask: returns it (-1 if none) and
   * when its first MSI since it was last taken reached memory (*arrival_ps). */
  int take(uint64_t mask, uint64_t *arrival_ps);
  /* Drops the pending vectors of mask (nothing takes them any more). */
  void drop(uint64_t mask) { m_pending &= ~mask; }
  /* The event that wakes core c for an interrupt (core 0: also its timers). */
  sc_core::sc_event &event(int c) { return c == 0 ? m_event0 : m_events[c]; }

  /* ---- kernel timers ----------------------------------------------------- */
  /* (Re)arms timer id delay_ns after the current core's local time
   * (NK_TIMER_CANCEL cancels); an id outside 0..NK_TIMER_MAX-1 is a violation. */
  void timer_arm(int id, uint64_t delay_ns);
  /* The earliest armed expiry, ps (UINT64_MAX: none). */
  uint64_t next_timer_ps() const;
  /* Disarms and returns the timer with the earliest expiry at or before
   * t_ps (the lowest id among equal ones), or -1 if none is due. */
  int take_due_timer(uint64_t t_ps);

 private:
  /* A violation at the current simulated time, named as the core. */
  void report(const char *msg);

  CpuCore &m_core;
  const int m_ncores;
  const bool m_spread;
  const uint64_t m_msi_ps;          /* cpu.msi_latency_ns in ps */
  uint64_t m_pending = 0;           /* bit per vector */
  uint64_t m_raised = 0;            /* bit per vector: an MSI arrived and has not been taken yet */
  uint64_t m_arrival_ps[kMaxVectors] = {}; /* when the first such MSI reached memory, ps */
  std::vector<uint64_t> m_vec_mask; /* per core: the vectors it takes */
  sc_core::sc_event m_event0;       /* core 0's wake-up */
  std::unique_ptr<sc_core::sc_event[]> m_events; /* per core (core 0: m_event0) */
  sc_core::sc_event_queue m_msi_queue; /* MSIs on their way to the core */
  static constexpr unsigned kMsiRing = 1024;
  uint32_t m_msi_ring[kMsiRing] = {}; /* their data words, in arrival order */
  unsigned m_msi_head = 0, m_msi_count = 0;
  uint64_t m_timer_due_ps[NK_TIMER_MAX]; /* kernel timers by id (UINT64_MAX: not armed) */
};

}  // namespace nicsim
#endif
