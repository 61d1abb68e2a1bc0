// pcie_link.cpp: TLP splitting, FIFO serialisation per direction, posted-write
// delivery and the read round trips of device DMA and CPU MMIO.
#include "pcie/pcie_link.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace nicsim {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

namespace {

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
sc_time ps(uint64_t v) { return sc_time::from_value(v); }

}  // namespace

PcieLink::PcieLink(sc_core::sc_module_name name, const PcieParams &p)
    : sc_module(name),
      dev("dev"),
      mem("mem"),
      host("host"),
      regs("regs"),
      m_fmt(p),
      m_up(m_fmt, p.latency_ps),
      m_down(m_fmt, p.latency_ps),
      m_up_q(std::max<uint32_t>(p.mps, 8)),
      m_down_q(8),
      m_rd_latency_ps(p.rd_latency_ps),
      m_mem_ext(new TlpExt) {
  if (sc_core::sc_get_time_resolution() != sc_time(1, sc_core::SC_PS))
    throw std::logic_error("PcieLink needs sc_set_time_resolution(1, SC_PS)");
  dev.register_b_transport(this, &PcieLink::b_transport_dev);
  host.register_b_transport(this, &PcieLink::b_transport_host);
  m_mem_gp.set_extension(m_mem_ext);
  m_reg_gp.set_data_ptr(m_reg_buf);

  SC_HAS_PROCESS(PcieLink);
  SC_METHOD(deliver_up);
  sensitive << m_up_event;
  dont_initialize();
  SC_THREAD(deliver_down_thread);
}

PcieLink::~PcieLink() = default;

PcieDirCounters PcieLink::up_counters() const { return m_up.counters(now_ps()); }
PcieDirCounters PcieLink::down_counters() const { return m_down.counters(now_ps()); }

void PcieLink::violation(const std::string &msg) {
  if (on_violation) on_violation(name(), msg);
}

void PcieLink::wait_until(uint64_t t_ps) {
  const uint64_t now = now_ps();
  if (t_ps > now) wait(ps(t_ps - now));
}

void PcieLink::b_transport_dev(tlm_generic_payload &p, sc_time &d) {
  if (d != sc_core::SC_ZERO_TIME) {
    wait(d);
    d = sc_core::SC_ZERO_TIME;
  }
  TlpExt *ext = nullptr;
  p.get_extension(ext);
  const DmaPurpose purpose = ext ? ext->purpose : DmaPurpose::Other;
  if (p.get_data_length() == 0 || p.get_data_ptr() == nullptr) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "device DMA of zero length (or no data buffer) at address 0x%" PRIx64,
                  static_cast<uint64_t>(p.get_address()));
    violation(msg);
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  if (p.is_write())
    device_write(p, purpose);
  else if (p.is_read())
    device_read(p, purpose);
  else
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PcieLink::device_write(tlm_generic_payload &p, DmaPurpose purpose) {
  const uint64_t now = now_ps();
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  const uint8_t *data = p.get_data_ptr();
  uint64_t last_end = now;
  for (uint64_t off = 0; off < len;) {
    const uint32_t n = m_fmt.write_chunk(addr + off, len - off);
    const TlpReservation r = m_up.reserve(now, m_fmt.wire_bytes(TlpKind::MemWrite, addr + off, n), n, purpose);
    const bool was_empty = m_up_q.empty();
    m_up_q.push(r.arrival_ps, addr + off, data + off, n, purpose);
    if (was_empty) m_up_event.notify(ps(r.arrival_ps - now));
    last_end = r.end_ps;
    off += n;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  /* Posted: the device is done once its TLPs have left it. */
  wait_until(last_end);
}

void PcieLink::device_read(tlm_generic_payload &p, DmaPurpose purpose) {
  const uint64_t now = now_ps();
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  uint8_t *data = p.get_data_ptr();

  /* The device sends all MRds of the transfer back to back. */
  std::vector<uint64_t> arrivals;
  if (!m_scratch.empty()) {
    arrivals.swap(m_scratch.back());
    m_scratch.pop_back();
  }
  arrivals.clear();
  for (uint64_t off = 0; off < len;) {
    const uint32_t n = m_fmt.read_chunk(addr + off, len - off);
    const TlpReservation r = m_up.reserve(now, m_fmt.wire_bytes(TlpKind::MemRead, addr + off, 0), 0, purpose);
    arrivals.push_back(r.arrival_ps);
    off += n;
  }

  /* The root complex answers each MRd rd_latency after it arrived, reading
   * memory then; its completions queue behind whatever the host has already
   * sent downstream (they never pass earlier posted writes). */
  bool ok = true;
  uint64_t last_arrival = now;
  size_t i = 0;
  for (uint64_t off = 0; off < len; i++) {
    const uint32_t n = m_fmt.read_chunk(addr + off, len - off);
    wait_until(arrivals[i] + m_rd_latency_ps);
    ok = mem_access(tlm::TLM_READ_COMMAND, addr + off, data + off, n, purpose) && ok;
    for (uint32_t c = 0; c < n;) {
      const uint32_t cn = m_fmt.completion_chunk(addr + off + c, n - c);
      const TlpReservation r =
          m_down.reserve(now_ps(), m_fmt.wire_bytes(TlpKind::Completion, addr + off + c, cn), cn, purpose);
      last_arrival = r.arrival_ps;
      c += cn;
    }
    off += n;
  }
  m_scratch.emplace_back();
  m_scratch.back().swap(arrivals);
  p.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  /* A read is done when its last completion byte has arrived at the device. */
  wait_until(last_arrival);
}

bool PcieLink::mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len,
                          DmaPurpose purpose) {
  m_mem_gp.set_command(cmd);
  m_mem_gp.set_address(addr);
  m_mem_gp.set_data_ptr(data);
  m_mem_gp.set_data_length(len);
  m_mem_gp.set_streaming_width(len);
  m_mem_gp.set_byte_enable_ptr(nullptr);
  m_mem_gp.set_dmi_allowed(false);
  m_mem_gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  m_mem_ext->purpose = purpose;
  sc_time zero = sc_core::SC_ZERO_TIME;
  mem->b_transport(m_mem_gp, zero);
  return m_mem_gp.is_response_ok();
}

