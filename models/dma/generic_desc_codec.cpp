/* generic_desc_codec.cpp: the generic NIC's descriptor layout, little-endian
 * field by field (offsets from src/hw/generic_nic_regs.h). */
#include "dma/generic_desc_codec.h"

#include <cstddef>
#include <cstring>

#include "hw/generic_nic_regs.h"

namespace nicsim {
namespace {

uint16_t ld16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint64_t ld64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
void st16(uint8_t *p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v);
  p[1] = static_cast<uint8_t>(v >> 8);
}

constexpr size_t kOffAddr = offsetof(gn_rx_desc, buf_addr);
constexpr size_t kOffRxBufLen = offsetof(gn_rx_desc, buf_len);
constexpr size_t kOffRxPktLen = offsetof(gn_rx_desc, pkt_len);
constexpr size_t kOffRxFlags = offsetof(gn_rx_desc, flags);
constexpr size_t kOffTxLen = offsetof(gn_tx_desc, len);
constexpr size_t kOffTxFlags = offsetof(gn_tx_desc, flags);
static_assert(kOffRxFlags == GN_OFF_RX_FLAGS, "RX flags offset");
static_assert(kOffTxFlags == GN_OFF_TX_FLAGS, "TX flags offset");
static_assert(offsetof(gn_tx_desc, buf_addr) == kOffAddr, "TX buf_addr offset");

}  // namespace

uint32_t GenericDescCodec::desc_bytes() const { return GN_DESC_SIZE; }

void GenericDescCodec::decode_rx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, GN_DESC_SIZE);
  d->buf_addr = ld64(p + kOffAddr);
  d->len = ld16(p + kOffRxBufLen);
  uint16_t flags = ld16(p + kOffRxFlags);
  d->own = (flags & GN_DESC_OWN) != 0;
  d->eop = false;
}

void GenericDescCodec::decode_tx(const uint8_t *p, DmaDesc *d) const {
  std::memcpy(d->raw, p, GN_DESC_SIZE);
  d->buf_addr = ld64(p + kOffAddr);
  d->len = ld16(p + kOffTxLen);
  uint16_t flags = ld16(p + kOffTxFlags);
  d->own = (flags & GN_DESC_OWN) != 0;
  d->eop = (flags & GN_DESC_EOP) != 0;
}

void GenericDescCodec::encode_rx_done(const DmaDesc &d, uint32_t pkt_len, uint32_t /*frame_len*/,
                                      bool eop, uint8_t *p) const {
  std::memcpy(p, d.raw, GN_DESC_SIZE);
  st16(p + kOffRxPktLen, static_cast<uint16_t>(pkt_len));
  st16(p + kOffRxFlags, static_cast<uint16_t>(eop ? GN_DESC_EOP : 0));
}

void GenericDescCodec::encode_tx_done(const DmaDesc &d, uint8_t *p) const {
  std::memcpy(p, d.raw, GN_DESC_SIZE);
  uint16_t flags = ld16(d.raw + kOffTxFlags);
  st16(p + kOffTxFlags, static_cast<uint16_t>(flags & ~GN_DESC_OWN));
}

}  // namespace nicsim
