// pcie_direction.cpp: FIFO serialisation of TLPs, DLLPs and SKP ordered sets on one link direction.
#include "pcie/pcie_direction.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/trace.h"

namespace nicsim {

PcieDirection::PcieDirection(const TlpFormat &fmt, uint64_t latency_ps)
    : m_fmt(fmt), m_latency_ps(latency_ps), m_skp(fmt.params().skp), m_dllps(16) {
  m_w.next_skp_ps = fmt.skp_interval_ps();
}

uint64_t PcieDirection::start_at(Wire &w, uint64_t now_ps) const {
  uint64_t start = std::max(now_ps, w.free_ps);
  /* An SKP ordered set is due every interval (start to start); it cannot cut
   * into a TLP, so one due while the wire is busy goes right after the item
   * in progress (here: after everything booked so far), delaying what follows. */
  while (m_skp && w.next_skp_ps <= start) {
    const uint64_t s = std::max(w.next_skp_ps, w.free_ps);
    w.free_ps = s + m_fmt.skp_ps();
    w.cnt.busy_ps += m_fmt.skp_ps();
    w.cnt.skps++;
    w.cnt.skp_bytes += m_fmt.skp_wire_bytes();
    w.next_skp_ps += m_fmt.skp_interval_ps();
    start = std::max(now_ps, w.free_ps);
  }
  return start;
}

TlpReservation PcieDirection::book(Wire &w, uint64_t start_ps, uint64_t ser_ps) const {
  TlpReservation r;
  r.start_ps = start_ps;
  r.end_ps = start_ps + ser_ps;
  r.arrival_ps = r.end_ps + m_latency_ps;
  w.free_ps = r.end_ps;
  w.cnt.busy_ps += ser_ps;
  return r;
}

TlpReservation PcieDirection::book_dllp(Wire &w, uint64_t now_ps) const {
  const uint32_t bytes = m_fmt.dllp_wire_bytes();
  const TlpReservation r = book(w, start_at(w, now_ps), m_fmt.serialise_ps(bytes));
  w.cnt.dllps++;
  w.cnt.dllp_bytes += bytes;
  return r;
}

void PcieDirection::send_due_dllps(uint64_t now_ps) {
  /* Each at its own send time, as if a process had woken up then: nothing
   * else used this direction in between (that would have booked it). A DLLP
   * due at now_ps goes before the item being reserved now. */
  while (!m_dllps.empty() && m_dllps.front().at_ps <= now_ps) {
    const TlpReservation r = book_dllp(m_w, m_dllps.front().at_ps);
    if (m_trace) m_trace->dllp(m_trace_tid, m_dllps.front().kind, r.start_ps, r.end_ps);
    m_dllps.pop();
  }
}

PcieDirection::Wire PcieDirection::wire_at(uint64_t at_ps) const {
  Wire w = m_w;
  for (size_t i = 0; i < m_dllps.size() && m_dllps.at(i).at_ps <= at_ps; i++) book_dllp(w, m_dllps.at(i).at_ps);
  return w;
}

TlpReservation PcieDirection::reserve(uint64_t now_ps, uint32_t wire_bytes, uint32_t payload_bytes,
                                      DmaPurpose purpose) {
  send_due_dllps(now_ps);
  m_last_ps = now_ps;
  const uint64_t ser = m_fmt.serialise_ps(wire_bytes);
  const TlpReservation r = book(m_w, start_at(m_w, now_ps), ser);
  const size_t pi = static_cast<size_t>(purpose);
  m_w.cnt.tlps++;
  m_w.cnt.wire_bytes += wire_bytes;
  m_w.cnt.payload_bytes += payload_bytes;
  m_w.cnt.overhead_bytes += wire_bytes - payload_bytes;
  m_w.cnt.purpose_tlps[pi]++;
  m_w.cnt.purpose_wire_bytes[pi] += wire_bytes;
  return r;
}

TlpReservation PcieDirection::reserve_dllp(uint64_t now_ps) {
  send_due_dllps(now_ps);
  m_last_ps = now_ps;
  const TlpReservation r = book_dllp(m_w, now_ps);
  if (m_trace) m_trace->dllp(m_trace_tid, "DLLP", r.start_ps, r.end_ps);
  return r;
}

void PcieDirection::queue_dllp(uint64_t due_ps, const char *kind) {
  /* Booked later at due_ps: it must not go before what is booked already. */
  if (due_ps < m_last_ps)
    throw std::logic_error("PcieDirection: DLLP queued for " + std::to_string(due_ps) +
                           " ps, before the last reservation at " + std::to_string(m_last_ps) + " ps");
  QueuedDllp t;
  t.at_ps = due_ps;
  t.kind = kind;
  m_dllps.insert(t);
}

void PcieDirection::count_credit_stall(uint64_t wait_ps) {
  m_w.cnt.credit_stalls++;
  m_w.cnt.credit_stall_ps += wait_ps;
}

uint64_t PcieDirection::free_ps(uint64_t at_ps) const { return wire_at(at_ps).free_ps; }

PcieDirCounters PcieDirection::counters(uint64_t at_ps) const {
  const Wire w = wire_at(at_ps);
  PcieDirCounters c = w.cnt;
  uint64_t free = w.free_ps;
  /* SKPs that started by at_ps but are not booked yet (no reservation since). */
  for (uint64_t next = w.next_skp_ps; m_skp && next <= at_ps; next += m_fmt.skp_interval_ps()) {
    const uint64_t s = std::max(next, free);
    if (s >= at_ps) break;
    free = s + m_fmt.skp_ps();
    c.busy_ps += m_fmt.skp_ps();
    c.skps++;
    c.skp_bytes += m_fmt.skp_wire_bytes();
  }
  /* Everything was booked at a time up to at_ps (reservations at the current
   * time, DLLPs at their send time), so whatever is booked beyond at_ps is
   * one back-to-back run [at_ps, free): take it off. */
  if (free > at_ps) c.busy_ps -= std::min(c.busy_ps, free - at_ps);
  return c;
}

}  // namespace nicsim
