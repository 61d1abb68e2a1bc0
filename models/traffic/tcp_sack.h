/* tcp_sack.h: the SACK scoreboard of a TCP-like sender (traffic.protocol
 * tcp) and of a receiver's out-of-order record, shared by the wire peer
 * (sender of RX flows, receiver of the host's TX flow) and the host CPU
 * (sender of its TX flow). Sequence numbers count segments. */
#ifndef NICSIM_MODELS_TRAFFIC_TCP_SACK_H
#define NICSIM_MODELS_TRAFFIC_TCP_SACK_H

#include <algorithm>
#include <cstdint>
#include <vector>

#include "net/frame.h"

namespace nicsim {

/*
 * TcpSackSender: one flow's sender with SACK loss recovery (RFC 2018,
 * RFC 6675, fast retransmit/recovery after RFC 5681).
 * - at most win segments unacknowledged (the receive window) and, with
 *   congestion control, a pipe (segments in flight: sent, not SACKed, not
 *   deemed lost) below cwnd: 10 at first, +1 per ACKed segment in slow
 *   start, +1/cwnd after;
 * - an ACK that does not advance the cumulative ACK while data is out is a
 *   duplicate; the third one, or SACKs covering 3 segments above the hole,
 *   starts recovery (once per loss event, until snd_una passes what was sent
 *   then): ssthresh = max(flight / 2, 2), cwnd = ssthresh; the first lost
 *   segment goes at once whatever the pipe (RFC 6675 4.3); every segment
 *   below the highest SACKed one that is not SACKed is lost and sent again,
 *   once, lowest first; a retransmission is lost too when a segment sent
 *   after it is ACKed or SACKed (the model never reorders: RACK in small);
 * - RTO (the caller's timer): ssthresh as above, cwnd 1 (slow start), every
 *   segment not SACKed is lost.
 */
class TcpSackSender {
 public:
  /* Initial congestion window: 10 segments (RFC 6928; Linux TCP_INIT_CWND). */
  static constexpr double kInitCwnd = 10;
  /* Duplicate ACKs (or SACKed segments) that mean a loss (RFC 5681 DupThresh). */
  static constexpr uint32_t kDupThresh = 3;

  /* win: segments the receive window holds; cc: congestion control on. */
  void init(uint64_t win, bool cc) {
    m_win = std::max<uint64_t>(1, win);
    m_cc = cc;
    m_flags.assign(m_win, 0);
    m_stamp.assign(m_win, 0);
  }

  /* What an ACK did. */
  enum class Ack { kIgnored, kProgress, kDuplicate, kRecovery };

  /* The receiver's cumulative ACK (ack <= max(): the caller checks) with its
   * SACK blocks. kRecovery: this ACK started a loss recovery. */
  Ack on_ack(uint64_t ack, const nf_sack &sack) {
    const uint64_t old_una = m_una;
    bool rack = false;
    for (; m_una < ack; m_una++) {
      uint8_t &f = m_flags[m_una % m_win];
      if (f & kSacked) m_sacked--;
      else if (f & kRtx) m_rtx_out--;
      rack |= note_delivered(m_una);
      f = 0;
    }
    for (unsigned i = 0; i < sack.n && i < NF_SACK_BLOCKS; i++) {
      const uint64_t b = std::max(ack + sack.blk[i][0], m_una);
      const uint64_t e = std::min(ack + sack.blk[i][1], m_max);
      for (uint64_t s = b; s < e; s++) {
        uint8_t &f = m_flags[s % m_win];
        if (f & kSacked) continue;
        if (f & kRtx) m_rtx_out--;
        f |= kSacked;
        m_sacked++;
        rack |= note_delivered(s);
      }
      if (e > b) m_high_sacked = std::max(m_high_sacked, e);
    }
    if (rack && m_rtx_out) m_cursor = m_una; /* a retransmission may be lost: look again */
    m_high_sacked = std::max(m_high_sacked, m_una);
    m_cursor = std::max(m_cursor, m_una);
    if (m_una > old_una) {
      m_dupacks = 0;
      if (m_cc && (!m_recovering || m_after_rto)) {
        const double acked = static_cast<double>(m_una - old_una);
        m_cwnd += m_cwnd < m_ssthresh ? acked : acked / m_cwnd;
        m_cwnd = std::min(m_cwnd, static_cast<double>(m_win));
      }
      if (m_recovering && m_una >= m_recover) {
        m_recovering = false;
        m_after_rto = false;
        if (m_cc) m_cwnd = std::max(m_cwnd, m_ssthresh);
      }
      return Ack::kProgress;
    }
    if (ack != m_una || m_max == m_una) return Ack::kIgnored;
    m_dupacks++;
    if (!m_recovering && (m_dupacks >= kDupThresh || m_sacked >= kDupThresh)) {
      enter_recovery(false);
      return Ack::kRecovery;
    }
    return Ack::kDuplicate;
  }

