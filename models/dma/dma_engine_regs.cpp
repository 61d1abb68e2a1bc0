/* dma_engine_regs.cpp: the DMA engine's BAR0 register file: the register
 * target's timing (reg_transport), reads with their side effects, writes
 * and what they start (ring configuration, kicks, interrupt unmask, queue
 * block, RSS key and table). */
#include "dma/dma_engine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "hw/generic_nic_regs.h"
#include "hw/stmmac_regs.h"

namespace nicsim {

namespace {
bool caller_is_thread() {
  sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
  return h.valid() && h.proc_kind() != sc_core::SC_METHOD_PROC_;
}
}  // namespace

void DmaEngine::reg_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &delay) {
  bool can_wait = caller_is_thread();
  if (can_wait && delay != sc_core::SC_ZERO_TIME) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  uint64_t addr = p.get_address();
  if (addr >= GN_BAR0_SIZE) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (p.get_data_length() != 4 || (addr & 3) != 0 || p.get_streaming_width() < 4) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  uint8_t *data = p.get_data_ptr();
  uint32_t off = static_cast<uint32_t>(addr);
  if (p.is_read()) {
    uint32_t v = reg_read(off);
    for (int i = 0; i < 4; i++) data[i] = static_cast<uint8_t>(v >> (8 * i));
    m_cnt.mmio_reads++;
    sc_core::sc_time t(m_p.reg_read_ns, sc_core::SC_NS);
    if (can_wait) {
      wait(t);
    } else {
      delay += t;
    }
  } else if (p.is_write()) {
    uint32_t v = static_cast<uint32_t>(data[0] | (data[1] << 8) | (data[2] << 16)) |
                 (static_cast<uint32_t>(data[3]) << 24);
    reg_write(off, v);
    m_cnt.mmio_writes++;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

uint32_t DmaEngine::reg_read(uint32_t offset) {
  DescRing &rx0 = *m_rx[0], &tx0 = *m_tx[0];
  switch (offset) {
    case GN_REG_CTRL: return m_ctrl;
    case GN_REG_INT_STATUS: return m_irq.read_clear_status();
    case GN_REG_INT_MASK: return m_irq.mask();
    case GN_REG_DESC_SPACING: return m_spacing;
    case GN_REG_RX_RING_LO: return rx0.base_lo();
    case GN_REG_RX_RING_HI: return rx0.base_hi();
    case GN_REG_RX_RING_SIZE: return rx0.size();
    case GN_REG_RX_TAIL: return rx0.tail();
    case GN_REG_RX_HEAD: return rx0.head();
    case GN_REG_RX_BUF_SIZE: return m_rx_buf_size;
    case GN_REG_TX_RING_LO: return tx0.base_lo();
    case GN_REG_TX_RING_HI: return tx0.base_hi();
    case GN_REG_TX_RING_SIZE: return tx0.size();
    case GN_REG_TX_TAIL: return tx0.tail();
    case GN_REG_TX_HEAD: return tx0.head();
    case GN_REG_COAL_FRAMES: return m_irq.coal_frames();
    case GN_REG_COAL_USECS: return m_irq.coal_usecs();
    case GN_REG_RX_WATCHDOG: return m_riwt;
    case GN_REG_MSI_ADDR_LO: return m_irq.msi_addr_lo();
    case GN_REG_MSI_ADDR_HI: return m_irq.msi_addr_hi();
    case GN_REG_MSI_DATA: return m_irq.msi_data();
    case GN_REG_TX_HEAD_WB_LO: return static_cast<uint32_t>(m_tx_head_wb_addr[0]);
    case GN_REG_TX_HEAD_WB_HI: return static_cast<uint32_t>(m_tx_head_wb_addr[0] >> 32);
    case GN_REG_RSS_TABLE_SIZE: return m_rss_size;
    default: break;
  }
  uint32_t v = 0;
  if (queue_reg_read(offset, &v)) return v;
  if (offset >= GN_REG_RSS_KEY(0) && offset < GN_REG_RSS_KEY(GN_RSS_KEY_REGS)) {
    const uint8_t *k = m_rss_key + (offset - GN_REG_RSS_KEY(0));
    return k[0] | k[1] << 8 | k[2] << 16 | static_cast<uint32_t>(k[3]) << 24;
  }
  if (offset >= GN_REG_RSS_LUT(0) && offset < GN_REG_RSS_LUT(GN_RSS_LUT_REGS)) {
    const uint8_t *e = m_rss_lut + (offset - GN_REG_RSS_LUT(0));
    return e[0] | e[1] << 8 | e[2] << 16 | static_cast<uint32_t>(e[3]) << 24;
  }
  return 0; /* reserved: reads as zero */
}

/* Registers of a queue block, the MSI-X data table and the per-queue head
 * write-back addresses: false if offset is none of them (or names a queue
 * or vector the device does not have: reserved). */
bool DmaEngine::queue_reg_read(uint32_t offset, uint32_t *v) {
  if (offset >= GN_REG_VEC_COAL(0) && offset < GN_REG_VEC_COAL(GN_MAX_QUEUES)) {
    const uint32_t vec = (offset - GN_REG_VEC_COAL(0)) / 0x10, r = offset & 0xC;
    if (vec >= vectors()) return false;
    const bool tx = r >= GN_VC_TX_FRAMES;
    *v = (r == GN_VC_RX_FRAMES || r == GN_VC_TX_FRAMES) ? irq(vec).dir_coal_frames(tx) : irq(vec).dir_coal_usecs(tx);
    return true;
  }
  if (offset >= GN_REG_MSIX_DATA(0) && offset < GN_REG_MSIX_DATA(GN_MAX_QUEUES)) {
    const uint32_t vec = (offset - GN_REG_MSIX_DATA(0)) / 4;
    if (vec >= vectors()) return false;
    *v = irq(vec).msi_data();
    return true;
  }
  if (offset >= GN_REG_TXQ_VEC(0) && offset < GN_REG_TXQ_VEC(GN_MAX_QUEUES)) {
    const uint32_t q = (offset - GN_REG_TXQ_VEC(0)) / 4;
    if (q >= tx_queues()) return false;
    *v = m_tx_wb[q].irq->vector();
    return true;
  }
  if (offset >= GN_REG_TXQ_HEAD_WB_LO(0) && offset < GN_REG_TXQ_HEAD_WB_LO(GN_MAX_QUEUES)) {
    const uint32_t q = (offset - GN_REG_TXQ_HEAD_WB_LO(0)) / 8;
    if (q >= tx_queues()) return false;
    *v = static_cast<uint32_t>(m_tx_head_wb_addr[q] >> ((offset & 4) ? 32 : 0));
    return true;
  }
  if (offset < GN_QBLOCK(0) || offset >= GN_QBLOCK(GN_MAX_QUEUES)) return false;
  const uint32_t q = (offset - GN_QBLOCK(0)) / (GN_QBLOCK(1) - GN_QBLOCK(0));
  const uint32_t r = (offset - GN_QBLOCK(0)) % (GN_QBLOCK(1) - GN_QBLOCK(0));
  if (r <= GN_Q_RX_HEAD) {
    if (q >= rx_queues()) return false;
    const DescRing &x = *m_rx[q];
    switch (r) {
      case GN_Q_RX_RING_LO: *v = x.base_lo(); break;
      case GN_Q_RX_RING_HI: *v = x.base_hi(); break;
      case GN_Q_RX_RING_SIZE: *v = x.size(); break;
      case GN_Q_RX_TAIL: *v = x.tail(); break;
      default: *v = x.head(); break;
    }
    return true;
  }
  if (r <= GN_Q_TX_HEAD) {
    if (q >= tx_queues()) return false;
    const DescRing &x = *m_tx[q];
    switch (r) {
      case GN_Q_TX_RING_LO: *v = x.base_lo(); break;
      case GN_Q_TX_RING_HI: *v = x.base_hi(); break;
      case GN_Q_TX_RING_SIZE: *v = x.size(); break;
      case GN_Q_TX_TAIL: *v = x.tail(); break;
      default: *v = x.head(); break;
    }
    return true;
  }
  if (q >= vectors()) return false;
  IrqModerator &m = irq(q);
  switch (r) {
    case GN_Q_INT_STATUS: *v = m.read_clear_status(); break;
    case GN_Q_INT_MASK: *v = m.mask(); break;
    case GN_Q_COAL_FRAMES: *v = m.coal_frames(); break;
    case GN_Q_COAL_USECS: *v = m.coal_usecs(); break;
    case GN_Q_MSI_ADDR_LO: *v = m.msi_addr_lo(); break;
    case GN_Q_MSI_ADDR_HI: *v = m.msi_addr_hi(); break;
    default: return false;
  }
  return true;
}

void DmaEngine::reg_write(uint32_t offset, uint32_t value) {
  DescRing &rx0 = *m_rx[0], &tx0 = *m_tx[0];
  switch (offset) {
    case GN_REG_CTRL:
      m_ctrl = value;
      ctrl_changed();
      break;
    case GN_REG_INT_STATUS: m_irq.clear_status(value); break;
    case GN_REG_INT_MASK: m_irq.set_mask(value); break;
    case GN_REG_DESC_SPACING: {
      bool owned = false;
      for (const auto &r : m_rx) owned |= r->owned() != 0;
      for (const auto &r : m_tx) owned |= r->owned() != 0;
      if (value < std::min(m_codec.desc_bytes(), m_codec.tx_desc_bytes())) {
        violation("DESC_SPACING %u below the %u-byte descriptor", value,
                  std::min(m_codec.desc_bytes(), m_codec.tx_desc_bytes()));
      } else if (owned) {
        violation("DESC_SPACING changed while the device owns descriptors");
      } else {
        m_spacing = value;
        set_ring_geometry();
      }
      break;
    }
    case GN_REG_RX_RING_LO: ring_config_write(rx0, "RX", 0, value); break;
    case GN_REG_RX_RING_HI: ring_config_write(rx0, "RX", 1, value); break;
    case GN_REG_RX_RING_SIZE: ring_config_write(rx0, "RX", 2, value); break;
    case GN_REG_TX_RING_LO: ring_config_write(tx0, "TX", 0, value); break;
    case GN_REG_TX_RING_HI: ring_config_write(tx0, "TX", 1, value); break;
    case GN_REG_TX_RING_SIZE: ring_config_write(tx0, "TX", 2, value); break;
    case GN_REG_RX_TAIL:
    case GN_REG_TX_TAIL: {
      DescRing &r = offset == GN_REG_RX_TAIL ? rx0 : tx0;
      if (const char *err = r.set_tail(value)) {
        violation("%s tail write %u (head %u, size %u): %s", offset == GN_REG_RX_TAIL ? "RX" : "TX",
                  value, r.head(), r.size(), err);
        r.halt();
      }
      break;
    }
    case GN_REG_RX_BUF_SIZE: m_rx_buf_size = value; break;
    case GN_REG_COAL_FRAMES: m_irq.set_coal_frames(value); break;
    case GN_REG_COAL_USECS: m_irq.set_coal_usecs(value); break;
    case GN_REG_RX_WATCHDOG:
      /* RWT (8 bits) x 256 CSR clock cycles: the moderation timer (dwmac4 DMA_CHAN_RX_WATCHDOG). */
      m_riwt = value & 0xFFu;
      m_irq.set_coal_ps(static_cast<uint64_t>(
          std::llround(static_cast<double>(m_riwt) * STMMAC_RIWT_UNIT_CYCLES * 1e6 / m_p.csr_clock_mhz)));
      break;
    case GN_REG_MSI_ADDR_LO: m_irq.set_msi_addr_lo(value); break;
    case GN_REG_MSI_ADDR_HI: m_irq.set_msi_addr_hi(value); break;
    case GN_REG_MSI_DATA: m_irq.set_msi_data(value); break;
    case GN_REG_TX_HEAD_WB_LO: m_tx_head_wb_addr[0] = (m_tx_head_wb_addr[0] & ~0xFFFFFFFFull) | value; break;
    case GN_REG_TX_HEAD_WB_HI:
      m_tx_head_wb_addr[0] = (m_tx_head_wb_addr[0] & 0xFFFFFFFFull) | (static_cast<uint64_t>(value) << 32);
      break;
    default:
      if (queue_reg_write(offset, value)) break;
      if ((offset >= GN_REG_RSS_KEY(0) && offset < GN_REG_RSS_KEY(GN_RSS_KEY_REGS)) ||
          offset == GN_REG_RSS_TABLE_SIZE ||
          (offset >= GN_REG_RSS_LUT(0) && offset < GN_REG_RSS_LUT(GN_RSS_LUT_REGS))) {
        rss_reg_write(offset, value);
      }
      break; /* head registers are read-only; reserved ones ignore writes */
  }
}

bool DmaEngine::queue_reg_write(uint32_t offset, uint32_t value) {
  if (offset >= GN_REG_VEC_COAL(0) && offset < GN_REG_VEC_COAL(GN_MAX_QUEUES)) {
    const uint32_t vec = (offset - GN_REG_VEC_COAL(0)) / 0x10, r = offset & 0xC;
    if (vec >= vectors()) return false;
    const bool tx = r >= GN_VC_TX_FRAMES;
    if (r == GN_VC_RX_FRAMES || r == GN_VC_TX_FRAMES)
      irq(vec).set_dir_coal_frames(tx, value);
    else
      irq(vec).set_dir_coal_usecs(tx, value);
    return true;
  }
  if (offset >= GN_REG_MSIX_DATA(0) && offset < GN_REG_MSIX_DATA(GN_MAX_QUEUES)) {
    const uint32_t vec = (offset - GN_REG_MSIX_DATA(0)) / 4;
    if (vec >= vectors()) return false;
    irq(vec).set_msi_data(value);
    return true;
  }
  if (offset >= GN_REG_TXQ_VEC(0) && offset < GN_REG_TXQ_VEC(GN_MAX_QUEUES)) {
    const uint32_t q = (offset - GN_REG_TXQ_VEC(0)) / 4;
    if (q >= tx_queues()) return false;
    if (value >= vectors()) {
      violation("TX queue %u linked to vector %u, but the device has %u vectors", q, value, vectors());
      return true;
    }
    if (m_tx[q]->owned()) {
      violation("TX queue %u relinked to vector %u while the device owns %u of its descriptors", q, value,
                m_tx[q]->owned());
      return true;
    }
    m_tx_wb[q].irq = &irq(value);
    return true;
  }
  if (offset >= GN_REG_TXQ_HEAD_WB_LO(0) && offset < GN_REG_TXQ_HEAD_WB_LO(GN_MAX_QUEUES)) {
    const uint32_t q = (offset - GN_REG_TXQ_HEAD_WB_LO(0)) / 8;
    if (q >= tx_queues()) return false;
    uint64_t &a = m_tx_head_wb_addr[q];
    if (offset & 4)
      a = (a & 0xFFFFFFFFull) | (static_cast<uint64_t>(value) << 32);
    else
      a = (a & ~0xFFFFFFFFull) | value;
    return true;
  }
  if (offset < GN_QBLOCK(0) || offset >= GN_QBLOCK(GN_MAX_QUEUES)) return false;
  const uint32_t q = (offset - GN_QBLOCK(0)) / (GN_QBLOCK(1) - GN_QBLOCK(0));
  const uint32_t r = (offset - GN_QBLOCK(0)) % (GN_QBLOCK(1) - GN_QBLOCK(0));
  char which[16];
  if (r <= GN_Q_TX_HEAD) {
    const bool rx = r <= GN_Q_RX_HEAD;
    if (q >= (rx ? rx_queues() : tx_queues())) return false;
    DescRing &x = rx ? *m_rx[q] : *m_tx[q];
    std::snprintf(which, sizeof which, "%s queue %u", rx ? "RX" : "TX", q);
    const uint32_t f = rx ? r : r - GN_Q_TX_RING_LO;
    switch (f) {
      case GN_Q_RX_RING_LO: ring_config_write(x, which, 0, value); break;
      case GN_Q_RX_RING_HI: ring_config_write(x, which, 1, value); break;
      case GN_Q_RX_RING_SIZE: ring_config_write(x, which, 2, value); break;
      case GN_Q_RX_TAIL:
        if (const char *err = x.set_tail(value)) {
          violation("%s tail write %u (head %u, size %u): %s", which, value, x.head(), x.size(), err);
          x.halt();
        }
        break;
      default: break; /* head: read-only */
    }
    return true;
  }
  if (q >= vectors()) return false;
  IrqModerator &m = irq(q);
  switch (r) {
    case GN_Q_INT_STATUS: m.clear_status(value); break;
    case GN_Q_INT_MASK: m.set_mask(value); break;
    case GN_Q_COAL_FRAMES: m.set_coal_frames(value); break;
    case GN_Q_COAL_USECS: m.set_coal_usecs(value); break;
    case GN_Q_MSI_ADDR_LO: m.set_msi_addr_lo(value); break;
    case GN_Q_MSI_ADDR_HI: m.set_msi_addr_hi(value); break;
    default: return false;
  }
  return true;
}

/* RSS key, table size and indirection table. An entry naming a queue the
 * device does not have, or a table size that is not a power of two up to
 * GN_RSS_LUT_MAX, is a violation (the write is refused). */
void DmaEngine::rss_reg_write(uint32_t offset, uint32_t value) {
  if (offset == GN_REG_RSS_TABLE_SIZE) {
    if (value > GN_RSS_LUT_MAX || (value & (value - 1)) != 0) {
      violation("RSS_TABLE_SIZE %u is not a power of two up to %u (0: RSS off)", value, GN_RSS_LUT_MAX);
      return;
    }
    m_rss_size = value;
    return;
  }
  uint8_t b[4];
  for (int i = 0; i < 4; i++) b[i] = static_cast<uint8_t>(value >> (8 * i));
  if (offset < GN_REG_RSS_KEY(GN_RSS_KEY_REGS)) {
    std::memcpy(m_rss_key + (offset - GN_REG_RSS_KEY(0)), b, 4);
    return;
  }
  const uint32_t first = offset - GN_REG_RSS_LUT(0);
  for (uint32_t i = 0; i < 4; i++) {
    if (b[i] >= rx_queues()) {
      violation("RSS table entry %u names RX queue %u, but the device has %u RX queues", first + i, b[i],
                rx_queues());
      return;
    }
  }
  std::memcpy(m_rss_lut + first, b, 4);
}

void DmaEngine::ring_config_write(DescRing &r, const char *which, int field, uint32_t value) {
  if (r.owned()) {
    violation("%s ring base or size written while the device owns %u descriptors", which, r.owned());
    r.halt();
    return;
  }
  switch (field) {
    case 0: r.set_base_lo(value); break;
    case 1: r.set_base_hi(value); break;
    default: r.set_size(value); break;
  }
  set_owns_window();
}

void DmaEngine::ctrl_changed() {
  m_ctrl_event.notify();
  if (m_ctrl_nb_wait) {
    m_ctrl_nb_wait = false;
    m_ctrl_nb.notify();
  }
  for (auto &r : m_rx) r->kick_fetch();
  for (auto &r : m_tx) r->kick_fetch();
}

}  // namespace nicsim
