/*
 * host_memory.h: simulated host physical memory: the bytes (allocated once,
 * zeroed), the attribute of each region, and a TLM target for the root
 * complex. A write to the MSI address goes to the interrupt controller.
 */
#ifndef NICSIM_MODELS_MEMORY_HOST_MEMORY_H
#define NICSIM_MODELS_MEMORY_HOST_MEMORY_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/params.h"
#include "kernel/platform.h"
#include "memory/dram_channel.h"
#include "memory/host_memory_if.h"
#include "memory/iommu.h"
#include "memory/region_map.h"

namespace nicsim {

namespace stats {
class Registry;
}

/* Host DRAM plus the MSI doorbell of the interrupt controller; the CPU core
 * reaches its bytes through HostMemoryIf (on_dma is declared there). With a
 * DRAM bandwidth or an IOMMU configured, each DMA access returns the delay
 * they add through the TLM delay argument: IOTLB page walks first, then the
 * wait for the DRAM channel plus the access's occupancy of it. */
class HostMemory : public sc_core::sc_module, public HostMemoryIf {
 public:
  tlm_utils::simple_target_socket<HostMemory> tgt; /* from the interconnect (root complex) */

  /* What a platform configures of it. */
  struct Params {
    uint64_t size_bytes = 64ull << 20; /* bytes of memory */
    double dram_bw_gbps = 0;           /* DRAM peak bandwidth, GB/s; 0: unlimited */
    IommuParams iommu;                 /* the IOMMU (disabled by default) */
    /* The memory.* and iommu.* keys. */
    void bind(ParamBinder &b);
    ParamCheck validate() const { return iommu.validate(); }
  };

  /* size_bytes of zeroed memory at [0, size_bytes); MSI writes to msi_addr
   * (bytes address, must lie outside memory) reach on_msi. */
  HostMemory(sc_core::sc_module_name name, uint64_t size_bytes, uint64_t msi_addr);
  /* Memory as p says, its MSI address default_msi_addr(p.size_bytes). */
  HostMemory(sc_core::sc_module_name name, const Params &p);
  ~HostMemory() override;

  /* The MSI address a platform with size_bytes (bytes) of memory uses: the
   * x86 interrupt window 0xFEE00000 if it lies above memory, else the first
   * MiB boundary above memory. */
  static uint64_t default_msi_addr(uint64_t size_bytes);

  /* The memory's bytes: physical address pa is data()[pa]. */
  uint8_t *data() override { return m_mem.get(); }
  /* The memory's bytes, read-only. */
  const uint8_t *data() const { return m_mem.get(); }
  /* Bytes of memory. */
  uint64_t size() const override { return m_size; }
  /* Address (bytes) that takes MSI writes. */
  uint64_t msi_addr() const override { return m_msi_addr; }
  /* Sets the attribute of [pa, pa + len) (bytes). */
  void set_attr(uint64_t pa, uint64_t len, nk_mem_attr attr) override { m_attr.set(pa, len, attr); }
  /* Attribute of the byte at pa. */
  nk_mem_attr attr(uint64_t pa) const override { return m_attr.get(pa); }

  /* DRAM peak bandwidth in GB/s (10^9 B/s; memory.dram_bw_gbps); 0: unlimited. Before the run. */
  void set_dram_bw(double gbps) { m_dram = DramChannel(gbps); }
  /* The IOMMU's IOTLB and walker (iommu.*). Before the run. */
  void set_iommu(const IommuParams &p) { m_iommu = Iommu(p); }
  /* The DRAM channel (counters: busy and wait time, bytes). */
  const DramChannel &dram() const { return m_dram; }
  /* The IOMMU (counters: IOTLB hits and misses, walk time). */
  const Iommu &iommu() const { return m_iommu; }
  /* Registers the statistics of its DRAM channel and IOMMU (memory_stats.h). */
  void add_stats(stats::Registry &r) const;
  /* HostMemoryIf: a CPU access queued on the DRAM channel. */
  uint64_t cpu_dram_access(uint64_t t_ps, uint64_t bytes, uint64_t *service_ps = nullptr) override {
    m_dram.retire(sc_core::sc_time_stamp().value());
    return m_dram.access(t_ps, bytes, service_ps);
  }
  /* HostMemoryIf: the DRAM channel has a bandwidth limit. */
  bool dram_limited() const override { return m_dram.limited(); }
  /* HostMemoryIf: an IOTLB invalidation and sync on the IOMMU's queue. */
  uint64_t iommu_queue_invalidate(uint64_t t_ps, uint64_t pa, uint64_t len) override {
    m_dram.retire(sc_core::sc_time_stamp().value());
    return m_iommu.queue_invalidate(t_ps, pa, len, m_dram);
  }

  /* A 4-byte MSI write arrived; the argument is the MSI data word. */
  std::function<void(uint32_t)> on_msi;
  /* on_dma (HostMemoryIf): called after each DMA read or write is applied. */
  /* IOMMU-style check of each DMA before it is applied: pa, len, true for a
   * write; returns "" if the device may access [pa, pa + len), else why not
   * (the access is then refused and reported through on_violation). Unset:
   * every in-range access is allowed (dma-bench has no driver). */
  std::function<std::string(uint64_t, uint32_t, bool)> dma_check;
  /* An access outside memory that is not an MSI: component, message. */
  std::function<void(const std::string &, const std::string &)> on_violation;

 private:
  struct FreeDeleter {
    void operator()(uint8_t *p) const;
  };
  void init(); /* the constructors' common part */
  void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d);

  uint64_t m_size;
  uint64_t m_msi_addr;
  std::unique_ptr<uint8_t, FreeDeleter> m_mem;
  RegionMap m_attr;
  DramChannel m_dram;              /* unlimited unless set_dram_bw */
  Iommu m_iommu{IommuParams{}};    /* disabled unless set_iommu */
};

}  // namespace nicsim
#endif
