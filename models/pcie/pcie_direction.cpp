// pcie_direction.cpp: FIFO serialisation of TLPs on one link direction.
#include "pcie/pcie_direction.h"

#include <algorithm>

namespace nicsim {

PcieDirection::PcieDirection(const TlpFormat &fmt, uint64_t latency_ps)
    : m_fmt(fmt), m_latency_ps(latency_ps) {}

TlpReservation PcieDirection::reserve(uint64_t now_ps, uint32_t wire_bytes, uint32_t payload_bytes,
                                      DmaPurpose purpose) {
  TlpReservation r;
  r.start_ps = std::max(now_ps, m_free_ps);
  const uint64_t ser = m_fmt.serialise_ps(wire_bytes);
  r.end_ps = r.start_ps + ser;
  r.arrival_ps = r.end_ps + m_latency_ps;
  m_free_ps = r.end_ps;
  const size_t pi = static_cast<size_t>(purpose);
  m_cnt.tlps++;
  m_cnt.wire_bytes += wire_bytes;
  m_cnt.payload_bytes += payload_bytes;
  m_cnt.busy_ps += ser;
  m_cnt.purpose_tlps[pi]++;
  m_cnt.purpose_wire_bytes[pi] += wire_bytes;
  return r;
}

PcieDirCounters PcieDirection::counters(uint64_t at_ps) const {
  PcieDirCounters c = m_cnt;
  /* Reservations happen at the current time, so whatever is booked beyond
   * at_ps is one back-to-back run [at_ps, free): take it off. */
  if (m_free_ps > at_ps) c.busy_ps -= std::min(c.busy_ps, m_free_ps - at_ps);
  return c;
}

}  // namespace nicsim
