/* mvneta_desc_codec.cpp: the Marvell NETA descriptor layout (see
 * mvneta_desc_codec.h and src/hw/mvneta_regs.h). */
#include "dma/mvneta_desc_codec.h"

#include <cstddef>
#include <cstring>

#include "dma/desc_bytes.h"
#include "hw/mvneta_regs.h"

namespace nicsim {
namespace {
constexpr size_t kRxStatus = offsetof(mvneta_rx_desc, status);
constexpr size_t kRxSize = offsetof(mvneta_rx_desc, data_size);
constexpr size_t kRxAddr = offsetof(mvneta_rx_desc, buf_phys_addr);
constexpr size_t kTxCmd = offsetof(mvneta_tx_desc, command);
constexpr size_t kTxSize = offsetof(mvneta_tx_desc, data_size);
constexpr size_t kTxAddr = offsetof(mvneta_tx_desc, buf_phys_addr);
constexpr uint32_t kFcsBytes = 4;

uint16_t le16_at(const uint8_t *p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
void le16_put(uint8_t *p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}
}  // namespace

uint32_t MvnetaDescCodec::desc_bytes() const { return MVNETA_DESC_SIZE; }
uint32_t MvnetaDescCodec::rx_data_offset() const { return MVNETA_MH_SIZE; }

void MvnetaDescCodec::decode_rx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, MVNETA_DESC_SIZE);
  d->buf_addr = le32_at(p + kRxAddr);
  d->len = 0;
  d->own = true;
  d->eop = false;
  d->ioc = false;
}

void MvnetaDescCodec::decode_tx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, MVNETA_DESC_SIZE);
  d->buf_addr = le32_at(p + kTxAddr);
  d->len = le16_at(p + kTxSize);
  d->own = true;
  d->eop = (le32_at(p + kTxCmd) & MVNETA_TXD_L_DESC) != 0;
  d->ioc = false;
}

void MvnetaDescCodec::encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t frame_len, bool eop,
                                     uint8_t *p) const {
  std::memcpy(p, d.raw, MVNETA_DESC_SIZE);
  bool first = frame_len == pkt_len;
  uint32_t status = (first ? MVNETA_RXD_FIRST_DESC : 0u) | (eop ? MVNETA_RXD_LAST_DESC : 0u);
  uint32_t size = pkt_len + (first ? MVNETA_MH_SIZE : 0u) + (eop ? kFcsBytes : 0u);
  le32_put(p + kRxStatus, status);
  le16_put(p + kRxSize, static_cast<uint16_t>(size));
}

void MvnetaDescCodec::encode_tx_done(const DmaDesc &d, uint8_t *p) const {
  std::memcpy(p, d.raw, MVNETA_DESC_SIZE);
}

}  // namespace nicsim
