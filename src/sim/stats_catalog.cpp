// stats_catalog.cpp: the catalogue of every statistic, from the models' and the top's tables; its C view for src/results.
#include "sim/stats_catalog.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bus/axi_stats.h"
#include "common/dma_path_stats.h"
#include "cpu/cpu_stats.h"
#include "dma/dma_stats.h"
#include "mac/mac_stats.h"
#include "memory/memory_stats.h"
#include "nic/nic_stats.h"
#include "pcie/pcie_stats.h"
#include "results/metrics.h"
#include "sim/top_stats.h"
#include "traffic/wire_peer_stats.h"

namespace nicsim {

namespace {

const stats::TableView kTables[] = {
    kCpuStats,     kNicStats,  kWirePeerStats, kMacStats,  kDmaStats,   kPcieStats,   kPciePurposeStats,
    kDmaPathStats, kAxiStats,  kAxiDeviceStats, kDramStats, kIommuStats, kSystemStats, kRunStats,
};

/* The CSV columns as they were before the statistics moved into the models
 * (issue 22): kept in this order so that results files keep their layout.
 * Columns declared since follow them in table order; nothing else needs
 * listing here. */
const char *const kColumnOrder[] = {
    "rx.gbps", "rx.mpps", "rx.goodput_gbps", "rx.delivered_gbps", "rx.pkts", "rx.drops", "rx.drops_fifo", "rx.drops_nodesc", "tx.gbps",
    "tx.mpps", "tx.pkts", "cpu.util", "cpu.busy_cycles", "cpu.cycles_per_rx_pkt", "cpu.cycles_per_tx_pkt",
    "cpu.irq_cycles", "cpu.uncached_loads", "cpu.uncached_stores", "cpu.mmio_reads", "cpu.mmio_writes",
    "cpu.cache_misses", "cpu.cache_maint_lines", "cpu.memcpy_bytes.aligned", "cpu.memcpy_bytes.misaligned",
    "cpu.irqs", "cpu.wc_stores", "cpu.wc_flushes", "mem.dram_busy_frac", "mem.dram_wait_ns", "mem.dram_bytes",
    "iommu.iotlb_hits", "iommu.iotlb_misses", "iommu.maps", "iommu.unmaps", "irq.latency_ns", "irq.latency_ns_max",
    "pcie.up.tlps", "pcie.down.tlps", "pcie.up.bytes", "pcie.down.bytes", "pcie.up.payload_bytes",
    "pcie.down.payload_bytes", "pcie.up.util", "pcie.down.util", "pcie.up.overhead_bytes", "pcie.down.overhead_bytes",
    "pcie.up.dllp_bytes", "pcie.down.dllp_bytes", "pcie.up.skp_bytes", "pcie.down.skp_bytes", "pcie.up.ro_tlps",
    "pcie.up.credit_stalls", "pcie.up.credit_stall_ns", "pcie.tag_stalls", "pcie.rd_outstanding_max",
    "pcie.rd_outstanding_mean", "pcie.rd_latency_ns", "pcie.rd_latency_ns.p50", "pcie.rd_latency_ns.p99", "dma.gbps",
    "dma.rd_latency_ns", "dma.rd_latency_ns.p99", "nic.desc_fetch_reqs", "nic.desc_fetched",
    "nic.desc_fetch_reqs_per_pkt", "nic.desc_writebacks", "nic.data_read_bytes", "nic.data_write_bytes",
    "nic.rx_ring_occupancy", "nic.tx_ring_occupancy", "nic.rx_ring_occupancy_max", "nic.tx_ring_occupancy_max",
    "nic.rx_read_grants", "nic.tx_read_grants", "nic.pause_frames", "irq.count", "irq.per_sec", "irq.suppressed",
    "irq.throttled", "tcp.acks", "tx.sndbuf_waits", "tx.wmem_max", "tx.bql_stops", "tx.bql_limit_max",
    "tcp.retransmits", "tcp.inflight_max", "gro.merged", "gro.flushes", "total.rx.sent", "total.rx.received",
    "total.rx.dropped", "total.tx.sent", "total.tx.received", "sim.time_ns", "sim.events", "sim.wall_s",
};

static_assert(static_cast<int>(stats::Kind::Count) == NM_KIND_COUNT && static_cast<int>(stats::Kind::Real) == NM_KIND_REAL &&
                  static_cast<int>(stats::Kind::Wall) == NM_KIND_WALL,
              "stats::Kind and nicsim_metric_kind agree");

nicsim_metric_def def_of(const stats::Info &i) {
  return nicsim_metric_def{i.name, i.unit, i.desc, static_cast<nicsim_metric_kind>(i.kind)};
}

[[noreturn]] void broken(const std::string &what) {
  std::fprintf(stderr, "nicsim: the statistics catalogue is inconsistent: %s\n", what.c_str());
  std::abort();
}

/* The columns and the extras, built once from the tables. */
struct Catalog {
  std::vector<nicsim_metric_def> columns;
  std::vector<nicsim_metric_def> extras;
  Catalog() {
    std::vector<const stats::Info *> all, cols;
    for (const stats::TableView &t : kTables)
      for (size_t i = 0; i < t.size(); i++) {
        const stats::Info &info = t.at(i);
        for (const stats::Info *c : all)
          if (std::strcmp(c->name, info.name) == 0) broken(std::string("two declarations of ") + info.name);
        all.push_back(&info);
        if (info.extra) {
          extras.push_back(def_of(info));
        } else {
          cols.push_back(&info);
        }
      }
    std::vector<bool> used(cols.size(), false);
    for (const char *name : kColumnOrder) {
      size_t k = 0;
      while (k < cols.size() && std::strcmp(cols[k]->name, name) != 0) k++;
      if (k == cols.size()) broken(std::string("no table declares the column ") + name);
      columns.push_back(def_of(*cols[k]));
      used[k] = true;
    }
    for (size_t k = 0; k < cols.size(); k++)
      if (!used[k]) columns.push_back(def_of(*cols[k]));
    if (columns.size() > NICSIM_MAX_METRICS) broken("more columns than NICSIM_MAX_METRICS");
  }
};

const Catalog &catalog() {
  static const Catalog c;
  return c;
}

}  // namespace

const stats::TableView *stats_tables(size_t *n) {
  *n = sizeof kTables / sizeof kTables[0];
  return kTables;
}

}  // namespace nicsim

extern "C" size_t nicsim_metric_count(void) { return nicsim::catalog().columns.size(); }
extern "C" const struct nicsim_metric_def *nicsim_metric_defs(void) { return nicsim::catalog().columns.data(); }
extern "C" size_t nicsim_metric_extra_count(void) { return nicsim::catalog().extras.size(); }
extern "C" const struct nicsim_metric_def *nicsim_metric_extra_defs(void) {
  return nicsim::catalog().extras.data();
}

extern "C" bool nicsim_metric_is_extra_name(const char *name) {
  if (!name) return false;
  for (const nicsim_metric_def &d : nicsim::catalog().extras)
    if (nicsim::stats::pattern_matches(d.name, name)) return true;
  return false;
}
