// stmmac_rig.h: the stmmac driver probed on a counting platform with a fake
// dwmac4 device (descriptors in simulated memory, status register
// read-to-clear and write-1-to-clear), on the shared driver rig (host sink,
// "interrupt, then softirqs" step).
#ifndef NICSIM_TESTS_DRIVERS_STMMAC_RIG_H
#define NICSIM_TESTS_DRIVERS_STMMAC_RIG_H

#include <cstring>
#include <string>

#include "drivers/stmmac.h"
#include "unit/drivers/driver_rig.h"

// The device side of src/hw/stmmac_regs.h on nicsim's common register block.
// Time is not modelled: an RX completion without IOC counts as a watchdog
// expiry the next time the rig services interrupts.
class FakeStmmac {
 public:
  FakeStmmac(counting_platform &cp, uint64_t seed) : m_cp(cp), m_seed(seed) {}

  uint32_t reg(uint32_t off) const { return m_cp.regs[off / 4]; }
  uint64_t rx_ring() const { return reg(GN_REG_RX_RING_LO) | (uint64_t)reg(GN_REG_RX_RING_HI) << 32; }
  uint64_t tx_ring() const { return reg(GN_REG_TX_RING_LO) | (uint64_t)reg(GN_REG_TX_RING_HI) << 32; }
  static uint32_t dist(uint32_t head, uint32_t tail, uint32_t size) {
    return tail >= head ? tail - head : size - head + tail;
  }
  uint32_t rx_owned() const { return dist(rx_head, reg(GN_REG_RX_TAIL), reg(GN_REG_RX_RING_SIZE)); }
  uint32_t tx_owned() const { return dist(tx_head, reg(GN_REG_TX_TAIL), reg(GN_REG_TX_RING_SIZE)); }
  stmmac_dma_desc desc(uint64_t ring, uint32_t i) const {
    stmmac_dma_desc d;
    std::memcpy(&d, m_cp.mem + ring + 16ull * i, sizeof d);
    return d;
  }
  void put(uint64_t ring, uint32_t i, const stmmac_dma_desc &d) { std::memcpy(m_cp.mem + ring + 16ull * i, &d, sizeof d); }

