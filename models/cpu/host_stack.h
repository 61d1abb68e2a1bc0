/* host_stack.h: the host stack's endpoints of the test traffic, part of
 * CpuCore: the sink the kernel layer's stack delivers received frames to
 * (ops->host_rx: integrity, per-flow order, counts), the TCP sender of the
 * host's TX flow (window, SACK recovery, RTO; the peer's ACKs, held in the
 * socket's backlog while the application owns it), the transmission of the
 * ACKs the kernel's TCP receiver queued, and the UDP sender's socket send
 * buffer (traffic.sndbuf_bytes). */
#ifndef NICSIM_MODELS_CPU_HOST_STACK_H
#define NICSIM_MODELS_CPU_HOST_STACK_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/params.h"
#include "net/frame.h"
#include "traffic/tcp_sack.h"

namespace nicsim {

class CpuCore;

class HostStack {
 public:
  /* The test traffic's endpoints on the host. */
  struct Params {
    bool tcp = false;              /* traffic.protocol tcp (else udp) */
    uint32_t frame_bytes = 1518;   /* traffic.frame_bytes: frame size, B */
    int64_t sndbuf_bytes = 0;      /* traffic.sndbuf_bytes: UDP SO_SNDBUF, B (0: paced, no limit) */
    int64_t tcp_window_bytes = 262144; /* traffic.tcp_window_bytes: the peer's receive window, B */
    uint64_t tcp_rto_ps = 200000000000ull; /* traffic.tcp_rto_us: retransmission timeout, ps */
    uint64_t seed = 1;             /* run.seed: the frames' payload pattern (src/sim) */
    /* The traffic.* keys. */
    void bind(ParamBinder &b);
  };
  /* The stack of core, configured by p. */
  HostStack(CpuCore &core, const Params &p);

  /* ---- the host sink --------------------------------------------------- */
  /* The stack hands the frame at pa (len bytes, no FCS) to the host: checked
   * (nf_check, time, per-flow order) and counted, or an ACK of the host's
   * TX flow passed to the TCP sender. Any failure is a violation. */
  void host_rx(uint64_t pa, uint32_t len);
  /* Frames the sink saw out of sequence order (should be zero). */
  uint64_t rx_sequence_gaps() const;

  /* ---- the TCP sender of the host's TX flow (flow 0) -------------------- */
  bool tcp() const { return m_tcp; }
  /* The sender (window and SACK recovery; no congestion window). */
  TcpSackSender &sender() { return m_snd; }
  /* With no ACK progress for tcp_rto_us at time t (ps), marks every
   * segment not SACKed lost; then true if the window is closed (the
   * application waits for an ACK). */
  bool tcp_window_closed(uint64_t t);
  /* When the RTO fires if no ACK comes (ps; UINT64_MAX: nothing unacknowledged). */
  uint64_t tcp_rto_due_ps() const;
  /* The application's segment tseq (a retransmission if rtx) went to the
   * driver at local time t: the sender records it. */
  void tcp_sent(uint64_t t, uint64_t tseq, bool rtx);
  /* The most payload bytes the host's TX flow ever had unacknowledged. */
  uint64_t tcp_inflight_max() const { return m_tcp_inflight_max; }
  /* tcp, cpu.locking txq: the application's socket is locked (peek ..
   * sent around its xmit): ACKs of its flow wait in the backlog, as Linux's
   * sk_add_backlog while the socket is owned by the user. */
  void sock_lock() { m_sock_owned = true; }
  bool sock_owned() const { return m_sock_owned; }
  /* Unlocks it and processes the ACKs the backlog holds (release_sock). */
  void sock_release();

  /* ---- the ACKs of the kernel's TCP receiver ------------------------------ */
  /* tcp: transmits the ACKs the kernel's TCP receiver queued, oldest first,
   * until the driver answers NETDEV_TX_BUSY; false if it did. With several
   * cores one core sends the queue at a time (true at once if another is). */
  bool send_acks();
  /* True while a core is sending the queued ACKs. */
  bool ack_sender_busy() const { return m_ack_sender >= 0; }

  /* ---- the UDP sender's socket send buffer ------------------------------- */
  /* traffic.sndbuf_bytes (0: none, the sender is paced). */
  uint64_t sndbuf() const { return m_sndbuf; }
  /* True while the UDP sender must wait for socket memory (*waiting keeps
   * its state between calls): it may send while the socket's sk_wmem_alloc
   * is below sndbuf; once it could not, it sleeps until TX completion frees
   * the socket down to half (sock_def_write_space wakes writers only then).
   * Counts each wait. */
  bool sndbuf_wait(bool *waiting);
  /* sndbuf_wait's answer without its effects (no wait begins or ends, nothing counted). */
  bool sndbuf_blocked(bool waiting) const;

 private:
  /* The host's ACK frame of its TX flow (h from nf_check; sack its blocks). */
  void tcp_ack_received(const nf_header &h, const nf_sack &sack);
  /* send_acks's loop, with m_ack_sender set. */
  bool send_acks_locked();

  CpuCore &m_core;
  const uint64_t m_seed; /* run.seed */
  std::vector<nf_seq_track> m_flows; /* host sink, per flow */
  /* traffic.protocol tcp: the host application's TX flow (flow 0), in segments */
  bool m_tcp = false;
  TcpSackSender m_snd;            /* window and SACK recovery; no congestion window */
  uint64_t m_tcp_progress_ps = 0; /* last ACK progress or RTO (local time), ps */
  uint64_t m_tcp_win_segs = 1;    /* segments tcp_window_bytes holds */
  uint64_t m_tcp_seg_payload = 1; /* payload bytes per segment */
  uint64_t m_tcp_rto_ps = 0;
  uint64_t m_tcp_inflight_max = 0;
  /* tcp, txq: the socket lock and its backlog of ACKs (bounded: Linux drops beyond the socket's limit) */
  struct BackloggedAck {
    nf_header h;
    nf_sack sack;
  };
  static constexpr size_t kAckBacklog = 1024;
  bool m_sock_owned = false;
  std::vector<BackloggedAck> m_ack_backlog;
  int m_ack_sender = -1; /* tcp: the core transmitting the queued ACKs (-1: none) */
  uint64_t m_sndbuf = 0; /* traffic.sndbuf_bytes: the UDP sender's SO_SNDBUF (0: paced, no limit) */
};

}  // namespace nicsim
#endif
