// pcie_metrics.cpp: the pcie.* metrics of a measurement window.
#include "sim/pcie_metrics.h"

namespace nicsim {

void pcie_snapshot(const PcieLink &link, PcieSnapshot &s) {
  s.up = link.up_counters();
  s.down = link.down_counters();
  link.read_stats(s.rd);
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
  nicsim_results_set(res, NM_PCIE_UP_OVERHEAD_BYTES, d(b.up.overhead_bytes, a.up.overhead_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_OVERHEAD_BYTES, d(b.down.overhead_bytes, a.down.overhead_bytes));
  nicsim_results_set(res, NM_PCIE_UP_DLLP_BYTES, d(b.up.dllp_bytes, a.up.dllp_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_DLLP_BYTES, d(b.down.dllp_bytes, a.down.dllp_bytes));
  nicsim_results_set(res, NM_PCIE_UP_SKP_BYTES, d(b.up.skp_bytes, a.up.skp_bytes));
  nicsim_results_set(res, NM_PCIE_DOWN_SKP_BYTES, d(b.down.skp_bytes, a.down.skp_bytes));
  nicsim_results_set(res, NM_PCIE_UP_CREDIT_STALLS, d(b.up.credit_stalls, a.up.credit_stalls));
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
}

}  // namespace nicsim
