/* nic_device.cpp: composes the wire peer, MAC and DMA engine into the NIC the
 * simulation glue sees (see nic_device.h). */
#include "nic/nic_device.h"

#include <algorithm>

#include "dma/dma_engine.h"
#include "dma/generic_desc_codec.h"
#include "dma/i40e_desc_codec.h"
#include "dma/lan743x_desc_codec.h"
#include "dma/mvneta_desc_codec.h"
#include "dma/stmmac_desc_codec.h"
#include "mac/mac.h"
#include "common/ps_time.h"
#include "common/trace.h"
#include "traffic/wire_peer.h"

namespace nicsim {

namespace {
/* The descriptor format of cfg.nic.family. */
std::unique_ptr<DescCodec> make_codec(const nicsim_config &cfg) {
  switch (cfg.nic.family) {
    case NC_NIC_I40E: return std::unique_ptr<DescCodec>(new I40eDescCodec(static_cast<uint32_t>(cfg.nic.rx_desc_bytes)));
    case NC_NIC_LAN743X: return std::unique_ptr<DescCodec>(new Lan743xDescCodec);
    case NC_NIC_STMMAC: return std::unique_ptr<DescCodec>(new StmmacDescCodec);
    case NC_NIC_MVNETA: return std::unique_ptr<DescCodec>(new MvnetaDescCodec);
    default: return std::unique_ptr<DescCodec>(new GenericDescCodec);
  }
}
}  // namespace

struct NicDevice::Impl {
  std::unique_ptr<DescCodec> codec; /* cfg.nic.family */
  Mac mac;
  WirePeer peer;
  DmaEngine engine;

  Impl(const nicsim_config &cfg, tlm::tlm_initiator_socket<> &dma)
      : codec(make_codec(cfg)),
        mac("mac", Mac::Params::from_config(cfg)),
        peer("peer", WirePeer::Params::from_config(cfg), mac),
        engine("dma_engine", DmaEngine::Params::from_config(cfg), *codec, mac, dma) {
    mac.set_tx_sink(&peer);
  }
};

NicDevice::NicDevice(sc_core::sc_module_name name, const nicsim_config &cfg)
    : sc_core::sc_module(name), dma("dma"), regs("regs") {
  require_ps_resolution(this->name());
  if (cfg.nic.family != NC_NIC_GENERIC && cfg.nic.family != NC_NIC_LAN743X && cfg.nic.family != NC_NIC_STMMAC &&
      cfg.nic.family != NC_NIC_I40E && cfg.nic.family != NC_NIC_MVNETA) {
    SC_REPORT_ERROR(this->name(), "unknown NIC family");
  }
  m_impl.reset(new Impl(cfg, dma));
  m_impl->engine.set_violation_handler([this](const std::string &who, const std::string &msg) {
    if (on_violation) {
      on_violation(who, msg);
    } else {
      SC_REPORT_ERROR(who.c_str(), msg.c_str());
    }
  });
  regs.register_b_transport(this, &NicDevice::b_transport_regs);
  m_impl->engine.set_trace(TraceWriter::global()); /* nullptr: no trace */
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
  const IrqModerator::Counters ic = m_impl->engine.irq_counters();
  c.rx_offered_frames = pc.rx_offered_frames;
  c.rx_offered_bytes = pc.rx_offered_bytes;
  c.rx_drop_fifo = mc.rx_drop_fifo;
  c.rx_drop_nodesc = ec.rx_drop_nodesc; /* 0 unless nic.rx_drop_nodesc: the NIC waits for descriptors */
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
  c.irqs_throttled = ic.throttled;
  const DmaEngine &e = m_impl->engine;
  c.rx_queues = e.rx_queues();
  c.tx_queues = e.tx_queues();
  c.vectors = e.vectors();
  c.rx_ring_occ_integral = c.tx_ring_occ_integral = 0;
  c.rx_ring_occ_max = c.tx_ring_occ_max = 0;
  for (uint32_t q = 0; q < e.rx_queues(); q++) {
    c.rxq_occ_integral[q] = e.rx_ring(q).occupancy_integral();
    c.rx_ring_occ_integral += c.rxq_occ_integral[q];
    c.rx_ring_occ_max = std::max<uint64_t>(c.rx_ring_occ_max, e.rx_ring(q).occupancy_max());
    c.rxq_frames[q] = ec.rxq_frames[q];
    c.rxq_steered[q] = ec.rxq_steered[q];
  }
  for (uint32_t q = 0; q < e.tx_queues(); q++) {
    c.txq_occ_integral[q] = e.tx_ring(q).occupancy_integral();
    c.tx_ring_occ_integral += c.txq_occ_integral[q];
    c.tx_ring_occ_max = std::max<uint64_t>(c.tx_ring_occ_max, e.tx_ring(q).occupancy_max());
    c.txq_frames[q] = ec.txq_frames[q];
  }
  for (uint32_t v = 0; v < e.vectors(); v++) {
    c.vec_irqs_raised[v] = e.irq_counters(v).raised;
    c.vec_irqs_suppressed[v] = e.irq_counters(v).suppressed;
  }
  c.rx_read_grants = e.read_tags().granted(true);
  c.tx_read_grants = e.read_tags().granted(false);
  c.pause_xoff = mc.pause_xoff;
  c.pause_xon = mc.pause_xon;
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
