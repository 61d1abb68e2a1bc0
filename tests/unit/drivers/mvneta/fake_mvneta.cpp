// fake_mvneta.cpp: the fake mvneta device's descriptor handling and register
// reads (see fake_mvneta.h).
#include "unit/drivers/mvneta/fake_mvneta.h"

#include <cstddef>
#include <cstring>

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

uint32_t FakeMvneta::read_reg(uint32_t off) {
  switch (off) {
    case GN_REG_RX_HEAD: return rx_head;
    case GN_REG_TX_HEAD: return tx_head;
    case GN_REG_INT_STATUS: {
      uint32_t c = cause;
      cause = 0;
      return c;
    }
    default: return reg(off);
  }
}

uint32_t FakeMvneta::rx_owned() const { return owned(rx_head, reg(GN_REG_RX_TAIL), reg(GN_REG_RX_RING_SIZE)); }

uint32_t FakeMvneta::tx_owned() const { return owned(tx_head, reg(GN_REG_TX_TAIL), reg(GN_REG_TX_RING_SIZE)); }

std::string FakeMvneta::complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, uint32_t status) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_RX_EN)) return "RX not enabled";
  if (rx_owned() == 0) return "no RX descriptor owned by the device";
  uint8_t *d = at(rx_ring() + (uint64_t)rx_head * reg(GN_REG_DESC_SPACING));
  uint64_t buf = get<uint32_t>(d + offsetof(mvneta_rx_desc, buf_phys_addr));
  uint32_t buf_size = reg(GN_REG_RX_BUF_SIZE);
  uint32_t len = nf_dma_len(frame_bytes);
  if (buf == 0 || buf + buf_size > m_cp.mem_size) return "RX buffer address outside memory";
  if (MVNETA_MH_SIZE + len > buf_size) return "frame larger than the RX buffer";
  nf_fill(at(buf + MVNETA_MH_SIZE), len, m_seed, flow, seq);
  put<uint32_t>(d + offsetof(mvneta_rx_desc, status), status);
  put<uint16_t>(d + offsetof(mvneta_rx_desc, data_size), static_cast<uint16_t>(len + MVNETA_MH_SIZE + 4));
  rx_head = rx_head + 1 == reg(GN_REG_RX_RING_SIZE) ? 0 : rx_head + 1;
  cause |= GN_INT_RX;
  m_pending++;
  return "";
}

std::string FakeMvneta::complete_tx(nf_header *hdr) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_TX_EN)) return "TX not enabled";
  if (tx_owned() == 0) return "no TX descriptor owned by the device";
  uint8_t *d = at(tx_ring() + (uint64_t)tx_head * reg(GN_REG_DESC_SPACING));
  uint32_t cmd = get<uint32_t>(d + offsetof(mvneta_tx_desc, command));
  if ((cmd & (MVNETA_TXD_F_DESC | MVNETA_TXD_L_DESC)) != (MVNETA_TXD_F_DESC | MVNETA_TXD_L_DESC))
    return "TX descriptor is not first and last";
  uint64_t buf = get<uint32_t>(d + offsetof(mvneta_tx_desc, buf_phys_addr));
  uint16_t len = get<uint16_t>(d + offsetof(mvneta_tx_desc, data_size));
  if (buf == 0 || buf + len > m_cp.mem_size) return "TX buffer address outside memory";
  enum nf_verdict v = nf_check(at(buf), len, m_seed, hdr);
  if (v != NF_OK) return std::string("TX frame: ") + nf_verdict_str(v);
  tx_head = tx_head + 1 == reg(GN_REG_TX_RING_SIZE) ? 0 : tx_head + 1;
  cause |= GN_INT_TX;
  m_pending++;
  return "";
}
