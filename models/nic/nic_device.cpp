/* nic_device.cpp: composes the wire peer, MAC and DMA engine into the NIC the
 * simulation glue sees (see nic_device.h). */
#include "nic/nic_device.h"

#include "dma/dma_engine.h"
#include "dma/generic_desc_codec.h"
#include "dma/i40e_desc_codec.h"
#include "dma/lan743x_desc_codec.h"
#include "dma/mvneta_desc_codec.h"
#include "dma/stmmac_desc_codec.h"
#include "mac/mac.h"
#include "nic/nic_stats.h"
#include "common/ps_time.h"
#include "common/trace.h"
#include "traffic/wire_peer.h"

namespace nicsim {

namespace {
/* The descriptor format of the family. */
std::unique_ptr<DescCodec> make_codec(const NicDevice::Params &p) {
  switch (p.family) {
    case NicDevice::Family::I40e: return std::unique_ptr<DescCodec>(new I40eDescCodec(p.rx_desc_bytes));
    case NicDevice::Family::Lan743x: return std::unique_ptr<DescCodec>(new Lan743xDescCodec);
    case NicDevice::Family::Stmmac: return std::unique_ptr<DescCodec>(new StmmacDescCodec);
    case NicDevice::Family::Mvneta: return std::unique_ptr<DescCodec>(new MvnetaDescCodec);
    case NicDevice::Family::Generic: break;
  }
  return std::unique_ptr<DescCodec>(new GenericDescCodec);
}
}  // namespace

struct NicDevice::Impl {
  std::unique_ptr<DescCodec> codec; /* cfg.nic.family */
  Mac mac;
  WirePeer peer;
  DmaEngine engine;

  Impl(const NicDevice::Params &p, tlm::tlm_initiator_socket<> &dma)
      : codec(make_codec(p)),
        mac("mac", p.mac),
        peer("peer", p.peer, mac),
        engine("dma_engine", p.dma, *codec, mac, dma) {
    mac.set_tx_sink(&peer);
  }
};

NicDevice::NicDevice(sc_core::sc_module_name name, const Params &p)
    : sc_core::sc_module(name), dma("dma"), regs("regs") {
  require_ps_resolution(this->name());
  if (const ParamCheck e = p.validate()) SC_REPORT_ERROR(this->name(), e->msg.c_str());
  m_impl.reset(new Impl(p, dma));
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

void NicDevice::add_stats(stats::Registry &r) const {
  /* The peer first: reading its counters hands the MAC its arrivals up to now. */
  m_impl->peer.add_stats(r);
  m_impl->mac.add_stats(r);
  m_impl->engine.add_stats(r);
  r.add(kNicStats, [this](NicDrops &s, stats::Edge) {
    s.fifo = m_impl->mac.counters().rx_drop_fifo;
    s.nodesc = m_impl->engine.counters().rx_drop_nodesc; /* 0 unless nic.rx_drop_nodesc: the NIC waits for descriptors */
  });
}

bool NicDevice::device_owns(uint64_t pa) const { return m_impl->engine.device_owns(pa); }

uint64_t NicDevice::frames_in_flight() const {
  Mac &mac = m_impl->mac;
  return mac.rx_fifo().frames_held() + mac.tx_fifo().frames() + m_impl->engine.frames_in_engine();
}

WirePeer &NicDevice::peer() { return m_impl->peer; }
Mac &NicDevice::mac() { return m_impl->mac; }
DmaEngine &NicDevice::engine() { return m_impl->engine; }
const WirePeer &NicDevice::peer() const { return m_impl->peer; }
const Mac &NicDevice::mac() const { return m_impl->mac; }
const DmaEngine &NicDevice::engine() const { return m_impl->engine; }

}  // namespace nicsim
