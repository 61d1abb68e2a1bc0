// dma_bench.cpp: the dma-bench initiator's threads, address walk and counters.
#include "workload/dma_bench.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace nicsim {

void DmaBenchParams::bind(ParamBinder &b) {
  b.key("workload.op", op, {{"read", Read}, {"write", Write}, {"read_write", ReadWrite}});
  b.key("workload.size_bytes", size_bytes);
  b.key("workload.outstanding", outstanding);
  b.key("workload.window_bytes", window_bytes);
  b.key("workload.relaxed_ordering", relaxed_ordering);
  b.key("workload.pattern", pattern, {{"seq", Seq}, {"random", Random}, {"page_stride", PageStride}});
  b.key("workload.host_cache", host_warm, {{"warm", true}, {"cold", false}});
}

ParamCheck DmaBenchParams::validate() const {
  if (window_bytes < size_bytes)
    return param_error({"workload.window_bytes", "workload.size_bytes"},
                       "set workload.window_bytes to at least " + std::to_string(size_bytes),
                       "workload.window_bytes = %llu B cannot hold one request of workload.size_bytes = %u B",
                       static_cast<unsigned long long>(window_bytes), size_bytes);
  return std::nullopt;
}

DmaBench::DmaBench(sc_core::sc_module_name name, const DmaBenchParams &p)
    : sc_module(name), socket("socket"), regs("regs"), m_p(p) {
  if (p.outstanding == 0 || p.size_bytes == 0 || p.window_bytes < p.size_bytes)
    throw std::invalid_argument("dma-bench: outstanding and size must be positive and the window hold one request");
  regs.register_b_transport(this, &DmaBench::b_transport_regs);
  m_bufs.resize(p.outstanding);
  m_slots.resize(p.outstanding);
  for (uint32_t i = 0; i < p.outstanding; i++) {
    m_bufs[i].assign(p.size_bytes, static_cast<uint8_t>(0xA0 + i));
    m_slots[i] = std::make_unique<Slot>();
    m_slots[i]->ext.purpose = DmaPurpose::Data;
    m_slots[i]->ext.relaxed_ordering = p.relaxed_ordering;
    m_slots[i]->ext.queue = static_cast<uint16_t>(i);
    m_slots[i]->gp.set_extension(&m_slots[i]->ext);
    sc_core::sc_spawn_options o;
    char nm[32];
    std::snprintf(nm, sizeof nm, "worker%u", i);
    sc_core::sc_spawn(sc_bind(&DmaBench::worker, this, i), nm, &o);
  }
}

uint64_t DmaBench::next_offset() {
  const uint64_t size = m_p.size_bytes;
  switch (m_p.pattern) {
    case DmaBenchParams::Random: {
      /* pcie-bench's random pattern: a request-aligned offset drawn
       * uniformly from the window (splitmix64, seeded by run.seed). */
      uint64_t z = (m_rng += 0x9E3779B97F4A7C15ull) ^ (m_p.seed * 0xD1B54A32D192ED03ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      return (z % (m_p.window_bytes / size)) * size;
    }
    case DmaBenchParams::PageStride: {
      /* One request per 4 KiB page in turn (a new IOTLB entry each), the
       * offset within the page moving by one request per pass. */
      constexpr uint64_t kPage = 4096;
      const uint64_t pages = std::max<uint64_t>(1, m_p.window_bytes / kPage);
      const uint64_t k = m_cursor++;
      uint64_t in = ((k / pages) * size) % kPage;
      if (in + size > kPage) in = 0;
      const uint64_t off = (k % pages) * kPage + in;
      return off + size <= m_p.window_bytes ? off : 0;
    }
    case DmaBenchParams::Seq:
    default: {
      /* The requests walk the window in order, wrapping where the next would not fit. */
      if (m_cursor + size > m_p.window_bytes) m_cursor = 0;
      const uint64_t off = m_cursor;
      m_cursor += size;
      return off;
    }
  }
}

void DmaBench::b_transport_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &) {
  p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

void DmaBench::worker(uint32_t i) {
  tlm::tlm_generic_payload &gp = m_slots[i]->gp;
  uint8_t *buf = m_bufs[i].data();
  for (;;) {
    const uint64_t t0 = sc_core::sc_time_stamp().value();
    if (t0 >= m_p.stop_ps) break;
    const uint64_t addr = m_p.base_addr + next_offset();
    const bool read = m_p.op == DmaBenchParams::Read || (m_p.op == DmaBenchParams::ReadWrite && (m_seq & 1) == 0);
    m_seq++;
    tlm_prepare(gp, read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND, addr, buf, m_p.size_bytes);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, d);
    if (d != sc_core::SC_ZERO_TIME) wait(d);
    const uint64_t t1 = sc_core::sc_time_stamp().value();
    if (!gp.is_response_ok() || t1 == t0) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "dma-bench %s of %u B at 0x%" PRIx64 " %s", read ? "read" : "write",
                    m_p.size_bytes, addr, gp.is_response_ok() ? "took no simulated time" : "failed");
      if (on_violation) on_violation(name(), msg);
      break;
    }
    if (t1 >= m_p.warmup_ps && t1 <= m_p.stop_ps) {
      m_cnt.reqs++;
      m_cnt.bytes += m_p.size_bytes;
      if (read) {
        m_cnt.rd_reqs++;
        m_cnt.rd_latency.add(t1 - t0);
      }
    }
  }
  m_stopped++;
}

}  // namespace nicsim
