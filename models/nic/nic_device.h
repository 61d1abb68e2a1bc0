/*
 * nic_device.h: the NIC as the rest of the simulation sees it: MAC plus DMA
 * engine behind one BAR0 register target and one DMA initiator, plus the
 * wire peer on the other side of the MAC. Built from the resolved config;
 * the family (cfg.nic.family) chooses the descriptor codec and quirks.
 */
#ifndef NICSIM_MODELS_NIC_NIC_DEVICE_H
#define NICSIM_MODELS_NIC_NIC_DEVICE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "config/config.h"

namespace nicsim {

/* Cumulative counters; the glue snapshots them at warm-up and at the end. */
struct NicCounters {
  /* wire side */
  uint64_t rx_offered_frames = 0;  /* frames the wire peer sent */
  uint64_t rx_offered_bytes = 0;
  uint64_t rx_drop_fifo = 0;       /* dropped: RX FIFO full */
  uint64_t rx_drop_nodesc = 0;     /* dropped: no RX descriptor (if the family drops rather than waits) */
  uint64_t rx_dma_frames = 0;      /* frames written to host memory and written back */
  uint64_t tx_wire_frames = 0;     /* frames the MAC put on the wire */
  uint64_t tx_wire_bytes = 0;      /* frame bytes (FCS included) */
  uint64_t tx_peer_ok = 0;         /* frames the wire peer received intact */
  uint64_t tx_peer_errors = 0;     /* corrupted, duplicated or reordered at the peer */
  /* DMA engine */
  uint64_t desc_fetch_reqs = 0;
  uint64_t desc_fetched = 0;
  uint64_t desc_writebacks = 0;
  uint64_t data_read_bytes = 0;
  uint64_t data_write_bytes = 0;
  uint64_t irqs_raised = 0;
  uint64_t irqs_suppressed = 0;    /* causes folded into a later interrupt by moderation */
  uint64_t mmio_reads = 0;
  uint64_t mmio_writes = 0;
};

class NicDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<NicDevice> dma; /* to the interconnect's device side */
  tlm_utils::simple_target_socket<NicDevice> regs;   /* BAR0, from the interconnect */

  /* The wire peer stops offering frames at cfg.run.duration_us. */
  NicDevice(sc_core::sc_module_name name, const nicsim_config &cfg);
  ~NicDevice() override;

  NicCounters counters() const;
  /* True if pa lies in a descriptor slot the device currently owns (ownership
   * check on CPU stores). */
  bool device_owns(uint64_t pa) const;
  /* Frames still inside the device (FIFOs, engine) - zero after a full drain. */
  uint64_t frames_in_flight() const;
  /* Called on an invariant violation: component, message. The glue stops
   * the run and reports it with the simulated time. */
  std::function<void(const std::string &, const std::string &)> on_violation;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  void b_transport_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
};

}  // namespace nicsim
#endif
