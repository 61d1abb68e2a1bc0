// host_stack.cpp: the host sink, the TCP sender of the host's TX flow and
// its socket backlog, the transmission of the TCP receiver's ACKs, and the
// UDP sender's socket send buffer.
#include "cpu/host_stack.h"

#include "cpu/cpu_core.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace nicsim {

namespace {
/* Ethernet 14 + IPv4 20 + UDP 8 + FCS 4: a UDP frame's bytes that are not the datagram's payload. */
constexpr uint64_t kUdpOverhead = 46;
constexpr size_t kMaxFlows = 256; /* flows the host sink tracks */
}  // namespace

void HostStack::Params::bind(ParamBinder &b) {
  b.key("traffic.protocol", tcp, {{"udp", false}, {"tcp", true}});
  b.key("traffic.frame_bytes", frame_bytes);
  b.key("traffic.sndbuf_bytes", sndbuf_bytes);
  b.key("traffic.tcp_window_bytes", tcp_window_bytes);
  b.key("traffic.tcp_rto_us", tcp_rto_ps, Conv::UsToPs);
}

HostStack::HostStack(CpuCore &core, const Params &p) : m_core(core), m_seed(p.seed), m_flows(kMaxFlows) {
  for (nf_seq_track &t : m_flows) t = nf_seq_track{0, 0, 0, 0};
  m_tcp = p.tcp;
  if (core.txq_locking() && m_tcp) m_ack_backlog.reserve(kAckBacklog);
  m_sndbuf = static_cast<uint64_t>(std::max<int64_t>(0, p.sndbuf_bytes));
  m_tcp_seg_payload = nf_tcp_payload(p.frame_bytes);
  m_tcp_win_segs = std::max<uint64_t>(1, static_cast<uint64_t>(p.tcp_window_bytes) / m_tcp_seg_payload);
  m_tcp_rto_ps = p.tcp_rto_ps;
  m_snd.init(m_tcp_win_segs, false);
}

uint64_t HostStack::rx_sequence_gaps() const {
  uint64_t g = 0;
  for (const nf_seq_track &t : m_flows) g += t.gaps;
  return g;
}

bool HostStack::tcp_window_closed(uint64_t t) {
  if (m_snd.una() < m_snd.max() && t >= m_tcp_progress_ps + m_tcp_rto_ps) {
    m_snd.on_rto();
    m_tcp_progress_ps = t;
  }
  return !m_snd.can_send();
}

uint64_t HostStack::tcp_rto_due_ps() const {
  return m_snd.una() < m_snd.max() ? m_tcp_progress_ps + m_tcp_rto_ps : UINT64_MAX;
}

void HostStack::host_rx(uint64_t pa, uint32_t len) {
  if (!m_core.check_range(pa, len, "host_rx")) return;
  nf_header hdr;
  const nf_verdict v = nf_check(m_core.m_bytes + pa, len, m_seed, &hdr);
  if (v != NF_OK) {
    char msg[240];
    std::snprintf(msg, sizeof msg, "host received a corrupted frame at 0x%" PRIx64 " (%" PRIu32 " B): %s", pa, len,
                  nf_verdict_str(v));
    m_core.violation(msg);
    return;
  }
  /* Causality: time is monotonic, so a frame cannot reach the host stack
   * before the wire peer sent it. */
  if (hdr.ts_ps > m_core.local_time_ps()) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received flow %" PRIu32 " frame %" PRIu64 " at %.3f ns, before it was sent (%.3f ns): "
                  "simulated time ran backwards",
                  hdr.flow, hdr.seq, static_cast<double>(m_core.local_time_ps()) / 1000.0,
                  static_cast<double>(hdr.ts_ps) / 1000.0);
    m_core.violation(msg);
    return;
  }
  if (m_tcp && nf_is_ack(&hdr)) {
    nf_sack sack;
    nf_ack_sack(m_core.m_bytes + pa, len, &sack);
    if (!m_sock_owned)
      tcp_ack_received(hdr, sack);
    else if (m_ack_backlog.size() < kAckBacklog) /* full: dropped, as beyond Linux's backlog limit */
      m_ack_backlog.push_back(BackloggedAck{hdr, sack});
    const uint64_t ack_bytes = static_cast<uint64_t>(len) + NF_FCS_LEN;
    m_core.count_at(hdr.ts_ps, [ack_bytes](CpuCounters &c) {
      c.rx_frames++;
      c.rx_frame_bytes += ack_bytes;
      c.tcp_acks_received++;
    });
    return;
  }
  if (hdr.flow >= m_flows.size()) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "host received a frame of flow %" PRIu32 "; the sink tracks flows below %zu",
                  hdr.flow, m_flows.size());
    m_core.violation(msg);
    return;
  }
  nf_seq_track &t = m_flows[hdr.flow];
  const uint64_t expected = t.next_seq;
  if (!nf_seq_accept(&t, hdr.seq)) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received flow %" PRIu32 " frame %" PRIu64 " out of order (expected %" PRIu64
                  " or later): reordered or duplicated",
                  hdr.flow, hdr.seq, expected);
    m_core.violation(msg);
    return;
  }
  if (m_tcp && hdr.seq != expected) {
    /* TCP delivers every segment in order: the stack dropped out-of-order ones. */
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received TCP flow %" PRIu32 " segment %" PRIu64 " but expected %" PRIu64
                  ": the stack delivered a gap",
                  hdr.flow, hdr.seq, expected);
    m_core.violation(msg);
    return;
  }
  /* A frame belongs to the measurement window by when the wire peer sent it
   * (its timestamp), not by when a NAPI batch happened to deliver it: with
   * batched delivery a window edge can fall in the middle of a backlog, and
   * counting by delivery time could report more than the line carried. A
   * frame sent inside the window and delivered during the drain counts. */
  const uint64_t bytes = static_cast<uint64_t>(len) + NF_FCS_LEN;
  m_core.count_at(hdr.ts_ps, [bytes](CpuCounters &c) {
    c.rx_frames++;
    c.rx_frame_bytes += bytes;
  });
  /* ... and, as iperf reports it, by when the stack received it: under
   * overload a backlog built in the window but delivered in the drain does
   * not count here. iperf counts the application's bytes: the L4 payload
   * (frame less Ethernet, IP, UDP or TCP with timestamps, and FCS). */
  const uint64_t hdrs = m_tcp ? NF_TCP_OVERHEAD : kUdpOverhead;
  const uint64_t payload = bytes > hdrs ? bytes - hdrs : 0;
  m_core.count([bytes, payload](CpuCounters &c) {
    c.rx_delivered_bytes += bytes;
    c.rx_goodput_bytes += payload;
  });
}

