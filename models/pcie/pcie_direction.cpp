// pcie_direction.cpp: FIFO serialisation of TLPs, DLLPs and SKP ordered sets on one link direction.
#include "pcie/pcie_direction.h"

#include <algorithm>

namespace nicsim {

PcieDirection::PcieDirection(const TlpFormat &fmt, uint64_t latency_ps)
    : m_fmt(fmt), m_latency_ps(latency_ps), m_skp(fmt.params().skp), m_next_skp_ps(fmt.skp_interval_ps()) {}

uint64_t PcieDirection::start_at(uint64_t now_ps) {
  uint64_t start = std::max(now_ps, m_free_ps);
  /* An SKP ordered set is due every interval (start to start); it cannot cut
   * into a TLP, so one due while the wire is busy goes right after the item
   * in progress (here: after everything booked so far), delaying what follows. */
  while (m_skp && m_next_skp_ps <= start) {
    const uint64_t s = std::max(m_next_skp_ps, m_free_ps);
    m_free_ps = s + m_fmt.skp_ps();
    m_cnt.busy_ps += m_fmt.skp_ps();
    m_cnt.skps++;
    m_cnt.skp_bytes += m_fmt.skp_wire_bytes();
    m_next_skp_ps += m_fmt.skp_interval_ps();
    start = std::max(now_ps, m_free_ps);
  }
  return start;
}

TlpReservation PcieDirection::book(uint64_t start_ps, uint64_t ser_ps) {
  TlpReservation r;
  r.start_ps = start_ps;
  r.end_ps = start_ps + ser_ps;
  r.arrival_ps = r.end_ps + m_latency_ps;
  m_free_ps = r.end_ps;
  m_cnt.busy_ps += ser_ps;
  return r;
}

TlpReservation PcieDirection::reserve(uint64_t now_ps, uint32_t wire_bytes, uint32_t payload_bytes,
                                      DmaPurpose purpose) {
  const uint64_t ser = m_fmt.serialise_ps(wire_bytes);
  const TlpReservation r = book(start_at(now_ps), ser);
  const size_t pi = static_cast<size_t>(purpose);
  m_cnt.tlps++;
  m_cnt.wire_bytes += wire_bytes;
  m_cnt.payload_bytes += payload_bytes;
  m_cnt.overhead_bytes += wire_bytes - payload_bytes;
  m_cnt.purpose_tlps[pi]++;
  m_cnt.purpose_wire_bytes[pi] += wire_bytes;
  return r;
}

TlpReservation PcieDirection::reserve_dllp(uint64_t now_ps) {
  const uint32_t bytes = m_fmt.dllp_wire_bytes();
  const TlpReservation r = book(start_at(now_ps), m_fmt.serialise_ps(bytes));
  m_cnt.dllps++;
  m_cnt.dllp_bytes += bytes;
  return r;
}

void PcieDirection::count_credit_stall(uint64_t wait_ps) {
  m_cnt.credit_stalls++;
  m_cnt.credit_stall_ps += wait_ps;
}

PcieDirCounters PcieDirection::counters(uint64_t at_ps) const {
  PcieDirCounters c = m_cnt;
  uint64_t free = m_free_ps;
  /* SKPs that started by at_ps but are not booked yet (no reservation since). */
  for (uint64_t next = m_next_skp_ps; m_skp && next <= at_ps; next += m_fmt.skp_interval_ps()) {
    const uint64_t s = std::max(next, free);
    if (s >= at_ps) break;
    free = s + m_fmt.skp_ps();
    c.busy_ps += m_fmt.skp_ps();
    c.skps++;
    c.skp_bytes += m_fmt.skp_wire_bytes();
  }
  /* Reservations happen at the current time, so whatever is booked beyond
   * at_ps is one back-to-back run [at_ps, free): take it off. */
  if (free > at_ps) c.busy_ps -= std::min(c.busy_ps, free - at_ps);
  return c;
}

}  // namespace nicsim
