/* waited_event.h: an sc_event for immediate notifications that counts the
 * threads waiting on it, so that a notification nobody waits for (which
 * would trigger nothing) costs no call into the SystemC kernel. */
#ifndef NICSIM_MODELS_COMMON_WAITED_EVENT_H
#define NICSIM_MODELS_COMMON_WAITED_EVENT_H

#include <cstdint>
#include <systemc>

namespace nicsim {

/* Only wait() may wait on the event (no static sensitivity, no event lists),
 * and it is only notified immediately: then a notify() with no thread in
 * wait() is exactly a no-op (it would cancel no pending notification and make
 * no process runnable), and is skipped. */
class WaitedEvent {
 public:
  /* Immediate notification: wakes the threads in wait(), if any. */
  void notify() {
    if (m_waiters) m_ev.notify();
  }
  /* Suspends the calling SC_THREAD until the next notify(). */
  void wait() {
    m_waiters++;
    sc_core::wait(m_ev);
    m_waiters--;
  }

 private:
  sc_core::sc_event m_ev;
  uint32_t m_waiters = 0;
};

}  // namespace nicsim
#endif
