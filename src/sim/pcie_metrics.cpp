// pcie_metrics.cpp: the pcie.* (or, on the on-chip bus, bus.*) and dma.* metrics of a measurement window.
#include "sim/pcie_metrics.h"

#include <cstdio>

namespace nicsim {

void pcie_snapshot(const PcieLink &link, PcieSnapshot &s) {
  s.up = link.up_counters();
  s.down = link.down_counters();
  link.read_stats(s.rd);
  s.partial_lines = link.partial_line_writes();
  s.cold_reads = link.cold_reads();
}

void fill_pcie_metrics(nicsim_results *res, const PcieSnapshot &a, const PcieSnapshot &b, double win_ps) {
  auto d = [](uint64_t y, uint64_t x) { return static_cast<double>(y - x); };
  nicsim_results_set(res, NM_PCIE_UP_TLPS, d(b.up.tlps, a.up.tlps));
  nicsim_results_set(res, NM_PCIE_DOWN_TLPS, d(b.down.tlps, a.down.tlps));
  nicsim_results_set(res, NM_PCIE_UP_BYTES, d(b.up.wire_bytes, a.up.wire_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_BYTES, d(b.down.wire_bytes, a.down.wire_bytes));
  nicsim_results_set(res, NM_PCIE_UP_PAYLOAD_BYTES, d(b.up.payload_bytes, a.up.payload_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_PAYLOAD_BYTES, d(b.down.payload_bytes, a.down.payload_bytes));
  nicsim_results_set(res, NM_PCIE_UP_UTIL, d(b.up.busy_ps, a.up.busy_ps) / win_ps);
  nicsim_results_set(res, NM_PCIE_DOWN_UTIL, d(b.down.busy_ps, a.down.busy_ps) / win_ps);
  if (b.up.rc_busy_ps > 0)
    nicsim_results_set_extra(res, "pcie.rc_util", "fraction", NM_KIND_REAL,
                             "Serialising root complex (pcie.rc_serialize_writes): busy fraction of its commit chain, strongly ordered write lines one after another",
                             d(b.up.rc_busy_ps, a.up.rc_busy_ps) / win_ps);
  nicsim_results_set(res, NM_PCIE_UP_OVERHEAD_BYTES, d(b.up.overhead_bytes, a.up.overhead_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_OVERHEAD_BYTES, d(b.down.overhead_bytes, a.down.overhead_bytes));
  nicsim_results_set(res, NM_PCIE_UP_DLLP_BYTES, d(b.up.dllp_bytes, a.up.dllp_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_DLLP_BYTES, d(b.down.dllp_bytes, a.down.dllp_bytes));
  nicsim_results_set(res, NM_PCIE_UP_SKP_BYTES, d(b.up.skp_bytes, a.up.skp_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_SKP_BYTES, d(b.down.skp_bytes, a.down.skp_bytes));
  nicsim_results_set(res, NM_PCIE_UP_CREDIT_STALLS, d(b.up.credit_stalls, a.up.credit_stalls));
  nicsim_results_set(res, NM_PCIE_UP_RO_TLPS, d(b.up.ro_tlps, a.up.ro_tlps));
  nicsim_results_set(res, NM_PCIE_UP_CREDIT_STALL_NS, d(b.up.credit_stall_ps, a.up.credit_stall_ps) / 1000.0);
  nicsim_results_set(res, NM_PCIE_TAG_STALLS, d(b.rd.tag_stalls, a.rd.tag_stalls));
  nicsim_results_set(res, NM_PCIE_RD_OUTSTANDING_MAX, static_cast<double>(b.rd.outstanding_max));
  nicsim_results_set(res, NM_PCIE_RD_OUTSTANDING_MEAN, (b.rd.outstanding_area - a.rd.outstanding_area) / win_ps);
  nicsim_results_set(res, NM_PCIE_RD_LATENCY_NS, b.rd.latency.mean_ps_since(a.rd.latency) / 1000.0);
  nicsim_results_set(res, NM_PCIE_RD_LATENCY_NS_P50, b.rd.latency.quantile_ps_since(a.rd.latency, 0.5) / 1000.0);
  nicsim_results_set(res, NM_PCIE_RD_LATENCY_NS_P99, b.rd.latency.quantile_ps_since(a.rd.latency, 0.99) / 1000.0);
  nicsim_results_set(res, NM_DMA_GBPS, d(b.rd.dma_bytes, a.rd.dma_bytes) * 8.0 / (win_ps / 1000.0));
  nicsim_results_set(res, NM_DMA_RD_LATENCY_NS, b.rd.dma_rd_latency.mean_ps_since(a.rd.dma_rd_latency) / 1000.0);
  nicsim_results_set(res, NM_DMA_RD_LATENCY_NS_P99,
                     b.rd.dma_rd_latency.quantile_ps_since(a.rd.dma_rd_latency, 0.99) / 1000.0);
  nicsim_results_set_extra(res, "pcie.rc.partial_line_writes", "lines", NM_KIND_COUNT,
                           "Cache lines that device posted writes covered only in part (a read-for-ownership and merge "
                           "at the root complex each, pcie.rc_partial_write_ns)",
                           d(b.partial_lines, a.partial_lines));
  nicsim_results_set_extra(res, "pcie.rc.cold_reads", "requests", NM_KIND_COUNT,
                           "Device read requests that missed the last-level cache (pcie.rc_cold_read_ns each)",
                           d(b.cold_reads, a.cold_reads));
}

void fill_bus_metrics(nicsim_results *res, const AxiCounters &a, const AxiCounters &b, double win_ps) {
  auto d = [](uint64_t y, uint64_t x) { return static_cast<double>(y - x); };
  nicsim_results_set(res, NM_DMA_GBPS, d(b.dma_bytes, a.dma_bytes) * 8.0 / (win_ps / 1000.0));
  nicsim_results_set(res, NM_DMA_RD_LATENCY_NS, b.dma_rd_latency.mean_ps_since(a.dma_rd_latency) / 1000.0);
  nicsim_results_set(res, NM_DMA_RD_LATENCY_NS_P99, b.dma_rd_latency.quantile_ps_since(a.dma_rd_latency, 0.99) / 1000.0);
  /* The bus's own figures, as extras (named as in a dma-bench bus run, src/sim/dma_bench_top.cpp). */
  nicsim_results_set_extra(res, "bus.rd_util", "fraction", NM_KIND_REAL, "Busy fraction of the bus's read-data channel",
                           d(b.rd_busy_ps, a.rd_busy_ps) / win_ps);
  nicsim_results_set_extra(res, "bus.wr_util", "fraction", NM_KIND_REAL, "Busy fraction of the bus's write-data channel",
                           d(b.wr_busy_ps, a.wr_busy_ps) / win_ps);
  nicsim_results_set_extra(res, "bus.bursts", "bursts", NM_KIND_COUNT, "Read and write bursts on the bus",
                           d(b.rd_bursts + b.wr_bursts, a.rd_bursts + a.wr_bursts));
  nicsim_results_set_extra(res, "bus.slot_stalls", "bursts", NM_KIND_COUNT,
                           "Bursts that waited for an outstanding-transaction slot", d(b.slot_stalls, a.slot_stalls));
  nicsim_results_set_extra(res, "bus.irqs", "interrupts", NM_KIND_COUNT,
                           "Wired interrupts the device asserted (no bus transfer)", d(b.irqs, a.irqs));
  char name[96];
  char desc[160];
  for (size_t p = 0; p < kDmaPurposes; p++) {
    const char *pn = dma_purpose_name(static_cast<DmaPurpose>(p));
    std::snprintf(name, sizeof name, "bus.%s.bursts", pn);
    std::snprintf(desc, sizeof desc, "Bursts on the bus for purpose %s", pn);
    nicsim_results_set_extra(res, name, "bursts", NM_KIND_COUNT, desc, d(b.purpose_bursts[p], a.purpose_bursts[p]));
    std::snprintf(name, sizeof name, "bus.%s.bytes", pn);
    std::snprintf(desc, sizeof desc, "Data bytes on the bus for purpose %s", pn);
    nicsim_results_set_extra(res, name, "B", NM_KIND_COUNT, desc, d(b.purpose_bytes[p], a.purpose_bytes[p]));
  }
}

}  // namespace nicsim
