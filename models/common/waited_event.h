/* waited_event.h: an sc_event for immediate notifications that counts the
 * threads waiting on it, so that a notification nobody waits for (which
 * would trigger nothing) costs no call into the SystemC kernel. */
#ifndef NICSIM_MODELS_COMMON_WAITED_EVENT_H
#define NICSIM_MODELS_COMMON_WAITED_EVENT_H

#include <cstdint>
#include <systemc>

#include "common/ps_time.h"

namespace nicsim {

/* Only wait() and an armed method's next_trigger may wait on the event (no
 * static sensitivity, no event lists),
 * and it is only notified immediately: then a notify() with no thread in
 * wait() is exactly a no-op (it would cancel no pending notification and make
 * no process runnable), and is skipped. */
class WaitedEvent {
 public:
  /* Immediate notification: wakes the threads in wait() and an armed
   * method, if any. */
  void notify() {
    if (m_waiters || m_armed) {
      m_armed = false;
      /* From a process acting ahead (LogicalNow): at the time it acts at,
       * where the immediate notification would have been made. */
      const uint64_t ahead = g_logical_now_ps;
      if (ahead)
        m_ev.notify(ps_time(ahead - kernel_now_ps()));
      else
        m_ev.notify();
    }
  }
  /* For an SC_METHOD that is about to next_trigger on the returned event:
   * the next notify() fires it (as it wakes a thread in wait()). */
  const sc_core::sc_event &arm() {
    m_armed = true;
    return m_ev;
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
  bool m_armed = false; /* a method waits for the next notify() */
};

}  // namespace nicsim
#endif
