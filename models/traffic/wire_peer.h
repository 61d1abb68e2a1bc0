/* wire_peer.h: the Ethernet link partner: offers test frames to the NIC's
 * MAC (RX direction) and checks the frames the MAC sends (TX direction). */
#ifndef NICSIM_MODELS_TRAFFIC_WIRE_PEER_H
#define NICSIM_MODELS_TRAFFIC_WIRE_PEER_H

#include <cstdint>
#include <systemc>
#include <vector>

#include "common/params.h"
#include "mac/frame_sink.h"
#include "common/ps_time.h"
#include "net/frame.h"
#include "traffic/wire_peer_counters.h"
#include "traffic/tcp_sack.h"

namespace nicsim {

class Mac;
namespace stats {
class Registry;
}

/*
 * WirePeer.
 * RX (peer -> NIC): frame n (n = 0, 1, ...) starts its preamble at
 * t_n = n * T, T = max(frame bits / rate, (preamble + frame + IFG) / line
 * rate), for every t_n < duration. Its last bit reaches the MAC at
 * t_n + (8 B preamble + frame) / line rate, which is when the MAC gets it.
 * Contents: nf_fill_ts(seed, flow n mod flows, seq n div flows, its start
 * time) over the frame without its 4 B FCS.
 * IMIX: frame sizes are drawn per frame, 64/594/1518 B with weights 7:4:1
 * (the "simple IMIX": IP packets of 40/576/1500 B plus 18 B of Ethernet
 * header and FCS, 40 B padded to the 64 B minimum), from a splitmix64
 * stream of the seed; frame n+1 starts T(size_n) after frame n, T as above.
 * Forward (traffic.mode forward): the peer sends as in rx, and every frame
 * the MAC sends is one it sent, forwarded back: it undoes the forwarding's
 * edits (nf_ip_forward_undo; not with XDP_TX, which reflects the frame as
 * it came), checks it as below and counts it forwarded (fwd_frames).
 * TX (NIC -> peer): every frame the MAC sends is checked with nf_check and
 * per-flow sequence tracking (udp: the host's frame n is flow n mod flows,
 * spread over the TX queues, so only each flow's order is checked); intact
 * frames count ok, the rest errors.
 * TCP (traffic.protocol tcp, docs/nic.md): the peer is the sender of each RX
 * flow: a flow may have at most tcp_window_bytes of payload unacknowledged,
 * and at most its congestion window in flight, with SACK loss recovery
 * (TcpSackSender, traffic/tcp_sack.h: 10 segments at first, slow start and
 * congestion avoidance, halved once per loss event, 1 after an RTO); a
 * flow sends its lost segments (those below its highest SACKed one) before
 * new data;
 * the peer sends tcp_burst segments of one flow in a row (TSO), then turns
 * to the next flow that may send, at the line-rate slots, and idles while no
 * window is open. The host's ACK frames (cumulative ACK + SACK blocks) open
 * the windows; the third duplicate ACK starts a fast retransmit; no ACK
 * progress for the RTO marks every segment not SACKed lost.
 * For the host's TX data (flow 0) the peer is the receiver
 * (TcpSackReceiver): it records out-of-order segments within the window, ACKs
 * every tcp_ack_every in-order segments, and at once an out-of-order
 * segment, one that fills a hole or a duplicate, with SACK blocks; its ACK
 * frames go before its next data frame on the RX wire. Nothing starts at or after
 * duration_ps. tcp sends fixed-size frames (frame_dist is udp's).
 * Lazy arrivals (udp, fixed size, MAC without PAUSE): the arrival times
 * are fixed in advance, so the peer wakes for an arrival only while someone
 * waits for it (the DMA engine with an empty RX FIFO: Mac::wait_rx_frame
 * calls RxSource::rx_wanted). Otherwise it replays the arrivals up to now
 * where they can be observed: before each RX FIFO pop (RxSource::rx_space),
 * each look at the FIFO (Mac::rx_fifo) and each counter read (rx_sync). It
 * replays them in order against the FIFO as it was at each one (every pop
 * replays the arrivals up to its own time first, so the FIFO has lost no
 * frame in between), storing or dropping each as on time; once one is
 * dropped, the FIFO stays full up to now, and the rest up to now are
 * counted dropped in O(1) (Mac::rx_drop_deferred checks it is still full).
 * An arrival at the very time of a pop or a look counts as before it, as
 * on time: the peer's method runs at the start of the time step, before any
 * thread (the DMA engine reads and pops from a thread). Same results, and
 * a frame costs an activation only when the DMA engine waits for it.
 */
class WirePeer : public sc_core::sc_module, public FrameSink, public RxSource {
 public:
  /* Construction parameters. */
  struct Params {
    enum class Mode : uint8_t { Rx, Tx, Bidir, Forward };
    Mode mode = Mode::Rx;         /* traffic.mode: the peer sends in rx, bidir and forward */
    bool send = true;             /* offer RX frames: mode rx or bidir */
    uint32_t frame_bytes = 1518;  /* frame with FCS, bytes (fixed distribution) */
    bool imix = false;            /* draw sizes from the simple IMIX instead */
    uint32_t flows = 1;           /* frames go to flows 0..flows-1 in turn */
    double rate_gbps = 0;         /* offered frame bits per second, Gbit/s; 0: line rate */
    bool tcp = false;             /* traffic.protocol tcp (see the class comment) */
    uint64_t tcp_window_bytes = 262144; /* unacknowledged payload bytes per flow */
    uint32_t tcp_ack_every = 2;   /* segments per ACK (TX direction, the peer receives) */
    uint32_t tcp_burst = 44;      /* a flow's segments in a row (TSO burst) */
    uint64_t tcp_rto_ps = 1000000000; /* RTO: every segment not SACKed is lost after this long without ACK progress */
    int64_t pktgen_clone_skb = 0; /* traffic.pktgen_clone_skb: host frames may repeat (pktgen sends each skb this many times) */
    /* Facts of the run and the NIC, set by whoever builds the peer (src/sim): */
    double line_rate_gbps = 10;   /* the wire's rate, Gbit/s (nic.line_rate_gbps) */
    uint64_t duration_ps = 0;     /* frames start before this time, ps (run.duration_us) */
    uint64_t seed = 1;            /* payload stream seed (run.seed) */
    /* forward: the host's IPv4 forwarding edits the frames it sends back
     * (nf_ip_forward_undo); false when XDP_TX reflects them untouched (driver.xdp tx). */
    bool fwd_rewrite = true;
    /* The traffic.* keys the wire side offers and checks. */
    void bind(ParamBinder &b);
    /* The peer's rule: IMIX draws the sizes of its UDP frames. */
    ParamCheck validate() const;
  };

