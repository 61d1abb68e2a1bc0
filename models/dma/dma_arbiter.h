/* dma_arbiter.h: the DMA engine's arbiter for requests that start at the
 * same clock edge: they enter the bus or link in a fixed order of the NIC's
 * (request class, then queue, then sequence), not in the SystemC kernel's
 * order of the processes that issue them. */
#ifndef NICSIM_MODELS_DMA_DMA_ARBITER_H
#define NICSIM_MODELS_DMA_DMA_ARBITER_H

#include <cstdint>
#include <systemc>
#include <vector>

namespace nicsim {

/* Request classes, in the order the arbiter serves requests that start at
 * the same edge. The RX data path (data writes and their write-backs) comes
 * first; over a PcieLink it is an SC_METHOD and is not arbitrated here:
 * SystemC runs every method of a delta before its threads, so it already
 * enters before any thread's request of the same picosecond. */
enum class DmaClass : uint8_t {
  RxData = 0,      /* RX data writes and RX descriptor write-backs, by queue */
  TxWriteBack = 1, /* TX descriptor (or head) write-backs, by queue */
  TxData = 2,      /* TX data reads, by job (descriptor) order */
  RxFetch = 3,     /* RX descriptor fetches, by queue */
  TxFetch = 4,     /* TX descriptor fetches, by queue */
  Msi = 5,         /* MSI writes, by vector */
};

/* The arbitration key of a requester: class, then index (a queue or a
 * vector), then a per-request sequence (the TX job number). */
inline uint64_t dma_arb_key(DmaClass c, uint32_t index, uint32_t seq = 0) {
  return (static_cast<uint64_t>(c) << 56) | (static_cast<uint64_t>(index & 0xFFFFFF) << 32) | seq;
}

/*
 * A requester (an SC_THREAD) calls wait_turn(start, key, ev) instead of
 * waiting until its start edge itself: the arbiter's method wakes at each
 * start time that has requests and releases them by immediate notification
 * in key order, so they run, and enter the target, in that order. A request
 * for the current time is released one delta later (with any other made in
 * the same delta). No allocation once the pending list has grown to the
 * number of requesters.
 */
class DmaArbiter : public sc_core::sc_module {
 public:
  explicit DmaArbiter(sc_core::sc_module_name name);

  /* From an SC_THREAD: returns at start_ps (ps, not before now), after the
   * requests for that time with a smaller key and before those with a
   * larger one. ev: the caller's own event (one per requester). */
  void wait_turn(uint64_t start_ps, uint64_t key, sc_core::sc_event &ev);
  /* Edges at which more than one request was released (contested edges). */
  uint64_t contested() const { return m_contested; }

 private:
  struct Req {
    uint64_t start_ps;
    uint64_t key;
    sc_core::sc_event *ev;
  };
  void release();

  std::vector<Req> m_pending; /* by (start_ps, key) */
  sc_core::sc_event m_wake;
  uint64_t m_contested = 0;
};

}  // namespace nicsim
#endif
