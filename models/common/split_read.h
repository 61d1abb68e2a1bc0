/*
 * split_read.h: completion tracking for a DMA read that an interconnect
 * splits into parts (PCIe MRds, AXI bursts) finishing one by one. The thread
 * that issued the read waits until the last part is done. Contexts are
 * pooled, so a steady stream of reads allocates nothing.
 */
#ifndef NICSIM_MODELS_COMMON_SPLIT_READ_H
#define NICSIM_MODELS_COMMON_SPLIT_READ_H

#include <algorithm>
#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

namespace nicsim {

class SplitReadPool {
 public:
  /* One read in flight: its parts outstanding, the latest part's time, and
   * whether every part's memory access succeeded. */
  class Read {
   public:
    /* A part finished at t_ps (ps); ok is false if its access failed. */
    void part_done(bool ok, uint64_t t_ps) {
      m_ok = m_ok && ok;
      m_last_ps = std::max(m_last_ps, t_ps);
      if (--m_remaining == 0) m_done.notify(sc_core::SC_ZERO_TIME);
    }
    /* The interconnect's own per-read state: PcieLink's completion pacing
     * (when the root complex is done producing this read's data so far, ps). */
    uint64_t cpl_free_ps = 0;

   private:
    friend class SplitReadPool;
    uint32_t m_remaining = 0;
    uint64_t m_last_ps = 0;
    bool m_ok = true;
    sc_core::sc_event m_done;
  };

  /* Starts a read of `parts` parts issued at now_ps (ps). */
  Read *begin(uint32_t parts, uint64_t now_ps) {
    if (m_free.empty()) m_free.push_back(std::make_unique<Read>());
    m_busy.push_back(std::move(m_free.back()));
    m_free.pop_back();
    Read *r = m_busy.back().get();
    r->m_remaining = parts;
    r->m_last_ps = now_ps;
    r->m_ok = true;
    r->cpl_free_ps = 0;
    return r;
  }

  /* Waits, in the calling SystemC thread, until every part of r is done;
   * sets *last_ps to the latest part's time, returns r to the pool, and
   * returns whether all parts succeeded. */
  bool finish(Read *r, uint64_t *last_ps) {
    while (r->m_remaining) sc_core::wait(r->m_done);
    *last_ps = r->m_last_ps;
    const bool ok = r->m_ok;
    for (size_t i = 0; i < m_busy.size(); i++) {
      if (m_busy[i].get() != r) continue;
      m_free.push_back(std::move(m_busy[i]));
      m_busy[i] = std::move(m_busy.back());
      m_busy.pop_back();
      break;
    }
    return ok;
  }

 private:
  std::vector<std::unique_ptr<Read>> m_free; /* ready for reuse */
  std::vector<std::unique_ptr<Read>> m_busy; /* reads in flight (owned while their threads wait) */
};

}  // namespace nicsim
#endif
