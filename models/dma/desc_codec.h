/* desc_codec.h: the interface a NIC family implements to tell the DMA engine
 * how its descriptors look in memory (layout, ownership, write-back). */
#ifndef NICSIM_MODELS_DMA_DESC_CODEC_H
#define NICSIM_MODELS_DMA_DESC_CODEC_H

#include <cstdint>

namespace nicsim {

/* Largest descriptor of any family, bytes (mvneta and i40e use 32 B). */
constexpr uint32_t kMaxDescBytes = 32;

/* A descriptor as the engine uses it, decoded from its in-memory bytes. */
struct DmaDesc {
  uint64_t buf_addr = 0;         /* buffer bus address */
  uint32_t len = 0;              /* RX: buffer size; TX: bytes to send from it */
  bool own = false;              /* the device owns it (it may be processed) */
  bool eop = false;              /* TX: last buffer of a frame */
  bool ioc = false;              /* interrupt on completion requested (stmmac IOC) */
  uint8_t raw[kMaxDescBytes]{};  /* the bytes as fetched, for the write-back */
};

/* Descriptor format of one family. */
class DescCodec {
 public:
  virtual ~DescCodec() = default;
  /* Size of one RX descriptor in memory (and TX, unless tx_desc_bytes()
   * says otherwise), bytes. */
  virtual uint32_t desc_bytes() const = 0;
  /* Size of one TX descriptor, bytes. */
  virtual uint32_t tx_desc_bytes() const { return desc_bytes(); }
  /* Decodes the RX descriptor at p (desc_bytes() bytes) into *d. */
  virtual void decode_rx(const uint8_t *p, DmaDesc *d) const = 0;
  /* Decodes the TX descriptor at p into *d. */
  virtual void decode_tx(const uint8_t *p, DmaDesc *d) const = 0;
  /* Writes to p the RX descriptor d as the device writes it back after
   * putting pkt_len bytes (of a frame that ends here if eop) in its buffer;
   * frame_len: bytes of the frame so far, this buffer included. */
  virtual void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                              uint8_t *p) const = 0;
  /* True if the device reports TX completion only by a head index written
   * to memory (lan743x, i40e head write-back), not in the descriptors. */
  virtual bool tx_head_writeback() const { return false; }
  /* True if interrupts follow each descriptor's IOC bit (stmmac) instead
   * of a frame-count threshold. */
  virtual bool ioc_moderation() const { return false; }
  /* Bytes the device leaves before the frame in the first RX buffer of a
   * frame (mvneta's Marvell header); 0 for most families. */
  virtual uint32_t rx_data_offset() const { return 0; }
  /* Family name, for messages. */
  virtual const char *family() const = 0;
  /* Writes to p the TX descriptor d as the device writes it back when done. */
  virtual void encode_tx_done(const DmaDesc &d, uint8_t *p) const = 0;
};

}  // namespace nicsim
#endif
