/* dma_xfer.cpp: blocking DMA transfers on clock edges (see dma_xfer.h). */
#include "dma/dma_xfer.h"

#include <cstdio>

#include "nic/ps_time.h"
#include "nic/trace.h"

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

bool DmaXfer::run(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len,
                  DmaPurpose purpose, uint16_t queue, uint64_t start_ps, bool relaxed_ordering) {
  uint64_t now = now_ps();
  uint64_t start = m_clock.after_cycles(start_ps > now ? start_ps : now, 0);
  tlm_prepare(m_gp, cmd, addr, data, len);
  m_ext->purpose = purpose;
  m_ext->queue = queue;
  m_ext->relaxed_ordering = relaxed_ordering;
  sc_core::sc_time delay = ps_time(start - now);
  m_socket->b_transport(m_gp, delay);
  if (delay != sc_core::SC_ZERO_TIME) sc_core::wait(delay);
  if (m_trace) m_trace->complete(m_trace_tid, TraceWriter::purpose_name(purpose), start, now_ps(), addr, len);
  if (m_gp.is_response_ok()) return true;
  char msg[160];
  std::snprintf(msg, sizeof msg, "DMA %s of %u bytes at 0x%llx failed: %s",
                cmd == tlm::TLM_READ_COMMAND ? "read" : "write", len,
                static_cast<unsigned long long>(addr), m_gp.get_response_string().c_str());
  if (m_on_error) m_on_error(msg);
  return false;
}

}  // namespace nicsim
