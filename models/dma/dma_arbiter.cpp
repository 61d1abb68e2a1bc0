/* dma_arbiter.cpp: same-edge DMA requests released in key order (see dma_arbiter.h). */
#include "dma/dma_arbiter.h"

#include <algorithm>

#include "common/ps_time.h"

namespace nicsim {

DmaArbiter::DmaArbiter(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  require_ps_resolution(this->name());
  m_pending.reserve(32);
  SC_HAS_PROCESS(DmaArbiter);
  SC_METHOD(release);
  sensitive << m_wake;
  dont_initialize();
}

void DmaArbiter::wait_turn(uint64_t start_ps, uint64_t key, sc_core::sc_event &ev) {
  const uint64_t now = now_ps();
  if (start_ps < now) start_ps = now;
  const Req r{start_ps, key, &ev};
  auto at = std::upper_bound(m_pending.begin(), m_pending.end(), r, [](const Req &a, const Req &b) {
    return a.start_ps != b.start_ps ? a.start_ps < b.start_ps : a.key < b.key;
  });
  m_pending.insert(at, r);
  /* An earlier notification overrides a later pending one; a later is ignored. */
  m_wake.notify(ps_time(start_ps - now));
  sc_core::wait(ev);
}

void DmaArbiter::release() {
  const uint64_t now = now_ps();
  size_t n = 0;
  while (n < m_pending.size() && m_pending[n].start_ps <= now) n++;
  if (n > 1) m_contested++;
  /* Immediate notifications: the threads become runnable in this order and
   * run in it, after this method, in this delta. */
  for (size_t i = 0; i < n; i++) m_pending[i].ev->notify();
  m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(n));
  if (!m_pending.empty()) m_wake.notify(ps_time(m_pending.front().start_ps - now));
}

}  // namespace nicsim
