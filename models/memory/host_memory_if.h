/*
 * host_memory_if.h: what the CPU core needs of host memory besides the TLM
 * target the interconnect writes to: direct (DMI-like) access to the same
 * bytes, the attribute of each region (the CPU's page tables), the MSI
 * address, and a hook the memory calls after applying each DMA access (the
 * CPU's cache snoops through it), and the CPU's side of the DRAM channel and
 * the IOMMU (optional). nicsim's HostMemory implements it; an
 * embedder's own memory model implements it to replace HostMemory
 * (docs/embedding.md).
 */
#ifndef NICSIM_MODELS_MEMORY_HOST_MEMORY_IF_H
#define NICSIM_MODELS_MEMORY_HOST_MEMORY_IF_H

#include <cstdint>
#include <functional>

#include "kernel/platform.h"

namespace nicsim {

/* The CPU core's view of host memory: bytes at [0, size()), region
 * attributes, the MSI address, and the DMA notification hook. */
class HostMemoryIf {
 public:
  virtual ~HostMemoryIf() = default;

  /* The memory's bytes: physical address pa is data()[pa]. Must stay valid
   * (and be the bytes DMA reads and writes) for the whole simulation. */
  virtual uint8_t *data() = 0;
  /* Bytes of memory. */
  virtual uint64_t size() const = 0;
  /* Address (bytes, outside [0, size())) that takes 4-byte MSI writes. */
  virtual uint64_t msi_addr() const = 0;
  /* Sets the attribute of [pa, pa + len) (bytes); dma_alloc_coherent calls it. */
  virtual void set_attr(uint64_t pa, uint64_t len, nk_mem_attr attr) = 0;
  /* Attribute of the byte at pa (NK_MEM_CACHED unless set otherwise). */
  virtual nk_mem_attr attr(uint64_t pa) const = 0;
  /* A CPU access to DRAM of bytes (B) at the core's time t_ps (a cache-line
   * fill, an uncached access, a write-combining burst, a memcpy stream):
   * returns how long it waits for the DRAM channel (ps); *service_ps (if not
   * null) gets its occupancy (ps). Default: no bandwidth limit (0, 0). */
  virtual uint64_t cpu_dram_access(uint64_t t_ps, uint64_t bytes, uint64_t *service_ps = nullptr) {
    (void)t_ps;
    (void)bytes;
    if (service_ps) *service_ps = 0;
    return 0;
  }
  /* True if cpu_dram_access models a limited bandwidth (callers may skip
   * counting lines otherwise). */
  virtual bool dram_limited() const { return false; }
  /* The CPU's doorbell reached the IOMMU's invalidation queue at t_ps with
   * the invalidation of [pa, pa + len) (bytes; len 0: the whole domain) and
   * a sync: the IOMMU drops those IOTLB entries and returns when the sync's
   * status write is done (ps), which the CPU polls for (Iommu::queue_invalidate).
   * Default: no IOMMU, t_ps. */
  virtual uint64_t iommu_queue_invalidate(uint64_t t_ps, uint64_t pa, uint64_t len) {
    (void)pa;
    (void)len;
    return t_ps;
  }

  /* Set by the CPU core. The memory calls it right after it has applied a
   * DMA read or write of len bytes at pa (in range): pa, len, true for a
   * write. The CPU's cache snoops through it. */
  std::function<void(uint64_t, uint32_t, bool)> on_dma;
};

}  // namespace nicsim
#endif
