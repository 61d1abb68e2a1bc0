// fake_i40e_nic.cpp: the fake i40e device's descriptor handling (see fake_i40e_nic.h).
#include "unit/drivers/i40e/fake_i40e_nic.h"

#include <cstring>

namespace {
uint32_t owned(uint32_t head, uint32_t tail, uint32_t size) { return tail >= head ? tail - head : size - head + tail; }
uint64_t get64(const uint8_t *p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void put64(uint8_t *p, uint64_t v) { std::memcpy(p, &v, sizeof v); }
}  // namespace

uint32_t FakeI40eNic::rx_owned() const { return owned(rx_head, reg(GN_REG_RX_TAIL), reg(GN_REG_RX_RING_SIZE)); }
uint32_t FakeI40eNic::tx_owned() const { return tx_owned_q(0); }
uint32_t FakeI40eNic::tx_owned_q(uint32_t q) const {
  return owned(q ? tx_heads[q] : tx_head, reg(gn_qreg(q, GN_Q_TX_TAIL)), reg(gn_qreg(q, GN_Q_TX_RING_SIZE)));
}

std::string FakeI40eNic::complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, bool error) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_RX_EN)) return "RX not enabled";
  if (rx_owned() == 0) return "no RX descriptor owned by the device";
  uint8_t *d = at(reg64(GN_REG_RX_RING_LO, GN_REG_RX_RING_HI) + (uint64_t)rx_head * m_rx_bytes);
  uint64_t buf = get64(d);
  if (get64(d + 8) != 0) return "RX descriptor given to the device with hdr_addr / status not zero";
  const uint32_t buf_len = reg(GN_REG_RX_BUF_SIZE);
  const uint32_t len = nf_dma_len(frame_bytes);
  if (buf == 0 || buf + buf_len > m_cp.mem_size) return "RX buffer address outside memory";
  if (len > buf_len) return "frame larger than the RX buffer";
  nf_fill(at(buf), len, m_seed, flow, seq);
  uint64_t q1 = (1ULL << I40E_RX_DESC_STATUS_DD_SHIFT) | (1ULL << I40E_RX_DESC_STATUS_EOF_SHIFT) |
                ((uint64_t)len << I40E_RXD_QW1_LENGTH_PBUF_SHIFT);
  if (error) q1 |= 1ULL << 19;  // I40E_RXD_QW1_ERROR_SHIFT: RXE
  std::memset(d, 0, m_rx_bytes);
  put64(d + 8, q1);
  rx_head = rx_head + 1 == reg(GN_REG_RX_RING_SIZE) ? 0 : rx_head + 1;
  m_pending++;
  return "";
}

std::string FakeI40eNic::complete_tx_q(uint32_t q, nf_header *hdr) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_TX_EN)) return "TX not enabled";
  if (tx_owned_q(q) == 0) return "no TX descriptor owned by the device";
  uint32_t &tx_head = q ? tx_heads[q] : this->tx_head;
  const uint32_t size = reg(gn_qreg(q, GN_Q_TX_RING_SIZE));
  uint8_t *d = at(reg64(gn_qreg(q, GN_Q_TX_RING_LO), gn_qreg(q, GN_Q_TX_RING_HI)) + (uint64_t)tx_head * 16);
  uint64_t buf = get64(d), q1 = get64(d + 8);
  uint64_t dtype = (q1 & I40E_TXD_QW1_DTYPE_MASK) >> I40E_TXD_QW1_DTYPE_SHIFT;
  uint64_t cmd = (q1 & I40E_TXD_QW1_CMD_MASK) >> I40E_TXD_QW1_CMD_SHIFT;
  uint32_t len = (uint32_t)((q1 & I40E_TXD_QW1_TX_BUF_SZ_MASK) >> I40E_TXD_QW1_TX_BUF_SZ_SHIFT);
  if (dtype != I40E_TX_DESC_DTYPE_DATA) return "TX descriptor is not a data descriptor";
  if ((cmd & (I40E_TX_DESC_CMD_EOP | I40E_TX_DESC_CMD_RS)) != (I40E_TX_DESC_CMD_EOP | I40E_TX_DESC_CMD_RS))
    return "TX descriptor without EOP|RS";
  if (buf == 0 || buf + len > m_cp.mem_size) return "TX buffer address outside memory";
  enum nf_verdict v = nf_check(at(buf), len, m_seed, hdr);
  if (v != NF_OK) return std::string("TX frame: ") + nf_verdict_str(v);
  tx_head = tx_head + 1 == size ? 0 : tx_head + 1;
  if (m_head_wb) {
    uint64_t wb = q ? reg64(GN_REG_TXQ_HEAD_WB_LO(q), GN_REG_TXQ_HEAD_WB_HI(q))
                    : reg64(GN_REG_TX_HEAD_WB_LO, GN_REG_TX_HEAD_WB_HI);
    if (wb == 0) return "head write-back address not programmed";
    uint32_t h = tx_head;
    std::memcpy(at(wb), &h, 4);
  } else {
    put64(d + 8, (q1 & ~I40E_TXD_QW1_DTYPE_MASK) | I40E_TX_DESC_DTYPE_DESC_DONE);
  }
  m_pending++;
  return "";
}
