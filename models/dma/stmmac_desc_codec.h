/* stmmac_desc_codec.h: descriptor format of the DesignWare GMAC 4.x as the
 * stmmac driver uses it (src/hw/stmmac_regs.h): 16 B, OWN and IOC bits. */
#ifndef NICSIM_MODELS_DMA_STMMAC_DESC_CODEC_H
#define NICSIM_MODELS_DMA_STMMAC_DESC_CODEC_H

#include "dma/desc_codec.h"

namespace nicsim {

/* struct stmmac_dma_desc, dwmac4 normal descriptors. Interrupts follow each
 * descriptor's IOC bit; RX descriptors without it arm the RX watchdog. */
class StmmacDescCodec : public DescCodec {
 public:
  /* 16 B. */
  uint32_t desc_bytes() const override;
  /* Address from des0/des1; OWN and IOC from des3; length 0 (the buffer
   * size is the RX_BUF_SIZE register, as DMA_CHAN_RX_CONTROL RBSZ). */
  void decode_rx(const uint8_t *p, DmaDesc *d) const override;
  /* Address from des0/des1; length and IOC from des2; OWN and LD from des3. */
  void decode_tx(const uint8_t *p, DmaDesc *d) const override;
  /* Write-back format: des0..2 zero; des3 = FD (first) | LD and packet
   * length with FCS (last), OWN clear. */
  void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                      uint8_t *p) const override;
  /* des3 with OWN cleared; the rest as fetched. */
  void encode_tx_done(const DmaDesc &d, uint8_t *p) const override;
  /* True: IOC bits and the RX watchdog, no frame counter. */
  bool ioc_moderation() const override { return true; }
  /* "stmmac". */
  const char *family() const override { return "stmmac"; }
};

}  // namespace nicsim
#endif
