/*
 * region_map.h: the memory attribute (cached, uncached, write-combining) of
 * every byte of host memory, as the CPU's page tables would map it. Set by
 * dma_alloc_coherent through the platform ops; looked up on every CPU access.
 */
#ifndef NICSIM_MODELS_MEMORY_REGION_MAP_H
#define NICSIM_MODELS_MEMORY_REGION_MAP_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernel/platform.h"

namespace nicsim {

/* Non-overlapping address ranges with an attribute; everything else is cached. */
class RegionMap {
 public:
  /* Sets the attribute of [pa, pa + len) (bytes), replacing what was there. */
  void set(uint64_t pa, uint64_t len, nk_mem_attr attr);
  /* The attribute of the byte at pa. */
  nk_mem_attr get(uint64_t pa) const;
  /* Number of distinct non-cached ranges (for tests and diagnostics). */
  size_t ranges() const { return m_ranges.size(); }

 private:
  struct Range {
    uint64_t begin, end; /* [begin, end) */
    nk_mem_attr attr;
  };
  std::vector<Range> m_ranges;      /* sorted by begin; only non-cached ranges */
  mutable size_t m_last = 0;        /* index of the last hit, tried first */
};

}  // namespace nicsim
#endif
