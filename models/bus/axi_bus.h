/*
 * axi_bus.h: an AXI-like on-chip bus between an SoC NIC's DMA and memory
 * (mvneta on Armada 3700, stmmac on a RISC-V SoC): bursts of beats of the
 * bus width at the bus clock, separate read-address, read-data and
 * write-data channels, fixed read and write latencies, and a limit on
 * outstanding bursts. Same device-side protocol as the PCIe link
 * (models/common/tlp.h). With on_irq set (the NIC workload), the device's
 * interrupt messages become a wired interrupt line instead of a write; the
 * CPU's register path is AxiRegPort (axi_reg_port.h).
 */
#ifndef NICSIM_MODELS_BUS_AXI_BUS_H
#define NICSIM_MODELS_BUS_AXI_BUS_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/mem_access.h"
#include "common/split_read.h"
#include "common/params.h"
#include "common/tlp.h"
#include "bus/axi_counters.h"
#include "pcie/latency_hist.h"
#include "pcie/pcie_counters.h"
#include "pcie/posted_write_queue.h"
#include "pcie/time_ring.h"

namespace nicsim {

namespace stats {
class Registry;
}

/* Bus parameters in bytes and picoseconds. */
struct AxiParams {
  uint32_t width_bytes = 16;     /* data bytes per beat */
  uint64_t cycle_ps = 4000;      /* one bus clock cycle, ps */
  uint32_t burst_beats = 16;     /* most beats per burst */
  uint64_t rd_latency_ps = 0;    /* read address accepted to first data beat ready (interconnect + memory), ps */
  uint64_t wr_latency_ps = 0;    /* last write beat to the write response (data in memory), ps */
  uint32_t outstanding = 8;      /* most bursts in flight, reads and writes together */

  /* The bus.* keys. */
  void bind(ParamBinder &b);
  /* The bus's rules: beats of a power-of-two width. */
  ParamCheck validate() const;
};

/* The bus module. */
class AxiBus : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<AxiBus> dev;    /* device DMA in */
  tlm_utils::simple_initiator_socket<AxiBus> mem; /* to memory */

  /* A bus with parameters p; needs a SystemC time resolution of 1 ps. */
  AxiBus(sc_core::sc_module_name name, const AxiParams &p);

  /* Counters with busy time counted up to now. */
  AxiCounters counters() const;
  /* Registers its statistics (axi_stats.h, and the dma.* ones of
   * dma_path_stats.h); device: also a device's interrupts and traffic by
   * DMA purpose (the NIC workload). */
  void add_stats(stats::Registry &r, bool device = true) const;
  /* Bursts of a transfer of len bytes at addr: at most burst_beats x width, none crossing 4 KiB. */
  uint32_t burst_chunk(uint64_t addr, uint64_t remaining) const;
  /* Data beats of a burst of n bytes at addr. */
  uint32_t beats(uint64_t addr, uint32_t n) const;

  /* Called when a request cannot be carried: component, message. */
  std::function<void(const std::string &, const std::string &)> on_violation;
  /* Wired interrupt (SoC: a GIC SPI) instead of MSI writes: when set, a
   * device write with purpose Msi takes no bus cycles; its 4-byte data word
   * (the vector) reaches on_irq once every earlier device write has its
   * write response (its data is in memory). Unset: an MSI is a bus write. */
  std::function<void(uint32_t)> on_irq;
  /* Earliest simulated time (ps) at which the bus can next access memory (a
   * queued write reaching it, a queued read served, or a burst not yet
   * issued: now + one cycle + the shorter latency). Not the wired
   * interrupt, which may be asserted now. */
  uint64_t quiet_until_ps() const;

 private:
  struct PendingRead {
    uint64_t at_ps = 0;
    uint64_t addr = 0;
    uint32_t len = 0;
    uint8_t *data = nullptr;
    DmaPurpose purpose = DmaPurpose::Other;
    TlpAttrs attrs;                     /* the device request's RO / no-snoop / traffic class */
    SplitReadPool::Read *ctx = nullptr; /* the read this burst belongs to */
  };

  void b_transport_dev(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
  void write(tlm::tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs);
  void read(tlm::tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs);
  void acquire_slot();
  /* Frees a slot at at_ps; reads and writes keep separate (each time-ordered) queues. */
  void release_slot(bool read, uint64_t at_ps);
  void read_data();   /* SC_METHOD: memory answers reads, R beats booked */
  void write_data();  /* SC_METHOD: writes reach memory */
  void slot_free();   /* SC_METHOD: outstanding slots come back */
  void irq(tlm::tlm_generic_payload &p);
  void irq_out();     /* SC_METHOD: wired interrupts asserted once earlier writes are in memory */
  void wait_until(uint64_t t_ps);

  AxiParams m_p;
  uint64_t m_ar_free_ps = 0, m_r_free_ps = 0, m_w_free_ps = 0;
  uint32_t m_slots_free;
  uint64_t m_ticket_next = 0, m_ticket_serving = 0;
  sc_core::sc_event m_slot_freed;
  TimeRing<TimeStamp> m_releases[2]; /* [0] writes, [1] reads */
  sc_core::sc_event m_release_event;
  TimeRing<PendingRead> m_reads;
  sc_core::sc_event m_read_event;
  PostedWriteQueue m_writes;
  sc_core::sc_event m_write_event;
  uint64_t m_wr_done_ps = 0; /* when the last write queued so far is in memory (its response) */
  uint64_t m_wr_mem_done_ps = 0; /* when every write handed to memory so far is complete (memory delay) */
  struct PendingIrq {
    uint64_t at_ps = 0;
    uint32_t data = 0;
  };
  TimeRing<PendingIrq> m_irqs;
  sc_core::sc_event m_irq_event;
  SplitReadPool m_split; /* reads waiting for their bursts */
  AxiCounters m_cnt;
  HostMemAccess m_mem; /* to memory, one access per burst (tag 0) */
};

}  // namespace nicsim
#endif
