/* dma_xfer.h: one reusable DMA transfer context (payload plus TLP
 * extension) of a DMA-engine process, issuing blocking transactions on the
 * engine's initiator socket at NIC clock edges. */
#ifndef NICSIM_MODELS_DMA_DMA_XFER_H
#define NICSIM_MODELS_DMA_DMA_XFER_H

#include <cstdint>
#include <functional>
#include <string>
#include <tlm>

#include "common/tlp.h"
#include "dma/dma_arbiter.h"
#include "common/lookahead.h"
#include "dma/nic_clock.h"
#include "pcie/pcie_link.h"

namespace nicsim {

class TraceWriter;

/* Each SC_THREAD that issues DMA owns one DmaXfer, so no payload is shared
 * or allocated per transfer. read() and write() only from an SC_THREAD; the
 * write_nb_* pair from an SC_METHOD, over a PcieLink (set_nb_link). */
class DmaXfer {
 public:
  /* Called with a message when a transfer gets an error response. */
  using ErrorFn = std::function<void(const std::string &)>;

  /* socket: the engine's initiator socket; clock: transfers start on its
   * edges; on_error: reports failed transfers. */
  DmaXfer(tlm::tlm_initiator_socket<> &socket, const NicClock &clock, ErrorFn on_error);
  DmaXfer(const DmaXfer &) = delete;
  DmaXfer &operator=(const DmaXfer &) = delete;

  /* Reads len bytes at bus address addr into dst; returns when the data is
   * back (tlp.h READ semantics). The request starts at the first clock edge
   * at or after max(now, start_ps), passed to the target as the b_transport
   * delay (tlp.h: a start offset), which saves a wait here. False on an
   * error response. relaxed_ordering: the TLPs carry the RO attribute. */
  bool read(uint64_t addr, uint8_t *dst, uint32_t len, DmaPurpose purpose, uint16_t queue,
            uint64_t start_ps = 0, bool relaxed_ordering = false);
  /* Posted write of len bytes from src to addr; returns when the request
   * has left the device. Start time, RO and result as for read(). */
  bool write(uint64_t addr, const uint8_t *src, uint32_t len, DmaPurpose purpose, uint16_t queue,
             uint64_t start_ps = 0, bool relaxed_ordering = false);
  /* Outcome of a write_nb_step. */
  enum class NbResult { Pending, Ok, Failed };
  /* The link whose device_write_nb the write_nb_* calls use (nullptr: none). */
  void set_nb_link(PcieLink *link) { m_nb_link = link; }
  /* Starts a posted write as write() would (same arguments, start time and
   * RO), for an SC_METHOD: call write_nb_step() now and on each activation
   * after a Pending (which has set the method's next_trigger: the start
   * edge, a credit or ordering-line wait, the last TLP leaving) until it
   * returns Ok or Failed (as write()'s true / false, at the same times). */
  void write_nb_begin(uint64_t addr, const uint8_t *src, uint32_t len, DmaPurpose purpose, uint16_t queue,
                      uint64_t start_ps = 0, bool relaxed_ordering = false);
  /* Advances the write started by write_nb_begin (see there). may_end_early:
   * when only the last TLP's leaving is left to wait for and the kernel has
   * nothing due up to then (kernel_quiet_through), the write ends now, as at
   * that time (Ok or Failed, nb_done_ps() that time): for a caller whose next
   * steps, at that time, read only what nothing else can change before it.
   * quiet: the caller's kernel answer for this activation (nullptr: ask). */
  NbResult write_nb_step(bool may_end_early = false, QuietBound *quiet = nullptr);
  /* The time the write last ended at (Ok or Failed): now, or its end if it ended early. */
  uint64_t nb_done_ps() const { return m_nb_done_ps; }
  /* write_nb_step's waits so far: in the link's ordering line, for credits. */
  uint64_t nb_line_waits() const { return m_nb_line_waits; }
  uint64_t nb_credit_waits() const { return m_nb_credit_waits; }
  /* Waits skipped by lookahead (common/lookahead.h): start edges
   * and ends (write_nb_step). */
  uint64_t nb_lookaheads() const { return m_nb_lookaheads; }
  /* read() and write() start through arbiter a with key (dma_arb_key): among
   * requests of the same edge they go in key order (nullptr: none, each at
   * its edge in the kernel's order). */
  /* Issue-rate limit shared by the engine's requesters: each request starts
   * no earlier than *next, which then moves interval_ps past its start. */
  void set_issue_gate(uint64_t *next, uint64_t interval_ps) {
    m_issue_next = next;
    m_issue_ps = interval_ps;
  }
  void set_arbiter(DmaArbiter *a, uint64_t key) {
    m_arb = a;
    m_arb_key = key;
  }
  /* Sets the key's sequence part (the TX job number) for the next request. */
  void set_arb_seq(uint32_t seq) { m_arb_key = (m_arb_key & ~uint64_t{0xFFFFFFFF}) | seq; }
  /* Records every transfer as a span on track tid of t (nullptr: none). */
  void set_trace(TraceWriter *t, uint32_t tid) {
    m_trace = t;
    m_trace_tid = tid;
  }

 private:
  bool run(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len, DmaPurpose purpose,
           uint16_t queue, uint64_t start_ps, bool relaxed_ordering);
  /* Prepares m_gp and returns the start time: the first edge at or after max(now, start_ps). */
  uint64_t prepare(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len, DmaPurpose purpose,
                   uint16_t queue, uint64_t start_ps, bool relaxed_ordering, uint64_t now);
  /* Traces the transfer that started at start and ended at end, and reports its error, if any; its result. */
  bool finish(uint64_t start, uint64_t end);

  tlm::tlm_initiator_socket<> &m_socket;
  const NicClock &m_clock;
  ErrorFn m_on_error;
  tlm::tlm_generic_payload m_gp;
  TlpExt *m_ext; /* owned by m_gp */
  TraceWriter *m_trace = nullptr;
  uint32_t m_trace_tid = 0;
  DmaArbiter *m_arb = nullptr;
  uint64_t *m_issue_next = nullptr; /* shared issue-rate limit: next request starts no earlier, ps */
  uint64_t m_issue_ps = 0;          /* least time between two request starts, ps */
  uint64_t m_arb_key = 0;
  sc_core::sc_event m_turn; /* the arbiter's release of this requester */
  /* write_nb_*: the link, the phase of the write in progress, its start, the link's state of it */
  enum class NbPhase { Idle, Start, Link, End };
  PcieLink *m_nb_link = nullptr;
  NbPhase m_nb_phase = NbPhase::Idle;
  uint64_t m_nb_start = 0;
  PcieLink::NbWrite m_nb_w;
  uint64_t m_nb_line_waits = 0;
  uint64_t m_nb_credit_waits = 0;
  uint64_t m_nb_lookaheads = 0;
  uint64_t m_nb_done_ps = 0;
};

}  // namespace nicsim
#endif
