/*
 * metrics.h: every metric a run reports, declared once with name, unit, kind
 * and meaning. Writers (JSON, CSV, the human table, docs/metrics.md) walk this
 * list, so no metric is listed twice. Counters cover the measurement window
 * [run.warmup_us, run.duration_us] unless the description says otherwise.
 *
 * X(ID, "dotted.name", "unit", KIND, "description")
 * KIND: COUNT (an exact integer), REAL. WALL marks the one figure that is not
 * a function of config and seed (sim.wall_s); everything else is bit-identical
 * across runs.
 */
#ifndef NICSIM_RESULTS_METRICS_H
#define NICSIM_RESULTS_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NICSIM_METRICS(X)                                                                          \
  X(RX_GBPS, "rx.gbps", "Gbit/s", REAL,                                                            \
    "Ethernet frame bits (FCS included, preamble and IFG excluded) of frames sent in the window and delivered to the host stack, per second") \
  X(RX_MPPS, "rx.mpps", "Mpkt/s", REAL, "rx.pkts per second of window, in millions")           \
  X(RX_GOODPUT_GBPS, "rx.goodput_gbps", "Gbit/s", REAL,                                            \
    "Payload bits (UDP or TCP payload, no headers) of data frames the host stack received during the window, per second, whenever they were sent: what iperf reports; below rx.gbps when a backlog grows") \
  X(RX_DELIVERED_GBPS, "rx.delivered_gbps", "Gbit/s", REAL,                                        \
    "Frame bits (FCS included) of the data frames counted by rx.goodput_gbps, per second: the delivery-time counterpart of rx.gbps") \
  X(RX_PKTS, "rx.pkts", "frames", COUNT,                                                           \
    "Frames sent in the window and delivered to the host stack (possibly during the drain); with rx.drops they add up to the frames offered in the window") \
  X(RX_DROPS, "rx.drops", "frames", COUNT, "Frames the NIC dropped (FIFO overflow, no descriptor)") \
  X(RX_DROPS_FIFO, "rx.drops_fifo", "frames", COUNT, "Frames the NIC dropped because the MAC RX FIFO was full") \
  X(RX_DROPS_NODESC, "rx.drops_nodesc", "frames", COUNT, "Frames the NIC dropped for want of an RX descriptor") \
  X(TX_GBPS, "tx.gbps", "Gbit/s", REAL,                                                            \
    "Ethernet frame bits (FCS included, preamble and IFG excluded) the MAC put on the wire per second") \
  X(TX_MPPS, "tx.mpps", "Mpkt/s", REAL, "Frames the MAC put on the wire per second, in millions") \
  X(TX_PKTS, "tx.pkts", "frames", COUNT, "Frames the MAC put on the wire")                        \
  X(CPU_UTIL, "cpu.util", "fraction", REAL, "Busy fraction of the CPU, averaged over cpu.cores") \
  X(CPU_BUSY_CYCLES, "cpu.busy_cycles", "cycles", COUNT,                                         \
    "CPU cycles spent on driver, IRQ and stack work (all cores)")                                \
  X(CPU_CYCLES_PER_RX_PKT, "cpu.cycles_per_rx_pkt", "cycles", REAL,                              \
    "CPU cycles in RX context (RX poll, refill, RX stack) per delivered frame")                   \
  X(CPU_CYCLES_PER_TX_PKT, "cpu.cycles_per_tx_pkt", "cycles", REAL,                              \
    "CPU cycles in TX context (xmit, TX clean, TX stack) per transmitted frame")                   \
  X(CPU_IRQ_CYCLES, "cpu.irq_cycles", "cycles", COUNT,                                            \
    "CPU cycles in hard-IRQ entry/exit, IRQ handlers and softirq overhead")                       \
  X(CPU_UNCACHED_LOADS, "cpu.uncached_loads", "loads", COUNT, "CPU loads from uncached memory")  \
  X(CPU_UNCACHED_STORES, "cpu.uncached_stores", "stores", COUNT, "CPU stores to uncached memory") \
  X(CPU_MMIO_READS, "cpu.mmio_reads", "reads", COUNT, "Device register reads (readl)")           \
  X(CPU_MMIO_WRITES, "cpu.mmio_writes", "writes", COUNT, "Device register writes (writel)")      \
  X(CPU_CACHE_MISSES, "cpu.cache_misses", "accesses", COUNT,                                     \
    "CPU loads and stores to cacheable memory that missed the data cache (loads stall for DRAM)") \
  X(CPU_CACHE_MAINT_LINES, "cpu.cache_maint_lines", "lines", COUNT,                               \
    "Cache lines cleaned or invalidated for non-coherent DMA (dma_map/unmap/sync)")               \
  X(CPU_MEMCPY_BYTES_ALIGNED, "cpu.memcpy_bytes.aligned", "B", COUNT,                             \
    "Bytes copied by memcpy with (dst ^ src) & 7 == 0")                                           \
  X(CPU_MEMCPY_BYTES_MISALIGNED, "cpu.memcpy_bytes.misaligned", "B", COUNT,                       \
    "Bytes copied by memcpy with (dst ^ src) & 7 != 0")                                           \
  X(CPU_IRQS, "cpu.irqs", "interrupts", COUNT, "Interrupt vectors the CPU took (hard-IRQ entries)") \
  X(CPU_WC_STORES, "cpu.wc_stores", "stores", COUNT,                                              \
    "CPU stores to write-combining memory (dma_alloc_wc on a non-coherent platform), merged in the WC buffers") \
  X(CPU_WC_FLUSHES, "cpu.wc_flushes", "bursts", COUNT,                                            \
    "Write-combining bursts that left the core: a full line, an evicted buffer, or a flush by a barrier or uncached access") \
  X(MEM_DRAM_BUSY_FRAC, "mem.dram_busy_frac", "fraction", REAL,                                   \
    "Fraction of the window the DRAM channel was busy moving DMA and CPU bytes (0 with memory.dram_bw_gbps 0: unlimited)") \
  X(MEM_DRAM_WAIT_NS, "mem.dram_wait_ns", "ns", REAL,                                             \
    "Mean time a DRAM access (DMA, CPU miss, uncached access, WC burst, memcpy stream, page walk) waited for the busy channel") \
  X(MEM_DRAM_BYTES, "mem.dram_bytes", "B", COUNT,                                                 \
    "Bytes the DRAM channel moved (counted only with a bandwidth limit, memory.dram_bw_gbps > 0)") \
  X(IOMMU_IOTLB_HITS, "iommu.iotlb_hits", "lookups", COUNT,                                       \
    "IOTLB lookups (one per 4 KiB page a DMA access touches) that hit (iommu.enabled)")          \
  X(IOMMU_IOTLB_MISSES, "iommu.iotlb_misses", "lookups", COUNT,                                   \
    "IOTLB lookups that missed and walked the page table (iommu.walk_levels DRAM reads each)")   \
  X(IOMMU_MAPS, "iommu.maps", "mappings", COUNT, "IOMMU mappings the DMA API created (iommu.enabled)") \
  X(IOMMU_UNMAPS, "iommu.unmaps", "mappings", COUNT,                                              \
    "IOMMU mappings the DMA API removed, each invalidating its IOTLB entries (strict mode)")       \
  X(IRQ_LATENCY_NS, "irq.latency_ns", "ns", REAL,                                                 \
    "Mean time from an MSI reaching host memory to the kernel taking it (0 with no interrupts)")  \
  X(IRQ_LATENCY_NS_MAX, "irq.latency_ns_max", "ns", REAL,                                         \
    "Longest time from an MSI reaching host memory to the kernel taking it")                      \
  X(PCIE_UP_TLPS, "pcie.up.tlps", "TLPs", COUNT, "TLPs from device to host (MWr, MRd, CplD, MSI)") \
  X(PCIE_DOWN_TLPS, "pcie.down.tlps", "TLPs", COUNT, "TLPs from host to device (CplD, MMIO MWr/MRd)") \
  X(PCIE_UP_BYTES, "pcie.up.bytes", "B", COUNT,                                                   \
    "Wire bytes device to host: payload, TLP header, DLL and framing overhead")                   \
  X(PCIE_DOWN_BYTES, "pcie.down.bytes", "B", COUNT, "Wire bytes host to device")                 \
  X(PCIE_UP_PAYLOAD_BYTES, "pcie.up.payload_bytes", "B", COUNT, "TLP data payload bytes, device to host") \
  X(PCIE_DOWN_PAYLOAD_BYTES, "pcie.down.payload_bytes", "B", COUNT, "TLP data payload bytes, host to device") \
  X(PCIE_UP_UTIL, "pcie.up.util", "fraction", REAL, "Busy fraction of the device-to-host direction") \
  X(PCIE_DOWN_UTIL, "pcie.down.util", "fraction", REAL, "Busy fraction of the host-to-device direction") \
  X(PCIE_UP_OVERHEAD_BYTES, "pcie.up.overhead_bytes", "B", COUNT,                                 \
    "TLP bytes device to host that are not payload: header, ECRC, sequence number, LCRC, framing") \
  X(PCIE_DOWN_OVERHEAD_BYTES, "pcie.down.overhead_bytes", "B", COUNT, "TLP non-payload bytes host to device") \
  X(PCIE_UP_DLLP_BYTES, "pcie.up.dllp_bytes", "B", COUNT, "Ack and UpdateFC DLLP wire bytes device to host") \
  X(PCIE_DOWN_DLLP_BYTES, "pcie.down.dllp_bytes", "B", COUNT, "Ack and UpdateFC DLLP wire bytes host to device") \
  X(PCIE_UP_SKP_BYTES, "pcie.up.skp_bytes", "B", COUNT, "SKP ordered-set bytes (all lanes) device to host") \
  X(PCIE_DOWN_SKP_BYTES, "pcie.down.skp_bytes", "B", COUNT, "SKP ordered-set bytes (all lanes) host to device") \
  X(PCIE_UP_RO_TLPS, "pcie.up.ro_tlps", "TLPs", COUNT,                                            \
    "Device-to-host MWr TLPs carrying the Relaxed Ordering attribute (DMA_ATTR_WEAK_ORDERING mappings)") \
  X(PCIE_UP_CREDIT_STALLS, "pcie.up.credit_stalls", "TLPs", COUNT,                                \
    "Device-to-host TLPs that waited for the root port's flow-control credits")                   \
  X(PCIE_UP_CREDIT_STALL_NS, "pcie.up.credit_stall_ns", "ns", REAL,                               \
    "Total time device-to-host TLPs waited for flow-control credits")                              \
  X(PCIE_TAG_STALLS, "pcie.tag_stalls", "MRds", COUNT, "Device read requests that waited for a free tag") \
  X(PCIE_RD_OUTSTANDING_MAX, "pcie.rd_outstanding_max", "MRds", COUNT,                            \
    "Most device read requests (tags) outstanding at once in the window")                          \
  X(PCIE_RD_OUTSTANDING_MEAN, "pcie.rd_outstanding_mean", "MRds", REAL,                           \
    "Time-averaged device read requests (tags) outstanding in the window")                         \
  X(PCIE_RD_LATENCY_NS, "pcie.rd_latency_ns", "ns", REAL,                                         \
    "Mean device read latency per MRd: from the MRd entering the link to its last CplD arriving")  \
  X(PCIE_RD_LATENCY_NS_P50, "pcie.rd_latency_ns.p50", "ns", REAL, "Median device read latency per MRd (within 1/128)") \
  X(PCIE_RD_LATENCY_NS_P99, "pcie.rd_latency_ns.p99", "ns", REAL, "99th percentile device read latency per MRd (within 1/128)") \
  X(DMA_GBPS, "dma.gbps", "Gbit/s", REAL, "Payload bits of the device's DMA requests (reads, writes, MSIs) completed in the window per second") \
  X(DMA_RD_LATENCY_NS, "dma.rd_latency_ns", "ns", REAL,                                           \
    "Mean device DMA read latency per request, from handing it to the link to its last byte back")                 \
  X(DMA_RD_LATENCY_NS_P99, "dma.rd_latency_ns.p99", "ns", REAL,                                   \
    "99th percentile device DMA read latency per request (within 1/128)")                          \
  X(NIC_DESC_FETCH_REQS, "nic.desc_fetch_reqs", "requests", COUNT, "Descriptor read requests (RX and TX)") \
  X(NIC_DESC_FETCHED, "nic.desc_fetched", "descriptors", COUNT, "Descriptors fetched (RX and TX)") \
  X(NIC_DESC_FETCH_REQS_PER_PKT, "nic.desc_fetch_reqs_per_pkt", "requests", REAL,                \
    "Descriptor read requests per frame (RX plus TX frames)")                                      \
  X(NIC_DESC_WRITEBACKS, "nic.desc_writebacks", "writes", COUNT, "Descriptor status write-back requests") \
  X(NIC_DATA_READ_BYTES, "nic.data_read_bytes", "B", COUNT, "TX frame bytes the DMA engine read from host memory") \
  X(NIC_DATA_WRITE_BYTES, "nic.data_write_bytes", "B", COUNT, "RX frame bytes the DMA engine wrote to host memory") \
  X(NIC_RX_RING_OCCUPANCY, "nic.rx_ring_occupancy", "descriptors", REAL,                        \
    "Time-averaged RX descriptors owned by the device (queue 0)")                                 \
  X(NIC_TX_RING_OCCUPANCY, "nic.tx_ring_occupancy", "descriptors", REAL,                        \
    "Time-averaged TX descriptors owned by the device (queue 0)")                                 \
  X(NIC_RX_RING_OCCUPANCY_MAX, "nic.rx_ring_occupancy_max", "descriptors", COUNT,               \
    "Whole run: most RX descriptors the device owned at once (queue 0)")                          \
  X(NIC_TX_RING_OCCUPANCY_MAX, "nic.tx_ring_occupancy_max", "descriptors", COUNT,               \
    "Whole run: most TX descriptors the device owned at once (queue 0)")                          \
  X(NIC_RX_READ_GRANTS, "nic.rx_read_grants", "requests", COUNT, "Read tags the arbiter granted to the RX channel") \
  X(NIC_TX_READ_GRANTS, "nic.tx_read_grants", "requests", COUNT, "Read tags the arbiter granted to the TX channel") \
  X(NIC_PAUSE_FRAMES, "nic.pause_frames", "frames", COUNT,                                       \
    "IEEE 802.3x PAUSE frames the MAC sent (XOFF, refreshes and XON; nic.pause_enable)")          \
  X(IRQ_COUNT, "irq.count", "interrupts", COUNT, "Interrupts (MSI) the NIC raised")             \
  X(IRQ_PER_SEC, "irq.per_sec", "1/s", REAL, "Interrupts per second of simulated time")          \
  X(IRQ_SUPPRESSED, "irq.suppressed", "interrupts", COUNT,                                        \
    "Moderation conditions met while masked, folded into a later interrupt")                      \
  X(IRQ_THROTTLED, "irq.throttled", "interrupts", COUNT,                                          \
    "Interrupts merged into one deferred by ITR throttling (nic.irq_itr_usecs)")                  \
  X(TCP_ACKS, "tcp.acks", "frames", COUNT,                                                        \
    "traffic.protocol tcp: ACK frames sent by the host and the wire peer")                          \
  X(TX_SNDBUF_WAITS, "tx.sndbuf_waits", "waits", COUNT,                                          \
    "Times the host's UDP sender slept on its full socket send buffer (traffic.sndbuf_bytes)")    \
  X(TX_WMEM_MAX, "tx.wmem_max", "B", COUNT,                                                       \
    "Most skb memory (truesize) the host's sending socket held at once over the run: frames not yet freed by TX completion") \
  X(TX_BQL_STOPS, "tx.bql_stops", "stops", COUNT,                                                 \
    "Times byte queue limits stopped a TX queue in the window (driver.bql; drivers that call it)")  \
  X(TX_BQL_LIMIT_MAX, "tx.bql_limit_max", "B", COUNT,                                             \
    "Largest BQL limit a TX queue reached over the run (driver.bql): the bytes in flight the completions called for") \
  X(TCP_RETRANSMITS, "tcp.retransmits", "frames", COUNT,                                          \
    "traffic.protocol tcp: data segments sent again (go-back-N after a duplicate ACK or an RTO)")   \
  X(TCP_INFLIGHT_MAX, "tcp.inflight_max", "B", COUNT,                                             \
    "traffic.protocol tcp, whole run: most unacknowledged payload bytes one flow had (peer's RX flows, host's TX flow)") \
  X(GRO_MERGED, "gro.merged", "segments", COUNT,                                                  \
    "traffic.protocol tcp: received segments GRO appended to a held packet of their flow")         \
  X(GRO_FLUSHES, "gro.flushes", "packets", COUNT,                                                  \
    "traffic.protocol tcp: packets GRO handed to the stack (each through the receive parts once)")           \
  X(TOTAL_RX_SENT, "total.rx.sent", "frames", COUNT, "Whole run: frames the wire peer sent to the NIC") \
  X(TOTAL_RX_RECEIVED, "total.rx.received", "frames", COUNT, "Whole run: frames the host received intact (tcp: also those its TCP receiver discarded)") \
  X(TOTAL_RX_DROPPED, "total.rx.dropped", "frames", COUNT, "Whole run: frames the NIC dropped and counted") \
  X(TOTAL_TX_SENT, "total.tx.sent", "frames", COUNT, "Whole run: frames the host handed to the driver") \
  X(TOTAL_TX_RECEIVED, "total.tx.received", "frames", COUNT, "Whole run: frames the wire peer received intact (tcp: also duplicates it discarded)") \
  X(SIM_TIME_NS, "sim.time_ns", "ns", COUNT, "Simulated time at the end of the run, drain included") \
  X(SIM_EVENTS, "sim.events", "events", COUNT, "SystemC delta cycles executed (kernel activations)") \
  X(SIM_WALL_S, "sim.wall_s", "s", WALL, "Wall-clock time of the simulation (not deterministic)")

