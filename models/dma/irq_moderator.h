/* irq_moderator.h: interrupt causes, masking and moderation (frame count,
 * timer, ITR throttling) of a NIC, and the MSI writes it sends. */
#ifndef NICSIM_MODELS_DMA_IRQ_MODERATOR_H
#define NICSIM_MODELS_DMA_IRQ_MODERATOR_H

#include <cstdint>
#include <systemc>
#include <tlm>

#include "dma/dma_counters.h"
#include "dma/dma_xfer.h"
#include "dma/nic_clock.h"

namespace nicsim {

class TraceSampler;

/*
 * Moderation. Each completion sets its cause in the status register and
 * counts as un-notified. The moderation condition holds when the un-notified
 * completions reach coal_frames, or when the oldest of them is coal_usecs old
 * (a timer armed at the first one; 0 disables it). When it holds:
 *   - if any cause among the un-notified ones is unmasked, an MSI is raised;
 *   - otherwise the interrupt is suppressed (counted) and left pending.
 * Either way the un-notified count restarts. Unmasking a cause that has a
 * pending interrupt raises one at once. Raising clears everything pending:
 * the moderator serves one MSI(-X) vector (a DmaEngine has one per queue
 * pair, each with its own moderator). MSIs are sent by one thread, in order, on the
 * same socket as the data, so each arrives after the writes it announces.
 * MSI is enabled when the MSI address is non-zero.
 *
 * In IOC mode (stmmac) the frame threshold is off: a completion whose
 * descriptor has IOC set meets the condition at once, and only RX
 * completions arm the timer (the RX watchdog).
 *
 * Per-direction coalescing (set_dir_coal; ethtool's rx-frames/rx-usecs and
 * tx-frames/tx-usecs): RX and TX completions then count apart, each against
 * its own threshold and its own timer, armed by that direction's first
 * un-notified completion; the condition holds when either direction meets
 * its own. Raising still clears both (one vector serves both directions).
 *
 * Restart timer (set_timer_restart; nic.irq_coal_timer restart): every
 * completion that could arm the timer re-arms it from now, so the timer
 * expires coal_usecs after the last completion of a burst rather than after
 * its first (the Xilinx AXI DMA's IRQDelay, several SoC MACs).
 *
 * ITR throttling (Intel's interrupt throttle rate): with itr_usecs > 0 two
 * MSIs are at least itr_usecs apart. An interrupt raised sooner is deferred
 * to last + itr_usecs; later raises merge into it (counted as throttled). If
 * its causes are masked by then, it becomes pending (suppressed) instead.
 */
class IrqModerator : public sc_core::sc_module {
 public:
  /* Cumulative counters (dma_counters.h). */
  using Counters = IrqCounters;

  /* coal_frames: completions per interrupt; coal_usecs: timer, us (0: none);
   * socket and clock: where and when MSI writes go; on_error: failed MSI write;
   * itr_usecs: least time between two MSIs, us (0: no throttling). */
  IrqModerator(sc_core::sc_module_name name, uint32_t coal_frames, double coal_usecs,
               tlm::tlm_initiator_socket<> &socket, const NicClock &clock, DmaXfer::ErrorFn on_error,
               double itr_usecs = 0);

  /* frames completions of cause (GN_INT_* bits) happened now; ioc: one of
   * them had its descriptor's interrupt-on-completion bit set. */
  void completion(uint32_t cause, uint32_t frames, bool ioc = false);
  /* True if completion(cause, frames, ioc) now would schedule nothing: no
   * coalescing timer armed, no interrupt raised (none due, or suppressed by
   * the mask). A process acting ahead (LogicalNow) may then complete early;
   * it reads only the time it acts at. */
  bool completion_is_quiet(uint32_t cause, uint32_t frames, bool ioc) const;
  /* IOC mode (stmmac): no frame threshold; a completion interrupts only if
   * its descriptor asks (IOC); RX completions without it start the timer
   * (the RX watchdog, RIWT); TX ones wait for a later interrupt. */
  void set_ioc_mode(bool on);