  /* The retransmission timer expired with data unacknowledged. */
  void on_rto() {
    enter_recovery(true);
    /* Every segment not SACKed is lost, including retransmissions. */
    m_high_sacked = m_max;
    for (uint64_t s = m_una; s < m_max; s++) m_flags[s % m_win] &= static_cast<uint8_t>(~kRtx);
    m_rtx_out = 0;
    m_cursor = m_una;
  }

  /* True if the flow may send a segment now (a lost one or new data). */
  bool can_send() {
    const bool lost = find_lost() != UINT64_MAX;
    if (lost && m_fast_rtx) return true;
    if (m_cc && static_cast<double>(pipe()) >= std::max(m_cwnd, 1.0)) return false;
    return lost || m_max - m_una < m_win;
  }

  /* The segment to send next (can_send() must be true), not yet sent;
   * *retransmit: it was sent before. */
  uint64_t peek(bool *retransmit) {
    const uint64_t s = find_lost();
    *retransmit = s != UINT64_MAX;
    return *retransmit ? s : m_max;
  }
  /* Records the send of segment s, which peek() returned. */
  void sent(uint64_t s, bool retransmit) {
    ++m_clock;
    m_fast_rtx = false;
    if (retransmit) {
      uint8_t &f = m_flags[s % m_win];
      if (!(f & kRtx)) m_rtx_out++;
      f |= kRtx;
      m_stamp[s % m_win] = m_clock;
      m_cursor = s + 1;
      return;
    }
    m_max = s + 1;
    m_flags[s % m_win] = 0;
    m_stamp[s % m_win] = m_clock;
  }
  /* peek() and sent() at once. */
  uint64_t next(bool *retransmit) {
    const uint64_t s = peek(retransmit);
    sent(s, *retransmit);
    return s;
  }

  uint64_t una() const { return m_una; }           /* oldest unacknowledged segment */
  uint64_t max() const { return m_max; }           /* one past the highest segment sent */
  double cwnd() const { return m_cwnd; }           /* congestion window, segments */
  bool recovering() const { return m_recovering; } /* in a loss recovery */
  uint64_t sacked() const { return m_sacked; }     /* segments SACKed above una */

 private:
  static constexpr uint8_t kSacked = 1, kRtx = 2;

  /* Segments in flight (RFC 6675 pipe): outside recovery all sent and not
   * SACKed; in recovery those above the highest SACKed plus the
   * retransmissions not yet ACKed. */
  uint64_t pipe() const {
    if (!m_recovering) return m_max - m_una - m_sacked;
    return (m_max - std::min(m_high_sacked, m_max)) + m_rtx_out;
  }

  /* Segment s arrived: a later send time than any before means earlier-sent
   * retransmissions still missing were lost. True if it did. */
  bool note_delivered(uint64_t s) {
    const uint64_t st = m_stamp[s % m_win];
    if (st <= m_rack) return false;
    m_rack = st;
    return true;
  }

  /* The lowest lost segment not yet sent again (or whose retransmission
   * was lost), in recovery; UINT64_MAX if none. */
  uint64_t find_lost() {
    if (!m_recovering) return UINT64_MAX;
    const uint64_t end = std::min(m_high_sacked, m_max);
    for (uint64_t s = std::max(m_cursor, m_una); s < end; s++) {
      const uint8_t f = m_flags[s % m_win];
      if (f & kSacked) continue;
      if (!(f & kRtx) || m_stamp[s % m_win] < m_rack) {
        m_cursor = s;
        return s;
      }
    }
    m_cursor = end;
    return UINT64_MAX;
  }

  void enter_recovery(bool rto) {
    m_ssthresh = std::max(static_cast<double>(m_max - m_una) / 2, 2.0);
    if (m_cc) m_cwnd = rto ? 1.0 : m_ssthresh;
    m_recovering = true;
    m_after_rto = rto;
    m_recover = m_max;
    m_cursor = m_una;
    m_fast_rtx = !rto;
  }

