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
  uint8_t raw[kMaxDescBytes]{};  /* the bytes as fetched, for the write-back */
};

/* Descriptor format of one family. */
class DescCodec {
 public:
  virtual ~DescCodec() = default;
  /* Size of one descriptor in memory, bytes. */
  virtual uint32_t desc_bytes() const = 0;
  /* Decodes the RX descriptor at p (desc_bytes() bytes) into *d. */
  virtual void decode_rx(const uint8_t *p, DmaDesc *d) const = 0;
  /* Decodes the TX descriptor at p into *d. */
  virtual void decode_tx(const uint8_t *p, DmaDesc *d) const = 0;
  /* Writes to p the RX descriptor d as the device writes it back after
   * putting pkt_len bytes (of a frame that ends here if eop) in its buffer. */
  virtual void encode_rx_done(const DmaDesc &d, uint32_t pkt_len, bool eop, uint8_t *p) const = 0;
  /* Writes to p the TX descriptor d as the device writes it back when done. */
  virtual void encode_tx_done(const DmaDesc &d, uint8_t *p) const = 0;
};

}  // namespace nicsim
#endif
