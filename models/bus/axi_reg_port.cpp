// axi_reg_port.cpp: CPU register reads and posted writes to an SoC NIC over the on-chip bus.
#include "bus/axi_reg_port.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace nicsim {

namespace {
uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }
}  // namespace

AxiRegPort::AxiRegPort(sc_core::sc_module_name name, const AxiParams &p)
    : sc_module(name), host("host"), regs("regs"), m_p(p), m_writes(sizeof m_reg_buf) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::logic_error("AxiRegPort needs sc_set_time_resolution(1, SC_PS)");
  if (p.width_bytes == 0 || (p.width_bytes & (p.width_bytes - 1)) || p.cycle_ps == 0)
    throw std::invalid_argument("bus: width must be a power of two and the clock positive");
  host.register_b_transport(this, &AxiRegPort::b_transport_host);
  SC_HAS_PROCESS(AxiRegPort);
  SC_METHOD(deliver);
  sensitive << m_write_event;
  dont_initialize();
}

uint32_t AxiRegPort::beats(uint64_t addr, uint32_t n) const {
  const uint64_t first = addr / m_p.width_bytes;
  const uint64_t last = (addr + n - 1) / m_p.width_bytes;
  return static_cast<uint32_t>(last - first + 1);
}

void AxiRegPort::wait_until(uint64_t t_ps) {
  const uint64_t now = now_ps();
  if (t_ps > now) wait(ps(t_ps - now));
}

void AxiRegPort::apply_due() {
  const uint64_t now = now_ps();
  while (!m_writes.empty() && m_writes.front().arrival_ps <= now) {
    /* Copy out first: the queue's slot is reused once popped. */
    const PostedWrite &w = m_writes.front();
    const uint64_t off = w.addr;
    const uint32_t len = w.len;
    std::memcpy(m_reg_buf, w.data, len);
    m_writes.pop();
    tlm_prepare(m_reg_gp, tlm::TLM_WRITE_COMMAND, off, m_reg_buf, len);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME; /* a register write takes effect at once */
    regs->b_transport(m_reg_gp, d);
    if (!m_reg_gp.is_response_ok()) {
      char msg[200];
      std::snprintf(msg, sizeof msg, "MMIO write to register offset 0x%" PRIx64 " rejected by the device: %s", off,
                    m_reg_gp.get_response_string().c_str());
      if (on_violation) on_violation(name(), msg);
    }
  }
  if (!m_writes.empty()) m_write_event.notify(ps(m_writes.front().arrival_ps - now));
}

void AxiRegPort::deliver() { apply_due(); }

void AxiRegPort::b_transport_host(tlm::tlm_generic_payload &p, sc_core::sc_time &d) {
  if (d != sc_core::SC_ZERO_TIME) {
    wait(d);
    d = sc_core::SC_ZERO_TIME;
  }
  const uint32_t len = p.get_data_length();
  if (len == 0 || len > sizeof m_reg_buf || p.get_data_ptr() == nullptr) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const uint64_t now = now_ps();
  const uint64_t addr = p.get_address();
  if (p.is_write()) {
    /* Posted: its beats on the write-data channel behind earlier writes, the
     * register written wr_latency after the last beat; the CPU goes on. */
    const uint64_t start = std::max(now, m_w_free_ps);
    m_w_free_ps = start + static_cast<uint64_t>(beats(addr, len)) * m_p.cycle_ps;
    m_last_arrival_ps = m_w_free_ps + m_p.wr_latency_ps;
    const bool was_empty = m_writes.empty();
    m_writes.push(m_last_arrival_ps, addr, p.get_data_ptr(), len, DmaPurpose::Mmio);
    if (was_empty) m_write_event.notify(ps(m_last_arrival_ps - now));
    m_cnt.writes++;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!p.is_read()) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  /* One read-address cycle, then rd_latency to the register slave, but not
   * before the earlier writes to the same device have arrived. */
  const uint64_t ar = std::max(now, m_ar_free_ps);
  m_ar_free_ps = ar + m_p.cycle_ps;
  wait_until(std::max(m_ar_free_ps + m_p.rd_latency_ps, m_last_arrival_ps));
  apply_due(); /* a write arriving now goes first, whichever process runs first */
  sc_core::sc_time rd = sc_core::SC_ZERO_TIME;
  regs->b_transport(p, rd); /* the device waits its own register read time (nic.reg_read_ns) */
  if (rd != sc_core::SC_ZERO_TIME) wait(rd);
  /* The data beats back to the CPU. */
  wait(ps(static_cast<uint64_t>(beats(addr, len)) * m_p.cycle_ps));
  m_cnt.reads++;
  m_cnt.read_stall_ps += now_ps() - now;
}

}  // namespace nicsim