  uint64_t m_win = 1;
  bool m_cc = true;
  uint64_t m_una = 0, m_max = 0;
  uint64_t m_high_sacked = 0; /* one past the highest segment SACKed */
  uint64_t m_sacked = 0;      /* segments SACKed in [una, max) */
  uint64_t m_rtx_out = 0;     /* retransmitted, not ACKed or SACKed */
  uint64_t m_cursor = 0;      /* segments below it hold no lost one to send */
  uint64_t m_clock = 0;       /* sends so far: each send's stamp */
  uint64_t m_rack = 0;        /* latest stamp of a segment ACKed or SACKed */
  uint32_t m_dupacks = 0;
  bool m_recovering = false, m_after_rto = false;
  bool m_fast_rtx = false;    /* recovery just started: its first retransmission ignores the pipe */
  uint64_t m_recover = 0;     /* recovery ends once una reaches this */
  double m_cwnd = kInitCwnd, m_ssthresh = 1e18;
  std::vector<uint8_t> m_flags;  /* per segment mod win: kSacked, kRtx */
  std::vector<uint64_t> m_stamp; /* per segment mod win: its latest send's stamp */
};

/* TcpSackReceiver: one flow's receiver record: rcv_nxt and which segments
 * ahead of it (within the window) arrived; builds the SACK blocks of its
 * ACKs. It holds no data (the wire peer only checks frames). */
class TcpSackReceiver {
 public:
  /* win: segments the receive window holds. */
  void init(uint64_t win) {
    m_win = std::max<uint64_t>(1, win);
    m_held.assign(m_win, 0);
  }
  /* What a data segment was. */
  enum class Rx { kInOrder, kFilled, kHeld, kDuplicate, kBeyond };
  /* Segment seq arrives. kFilled: in order, and held ones followed it. */
  Rx receive(uint64_t seq) {
    if (seq < m_nxt) return Rx::kDuplicate;
    if (seq - m_nxt >= m_win) return Rx::kBeyond;
    if (seq > m_nxt) {
      uint8_t &h = m_held[seq % m_win];
      if (h) return Rx::kDuplicate;
      h = 1;
      m_high = std::max(m_high, seq + 1);
      m_last = seq;
      return Rx::kHeld;
    }
    m_nxt++;
    bool filled = false;
    while (m_nxt < m_high && m_held[m_nxt % m_win]) {
      m_held[m_nxt % m_win] = 0;
      m_nxt++;
      filled = true;
    }
    return filled || m_nxt < m_high ? Rx::kFilled : Rx::kInOrder;
  }
  /* The SACK blocks above rcv_nxt (the latest arrival's block first, then
   * the lowest others). */
  void sack(nf_sack *out) const {
    *out = nf_sack{};
    uint64_t bs[NF_SACK_BLOCKS + 1], be[NF_SACK_BLOCKS + 1];
    int nb = 0, first = -1;
    for (uint64_t s = m_nxt; s < m_high;) {
      if (!m_held[s % m_win]) {
        s++;
        continue;
      }
      uint64_t e = s + 1;
      while (e < m_high && m_held[e % m_win]) e++;
      const bool has_last = m_last >= s && m_last < e;
      if (has_last || nb < NF_SACK_BLOCKS - (first < 0 ? 1 : 0)) {
        bs[nb] = s;
        be[nb] = e;
        if (has_last) first = nb;
        nb++;
      }
      if (first >= 0 && nb >= NF_SACK_BLOCKS) break;
      s = e;
    }
    int o = 0;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < nb && o < NF_SACK_BLOCKS; i++) {
        if ((pass == 0) != (i == first)) continue;
        if (bs[i] - m_nxt > 0xFFFFu) continue;
        out->blk[o][0] = static_cast<uint16_t>(bs[i] - m_nxt);
        out->blk[o][1] = static_cast<uint16_t>(std::min<uint64_t>(be[i] - m_nxt, 0xFFFFu));
        o++;
      }
    out->n = static_cast<uint16_t>(o);
  }
  uint64_t nxt() const { return m_nxt; } /* next segment expected: the cumulative ACK */
  uint64_t held() const {                /* segments held ahead of nxt */
    uint64_t n = 0;
    for (uint64_t s = m_nxt; s < m_high; s++) n += m_held[s % m_win];
    return n;
  }

 private:
  uint64_t m_win = 1, m_nxt = 0, m_high = 0, m_last = 0;
  std::vector<uint8_t> m_held; /* per segment mod win: arrived ahead of nxt */
};

}  // namespace nicsim
#endif
