/* wire_peer.cpp: the Ethernet link partner (see wire_peer.h). */
#include "traffic/wire_peer.h"

#include <algorithm>

#include "mac/mac.h"
#include "common/ps_time.h"
#include "traffic/wire_peer_stats.h"

namespace nicsim {

void WirePeer::Params::bind(ParamBinder &b) {
  b.key("traffic.mode", mode, {{"rx", Mode::Rx}, {"tx", Mode::Tx}, {"bidir", Mode::Bidir}, {"forward", Mode::Forward}});
  send = mode != Mode::Tx;
  b.key("traffic.frame_bytes", frame_bytes);
  b.key("traffic.frame_dist", imix, {{"fixed", false}, {"imix", true}});
  b.key("traffic.flows", flows);
  b.key("traffic.rate_gbps", rate_gbps);
  b.key("traffic.protocol", tcp, {{"udp", false}, {"tcp", true}});
  b.key("traffic.tcp_window_bytes", tcp_window_bytes);
  b.key("traffic.tcp_ack_every", tcp_ack_every);
  b.key("traffic.tcp_burst_segments", tcp_burst);
  b.key("traffic.tcp_rto_us", tcp_rto_ps, Conv::UsToPs);
  b.key("traffic.pktgen_clone_skb", pktgen_clone_skb);
}

ParamCheck WirePeer::Params::validate() const {
  /* imix draws the wire peer's UDP frame sizes; TCP segments and host TX frames are frame_bytes. */
  if (imix && (mode == Mode::Tx || tcp))
    return param_error({"traffic.frame_dist", "traffic.mode", "traffic.protocol"},
                       "use traffic.frame_dist fixed, or traffic.mode rx or bidir with traffic.protocol udp",
                       "traffic.frame_dist = imix draws the sizes of the wire's UDP frames, but traffic.mode = %s and "
                       "traffic.protocol = %s send none (TCP segments and host frames are traffic.frame_bytes)",
                       mode == Mode::Rx ? "rx" : mode == Mode::Tx ? "tx" : mode == Mode::Bidir ? "bidir" : "forward",
                       tcp ? "tcp" : "udp");
  return std::nullopt;
}

void WirePeer::add_stats(stats::Registry &r) const {
  r.add(kWirePeerStats, [this](WirePeerCounters &s, stats::Edge) { s = counters(); });
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
  m_cnt.forward = p.mode == Params::Mode::Forward;
  SC_HAS_PROCESS(WirePeer);
  if (p.tcp) {
    if (p.tcp_ack_every == 0 || p.tcp_burst == 0) SC_REPORT_ERROR(this->name(), "tcp_ack_every and tcp_burst must be positive");
    m_tcp.resize(p.flows);
    m_seg_payload = nf_tcp_payload(p.frame_bytes);
    m_win_segs = std::max<uint64_t>(1, p.tcp_window_bytes / m_seg_payload);
    for (TcpFlow &fl : m_tcp) fl.snd.init(m_win_segs, true);
    m_rcv.init(m_win_segs);
    m_cur_flow = p.flows - 1; /* the first burst is flow 0's */
    SC_METHOD(tcp_process);
    sensitive << m_wake;
    SC_METHOD(tcp_rto_process);
    sensitive << m_rto_ev;
    dont_initialize();
    return;
  }
  /* Deferred drops need arrivals fixed in advance: fixed-size frames, no
   * PAUSE (IMIX sizes vary, so a later, smaller frame may fit). */
  m_can_defer = !p.imix && !mac.pause_enabled();
  mac.set_rx_source(this);
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
  m_wake.notify(ps_time(m_pending_start_ps + flight_ps(m_next_bytes) - kernel_now_ps()));
}

/* PAUSE (IEEE 802.3 Annex 31B): a frame already started when the PAUSE
 * arrives completes; the pending one starts when the pause time from the
 * PAUSE's arrival has passed (quanta 0: at once), never before its own
 * time. The delay shifts every later frame with it. */
void WirePeer::pause_received(uint32_t quanta, uint64_t at_ps) {
  m_cnt.pause_frames++;
  m_pause_at_ps = at_ps;
  m_pause_until_ps = at_ps + round_ps(quanta * 64.0 * 8000.0 / m_p.line_rate_gbps); /* 512 bits per quantum */
  if (m_p.tcp) {
    /* No nominal schedule to keep: the pending frame waits out the pause. */
    if (!m_armed || m_pending_start_ps < at_ps || m_pending_start_ps >= m_pause_until_ps) return;
    m_pending_start_ps = m_pause_until_ps;
    m_wake.cancel();
    m_wake.notify(ps_time(m_pending_start_ps + round_ps((Mac::kPreambleBytes + m_next_bytes) * 8000.0 /
                                                        m_p.line_rate_gbps) - kernel_now_ps()));
    return;
  }
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

bool WirePeer::rx_arrive() {
  m_shift_ps = m_pending_start_ps - m_pending_nominal_ps; /* pauses so far */
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
  return buf != nullptr;
}

void WirePeer::rx_plan() {
  /* Frame m_next is planned if its nominal start is before the end of
   * traffic; pauses delay it (an XON may bring it forward again), and
   * rx_process offers it only if it starts before the end of traffic. */
  uint64_t nominal = nominal_start_ps();
  m_armed = nominal < m_p.duration_ps;
  if (!m_armed) return;
  m_pending_nominal_ps = nominal;
  uint64_t u = nominal + m_shift_ps;
  m_pending_start_ps = (u >= m_pause_at_ps && u < m_pause_until_ps) ? m_pause_until_ps : u;
}

/* Runs once at time 0 and then at each frame's arrival at the MAC while
 * someone waits for it (not lazy). */
void WirePeer::rx_process() {
  m_rx_wakes++;
  if (!m_p.send) return;
  if (m_armed && m_pending_start_ps >= m_p.duration_ps) {
    /* Paused past the end of traffic: the sender has stopped, as a
     * time-limited generator (iperf -t) does; the frame is never offered. */
    m_armed = false;
    return;
  }
  if (m_armed) rx_arrive();
  rx_plan();
  if (!m_armed) return;
  if (m_can_defer) {
    /* Nobody waits for the next arrival now (a waiter calls rx_wanted):
     * it is replayed where it is observed. */
    m_lazy = true;
    return;
  }
  schedule_pending();
}

/* Frames m_next.. that have arrived by now (start + flight <= now, start
 * before the end of traffic) met a full FIFO that only a pop could empty,
 * and pops replay first: all are dropped. Fixed size, no pauses: frame n
 * starts at nominal_start_ps of n. */
void WirePeer::rx_drop_until(uint64_t now) {
  if (!m_armed || m_pending_start_ps + m_flight_ps > now) return; /* none has arrived yet */
  const uint64_t limit = std::min(now - m_flight_ps, m_p.duration_ps - 1);
  uint64_t last = static_cast<uint64_t>(static_cast<double>(limit) / m_interval_ps);
  if (last < m_next) last = m_next;
  while (round_ps(static_cast<double>(last + 1) * m_interval_ps) <= limit) last++;
  while (last > m_next && round_ps(static_cast<double>(last) * m_interval_ps) > limit) last--;
  const uint64_t k = last - m_next + 1;
  if (!m_mac.rx_drop_deferred(nf_dma_len(m_next_bytes), k)) {
    /* Only a pop makes room, and a pop replays first: a broken assumption. */
    SC_REPORT_ERROR(name(), "deferred RX frames found room in the FIFO without a pop");
  }
  m_cnt.rx_offered_frames += k;
  m_cnt.rx_offered_bytes += k * m_next_bytes;
  m_next += k;
  rx_plan();
}

void WirePeer::rx_sync() {
  if (!m_lazy) return;
  const uint64_t now = now_ps(); /* LogicalNow: the time a process acting ahead acts at */
  /* In arrival order, against the FIFO as it was then: every pop replays
   * the arrivals up to its own time before the frame leaves. */
  while (m_armed && m_pending_start_ps + m_flight_ps <= now) {
    const bool stored = rx_arrive();
    rx_plan();
    if (!stored) {
      rx_drop_until(now);
      break;
    }
  }
  if (!m_armed) m_lazy = false;
}

void WirePeer::rx_space() { rx_sync(); }


void WirePeer::rx_wanted() {
  if (!m_lazy) return;
  rx_sync();
  if (!m_lazy) return;
  /* Frame m_next arrives after now and a waiter wants it on time. */
  m_lazy = false;
  schedule_pending();
}

void WirePeer::frame_received(const uint8_t *data, uint32_t dma_len) {
  uint64_t now = now_ps();
  if (m_cnt.tx_ok + m_cnt.tx_errors == 0) m_tx_first_ps = now;
  m_tx_last_ps = now;
  nf_header h;
  nf_verdict v;
  if (m_p.mode == Params::Mode::Forward && m_p.fwd_rewrite) {
    m_fwd_buf.assign(data, data + dma_len);
    v = nf_ip_forward_undo(m_fwd_buf.data(), dma_len, m_p.seed, &h);
  } else {
    v = nf_check(data, dma_len, m_p.seed, &h);
  }
  if (v != NF_OK) {
    m_last_bad = v;
    m_cnt.tx_errors++;
    return;
  }
  if (m_p.tcp) {
    tcp_frame_received(h, data, dma_len);
    return;
  }
  if (h.flow >= m_p.flows) { /* the host's udp flows are 0 .. flows - 1 (in order per flow) */
    m_cnt.tx_errors++;
    return;
  }
  if (m_tx_flows.size() < m_p.flows) m_tx_flows.resize(m_p.flows, nf_seq_track{0, 0, 0, 0}); /* once */
  nf_seq_track &tr = h.flow == 0 ? m_track : m_tx_flows[h.flow];
  uint64_t gaps_before = tr.gaps;
  if (m_p.pktgen_clone_skb > 1 && tr.received > 0 && h.seq + 1 == tr.next_seq) {
    m_cnt.tx_ok++; /* pktgen's clone_skb: the same skb (same number) sent again */
    return;
  }
  if (nf_seq_accept(&tr, h.seq)) {
    m_cnt.tx_ok++;
    if (m_p.mode == Params::Mode::Forward) {
      m_cnt.fwd_frames++;
      m_cnt.fwd_bytes += static_cast<uint64_t>(dma_len) + NF_FCS_LEN;
    }
    m_cnt.tx_gaps += tr.gaps - gaps_before;
  } else {
    m_cnt.tx_errors++;
  }
}

/* ---- traffic.protocol tcp ------------------------------------------------ */

bool WirePeer::tcp_can_send(uint32_t f) { return m_tcp[f].snd.can_send(); }

/* The RTO event at the earliest deadline of a flow with unacknowledged
 * data (an earlier pending notification stays: it finds nothing due and
 * re-arms). */
void WirePeer::tcp_arm_rto() {
  uint64_t due = UINT64_MAX;
  for (const TcpFlow &fl : m_tcp)
    if (fl.snd.una() < fl.snd.max()) due = std::min(due, fl.progress_ps + m_p.tcp_rto_ps);
  if (due == UINT64_MAX || due >= m_p.duration_ps) return;
  const uint64_t kn = kernel_now_ps();
  m_rto_ev.notify(ps_time(due > kn ? due - kn : 0));
}

void WirePeer::tcp_rto_process() {
  if (!m_rto_deferred) {
    /* One delta later (tcp_process): an ACK that reaches the peer at this
     * very instant counts first, whatever order the kernel runs the MAC's
     * process and this one in. */
    m_rto_deferred = true;
    next_trigger(sc_core::SC_ZERO_TIME);
    return;
  }
  m_rto_deferred = false;
  const uint64_t now = now_ps();
  if (now >= m_p.duration_ps) return;
  for (TcpFlow &fl : m_tcp)
    if (fl.snd.una() < fl.snd.max() && now >= fl.progress_ps + m_p.tcp_rto_ps) {
      fl.snd.on_rto();
      fl.progress_ps = now;
      m_cnt.tcp_recoveries++;
      m_cnt.tcp_rtos++;
    }
  tcp_arm_rto();
  tcp_pick();
}

void WirePeer::tcp_pick() {
  if (m_armed) return;
  const uint64_t now = now_ps();
  uint64_t start = m_last_bytes ? m_last_start_ps + round_ps(interval_ps(m_last_bytes)) : 0;
  start = std::max(start, now);
  if (start >= m_pause_at_ps && start < m_pause_until_ps) start = m_pause_until_ps;
  if (start >= m_p.duration_ps) return; /* nothing starts at or after the end of traffic */
  uint32_t bytes;
  if (m_ack_due) {
    /* The receiver's ACK goes before the next data frame. */
    m_pend_ack = true;
    m_pend_flow = 0;
    m_pend_seq = 0; /* the cumulative ACK and SACK blocks as of the frame's fill */
    m_ack_due = false;
    bytes = NF_ACK_FRAME;
  } else {
    if (!m_p.send) return;
    uint32_t f = m_cur_flow;
    if (m_burst_left == 0 || !tcp_can_send(f)) {
      bool found = false;
      for (uint32_t i = 1; i <= m_p.flows && !found; i++) {
        const uint32_t g = (m_cur_flow + i) % m_p.flows;
        if (tcp_can_send(g)) {
          f = g;
          found = true;
        }
      }
      if (!found) return; /* every window is closed: an ACK wakes the peer */
      m_cur_flow = f;
      m_burst_left = m_p.tcp_burst;
    }
    m_burst_left--;
    TcpFlow &fl = m_tcp[f];
    const bool was_idle = fl.snd.una() == fl.snd.max();
    m_pend_ack = false;
    m_pend_flow = f;
    bool rtx = false;
    m_pend_seq = fl.snd.next(&rtx);
    if (rtx) m_cnt.tcp_retransmits++;
    m_cnt.tcp_inflight_max = std::max(m_cnt.tcp_inflight_max, (fl.snd.max() - fl.snd.una()) * m_seg_payload);
    if (was_idle) {
      fl.progress_ps = start;
      tcp_arm_rto();
    }
    bytes = m_p.frame_bytes;
  }
  m_armed = true;
  m_next_bytes = bytes;
  m_pending_start_ps = start;
  const uint64_t flight = round_ps((Mac::kPreambleBytes + bytes) * 8000.0 / m_p.line_rate_gbps);
  m_wake.cancel();
  m_wake.notify(ps_time(start + flight - kernel_now_ps()));
}

/* Runs at time 0 and at each frame's arrival at the MAC. */
void WirePeer::tcp_process() {
  if (!m_tcp_deferred) {
    /* A frame the host sends that reaches the peer at this very instant
     * (frame_received, from the MAC's process) counts first: the ACK filled
     * now carries it, the pick below sees the ACK it makes due. The kernel
     * runs processes due at the same picosecond in an order of its own, so
     * this one steps one delta later (docs/nic.md, "TCP"). */
    m_tcp_deferred = true;
    next_trigger(sc_core::SC_ZERO_TIME);
    return;
  }
  m_tcp_deferred = false;
  if (m_armed) {
    m_armed = false;
    const uint32_t len = nf_dma_len(m_next_bytes);
    uint8_t *buf = m_mac.rx_begin(len);
    if (buf && m_pend_ack) {
      nf_sack sack;
      m_rcv.sack(&sack);
      nf_fill_ack(buf, len, m_p.seed, m_pend_flow, m_rcv.nxt(), m_pending_start_ps, &sack);
      m_mac.rx_end();
    } else if (buf) {
      nf_fill_ts(buf, len, m_p.seed, m_pend_flow, m_pend_seq, m_pending_start_ps);
      m_mac.rx_end();
    }
    m_cnt.rx_offered_frames++;
    m_cnt.rx_offered_bytes += m_next_bytes;
    if (m_pend_ack) m_cnt.tcp_acks_sent++;
    m_last_start_ps = m_pending_start_ps;
    m_last_bytes = m_next_bytes;
  }
  tcp_pick();
}

void WirePeer::tcp_frame_received(const nf_header &h, const uint8_t *data, uint32_t dma_len) {
  const uint64_t now = now_ps();
  if (nf_is_ack(&h)) {
    /* The host's ACK of an RX flow. */
    const uint32_t f = nf_flow_id(&h);
    if (f >= m_p.flows || h.seq > m_tcp[f].snd.max()) {
      m_cnt.tx_errors++; /* a flow the peer does not send, or data it never sent */
      return;
    }
    m_cnt.tx_ok++;
    m_cnt.tcp_acks_received++;
    TcpFlow &fl = m_tcp[f];
    nf_sack sack;
    nf_ack_sack(data, dma_len, &sack);
    const TcpSackSender::Ack a = fl.snd.on_ack(h.seq, sack);
    if (a == TcpSackSender::Ack::kProgress) fl.progress_ps = now;
    if (a == TcpSackSender::Ack::kRecovery) m_cnt.tcp_recoveries++;
    tcp_pick();
    return;
  }
  /* The host's data (flow 0). */
  if (h.flow != 0) {
    m_cnt.tx_errors++;
    return;
  }
  const TcpSackReceiver::Rx r = m_rcv.receive(h.seq);
  bool quick = true;
  switch (r) {
    case TcpSackReceiver::Rx::kDuplicate:
      m_cnt.tx_dups++;
      break;
    case TcpSackReceiver::Rx::kBeyond:
      m_cnt.tx_errors++; /* beyond the window: the host's sender is broken */
      break;
    case TcpSackReceiver::Rx::kHeld:
      m_cnt.tx_ok++;
      m_cnt.tx_held++;
      break;
    case TcpSackReceiver::Rx::kFilled:
      m_cnt.tx_ok++;
      break;
    case TcpSackReceiver::Rx::kInOrder:
      m_cnt.tx_ok++;
      quick = ++m_rx_unacked >= m_p.tcp_ack_every;
      break;
  }
  m_track.next_seq = m_rcv.nxt();
  if (quick) {
    m_ack_due = true;
    m_rx_unacked = 0;
    tcp_pick();
  }
}

}  // namespace nicsim
