/* i40e_desc_codec.h: descriptor format of the Intel 700 series (i40e,
 * src/hw/i40e_regs.h): 16 or 32 B RX descriptors with DD/EOF write-back, 16 B
 * TX descriptors completed with DTYPE DESC_DONE (or head write-back). */
#ifndef NICSIM_MODELS_DMA_I40E_DESC_CODEC_H
#define NICSIM_MODELS_DMA_I40E_DESC_CODEC_H

#include "dma/desc_codec.h"

namespace nicsim {

/* No OWN bits: every fetched descriptor in [head, tail) is the device's. */
class I40eDescCodec : public DescCodec {
 public:
  /* rx_desc_bytes: 16 or 32. */
  explicit I40eDescCodec(uint32_t rx_desc_bytes) : m_rx_bytes(rx_desc_bytes == 16 ? 16 : 32) {}
  /* 16 or 32 B (RX). */
  uint32_t desc_bytes() const override { return m_rx_bytes; }
  /* 16 B. */
  uint32_t tx_desc_bytes() const override;
  /* pkt_addr; length 0 (RX_BUF_SIZE, the queue context's buffer size). */
  void decode_rx(const uint8_t *p, DmaDesc *d) const override;
  /* buffer_addr; size and EOP from cmd_type_offset_bsz. */
  void decode_tx(const uint8_t *p, DmaDesc *d) const override;
  /* Write-back: qword0 (and qwords 2, 3) zero; qword1 = DD | EOF (last) |
   * bytes in this buffer << 38 (CRC stripped). */
  void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                      uint8_t *p) const override;
  /* The descriptor with DTYPE = DESC_DONE. */
  void encode_tx_done(const DmaDesc &d, uint8_t *p) const override;
  /* "i40e". */
  const char *family() const override { return "i40e"; }

 private:
  uint32_t m_rx_bytes;
};

}  // namespace nicsim
#endif
