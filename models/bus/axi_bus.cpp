// axi_bus.cpp: bursts, channel serialisation, latencies and outstanding slots of the AXI-like bus.
#include "bus/axi_bus.h"
#include "bus/axi_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace nicsim {

namespace {
uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }
void notify_at(sc_core::sc_event &ev, uint64_t t_ps) {
  const uint64_t now = now_ps();
  ev.notify(ps(t_ps > now ? t_ps - now : 0));
}
}  // namespace

void AxiParams::bind(ParamBinder &b) {
  b.key("bus.width_bytes", width_bytes);
  b.key("bus.clock_mhz", cycle_ps, Conv::MhzToPs);
  b.key("bus.burst_beats", burst_beats);
  b.key("bus.rd_latency_ns", rd_latency_ps, Conv::NsToPs);
  b.key("bus.wr_latency_ns", wr_latency_ps, Conv::NsToPs);
  b.key("bus.outstanding", outstanding);
}

ParamCheck AxiParams::validate() const {
  if (!pow2(width_bytes))
    return param_error({"bus.width_bytes"}, "use a power of two, e.g. " + nearest_pow2(width_bytes, 1, 128) +
                                                " (docs/bus.md)",
                       "bus.width_bytes = %u is not a power of two", width_bytes);
  return std::nullopt;
}

AxiBus::AxiBus(sc_core::sc_module_name name, const AxiParams &p)
    : sc_module(name),
      dev("dev"),
      mem("mem"),
      m_p(p),
      m_slots_free(p.outstanding),
      m_writes(p.width_bytes * p.burst_beats) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::logic_error("AxiBus needs sc_set_time_resolution(1, SC_PS)");
  if (const ParamCheck e = p.validate()) throw std::invalid_argument(e->msg);
  if (p.burst_beats == 0 || p.cycle_ps == 0 || p.outstanding == 0)
    throw std::invalid_argument("bus: burst, clock and outstanding must be positive");
  dev.register_b_transport(this, &AxiBus::b_transport_dev);
  SC_HAS_PROCESS(AxiBus);
  SC_METHOD(read_data);
  sensitive << m_read_event;
  dont_initialize();
  SC_METHOD(write_data);
  sensitive << m_write_event;
  dont_initialize();
  SC_METHOD(slot_free);
  sensitive << m_release_event;
  dont_initialize();
  SC_METHOD(irq_out);
  sensitive << m_irq_event;
  dont_initialize();
}

AxiCounters AxiBus::counters() const {
  AxiCounters c = m_cnt;
  const uint64_t now = now_ps();
  /* Data-channel bookings are made at the current time: what lies beyond now is one run. */
  if (m_r_free_ps > now) c.rd_busy_ps -= std::min(c.rd_busy_ps, m_r_free_ps - now);
  if (m_w_free_ps > now) c.wr_busy_ps -= std::min(c.wr_busy_ps, m_w_free_ps - now);
  return c;
}

void AxiBus::add_stats(stats::Registry &r, bool device) const {
  r.add(kAxiStats, [this](AxiCounters &s, stats::Edge) { s = counters(); });
  r.add(kDmaPathStats, [this](DmaPathCounters &s, stats::Edge) { s = m_cnt.dma; });
  if (device) r.add(kAxiDeviceStats, [this](AxiCounters &s, stats::Edge) { s = counters(); });
}

uint32_t AxiBus::burst_chunk(uint64_t addr, uint64_t remaining) const {
  /* AMBA AXI: a burst must not cross a 4 KiB boundary; here it also starts a
   * new burst at a burst-size boundary (aligned bursts). */
  const uint64_t max = static_cast<uint64_t>(m_p.width_bytes) * m_p.burst_beats;
  const uint64_t to_4k = 4096 - (addr & 4095);
  const uint64_t to_max = max - (addr % max);
  return static_cast<uint32_t>(std::min({remaining, to_4k, to_max}));
}

uint32_t AxiBus::beats(uint64_t addr, uint32_t n) const {
  const uint64_t first = addr / m_p.width_bytes;
  const uint64_t last = (addr + n - 1) / m_p.width_bytes;
  return static_cast<uint32_t>(last - first + 1);
}

void AxiBus::wait_until(uint64_t t_ps) {
  const uint64_t now = now_ps();
  if (t_ps > now) wait(ps(t_ps - now));
}

void AxiBus::acquire_slot() {
  if (m_slots_free == 0 || m_ticket_next != m_ticket_serving) {
    m_cnt.slot_stalls++;
    const uint64_t my = m_ticket_next++;
    while (m_ticket_serving != my || m_slots_free == 0) wait(m_slot_freed);
    m_ticket_serving++;
    m_slot_freed.notify();
  }
  m_slots_free--;
}

