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

/* Cumulative counters; the glue snapshots them at warm-up and at the end.
 * Conservation (RX): rx_offered_frames = rx_dma_frames + rx_drop_fifo +
 * rx_drop_nodesc + RX frames in flight (see docs/nic.md). */
struct NicCounters {
  /* wire side */
  uint64_t rx_offered_frames = 0;  /* frames the wire peer sent (fully arrived at the MAC) */
  uint64_t rx_offered_bytes = 0;   /* their bytes, FCS included */
  uint64_t rx_drop_fifo = 0;       /* frames dropped: RX FIFO full */
  uint64_t rx_drop_nodesc = 0;     /* dropped: no RX descriptor (if the family drops rather than waits) */
  uint64_t rx_dma_frames = 0;      /* frames written to host memory and written back */
  uint64_t tx_wire_frames = 0;     /* frames the MAC put on the wire */
  uint64_t tx_wire_bytes = 0;      /* their bytes, FCS included */
  uint64_t tx_peer_ok = 0;         /* frames the wire peer received intact */
  uint64_t tx_peer_errors = 0;     /* frames corrupted, duplicated or reordered at the peer */
  uint64_t tx_peer_gaps = 0;       /* sequence numbers the peer never saw (frames lost) */
  uint64_t tx_dma_frames = 0;      /* frames read from host memory into the MAC TX FIFO */
  /* DMA engine */
  uint64_t desc_fetch_reqs = 0;    /* descriptor read requests, RX + TX */
  uint64_t desc_fetched = 0;       /* descriptors read, RX + TX */
  uint64_t desc_writebacks = 0;    /* descriptor write-back requests, RX + TX */
  uint64_t data_read_bytes = 0;    /* TX frame bytes read from host memory (no FCS) */
  uint64_t data_write_bytes = 0;   /* RX frame bytes written to host memory (no FCS) */
  uint64_t irqs_raised = 0;        /* MSI writes the NIC raised */
  uint64_t irqs_suppressed = 0;    /* moderation conditions met while masked, folded into a later MSI */
  uint64_t mmio_reads = 0;         /* BAR0 register reads */
  uint64_t mmio_writes = 0;        /* BAR0 register writes */
  uint64_t dma_busy_cycles = 0;    /* NIC clock cycles spent processing descriptors, RX + TX */
  uint64_t irqs_throttled = 0;     /* raises merged into an MSI deferred by ITR throttling */
  uint64_t rx_ring_occ_integral = 0; /* device-owned RX descriptors x ps, cumulative */
  uint64_t tx_ring_occ_integral = 0; /* device-owned TX descriptors x ps, cumulative */
  uint64_t rx_ring_occ_max = 0;    /* most RX descriptors the device owned at once */
  uint64_t tx_ring_occ_max = 0;    /* most TX descriptors the device owned at once */
  uint64_t rx_read_grants = 0;      /* read tags granted to the RX channel */
  uint64_t tx_read_grants = 0;      /* read tags granted to the TX channel (fetches and data) */
  uint64_t pause_xoff = 0;          /* PAUSE frames the MAC sent asking for a pause (refreshes included) */
  uint64_t pause_xon = 0;           /* PAUSE frames with pause_time 0 (resume) */
  /* Per queue and vector (nic.rx_queues, nic.tx_queues; vector q serves queue pair q).
   * The ring occupancy figures above are sums (integral) and maxima (max) over queues. */
  static constexpr int kMaxQueues = 16;
  uint32_t rx_queues = 1, tx_queues = 1, vectors = 1;
  uint64_t rxq_frames[kMaxQueues] = {};        /* RX frames written back on queue q */
  uint64_t rxq_steered[kMaxQueues] = {};       /* RX frames RSS sent to queue q */
  uint64_t rxq_occ_integral[kMaxQueues] = {};  /* device-owned descriptors of RX queue q x ps */
  uint64_t txq_frames[kMaxQueues] = {};        /* TX frames read from queue q */
  uint64_t txq_occ_integral[kMaxQueues] = {};  /* device-owned descriptors of TX queue q x ps */
  uint64_t vec_irqs_raised[kMaxQueues] = {};   /* MSIs of vector v */
  uint64_t vec_irqs_suppressed[kMaxQueues] = {};
};

class WirePeer;
class Mac;
class DmaEngine;

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

  /* The parts, for tests and diagnostics (the glue needs none of them). */
  WirePeer &peer();
  Mac &mac();
  DmaEngine &engine();

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  /* BAR0 target: see DmaEngine::reg_transport (a read waits reg_read_ns
   * inside the call when the caller is a thread). */
  void b_transport_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
};

}  // namespace nicsim
#endif
