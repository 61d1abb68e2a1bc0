// axi_stats.cpp: the bus.* statistics of the on-chip bus, declared once.
#include "bus/axi_stats.h"

#include <cstdio>

namespace nicsim {

namespace {
using S = AxiCounters;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

/* Named at run time in the past, so reported as extras (after the columns). */
const D kDecls[] = {
    D::extra("bus.rd_util", "fraction", Kind::Real, "bus.enabled: busy fraction of the bus's read-data channel",
             [](const E &e) { return e.delta(&S::rd_busy_ps) / e.run.win_ps; }),
    D::extra("bus.wr_util", "fraction", Kind::Real, "bus.enabled: busy fraction of the bus's write-data channel",
             [](const E &e) { return e.delta(&S::wr_busy_ps) / e.run.win_ps; }),
    D::extra("bus.bursts", "bursts", Kind::Count, "bus.enabled: read and write bursts on the bus",
             [](const E &e) {
               return static_cast<double>(e.b.rd_bursts + e.b.wr_bursts - (e.a.rd_bursts + e.a.wr_bursts));
             }),
    D::extra("bus.slot_stalls", "bursts", Kind::Count, "bus.enabled: bursts that waited for an outstanding-transaction slot",
             stats::delta<&S::slot_stalls>),
};

/* Each purpose's count of field m, named bus.<purpose>.<what>. */
void by_purpose(const E &e, stats::FamilyOut &out, uint64_t (S::*m)[kDmaPurposes], const char *what,
                const char *desc_what) {
  char name[96], desc[160];
  for (size_t p = 0; p < kDmaPurposes; p++) {
    const char *pn = dma_purpose_name(static_cast<DmaPurpose>(p));
    std::snprintf(name, sizeof name, "bus.%s.%s", pn, what);
    std::snprintf(desc, sizeof desc, "%s on the bus for purpose %s", desc_what, pn);
    out.add(name, desc, static_cast<double>((e.b.*m)[p] - (e.a.*m)[p]));
  }
}

const D kDeviceDecls[] = {
    D::extra("bus.irqs", "interrupts", Kind::Count, "bus.enabled, NIC workload: wired interrupts the device asserted (no bus transfer)",
             stats::delta<&S::irqs>),
    D::family("bus.<purpose>.bursts", "bursts", Kind::Count,
              "bus.enabled, NIC workload: bursts by what they carried (docs/bus.md).",
              [](const E &e, stats::FamilyOut &out) { by_purpose(e, out, &S::purpose_bursts, "bursts", "Bursts"); }),
    D::family("bus.<purpose>.bytes", "B", Kind::Count, "bus.enabled, NIC workload: data bytes of those bursts.",
              [](const E &e, stats::FamilyOut &out) {
                by_purpose(e, out, &S::purpose_bytes, "bytes", "Data bytes");
              }),
};
}  // namespace

const stats::Table<AxiCounters> kAxiStats = stats::table("bus", kDecls);
const stats::Table<AxiCounters> kAxiDeviceStats = stats::table("bus", kDeviceDecls);

}  // namespace nicsim
