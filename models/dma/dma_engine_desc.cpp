/* dma_engine_desc.cpp: the DMA engine's descriptor traffic: completed
 * descriptors queued and written back (or the TX head index), frames
 * completed to the interrupt moderation, and each ring's descriptor fetch
 * (batched into its cache). */
#include "dma/dma_engine.h"

#include <algorithm>

#include "hw/generic_nic_regs.h"

namespace nicsim {

/* ---- descriptor write-back ------------------------------------------------ */

void DmaEngine::wb_add(WbQueue &q, uint32_t idx, bool eop, bool ioc) {
  q.idx[q.count] = idx;
  q.eop[q.count] = eop ? 1 : 0;
  q.ioc[q.count] = ioc ? 1 : 0;
  q.count++;
  if (q.count >= m_p.wb_threshold) wb_flush(q);
}

/* One write-back request of q's queued descriptors [i, i + n) has left the
 * device: head moves past them, then their frames complete (counters, and
 * the queue's interrupt moderation). */
void DmaEngine::wb_written(WbQueue &q, uint32_t i, uint32_t n) {
  m_cnt.desc_writebacks++;
  wb_complete(q, i, n);
}

/* q's queued descriptors [i, i + n) are done: head moves past them, then
 * their frames complete. */
void DmaEngine::wb_complete(WbQueue &q, uint32_t i, uint32_t n) {
  q.ring->advance_head(n);
  uint32_t frames = 0;
  bool ioc = false;
  for (uint32_t k = i; k < i + n; k++) {
    frames += q.eop[k];
    ioc |= q.eop[k] && q.ioc[k];
  }
  /* TBU: the ring holds nothing more the device owns; it suspends and says so. */
  if (q.irq_on_drain && q.ring->owned() == 0) ioc = true;
  if (frames) {
    if (q.rx) {
      m_cnt.rx_dma_frames += frames;
      m_cnt.rxq_frames[q.qid] += frames;
      m_rx_in_engine -= frames;
    }
    q.irq->completion(q.cause, frames, ioc);
  }
}

/* How many of q's queued descriptors from the i-th one write-back request
 * carries: the run of consecutive ones when they are packed (spacing ==
 * size), else one. */
uint32_t DmaEngine::wb_run(const WbQueue &q, uint32_t i) const {
  uint32_t n = 1;
  if (q.ring->spacing() == q.ring->desc_bytes())
    while (i + n < q.count && q.idx[i + n] == q.idx[i] + n) n++;
  return n;
}

/* Writes back the queued descriptors: one request per run of consecutive
 * descriptors when they are packed (spacing == size), else one each. Head
 * moves past them once each request has left; then their frames complete. */
void DmaEngine::wb_flush(WbQueue &q) {
  if (q.head_wb) {
    wb_flush_head(q);
    return;
  }
  const uint32_t db = q.ring->desc_bytes();
  uint32_t i = 0;
  while (i < q.count) {
    const uint32_t n = wb_run(q, i);
    DescRing &r = *q.ring;
    if (!q.xfer->write(r.slot_addr(q.idx[i]), q.bytes.data() + static_cast<size_t>(i) * db, n * db,
                       DmaPurpose::DescWriteBack, 0)) {
      r.halt();
      q.count = 0;
      return;
    }
    wb_written(q, i, n);
    i += n;
  }
  q.count = 0;
}

/* Head write-back (i40e TX style): the descriptors stay as the driver wrote
 * them; one 4-byte write of the new head index to the queue's head
 * write-back address (none if it is 0: the driver reads the HEAD register),
 * then head moves past them all. */
void DmaEngine::wb_flush_head(WbQueue &q) {
  if (q.count == 0) return;
  DescRing &r = *q.ring;
  uint32_t new_head = (r.head() + q.count) % r.size();
  const uint64_t addr = q.head_wb_addr ? *q.head_wb_addr : 0;
  if (addr != 0) {
    for (int i = 0; i < 4; i++) q.head_buf[i] = static_cast<uint8_t>(new_head >> (8 * i));
    if (!q.xfer->write(addr, q.head_buf, 4, DmaPurpose::DescWriteBack, 0)) {
      r.halt();
      q.count = 0;
      return;
    }
    m_cnt.desc_writebacks++;
  }
  const uint32_t n = q.count;
  q.count = 0;
  wb_complete(q, 0, n);
}

bool DmaEngine::flush_all(std::vector<WbQueue> &queues) {
  bool wrote = false;
  for (WbQueue &w : queues) {
    wrote |= w.count > 0;
    wb_flush(w);
  }
  return wrote;
}

bool DmaEngine::rx_flush_all() { return flush_all(m_rx_wb); }

bool DmaEngine::tx_flush_all() { return flush_all(m_tx_wb); }

/* ---- descriptor fetch ---------------------------------------------------- */

void DmaEngine::rx_fetch_thread() { fetch_loop(0, true); }
void DmaEngine::tx_fetch_thread() { fetch_loop(0, false); }

/* Keeps ring q's cache filled: one fetch request outstanding at a time.
 * The channel's rings take read tags in turn (ReadTagPool, by queue). */
void DmaEngine::fetch_loop(uint32_t q, bool rx) {
  DescRing &r = rx ? *m_rx[q] : *m_tx[q];
  DmaXfer &x = rx ? *m_rx_fetch_x[q] : *m_tx_fetch_x[q];
  std::vector<uint8_t> &buf = rx ? m_rx_fetch_buf[q] : m_tx_fetch_buf[q];
  const uint32_t enable = rx ? GN_CTRL_RX_EN : GN_CTRL_TX_EN;
  for (;;) {
    const uint32_t db = r.desc_bytes();
    const uint32_t sp = r.spacing();
    const bool packed = sp == db;
    uint32_t first = 0, n = 0;
    /* Spaced descriptors (sp > db): one read each, or with fetch_spaced_span
     * one read over several and their gaps; without prefetch_spaced only
     * when the cache has none left (fetched on demand). */
    if (!(m_ctrl & enable) || (!packed && !m_p.prefetch_spaced && !r.cache_empty()) ||
        !r.plan_fetch(m_p.desc_fetch_max, packed || m_p.fetch_spaced_span, &first, &n)) {
      r.wait_fetch_kick();
      continue;
    }
    const uint32_t stride = packed ? db : sp;
    const uint32_t len = (n - 1) * stride + db;
    if (buf.size() < len) buf.resize(len);
    uint32_t gen = r.generation();
    r.fetch_issued(n);
    m_tags.acquire(rx, q);
    bool ok = x.read(r.slot_addr(first), buf.data(), len, DmaPurpose::DescFetch, 0);
    m_tags.release(rx);
    r.fetch_ended();
    m_cnt.desc_fetch_reqs++;
    if (!ok) {
      r.halt();
      continue;
    }
    if (gen != r.generation() || r.halted()) continue;
    m_cnt.desc_fetched += n;
    for (uint32_t i = 0; i < n; i++) {
      DmaDesc d;
      const uint8_t *p = buf.data() + static_cast<size_t>(i) * stride;
      if (rx) {
        m_codec.decode_rx(p, &d);
      } else {
        m_codec.decode_tx(p, &d);
      }
      if (!d.own) {
        if (rx_queues() == 1 && tx_queues() == 1) {
          violation("%s descriptor %u is in [head %u, tail %u) but OWN is clear when fetched",
                    rx ? "RX" : "TX", first + i, r.head(), r.tail());
        } else {
          violation("%s queue %u descriptor %u is in [head %u, tail %u) but OWN is clear when fetched",
                    rx ? "RX" : "TX", q, first + i, r.head(), r.tail());
        }
        r.halt();
        break;
      }
      r.push_fetched(d);
    }
    r.notify_desc_ready();
    if (!rx) m_tx_desc_any.notify();
  }
}

}  // namespace nicsim
