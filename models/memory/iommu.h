/*
 * iommu.h: the translation side of an IOMMU on the device's DMA path: an
 * IOTLB (set-associative, LRU, 4 KiB pages) looked up for every page a DMA
 * transaction touches, a page-table walk of walk_levels dependent DRAM reads
 * on a miss, and the invalidation queue the kernel submits IOTLB
 * invalidations to (VT-d queued invalidation, SMMUv3 command queue): its
 * commands, their fetch from memory, per-command and per-sync processing and
 * the sync's status write. DMA addresses are identity-mapped (IOVA = physical
 * address); the permission check (may the device touch this mapping?) is
 * HostMemory::dma_check.
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
  /* The invalidation queue's command format (iommu.kind). */
  enum class Kind : uint8_t {
    Vtd,   /* VT-d: one page-selective IOTLB descriptor (address mask) per range, an invalidation-wait */
    Smmuv3 /* SMMUv3: one CMD_TLBI_NH_VA per 4 KiB page (no range invalidation), a CMD_SYNC */
  };
  bool enabled = false;       /* iommu.mode other than off (src/sim: nc_iommu_mode) */
  Kind kind = Kind::Vtd;
  uint64_t cmd_ps = 150000;   /* iommu.inv_cmd_ns: one invalidation command, ps */
  uint64_t sync_ps = 350000;  /* iommu.inv_sync_ns: one sync once the commands before it are done, ps */
  uint32_t entries = 64;      /* IOTLB entries */
  uint32_t ways = 64;         /* associativity; entries / ways sets */
  uint32_t walk_levels = 4;   /* dependent page-table reads per miss */
  uint64_t read_ps = 90000;   /* latency of one page-table read (DRAM), ps */
  /* The iommu.* keys but mode/enabled (src/sim sets enabled), and
   * memory.dram_latency_ns (a walk and a queue fetch read DRAM). */
  void bind(ParamBinder &b);
  /* The IOTLB's rule: entries / ways sets. */
  ParamCheck validate() const;
};

/* The IOTLB and its page walker. */
class Iommu {
 public:
  static constexpr uint64_t kPageBytes = 4096; /* IOMMU page (VT-d / SMMU 4 KiB granule) */
  /* Bytes of one queue entry: VT-d's 128-bit descriptors (legacy mode;
   * scalable mode's are 256-bit), SMMUv3's 16-byte commands. */
  static constexpr uint64_t kQueueEntryBytes = 16;

  /* Invalidation commands (the sync not counted) that invalidate
   * [pa, pa + len), len 0 the whole domain: one for VT-d (a page-selective
   * descriptor whose address mask covers the range, or a domain-selective
   * one: Linux's qi_flush_iotlb), one per 4 KiB page for SMMUv3 without
   * range invalidation (Linux's __arm_smmu_tlb_inv_range), one
   * CMD_TLBI_NH_ASID for the domain. */
  static uint32_t inv_commands(IommuParams::Kind kind, uint64_t pa, uint64_t len);

  /* Whole-run counts (the top snapshots them for the window). */
  struct Counters {
    uint64_t hits = 0;          /* page lookups that hit the IOTLB */
    uint64_t misses = 0;        /* lookups that missed and walked the page table */
    uint64_t walk_ps = 0;       /* time spent walking, ps */
    uint64_t invalidations = 0; /* IOTLB entries an invalidation dropped */
    uint64_t inv_cmds = 0;      /* invalidation commands processed (syncs not counted) */
    uint64_t inv_syncs = 0;     /* syncs processed (one per submission) */
    uint64_t queue_busy_ps = 0; /* time the invalidation queue spent processing, ps */
  };

  explicit Iommu(const IommuParams &p);

  bool enabled() const { return m_p.enabled; }
  /* A DMA of len bytes at pa arriving at t_ps: each 4 KiB page it touches is
   * looked up in turn; a miss walks the page table (walk_levels reads, each
   * queued on dram then read_ps) and fills the entry. Returns the total walk
   * time (ps), 0 if every page hit or the IOMMU is off. */
  uint64_t translate(uint64_t t_ps, uint64_t pa, uint64_t len, DramChannel &dram);
  /* Drops the IOTLB entries of every page [pa, pa + len) touches. */
  void invalidate(uint64_t pa, uint64_t len);
  /* Drops every IOTLB entry (a domain-wide invalidation: one domain here). */
  void invalidate_all();
  /* A CPU submits, at t_ps (its doorbell write reaching the IOMMU), the
   * invalidation of [pa, pa + len) (len 0: the domain) and a sync. The
   * queue takes one submission at a time: it starts at t_ps or when the one
   * before is done, fetches the new entries (inv_commands + 1 of 16 B, one
   * DRAM read: queued on dram, then read_ps), processes each command
   * (cmd_ps) and the sync (sync_ps), and writes the sync's status to memory
   * (queued on dram). The IOTLB entries go at once. Returns when the status
   * write is done (ps); t_ps if the IOMMU is off. */
  uint64_t queue_invalidate(uint64_t t_ps, uint64_t pa, uint64_t len, DramChannel &dram);
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
  uint64_t m_queue_free_ps = 0; /* when the invalidation queue finishes its last submission */
  std::vector<Entry> m_entries; /* m_sets x ways */
  Counters m_c;
};

}  // namespace nicsim
#endif
