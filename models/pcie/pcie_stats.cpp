// pcie_stats.cpp: the pcie.* statistics of the link, declared once.
#include "pcie/pcie_stats.h"

#include <cstdio>

namespace nicsim {

namespace {
using S = PcieSnapshot;
using C = PcieDirCounters;
using D = stats::Decl<S>;
using E = stats::Edges<S>;
using stats::Kind;

const D kDecls[] = {
    D::stat("pcie.up.tlps", "TLPs", Kind::Count, "TLPs from device to host (MWr, MRd, CplD, MSI)",
            [](const E &e) { return e.delta(&S::up, &C::tlps); }),
    D::stat("pcie.down.tlps", "TLPs", Kind::Count, "TLPs from host to device (CplD, MMIO MWr/MRd)",
            [](const E &e) { return e.delta(&S::down, &C::tlps); }),
    D::stat("pcie.up.bytes", "B", Kind::Count,
            "Wire bytes device to host: payload, TLP header, DLL and framing overhead",
            [](const E &e) { return e.delta(&S::up, &C::wire_bytes); }),
    D::stat("pcie.down.bytes", "B", Kind::Count, "Wire bytes host to device",
            [](const E &e) { return e.delta(&S::down, &C::wire_bytes); }),
    D::stat("pcie.up.payload_bytes", "B", Kind::Count, "TLP data payload bytes, device to host",
            [](const E &e) { return e.delta(&S::up, &C::payload_bytes); }),
    D::stat("pcie.down.payload_bytes", "B", Kind::Count, "TLP data payload bytes, host to device",
            [](const E &e) { return e.delta(&S::down, &C::payload_bytes); }),
    D::stat("pcie.up.util", "fraction", Kind::Real, "Busy fraction of the device-to-host direction",
            [](const E &e) { return e.delta(&S::up, &C::busy_ps) / e.run.win_ps; }),
    D::stat("pcie.down.util", "fraction", Kind::Real, "Busy fraction of the host-to-device direction",
            [](const E &e) { return e.delta(&S::down, &C::busy_ps) / e.run.win_ps; }),
    D::stat("pcie.up.overhead_bytes", "B", Kind::Count,
            "TLP bytes device to host that are not payload: header, ECRC, sequence number, LCRC, framing",
            [](const E &e) { return e.delta(&S::up, &C::overhead_bytes); }),
    D::stat("pcie.down.overhead_bytes", "B", Kind::Count, "TLP non-payload bytes host to device",
            [](const E &e) { return e.delta(&S::down, &C::overhead_bytes); }),
    D::stat("pcie.up.dllp_bytes", "B", Kind::Count, "Ack and UpdateFC DLLP wire bytes device to host",
            [](const E &e) { return e.delta(&S::up, &C::dllp_bytes); }),
    D::stat("pcie.down.dllp_bytes", "B", Kind::Count, "Ack and UpdateFC DLLP wire bytes host to device",
            [](const E &e) { return e.delta(&S::down, &C::dllp_bytes); }),
    D::stat("pcie.up.skp_bytes", "B", Kind::Count, "SKP ordered-set bytes (all lanes) device to host",
            [](const E &e) { return e.delta(&S::up, &C::skp_bytes); }),
    D::stat("pcie.down.skp_bytes", "B", Kind::Count, "SKP ordered-set bytes (all lanes) host to device",
            [](const E &e) { return e.delta(&S::down, &C::skp_bytes); }),
    D::stat("pcie.up.ro_tlps", "TLPs", Kind::Count,
            "Device-to-host MWr TLPs carrying the Relaxed Ordering attribute (DMA_ATTR_WEAK_ORDERING mappings)",
            [](const E &e) { return e.delta(&S::up, &C::ro_tlps); }),
    D::stat("pcie.up.credit_stalls", "TLPs", Kind::Count,
            "Device-to-host TLPs that waited for the root port's flow-control credits",
            [](const E &e) { return e.delta(&S::up, &C::credit_stalls); }),
    D::stat("pcie.up.credit_stall_ns", "ns", Kind::Real, "Total time device-to-host TLPs waited for flow-control credits",
            [](const E &e) { return e.delta(&S::up, &C::credit_stall_ps) / 1000.0; }),
    D::stat("pcie.tag_stalls", "MRds", Kind::Count, "Device read requests that waited for a free tag",
            [](const E &e) { return e.delta(&S::rd, &PcieReadStats::tag_stalls); }),
    /* The link restarts the maximum at the window's start (PcieLink::add_stats). */
    D::stat("pcie.rd_outstanding_max", "MRds", Kind::Count,
            "Most device read requests (tags) outstanding at once in the window",
            [](const E &e) { return static_cast<double>(e.b.rd.outstanding_max); }),
    D::stat("pcie.rd_outstanding_mean", "MRds", Kind::Real,
            "Time-averaged device read requests (tags) outstanding in the window",
            [](const E &e) { return (e.b.rd.outstanding_area - e.a.rd.outstanding_area) / e.run.win_ps; }),
    D::stat("pcie.rd_latency_ns", "ns", Kind::Real,
            "Mean device read latency per MRd: from the MRd entering the link to its last CplD arriving",
            [](const E &e) { return e.b.rd.latency.mean_ps_since(e.a.rd.latency) / 1000.0; }),
    D::stat("pcie.rd_latency_ns.p50", "ns", Kind::Real, "Median device read latency per MRd (within 1/128)",
            [](const E &e) { return e.b.rd.latency.quantile_ps_since(e.a.rd.latency, 0.5) / 1000.0; }),
    D::stat("pcie.rd_latency_ns.p99", "ns", Kind::Real, "99th percentile device read latency per MRd (within 1/128)",
            [](const E &e) { return e.b.rd.latency.quantile_ps_since(e.a.rd.latency, 0.99) / 1000.0; }),
    /* The root complex (pcie.rc_*): reported only with a serialising root complex that was busy. */
    D::extra("pcie.rc_util", "fraction", Kind::Real,
             "Serialising root complex (pcie.rc_serialize_writes): busy fraction of its commit chain, strongly "
             "ordered write lines one after another",
             [](const E &e) { return e.delta(&S::up, &C::rc_busy_ps) / e.run.win_ps; },
             [](const E &e) { return e.b.up.rc_busy_ps > 0; }),
    D::extra("pcie.rc.partial_line_writes", "lines", Kind::Count,
             "Cache lines that device posted writes covered only in part (a read-for-ownership and merge at the root "
             "complex each, pcie.rc_partial_write_ns)",
             stats::delta<&S::partial_lines>),
    D::extra("pcie.rc.cold_reads", "requests", Kind::Count,
             "Device read requests that missed the last-level cache (pcie.rc_cold_read_ns each)",
             stats::delta<&S::cold_reads>),
};

}  // namespace

namespace {
using PD = stats::Decl<PcieDirs>;
using PE = stats::Edges<PcieDirs>;
using C = PcieDirCounters;
using stats::Kind;

/* Each purpose's count of field m in both directions, named pcie.<dir>.<purpose>.<what>. */
void by_purpose(const PE &e, stats::FamilyOut &out, uint64_t (C::*m)[kDmaPurposes], const char *what,
                const char *desc_what) {
  char name[96], desc[160];
  for (size_t p = 0; p < kDmaPurposes; p++) {
    const char *pn = dma_purpose_name(static_cast<DmaPurpose>(p));
    const struct {
      const char *dir, *text;
      const C &x, &y;
    } dirs[2] = {{"up", "device to host", e.a.up, e.b.up}, {"down", "host to device", e.a.down, e.b.down}};
    for (const auto &d : dirs) {
      std::snprintf(name, sizeof name, "pcie.%s.%s.%s", d.dir, pn, what);
      std::snprintf(desc, sizeof desc, "%s %s for purpose %s", desc_what, d.text, pn);
      out.add(name, desc, static_cast<double>((d.y.*m)[p] - (d.x.*m)[p]));
    }
  }
}

const PD kPurposeDecls[] = {
    PD::family("pcie.<up|down>.<purpose>.tlps", "TLPs", Kind::Count,
              "TLPs in that direction, by what they carried: `data`, `desc_fetch`, `desc_writeback`, `msi`, `mmio` "
              "or `other`.",
              [](const PE &e, stats::FamilyOut &out) { by_purpose(e, out, &C::purpose_tlps, "tlps", "TLPs"); }),
    PD::family("pcie.<up|down>.<purpose>.bytes", "B", Kind::Count,
              "Wire bytes of those TLPs (payload, header, DLL and framing overhead).",
              [](const PE &e, stats::FamilyOut &out) {
                by_purpose(e, out, &C::purpose_wire_bytes, "bytes", "Wire bytes");
              }),
};
}  // namespace

const stats::Table<PcieSnapshot> kPcieStats = stats::table("pcie", kDecls);
const stats::Table<PcieDirs> kPciePurposeStats = stats::table("pcie", kPurposeDecls);

}  // namespace nicsim
