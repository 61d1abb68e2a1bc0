/* frame_sink.h: the interfaces between a MAC and whatever is on the other
 * end of the wire (the WirePeer): FrameSink takes the frames the MAC
 * transmits; RxSource lets a sender defer the frames a full RX FIFO drops. */
#ifndef NICSIM_MODELS_MAC_FRAME_SINK_H
#define NICSIM_MODELS_MAC_FRAME_SINK_H

#include <cstdint>

namespace nicsim {

/* Receives frames from the wire, one call per frame at the time its last bit
 * (end of FCS) has arrived. */
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  /* One frame: data are the frame's bytes without FCS (dma_len bytes); the
   * pointer is valid only during the call. */
  virtual void frame_received(const uint8_t *data, uint32_t dma_len) = 0;
  /* A PAUSE frame (IEEE 802.3 Annex 31B) whose last bit arrives at at_ps
   * (not before now): stop starting frames for quanta x 512 bit times from
   * then; quanta 0 resumes. Sinks that do not transmit ignore it. */
  virtual void pause_received(uint32_t quanta, uint64_t at_ps) {
    (void)quanta;
    (void)at_ps;
  }
};

/* A sender of RX frames whose arrival times are fixed in advance, so it
 * need not wake at each arrival: the MAC tells it before the RX FIFO changes
 * or is looked at and when its counters are read, and it then replays the
 * arrivals up to now (each stored or dropped against the FIFO as it was at
 * that arrival); and it tells it when a thread is about to wait for a frame,
 * so that the sender wakes on time again. See WirePeer. */
class RxSource {
 public:
  virtual ~RxSource() = default;
  /* Replays the arrivals up to and including now (stored or dropped, counted). */
  virtual void rx_sync() = 0;
  /* A frame is about to leave the RX FIFO, now (now_ps(): the time a
   * process acting ahead acts at, LogicalNow): replay up to now first. */
  virtual void rx_space() = 0;
  /* A thread is about to wait for the next frame to enter the RX FIFO:
   * replay up to now, then wake for the next arrival on time. */
  virtual void rx_wanted() = 0;
};

}  // namespace nicsim
#endif
