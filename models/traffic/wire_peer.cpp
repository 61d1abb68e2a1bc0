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
  p.imix = cfg.traffic.frame_dist == NC_DIST_IMIX;
  p.flows = static_cast<uint32_t>(cfg.traffic.flows);
  p.rate_gbps = cfg.traffic.rate_gbps;
  p.duration_ps = round_ps(cfg.run.duration_us * 1e6);
  p.seed = static_cast<uint64_t>(cfg.run.seed);
  return p;
}

constexpr uint32_t WirePeer::kImixBytes[3];
constexpr uint32_t WirePeer::kImixWeight[3];

WirePeer::WirePeer(sc_core::sc_module_name name, const Params &p, Mac &mac)
    : sc_core::sc_module(name), m_p(p), m_mac(mac) {
  require_ps_resolution(this->name());
  if (p.frame_bytes < NF_MIN_FRAME) SC_REPORT_ERROR(this->name(), "frame_bytes below 64");
  if (p.flows == 0) SC_REPORT_ERROR(this->name(), "flows must be positive");
  m_dma_len = nf_dma_len(p.frame_bytes);
  m_interval_ps = interval_ps(p.frame_bytes);
  m_flight_ps = round_ps((Mac::kPreambleBytes + p.frame_bytes) * 8000.0 / p.line_rate_gbps);
  m_rng = p.seed ^ 0x494D4958494D4958ull; /* "IMIXIMIX": a stream apart from the payload's */
  m_next_bytes = p.imix ? draw_imix() : p.frame_bytes;
  SC_HAS_PROCESS(WirePeer);
  SC_METHOD(rx_process);
  sensitive << m_wake;
  /* Initialised: the first run schedules frame 0. */
}

/* Back-to-back: preamble + frame + IFG at the line rate; a lower offered
 * rate spaces frame starts by the frame's own bits at that rate. */
double WirePeer::interval_ps(uint32_t frame_bytes) const {
  double slot_ps = (Mac::kPreambleBytes + frame_bytes + Mac::kIfgBytes) * 8000.0 / m_p.line_rate_gbps;
  double rate_ps = m_p.rate_gbps > 0 ? frame_bytes * 8000.0 / m_p.rate_gbps : 0.0;
  return std::max(slot_ps, rate_ps);
}

uint64_t WirePeer::nominal_start_ps() const {
  return m_p.imix ? round_ps(m_next_start_ps) : round_ps(static_cast<double>(m_next) * m_interval_ps);
}

uint64_t WirePeer::flight_ps(uint32_t frame_bytes) const {
  if (!m_p.imix) return m_flight_ps;
  return round_ps((Mac::kPreambleBytes + frame_bytes) * 8000.0 / m_p.line_rate_gbps);
}

void WirePeer::schedule_pending() {
  m_wake.cancel();
  m_wake.notify(ps_time(m_pending_start_ps + flight_ps(m_next_bytes) - now_ps()));
}

/* PAUSE (IEEE 802.3 Annex 31B): a frame already started when the PAUSE
 * arrives completes; the pending one starts when the pause time from the
 * PAUSE's arrival has passed (quanta 0: at once), never before its own
 * time. The delay shifts every later frame with it. */
void WirePeer::pause_received(uint32_t quanta, uint64_t at_ps) {
  m_cnt.pause_frames++;
  m_pause_at_ps = at_ps;
  m_pause_until_ps = at_ps + round_ps(quanta * 64.0 * 8000.0 / m_p.line_rate_gbps); /* 512 bits per quantum */
  if (!m_p.send || !m_armed || m_pending_start_ps < at_ps) return;
  uint64_t u = m_pending_nominal_ps + m_shift_ps;
  m_pending_start_ps = std::max(u, m_pause_until_ps);
  schedule_pending();
}

/* splitmix64 (Steele, Lea, Flood 2014), then a size by weight. */
uint32_t WirePeer::draw_imix() {
  uint64_t z = (m_rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  uint32_t total = kImixWeight[0] + kImixWeight[1] + kImixWeight[2];
  uint32_t r = static_cast<uint32_t>(z % total);
  for (int i = 0; i < 3; i++) {
    if (r < kImixWeight[i]) return kImixBytes[i];
    r -= kImixWeight[i];
  }
  return kImixBytes[2];
}

/* Runs once at time 0 and then at each frame's arrival at the MAC. */
void WirePeer::rx_process() {
  if (!m_p.send) return;
  if (m_armed) {
    m_shift_ps = m_pending_start_ps - m_pending_nominal_ps; /* pauses so far */
    /* Frame m_next's last bit has just arrived. */
    uint32_t len = nf_dma_len(m_next_bytes);
    uint8_t *buf = m_mac.rx_begin(len);
    if (buf) {
      /* Stamped with its preamble's start: the sink counts a frame in the
       * measurement window by when it was sent. */
      nf_fill_ts(buf, len, m_p.seed, static_cast<uint32_t>(m_next % m_p.flows), m_next / m_p.flows,
                 m_pending_start_ps);
      m_mac.rx_end();
    }
    m_cnt.rx_offered_frames++;
    m_cnt.rx_offered_bytes += m_next_bytes;
    m_next++;
    if (m_p.imix) {
      for (int i = 0; i < 3; i++) m_imix_count[i] += m_next_bytes == kImixBytes[i];
      m_next_start_ps += interval_ps(m_next_bytes);
      m_next_bytes = draw_imix();
    }
  }
  /* Frame m_next is offered if its nominal start is before the end of
   * traffic; pauses delay it but do not cancel it. */
  uint64_t nominal = nominal_start_ps();
  m_armed = nominal < m_p.duration_ps;
  if (!m_armed) return;
  m_pending_nominal_ps = nominal;
  uint64_t u = nominal + m_shift_ps;
  m_pending_start_ps = (u >= m_pause_at_ps && u < m_pause_until_ps) ? m_pause_until_ps : u;
  schedule_pending();
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
