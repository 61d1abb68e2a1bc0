// pcie_params.cpp: converts the resolved config's pcie section into link parameters.
#include "pcie/pcie_params.h"

#include <cmath>

namespace nicsim {

PcieParams PcieParams::from_config(const nicsim_config &cfg) {
  PcieParams p;
  p.gen = static_cast<int>(cfg.pcie.gen);
  p.lanes = static_cast<int>(cfg.pcie.lanes);
  p.mps = static_cast<uint32_t>(cfg.pcie.mps);
  p.mrrs = static_cast<uint32_t>(cfg.pcie.mrrs);
  p.rcb = 64; /* PCIe Base Spec 3.0 §2.3.1.1: a root port's RCB is 64 B or 128 B; 64 B here */
  p.addr_bits = static_cast<int>(cfg.pcie.addr_bits);
  p.mem_size = static_cast<uint64_t>(cfg.memory.size_mb) << 20;
  p.latency_ps = static_cast<uint64_t>(std::llround(cfg.pcie.latency_ns * 1000.0));
  p.rd_latency_ps = static_cast<uint64_t>(std::llround(cfg.pcie.rd_latency_ns * 1000.0));
  return p;
}

}  // namespace nicsim
