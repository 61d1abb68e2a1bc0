// pcie_params.cpp: the pcie.* keys of a link and its rules on them.
#include "pcie/pcie_params.h"

#include <string>

#include "common/params.h"

namespace nicsim {


void PcieParams::bind(ParamBinder &b) {
  b.key("pcie.gen", gen);
  b.key("pcie.lanes", lanes);
  b.key("pcie.mps", mps);
  b.key("pcie.mrrs", mrrs);
  b.key("pcie.rcb", rcb); /* Base Spec 3.0 §2.3.1.1: 64 B or 128 B */
  b.key("pcie.addr_bits", addr_bits);
  b.key("pcie.latency_ns", latency_ps, Conv::NsToPs);
  b.key("pcie.rd_latency_ns", rd_latency_ps, Conv::NsToPs);
  b.key("pcie.ecrc", ecrc);
  b.key("pcie.tags", tags);
  b.key("pcie.dllp", dllp);
  b.key("pcie.skp", skp);
  b.key("pcie.ack_latency_ns", ack_latency_ps, Conv::NsToPs);
  b.key("pcie.rc_ph_credits", rc_ph_credits);
  b.key("pcie.rc_pd_credits", rc_pd_credits);
  b.key("pcie.rc_nph_credits", rc_nph_credits);
  b.key("pcie.rc_serialize_writes", rc_serialize_writes);
  b.key("pcie.rc_write_commit_ns", rc_commit_ps, Conv::NsToPs);
  b.key("pcie.rc_partial_write_ns", rc_partial_ps, Conv::NsToPs);
  b.key("pcie.rc_cpl_ns_per_line", rc_cpl_line_ps, Conv::NsToPs);
  b.key("pcie.rc_cold_read_ns", rc_cold_ps, Conv::NsToPs);
  b.key("pcie.pch_hop_ns", pch_hop_ps, Conv::NsToPs);
}

ParamCheck PcieParams::validate() const {
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16)
    return param_error({"pcie.lanes"}, "use 1, 2, 4, 8 or 16", "pcie.lanes = %d is not a PCIe link width", lanes);
  if (!pow2(mps) || mps < 128 || mps > 4096)
    return param_error({"pcie.mps"}, "use a power of two from 128 to 4096, e.g. " + nearest_pow2(mps, 128, 4096),
                       "pcie.mps = %u is not a valid max payload size", mps);
  if (!pow2(mrrs) || mrrs > 4096)
    return param_error({"pcie.mrrs"}, "use a power of two up to 4096, e.g. " + nearest_pow2(mrrs, 128, 4096),
                       "pcie.mrrs = %u is not a valid max read request size", mrrs);
  if (addr_bits != 32 && addr_bits != 64)
    return param_error({"pcie.addr_bits"}, "use 32 (3DW TLP headers) or 64 (4DW TLP headers)",
                       "pcie.addr_bits = %d is not a PCIe address width", addr_bits);
  if (rcb != 64 && rcb != 128)
    return param_error({"pcie.rcb"}, "use 64 or 128 (Base Spec 3.0 §2.3.1.1)",
                       "pcie.rcb = %u is not a read completion boundary", rcb);
  /* A posted write of pcie.mps bytes takes mps / 16 data credits (Base Spec 3.0 §2.6.1). */
  const uint32_t pd_need = mps / 16;
  if (rc_pd_credits > 0 && rc_pd_credits < pd_need)
    return param_error({"pcie.rc_pd_credits", "pcie.mps"},
                       "set pcie.rc_pd_credits to at least " + std::to_string(pd_need) +
                           " (or 0: infinite), or a smaller pcie.mps",
                       "pcie.rc_pd_credits = %u cannot cover one max-payload TLP: pcie.mps = %u B needs %u data "
                       "credits of 16 B",
                       rc_pd_credits, mps, pd_need);
  return std::nullopt;
}

}  // namespace nicsim
