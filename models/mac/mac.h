/* mac.h: the Ethernet MAC: RX and TX packet FIFOs and line-rate serialisation
 * (preamble, frame with FCS, inter-frame gap). */
#ifndef NICSIM_MODELS_MAC_MAC_H
#define NICSIM_MODELS_MAC_MAC_H

#include <cstdint>
#include <systemc>

#include "common/params.h"
#include "common/waited_event.h"
#include "mac/byte_fifo.h"
#include "mac/mac_counters.h"
#include "mac/frame_sink.h"
#include "common/ps_time.h"

namespace nicsim {

namespace stats {
class Registry;
}

/*
 * Mac sits between the wire and the DMA engine.
 * RX: the wire peer delivers each frame when its last bit has arrived
 * (rx_begin/rx_end); the MAC strips the FCS and stores the rest in the RX
 * FIFO, or drops the frame and counts it if the FIFO lacks space. A source
 * may deliver its arrivals lazily (RxSource, frame_sink.h): the MAC tells it
 * before each RX FIFO pop or look (rx_fifo) and each counter read, and
 * before a thread waits for a frame, so the FIFO and the counts are exact
 * whenever they are observed.
 * TX: the DMA engine builds frames in the TX FIFO and publishes them; the MAC
 * sends each one at line rate: 8 B preamble+SFD, the frame with its 4 B FCS,
 * then at least 12 B of inter-frame gap before the next preamble. The frame
 * goes to the sink when its FCS has left, and then leaves the FIFO.
 */
class Mac : public sc_core::sc_module {
 public:
  static constexpr uint32_t kPreambleBytes = 8; /* preamble + SFD, bytes */
  static constexpr uint32_t kIfgBytes = 12;     /* minimum inter-frame gap, bytes */
  static constexpr uint32_t kFcsBytes = 4;      /* frame check sequence, bytes */
  static constexpr uint32_t kMinDmaLen = 60;    /* shortest frame without FCS, bytes */

  /* Construction parameters. */
  struct Params {
    double line_rate_gbps = 10;      /* Gbit/s: 1, 2.5, 10, 25, 40 or 100 */
    uint32_t rx_fifo_bytes = 65536;  /* RX FIFO, bytes */
    bool pause = false;              /* IEEE 802.3x flow control */
    uint32_t pause_quanta = 65535;   /* XOFF pause_time, 512 bit times */
    /* Sized by the traffic the MAC carries (src/sim computes them, with the
     * configuration's rules for 0, nc_tx_fifo_bytes and friends): */
    uint32_t max_frame_bytes = 1518; /* longest frame with FCS, bytes: max(1518, traffic.frame_bytes) */
    uint32_t tx_fifo_bytes = 3036;   /* TX FIFO, bytes (nic.tx_fifo_bytes, 0: two longest frames) */
    uint32_t xoff_bytes = 0;         /* RX FIFO fill that sends XOFF, bytes (nic.pause_xoff_bytes) */
    uint32_t xon_bytes = 0;          /* fill at or below which XON follows, bytes (nic.pause_xon_bytes) */
    /* The nic.* keys of the MAC itself. */
    void bind(ParamBinder &b);
    /* The MAC's rule: an Ethernet line rate. */
    ParamCheck validate() const;
  };

  /* Cumulative counters (mac_counters.h). */
  using Counters = MacCounters;
  /* Bytes of a PAUSE frame on the wire: preamble + 64 B frame. */
  static constexpr uint32_t kPauseWireBytes = 8 + 64;

  Mac(sc_core::sc_module_name name, const Params &p);

  /* Where transmitted frames go (the wire peer); must be set before sc_start. */
  void set_tx_sink(FrameSink *sink) { m_sink = sink; }
  /* The RX sender that may deliver lazily (the wire peer), told before each
   * RX FIFO pop or look, each read of the counters and each wait for a
   * frame; nullptr: none. */
  void set_rx_source(RxSource *src) { m_rx_src = src; }
  /* True if the MAC sends PAUSE frames (nic.pause_enable). */
  bool pause_enabled() const { return m_p.pause; }

  /* ---- wire RX, called by the peer when a frame's last bit has arrived ---- */
  /* Space for a frame of dma_len bytes (FCS stripped) in the RX FIFO, or
   * nullptr: the frame is dropped and counted. */
  uint8_t *rx_begin(uint32_t dma_len);
  /* The frame written at rx_begin's pointer is complete: hand it to DMA. */
  void rx_end();
  /* n frames of dma_len bytes arrived (earlier, deferred by the source) while
   * the FIFO had no room: counts them dropped, as n rx_begin calls that
   * failed would. False (nothing counted) if the FIFO has room now. */
  bool rx_drop_deferred(uint32_t dma_len, uint64_t n);

  /* ---- DMA side ---------------------------------------------------------- */
  /* RX FIFO, with every arrival up to now in it; the DMA engine reads
   * front() and calls rx_pop() once the bytes are sent. */
  ByteFifo &rx_fifo() {
    if (m_rx_src) m_rx_src->rx_sync();
    return m_rx;
  }
  /* Removes the oldest RX frame (its bytes have left); may send XON. */
  void rx_pop();
  /* Suspends the calling SC_THREAD until the next frame enters the RX FIFO. */
  void wait_rx_frame() {
    if (m_rx_src) m_rx_src->rx_wanted();
    m_rx_frame.wait();
  }
  /* The same for an SC_METHOD: returns the event to next_trigger on, which
   * the next frame to enter the RX FIFO notifies. */
  const sc_core::sc_event &want_rx_frame() {
    if (m_rx_src) m_rx_src->rx_wanted();
    return m_rx_frame.arm();
  }
  /* TX FIFO; the DMA engine append()s and close_frame()s into it. */
  ByteFifo &tx_fifo() { return m_tx; }
  /* Publishes the oldest closed TX frame and starts sending if idle. */
  void tx_publish();
  /* Suspends the calling SC_THREAD until the next sent frame leaves the TX FIFO. */
  void wait_tx_space() { m_tx_space.wait(); }

  /* Counters so far (a deferring RX source's drops up to now included). */
  const Counters &counters() const {
    if (m_rx_src) m_rx_src->rx_sync();
    return m_cnt;
  }
  /* Registers its statistics (mac_stats.h), read from counters(). */
  void add_stats(stats::Registry &r) const;
  /* Time to send n bytes at the line rate, in picoseconds. */
  uint64_t wire_ps(uint32_t bytes) const;
  /* Line rate in Gbit/s. */
  double line_rate_gbps() const { return m_p.line_rate_gbps; }

 private:
  void tx_process();
  /* The RX FIFO's pop hook: tells the RX source. */
  static void rx_pop_hook(void *self);
  void send_pause(uint32_t quanta);
  void pause_refresh();

  Params m_p;
  double m_ps_per_byte; /* ps per byte at the line rate */
  ByteFifo m_rx;
  ByteFifo m_tx;
  FrameSink *m_sink = nullptr;
  RxSource *m_rx_src = nullptr;
  WaitedEvent m_rx_frame; /* notified each time a frame enters the RX FIFO */
  WaitedEvent m_tx_space; /* notified each time a sent frame leaves the TX FIFO */
  sc_core::sc_event m_tx_kick;
  bool m_tx_busy = false;       /* a frame is on the wire (or in its IFG wait) */
  uint64_t m_tx_next_ps = 0;    /* earliest next preamble (after the IFG), ps */
  bool m_xoff = false;          /* the peer has been asked to pause */
  sc_core::sc_event m_refresh;  /* re-send XOFF before the pause runs out */
  Counters m_cnt;
};

}  // namespace nicsim
#endif
