/*
 * gn_coal.h: per-direction interrupt coalescing on the generic register map
 * (GN_REG_VEC_COAL, hw/generic_nic_regs.h), as each driver's set_coalesce
 * programs ethtool's rx-frames, rx-usecs, tx-frames and tx-usecs: i40e's
 * per-vector RX and TX ITR registers (I40E_PFINT_ITRN), mvneta's RX
 * threshold and time registers and its TX done threshold, lan743x's per
 * vector INT_MOD. Written only when a per-direction key is set
 * (nc_coal_split), after the shared COAL_FRAMES/USECS writes.
 */
#ifndef NICSIM_DRIVERS_GN_COAL_H
#define NICSIM_DRIVERS_GN_COAL_H

#include "config/derived.h"
#include "hw/generic_nic_regs.h"
#include "kernel/kernel.h"

/* Programs vector v's per-direction coalescing from cfg, if it asks for it. */
static inline void gn_coal_dir_program(void __iomem *io, u32 v, const struct nicsim_config *cfg) {
  if (!nc_coal_split(cfg)) return;
  writel((u32)nc_coal_frames(cfg, false), io + GN_REG_VEC_COAL(v) + GN_VC_RX_FRAMES);
  writel((u32)(nc_coal_usecs(cfg, false) + 0.5), io + GN_REG_VEC_COAL(v) + GN_VC_RX_USECS); /* whole us */
  writel((u32)nc_coal_frames(cfg, true), io + GN_REG_VEC_COAL(v) + GN_VC_TX_FRAMES);
  writel((u32)(nc_coal_usecs(cfg, true) + 0.5), io + GN_REG_VEC_COAL(v) + GN_VC_TX_USECS);
}

#endif
