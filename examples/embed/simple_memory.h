/*
 * simple_memory.h: the embedder's own host memory for examples/embed: a
 * TLM-2.0 target (b_transport) over a plain byte array, standing where a
 * virtual platform's DRAM model (a DRAMSys-like target, say) would. It shows
 * everything nicsim asks of a memory that replaces its HostMemory
 * (docs/embedding.md):
 *  - the target socket the PCIe link's "mem" initiator binds to: reads and
 *    writes take effect at the time of the call (no wait()), and the
 *    memory's own latency (set_latency, zero by default) is returned as the
 *    b_transport delay, which the link honours (read data that much later,
 *    write committed that much later);
 *  - 4-byte writes with TlpExt::purpose Msi to the MSI address go to the
 *    interrupt controller (on_msi), not to memory;
 *  - nicsim::HostMemoryIf, the CPU core's direct (DMI-like) view of the same
 *    bytes, with the region attributes the driver sets, and a call of on_dma
 *    after each DMA access (the CPU's cache snoops through it).
 * It also counts DMA bytes per TlpExt purpose and the requests with relaxed
 * ordering (the interconnect passes the originating TLP's type, tag, RO,
 * no-snoop and traffic class on to memory in TlpExt).
 */
#ifndef NICSIM_EXAMPLES_EMBED_SIMPLE_MEMORY_H
#define NICSIM_EXAMPLES_EMBED_SIMPLE_MEMORY_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include <nicsim/common/tlp.h>
#include <nicsim/memory/host_memory_if.h>
#include <nicsim/memory/region_map.h>

/* A flat memory at [0, size) with an MSI doorbell at msi_addr. */
class SimpleMemory : public sc_core::sc_module, public nicsim::HostMemoryIf {
 public:
  tlm_utils::simple_target_socket<SimpleMemory> tgt; /* from the interconnect (PcieLink::mem) */

  /* DMA bytes and requests per TlpExt purpose, and MSIs. */
  struct Counters {
    uint64_t bytes[6] = {};    /* by nicsim::DmaPurpose */
    uint64_t requests[6] = {};
    uint64_t msis = 0;
    uint64_t ro_requests = 0; /* DMA requests whose TLP had relaxed ordering */
  };

  /* size bytes of zeroed memory; msi_addr must lie outside it. */
  SimpleMemory(sc_core::sc_module_name name, uint64_t size, uint64_t msi_addr)
      : sc_module(name), tgt("tgt"), m_bytes(size), m_msi_addr(msi_addr) {
    tgt.register_b_transport(this, &SimpleMemory::b_transport);
  }

  /* ---- nicsim::HostMemoryIf: the CPU core's view --------------------- */
  uint8_t *data() override { return m_bytes.data(); }
  uint64_t size() const override { return m_bytes.size(); }
  uint64_t msi_addr() const override { return m_msi_addr; }
  void set_attr(uint64_t pa, uint64_t len, nk_mem_attr attr) override { m_attr.set(pa, len, attr); }
  nk_mem_attr attr(uint64_t pa) const override { return m_attr.get(pa); }

  /* The interrupt controller: an MSI with this data word arrived. */
  std::function<void(uint32_t)> on_msi;
  /* A DMA outside memory: component, message (the platform stops the run). */
  std::function<void(const std::string &, const std::string &)> on_violation;

  /* Counters so far. */
  const Counters &counters() const { return m_cnt; }
  /* The memory's own latency, returned on every DMA access (zero: nicsim's HostMemory timing). */
  void set_latency(const sc_core::sc_time &t) { m_latency = t; }

 private:
  /* The interconnect's access: takes effect now; the link calls it from
   * SC_METHODs, so it must not wait(): it adds its latency to d instead. */
  void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d) {
    const uint64_t addr = p.get_address();
    const uint32_t len = p.get_data_length();
    uint8_t *buf = p.get_data_ptr();
    const nicsim::TlpExt *ext = p.get_extension<nicsim::TlpExt>();
    const unsigned purpose = static_cast<unsigned>(ext ? ext->purpose : nicsim::DmaPurpose::Other);
    if (p.is_write() && addr == m_msi_addr && len == 4) {
      /* nicsim's NIC marks its MSIs with purpose Msi; count a stray write too. */
      uint32_t word;
      std::memcpy(&word, buf, 4);
      m_cnt.msis++;
      if (on_msi) on_msi(word);
      p.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    if (addr >= m_bytes.size() || len > m_bytes.size() - addr) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "DMA %s of %" PRIu32 " B at 0x%" PRIx64 " is outside memory",
                    p.is_write() ? "write" : "read", len, addr);
      if (on_violation) on_violation(name(), msg);
      p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (p.is_write())
      std::memcpy(m_bytes.data() + addr, buf, len);
    else if (p.is_read())
      std::memcpy(buf, m_bytes.data() + addr, len);
    if (purpose < 6) {
      m_cnt.bytes[purpose] += len;
      m_cnt.requests[purpose]++;
    }
    if (ext && ext->relaxed_ordering) m_cnt.ro_requests++;
    d += m_latency;
    /* Tell the CPU core's cache (HostMemoryIf::on_dma, set by CpuCore). */
    if (on_dma && (p.is_write() || p.is_read())) on_dma(addr, len, p.is_write());
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }

  std::vector<uint8_t> m_bytes;
  uint64_t m_msi_addr;
  nicsim::RegionMap m_attr; /* the CPU's page attributes (cached unless set) */
  Counters m_cnt;
  sc_core::sc_time m_latency = sc_core::SC_ZERO_TIME;
};

#endif
