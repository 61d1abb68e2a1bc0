/* mac_counters.h: what the Ethernet MAC counts (no SystemC: its statistics use it). */
#ifndef NICSIM_MODELS_MAC_MAC_COUNTERS_H
#define NICSIM_MODELS_MAC_MAC_COUNTERS_H

#include <cstdint>

namespace nicsim {

/* Cumulative counters of the MAC. */
struct MacCounters {
  uint64_t rx_frames = 0;      /* frames stored in the RX FIFO */
  uint64_t rx_drop_fifo = 0;   /* frames dropped: RX FIFO full (or frame too long) */
  uint64_t tx_wire_frames = 0; /* frames sent on the wire */
  uint64_t tx_wire_bytes = 0;  /* their bytes, FCS included */
  uint64_t pause_xoff = 0;     /* PAUSE frames sent with the configured quanta (incl. refreshes) */
  uint64_t pause_xon = 0;      /* PAUSE frames sent with quanta 0 */
};

}  // namespace nicsim
#endif
