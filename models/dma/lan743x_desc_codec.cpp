/* lan743x_desc_codec.cpp: the LAN743x descriptor layout (see
 * lan743x_desc_codec.h and src/hw/lan743x_regs.h). */
#include "dma/lan743x_desc_codec.h"

#include <cstddef>
#include <cstring>

#include "dma/desc_bytes.h"
#include "hw/lan743x_regs.h"

namespace nicsim {
namespace {
constexpr size_t kData0 = offsetof(lan743x_rx_desc, data0);
constexpr size_t kData1 = offsetof(lan743x_rx_desc, data1);
constexpr size_t kData2 = offsetof(lan743x_rx_desc, data2);
static_assert(offsetof(lan743x_tx_desc, data1) == kData1, "TX address offset");
constexpr uint32_t kFcsBytes = 4; /* counted in FRAME_LENGTH, as the driver's skb_put(len - 4) expects */

uint64_t addr_of(const uint8_t *p) {
  return le32_at(p + kData1) | (static_cast<uint64_t>(le32_at(p + kData2)) << 32);
}
}  // namespace

uint32_t Lan743xDescCodec::desc_bytes() const { return LAN743X_DESC_SIZE; }

void Lan743xDescCodec::decode_rx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, LAN743X_DESC_SIZE);
  uint32_t data0 = le32_at(p + kData0);
  d->buf_addr = addr_of(p);
  d->len = data0 & LAN743X_RX_DESC_DATA0_BUF_LENGTH_MASK;
  d->own = (data0 & LAN743X_RX_DESC_DATA0_OWN) != 0;
  d->eop = false;
  d->ioc = false;
}

void Lan743xDescCodec::decode_tx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, LAN743X_DESC_SIZE);
  uint32_t data0 = le32_at(p + kData0);
  d->buf_addr = addr_of(p);
  d->len = data0 & LAN743X_TX_DESC_DATA0_BUF_LENGTH_MASK;
  d->own = true; /* no OWN bit: [head, tail) is the device's */
  d->eop = (data0 & LAN743X_TX_DESC_DATA0_LS) != 0;
  d->ioc = false;
}

void Lan743xDescCodec::encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                                      uint8_t *p) const {
  std::memcpy(p, d.raw, LAN743X_DESC_SIZE);
  uint32_t data0 = 0;
  if (frame_len == pkt_len) data0 |= LAN743X_RX_DESC_DATA0_FS;
  if (eop) {
    data0 |= LAN743X_RX_DESC_DATA0_LS;
    data0 |= ((frame_len + kFcsBytes) << LAN743X_RX_DESC_DATA0_FRAME_LENGTH_SHIFT) &
             LAN743X_RX_DESC_DATA0_FRAME_LENGTH_MASK;
  }
  le32_put(p + kData0, data0);
}

void Lan743xDescCodec::encode_tx_done(const DmaDesc &d, uint8_t *p) const {
  std::memcpy(p, d.raw, LAN743X_DESC_SIZE);
}

}  // namespace nicsim