  /* Status register: read-to-clear, and write-1-to-clear. */
  uint32_t read_clear_status();
  void clear_status(uint32_t bits) { m_status &= ~bits; }
  /* Mask register (1 = masked); writing may raise a pending interrupt. */
  uint32_t mask() const { return m_mask; }
  void set_mask(uint32_t mask);
  /* Coalescing registers: frames, and microseconds. */
  uint32_t coal_frames() const { return m_coal_frames; }
  void set_coal_frames(uint32_t frames);
  uint32_t coal_usecs() const;
  void set_coal_usecs(uint32_t usecs);
  /* The timer in ps (the stmmac RX watchdog's RWT x 256 CSR cycles needs
   * sub-microsecond precision); 0 turns it off. */
  void set_coal_ps(uint64_t timer_ps);
  /* Per-direction coalescing registers (tx: TX, else RX): frames and
   * microseconds. The first write splits the directions (see above). */
  uint32_t dir_coal_frames(bool tx) const;
  uint32_t dir_coal_usecs(bool tx) const;
  void set_dir_coal_frames(bool tx, uint32_t frames);
  void set_dir_coal_usecs(bool tx, uint32_t usecs);
  /* True once the directions count apart. */
  bool split() const { return m_split; }
  /* The timer restarts at every completion (true) or runs from the first (false). */
  void set_timer_restart(bool on) { m_restart = on; }
  /* MSI address (low/high halves) and data registers. */
  uint32_t msi_addr_lo() const { return static_cast<uint32_t>(m_msi_addr); }
  uint32_t msi_addr_hi() const { return static_cast<uint32_t>(m_msi_addr >> 32); }
  uint32_t msi_data() const { return m_msi_data; }
  void set_msi_addr_lo(uint32_t v) { m_msi_addr = (m_msi_addr & ~0xFFFFFFFFull) | v; }
  void set_msi_addr_hi(uint32_t v) {
    m_msi_addr = (m_msi_addr & 0xFFFFFFFFull) | (static_cast<uint64_t>(v) << 32);
  }
  void set_msi_data(uint32_t v) { m_msi_data = v; }

  /* Counters so far. */
  const Counters &counters() const { return m_cnt; }
  /* Traces MSI writes and moderation decisions on two tracks of t,
   * irq<v>.msi and irq<v>.moderation for this moderator's vector v. */
  void set_trace(TraceWriter *t);
  /* The MSI-X vector this moderator serves (trace names; default 0). */
  void set_vector(uint32_t v) { m_vec = v; }
  /* The engine's arbiter for this vector's MSI writes (class Msi, by vector). */
  void set_arbiter(DmaArbiter *a) { m_xfer.set_arbiter(a, dma_arb_key(DmaClass::Msi, m_vec)); }
  uint32_t vector() const { return m_vec; }
  /* Completions not yet covered by an interrupt (raised or suppressed). */
  uint32_t unnotified() const { return m_unnotified; }

 private:
  void condition_met();
  void raise();
  void arm_timer();
  void timer_method();
  void msi_thread();
  void throttle_method();
  void send_msi();
  /* Starts per-direction counting from the shared values. */
  void split_directions();
  /* The direction of cause (0: GN_INT_RX, 1: TX). */
  static int dir_of(uint32_t cause);
  /* Counts a coalescing write that changed a value (Counters::moderation_changes). */
  void count_change(bool changed);
  /* Clears every direction's count and timer (an interrupt or suppression). */
  void clear_dirs();

  uint32_t m_vec = 0;            /* MSI-X vector (trace names) */
  uint32_t m_status = 0;
  uint32_t m_mask;
  uint32_t m_coal_frames;
  uint64_t m_coal_ps;            /* timer, ps; 0: none */
  uint64_t m_msi_addr = 0;
  uint32_t m_msi_data = 0;
  uint32_t m_unnotified = 0;     /* completions since the last interrupt or suppression */
  uint32_t m_unnotified_causes = 0;
  uint64_t m_first_ps = 0;       /* time the timer was armed */
  bool m_timer_armed = false;    /* the timer runs from m_first_ps */
  bool m_ioc_mode = false;
  uint32_t m_timer_causes;       /* causes that arm the timer */
  uint32_t m_pending_causes = 0; /* suppressed interrupt waiting for unmask */
  uint32_t m_msi_queued = 0;     /* MSIs raised, not yet sent */
  bool m_restart = false;        /* the timer restarts at every completion */
  bool m_split = false;          /* RX and TX count apart (m_dir) */
  struct Dir {
    uint32_t frames = 1;         /* threshold */
    uint64_t coal_ps = 0;        /* timer, ps; 0: none */
    uint32_t unnotified = 0;     /* this direction's completions since the last interrupt */
    uint64_t first_ps = 0;       /* when its timer was armed */
    bool armed = false;
  } m_dir[2];
  TraceWriter *m_trace = nullptr;
  uint32_t m_trace_tid = 0;      /* moderation decisions track */
  TraceSampler *m_msi_rate = nullptr; /* the MSI-rate counter (with m_trace) */
  uint64_t m_itr_ps;             /* least MSI spacing, ps; 0: none */
  bool m_any_msi = false;        /* an MSI has been sent (m_last_msi_ps is valid) */
  uint64_t m_last_msi_ps = 0;    /* when the latest MSI was raised */
  bool m_deferred = false;       /* an MSI waits for the ITR interval */
  uint32_t m_deferred_causes = 0;
  sc_core::sc_event m_throttle;
  sc_core::sc_event m_timer;
  sc_core::sc_event m_msi_kick;
  DmaXfer m_xfer;
  uint8_t m_msi_buf[4];
  Counters m_cnt;
};

}  // namespace nicsim
#endif
