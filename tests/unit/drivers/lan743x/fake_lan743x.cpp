// fake_lan743x.cpp: the fake LAN743x's registers and descriptor handling
// (see fake_lan743x.h).
#include "unit/drivers/lan743x/fake_lan743x.h"

#include <cstring>

namespace {
uint32_t owned(uint32_t head, uint32_t tail, uint32_t size) {
  return tail >= head ? tail - head : size - head + tail;
}
uint32_t get32(const uint8_t *p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void put32(uint8_t *p, uint32_t v) { std::memcpy(p, &v, sizeof v); }
}  // namespace

uint32_t FakeLan743x::read_reg(uint32_t off) {
  switch (off) {
    case GN_REG_INT_STATUS: {
      uint32_t v = status;
      status = 0;
      return v;
    }
    case GN_REG_RX_HEAD: return rx_head;
    case GN_REG_TX_HEAD: return tx_head;
    default: return m_cp.regs[off / 4];
  }
}

uint32_t FakeLan743x::rx_owned() const { return owned(rx_head, reg(GN_REG_RX_TAIL), reg(GN_REG_RX_RING_SIZE)); }
uint32_t FakeLan743x::tx_owned() const { return owned(tx_head, reg(GN_REG_TX_TAIL), reg(GN_REG_TX_RING_SIZE)); }

std::string FakeLan743x::complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, uint32_t flags) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_RX_EN)) return "RX not enabled";
  if (rx_owned() == 0) return "no RX descriptor owned by the device";
  uint8_t *d = at(rx_desc_pa(rx_head));
  uint32_t data0 = get32(d + offsetof(lan743x_rx_desc, data0));
  if (!(data0 & LAN743X_RX_DESC_DATA0_OWN)) return "RX descriptor before the tail without OWN";
  uint64_t buf = get32(d + offsetof(lan743x_rx_desc, data1)) |
                 (uint64_t)get32(d + offsetof(lan743x_rx_desc, data2)) << 32;
  uint32_t buf_len = data0 & LAN743X_RX_DESC_DATA0_BUF_LENGTH_MASK;
  uint32_t len = nf_dma_len(frame_bytes);
  if (buf == 0 || buf + buf_len > m_cp.mem_size) return "RX buffer address outside memory";
  if (len > buf_len) return "frame larger than the RX buffer";
  nf_fill(at(buf), len, m_seed, flow, seq);
  put32(d + offsetof(lan743x_rx_desc, data0),
        (flags & ~LAN743X_RX_DESC_DATA0_OWN) |
            ((frame_bytes << LAN743X_RX_DESC_DATA0_FRAME_LENGTH_SHIFT) & LAN743X_RX_DESC_DATA0_FRAME_LENGTH_MASK));
  rx_head = rx_head + 1 == reg(GN_REG_RX_RING_SIZE) ? 0 : rx_head + 1;
  status |= GN_INT_RX;
  m_pending |= GN_INT_RX;
  return "";
}

std::string FakeLan743x::complete_tx(nf_header *hdr) {
  if (!(reg(GN_REG_CTRL) & GN_CTRL_TX_EN)) return "TX not enabled";
  if (tx_owned() == 0) return "no TX descriptor owned by the device";
  const uint8_t *d = at(tx_desc_pa(tx_head));
  uint32_t data0 = get32(d + offsetof(lan743x_tx_desc, data0));
  const uint32_t need = LAN743X_TX_DESC_DATA0_FS | LAN743X_TX_DESC_DATA0_LS | LAN743X_TX_DESC_DATA0_IOC |
                        LAN743X_TX_DESC_DATA0_FCS;
  if ((data0 & need) != need) return "TX descriptor is not a one-descriptor frame with IOC and FCS";
  if ((data0 & LAN743X_TX_DESC_DATA0_DTYPE_MASK) != LAN743X_TX_DESC_DATA0_DTYPE_DATA) return "TX descriptor not DATA";
  uint64_t buf = get32(d + offsetof(lan743x_tx_desc, data1)) |
                 (uint64_t)get32(d + offsetof(lan743x_tx_desc, data2)) << 32;
  uint32_t len = data0 & LAN743X_TX_DESC_DATA0_BUF_LENGTH_MASK;
  uint32_t frame_len = (get32(d + offsetof(lan743x_tx_desc, data3)) & LAN743X_TX_DESC_DATA3_FRAME_LENGTH_MSS_MASK) >> 16;
  if (frame_len != len) return "TX data3 frame length differs from the buffer length";
  if (buf == 0 || buf + len > m_cp.mem_size) return "TX buffer address outside memory";
  enum nf_verdict v = nf_check(at(buf), len, m_seed, hdr);
  if (v != NF_OK) return std::string("TX frame: ") + nf_verdict_str(v);
  tx_head = tx_head + 1 == reg(GN_REG_TX_RING_SIZE) ? 0 : tx_head + 1;
  if (head_wb() == 0) return "no TX head write-back address";
  put32(at(head_wb()), tx_head);
  status |= GN_INT_TX;
  m_pending |= GN_INT_TX;
  return "";
}
