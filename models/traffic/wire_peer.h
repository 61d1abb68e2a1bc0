/* wire_peer.h: the Ethernet link partner: offers test frames to the NIC's
 * MAC (RX direction) and checks the frames the MAC sends (TX direction). */
#ifndef NICSIM_MODELS_TRAFFIC_WIRE_PEER_H
#define NICSIM_MODELS_TRAFFIC_WIRE_PEER_H

#include <cstdint>
#include <systemc>

#include "config/config.h"
#include "mac/frame_sink.h"
#include "net/frame.h"

namespace nicsim {

class Mac;

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
 * TX (NIC -> peer): every frame the MAC sends is checked with nf_check and
 * per-flow sequence tracking; intact frames count ok, the rest errors.
 */
class WirePeer : public sc_core::sc_module, public FrameSink {
 public:
  /* Construction parameters. */
  struct Params {
    bool send = true;             /* offer RX frames (traffic.mode rx or bidir) */
    double line_rate_gbps = 10;   /* Gbit/s */
    uint32_t frame_bytes = 1518;  /* frame with FCS, bytes (fixed distribution) */
    bool imix = false;            /* draw sizes from the simple IMIX instead */
    uint32_t flows = 1;           /* frames go to flows 0..flows-1 in turn */
    double rate_gbps = 0;         /* offered frame bits per second, Gbit/s; 0: line rate */
    uint64_t duration_ps = 0;     /* frames start before this time, ps */
    uint64_t seed = 1;            /* payload stream seed */
    /* From cfg.traffic.*, cfg.nic.line_rate_gbps and cfg.run.{duration_us,seed}. */
    static Params from_config(const nicsim_config &cfg);
  };

  /* Cumulative counters. */
  struct Counters {
    uint64_t rx_offered_frames = 0; /* frames sent towards the NIC */
    uint64_t rx_offered_bytes = 0;  /* their bytes, FCS included */
    uint64_t tx_ok = 0;             /* frames received intact and in order */
    uint64_t tx_errors = 0;         /* corrupted, duplicated or reordered */
    uint64_t tx_gaps = 0;           /* sequence numbers skipped (frames lost) */
    uint64_t pause_frames = 0;      /* PAUSE frames received from the MAC */
  };

  WirePeer(sc_core::sc_module_name name, const Params &p, Mac &mac);

  /* FrameSink: a frame from the MAC (TX direction). */
  void frame_received(const uint8_t *data, uint32_t dma_len) override;
  /* FrameSink: a PAUSE from the MAC delays the RX stream (see .cpp). */
  void pause_received(uint32_t quanta, uint64_t at_ps) override;

  /* Counters so far. */
  const Counters &counters() const { return m_cnt; }
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
  /* Verdict of the latest TX frame that failed nf_check (NF_OK if none). */
  nf_verdict last_tx_verdict() const { return m_last_bad; }

 private:
  void rx_process();
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
  bool m_armed = false;      /* woken for frame m_next's arrival */
  uint64_t m_pending_nominal_ps = 0; /* frame m_next's start without pauses */
  uint64_t m_pending_start_ps = 0;   /* its start with them */
  uint64_t m_shift_ps = 0;           /* delay pauses have added so far */
  uint64_t m_pause_at_ps = 0;        /* the latest PAUSE arrived then... */
  uint64_t m_pause_until_ps = 0;     /* ...and blocks starts until then */
  sc_core::sc_event m_wake;
  nf_seq_track m_track{};    /* TX direction, flow 0 */
  uint64_t m_tx_first_ps = 0;
  uint64_t m_tx_last_ps = 0;
  nf_verdict m_last_bad = NF_OK;
  Counters m_cnt;
};

}  // namespace nicsim
#endif