  /* Cumulative counters (wire_peer_counters.h). */
  using Counters = WirePeerCounters;

  WirePeer(sc_core::sc_module_name name, const Params &p, Mac &mac);

  /* FrameSink: a frame from the MAC (TX direction). */
  void frame_received(const uint8_t *data, uint32_t dma_len) override;
  /* FrameSink: a PAUSE from the MAC delays the RX stream (see .cpp). */
  void pause_received(uint32_t quanta, uint64_t at_ps) override;

  /* RxSource: replays the lazy arrivals up to now (stored or dropped). */
  void rx_sync() override;
  /* RxSource: a frame leaves the RX FIFO now: replays the arrivals up to now first. */
  void rx_space() override;
  /* RxSource: a thread waits for the next frame: replays up to now, then
   * wakes at the next arrival again. */
  void rx_wanted() override;

  /* Counters so far (lazy arrivals up to now included; logically const). */
  const Counters &counters() const {
    const_cast<WirePeer *>(this)->rx_sync();
    return m_cnt;
  }
  /* Registers its statistics (wire_peer_stats.h), read from counters(). */
  void add_stats(stats::Registry &r) const;
  /* Time between frame starts of the RX stream (fixed size), ps. */
  double frame_interval_ps() const { return m_interval_ps; }
  /* Time between the starts of a frame of frame_bytes and the next, ps. */
  double interval_ps(uint32_t frame_bytes) const;
  /* Frames offered so far of each IMIX size 64, 594, 1518 B. */
  const uint64_t *imix_counts() const { return m_imix_count; }
  /* IMIX frame sizes with FCS, bytes, and their weights. */
  static constexpr uint32_t kImixBytes[3] = {64, 594, 1518};
  static constexpr uint32_t kImixWeight[3] = {7, 4, 1};
  /* Arrival times (ps) of the first and the latest TX frame (0 if none). */
  uint64_t tx_first_ps() const { return m_tx_first_ps; }
  uint64_t tx_last_ps() const { return m_tx_last_ps; }
  /* Runs of the RX arrival method (udp): the initial one plus one per
   * arrival someone waited for (a measure of the lazy arrivals, for tests). */
  uint64_t rx_wakes() const { return m_rx_wakes; }
  /* Verdict of the latest TX frame that failed nf_check (NF_OK if none). */
  nf_verdict last_tx_verdict() const { return m_last_bad; }

