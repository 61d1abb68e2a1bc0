/*
 * pcie_counters.h: cumulative counters of one direction of a PCIe link,
 * overall and per DMA purpose. The glue snapshots them at warm-up and at the
 * end of traffic.
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_COUNTERS_H
#define NICSIM_MODELS_PCIE_PCIE_COUNTERS_H

#include <cstddef>
#include <cstdint>

#include "common/tlp.h"

namespace nicsim {

/* Number of DmaPurpose values (per-purpose arrays are indexed by the enum). */
constexpr size_t kDmaPurposes = static_cast<size_t>(DmaPurpose::Other) + 1;

/* Short lower-case name of a purpose, for metric names ("desc_fetch"). */
const char *dma_purpose_name(DmaPurpose p);

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

}  // namespace nicsim
#endif
