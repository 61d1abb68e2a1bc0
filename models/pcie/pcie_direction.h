/*
 * pcie_direction.h: one direction of a PCIe link as a FIFO server: TLPs and
 * DLLPs are serialised one after another at the link's byte rate and arrive at
 * the far side a fixed latency after their last byte left; SKP ordered sets
 * take their share of the wire at the spec's interval. Keeps the counters.
 *
 * Reservations are made only at the current simulated time (now_ps), so the
 * busy intervals after any instant are one contiguous run up to free_ps().
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_DIRECTION_H
#define NICSIM_MODELS_PCIE_PCIE_DIRECTION_H

#include <cstdint>

#include "common/tlp.h"
#include "pcie/pcie_counters.h"
#include "pcie/tlp_format.h"

namespace nicsim {

/* When one TLP is on the wire and when it has arrived, in ps. */
struct TlpReservation {
  uint64_t start_ps;   /* first byte leaves the sender */
  uint64_t end_ps;     /* last byte leaves the sender */
  uint64_t arrival_ps; /* last byte has arrived at the receiver */
};

/* The serialiser of one link direction. */
class PcieDirection {
 public:
  /* fmt gives serialisation times and SKP spacing (sent if fmt.params().skp);
   * latency_ps is the one-way latency in ps. */
  PcieDirection(const TlpFormat &fmt, uint64_t latency_ps);

  /* Queues one TLP of wire_bytes (bytes on the wire, payload_bytes of them
   * data) behind everything reserved before, at time now_ps (ps, the current
   * simulated time), and counts it. */
  TlpReservation reserve(uint64_t now_ps, uint32_t wire_bytes, uint32_t payload_bytes,
                         DmaPurpose purpose);
  /* Queues one DLLP (Ack or UpdateFC) at now_ps, ps, and counts it. */
  TlpReservation reserve_dllp(uint64_t now_ps);
  /* Counts one TLP that waited wait_ps (ps) for flow-control credits. */
  void count_credit_stall(uint64_t wait_ps);
  /* Time (ps) at which the serialiser becomes idle. */
  uint64_t free_ps() const { return m_free_ps; }
  /* Counters with busy time counted up to at_ps (ps, not before the last
   * reservation's time); SKPs due by then are included. */
  PcieDirCounters counters(uint64_t at_ps) const;

 private:
  /* Starts the next item at or after now_ps, sending every SKP due before it first. */
  uint64_t start_at(uint64_t now_ps);
  TlpReservation book(uint64_t start_ps, uint64_t ser_ps);

  const TlpFormat &m_fmt;
  uint64_t m_latency_ps;
  bool m_skp;
  uint64_t m_free_ps = 0;
  uint64_t m_next_skp_ps;
  PcieDirCounters m_cnt;
};

}  // namespace nicsim
#endif
