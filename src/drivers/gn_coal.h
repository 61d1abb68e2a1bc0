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

/* Writes one direction's (tx: TX, else RX) frame count and timer (whole
 * microseconds) of vector v. */
static inline void gn_coal_dir_write(void __iomem *io, u32 v, bool tx, u32 frames, u32 usecs) {
  writel(frames, io + GN_REG_VEC_COAL(v) + (tx ? GN_VC_TX_FRAMES : GN_VC_RX_FRAMES));
  writel(usecs, io + GN_REG_VEC_COAL(v) + (tx ? GN_VC_TX_USECS : GN_VC_RX_USECS));
}

/* Programs vector v's per-direction coalescing from cfg, if it asks for it. */
static inline void gn_coal_dir_program(void __iomem *io, u32 v, const struct nicsim_config *cfg) {
  if (!nc_coal_split(cfg)) return;
  for (int tx = 0; tx < 2; tx++)
    gn_coal_dir_write(io, v, tx, (u32)nc_coal_frames(cfg, tx), (u32)(nc_coal_usecs(cfg, tx) + 0.5));
}

#endif
