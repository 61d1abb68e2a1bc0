// fake_lan743x.h: the LAN743x device side for the lan743x driver's unit tests:
// nicsim's common register block (src/hw/generic_nic_regs.h) with LAN743x
// descriptors (src/hw/lan743x_regs.h), acting on simulated memory directly.
#ifndef NICSIM_TESTS_DRIVERS_LAN743X_FAKE_LAN743X_H
#define NICSIM_TESTS_DRIVERS_LAN743X_FAKE_LAN743X_H

#include <cstdint>
#include <string>

#include "hw/generic_nic_regs.h"
#include "hw/lan743x_regs.h"
#include "net/frame.h"
#include "unit/kernel/counting_platform.h"

class FakeLan743x {
 public:
  FakeLan743x(counting_platform &cp, uint64_t seed) : m_cp(cp), m_seed(seed) {}

  // A register read by the CPU (the platform's MMIO read hook calls this):
  // INT_STATUS clears on read; the heads are the device's.
  uint32_t read_reg(uint32_t off);

  // A register as the driver last wrote it.
  uint32_t reg(uint32_t off) const { return m_cp.regs[off / 4]; }
  uint64_t rx_ring() const { return reg(GN_REG_RX_RING_LO) | (uint64_t)reg(GN_REG_RX_RING_HI) << 32; }
  uint64_t tx_ring() const { return reg(GN_REG_TX_RING_LO) | (uint64_t)reg(GN_REG_TX_RING_HI) << 32; }
  uint64_t head_wb() const { return reg(GN_REG_TX_HEAD_WB_LO) | (uint64_t)reg(GN_REG_TX_HEAD_WB_HI) << 32; }
  uint32_t spacing() const { return reg(GN_REG_DESC_SPACING); }
  // Descriptors the device owns: [head, tail).
  uint32_t rx_owned() const;
  uint32_t tx_owned() const;
  // Bus address of RX / TX descriptor i.
  uint64_t rx_desc_pa(uint32_t i) const { return rx_ring() + (uint64_t)i * spacing(); }
  uint64_t tx_desc_pa(uint32_t i) const { return tx_ring() + (uint64_t)i * spacing(); }

  // Writes test frame (flow, seq) of frame_bytes (FCS included and stripped:
  // frame_bytes - 4 bytes land in the buffer) into RX descriptor rx_head's
  // buffer, then data0 = `flags` | FRAME_LENGTH (frame_bytes, with FCS) with
  // OWN clear, and advances. Returns "" or the driver protocol error a real
  // device would trip over.
  std::string complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq,
                          uint32_t flags = LAN743X_RX_DESC_DATA0_FS | LAN743X_RX_DESC_DATA0_LS);
  // Takes TX descriptor tx_head: one-descriptor frame (FS|LS, IOC, FCS),
  // mapped, passing nf_check; fills *hdr, advances and writes the new head
  // index to the head write-back word.
  std::string complete_tx(nf_header *hdr);

  // Completions not yet signalled; the MSI fires while one of their causes is unmasked.
  bool irq_due() const {
    return (m_pending & ~reg(GN_REG_INT_MASK) & GN_INT_ALL) && reg(GN_REG_CTRL) != 0 && reg(GN_REG_MSI_ADDR_LO) != 0;
  }
  void irq_sent() { m_pending = 0; }

  uint32_t rx_head = 0; // next RX descriptor the device completes
  uint32_t tx_head = 0; // next TX descriptor the device takes
  uint32_t status = 0;  // INT_STATUS (read to clear)

 private:
  uint8_t *at(uint64_t pa) const { return m_cp.mem + pa; }
  counting_platform &m_cp;
  uint64_t m_seed;
  uint32_t m_pending = 0;
};

#endif
