/*
 * pcie_params.h: the parameters of one PCIe link (generation, width,
 * MPS/MRRS/RCB, address format, latencies, credits), the pcie.* keys they
 * come from (bind) and the link's rules on them (validate).
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_PARAMS_H
#define NICSIM_MODELS_PCIE_PCIE_PARAMS_H

#include <cstdint>

#include "common/params.h"

namespace nicsim {

/* Link parameters in the units the model computes with (bytes, picoseconds). */
struct PcieParams {
  int gen = 3;                 /* PCIe generation 1..5 (2.5/5/8/16/32 GT/s per lane) */
  int lanes = 8;               /* link width: 1, 2, 4, 8, 16 */
  uint32_t mps = 256;          /* Max_Payload_Size, bytes (power of two, 128..4096) */
  uint32_t mrrs = 512;         /* Max_Read_Request_Size, bytes (power of two, up to 4096) */
  uint32_t rcb = 64;           /* Read Completion Boundary of the root complex, bytes: 64 or 128 */
  int addr_bits = 64;          /* 32: host DMA memory below 4 GiB (3DW); 64: above (4DW) */
  uint64_t latency_ps = 0;     /* one-way latency (both PHYs + wire) per TLP, ps */
  uint64_t rd_latency_ps = 0;  /* root complex + memory: MRd arrival to first CplD, ps */
  bool ecrc = false;           /* every TLP carries a 4-byte ECRC (TLP digest) */
  uint32_t tags = 256;         /* most device MRds outstanding at once */
  bool dllp = true;            /* Ack / UpdateFC DLLPs take bytes in the opposite direction */
  bool skp = true;             /* SKP ordered sets take bytes on both directions */
  uint64_t ack_latency_ps = 0; /* Ack / UpdateFC coalescing time, ps; 0: the spec formula */
  uint32_t rc_ph_credits = 0;  /* root port's posted header credits; 0: infinite */
  uint32_t rc_pd_credits = 0;  /* root port's posted data credits (16 B); 0: infinite */
  uint32_t rc_nph_credits = 0; /* root port's non-posted header credits; 0: infinite */
  bool rc_serialize_writes = false; /* each non-RO posted write line waits for the previous commit */
  uint64_t rc_commit_ps = 0;   /* coherence commit of one cache line at the root complex, ps */
  /* Facts of the host, set by whoever builds the link (src/sim: memory.size_mb, cpu.cache_line_bytes): */
  uint64_t mem_size = 0;       /* bytes of host memory, [0, mem_size): what addr_bits applies to */
  uint32_t line_bytes = 64;    /* the host's cache line: the root complex's commit unit, bytes (power of two) */
  /* The root complex's costs (pcie.rc_*, pcie.pch_hop_ns): */
  uint64_t rc_partial_ps = 0;  /* read-for-ownership and merge of one partly written cache line, ps */
  uint64_t rc_cpl_line_ps = 0; /* completion pacing: time to produce one line of completion data, ps; 0: unpaced */
  uint64_t rc_cold_ps = 0;     /* extra for a read request that misses the LLC (DRAM), ps */
  uint64_t pch_hop_ps = 0;     /* one-way PCH + DMI latency of a chipset-attached port, ps; 0: CPU root port */

  /* The pcie.* keys. */
  void bind(ParamBinder &b);
  /* The link's rules: widths, sizes, the RCB, credits for one TLP. */
  ParamCheck validate() const;
};

}  // namespace nicsim
#endif
