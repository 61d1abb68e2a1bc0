// memory_stats.cpp: the mem.* and iommu.* statistics of host memory, declared once.
#include "memory/memory_stats.h"

namespace nicsim {

namespace {
using stats::Kind;
using DS = DramChannel::Counters;
using DD = stats::Decl<DS>;
using DE = stats::Edges<DS>;

const DD kDramDecls[] = {
    DD::stat("mem.dram_busy_frac", "fraction", Kind::Real,
             "Fraction of the window the DRAM channel was busy moving DMA and CPU bytes (0 with memory.dram_bw_gbps 0: "
             "unlimited)",
             stats::time_avg<&DS::busy_ps>),
    DD::stat("mem.dram_wait_ns", "ns", Kind::Real,
             "Mean time a DRAM access (DMA, CPU miss, uncached access, WC burst, memcpy stream, page walk) waited for "
             "the busy channel",
             [](const DE &e) {
               const double acc = e.delta(&DS::accesses);
               return acc > 0 ? e.delta(&DS::wait_ps) / 1000.0 / acc : 0;
             }),
    DD::stat("mem.dram_bytes", "B", Kind::Count,
             "Bytes the DRAM channel moved (counted only with a bandwidth limit, memory.dram_bw_gbps > 0)",
             stats::delta<&DS::bytes>),
};

using IS = Iommu::Counters;
using ID = stats::Decl<IS>;

const ID kIommuDecls[] = {
    ID::stat("iommu.iotlb_hits", "lookups", Kind::Count,
             "IOTLB lookups (one per 4 KiB page a DMA access touches) that hit (iommu.enabled)",
             stats::delta<&IS::hits>),
    ID::stat("iommu.iotlb_misses", "lookups", Kind::Count,
             "IOTLB lookups that missed and walked the page table (iommu.walk_levels DRAM reads each)",
             stats::delta<&IS::misses>),
};
}  // namespace

const stats::Table<DramChannel::Counters> kDramStats = stats::table("dram", kDramDecls);
const stats::Table<Iommu::Counters> kIommuStats = stats::table("iommu", kIommuDecls);

}  // namespace nicsim
