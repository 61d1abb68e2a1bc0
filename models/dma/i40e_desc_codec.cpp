/* i40e_desc_codec.cpp: the i40e descriptor layouts (see i40e_desc_codec.h
 * and src/hw/i40e_regs.h). */
#include "dma/i40e_desc_codec.h"

#include <cstddef>
#include <cstring>

#include "dma/desc_bytes.h"
#include "hw/i40e_regs.h"

namespace nicsim {
namespace {
constexpr size_t kQw0 = offsetof(i40e_32byte_rx_desc, pkt_addr);
constexpr size_t kQw1 = offsetof(i40e_32byte_rx_desc, hdr_addr);
static_assert(offsetof(i40e_tx_desc, cmd_type_offset_bsz) == kQw1, "TX qword1 offset");

uint64_t le64_at(const uint8_t *p) { return le32_at(p) | (static_cast<uint64_t>(le32_at(p + 4)) << 32); }
void le64_put(uint8_t *p, uint64_t v) {
  le32_put(p, static_cast<uint32_t>(v));
  le32_put(p + 4, static_cast<uint32_t>(v >> 32));
}
}  // namespace

uint32_t I40eDescCodec::tx_desc_bytes() const { return sizeof(i40e_tx_desc); }

void I40eDescCodec::decode_rx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, m_rx_bytes);
  d->buf_addr = le64_at(p + kQw0);
  d->len = 0;
  d->own = true;
  d->eop = false;
  d->ioc = false;
}

void I40eDescCodec::decode_tx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, sizeof(i40e_tx_desc));
  uint64_t q1 = le64_at(p + kQw1);
  uint64_t cmd = (q1 & I40E_TXD_QW1_CMD_MASK) >> I40E_TXD_QW1_CMD_SHIFT;
  d->buf_addr = le64_at(p + kQw0);
  d->len = static_cast<uint32_t>((q1 & I40E_TXD_QW1_TX_BUF_SZ_MASK) >> I40E_TXD_QW1_TX_BUF_SZ_SHIFT);
  d->own = true;
  d->eop = (cmd & I40E_TX_DESC_CMD_EOP) != 0;
  d->ioc = false;
}

void I40eDescCodec::encode_rx_done(const DmaDesc &, uint32_t pkt_len, uint32_t, bool eop, uint8_t *p) const {
  std::memset(p, 0, m_rx_bytes);
  uint64_t q1 = 1ULL << I40E_RX_DESC_STATUS_DD_SHIFT;
  if (eop) q1 |= 1ULL << I40E_RX_DESC_STATUS_EOF_SHIFT;
  q1 |= (static_cast<uint64_t>(pkt_len) << I40E_RXD_QW1_LENGTH_PBUF_SHIFT) & I40E_RXD_QW1_LENGTH_PBUF_MASK;
  le64_put(p + kQw1, q1);
}

void I40eDescCodec::encode_tx_done(const DmaDesc &d, uint8_t *p) const {
  std::memcpy(p, d.raw, sizeof(i40e_tx_desc));
  uint64_t q1 = le64_at(d.raw + kQw1);
  q1 = (q1 & ~I40E_TXD_QW1_DTYPE_MASK) | (I40E_TX_DESC_DTYPE_DESC_DONE << I40E_TXD_QW1_DTYPE_SHIFT);
  le64_put(p + kQw1, q1);
}

}  // namespace nicsim
