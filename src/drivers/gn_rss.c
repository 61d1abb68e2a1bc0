/* gn_rss.c: RSS programming on nicsim's common register block (gn_rss.h). */
#include "drivers/gn_rss.h"

#include <string.h>

void gn_program_rss(struct net_device *dev, void __iomem *io, u32 num_rx, u8 key[NF_RSS_KEY_LEN],
                    u8 lut[GN_RSS_LUT_MAX], u32 *size) {
  const struct nicsim_config *cfg = dev->cfg;
  if (!nf_rss_parse_key(cfg->nic.rss_key, key)) memcpy(key, nf_rss_ms_key, NF_RSS_KEY_LEN);
  *size = (u32)cfg->nic.rss_table_size;
  for (u32 i = 0; i < GN_RSS_LUT_MAX; i++) lut[i] = i < *size ? (u8)nf_rss_indir_default(i, num_rx) : 0;
  for (u32 i = 0; i < GN_RSS_KEY_REGS; i++) {
    const u8 *k = key + 4 * i;
    writel((u32)k[0] | (u32)k[1] << 8 | (u32)k[2] << 16 | (u32)k[3] << 24, io + GN_REG_RSS_KEY(i));
  }
  for (u32 i = 0; i < (*size + 3) / 4; i++) {
    const u8 *e = lut + 4 * i;
    writel((u32)e[0] | (u32)e[1] << 8 | (u32)e[2] << 16 | (u32)e[3] << 24, io + GN_REG_RSS_LUT(i));
  }
  writel(*size, io + GN_REG_RSS_TABLE_SIZE);
  nk_netdev_set_rss(dev, key, lut, *size);
}