void AxiBus::release_slot(bool read, uint64_t at_ps) {
  TimeStamp t;
  t.at_ps = at_ps;
  m_releases[read ? 1 : 0].push(t);
  notify_at(m_release_event, at_ps);
}

void AxiBus::slot_free() {
  const uint64_t now = now_ps();
  bool freed = false;
  for (TimeRing<TimeStamp> &q : m_releases) {
    while (!q.empty() && q.front().at_ps <= now) {
      q.pop();
      m_slots_free++;
      freed = true;
    }
    if (!q.empty()) notify_at(m_release_event, q.front().at_ps);
  }
  if (freed) m_slot_freed.notify();
}

void AxiBus::b_transport_dev(tlm::tlm_generic_payload &p, sc_core::sc_time &d) {
  if (d != sc_core::SC_ZERO_TIME) {
    wait(d);
    d = sc_core::SC_ZERO_TIME;
  }
  TlpExt *ext = nullptr;
  p.get_extension(ext);
  const DmaPurpose purpose = ext ? ext->purpose : DmaPurpose::Other;
  const TlpAttrs attrs = ext ? ext->attrs() : TlpAttrs();
  if (p.get_data_length() == 0 || p.get_data_ptr() == nullptr) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "device DMA of zero length (or no data buffer) at address 0x%" PRIx64,
                  static_cast<uint64_t>(p.get_address()));
    if (on_violation) on_violation(name(), msg);
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const uint64_t t0 = now_ps();
  if (p.is_write() && purpose == DmaPurpose::Msi && on_irq) {
    irq(p);
    return;
  }
  if (p.is_write()) {
    write(p, purpose, attrs);
  } else if (p.is_read()) {
    read(p, purpose, attrs);
    m_cnt.dma.rd_latency.add(now_ps() - t0);
  } else {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  m_cnt.dma.reqs++;
  m_cnt.dma.bytes += p.get_data_length();
}

