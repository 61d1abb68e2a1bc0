/*
 * pcie_counters.h: cumulative counters of one direction of a PCIe link,
 * overall and per DMA purpose, and of the device's reads through it. The
 * statistics (pcie_stats.h) are snapshots of them at the run's edges.
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_COUNTERS_H
#define NICSIM_MODELS_PCIE_PCIE_COUNTERS_H

#include <cstddef>
#include <cstdint>

#include "common/dma_path_stats.h"
#include "common/dma_purpose.h"
#include "pcie/latency_hist.h"

namespace nicsim {

/* Counters of one link direction since the start of the run. */
struct PcieDirCounters {
  uint64_t tlps = 0;          /* TLPs serialised (MWr, MRd, CplD) */
  uint64_t wire_bytes = 0;    /* bytes on the wire: payload + header + link overhead */
  uint64_t payload_bytes = 0; /* TLP data payload bytes */
  uint64_t overhead_bytes = 0; /* TLP bytes that are not payload: header, ECRC, DLL and framing */
  uint64_t busy_ps = 0;       /* time the serialiser was sending (TLPs, DLLPs, SKPs), up to the time asked for, ps */
  uint64_t dllps = 0;         /* Ack and UpdateFC DLLPs sent */
  uint64_t dllp_bytes = 0;    /* their wire bytes */
  uint64_t skps = 0;          /* SKP ordered sets sent */
  uint64_t skp_bytes = 0;     /* their bytes, all lanes */
  uint64_t credit_stalls = 0; /* TLPs that waited for flow-control credits */
  uint64_t credit_stall_ps = 0; /* total wait for credits, ps */
  uint64_t ro_tlps = 0;       /* MWr TLPs carrying the Relaxed Ordering attribute */
  uint64_t rc_busy_ps = 0;    /* up only, serialising root complex: time its commit chain was busy with strongly ordered lines, ps */
  uint64_t purpose_tlps[kDmaPurposes] = {};       /* TLPs by DmaPurpose */
  uint64_t purpose_wire_bytes[kDmaPurposes] = {}; /* wire bytes by DmaPurpose */
};

/* Device requests and reads through the link, cumulative since the start. */
struct PcieReadStats {
  uint64_t mrds = 0;            /* MRds sent */
  uint64_t tag_stalls = 0;      /* MRds that waited for a free tag */
  uint64_t outstanding_max = 0; /* most MRds outstanding at once since reset_outstanding_max() */
  double outstanding_area = 0;  /* integral of outstanding MRds over time, MRd x ps */
  LatencyHist latency;          /* per MRd: entering the link to its last CplD arriving, ps */
  DmaPathCounters dma;          /* the device's DMA requests through the link */
};

}  // namespace nicsim
#endif
