/* mvneta_desc_codec.h: descriptor format of the Marvell NETA (src/hw/mvneta_regs.h):
 * 32 B descriptors, no OWN bit, Marvell header before RX frames. */
#ifndef NICSIM_MODELS_DMA_MVNETA_DESC_CODEC_H
#define NICSIM_MODELS_DMA_MVNETA_DESC_CODEC_H

#include "dma/desc_codec.h"

namespace nicsim {

/* struct mvneta_rx_desc / mvneta_tx_desc. Ownership is counts ([head,
 * tail)); TX completion is the sent count only (no write-back). */
class MvnetaDescCodec : public DescCodec {
 public:
  /* 32 B. */
  uint32_t desc_bytes() const override;
  /* buf_phys_addr; length 0 (RX_BUF_SIZE, the queue's buffer size). */
  void decode_rx(const uint8_t *p, DmaDesc *d) const override;
  /* buf_phys_addr, data_size, L_DESC. */
  void decode_tx(const uint8_t *p, DmaDesc *d) const override;
  /* status = FIRST (first buffer) | LAST (last); data_size = bytes in the
   * buffer, plus the Marvell header (first) and the FCS (last). */
  void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                      uint8_t *p) const override;
  /* As fetched (never written). */
  void encode_tx_done(const DmaDesc &d, uint8_t *p) const override;
  /* True: the driver reads the sent count; TX_HEAD_WB stays 0. */
  bool tx_head_writeback() const override { return true; }
  /* MVNETA_MH_SIZE. */
  uint32_t rx_data_offset() const override;
  /* "mvneta". */
  const char *family() const override { return "mvneta"; }
};

}  // namespace nicsim
#endif
