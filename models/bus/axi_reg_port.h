/*
 * axi_reg_port.h: the CPU's path over the AXI-like on-chip bus to an SoC
 * NIC's register slave (readl / writel on mvneta or stmmac registers). It is
 * a different master and slave pair from the NIC's DMA port (AxiBus), so it
 * shares no data channel or outstanding slot with DMA; it takes the bus's
 * clock, width and latencies (AxiParams), counted as AxiBus counts them. A
 * write is posted: it reaches the register its data beats plus wr_latency
 * after it is issued (behind earlier writes), and the CPU goes on at once. A
 * read stalls the CPU for the round trip: one read-address cycle,
 * rd_latency, the device's own register read time (nic.reg_read_ns, inside
 * the device's b_transport), then the data beats.
 * Device memory keeps program order to one peripheral (Arm ARM, Device-nGnRE),
 * so a read samples the register no earlier than earlier writes arrive.
 * Protocol: models/common/tlp.h (CPU MMIO side).
 */
#ifndef NICSIM_MODELS_BUS_AXI_REG_PORT_H
#define NICSIM_MODELS_BUS_AXI_REG_PORT_H

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "bus/axi_bus.h"
#include "pcie/posted_write_queue.h"

namespace nicsim {

/* Register accesses through the port, cumulative. */
struct AxiRegCounters {
  uint64_t reads = 0, writes = 0;
  uint64_t read_stall_ps = 0; /* CPU time spent waiting for read data, ps */
};

/* The CPU-to-device register path of the on-chip bus. */
class AxiRegPort : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<AxiRegPort> host;    /* CPU MMIO in (register offsets) */
  tlm_utils::simple_initiator_socket<AxiRegPort> regs; /* to the device's registers (NicDevice::regs) */

  /* A port with the bus's parameters p; needs a SystemC time resolution of 1 ps. */
  AxiRegPort(sc_core::sc_module_name name, const AxiParams &p);

  /* Counters so far. */
  const AxiRegCounters &counters() const { return m_cnt; }
  /* Called when the device rejects a posted write: component, message. */
  std::function<void(const std::string &, const std::string &)> on_violation;

 private:
  void b_transport_host(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
  /* Applies every posted write that has arrived by now, in order. */
  void apply_due();
  void deliver(); /* SC_METHOD: posted writes reach the device */
  uint32_t beats(uint64_t addr, uint32_t n) const;
  void wait_until(uint64_t t_ps);

  AxiParams m_p;
  uint64_t m_ar_free_ps = 0; /* read-address channel */
  uint64_t m_w_free_ps = 0;  /* write-data channel */
  uint64_t m_last_arrival_ps = 0; /* when the last posted write reaches the device */
  PostedWriteQueue m_writes;
  sc_core::sc_event m_write_event;
  tlm::tlm_generic_payload m_reg_gp; /* posted-write delivery -> device */
  uint8_t m_reg_buf[8] = {};
  AxiRegCounters m_cnt;
};

}  // namespace nicsim
#endif
