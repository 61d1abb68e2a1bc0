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
    "Ethernet frame bits (FCS included, preamble and IFG excluded) delivered to the host stack per second") \
  X(RX_MPPS, "rx.mpps", "Mpkt/s", REAL, "Frames delivered to the host stack per second, in millions") \
  X(RX_PKTS, "rx.pkts", "frames", COUNT, "Frames delivered to the host stack")                   \
  X(RX_DROPS, "rx.drops", "frames", COUNT, "Frames the NIC dropped (FIFO overflow, no descriptor)") \
  X(TX_GBPS, "tx.gbps", "Gbit/s", REAL,                                                            \
    "Ethernet frame bits (FCS included, preamble and IFG excluded) the MAC put on the wire per second") \
  X(TX_MPPS, "tx.mpps", "Mpkt/s", REAL, "Frames the MAC put on the wire per second, in millions") \
  X(TX_PKTS, "tx.pkts", "frames", COUNT, "Frames the MAC put on the wire")                        \
  X(CPU_UTIL, "cpu.util", "fraction", REAL, "Busy fraction of the CPU core")                     \
  X(CPU_BUSY_CYCLES, "cpu.busy_cycles", "cycles", COUNT, "CPU cycles spent on driver, IRQ and stack work") \
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
  X(PCIE_UP_TLPS, "pcie.up.tlps", "TLPs", COUNT, "TLPs from device to host (MWr, MRd, CplD, MSI)") \
  X(PCIE_DOWN_TLPS, "pcie.down.tlps", "TLPs", COUNT, "TLPs from host to device (CplD, MMIO MWr/MRd)") \
  X(PCIE_UP_BYTES, "pcie.up.bytes", "B", COUNT,                                                   \
    "Wire bytes device to host: payload, TLP header, DLL and framing overhead")                   \
  X(PCIE_DOWN_BYTES, "pcie.down.bytes", "B", COUNT, "Wire bytes host to device")                 \
  X(PCIE_UP_PAYLOAD_BYTES, "pcie.up.payload_bytes", "B", COUNT, "TLP data payload bytes, device to host") \
  X(PCIE_DOWN_PAYLOAD_BYTES, "pcie.down.payload_bytes", "B", COUNT, "TLP data payload bytes, host to device") \
  X(PCIE_UP_UTIL, "pcie.up.util", "fraction", REAL, "Busy fraction of the device-to-host direction") \
  X(PCIE_DOWN_UTIL, "pcie.down.util", "fraction", REAL, "Busy fraction of the host-to-device direction") \
  X(NIC_DESC_FETCH_REQS, "nic.desc_fetch_reqs", "requests", COUNT, "Descriptor read requests (RX and TX)") \
  X(NIC_DESC_FETCHED, "nic.desc_fetched", "descriptors", COUNT, "Descriptors fetched (RX and TX)") \
  X(NIC_DESC_FETCH_REQS_PER_PKT, "nic.desc_fetch_reqs_per_pkt", "requests", REAL,                \
    "Descriptor read requests per frame (RX plus TX frames)")                                      \
  X(NIC_DESC_WRITEBACKS, "nic.desc_writebacks", "writes", COUNT, "Descriptor status write-back requests") \
  X(IRQ_COUNT, "irq.count", "interrupts", COUNT, "Interrupts (MSI) the NIC raised")             \
  X(IRQ_PER_SEC, "irq.per_sec", "1/s", REAL, "Interrupts per second of simulated time")          \
  X(TOTAL_RX_SENT, "total.rx.sent", "frames", COUNT, "Whole run: frames the wire peer sent to the NIC") \
  X(TOTAL_RX_RECEIVED, "total.rx.received", "frames", COUNT, "Whole run: frames the host received intact") \
  X(TOTAL_RX_DROPPED, "total.rx.dropped", "frames", COUNT, "Whole run: frames the NIC dropped and counted") \
  X(TOTAL_TX_SENT, "total.tx.sent", "frames", COUNT, "Whole run: frames the host handed to the driver") \
  X(TOTAL_TX_RECEIVED, "total.tx.received", "frames", COUNT, "Whole run: frames the wire peer received intact") \
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
/* "count", "real" or "wall". */
const char *nicsim_metric_kind_name(enum nicsim_metric_kind kind);

#ifdef __cplusplus
}
#endif
#endif