void PcieLink::deliver_up() {
  const uint64_t now = now_ps();
  while (!m_up_q.empty() && m_up_q.front().arrival_ps <= now) {
    const PostedWrite &w = m_up_q.front();
    mem_access(tlm::TLM_WRITE_COMMAND, w.addr, w.data, w.len, w.purpose);
    m_up_q.pop();
  }
  if (!m_up_q.empty()) next_trigger(ps(m_up_q.front().arrival_ps - now));
}

void PcieLink::deliver_down_thread() {
  for (;;) {
    if (m_down_q.empty()) {
      wait(m_down_event);
      continue;
    }
    const uint64_t now = now_ps();
    if (m_down_q.front().arrival_ps > now) {
      wait(ps(m_down_q.front().arrival_ps - now));
      continue;
    }
    /* Copy out first: the device may take time, and the queue may grow meanwhile. */
    const PostedWrite &w = m_down_q.front();
    const uint64_t off = w.addr;
    const uint32_t len = w.len;
    std::memcpy(m_reg_buf, w.data, len);
    m_down_q.pop();
    m_reg_gp.set_command(tlm::TLM_WRITE_COMMAND);
    m_reg_gp.set_address(off);
    m_reg_gp.set_data_ptr(m_reg_buf);
    m_reg_gp.set_data_length(len);
    m_reg_gp.set_streaming_width(len);
    m_reg_gp.set_byte_enable_ptr(nullptr);
    m_reg_gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time d = sc_core::SC_ZERO_TIME;
    regs->b_transport(m_reg_gp, d);
    if (!m_reg_gp.is_response_ok()) {
      char msg[200];
      std::snprintf(msg, sizeof msg, "MMIO write to BAR0 offset 0x%" PRIx64 " rejected by the device: %s", off,
                    m_reg_gp.get_response_string().c_str());
      violation(msg);
    }
    if (d != sc_core::SC_ZERO_TIME) wait(d);
  }
}

void PcieLink::b_transport_host(tlm_generic_payload &p, sc_time &d) {
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
  if (p.is_write()) {
    /* Posted: queued behind earlier downstream TLPs, applied on arrival; the CPU goes on. */
    const TlpReservation r = m_down.reserve(now, m_fmt.bar_wire_bytes(TlpKind::MemWrite, len), len, DmaPurpose::Mmio);
    const bool was_empty = m_down_q.empty();
    m_down_q.push(r.arrival_ps, p.get_address(), p.get_data_ptr(), len, DmaPurpose::Mmio);
    if (was_empty) m_down_event.notify(ps(r.arrival_ps - now));
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!p.is_read()) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  /* Non-posted: MRd down, the device answers, CplD up; the CPU waits throughout. */
  const TlpReservation rq = m_down.reserve(now, m_fmt.bar_wire_bytes(TlpKind::MemRead, 0), 0, DmaPurpose::Mmio);
  wait_until(rq.arrival_ps);
  sc_time rd = sc_core::SC_ZERO_TIME;
  regs->b_transport(p, rd);
  if (rd != sc_core::SC_ZERO_TIME) wait(rd);
  const TlpReservation rc =
      m_up.reserve(now_ps(), m_fmt.bar_wire_bytes(TlpKind::Completion, len), len, DmaPurpose::Mmio);
  wait_until(rc.arrival_ps);
}

}  // namespace nicsim
