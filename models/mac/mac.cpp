/* mac.cpp: the Ethernet MAC's FIFOs and line-rate serialisation (see mac.h). */
#include "mac/mac.h"

#include <algorithm>

#include "nic/ps_time.h"

namespace nicsim {

Mac::Params Mac::Params::from_config(const nicsim_config &cfg) {
  Params p;
  p.line_rate_gbps = cfg.nic.line_rate_gbps;
  p.rx_fifo_bytes = static_cast<uint32_t>(cfg.nic.rx_fifo_bytes);
  p.max_frame_bytes = std::max<uint32_t>(1518, static_cast<uint32_t>(cfg.traffic.frame_bytes));
  p.tx_fifo_bytes = 2 * p.max_frame_bytes;
  return p;
}

Mac::Mac(sc_core::sc_module_name name, const Params &p)
    : sc_core::sc_module(name),
      m_p(p),
      m_ps_per_byte(8000.0 / p.line_rate_gbps),
      m_rx(p.rx_fifo_bytes, p.max_frame_bytes - kFcsBytes, kMinDmaLen),
      m_tx(p.tx_fifo_bytes, p.max_frame_bytes - kFcsBytes, kMinDmaLen) {
  require_ps_resolution(this->name());
  if (p.line_rate_gbps <= 0) SC_REPORT_ERROR(this->name(), "line rate must be positive");
  SC_HAS_PROCESS(Mac);
  SC_METHOD(tx_process);
  sensitive << m_tx_kick;
  dont_initialize();
}

uint64_t Mac::wire_ps(uint32_t bytes) const { return round_ps(bytes * m_ps_per_byte); }

uint8_t *Mac::rx_begin(uint32_t dma_len) {
  uint8_t *p = m_rx.append(dma_len);
  if (!p) m_cnt.rx_drop_fifo++;
  return p;
}

void Mac::rx_end() {
  m_rx.close_frame();
  m_rx.publish_frame();
  m_cnt.rx_frames++;
  m_rx_frame.notify();
}

void Mac::tx_publish() {
  m_tx.publish_frame();
  if (!m_tx_busy) m_tx_kick.notify();
}

/* One method, triggered once per frame at the end of its FCS (and by
 * tx_publish() when idle): hands the frame on, then schedules the next one,
 * whose preamble starts when the inter-frame gap has passed. */
void Mac::tx_process() {
  uint64_t now = now_ps();
  if (m_tx_busy) {
    uint32_t len = 0;
    const uint8_t *data = m_tx.front(&len);
    m_cnt.tx_wire_frames++;
    m_cnt.tx_wire_bytes += len + kFcsBytes;
    if (m_sink) m_sink->frame_received(data, len);
    m_tx.pop();
    m_tx_busy = false;
    m_tx_next_ps = now + wire_ps(kIfgBytes);
    m_tx_space.notify();
  }
  if (m_tx.frames() == 0) return; /* back to waiting for tx_publish() */
  uint32_t len = 0;
  m_tx.front(&len);
  uint64_t start = now > m_tx_next_ps ? now : m_tx_next_ps;
  m_tx_busy = true;
  next_trigger(ps_time(start + wire_ps(kPreambleBytes + len + kFcsBytes) - now));
}

}  // namespace nicsim
