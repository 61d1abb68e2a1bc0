/*
 * flow_control.h: the transmitter's view of one flow-control type (posted or
 * non-posted) at a receiver: header and data credits advertised, consumed by
 * TLPs, and returned when the receiver's UpdateFC DLLP arrives (Base Spec 3.0
 * §2.6). A limit of 0 means infinite credits.
 */
#ifndef NICSIM_MODELS_PCIE_FLOW_CONTROL_H
#define NICSIM_MODELS_PCIE_FLOW_CONTROL_H

#include <cstdint>

#include "pcie/time_ring.h"

namespace nicsim {

class TraceWriter;

/* Credits of one FC type, with the times at which consumed credits come back. */
class FcCredits {
 public:
  /* hdr_limit: header credits (one per TLP), data_limit: data credits (16 B each); 0 = infinite. */
  FcCredits(uint32_t hdr_limit, uint32_t data_limit);

  /* Data credits of a payload of bytes: one per 16 bytes or part of it. */
  static uint32_t data_credits(uint32_t bytes) { return (bytes + 15) / 16; }
  /* True if neither kind of credit is limited. */
  bool infinite() const { return !m_hdr_limit && !m_data_limit; }
  /* Earliest time (ps, at or after now_ps) at which hdr header and data data
   * credits are available, given the returns already scheduled. */
  uint64_t ready_ps(uint64_t now_ps, uint32_t hdr, uint32_t data);
  /* Takes hdr and data credits; they come back at return_ps (ps; a return
   * earlier than a previous one is delayed to it: the receiver frees its
   * buffer in order). */
  void consume(uint32_t hdr, uint32_t data, uint64_t return_ps);
  /* Credits in use at the last ready_ps() call. */
  uint32_t hdr_in_use() const { return m_hdr_used; }
  uint32_t data_in_use() const { return m_data_used; }
  /* Trace counters of the credits available (limit - in use), header and
   * data, named hdr_name / data_name (static strings), written when they
   * change: a return at its time, a TLP's take at its ready_ps time. An
   * infinite kind gets no counter. */
  void set_trace(TraceWriter *t, const char *hdr_name, const char *data_name);

 private:
  struct Return {
    uint64_t at_ps = 0;
    uint32_t hdr = 0;
    uint32_t data = 0;
  };
  bool fits(uint32_t hdr_used, uint32_t data_used, uint32_t hdr, uint32_t data) const;
  /* Writes the available credits at ps, those that changed since the last write. */
  void trace_avail(uint64_t ps);

  uint32_t m_hdr_limit;
  uint32_t m_data_limit;
  uint32_t m_hdr_used = 0;
  uint32_t m_data_used = 0;
  uint64_t m_last_return_ps = 0;
  TimeRing<Return> m_returns;
  uint64_t m_ready_at_ps = 0; /* the time of the last ready_ps() call */
  TraceWriter *m_trace = nullptr;
  const char *m_trace_name[2] = {};
  int64_t m_traced[2] = {-1, -1}; /* header / data credits last written (-1: none yet) */
};

}  // namespace nicsim
#endif