void HostStack::tcp_ack_received(const nf_header &h, const nf_sack &sack) {
  const uint32_t flow = nf_flow_id(&h);
  if (flow != 0 || h.seq > m_snd.max()) {
    char msg[200];
    std::snprintf(msg, sizeof msg,
                  "host received an ACK of flow %" PRIu32 " up to segment %" PRIu64
                  "; the host sends flow 0 and has sent %" PRIu64 " segments",
                  flow, h.seq, m_snd.max());
    m_core.violation(msg);
    return;
  }
  if (m_snd.on_ack(h.seq, sack) == TcpSackSender::Ack::kProgress) m_tcp_progress_ps = m_core.local_time_ps();
}

bool HostStack::send_acks() {
  /* spread: one core sends the queue at a time (it sends every ACK queued
   * meanwhile too); a second sender would send the head twice. */
  if (m_ack_sender >= 0) return true;
  m_ack_sender = m_core.cur_core();
  const bool ok = send_acks_locked();
  m_ack_sender = -1;
  return ok;
}

bool HostStack::send_acks_locked() {
  while (!m_core.m_violated && nk_kernel_ack_peek(m_core.m_kernel, nullptr, nullptr)) {
    /* The ACK with its SACK blocks; popped once the driver took it. */
    const int rc = nk_kernel_xmit_ack(m_core.m_kernel);
    m_core.m_sched.check_fault();
    if (rc == NETDEV_TX_BUSY) return false;
    if (rc != NETDEV_TX_OK) {
      char msg[96];
      std::snprintf(msg, sizeof msg, "nk_kernel_xmit of an ACK failed with %d", rc);
      m_core.violation(msg);
      return true;
    }
    m_core.count([](CpuCounters &c) {
      c.tx_frames++;
      c.tcp_acks_sent++;
    });
  }
  return true;
}

void HostStack::sock_release() {
  m_sock_owned = false;
  /* release_sock: the ACKs that arrived while the socket was owned, in order. */
  for (const BackloggedAck &a : m_ack_backlog) tcp_ack_received(a.h, a.sack);
  m_ack_backlog.clear();
}

void HostStack::tcp_sent(uint64_t t, uint64_t tseq, bool rtx) {
  if (m_snd.una() == m_snd.max()) m_tcp_progress_ps = t; /* the RTO runs from the first unacknowledged segment */
  if (rtx) m_core.count([](CpuCounters &c) { c.tcp_retransmits++; });
  m_snd.sent(tseq, rtx);
  m_tcp_inflight_max = std::max(m_tcp_inflight_max, (m_snd.max() - m_snd.una()) * m_tcp_seg_payload);
}

bool HostStack::sndbuf_blocked(bool waiting) const {
  if (m_sndbuf == 0) return false;
  const uint64_t wmem = nk_kernel_sk_wmem(m_core.m_kernel);
  return waiting ? 2 * wmem > m_sndbuf : wmem >= m_sndbuf;
}

bool HostStack::sndbuf_wait(bool *waiting) {
  if (m_sndbuf == 0) return false;
  const uint64_t wmem = nk_kernel_sk_wmem(m_core.m_kernel);
  if (*waiting) {
    if (2 * wmem > m_sndbuf) return true;
    *waiting = false;
  }
  if (wmem < m_sndbuf) return false;
  *waiting = true;
  m_core.count([](CpuCounters &c) { c.tx_sndbuf_waits++; });
  return true;
}

}  // namespace nicsim
