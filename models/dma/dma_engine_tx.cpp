/* dma_engine_tx.cpp: the DMA engine's TX data path: the issue stage (round
 * robin over the TX queues, a frame at a time), the data readers (one per
 * read tag) and the in-order retire stage that hands frames to the MAC. */
#include "dma/dma_engine.h"

#include <algorithm>

#include "common/ps_time.h"
#include "hw/generic_nic_regs.h"
#include "mac/mac.h"

namespace nicsim {

/* ---- TX ------------------------------------------------------------------- */

int DmaEngine::tx_pick_queue() const {
  const uint32_t n = tx_queues();
  if (m_tx_open_bytes > 0) {
    const DescRing &r = *m_tx[m_tx_cur_q];
    return r.halted() || r.cache_empty() ? -1 : static_cast<int>(m_tx_cur_q);
  }
  for (uint32_t i = 1; i <= n; i++) {
    const uint32_t q = (m_tx_cur_q + i) % n;
    const DescRing &r = *m_tx[q];
    if (!r.halted() && !r.cache_empty()) return static_cast<int>(q);
  }
  return -1;
}

void DmaEngine::tx_issue_thread() {
  ByteFifo &fifo = m_mac.tx_fifo();
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    bool halted = false;
    for (const auto &r : m_tx) halted |= r->halted();
    if (!(m_ctrl & GN_CTRL_TX_EN) || (halted && tx_queues() == 1)) {
      m_ctrl_event.wait();
      continue;
    }
    const int pick = tx_pick_queue();
    if (pick < 0) {
      m_tx_desc_any.wait();
      continue;
    }
    if (m_job_issued - m_job_head == njobs) {
      m_tx_job_freed.wait();
      continue;
    }
    const uint32_t q = static_cast<uint32_t>(pick);
    DescRing &ring = *m_tx[q];
    m_tx_cur_q = q;
    uint32_t idx = 0;
    DmaDesc d = ring.pop_cached(&idx);
    /* Descriptors are processed one after another; the read of this one
     * starts when its processing is done (passed as the start offset, so
     * the stage runs ahead without waiting). */
    uint64_t now = now_ps();
    m_tx_proc_done_ps = m_clock.after_cycles(std::max(now, m_tx_proc_done_ps), m_p.desc_proc_cycles);
    m_cnt.busy_cycles += m_p.desc_proc_cycles;
    if (d.len == 0) {
      violation("TX descriptor %u has length 0", idx);
      ring.halt();
      continue;
    }
    if (m_tx_open_bytes + d.len > fifo.max_frame()) {
      violation("TX frame ending at descriptor %u is longer than %u bytes", idx, fifo.max_frame());
      ring.halt();
      continue;
    }
    while (!fifo.can_append(d.len)) m_mac.wait_tx_space();
    uint8_t *dst = fifo.append(d.len);
    if (m_tx_open_bytes == 0) m_tx_in_engine++;
    m_tx_open_bytes += d.len;
    if (d.eop) {
      fifo.close_frame();
      m_tx_open_bytes = 0;
    }
    m_tags.acquire(false, q);
    TxJob &j = m_jobs[m_job_issued % njobs];
    j.q = q;
    j.idx = idx;
    j.d = d;
    j.dst = dst;
    j.start_ps = m_tx_proc_done_ps;
    j.done = false;
    m_job_issued++;
    /* Wake exactly one idle reader (a reader that is busy takes the next
     * job itself when it finishes). */
    if (!m_idle_readers.empty()) {
      m_reader_wake[m_idle_readers.back()]->notify();
      m_idle_readers.pop_back();
    }
  }
}

void DmaEngine::tx_reader(uint32_t i) {
  DmaXfer &x = *m_tx_read_x[i];
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    if (m_job_started == m_job_issued) {
      m_idle_readers.push_back(i);
      wait(*m_reader_wake[i]);
      continue;
    }
    TxJob &j = m_jobs[m_job_started % njobs];
    x.set_arb_seq(static_cast<uint32_t>(m_job_started)); /* same-edge reads in job order */
    m_job_started++;
    bool ok = x.read(j.d.buf_addr, j.dst, j.d.len, DmaPurpose::Data, 0, j.start_ps, data_ro(j.d.buf_addr));
    m_tags.release(false);
    if (!ok) {
      m_tx[j.q]->halt(); /* the job never completes: TX stops here */
      continue;
    }
    m_cnt.data_read_bytes += j.d.len;
    j.done = true;
    m_tx_job_done.notify();
  }
}

void DmaEngine::tx_retire_thread() {
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    if (m_job_head == m_job_issued || !m_jobs[m_job_head % njobs].done) {
      if (tx_flush_all()) continue; /* a job may have finished meanwhile */
      m_tx_job_done.wait();
      continue;
    }
    TxJob &j = m_jobs[m_job_head % njobs];
    uint32_t idx = j.idx;
    bool eop = j.d.eop;
    WbQueue &wb = m_tx_wb[j.q];
    if (eop) {
      m_mac.tx_publish();
      m_tx_in_engine--;
      m_cnt.tx_dma_frames++;
      m_cnt.txq_frames[j.q]++;
    }
    m_codec.encode_tx_done(j.d, wb_slot(wb));
    m_job_head++;
    m_tx_job_freed.notify();
    wb_add(wb, idx, eop, j.d.ioc);
  }
}

}  // namespace nicsim
