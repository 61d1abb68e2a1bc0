/*
 * pcie_direction.h: one direction of a PCIe link as a FIFO server: TLPs are
 * serialised one after another at the link's byte rate and arrive at the far
 * side a fixed latency after their last byte left. Keeps the counters.
 *
 * Reservations are made only at the current simulated time (now_ps), so the
 * busy intervals after any instant are one contiguous run up to free_ps().
 * Flow-control credits and relaxed ordering will hook into reserve().
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
  /* fmt gives serialisation times; latency_ps is the one-way latency in ps. */
  PcieDirection(const TlpFormat &fmt, uint64_t latency_ps);

  /* Queues one TLP of wire_bytes (bytes on the wire, payload_bytes of them
   * data) behind everything reserved before, at time now_ps (ps, the current
   * simulated time), and counts it. */
  TlpReservation reserve(uint64_t now_ps, uint32_t wire_bytes, uint32_t payload_bytes,
                         DmaPurpose purpose);
  /* Time (ps) at which the serialiser becomes idle. */
  uint64_t free_ps() const { return m_free_ps; }
  /* Counters with busy time counted up to at_ps (ps, not before the last reservation's time). */
  PcieDirCounters counters(uint64_t at_ps) const;

 private:
  const TlpFormat &m_fmt;
  uint64_t m_latency_ps;
  uint64_t m_free_ps = 0;
  PcieDirCounters m_cnt;
};

}  // namespace nicsim
#endif
