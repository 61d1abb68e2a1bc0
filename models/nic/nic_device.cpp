/* nic_device.cpp: composes the wire peer, MAC and DMA engine into the NIC the
 * simulation glue sees (see nic_device.h). */
#include "nic/nic_device.h"

#include "dma/dma_engine.h"
#include "dma/generic_desc_codec.h"
#include "mac/mac.h"
#include "nic/ps_time.h"
#include "traffic/wire_peer.h"

namespace nicsim {

struct NicDevice::Impl {
  GenericDescCodec codec; /* cfg.nic.family == generic, the only family so far */
  Mac mac;
  WirePeer peer;
  DmaEngine engine;

  Impl(const nicsim_config &cfg, tlm::tlm_initiator_socket<> &dma)
      : mac("mac", Mac::Params::from_config(cfg)),
        peer("peer", WirePeer::Params::from_config(cfg), mac),
        engine("dma_engine", DmaEngine::Params::from_config(cfg), codec, mac, dma) {
    mac.set_tx_sink(&peer);
  }
};

NicDevice::NicDevice(sc_core::sc_module_name name, const nicsim_config &cfg)
    : sc_core::sc_module(name), dma("dma"), regs("regs") {
  require_ps_resolution(this->name());
  if (cfg.nic.family != NC_NIC_GENERIC) SC_REPORT_ERROR(this->name(), "unknown NIC family");
  m_impl.reset(new Impl(cfg, dma));
  m_impl->engine.set_violation_handler([this](const std::string &who, const std::string &msg) {
    if (on_violation) {
      on_violation(who, msg);
    } else {
      SC_REPORT_ERROR(who.c_str(), msg.c_str());
    }
  });
  regs.register_b_transport(this, &NicDevice::b_transport_regs);
}

NicDevice::~NicDevice() = default;

void NicDevice::b_transport_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d) {
  m_impl->engine.reg_transport(p, d);
}

NicCounters NicDevice::counters() const {
  NicCounters c;
  const WirePeer::Counters &pc = m_impl->peer.counters();
  const Mac::Counters &mc = m_impl->mac.counters();
  const DmaEngine::Counters &ec = m_impl->engine.counters();
  const IrqModerator::Counters &ic = m_impl->engine.irq_counters();
  c.rx_offered_frames = pc.rx_offered_frames;
  c.rx_offered_bytes = pc.rx_offered_bytes;
  c.rx_drop_fifo = mc.rx_drop_fifo;
  c.rx_drop_nodesc = 0; /* the generic NIC waits for descriptors */
  c.rx_dma_frames = ec.rx_dma_frames;
  c.tx_wire_frames = mc.tx_wire_frames;
  c.tx_wire_bytes = mc.tx_wire_bytes;
  c.tx_peer_ok = pc.tx_ok;
  c.tx_peer_errors = pc.tx_errors;
  c.tx_peer_gaps = pc.tx_gaps;
  c.tx_dma_frames = ec.tx_dma_frames;
  c.desc_fetch_reqs = ec.desc_fetch_reqs;
  c.desc_fetched = ec.desc_fetched;
  c.desc_writebacks = ec.desc_writebacks;
  c.data_read_bytes = ec.data_read_bytes;
  c.data_write_bytes = ec.data_write_bytes;
  c.irqs_raised = ic.raised;
  c.irqs_suppressed = ic.suppressed;
  c.mmio_reads = ec.mmio_reads;
  c.mmio_writes = ec.mmio_writes;
  c.dma_busy_cycles = ec.busy_cycles;
  return c;
}

bool NicDevice::device_owns(uint64_t pa) const { return m_impl->engine.device_owns(pa); }

uint64_t NicDevice::frames_in_flight() const {
  Mac &mac = m_impl->mac;
  return mac.rx_fifo().frames_held() + mac.tx_fifo().frames() + m_impl->engine.frames_in_engine();
}

WirePeer &NicDevice::peer() { return m_impl->peer; }
Mac &NicDevice::mac() { return m_impl->mac; }
DmaEngine &NicDevice::engine() { return m_impl->engine; }

}  // namespace nicsim
