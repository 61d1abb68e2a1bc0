// host_memory.cpp: DRAM bytes, MSI decoding and range checking for DMA.
#include "memory/host_memory.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "common/ps_time.h"
#include "memory/memory_stats.h"

namespace nicsim {

void HostMemory::FreeDeleter::operator()(uint8_t *p) const { std::free(p); }

uint64_t HostMemory::default_msi_addr(uint64_t size_bytes) {
  const uint64_t x86_msi = 0xFEE00000ull; /* Intel SDM vol. 3, §10.11.1: MSI address 0xFEExxxxx */
  if (size_bytes <= x86_msi) return x86_msi;
  return (size_bytes + (1ull << 20) - 1) & ~((1ull << 20) - 1);
}

HostMemory::HostMemory(sc_core::sc_module_name name, uint64_t size_bytes, uint64_t msi_addr)
    : sc_module(name), tgt("tgt"), m_size(size_bytes), m_msi_addr(msi_addr) {
  init();
}

HostMemory::HostMemory(sc_core::sc_module_name name, const Params &p)
    : sc_module(name), tgt("tgt"), m_size(p.size_bytes), m_msi_addr(default_msi_addr(p.size_bytes)) {
  init();
  set_dram_bw(p.dram_bw_gbps);
  set_iommu(p.iommu);
}

void HostMemory::init() {
  const uint64_t size_bytes = m_size, msi_addr = m_msi_addr;
  if (msi_addr < size_bytes) throw std::invalid_argument("the MSI address must lie outside host memory");
  /* calloc: zeroed pages come from the OS lazily, so a large memory costs nothing until touched. */
  m_mem.reset(static_cast<uint8_t *>(std::calloc(size_bytes ? size_bytes : 1, 1)));
  if (!m_mem) throw std::bad_alloc();
  tgt.register_b_transport(this, &HostMemory::b_transport);
}


void HostMemory::Params::bind(ParamBinder &b) {
  b.key("memory.size_mb", size_bytes, Conv::MibToBytes);
  b.key("memory.dram_bw_gbps", dram_bw_gbps);
  iommu.bind(b);
}

HostMemory::~HostMemory() = default;

void HostMemory::add_stats(stats::Registry &r) const {
  /* The channel's busy time up to now, without what is booked beyond it. */
  r.add(kDramStats, [this](DramChannel::Counters &s, stats::Edge) { s = m_dram.counters_at(now_ps()); });
  r.add(kIommuStats, [this](Iommu::Counters &s, stats::Edge) { s = m_iommu.counters(); });
}

void HostMemory::b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d) {
  const uint64_t addr = p.get_address();
  const uint32_t len = p.get_data_length();
  uint8_t *data = p.get_data_ptr();
  if (p.is_write() && addr == m_msi_addr && len == 4) {
    uint32_t word;
    std::memcpy(&word, data, 4);
    if (on_msi) on_msi(word);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (addr >= m_size || len > m_size - addr) {
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "DMA %s out of range: address 0x%" PRIx64 ", length %" PRIu32
                  " B; host memory is [0, 0x%" PRIx64 ") and the MSI address 0x%" PRIx64 " takes 4-byte writes",
                  p.is_write() ? "write" : "read", addr, len, m_size, m_msi_addr);
    if (on_violation) on_violation(name(), msg);
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (dma_check && (p.is_write() || p.is_read())) {
    const std::string why = dma_check(addr, len, p.is_write());
    if (!why.empty()) {
      if (on_violation) on_violation(name(), why);
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
  }
  if (p.is_write())
    std::memcpy(m_mem.get() + addr, data, len);
  else if (p.is_read())
    std::memcpy(data, m_mem.get() + addr, len);
  if (on_dma && (p.is_write() || p.is_read())) on_dma(addr, len, p.is_write());
  if ((p.is_write() || p.is_read()) && (m_iommu.enabled() || m_dram.limited())) {
    /* The access arrives at now + d. The IOMMU translates it first (a miss
     * walks the page table), then it queues on the DRAM channel and is
     * complete when the channel has moved its bytes. */
    const uint64_t t = sc_core::sc_time_stamp().value() + d.value();
    m_dram.retire(sc_core::sc_time_stamp().value());
    uint64_t extra = m_iommu.translate(t, addr, len, m_dram);
    uint64_t service = 0;
    extra += m_dram.access(t + extra, len, &service);
    extra += service;
    d += sc_core::sc_time::from_value(extra);
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace nicsim
