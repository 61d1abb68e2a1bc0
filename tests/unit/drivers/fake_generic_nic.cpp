// fake_generic_nic.cpp: the fake generic NIC's descriptor handling (see
// fake_generic_nic.h).
#include "unit/drivers/fake_generic_nic.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace {
uint32_t owned(uint32_t head, uint32_t tail, uint32_t size) {
  return tail >= head ? tail - head : size - head + tail;
}
template <typename T>
T get(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void put(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}
}  // namespace

uint32_t FakeGenericNic::rx_owned() const {
  return owned(rx_head, reg(GN_REG_RX_TAIL), reg(GN_REG_RX_RING_SIZE));
}

uint32_t FakeGenericNic::tx_owned() const {
  return owned(tx_head, reg(GN_REG_TX_TAIL), reg(GN_REG_TX_RING_SIZE));
}

std::string FakeGenericNic::complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, uint16_t flags) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_RX_EN)) return "RX not enabled";
  if (rx_owned() == 0) return "no RX descriptor owned by the device";
  uint8_t *d = at(rx_ring() + (uint64_t)rx_head * reg(GN_REG_DESC_SPACING));
  uint16_t f = get<uint16_t>(d + GN_OFF_RX_FLAGS);
  if (!(f & GN_DESC_OWN)) return "RX descriptor before the tail without OWN";
  uint64_t buf = get<uint64_t>(d + offsetof(gn_rx_desc, buf_addr));
  uint16_t buf_len = get<uint16_t>(d + offsetof(gn_rx_desc, buf_len));
  uint32_t len = nf_dma_len(frame_bytes);
  if (buf == 0 || buf + buf_len > m_cp.mem_size) return "RX buffer address outside memory";
  if (buf_len != reg(GN_REG_RX_BUF_SIZE)) return "RX buf_len differs from RX_BUF_SIZE";
  if (len > buf_len) return "frame larger than the RX buffer";
  nf_fill(at(buf), len, m_seed, flow, seq);
  put<uint16_t>(d + offsetof(gn_rx_desc, pkt_len), static_cast<uint16_t>(len));  // pkt_len, then flags
  put<uint16_t>(d + GN_OFF_RX_FLAGS, static_cast<uint16_t>(flags & ~GN_DESC_OWN));
  rx_head = rx_head + 1 == reg(GN_REG_RX_RING_SIZE) ? 0 : rx_head + 1;
  m_pending++;
  return "";
}

std::string FakeGenericNic::complete_tx(nf_header *hdr, uint16_t flags) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_TX_EN)) return "TX not enabled";
  if (tx_owned() == 0) return "no TX descriptor owned by the device";
  uint8_t *d = at(tx_ring() + (uint64_t)tx_head * reg(GN_REG_DESC_SPACING));
  uint16_t f = get<uint16_t>(d + GN_OFF_TX_FLAGS);
  if ((f & (GN_DESC_OWN | GN_DESC_EOP)) != (GN_DESC_OWN | GN_DESC_EOP)) return "TX descriptor without OWN|EOP";
  uint64_t buf = get<uint64_t>(d + offsetof(gn_tx_desc, buf_addr));
  uint16_t len = get<uint16_t>(d + offsetof(gn_tx_desc, len));
  if (buf == 0 || buf + len > m_cp.mem_size) return "TX buffer address outside memory";
  std::vector<uint8_t> copy(at(buf), at(buf) + len);
  enum nf_verdict v = tx_forwarded ? nf_ip_forward_undo(copy.data(), len, m_seed, hdr) : nf_check(at(buf), len, m_seed, hdr);
  if (v != NF_OK) return std::string("TX frame: ") + nf_verdict_str(v);
  put<uint16_t>(d + GN_OFF_TX_FLAGS, static_cast<uint16_t>(flags & ~GN_DESC_OWN));
  tx_head = tx_head + 1 == reg(GN_REG_TX_RING_SIZE) ? 0 : tx_head + 1;
  m_pending++;
  return "";
}
