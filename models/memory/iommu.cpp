// iommu.cpp: IOTLB lookups, page walks over the DRAM channel, the invalidation queue.
#include "memory/iommu.h"

#include <algorithm>
#include <cmath>

#include <string>

namespace nicsim {

void IommuParams::bind(ParamBinder &b) {
  b.key("iommu.kind", kind, {{"vtd", Kind::Vtd}, {"smmuv3", Kind::Smmuv3}});
  b.key("iommu.inv_cmd_ns", cmd_ps, Conv::NsToPs);
  b.key("iommu.inv_sync_ns", sync_ps, Conv::NsToPs);
  b.key("iommu.iotlb_entries", entries);
  b.key("iommu.iotlb_ways", ways);
  b.key("iommu.walk_levels", walk_levels);
  b.key("memory.dram_latency_ns", read_ps, Conv::NsToPs);
}

ParamCheck IommuParams::validate() const {
  if (ways == 0 || ways > entries || entries % ways != 0)
    return param_error({"iommu.iotlb_ways", "iommu.iotlb_entries"},
                       "set iommu.iotlb_entries to a multiple of iommu.iotlb_ways (" + std::to_string(ways) +
                           "), e.g. " + std::to_string(ways * (ways ? entries / ways + 1 : 1)),
                       "iommu.iotlb_entries = %u is not a multiple of iommu.iotlb_ways = %u: the IOTLB has entries / "
                       "ways sets",
                       entries, ways);
  return std::nullopt;
}

Iommu::Iommu(const IommuParams &p) : m_p(p) {
  if (m_p.ways == 0) m_p.ways = 1;
  if (m_p.entries < m_p.ways) m_p.entries = m_p.ways;
  m_sets = m_p.entries / m_p.ways;
  m_entries.resize(static_cast<size_t>(m_sets * m_p.ways));
}

uint64_t Iommu::translate(uint64_t t_ps, uint64_t pa, uint64_t len, DramChannel &dram) {
  if (!m_p.enabled || len == 0) return 0;
  uint64_t walked = 0;
  const uint64_t first = pa / kPageBytes, last = (pa + len - 1) / kPageBytes;
  for (uint64_t page = first; page <= last; page++) {
    Entry *set = set_of(page);
    Entry *hit = nullptr, *victim = set;
    for (uint32_t w = 0; w < m_p.ways; w++) {
      Entry &e = set[w];
      if (e.valid && e.page == page) {
        hit = &e;
        break;
      }
      /* Victim: an invalid way, else the least recently used. */
      if (victim->valid && (!e.valid || e.stamp < victim->stamp)) victim = &e;
    }
    if (hit) {
      hit->stamp = ++m_stamp;
      m_c.hits++;
      continue;
    }
    /* A miss walks the page table: each level's read depends on the one
     * before, so they queue on the channel one after the other. */
    m_c.misses++;
    uint64_t t = t_ps + walked;
    for (uint32_t l = 0; l < m_p.walk_levels; l++) t += dram.access(t, 64) + m_p.read_ps;
    walked = t - t_ps;
    *victim = Entry{page, ++m_stamp, true};
  }
  m_c.walk_ps += walked;
  return walked;
}

void Iommu::invalidate(uint64_t pa, uint64_t len) {
  if (!m_p.enabled || len == 0) return;
  const uint64_t first = pa / kPageBytes, last = (pa + len - 1) / kPageBytes;
  for (uint64_t page = first; page <= last; page++) {
    Entry *set = set_of(page);
    for (uint32_t w = 0; w < m_p.ways; w++)
      if (set[w].valid && set[w].page == page) {
        set[w].valid = false;
        m_c.invalidations++;
      }
  }
}

void Iommu::invalidate_all() {
  if (!m_p.enabled) return;
  for (Entry &e : m_entries)
    if (e.valid) {
      e.valid = false;
      m_c.invalidations++;
    }
}

uint32_t Iommu::inv_commands(IommuParams::Kind kind, uint64_t pa, uint64_t len) {
  if (len == 0 || kind == IommuParams::Kind::Vtd) return 1;
  const uint64_t pages = (pa + len - 1) / kPageBytes - pa / kPageBytes + 1;
  return static_cast<uint32_t>(std::min<uint64_t>(pages, UINT32_MAX));
}

uint64_t Iommu::queue_invalidate(uint64_t t_ps, uint64_t pa, uint64_t len, DramChannel &dram) {
  if (!m_p.enabled) return t_ps;
  const uint32_t cmds = inv_commands(m_p.kind, pa, len);
  const uint64_t start = std::max(t_ps, m_queue_free_ps);
  uint64_t t = start;
  /* Fetch: the new entries are contiguous, read as one DRAM access. */
  t += dram.access(t, (cmds + 1) * kQueueEntryBytes) + m_p.read_ps;
  t += cmds * m_p.cmd_ps + m_p.sync_ps;
  /* The sync's status write (VT-d: the wait descriptor's status data;
   * SMMUv3: CMD_SYNC's completion write the driver polls). */
  t += dram.access(t, 4);
  m_queue_free_ps = t;
  m_c.inv_cmds += cmds;
  m_c.inv_syncs++;
  m_c.queue_busy_ps += t - start;
  if (len == 0) invalidate_all();
  else invalidate(pa, len);
  return t;
}

bool Iommu::cached(uint64_t pa) const {
  const uint64_t page = pa / kPageBytes;
  const Entry *set = set_of(page);
  for (uint32_t w = 0; w < m_p.ways; w++)
    if (set[w].valid && set[w].page == page) return true;
  return false;
}

}  // namespace nicsim
