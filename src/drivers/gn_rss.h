/* gn_rss.h: RSS on nicsim's common register block (hw/generic_nic_regs.h), shared
 * by the two multi-queue drivers that program it (generic and i40e). */
#ifndef NICSIM_DRIVERS_GN_RSS_H
#define NICSIM_DRIVERS_GN_RSS_H

#include "hw/generic_nic_regs.h"
#include "kernel/kernel.h"
#include "net/rss.h"

/* Programs the Toeplitz key (cfg nic.rss_key, or the Microsoft key), the
 * indirection table filled as ethtool_rxfh_indir_default (entry i: queue i
 * mod num_rx) and then its size (nic.rss_table_size), which turns RSS on;
 * hands the kernel the same table to check every frame's queue. key, lut and
 * size keep the driver's copy (i40e's PFQF_HKEY / HLUT shadow). */
void gn_program_rss(struct net_device *dev, void __iomem *io, u32 num_rx, u8 key[NF_RSS_KEY_LEN],
                    u8 lut[GN_RSS_LUT_MAX], u32 *size);

#endif
