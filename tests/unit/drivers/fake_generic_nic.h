// fake_generic_nic.h: the generic NIC's side of src/hw/generic_nic_regs.h for driver
// unit tests, acting on descriptors and buffers in simulated memory directly.
#ifndef NICSIM_TESTS_DRIVERS_FAKE_GENERIC_NIC_H
#define NICSIM_TESTS_DRIVERS_FAKE_GENERIC_NIC_H

#include <cstdint>
#include <string>

#include "hw/generic_nic_regs.h"
#include "net/frame.h"
#include "unit/kernel/counting_platform.h"

class FakeGenericNic {
 public:
  FakeGenericNic(counting_platform &cp, uint64_t seed) : m_cp(cp), m_seed(seed) {}

  // A register as the driver last wrote it.
  uint32_t reg(uint32_t off) const { return m_cp.regs[off / 4]; }
  uint64_t rx_ring() const { return reg(GN_REG_RX_RING_LO) | (uint64_t)reg(GN_REG_RX_RING_HI) << 32; }
  uint64_t tx_ring() const { return reg(GN_REG_TX_RING_LO) | (uint64_t)reg(GN_REG_TX_RING_HI) << 32; }
  // Descriptors the device owns: [head, tail).
  uint32_t rx_owned() const;
  uint32_t tx_owned() const;

  // Writes test frame (flow, seq) of frame_bytes (FCS included; the FCS is
  // stripped) into the buffer of RX descriptor rx_head, writes pkt_len, then
  // flags (OWN cleared), and advances. `flags` is what the device writes back.
  // Returns "" or what a real device would see as a driver protocol error.
  std::string complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, uint16_t flags = GN_DESC_EOP);
  // Takes TX descriptor tx_head: it must carry OWN|EOP, a mapped frame that
  // passes nf_check; fills *hdr, writes flags back with OWN cleared, advances.
  std::string complete_tx(nf_header *hdr, uint16_t flags = GN_DESC_EOP);
  // traffic.mode forward: TX frames are received frames the host forwarded;
  // complete_tx checks them with nf_ip_forward_undo (on a copy) instead.
  bool tx_forwarded = false;

  // Completions not yet signalled by an MSI; the MSI fires while unmasked.
  bool irq_due() const { return m_pending > 0 && reg(GN_REG_INT_MASK) == 0 && (reg(GN_REG_CTRL) != 0); }
  void irq_sent() { m_pending = 0; }

  uint32_t rx_head = 0; // next RX descriptor the device completes
  uint32_t tx_head = 0; // next TX descriptor the device takes

 private:
  uint8_t *at(uint64_t pa) const { return m_cp.mem + pa; }
  counting_platform &m_cp;
  uint64_t m_seed;
  uint64_t m_pending = 0;
};

#endif