 private:
  /* tcp: per RX flow, the sender's state (sequence numbers count segments). */
  struct TcpFlow {
    TcpSackSender snd;
    uint64_t progress_ps = 0; /* last ACK progress (or RTO), ps */
  };
  void tcp_process();
  void tcp_rto_process();
  /* Picks and schedules the next frame (an ACK first, then data), if any. */
  void tcp_pick();
  bool tcp_can_send(uint32_t f);
  void tcp_arm_rto();
  void tcp_frame_received(const nf_header &h, const uint8_t *data, uint32_t dma_len);

  void rx_process();
  /* Frame m_next's last bit arrives now: the MAC stores or drops it; counts
   * it and moves on to the next frame. True if stored. */
  bool rx_arrive();
  /* Plans frame m_next (m_armed, m_pending_*), without waking. */
  void rx_plan();
  /* Lazy, at a full FIFO: counts frames m_next.. that arrived by now (ps) dropped, in O(1). */
  void rx_drop_until(uint64_t now);
  uint64_t nominal_start_ps() const;
  uint64_t flight_ps(uint32_t frame_bytes) const;
  void schedule_pending();
  uint32_t draw_imix();

  Params m_p;
  Mac &m_mac;
  uint32_t m_dma_len;        /* bytes per fixed-size frame without FCS */
  double m_interval_ps;      /* frame start spacing */
  uint64_t m_flight_ps;      /* preamble + frame at line rate */
  uint64_t m_next = 0;       /* next frame number to send */
  uint32_t m_next_bytes;     /* its size with FCS */
  double m_next_start_ps = 0; /* IMIX: its preamble start, ps */
  uint64_t m_rng;            /* IMIX: splitmix64 state */
  uint64_t m_imix_count[3] = {0, 0, 0};
  bool m_armed = false;      /* frame m_next is planned (woken for or lazy) */
  bool m_can_defer = false;  /* arrivals may be lazy (see the class comment) */
  bool m_lazy = false;       /* frame m_next and later ones: no wake, replayed by rx_sync */
  uint64_t m_rx_wakes = 0;   /* runs of rx_process */
  uint64_t m_pending_nominal_ps = 0; /* frame m_next's start without pauses */
  uint64_t m_pending_start_ps = 0;   /* its start with them */
  uint64_t m_shift_ps = 0;           /* delay pauses have added so far */
  uint64_t m_pause_at_ps = 0;        /* the latest PAUSE arrived then... */
  uint64_t m_pause_until_ps = 0;     /* ...and blocks starts until then */
  sc_core::sc_event m_wake;
  nf_seq_track m_track{};    /* TX direction, flow 0 */
  std::vector<nf_seq_track> m_tx_flows; /* udp TX direction, flows 1 .. flows - 1 (sized at the first frame) */
  uint64_t m_tx_first_ps = 0;
  uint64_t m_tx_last_ps = 0;
  nf_verdict m_last_bad = NF_OK;
  std::vector<uint8_t> m_fwd_buf; /* forward: a received frame with the forwarding's edits undone */
  Counters m_cnt;
  /* tcp */
  std::vector<TcpFlow> m_tcp;   /* per RX flow */
  uint64_t m_seg_payload = 1;   /* payload bytes per segment */
  uint64_t m_win_segs = 1;      /* segments the window holds */
  uint32_t m_cur_flow = 0;      /* flow of the current burst */
  uint32_t m_burst_left = 0;    /* its segments still to send in a row */
  bool m_pend_ack = false;      /* frame m_pending_* is an ACK */
  uint32_t m_pend_flow = 0;
  uint64_t m_pend_seq = 0;
  uint64_t m_last_start_ps = 0; /* start of the latest frame sent */
  uint32_t m_last_bytes = 0;    /* and its size (0: none yet) */
  bool m_ack_due = false;       /* an ACK of the host's data waits for the wire */
  bool m_tcp_deferred = false;  /* tcp_process / tcp_rto_process: woken, stepping one delta on */
  bool m_rto_deferred = false;
  TcpSackReceiver m_rcv;        /* the host's TX flow: what arrived */
  uint32_t m_rx_unacked = 0;    /* host data segments since the peer's last ACK */
  sc_core::sc_event m_rto_ev;
};

}  // namespace nicsim
#endif
