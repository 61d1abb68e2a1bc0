/* mac.cpp: the Ethernet MAC's FIFOs and line-rate serialisation (see mac.h). */
#include "mac/mac.h"

#include <algorithm>

#include "common/ps_time.h"
#include "mac/mac_stats.h"

namespace nicsim {

void Mac::Params::bind(ParamBinder &b) {
  b.key("nic.line_rate_gbps", line_rate_gbps);
  b.key("nic.rx_fifo_bytes", rx_fifo_bytes);
  b.key("nic.pause_enable", pause);
  b.key("nic.pause_quanta", pause_quanta);
}

ParamCheck Mac::Params::validate() const {
  for (double r : {1.0, 2.5, 10.0, 25.0, 40.0, 100.0})
    if (line_rate_gbps == r) return std::nullopt;
  return param_error({"nic.line_rate_gbps"}, "use 1, 2.5, 10, 25, 40 or 100", "nic.line_rate_gbps = %s is not an Ethernet line rate",
                     real_text(line_rate_gbps).c_str());
}

Mac::Mac(sc_core::sc_module_name name, const Params &p)
    : sc_core::sc_module(name),
      m_p(p),
      m_ps_per_byte(8000.0 / p.line_rate_gbps),
      m_rx(p.rx_fifo_bytes, p.max_frame_bytes - kFcsBytes, kMinDmaLen),
      m_tx(p.tx_fifo_bytes, p.max_frame_bytes - kFcsBytes, kMinDmaLen) {
  require_ps_resolution(this->name());
  if (p.line_rate_gbps <= 0) SC_REPORT_ERROR(this->name(), "line rate must be positive");
  /* Config checks (check.c: the traffic's longest frame and the pause
   * levels derived from it) reject these first; kept for direct construction. */
  if (p.tx_fifo_bytes < p.max_frame_bytes - kFcsBytes) {
    SC_REPORT_ERROR(this->name(), "the TX FIFO must hold the longest frame");
  }
  if (p.pause && p.xon_bytes >= p.xoff_bytes) SC_REPORT_ERROR(this->name(), "pause XON level must be below XOFF");
  m_rx.set_pop_hook(&Mac::rx_pop_hook, this);
  SC_HAS_PROCESS(Mac);
  SC_METHOD(tx_process);
  sensitive << m_tx_kick;
  dont_initialize();
  SC_METHOD(pause_refresh);
  sensitive << m_refresh;
  dont_initialize();
}

/* The PAUSE frame is a MAC control frame sent between data frames; the
 * model delivers it one PAUSE frame time (72 B at the line rate) after the
 * decision and does not delay TX data frames for it. */
void Mac::send_pause(uint32_t quanta) {
  if (!m_sink) return;
  uint64_t at = now_ps() + wire_ps(kPauseWireBytes);
  m_sink->pause_received(quanta, at);
  if (quanta > 0) {
    m_cnt.pause_xoff++;
    /* Re-send XOFF when half the pause time has passed, if still above XON. */
    m_refresh.cancel();
    m_refresh.notify(ps_time(wire_ps(kPauseWireBytes) + round_ps(quanta * 512 * m_ps_per_byte / 8) / 2));
  } else {
    m_cnt.pause_xon++;
    m_refresh.cancel();
  }
}

void Mac::pause_refresh() {
  if (m_xoff) send_pause(m_p.pause_quanta);
}

void Mac::rx_pop_hook(void *self) {
  Mac *m = static_cast<Mac *>(self);
  if (m->m_rx_src) m->m_rx_src->rx_space();
}

void Mac::rx_pop() {
  m_rx.pop();
  if (m_xoff && m_rx.used_bytes() <= m_p.xon_bytes) {
    m_xoff = false;
    send_pause(0);
  }
}

uint64_t Mac::wire_ps(uint32_t bytes) const { return round_ps(bytes * m_ps_per_byte); }

uint8_t *Mac::rx_begin(uint32_t dma_len) {
  uint8_t *p = m_rx.append(dma_len);
  if (!p) m_cnt.rx_drop_fifo++;
  return p;
}

bool Mac::rx_drop_deferred(uint32_t dma_len, uint64_t n) {
  if (m_rx.can_append(dma_len)) return false;
  m_cnt.rx_drop_fifo += n;
  return true;
}

void Mac::rx_end() {
  m_rx.close_frame();
  m_rx.publish_frame();
  m_cnt.rx_frames++;
  m_rx_frame.notify();
  if (m_p.pause && !m_xoff && m_rx.used_bytes() >= m_p.xoff_bytes) {
    m_xoff = true;
    send_pause(m_p.pause_quanta);
  }
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

void Mac::add_stats(stats::Registry &r) const {
  r.add(kMacStats, [this](MacCounters &s, stats::Edge) { s = counters(); });
}

}  // namespace nicsim
