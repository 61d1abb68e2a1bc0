/* frame_sink.h: the interface through which a MAC hands a transmitted frame
 * to whatever is on the other end of the wire (the WirePeer). */
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

}  // namespace nicsim
#endif
