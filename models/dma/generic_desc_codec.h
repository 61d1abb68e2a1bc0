/* generic_desc_codec.h: descriptor format of nicsim's generic NIC
 * (src/hw/generic_nic_regs.h, 16 B RX and TX descriptors, OWN/EOP flags). */
#ifndef NICSIM_MODELS_DMA_GENERIC_DESC_CODEC_H
#define NICSIM_MODELS_DMA_GENERIC_DESC_CODEC_H

#include "dma/desc_codec.h"

namespace nicsim {

/* The generic family's descriptors: struct gn_rx_desc / gn_tx_desc. */
class GenericDescCodec : public DescCodec {
 public:
  /* 16 B (GN_DESC_SIZE). */
  uint32_t desc_bytes() const override;
  /* buf_addr, buf_len, OWN from flags. */
  void decode_rx(const uint8_t *p, DmaDesc *d) const override;
  /* buf_addr, len, OWN and EOP from flags. */
  void decode_tx(const uint8_t *p, DmaDesc *d) const override;
  /* pkt_len set; flags = EOP if eop, OWN and ERR clear; the rest as fetched. */
  void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                      uint8_t *p) const override;
  /* "generic". */
  const char *family() const override { return "generic"; }
  /* flags with OWN cleared; the rest as fetched. */
  void encode_tx_done(const DmaDesc &d, uint8_t *p) const override;
};

}  // namespace nicsim
#endif