void AxiBus::write(tlm::tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs) {
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  const uint8_t *data = p.get_data_ptr();
  uint64_t last_end = now_ps();
  for (uint64_t off = 0; off < len;) {
    const uint32_t n = burst_chunk(addr + off, len - off);
    acquire_slot();
    /* Write data beats go out back to back on the write-data channel, with
     * the address; the response (and the data in memory) follows wr_latency later. */
    const uint64_t start = std::max(now_ps(), m_w_free_ps);
    const uint64_t busy = static_cast<uint64_t>(beats(addr + off, n)) * m_p.cycle_ps;
    m_w_free_ps = start + busy;
    m_cnt.wr_busy_ps += busy;
    m_cnt.wr_bursts++;
    m_cnt.wr_bytes += n;
    m_cnt.purpose_bursts[static_cast<size_t>(purpose)]++;
    m_cnt.purpose_bytes[static_cast<size_t>(purpose)] += n;
    const uint64_t done = m_w_free_ps + m_p.wr_latency_ps;
    m_wr_done_ps = std::max(m_wr_done_ps, done);
    m_writes.push(done, addr + off, data + off, n, purpose, attrs);
    notify_at(m_write_event, done);
    release_slot(false, done);
    last_end = m_w_free_ps;
    off += n;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  wait_until(last_end); /* as a posted PCIe write: done once the data has left the device */
}

void AxiBus::write_data() {
  const uint64_t now = now_ps();
  while (!m_writes.empty() && m_writes.front().arrival_ps <= now) {
    const PostedWrite &w = m_writes.front();
    /* Handed to memory now; complete once the memory's delay has passed. */
    uint64_t mem_delay = 0;
    m_mem(mem, tlm::TLM_WRITE_COMMAND, w.addr, w.data, w.len, w.purpose, w.attrs, 0, &mem_delay);
    m_wr_mem_done_ps = std::max(m_wr_mem_done_ps, now + mem_delay);
    m_wr_done_ps = std::max(m_wr_done_ps, m_wr_mem_done_ps);
    m_writes.pop();
  }
  if (!m_writes.empty()) notify_at(m_write_event, m_writes.front().arrival_ps);
}

uint64_t AxiBus::quiet_until_ps() const {
  uint64_t q = now_ps() + m_p.cycle_ps + std::min(m_p.wr_latency_ps, m_p.rd_latency_ps);
  if (!m_writes.empty()) q = std::min(q, m_writes.front().arrival_ps);
  if (!m_reads.empty()) q = std::min(q, m_reads.front().at_ps);
  return q;
}

void AxiBus::read(tlm::tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs) {
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  uint8_t *data = p.get_data_ptr();
  uint32_t bursts = 0;
  for (uint64_t off = 0; off < len; bursts++) off += burst_chunk(addr + off, len - off);
  SplitReadPool::Read *ctx = m_split.begin(bursts, now_ps());
  for (uint64_t off = 0; off < len;) {
    const uint32_t n = burst_chunk(addr + off, len - off);
    acquire_slot();
    /* One cycle on the read-address channel, then rd_latency to the first beat. */
    const uint64_t ar = std::max(now_ps(), m_ar_free_ps);
    m_ar_free_ps = ar + m_p.cycle_ps;
    PendingRead r;
    r.at_ps = m_ar_free_ps + m_p.rd_latency_ps;
    r.addr = addr + off;
    r.len = n;
    r.data = data + off;
    r.purpose = purpose;
    r.attrs = attrs;
    r.ctx = ctx;
    m_reads.push(r);
    notify_at(m_read_event, r.at_ps);
    off += n;
  }
  uint64_t last = 0;
  const bool ok = m_split.finish(ctx, &last);
  p.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  wait_until(last);
}

void AxiBus::read_data() {
  const uint64_t now = now_ps();
  while (!m_reads.empty() && m_reads.front().at_ps <= now) {
    const PendingRead r = m_reads.front();
    m_reads.pop();
    uint64_t mem_delay = 0;
    const bool ok = m_mem(mem, tlm::TLM_READ_COMMAND, r.addr, r.data, r.len, r.purpose, r.attrs, 0, &mem_delay);
    /* The burst's beats on the read-data channel once the memory has the data
     * (its own delay after rd_latency), behind earlier bursts. */
    const uint64_t start = std::max(now + mem_delay, m_r_free_ps);
    const uint64_t busy = static_cast<uint64_t>(beats(r.addr, r.len)) * m_p.cycle_ps;
    m_r_free_ps = start + busy;
    m_cnt.rd_busy_ps += busy;
    m_cnt.rd_bursts++;
    m_cnt.rd_bytes += r.len;
    m_cnt.purpose_bursts[static_cast<size_t>(r.purpose)]++;
    m_cnt.purpose_bytes[static_cast<size_t>(r.purpose)] += r.len;
    release_slot(true, m_r_free_ps);
    r.ctx->part_done(ok, m_r_free_ps);
  }
  if (!m_reads.empty()) notify_at(m_read_event, m_reads.front().at_ps);
}

void AxiBus::irq(tlm::tlm_generic_payload &p) {
  /* An SoC NIC's interrupt is a wire to the interrupt controller, not a
   * write: no bursts, no slot. The device asserts it only once the writes it
   * reports have their write response (as an MSI does not pass earlier
   * posted writes on PCIe), so the driver never finds a descriptor whose
   * write-back is still on the bus. */
  if (p.get_data_length() != 4) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "interrupt message of %u B (4 expected: the vector) at address 0x%" PRIx64,
                  p.get_data_length(), static_cast<uint64_t>(p.get_address()));
    if (on_violation) on_violation(name(), msg);
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const uint8_t *b = p.get_data_ptr();
  PendingIrq q;
  q.data = static_cast<uint32_t>(b[0]) | static_cast<uint32_t>(b[1]) << 8 | static_cast<uint32_t>(b[2]) << 16 |
           static_cast<uint32_t>(b[3]) << 24;
  q.at_ps = std::max(now_ps(), m_wr_done_ps);
  if (!m_irqs.empty()) q.at_ps = std::max(q.at_ps, m_irqs.back().at_ps);
  m_irqs.push(q);
  notify_at(m_irq_event, m_irqs.front().at_ps);
  m_cnt.irqs++;
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

void AxiBus::irq_out() {
  const uint64_t now = now_ps();
  write_data(); /* writes due now reach memory before the interrupt, whichever method runs first */
  if (m_wr_mem_done_ps > now) {
    /* Earlier writes are still completing in memory (it returned a delay). */
    notify_at(m_irq_event, m_wr_mem_done_ps);
    return;
  }
  while (!m_irqs.empty() && m_irqs.front().at_ps <= now) {
    const uint32_t data = m_irqs.front().data;
    m_irqs.pop();
    on_irq(data);
  }
  if (!m_irqs.empty()) notify_at(m_irq_event, m_irqs.front().at_ps);
}

}  // namespace nicsim
