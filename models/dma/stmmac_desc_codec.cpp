/* stmmac_desc_codec.cpp: the dwmac4 descriptor layout (see
 * stmmac_desc_codec.h and src/hw/stmmac_regs.h). */
#include "dma/stmmac_desc_codec.h"

#include <cstddef>
#include <cstring>

#include "dma/desc_bytes.h"
#include "hw/stmmac_regs.h"

namespace nicsim {
namespace {
constexpr size_t kDes0 = offsetof(stmmac_dma_desc, des0);
constexpr size_t kDes1 = offsetof(stmmac_dma_desc, des1);
constexpr size_t kDes2 = offsetof(stmmac_dma_desc, des2);
constexpr size_t kDes3 = offsetof(stmmac_dma_desc, des3);
constexpr uint32_t kFcsBytes = 4; /* counted in the packet length; the driver strips it */

uint64_t addr_of(const uint8_t *p) {
  return le32_at(p + kDes0) | (static_cast<uint64_t>(le32_at(p + kDes1)) << 32);
}
}  // namespace

uint32_t StmmacDescCodec::desc_bytes() const { return STMMAC_DESC_SIZE; }

void StmmacDescCodec::decode_rx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, STMMAC_DESC_SIZE);
  uint32_t des3 = le32_at(p + kDes3);
  d->buf_addr = addr_of(p);
  d->len = 0;
  d->own = (des3 & STMMAC_RDES3_OWN) != 0;
  d->ioc = (des3 & STMMAC_RDES3_INT_ON_COMPLETION_EN) != 0;
  d->eop = false;
}

void StmmacDescCodec::decode_tx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, STMMAC_DESC_SIZE);
  uint32_t des2 = le32_at(p + kDes2);
  uint32_t des3 = le32_at(p + kDes3);
  d->buf_addr = addr_of(p);
  d->len = des2 & STMMAC_TDES2_BUFFER1_SIZE_MASK;
  d->ioc = (des2 & STMMAC_TDES2_INTERRUPT_ON_COMPLETION) != 0;
  d->own = (des3 & STMMAC_TDES3_OWN) != 0;
  d->eop = (des3 & STMMAC_TDES3_LAST_DESCRIPTOR) != 0;
}

void StmmacDescCodec::encode_rx_done(const DmaDesc &, uint32_t pkt_len, uint32_t frame_len, bool eop,
                                     uint8_t *p) const {
  std::memset(p, 0, STMMAC_DESC_SIZE);
  uint32_t des3 = 0;
  if (frame_len == pkt_len) des3 |= STMMAC_RDES3_FIRST_DESCRIPTOR;
  if (eop) {
    des3 |= STMMAC_RDES3_LAST_DESCRIPTOR | ((frame_len + kFcsBytes) & STMMAC_RDES3_PACKET_SIZE_MASK);
  }
  le32_put(p + kDes3, des3);
}

void StmmacDescCodec::encode_tx_done(const DmaDesc &d, uint8_t *p) const {
  std::memcpy(p, d.raw, STMMAC_DESC_SIZE);
  le32_put(p + kDes3, le32_at(d.raw + kDes3) & ~STMMAC_TDES3_OWN);
}

}  // namespace nicsim
