/* lan743x_desc_codec.h: descriptor format of the Microchip LAN743x
 * (src/hw/lan743x_regs.h): 16 B descriptors, RX OWN bit, TX head write-back. */
#ifndef NICSIM_MODELS_DMA_LAN743X_DESC_CODEC_H
#define NICSIM_MODELS_DMA_LAN743X_DESC_CODEC_H

#include "dma/desc_codec.h"

namespace nicsim {

/* struct lan743x_rx_desc / lan743x_tx_desc. TX descriptors have no OWN bit:
 * every fetched one is the device's (it only fetches [head, tail)); their
 * completion goes to memory as a head index, never into the descriptors. */
class Lan743xDescCodec : public DescCodec {
 public:
  /* 16 B. */
  uint32_t desc_bytes() const override;
  /* Address from data1/data2, buffer length and OWN from data0. */
  void decode_rx(const uint8_t *p, DmaDesc *d) const override;
  /* Address from data1/data2, length and LS (end of frame) from data0. */
  void decode_tx(const uint8_t *p, DmaDesc *d) const override;
  /* data0 = FS (first buffer) | LS and frame length with FCS (last) ; OWN clear. */
  void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                      uint8_t *p) const override;
  /* The descriptor as fetched (never written: head write-back). */
  void encode_tx_done(const DmaDesc &d, uint8_t *p) const override;
  /* True: TX_CFG_A TX_HP_WB_EN. */
  bool tx_head_writeback() const override { return true; }
  /* "lan743x". */
  const char *family() const override { return "lan743x"; }
};

}  // namespace nicsim
#endif
