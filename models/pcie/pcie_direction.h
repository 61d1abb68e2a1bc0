/*
 * pcie_direction.h: one direction of a PCIe link as a FIFO server: TLPs and
 * DLLPs are serialised one after another at the link's byte rate and arrive at
 * the far side a fixed latency after their last byte left; SKP ordered sets
 * take their share of the wire at the spec's interval. Keeps the counters.
 *
 * Reservations are made only at the current simulated time (now_ps), so the
 * busy intervals after any instant are one contiguous run up to the free time.
 * DLLPs are queued ahead with their send time and booked lazily, like SKPs:
 * each one due by a reservation's time (or a counters() / free_ps() read) is
 * booked first, at its own send time, so no process has to wake up for it.
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_DIRECTION_H
#define NICSIM_MODELS_PCIE_PCIE_DIRECTION_H

#include <cstdint>

#include "common/tlp.h"
#include "pcie/pcie_counters.h"
#include "pcie/time_ring.h"
#include "pcie/tlp_format.h"

namespace nicsim {

class TraceWriter;

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
   * simulated time), and counts it. DLLPs due by now_ps go first. */
  TlpReservation reserve(uint64_t now_ps, uint32_t wire_bytes, uint32_t payload_bytes,
                         DmaPurpose purpose);
  /* Queues one DLLP (Ack or UpdateFC) at now_ps, ps, and counts it. DLLPs due by now_ps go first. */
  TlpReservation reserve_dllp(uint64_t now_ps);
  /* Schedules one DLLP to be sent at due_ps (ps, not before the current
   * time): it is booked as reserve_dllp(due_ps) would, just before the
   * direction is next used or read at or after due_ps. Throws
   * std::logic_error if due_ps is before the last reservation's time. */
  void queue_dllp(uint64_t due_ps, const char *kind = "DLLP");
  /* Counts one TLP that waited wait_ps (ps) for flow-control credits. */
  void count_credit_stall(uint64_t wait_ps);
  /* Time (ps) at which the serialiser becomes idle, as seen at at_ps (ps,
   * not before the last reservation's time): DLLPs due by then included. */
  uint64_t free_ps(uint64_t at_ps) const;
  /* Counters with busy time counted up to at_ps (ps, not before the last
   * reservation's time); DLLPs and SKPs due by then are included. */
  PcieDirCounters counters(uint64_t at_ps) const;
  /* DLLPs queued and not booked yet. */
  size_t dllps_pending() const { return m_dllps.size(); }
  /* TLP detail: each DLLP booked from now on is a slice on trace track tid
   * (t nullptr: none). The TLPs are traced by the link, which knows them. */
  void set_trace(TraceWriter *t, uint32_t tid) {
    m_trace = t;
    m_trace_tid = tid;
  }

 private:
  /* What the wire has booked: when it is idle, the next SKP's due time, the counters. */
  struct Wire {
    uint64_t free_ps = 0;
    uint64_t next_skp_ps = 0;
    PcieDirCounters cnt;
  };
  /* Starts the next item at or after now_ps on w, sending every SKP due before it first. */
  uint64_t start_at(Wire &w, uint64_t now_ps) const;
  TlpReservation book(Wire &w, uint64_t start_ps, uint64_t ser_ps) const;
  /* Books one DLLP on w at now_ps (ps) and counts it. */
  TlpReservation book_dllp(Wire &w, uint64_t now_ps) const;
  /* Books every queued DLLP due by now_ps (ps), earliest first. */
  void send_due_dllps(uint64_t now_ps);
  /* w with every queued DLLP due by at_ps (ps) booked on it (a copy: nothing changes). */
  Wire wire_at(uint64_t at_ps) const;

  const TlpFormat &m_fmt;
  uint64_t m_latency_ps;
  bool m_skp;
  Wire m_w;
  uint64_t m_last_ps = 0;      /* time of the last reservation, ps */
  /* A DLLP queued: its send time and kind (a static name: "Ack", "UpdateFC-P"...). */
  struct QueuedDllp {
    uint64_t at_ps = 0;
    const char *kind = nullptr;
  };
  TimeRing<QueuedDllp> m_dllps; /* DLLPs queued, not booked yet, by send time */
  TraceWriter *m_trace = nullptr;
  uint32_t m_trace_tid = 0;
};

}  // namespace nicsim
#endif
