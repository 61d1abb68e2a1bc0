/* wire_peer_counters.h: what the wire peer counts (no SystemC: its statistics use it). */
#ifndef NICSIM_MODELS_TRAFFIC_WIRE_PEER_COUNTERS_H
#define NICSIM_MODELS_TRAFFIC_WIRE_PEER_COUNTERS_H

#include <cstdint>

namespace nicsim {

/* Cumulative counters of the wire peer. */
struct WirePeerCounters {
  uint64_t rx_offered_frames = 0; /* frames sent towards the NIC */
  uint64_t rx_offered_bytes = 0;  /* their bytes, FCS included */
  uint64_t tx_ok = 0;             /* frames received intact and in order */
  uint64_t tx_errors = 0;         /* corrupted, duplicated or reordered */
  uint64_t tx_gaps = 0;           /* sequence numbers skipped (frames lost) */
  uint64_t pause_frames = 0;      /* PAUSE frames received from the MAC */
  /* traffic.protocol tcp */
  uint64_t tcp_acks_sent = 0;     /* ACK frames the peer sent (for the host's TX data) */
  uint64_t tcp_acks_received = 0; /* ACK frames from the host */
  uint64_t tcp_retransmits = 0;   /* data segments sent again (lost ones, SACK recovery or RTO) */
  uint64_t tcp_recoveries = 0;    /* loss events: fast retransmits (third duplicate ACK) and RTOs */
  uint64_t tcp_rtos = 0;          /* of those, RTOs */
  uint64_t tx_dups = 0;           /* host data segments received again (host retransmits), discarded */
  uint64_t tx_held = 0;           /* host data segments received out of order (counted in tx_ok) */
  uint64_t tcp_inflight_max = 0;  /* most unacknowledged payload bytes of one flow, B */
  /* traffic.mode forward */
  bool forward = false;           /* the mode is forward (constant: tells the statistics) */
  uint64_t fwd_frames = 0;        /* frames received back forwarded, intact and in order */
  uint64_t fwd_bytes = 0;         /* their bytes, FCS included, B */
};

}  // namespace nicsim
#endif
