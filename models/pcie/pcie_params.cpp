// pcie_params.cpp: converts the resolved config's pcie section (and the cache line) into link parameters.
#include "pcie/pcie_params.h"

#include <cmath>

namespace nicsim {

PcieParams PcieParams::from_config(const nicsim_config &cfg) {
  PcieParams p;
  p.gen = static_cast<int>(cfg.pcie.gen);
  p.lanes = static_cast<int>(cfg.pcie.lanes);
  p.mps = static_cast<uint32_t>(cfg.pcie.mps);
  p.mrrs = static_cast<uint32_t>(cfg.pcie.mrrs);
  p.rcb = static_cast<uint32_t>(cfg.pcie.rcb); /* Base Spec 3.0 §2.3.1.1: 64 B or 128 B */
  p.addr_bits = static_cast<int>(cfg.pcie.addr_bits);
  p.mem_size = static_cast<uint64_t>(cfg.memory.size_mb) << 20;
  p.latency_ps = static_cast<uint64_t>(std::llround(cfg.pcie.latency_ns * 1000.0));
  p.rd_latency_ps = static_cast<uint64_t>(std::llround(cfg.pcie.rd_latency_ns * 1000.0));
  p.ecrc = cfg.pcie.ecrc;
  p.tags = static_cast<uint32_t>(cfg.pcie.tags);
  p.dllp = cfg.pcie.dllp;
  p.skp = cfg.pcie.skp;
  p.ack_latency_ps = static_cast<uint64_t>(std::llround(cfg.pcie.ack_latency_ns * 1000.0));
  p.rc_ph_credits = static_cast<uint32_t>(cfg.pcie.rc_ph_credits);
  p.rc_pd_credits = static_cast<uint32_t>(cfg.pcie.rc_pd_credits);
  p.rc_nph_credits = static_cast<uint32_t>(cfg.pcie.rc_nph_credits);
  p.rc_serialize_writes = cfg.pcie.rc_serialize_writes;
  p.rc_commit_ps = static_cast<uint64_t>(std::llround(cfg.pcie.rc_write_commit_ns * 1000.0));
  p.line_bytes = static_cast<uint32_t>(cfg.cpu.cache_line_bytes);
  p.rc_partial_ps = static_cast<uint64_t>(std::llround(cfg.pcie.rc_partial_write_ns * 1000.0));
  p.rc_cpl_line_ps = static_cast<uint64_t>(std::llround(cfg.pcie.rc_cpl_ns_per_line * 1000.0));
  p.rc_cold_ps = static_cast<uint64_t>(std::llround(cfg.pcie.rc_cold_read_ns * 1000.0));
  p.pch_hop_ps = static_cast<uint64_t>(std::llround(cfg.pcie.pch_hop_ns * 1000.0));
  return p;
}

}  // namespace nicsim