  // The DMA completes RX descriptor rx_head with frame (flow, seq): the frame
  // (without FCS) at the descriptor's buffer address, des3 = FD | LD | length
  // with FCS, OWN clear, as dwmac4 writes it back.
  std::string complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, uint32_t extra = 0) {
    if (!(reg(GN_REG_CTRL) & GN_CTRL_RX_EN)) return "RX not enabled";
    if (rx_owned() == 0) return "no RX descriptor owned by the device";
    stmmac_dma_desc d = desc(rx_ring(), rx_head);
    const uint32_t want = STMMAC_RDES3_OWN | STMMAC_RDES3_BUFFER1_VALID_ADDR;
    if ((d.des3 & want) != want) return "RX descriptor before the tail without OWN | BUF1V";
    uint64_t buf = d.des0 | (uint64_t)d.des1 << 32;
    uint32_t len = nf_dma_len(frame_bytes);
    if (len > reg(GN_REG_RX_BUF_SIZE)) return "frame larger than RBSZ";
    if (buf == 0 || buf + reg(GN_REG_RX_BUF_SIZE) > m_cp.mem_size) return "RX buffer outside memory";
    bool ioc = (d.des3 & STMMAC_RDES3_INT_ON_COMPLETION_EN) != 0;
    rx_ioc_seen += ioc;
    last_rx_buf = buf;
    nf_fill(m_cp.mem + buf, len, m_seed, flow, seq);
    put(rx_ring(), rx_head, stmmac_dma_desc{0, 0, 0,
                                            STMMAC_RDES3_FIRST_DESCRIPTOR | STMMAC_RDES3_LAST_DESCRIPTOR | extra |
                                                (frame_bytes & STMMAC_RDES3_PACKET_SIZE_MASK)});
    rx_head = (rx_head + 1) % reg(GN_REG_RX_RING_SIZE);
    m_status |= GN_INT_RX;
    (ioc ? m_ioc_pending : m_wd_pending) = true;
    return "";
  }
  // The DMA sends TX descriptor tx_head: OWN | FD | LD, a mapped frame that
  // passes nf_check; des3 written back with OWN clear.
  std::string complete_tx(nf_header *hdr) {
    if (!(reg(GN_REG_CTRL) & GN_CTRL_TX_EN)) return "TX not enabled";
    if (tx_owned() == 0) return "no TX descriptor owned by the device";
    stmmac_dma_desc d = desc(tx_ring(), tx_head);
    const uint32_t want = STMMAC_TDES3_OWN | STMMAC_TDES3_FIRST_DESCRIPTOR | STMMAC_TDES3_LAST_DESCRIPTOR;
    if ((d.des3 & want) != want) return "TX descriptor without OWN | FD | LD";
    uint32_t len = d.des2 & STMMAC_TDES2_BUFFER1_SIZE_MASK;
    if ((d.des3 & STMMAC_TDES3_PACKET_SIZE_MASK) != len) return "TDES3 packet length differs from TDES2 buffer length";
    uint64_t buf = d.des0 | (uint64_t)d.des1 << 32;
    if (buf == 0 || buf + len > m_cp.mem_size) return "TX buffer outside memory";
    enum nf_verdict v = nf_check(m_cp.mem + buf, len, m_seed, hdr);
    if (v != NF_OK) return std::string("TX frame: ") + nf_verdict_str(v);
    bool ioc = (d.des2 & STMMAC_TDES2_INTERRUPT_ON_COMPLETION) != 0;
    tx_ioc_seen += ioc;
    d.des3 &= ~STMMAC_TDES3_OWN;
    put(tx_ring(), tx_head, d);
    tx_head = (tx_head + 1) % reg(GN_REG_TX_RING_SIZE);
    m_status |= GN_INT_TX;
    if (ioc) m_ioc_pending = true;  // TX without IOC raises nothing (no TX watchdog)
    return "";
  }

  // An MSI is due: an IOC completion or an RX watchdog expiry, unmasked.
  bool irq_due() const {
    return (m_ioc_pending || m_wd_pending) && reg(GN_REG_INT_MASK) == 0 && reg(GN_REG_CTRL) != 0;
  }
  void irq_sent() { m_ioc_pending = m_wd_pending = false; }

  // Register hooks: INT_STATUS is read-to-clear and write-1-to-clear.
  uint32_t mmio_read(uint32_t off) {
    if (off == GN_REG_INT_STATUS) {
      uint32_t v = m_status;
      m_status = 0;
      return v;
    }
    return reg(off);
  }
  void mmio_write(uint32_t off, uint32_t val) {
    if (off == GN_REG_INT_STATUS) m_status &= ~val;
  }

  uint32_t rx_head = 0, tx_head = 0;
  uint64_t rx_ioc_seen = 0, tx_ioc_seen = 0;
  uint64_t last_rx_buf = 0;

 private:
  counting_platform &m_cp;
  uint64_t m_seed;
  uint32_t m_status = 0;
  bool m_ioc_pending = false, m_wd_pending = false;
};

struct StmmacRig : DriverRig<FakeStmmac, STMMAC_IRQ_VEC> {
  stmmac_priv *priv = nullptr;

  // Creates the kernel (edit t.cfg first via tweak) and probes "stmmac";
  // INT_STATUS reads and writes go to the fake device.
  bool start(bool coherent, const Tweak &tweak = {}) {
    t.cfg.driver.name = NC_DRIVER_STMMAC;
    t.cfg.nic.family = NC_NIC_STMMAC;
    if (!create(coherent, tweak)) return false;
    nic = std::make_unique<FakeStmmac>(t.cp, seed());
    t.cp.on_mmio_read = [](void *u, uint32_t off) { return self(u)->nic->mmio_read(off); };
    t.cp.on_mmio_write = [](void *u, uint32_t off, uint32_t v) { self(u)->nic->mmio_write(off, v); };
    return probe(&priv);
  }
  // Fires the TX coalescing timer (if armed) and runs the softirqs it schedules.
  bool fire_tx_timer() {
    int id = priv->txtimer.id - 1;
    if (!cp_fire_timer(&t.cp, t.k, id)) return false;
    softirqs();
    return true;
  }
};

#endif
