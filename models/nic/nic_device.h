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

#include "common/params.h"
#include "dma/dma_engine.h"
#include "mac/mac.h"
#include "traffic/wire_peer.h"

namespace nicsim {

class WirePeer;
class Mac;
class DmaEngine;
namespace stats {
class Registry;
}

class NicDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<NicDevice> dma; /* to the interconnect's device side */
  tlm_utils::simple_target_socket<NicDevice> regs;   /* BAR0, from the interconnect */

  /* The device families: descriptor format and quirks (nic.family). */
  enum class Family : uint8_t { Generic, Lan743x, Stmmac, I40e, Mvneta };
  /* The NIC's parameters: its family's and its parts'. */
  struct Params {
    Family family = Family::Generic;
    uint32_t rx_desc_bytes = 32; /* i40e RX descriptor size, 16 or 32 bytes (the others' are fixed) */
    Mac::Params mac;
    WirePeer::Params peer; /* the link partner on the other side of the MAC, at its line rate */
    DmaEngine::Params dma;
    /* The nic.* and traffic.* keys of the NIC and its parts (nic_params.cpp). */
    void bind(ParamBinder &b);
    /* The parts' rules and the family's: descriptor sizes, queues, coalescing. */
    ParamCheck validate() const;
  };

  /* The wire peer stops offering frames at p.peer.duration_ps. */
  NicDevice(sc_core::sc_module_name name, const Params &p);
  ~NicDevice() override;

  /* Registers the statistics of its parts (wire peer, MAC, DMA engine) and
   * its own (nic_stats.h: the frames it dropped). */
  void add_stats(stats::Registry &r) const;
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
  const WirePeer &peer() const;
  const Mac &mac() const;
  const DmaEngine &engine() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
  /* BAR0 target: see DmaEngine::reg_transport (a read waits reg_read_ns
   * inside the call when the caller is a thread). */
  void b_transport_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
};

}  // namespace nicsim
#endif
