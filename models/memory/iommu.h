/*
 * iommu.h: the translation side of an IOMMU on the device's DMA path: an
 * IOTLB (set-associative, LRU, 4 KiB pages) looked up for every page a DMA
 * transaction touches, a page-table walk of walk_levels dependent DRAM reads
 * on a miss, and strict-mode invalidation when the driver unmaps. DMA
 * addresses are identity-mapped (IOVA = physical address); the permission
 * check (may the device touch this mapping?) is HostMemory::dma_check.
 */
#ifndef NICSIM_MODELS_MEMORY_IOMMU_H
#define NICSIM_MODELS_MEMORY_IOMMU_H

#include <cstdint>
#include <vector>

#include "common/params.h"
#include "memory/dram_channel.h"

namespace nicsim {

/* What the IOMMU model needs to know. */
struct IommuParams {
  bool enabled = false;
  uint32_t entries = 64;      /* IOTLB entries */
  uint32_t ways = 64;         /* associativity; entries / ways sets */
  uint32_t walk_levels = 4;   /* dependent page-table reads per miss */
  uint64_t read_ps = 90000;   /* latency of one page-table read (DRAM), ps */
  /* The iommu.* keys, and memory.dram_latency_ns (a walk reads DRAM). */
  void bind(ParamBinder &b);
  /* The IOTLB's rule: entries / ways sets. */
  ParamCheck validate() const;
};

/* The IOTLB and its page walker. */
class Iommu {
 public:
  static constexpr uint64_t kPageBytes = 4096; /* IOMMU page (VT-d / SMMU 4 KiB granule) */

  /* Whole-run counts (the top snapshots them for the window). */
  struct Counters {
    uint64_t hits = 0;          /* page lookups that hit the IOTLB */
    uint64_t misses = 0;        /* lookups that missed and walked the page table */
    uint64_t walk_ps = 0;       /* time spent walking, ps */
    uint64_t invalidations = 0; /* IOTLB entries an unmap dropped */
  };

  explicit Iommu(const IommuParams &p);

  bool enabled() const { return m_p.enabled; }
  /* A DMA of len bytes at pa arriving at t_ps: each 4 KiB page it touches is
   * looked up in turn; a miss walks the page table (walk_levels reads, each
   * queued on dram then read_ps) and fills the entry. Returns the total walk
   * time (ps), 0 if every page hit or the IOMMU is off. */
  uint64_t translate(uint64_t t_ps, uint64_t pa, uint64_t len, DramChannel &dram);
  /* Strict unmap: drops the IOTLB entries of every page [pa, pa + len) touches. */
  void invalidate(uint64_t pa, uint64_t len);
  /* True if the page holding pa is in the IOTLB (tests, diagnostics). */
  bool cached(uint64_t pa) const;
  const Counters &counters() const { return m_c; }

 private:
  struct Entry {
    uint64_t page = 0;  /* pa / kPageBytes */
    uint64_t stamp = 0; /* last use, for LRU */
    bool valid = false;
  };
  Entry *set_of(uint64_t page) { return &m_entries[(page % m_sets) * m_p.ways]; }
  const Entry *set_of(uint64_t page) const { return &m_entries[(page % m_sets) * m_p.ways]; }

  IommuParams m_p;
  uint64_t m_sets;
  uint64_t m_stamp = 0;
  std::vector<Entry> m_entries; /* m_sets x ways */
  Counters m_c;
};

}  // namespace nicsim
#endif