#define NICSIM_DECLARE_METRIC_ID(id, name, unit, kind, desc) NM_##id,
enum nicsim_metric_id { NICSIM_METRICS(NICSIM_DECLARE_METRIC_ID) NM__COUNT };

enum nicsim_metric_kind { NM_KIND_COUNT, NM_KIND_REAL, NM_KIND_WALL };

struct nicsim_metric_def {
  const char *name, *unit, *desc;
  enum nicsim_metric_kind kind;
};
/* The static definitions, NM__COUNT entries. */
const struct nicsim_metric_def *nicsim_metric_defs(void);

#define NICSIM_MAX_EXTRA_METRICS 256

/* The values of one run: the static metrics by id, plus extra metrics with
 * names made at run time (per-function profiles, per-queue counters). */
struct nicsim_results {
  double value[NM__COUNT];
  bool present[NM__COUNT];
  size_t nextra;
  struct {
    char name[96];
    char unit[24];
    char desc[160];
    enum nicsim_metric_kind kind;
    double value;
  } extra[NICSIM_MAX_EXTRA_METRICS];
};

void nicsim_results_init(struct nicsim_results *r);
void nicsim_results_set(struct nicsim_results *r, enum nicsim_metric_id id, double v);
/* Adds or replaces an extra metric; returns 0, or -1 when the table is full
 * (or the name is empty, longer than 95 bytes or that of a static metric). */
