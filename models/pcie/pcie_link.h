/*
 * pcie_link.h: a full-duplex PCIe link between one device and the root
 * complex. Device DMA becomes MWr / MRd TLPs upstream and CplD TLPs
 * downstream; CPU MMIO becomes MWr / MRd downstream and CplD upstream. Each
 * direction serialises its TLPs in FIFO order at the link's rate (PCIe
 * ordering without relaxed ordering: nothing passes a posted write).
 * Protocol of the sockets: models/common/tlp.h.
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_LINK_H
#define NICSIM_MODELS_PCIE_PCIE_LINK_H

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/tlp.h"
#include "pcie/pcie_counters.h"
#include "pcie/pcie_direction.h"
#include "pcie/pcie_params.h"
#include "pcie/posted_write_queue.h"
#include "pcie/tlp_format.h"

namespace nicsim {

/* The link, its root-complex side (host memory access) and the device's BAR0 access. */
class PcieLink : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<PcieLink> dev;     /* device DMA in (NicDevice::dma) */
  tlm_utils::simple_initiator_socket<PcieLink> mem;  /* root complex to host memory */
  tlm_utils::simple_target_socket<PcieLink> host;    /* CPU MMIO in (BAR0 offsets) */
  tlm_utils::simple_initiator_socket<PcieLink> regs; /* to the device's BAR0 (NicDevice::regs) */

  /* A link with parameters p; needs a SystemC time resolution of 1 ps. */
  PcieLink(sc_core::sc_module_name name, const PcieParams &p);
  ~PcieLink() override;

  /* Device-to-host counters, busy time counted up to now. */
  PcieDirCounters up_counters() const;
  /* Host-to-device counters, busy time counted up to now. */
  PcieDirCounters down_counters() const;
  /* The link's TLP rules. */
  const TlpFormat &format() const { return m_fmt; }

  /* Called when a request cannot be carried (empty transfer, bad address
   * answer): component, message. The glue stops the run. */
  std::function<void(const std::string &, const std::string &)> on_violation;

 private:
  void b_transport_dev(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
  void b_transport_host(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
  void device_write(tlm::tlm_generic_payload &p, DmaPurpose purpose);
  void device_read(tlm::tlm_generic_payload &p, DmaPurpose purpose);
  /* Root complex access to host memory at the current time; false on error. */
  bool mem_access(tlm::tlm_command cmd, uint64_t addr, uint8_t *data, uint32_t len, DmaPurpose purpose);
  void deliver_up();          /* SC_METHOD: applies posted writes to memory on arrival */
  void deliver_down_thread(); /* SC_THREAD: applies MMIO writes to the device on arrival */
  void wait_until(uint64_t t_ps);
  void violation(const std::string &msg);

  TlpFormat m_fmt;
  PcieDirection m_up;
  PcieDirection m_down;
  PostedWriteQueue m_up_q;
  PostedWriteQueue m_down_q;
  sc_core::sc_event m_up_event;
  sc_core::sc_event m_down_event;
  uint64_t m_rd_latency_ps;
  tlm::tlm_generic_payload m_mem_gp; /* root complex -> memory; used without waiting */
  TlpExt *m_mem_ext;                 /* owned by m_mem_gp */
  tlm::tlm_generic_payload m_reg_gp; /* MMIO write delivery -> device */
  uint8_t m_reg_buf[8] = {};
  /* Arrival times of the MRds of reads in progress; reused, one per concurrent read. */
  std::vector<std::vector<uint64_t>> m_scratch;
};

}  // namespace nicsim
#endif
