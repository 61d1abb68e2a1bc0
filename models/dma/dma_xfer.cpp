/* dma_xfer.cpp: DMA transfers on clock edges, blocking and (posted writes
 * over a PcieLink) non-blocking (see dma_xfer.h). */
#include "dma/dma_xfer.h"

#include <cstdio>

#include "common/ps_time.h"
#include "common/trace.h"

namespace nicsim {

DmaXfer::DmaXfer(tlm::tlm_initiator_socket<> &socket, const NicClock &clock, ErrorFn on_error)
    : m_socket(socket), m_clock(clock), m_on_error(std::move(on_error)), m_ext(new TlpExt) {
  m_gp.set_extension(m_ext);
}

bool DmaXfer::read(uint64_t addr, uint8_t *dst, uint32_t len, DmaPurpose purpose, uint16_t queue,
                   uint64_t start_ps, bool relaxed_ordering) {
  return run(tlm::TLM_READ_COMMAND, addr, dst, len, purpose, queue, start_ps, relaxed_ordering);
}

bool DmaXfer::write(uint64_t addr, const uint8_t *src, uint32_t len, DmaPurpose purpose,
                    uint16_t queue, uint64_t start_ps, bool relaxed_ordering) {
  /* A WRITE target reads the buffer only; the payload API is not const. */
  return run(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t *>(src), len, purpose, queue,
             start_ps, relaxed_ordering);
}

uint64_t DmaXfer::prepare(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len,
                          DmaPurpose purpose, uint16_t queue, uint64_t start_ps, bool relaxed_ordering,
                          uint64_t now) {
  uint64_t start = m_clock.after_cycles(start_ps > now ? start_ps : now, 0);
  if (m_issue_next) {
    /* The engine issues at most one request per m_issue_ps. */
    if (*m_issue_next > start) start = m_clock.after_cycles(*m_issue_next, 0);
    *m_issue_next = start + m_issue_ps;
  }
  tlm_prepare(m_gp, cmd, addr, data, len);
  m_ext->purpose = purpose;
  m_ext->queue = queue;
  m_ext->relaxed_ordering = relaxed_ordering;
  return start;
}

bool DmaXfer::finish(uint64_t start, uint64_t end) {
  if (m_trace)
    m_trace->complete(m_trace_tid, dma_purpose_name(m_ext->purpose), start, end, m_gp.get_address(),
                      m_gp.get_data_length());
  if (m_gp.is_response_ok()) return true;
  char msg[160];
  std::snprintf(msg, sizeof msg, "DMA %s of %u bytes at 0x%llx failed: %s",
                m_gp.is_read() ? "read" : "write", m_gp.get_data_length(),
                static_cast<unsigned long long>(m_gp.get_address()), m_gp.get_response_string().c_str());
  if (m_on_error) m_on_error(msg);
  return false;
}

bool DmaXfer::run(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len,
                  DmaPurpose purpose, uint16_t queue, uint64_t start_ps, bool relaxed_ordering) {
  const uint64_t start = prepare(cmd, addr, data, len, purpose, queue, start_ps, relaxed_ordering, now_ps());
  sc_core::sc_time delay = ps_time(start - now_ps());
  if (m_arb) {
    /* At the start edge, in the arbiter's order (the target then sees no delay). */
    m_arb->wait_turn(start, m_arb_key, m_turn);
    delay = sc_core::SC_ZERO_TIME;
  }
  m_socket->b_transport(m_gp, delay);
  if (delay != sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  return finish(start, now_ps());
}

void DmaXfer::write_nb_begin(uint64_t addr, const uint8_t *src, uint32_t len, DmaPurpose purpose,
                             uint16_t queue, uint64_t start_ps, bool relaxed_ordering) {
  m_nb_start = prepare(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t *>(src), len, purpose, queue, start_ps,
                       relaxed_ordering, now_ps());
  m_nb_w = PcieLink::NbWrite();
  m_nb_phase = NbPhase::Start;
}

/* The thread path's waits, each a next_trigger: b_transport_dev's start wait,
 * up_enter's ordering-line and credit waits, device_write's wait for the last
 * TLP to leave. The start wait is skipped when the kernel has nothing else
 * to run up to the start edge (QuietBound): the write then enters the link
 * now as it would at that edge (`at`); so is the end wait when the caller
 * allows it (may_end_early): the write then ends now as at its end (`done`)
 * (docs/nic.md, "Lookahead"). Delays for the kernel are from its own time,
 * the rest from the time the caller acts at (LogicalNow). */
DmaXfer::NbResult DmaXfer::write_nb_step(bool may_end_early, QuietBound *quiet) {
  QuietBound own;
  QuietBound &q = quiet ? *quiet : own;
  const uint64_t now = now_ps();    /* the time the caller acts at (LogicalNow) */
  const uint64_t kn = kernel_now_ps(); /* delays for the kernel are from its time */
  uint64_t at = now;   /* the time the link sees the write at */
  uint64_t done = now; /* the time it ends at */
  switch (m_nb_phase) {
    case NbPhase::Idle: return NbResult::Failed; /* no write started: a caller's bug */
    case NbPhase::Start:
      m_nb_phase = NbPhase::Link;
      if (m_nb_start > now) {
        /* A write that would fail (no data) fails at its edge, not early. */
        if (m_gp.get_data_length() == 0 || m_gp.get_data_ptr() == nullptr || !q.through(m_nb_start)) {
          sc_core::next_trigger(ps_time(m_nb_start - kn));
          return NbResult::Pending;
        }
        m_nb_lookaheads++;
        at = m_nb_start;
      }
      /* fall through */
    case NbPhase::Link:
      switch (m_nb_link->device_write_nb(m_gp, m_nb_w, at)) {
        case PcieLink::NbStatus::RetryAt:
          m_nb_credit_waits++;
          sc_core::next_trigger(ps_time(m_nb_w.retry_ps - kn));
          return NbResult::Pending;
        case PcieLink::NbStatus::WaitEvent:
          m_nb_line_waits++;
          sc_core::next_trigger(*m_nb_w.ev);
          return NbResult::Pending;
        case PcieLink::NbStatus::Error:
          m_nb_phase = NbPhase::Idle;
          m_nb_done_ps = now;
          return finish(m_nb_start, now) ? NbResult::Ok : NbResult::Failed;
        case PcieLink::NbStatus::Done: break;
      }
      /* Over a link that applies posted writes when observed, a write that
       * entered at once wakes nothing: no commit event, nobody behind it in
       * the ordering line (it would have waited for them). Else it may have
       * scheduled its commit: ask the kernel again. */
      if (!m_nb_link->lazy_writes()) q.reset();
      m_nb_phase = NbPhase::End;
      if (m_nb_w.end_ps > now) {
        if (!may_end_early || !q.through(m_nb_w.end_ps)) {
          sc_core::next_trigger(ps_time(m_nb_w.end_ps - kn));
          return NbResult::Pending;
        }
        m_nb_lookaheads++;
        done = m_nb_w.end_ps; /* ends now, as at its end */
      }
      /* fall through */
    case NbPhase::End: break;
  }
  m_nb_link->device_write_nb_done(m_gp);
  m_nb_phase = NbPhase::Idle;
  m_nb_done_ps = done;
  return finish(m_nb_start, m_nb_done_ps) ? NbResult::Ok : NbResult::Failed;
}

}  // namespace nicsim