int nicsim_results_set_extra(struct nicsim_results *r, const char *name, const char *unit,
                             enum nicsim_metric_kind kind, const char *desc, double v);

/* Iteration over every present metric in stable order: static ones in
 * declaration order, then extras sorted by name. Returns false past the end. */
struct nicsim_metric_view {
  const char *name, *unit, *desc;
  enum nicsim_metric_kind kind;
  double value;
};
bool nicsim_results_at(const struct nicsim_results *r, size_t i, struct nicsim_metric_view *out);
/* Value by name; returns false if absent. */
bool nicsim_results_get(const struct nicsim_results *r, const char *name, double *v);
/* Id of the static metric with this name, or -1. */
long nicsim_metric_find(const char *name);
/* The static metric whose name is nearest to a misspelt one (edit distance
 * at most 3), or NULL if none is that close: a "did you mean" hint. */
const char *nicsim_metric_suggest(const char *name);
/* True if name belongs to an extra-metric family that runs report when they
 * have something to say (cpu.profile.<fn>, cpu.ns_per_gb.<fn>,
 * pcie.<dir>.<purpose>.tlps|bytes, bus.<purpose>.bursts|bytes; with
 * cpu.cores >= 2 cpu.core<N>.util, cpu.core<N>.profile.<fn> and
 * cpu.lock_wait_cycles): plots and regression suites may name them. */
bool nicsim_metric_is_extra_name(const char *name);
/* True if every run of cfg reports static metric id: a NIC workload reports
 * them all but dma.* and, by its interconnect, pcie.* (PCIe link) or bus.*
 * (on-chip bus); a dma-bench run its own set (sim.* always). A point file
 * without such a metric is incomplete (resume reruns it, merge refuses it). */
struct nicsim_config;
bool nicsim_metric_expected(const struct nicsim_config *cfg, enum nicsim_metric_id id);
/* "count", "real" or "wall". */
const char *nicsim_metric_kind_name(enum nicsim_metric_kind kind);

#ifdef __cplusplus
}
#endif
#endif
