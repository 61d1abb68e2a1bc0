// fake_i40e_nic.h: the i40e device's side of src/hw/i40e_regs.h on nicsim's common
// register block, for driver unit tests: acts on descriptors and buffers in
// simulated memory directly, as the DMA engine with I40eDescCodec would.
#ifndef NICSIM_TESTS_DRIVERS_I40E_FAKE_I40E_NIC_H
#define NICSIM_TESTS_DRIVERS_I40E_FAKE_I40E_NIC_H

#include <cstdint>
#include <string>

#include "hw/generic_nic_regs.h"
#include "hw/i40e_regs.h"
#include "net/frame.h"
#include "unit/kernel/counting_platform.h"

class FakeI40eNic {
 public:
  // rx_desc_bytes: 16 or 32 (nic.rx_desc_bytes); head_wb: TX completion by
  // head write-back (nic.wb_mode head), else DTYPE DESC_DONE.
  FakeI40eNic(counting_platform &cp, uint64_t seed, uint32_t rx_desc_bytes, bool head_wb)
      : m_cp(cp), m_seed(seed), m_rx_bytes(rx_desc_bytes), m_head_wb(head_wb) {}

  // A register as the driver last wrote it.
  uint32_t reg(uint32_t off) const { return m_cp.regs[off / 4]; }
  uint64_t reg64(uint32_t lo, uint32_t hi) const { return reg(lo) | (uint64_t)reg(hi) << 32; }
  // Descriptors the device owns: [head, tail).
  uint32_t rx_owned() const;
  uint32_t tx_owned() const;

  // Writes test frame (flow, seq) of frame_bytes (FCS stripped) into the
  // buffer of RX descriptor rx_head, then the write-back (qword0 = 0, qword1 =
  // DD | EOF | length; `error` sets RXE), and advances. Returns "" or the
  // driver protocol error a real device would trip over.
  std::string complete_rx(uint32_t frame_bytes, uint32_t flow, uint64_t seq, bool error = false);
  // Sends TX descriptor tx_head: it must be a data descriptor with EOP|RS and a
  // frame that passes nf_check (fills *hdr); then DESC_DONE, or the new head
  // written after the ring; advances.
  std::string complete_tx(nf_header *hdr) { return complete_tx_q(0, hdr); }
  // The same on TX queue q (its queue-block registers; i40e's XDP rings are
  // the TX queues after nic.tx_queues).
  std::string complete_tx_q(uint32_t q, nf_header *hdr);
  uint32_t tx_owned_q(uint32_t q) const;

  // Completions not yet signalled; the MSI fires while unmasked and enabled.
  bool irq_due() const { return m_pending > 0 && reg(GN_REG_INT_MASK) == 0 && reg(GN_REG_CTRL) != 0; }
  void irq_sent() { m_pending = 0; }

  uint32_t rx_head = 0;  // next RX descriptor the device completes
  uint32_t tx_head = 0;  // next TX descriptor the device takes (queue 0)
  uint32_t tx_heads[GN_MAX_QUEUES] = {};  // queues 1..: next TX descriptor of each

 private:
  uint8_t *at(uint64_t pa) const { return m_cp.mem + pa; }
  counting_platform &m_cp;
  uint64_t m_seed;
  uint32_t m_rx_bytes;
  bool m_head_wb;
  uint64_t m_pending = 0;
};

#endif
