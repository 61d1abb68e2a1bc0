// fake_mvneta.h: the mvneta device's side of src/hw/mvneta_regs.h and nicsim's
// common register block for driver unit tests: completes RX and TX
// descriptors in simulated memory and answers the driver's register reads
// (RX_HEAD, TX_HEAD, read-to-clear INT_STATUS) as models/dma does.
#ifndef NICSIM_TESTS_DRIVERS_MVNETA_FAKE_MVNETA_H
#define NICSIM_TESTS_DRIVERS_MVNETA_FAKE_MVNETA_H

#include <cstdint>
#include <string>

#include "hw/generic_nic_regs.h"
#include "hw/mvneta_regs.h"
#include "net/frame.h"
#include "unit/kernel/counting_platform.h"

class FakeMvneta {
 public:
  FakeMvneta(counting_platform &cp, uint64_t seed) : m_cp(cp), m_seed(seed) {}

  // What a register read returns (the rig routes cp.on_mmio_read here):
  // RX_HEAD, TX_HEAD, INT_STATUS (cleared by the read), else as written.
  uint32_t read_reg(uint32_t off);

  // A register as the driver last wrote it.
  uint32_t reg(uint32_t off) const { return m_cp.regs[off / 4]; }
  uint64_t rx_ring() const { return reg(GN_REG_RX_RING_LO) | (uint64_t)reg(GN_REG_RX_RING_HI) << 32; }
  uint64_t tx_ring() const { return reg(GN_REG_TX_RING_LO) | (uint64_t)reg(GN_REG_TX_RING_HI) << 32; }
  // Descriptors the device owns: [head, tail).
  uint32_t rx_owned() const;
  uint32_t tx_owned() const;

  // Writes test frame (flow, seq) of frame_bytes (FCS included, not written)
  // MVNETA_MH_SIZE bytes into the buffer of RX descriptor rx_head, then
  // status and data_size (frame + header + FCS) as MvnetaDescCodec does, and
  // advances. `status` is what the device writes. "" or a protocol error.
  std::string complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq,
                          uint32_t status = MVNETA_RXD_FIRST_LAST_DESC);
  // Takes TX descriptor tx_head: it must carry F|L, a mapped frame that passes
  // nf_check; fills *hdr and advances (mvneta does not write TX descriptors back).
  std::string complete_tx(nf_header *hdr);

  // Completions not yet signalled; the interrupt fires while unmasked.
  bool irq_due() const { return m_pending > 0 && reg(GN_REG_INT_MASK) == 0 && reg(GN_REG_CTRL) != 0; }
  void irq_sent() { m_pending = 0; }

  uint32_t rx_head = 0;  // next RX descriptor the device completes
  uint32_t tx_head = 0;  // next TX descriptor the device sends
  uint32_t cause = 0;    // INT_STATUS: GN_INT_* since the last read

 private:
  uint8_t *at(uint64_t pa) const { return m_cp.mem + pa; }
  counting_platform &m_cp;
  uint64_t m_seed;
  uint64_t m_pending = 0;
};

#endif
