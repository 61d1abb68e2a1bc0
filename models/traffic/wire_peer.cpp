/* wire_peer.cpp: the Ethernet link partner (see wire_peer.h). */
#include "traffic/wire_peer.h"

#include <algorithm>

#include "mac/mac.h"
#include "nic/ps_time.h"

namespace nicsim {

WirePeer::Params WirePeer::Params::from_config(const nicsim_config &cfg) {
  Params p;
  p.send = cfg.traffic.mode == NC_MODE_RX || cfg.traffic.mode == NC_MODE_BIDIR;
  p.line_rate_gbps = cfg.nic.line_rate_gbps;
  p.frame_bytes = static_cast<uint32_t>(cfg.traffic.frame_bytes);
  p.rate_gbps = cfg.traffic.rate_gbps;
  p.duration_ps = round_ps(cfg.run.duration_us * 1e6);
  p.seed = static_cast<uint64_t>(cfg.run.seed);
  return p;
}

WirePeer::WirePeer(sc_core::sc_module_name name, const Params &p, Mac &mac)
    : sc_core::sc_module(name), m_p(p), m_mac(mac) {
  require_ps_resolution(this->name());
  if (p.frame_bytes < NF_MIN_FRAME) SC_REPORT_ERROR(this->name(), "frame_bytes below 64");
  m_dma_len = nf_dma_len(p.frame_bytes);
  double ps_per_byte = 8000.0 / p.line_rate_gbps;
  /* Back-to-back: preamble + frame + IFG at the line rate; a lower offered
   * rate spaces frame starts by the frame's own bits at that rate. */
  double slot_ps = (Mac::kPreambleBytes + p.frame_bytes + Mac::kIfgBytes) * ps_per_byte;
  double rate_ps = p.rate_gbps > 0 ? p.frame_bytes * 8000.0 / p.rate_gbps : 0.0;
  m_interval_ps = std::max(slot_ps, rate_ps);
  m_flight_ps = round_ps((Mac::kPreambleBytes + p.frame_bytes) * ps_per_byte);
  SC_HAS_PROCESS(WirePeer);
  SC_METHOD(rx_process);
  /* Initialised: the first run schedules frame 0. */
}

uint64_t WirePeer::arrival_ps(uint64_t n) const {
  return round_ps(static_cast<double>(n) * m_interval_ps) + m_flight_ps;
}

/* Runs once at time 0 and then at each frame's arrival at the MAC. */
void WirePeer::rx_process() {
  if (!m_p.send) return;
  uint64_t now = now_ps();
  if (m_armed) {
    /* Frame m_next's last bit has just arrived. */
    uint8_t *buf = m_mac.rx_begin(m_dma_len);
    if (buf) {
      nf_fill(buf, m_dma_len, m_p.seed, 0, m_next);
      m_mac.rx_end();
    }
    m_cnt.rx_offered_frames++;
    m_cnt.rx_offered_bytes += m_p.frame_bytes;
    m_next++;
  }
  /* Frame m_next is offered if it starts before the end of traffic. */
  m_armed = round_ps(static_cast<double>(m_next) * m_interval_ps) < m_p.duration_ps;
  if (m_armed) next_trigger(ps_time(arrival_ps(m_next) - now));
}

void WirePeer::frame_received(const uint8_t *data, uint32_t dma_len) {
  uint64_t now = now_ps();
  if (m_cnt.tx_ok + m_cnt.tx_errors == 0) m_tx_first_ps = now;
  m_tx_last_ps = now;
  nf_header h;
  nf_verdict v = nf_check(data, dma_len, m_p.seed, &h);
  if (v != NF_OK) {
    m_last_bad = v;
    m_cnt.tx_errors++;
    return;
  }
  if (h.flow != 0) { /* the NIC's TX stream is flow 0 */
    m_cnt.tx_errors++;
    return;
  }
  uint64_t gaps_before = m_track.gaps;
  if (nf_seq_accept(&m_track, h.seq)) {
    m_cnt.tx_ok++;
    m_cnt.tx_gaps += m_track.gaps - gaps_before;
  } else {
    m_cnt.tx_errors++;
  }
}

}  // namespace nicsim
