/* dma_engine_rx.cpp: the DMA engine's RX data path: frames from the MAC's RX
 * FIFO to the RSS queue's host buffers and their write-back, as an
 * SC_THREAD (rx_data_thread) or, over a PcieLink, as the SC_METHOD state
 * machine rx_data_method. */
#include "dma/dma_engine.h"

#include <algorithm>

#include "common/lookahead.h"
#include "common/ps_time.h"
#include "hw/generic_nic_regs.h"
#include "mac/mac.h"
#include "pcie/pcie_link.h"

namespace nicsim {

/* ---- RX ------------------------------------------------------------------- */

/* The RX channel: frames leave the FIFO in arrival order, each to the queue
 * RSS picks; a frame whose queue has no descriptor waits (and so do the
 * frames behind it: one FIFO, as the generic NIC's), or with rx_drop_nodesc
 * is dropped when the ring has none left for the device (nothing cached,
 * nothing to fetch). */
/* The ring of the RX FIFO's oldest frame (RSS, computed once per frame), or
 * nullptr if that frame has just been dropped because its ring has no
 * descriptor left for the device (rx_drop_nodesc). */
DescRing *DmaEngine::rx_front_ring() {
  if (m_rx_front_q < 0) {
    uint32_t len = 0;
    const uint8_t *data = m_mac.rx_fifo().front(&len);
    m_rx_front_q = static_cast<int>(rss_queue(data, len));
  }
  DescRing &r = *m_rx[static_cast<uint32_t>(m_rx_front_q)];
  if (r.cache_empty() && m_p.rx_drop_nodesc && r.owned() == 0) {
    m_mac.rx_pop(); /* dropped where it stands: the frames behind it go on */
    m_rx_front_q = -1;
    m_cnt.rx_drop_nodesc++;
    return nullptr;
  }
  return &r;
}

void DmaEngine::rx_data_thread() {
  if (m_rx_link) {
    m_rxm_start.notify(); /* the method runs the RX path; this thread ends */
    return;
  }
  for (;;) {
    bool halted = false;
    for (const auto &r : m_rx) halted |= r->halted();
    /* Before each wait the pending write-backs go out; if that took time,
     * what the wait was for may have happened meanwhile (a frame, a tail
     * write, a CTRL write): look again rather than wait for the next one. */
    if (!(m_ctrl & GN_CTRL_RX_EN) || halted) {
      if (rx_flush_all()) continue;
      m_ctrl_event.wait();
      continue;
    }
    if (m_mac.rx_fifo().frames() == 0) {
      if (rx_flush_all()) continue;
      m_mac.wait_rx_frame();
      continue;
    }
    DescRing *front = rx_front_ring();
    if (!front) continue;
    DescRing &r = *front;
    if (r.cache_empty()) {
      if (rx_flush_all()) continue;
      r.wait_desc_ready();
      continue;
    }
    rx_one_frame(static_cast<uint32_t>(m_rx_front_q));
  }
}

/* Takes ring's next cached descriptor for the frame's bytes [off, len): its
 * processing cycles pass as the write's start offset (b->ready_ps); a family
 * may put a header before the frame in its first buffer (mvneta's 2-byte
 * Marvell header), so the frame starts that far in. False (violation
 * reported, ring halted) if the buffer cannot hold a byte. */
bool DmaEngine::rx_take_buffer(DescRing &ring, uint32_t off, uint32_t len, RxBuf *b) {
  b->d = ring.pop_cached(&b->idx);
  b->ready_ps = m_clock.after_cycles(now_ps(), m_p.desc_proc_cycles);
  m_cnt.busy_cycles += m_p.desc_proc_cycles;
  const uint32_t buf = b->d.len ? b->d.len : m_rx_buf_size;
  if (buf == 0) {
    violation("RX descriptor %u has no buffer (buf_len 0 and RX_BUF_SIZE 0)", b->idx);
    ring.halt();
    return false;
  }
  const uint32_t skip = off == 0 ? m_codec.rx_data_offset() : 0;
  if (buf <= skip) {
    violation("RX descriptor %u: buffer of %u bytes has no room after the %u-byte header", b->idx, buf, skip);
    ring.halt();
    return false;
  }
  b->addr = b->d.buf_addr + skip;
  b->chunk = std::min(len - off, buf - skip);
  return true;
}

/* Moves the oldest RX FIFO frame into as many buffers of queue qi as it needs. */
void DmaEngine::rx_one_frame(uint32_t qi) {
  ByteFifo &fifo = m_mac.rx_fifo();
  DescRing &ring = *m_rx[qi];
  DmaXfer &xfer = *m_rx_data_x[qi];
  WbQueue &wb = m_rx_wb[qi];
  uint32_t len = 0;
  const uint8_t *data = fifo.front(&len);
  uint32_t off = 0;
  m_cnt.rxq_steered[qi]++;
  while (off < len) {
    while (ring.cache_empty() || !(m_ctrl & GN_CTRL_RX_EN)) {
      if (ring.halted()) return;
      if (rx_flush_all()) continue; /* time passed: look again first */
      if (!(m_ctrl & GN_CTRL_RX_EN)) {
        m_ctrl_event.wait();
      } else {
        ring.wait_desc_ready();
      }
    }
    if (ring.halted()) return;
    RxBuf b;
    if (!rx_take_buffer(ring, off, len, &b)) return;
    const uint32_t chunk = b.chunk;
    const uint32_t idx = b.idx;
    const DmaDesc &d = b.d;
    if (!xfer.write(b.addr, data + off, chunk, DmaPurpose::Data, 0, b.ready_ps, data_ro(b.addr))) {
      ring.halt();
      return;
    }
    m_cnt.data_write_bytes += chunk;
    off += chunk;
    bool eop = off == len;
    if (eop) {
      m_mac.rx_pop(); /* the bytes have left the device (may send XON) */
      m_rx_front_q = -1;
      m_rx_in_engine++;
    }
    m_codec.encode_rx_done(d, chunk, off, eop, wb_slot(wb));
    wb_add(wb, idx, eop, d.ioc);
  }
}

/* ---- RX as a method --------------------------------------------------------- */

void DmaEngine::start_of_simulation() {
  /* Only a PcieLink answers the probe; another target (the AXI bus, whose
   * b_transport waits) keeps the thread. */
  tlm::tlm_generic_payload gp;
  PcieNbProbe probe;
  gp.set_extension(&probe);
  m_socket->transport_dbg(gp);
  gp.clear_extension(&probe);
  m_rx_link = m_p.rx_method ? probe.link : nullptr;
  if (m_rx_link)
    for (auto &x : m_rx_data_x) x->set_nb_link(m_rx_link);
}

uint64_t DmaEngine::rx_nb_line_waits() const {
  uint64_t n = 0;
  for (const auto &x : m_rx_data_x) n += x->nb_line_waits();
  return n;
}

uint64_t DmaEngine::rx_nb_lookaheads() const {
  uint64_t n = 0;
  for (const auto &x : m_rx_data_x) n += x->nb_lookaheads();
  return n;
}

uint64_t DmaEngine::rx_nb_credit_waits() const {
  uint64_t n = 0;
  for (const auto &x : m_rx_data_x) n += x->nb_credit_waits();
  return n;
}

/* rx_data_thread and rx_one_frame, step for step: each of their waits
 * (rx_flush_all's write-backs, the data write, the events) is a
 * next_trigger, and the activation it ends resumes at the same point. */
void DmaEngine::rx_data_method() {
  /* The kernel is asked again in each activation, after a write enters a
   * link that notifies its commits, and after a write-back ended early (what
   * follows may kick the descriptor fetcher): what ran or was notified since
   * may have given it something to do. Between those points the method
   * notifies nothing: a write entering a lazily committing link, a data
   * write's end, the frame's pop (the wire peer's replay) and a write-back's
   * start make no kernel activity. */
  m_rxm_quiet.reset();
  LogicalNow ahead(0); /* the kernel's time, until a write ends early */
  m_rxm_ahead = &ahead;
  for (;;) {
    bool waits = false;
    switch (m_rxm.st) {
      case kRxmTop: waits = rxm_top(); break;
      case kRxmFrame: waits = rxm_frame(); break;
      case kRxmData: waits = rxm_data(); break;
      case kRxmFlush: waits = rxm_flush(); break;
      case kRxmWokeTop: m_rxm.st = kRxmTop; break;     /* rx_data_thread's `continue` after a wait */
      case kRxmWokeFrame: m_rxm.st = kRxmFrame; break; /* rx_one_frame's wait loop, checked again */
      default: break;
    }
    if (waits) break;
  }
  m_rxm_ahead = nullptr;
}

void DmaEngine::rxm_ended_at(uint64_t done) {
  if (done > now_ps()) m_rxm_ahead->advance(done);
}

/* rx_data_thread's loop body, up to rx_one_frame. */
bool DmaEngine::rxm_top() {
  const uint32_t nq = rx_queues();
  bool halted = false;
  for (const auto &r : m_rx) halted |= r->halted();
  if (!(m_ctrl & GN_CTRL_RX_EN) || halted) {
    rxm_flush_start(0, nq, kAfterCtrl);
    return false;
  }
  if (m_mac.rx_fifo().frames() == 0) {
    rxm_flush_start(0, nq, kAfterFrame);
    return false;
  }
  DescRing *front = rx_front_ring();
  if (!front) return false;
  DescRing &r = *front;
  if (r.cache_empty()) {
    m_rxm.wait_ring = static_cast<uint32_t>(m_rx_front_q);
    rxm_flush_start(0, nq, kAfterDesc);
    return false;
  }
  /* rx_one_frame's start */
  const uint32_t qi = static_cast<uint32_t>(m_rx_front_q);
  m_rxm.q = qi;
  m_rxm.data = m_mac.rx_fifo().front(&m_rxm.len);
  m_rxm.off = 0;
  m_cnt.rxq_steered[qi]++;
  m_rxm.st = kRxmFrame;
  return false;
}

/* rx_one_frame's loop body up to the data write (or its return). */
bool DmaEngine::rxm_frame() {
  const uint32_t qi = m_rxm.q;
  DescRing &ring = *m_rx[qi];
  if (m_rxm.off >= m_rxm.len) { /* the frame is done: rx_one_frame returns */
    m_rxm.st = kRxmTop;
    return false;
  }
  if (ring.cache_empty() || !(m_ctrl & GN_CTRL_RX_EN)) {
    if (ring.halted()) {
      m_rxm.st = kRxmTop;
      return false;
    }
    rxm_flush_start(0, rx_queues(), kAfterFrameWait);
    return false;
  }
  if (ring.halted()) {
    m_rxm.st = kRxmTop;
    return false;
  }
  RxBuf b;
  if (!rx_take_buffer(ring, m_rxm.off, m_rxm.len, &b)) {
    m_rxm.st = kRxmTop;
    return false;
  }
  m_rxm.d = b.d;
  m_rxm.idx = b.idx;
  m_rxm.chunk = b.chunk;
  m_rx_data_x[qi]->write_nb_begin(b.addr, m_rxm.data + m_rxm.off, b.chunk, DmaPurpose::Data, 0, b.ready_ps,
                                  data_ro(b.addr));
  m_rxm.st = kRxmData;
  return false;
}

/* The data write, then what follows it in rx_one_frame (wb_add included). */
bool DmaEngine::rxm_data() {
  const uint32_t qi = m_rxm.q;
  DmaXfer &x = *m_rx_data_x[qi];
  const DmaXfer::NbResult res = x.write_nb_step(rxm_may_end_early(), &m_rxm_quiet);
  if (res == DmaXfer::NbResult::Pending) return true;
  /* It may have ended early: the rest runs at its end (LogicalNow) */
  if (res == DmaXfer::NbResult::Ok) rxm_ended_at(x.nb_done_ps());
  if (res == DmaXfer::NbResult::Failed) {
    m_rx[qi]->halt();
    m_rxm.st = kRxmTop;
    return false;
  }
  const uint32_t chunk = m_rxm.chunk;
  m_cnt.data_write_bytes += chunk;
  m_rxm.off += chunk;
  const bool eop = m_rxm.off == m_rxm.len;
  if (eop) {
    m_mac.rx_pop(); /* the bytes have left the device (may send XON) */
    m_rx_front_q = -1;
    m_rx_in_engine++;
  }
  WbQueue &wb = m_rx_wb[qi];
  m_codec.encode_rx_done(m_rxm.d, chunk, m_rxm.off, eop, wb_slot(wb));
  /* wb_add */
  wb.idx[wb.count] = m_rxm.idx;
  wb.eop[wb.count] = eop ? 1 : 0;
  wb.ioc[wb.count] = m_rxm.d.ioc ? 1 : 0;
  wb.count++;
  if (wb.count >= m_p.wb_threshold) {
    rxm_flush_start(qi, qi + 1, kAfterFrameNext);
    return false;
  }
  m_rxm.st = kRxmFrame;
  return false;
}

bool DmaEngine::rxm_wb_may_end_early(const WbQueue &q) const {
  if (m_rxm.after != kAfterFrameNext || m_mac.pause_enabled()) return false;
  if (m_rxm.fl_q + 1 != m_rxm.fl_end || m_rxm.fl_i + m_rxm.fl_n != q.count) return false; /* not the last write */
  uint32_t frames = 0;
  bool ioc = false;
  for (uint32_t k = m_rxm.fl_i; k < m_rxm.fl_i + m_rxm.fl_n; k++) {
    frames += q.eop[k];
    ioc |= q.eop[k] && q.ioc[k];
  }
  return q.irq->completion_is_quiet(q.cause, frames, ioc);
}

bool DmaEngine::rxm_may_end_early() const {
  if (m_rxm.off + m_rxm.chunk != m_rxm.len || m_mac.pause_enabled()) return false;
  return m_rx_wb[m_rxm.q].count + 1 >= m_p.wb_threshold; /* else rxm_top would look at the FIFO next */
}

void DmaEngine::rxm_flush_start(uint32_t first, uint32_t end, uint8_t after) {
  m_rxm.fl_q = first;
  m_rxm.fl_end = end;
  m_rxm.fl_i = 0;
  m_rxm.fl_writing = false;
  m_rxm.fl_wrote = false;
  m_rxm.after = after;
  m_rxm.st = kRxmFlush;
}

/* wb_flush over queues [fl_q, fl_end) (RX queues write descriptors back, never
 * a head index), then the wait or step that followed the flush. */
bool DmaEngine::rxm_flush() {
  for (;;) {
    if (m_rxm.fl_writing) {
      WbQueue &q = m_rx_wb[m_rxm.fl_q];
      const DmaXfer::NbResult res = q.xfer->write_nb_step(rxm_wb_may_end_early(q), &m_rxm_quiet);
      if (res == DmaXfer::NbResult::Pending) return true;
      if (res == DmaXfer::NbResult::Ok && q.xfer->nb_done_ps() > now_ps()) {
        rxm_ended_at(q.xfer->nb_done_ps());
        m_rxm_quiet.reset(); /* what follows may notify (the fetcher's kick, timed from then) */
      }
      m_rxm.fl_writing = false;
      DescRing &r = *q.ring;
      if (res == DmaXfer::NbResult::Failed) { /* wb_flush gives up on this queue */
        r.halt();
        q.count = 0;
        m_rxm.fl_q++;
        m_rxm.fl_i = 0;
        continue;
      }
      const uint32_t i = m_rxm.fl_i, n = m_rxm.fl_n;
      wb_written(q, i, n);
      m_rxm.fl_i = i + n;
      continue;
    }
    if (m_rxm.fl_q >= m_rxm.fl_end) break;
    WbQueue &q = m_rx_wb[m_rxm.fl_q];
    if (m_rxm.fl_i >= q.count) {
      q.count = 0;
      m_rxm.fl_q++;
      m_rxm.fl_i = 0;
      continue;
    }
    const uint32_t db = q.ring->desc_bytes();
    const uint32_t i = m_rxm.fl_i;
    const uint32_t n = wb_run(q, i);
    m_rxm.fl_n = n;
    m_rxm.fl_writing = true;
    m_rxm.fl_wrote = true;
    q.xfer->write_nb_begin(q.ring->slot_addr(q.idx[i]), q.bytes.data() + static_cast<size_t>(i) * db, n * db,
                           DmaPurpose::DescWriteBack, 0);
  }
  if (m_rxm.fl_wrote && m_rxm.after != kAfterFrameNext) {
    /* The write-backs took time: what the wait was for may have happened
     * meanwhile; look again, as rx_data_thread does. */
    m_rxm.st = m_rxm.after == kAfterFrameWait ? kRxmFrame : kRxmTop;
    return false;
  }
  switch (m_rxm.after) {
    case kAfterCtrl:
      m_ctrl_nb_wait = true;
      sc_core::next_trigger(m_ctrl_nb);
      m_rxm.st = kRxmWokeTop;
      return true;
    case kAfterFrame:
      rxm_wait_frame(true);
      m_rxm.st = kRxmWokeTop;
      return true;
    case kAfterDesc:
      m_rx[m_rxm.wait_ring]->next_trigger_desc_ready();
      m_rxm.st = kRxmWokeTop;
      return true;
    case kAfterFrameWait:
      if (!(m_ctrl & GN_CTRL_RX_EN)) {
        m_ctrl_nb_wait = true;
        sc_core::next_trigger(m_ctrl_nb);
      } else {
        m_rx[m_rxm.q]->next_trigger_desc_ready();
      }
      m_rxm.st = kRxmWokeFrame;
      return true;
    default: /* kAfterFrameNext */
      m_rxm.st = kRxmFrame;
      return false;
  }
}

/* rx_data_thread's wait for a frame: the thread looked at the FIFO and went
 * into wait_rx_frame at once (no write-back took time in between), so a
 * frame there now (put by another process in the same delta, which the
 * thread would have seen) is taken at once (recheck). */
void DmaEngine::rxm_wait_frame(bool recheck) {
  if (recheck && m_mac.rx_fifo().frames() > 0) {
    sc_core::next_trigger(ps_time(now_ps() - kernel_now_ps())); /* a delta, or the time it acts at (ahead) */
    return;
  }
  sc_core::next_trigger(m_mac.want_rx_frame());
}

}  // namespace nicsim
