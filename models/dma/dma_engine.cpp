/* dma_engine.cpp: the NIC DMA engine (see dma_engine.h): registers, descriptor
 * fetch with batching, RSS, RX and TX data paths over one or more queues,
 * write-back, moderation hooks (one vector per queue pair). */
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "dma/dma_engine.h"

#include "common/lookahead.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "hw/generic_nic_regs.h"
#include "hw/stmmac_regs.h"
#include "mac/mac.h"
#include "net/rss.h"
#include "common/ps_time.h"
#include "common/trace.h"
#include "pcie/pcie_link.h"

namespace nicsim {

DmaEngine::DmaEngine(sc_core::sc_module_name name, const Params &p, const DescCodec &codec,
                     Mac &mac, tlm::tlm_initiator_socket<> &socket)
    : sc_core::sc_module(name),
      m_p(p),
      m_codec(codec),
      m_mac(mac),
      m_socket(socket),
      m_clock(p.clock_mhz),
      m_tags(p.max_read_reqs, p.rx_read_priority),
      m_irq("irq", p.coal_frames, p.coal_usecs, socket, m_clock,
            [this](const std::string &m) { violation("%s (MSI)", m.c_str()); }, p.itr_usecs),
      m_spacing(p.desc_spacing) {
  require_ps_resolution(this->name());
  if (p.desc_fetch_max == 0 || p.wb_threshold == 0 || p.max_read_reqs == 0) {
    SC_REPORT_ERROR(this->name(), "desc_fetch_max, wb_threshold and max_read_reqs must be positive");
  }
  if (const ParamCheck e = p.validate()) SC_REPORT_ERROR(this->name(), e->msg.c_str());
  if (p.rx_queues < 1 || p.rx_queues > kMaxQueues || p.tx_queues < 1 || p.tx_queues > kMaxQueues) {
    SC_REPORT_ERROR(this->name(), "rx_queues and tx_queues must be in [1, 16]");
  }
  const uint32_t rdb = codec.desc_bytes(), tdb = codec.tx_desc_bytes();
  if (std::max(rdb, tdb) > kMaxDescBytes) SC_REPORT_ERROR(this->name(), "descriptor too large");
  auto on_err = [this](const std::string &m) { violation("%s", m.c_str()); };
  const uint32_t nvec = std::max(p.rx_queues, p.tx_queues);
  for (uint32_t v = 1; v < nvec; v++) {
    char iname[16];
    std::snprintf(iname, sizeof iname, "irq%u", v);
    m_irq_extra.emplace_back(new IrqModerator(iname, p.coal_frames, p.coal_usecs, socket, m_clock,
                                              [this](const std::string &m) { violation("%s (MSI)", m.c_str()); },
                                              p.itr_usecs));
    m_irq_extra.back()->set_vector(v);
  }
  m_rx_wb.resize(p.rx_queues);
  m_tx_wb.resize(p.tx_queues);
  for (uint32_t q = 0; q < p.rx_queues; q++) {
    m_rx.emplace_back(new DescRing(p.desc_cache_entries));
    m_rx.back()->set_prefetch_threshold(p.prefetch_threshold);
    m_rx_fetch_x.emplace_back(new DmaXfer(socket, m_clock, on_err));
    m_rx_data_x.emplace_back(new DmaXfer(socket, m_clock, on_err));
    m_rx_fetch_buf.emplace_back(static_cast<size_t>(p.desc_fetch_max) * rdb);
    WbQueue &w = m_rx_wb[q];
    w.ring = m_rx[q].get();
    w.xfer = m_rx_data_x[q].get();
    w.irq = &irq(q);
    w.qid = q;
    w.cause = GN_INT_RX;
    w.rx = true;
  }
  for (uint32_t q = 0; q < p.tx_queues; q++) {
    m_tx.emplace_back(new DescRing(p.desc_cache_entries));
    m_tx.back()->set_prefetch_threshold(p.prefetch_threshold);
    m_tx_fetch_x.emplace_back(new DmaXfer(socket, m_clock, on_err));
    m_tx_wb_x.emplace_back(new DmaXfer(socket, m_clock, on_err));
    m_tx_fetch_buf.emplace_back(static_cast<size_t>(p.desc_fetch_max) * tdb);
    WbQueue &w = m_tx_wb[q];
    w.ring = m_tx[q].get();
    w.xfer = m_tx_wb_x[q].get();
    w.irq = &irq(q);
    w.qid = q;
    w.cause = GN_INT_TX;
    w.rx = false;
    w.head_wb = p.tx_head_wb || codec.tx_head_writeback();
    w.irq_on_drain = p.tx_irq_on_drain;
    w.head_wb_addr = &m_tx_head_wb_addr[q];
  }
  set_ring_geometry();
  for (std::vector<WbQueue> *wq : {&m_rx_wb, &m_tx_wb}) {
    for (WbQueue &w : *wq) {
      w.bytes.resize(static_cast<size_t>(p.wb_threshold) * std::max(rdb, tdb));
      w.idx.resize(p.wb_threshold);
      w.eop.resize(p.wb_threshold);
      w.ioc.resize(p.wb_threshold);
    }
  }
  for (uint32_t v = 0; v < nvec; v++) irq(v).set_ioc_mode(codec.ioc_moderation());
  m_jobs.resize(2 * static_cast<size_t>(p.max_read_reqs));

  SC_HAS_PROCESS(DmaEngine);
  SC_THREAD(rx_fetch_thread); /* queue 0; the others are spawned below */
  SC_THREAD(tx_fetch_thread);
  SC_THREAD(rx_data_thread);
  SC_METHOD(rx_data_method); /* over a PcieLink: rx_data_thread hands over to it at time 0 */
  sensitive << m_rxm_start;
  dont_initialize();
  SC_THREAD(tx_issue_thread);
  SC_THREAD(tx_retire_thread);
  for (uint32_t i = 0; i < p.max_read_reqs; i++) {
    m_tx_read_x.emplace_back(new DmaXfer(socket, m_clock, on_err));
    m_reader_wake.emplace_back(new sc_core::sc_event);
    char pname[32];
    std::snprintf(pname, sizeof pname, "tx_reader_%u", i);
    sc_core::sc_spawn([this, i] { tx_reader(i); }, pname);
  }
  for (uint32_t q = 1; q < p.rx_queues; q++) {
    char pname[32];
    std::snprintf(pname, sizeof pname, "rx_fetch_%u", q);
    sc_core::sc_spawn([this, q] { fetch_loop(q, true); }, pname);
  }
  for (uint32_t q = 1; q < p.tx_queues; q++) {
    char pname[32];
    std::snprintf(pname, sizeof pname, "tx_fetch_%u", q);
    sc_core::sc_spawn([this, q] { fetch_loop(q, false); }, pname);
  }
  /* Requests of the threads that start at the same edge go in a fixed order
   * (dma_arbiter.h): by class, then queue (or vector, or TX job). */
  m_arb.reset(new DmaArbiter("arb"));
  for (uint32_t q = 0; q < p.rx_queues; q++) {
    m_rx_data_x[q]->set_arbiter(m_arb.get(), dma_arb_key(DmaClass::RxData, q));
    m_rx_fetch_x[q]->set_arbiter(m_arb.get(), dma_arb_key(DmaClass::RxFetch, q));
  }
  for (uint32_t q = 0; q < p.tx_queues; q++) {
    m_tx_wb_x[q]->set_arbiter(m_arb.get(), dma_arb_key(DmaClass::TxWriteBack, q));
    m_tx_fetch_x[q]->set_arbiter(m_arb.get(), dma_arb_key(DmaClass::TxFetch, q));
  }
  for (auto &x : m_tx_read_x) x->set_arbiter(m_arb.get(), dma_arb_key(DmaClass::TxData, 0));
  for (uint32_t v = 0; v < nvec; v++) irq(v).set_arbiter(m_arb.get());
}

void DmaEngine::set_trace(TraceWriter *t) {
  if (!t) return;
  char name[32];
  for (uint32_t q = 0; q < rx_queues(); q++) {
    std::snprintf(name, sizeof name, "rxq%u.fetch", q);
    m_rx_fetch_x[q]->set_trace(t, t->track(name));
    std::snprintf(name, sizeof name, "rxq%u.dma", q);
    m_rx_data_x[q]->set_trace(t, t->track(name));
  }
  for (uint32_t q = 0; q < tx_queues(); q++) {
    std::snprintf(name, sizeof name, "txq%u.fetch", q);
    m_tx_fetch_x[q]->set_trace(t, t->track(name));
  }
  for (size_t i = 0; i < m_tx_read_x.size(); i++) {
    std::snprintf(name, sizeof name, tx_queues() == 1 ? "txq0.read%zu" : "tx.read%zu", i);
    m_tx_read_x[i]->set_trace(t, t->track(name));
  }
  for (uint32_t q = 0; q < tx_queues(); q++) {
    std::snprintf(name, sizeof name, "txq%u.writeback", q);
    m_tx_wb_x[q]->set_trace(t, t->track(name));
  }
  for (uint32_t v = 0; v < vectors(); v++) irq(v).set_trace(t);
}

void DmaEngine::set_owns_window() {
  uint64_t lo = UINT64_MAX, last = 0; /* last: the highest ring byte (no wrap: span <= 2^64 - base) */
  m_rings.clear();
  for (const auto *rings : {&m_rx, &m_tx})
    for (const auto &r : *rings)
      if (r->span()) { /* a ring of size 0 owns nothing */
        m_rings.push_back(r.get());
        lo = std::min(lo, r->base());
        last = std::max(last, r->base() + (r->span() - 1));
      }
  m_owns_lo = m_rings.empty() ? 0 : lo;
  m_owns_len = m_rings.empty() ? 0 : last - lo + 1; /* 0 only for a ring spanning all 2^64 bytes: not possible */
}

IrqModerator::Counters DmaEngine::irq_counters() const {
  IrqModerator::Counters c;
  for (uint32_t v = 0; v < vectors(); v++) {
    const IrqModerator::Counters &x = irq(v).counters();
    c.raised += x.raised;
    c.suppressed += x.suppressed;
    c.throttled += x.throttled;
  }
  return c;
}

uint32_t DmaEngine::rss_queue(const uint8_t *frame, uint32_t dma_len) const {
  if (m_rss_size == 0 || rx_queues() == 1) return 0;
  const uint32_t h = nf_rss_frame_hash(m_rss_key, frame, dma_len);
  return m_rss_lut[h & (m_rss_size - 1)];
}

/* A ring's descriptors are DESC_SPACING apart, or packed when its
 * descriptors are larger than that (i40e's 32 B RX with 16 B TX). */
void DmaEngine::set_ring_geometry() {
  for (auto &r : m_rx) r->set_geometry(std::max(m_spacing, m_codec.desc_bytes()), m_codec.desc_bytes());
  for (auto &r : m_tx) r->set_geometry(std::max(m_spacing, m_codec.tx_desc_bytes()), m_codec.tx_desc_bytes());
  set_owns_window();
}

/* ---- registers ----------------------------------------------------------- */

namespace {
bool caller_is_thread() {
  sc_core::sc_process_handle h = sc_core::sc_get_current_process_handle();
  return h.valid() && h.proc_kind() != sc_core::SC_METHOD_PROC_;
}
}  // namespace

void DmaEngine::reg_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &delay) {
  bool can_wait = caller_is_thread();
  if (can_wait && delay != sc_core::SC_ZERO_TIME) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  uint64_t addr = p.get_address();
  if (addr >= GN_BAR0_SIZE) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (p.get_data_length() != 4 || (addr & 3) != 0 || p.get_streaming_width() < 4) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (p.get_byte_enable_ptr() != nullptr) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  uint8_t *data = p.get_data_ptr();
  uint32_t off = static_cast<uint32_t>(addr);
  if (p.is_read()) {
    uint32_t v = reg_read(off);
    for (int i = 0; i < 4; i++) data[i] = static_cast<uint8_t>(v >> (8 * i));
    m_cnt.mmio_reads++;
    sc_core::sc_time t(m_p.reg_read_ns, sc_core::SC_NS);
    if (can_wait) {
      wait(t);
    } else {
      delay += t;
    }
  } else if (p.is_write()) {
    uint32_t v = static_cast<uint32_t>(data[0] | (data[1] << 8) | (data[2] << 16)) |
                 (static_cast<uint32_t>(data[3]) << 24);
    reg_write(off, v);
    m_cnt.mmio_writes++;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

uint32_t DmaEngine::reg_read(uint32_t offset) {
  DescRing &rx0 = *m_rx[0], &tx0 = *m_tx[0];
  switch (offset) {
    case GN_REG_CTRL: return m_ctrl;
    case GN_REG_INT_STATUS: return m_irq.read_clear_status();
    case GN_REG_INT_MASK: return m_irq.mask();
    case GN_REG_DESC_SPACING: return m_spacing;
    case GN_REG_RX_RING_LO: return rx0.base_lo();
    case GN_REG_RX_RING_HI: return rx0.base_hi();
    case GN_REG_RX_RING_SIZE: return rx0.size();
    case GN_REG_RX_TAIL: return rx0.tail();
    case GN_REG_RX_HEAD: return rx0.head();
    case GN_REG_RX_BUF_SIZE: return m_rx_buf_size;
    case GN_REG_TX_RING_LO: return tx0.base_lo();
    case GN_REG_TX_RING_HI: return tx0.base_hi();
    case GN_REG_TX_RING_SIZE: return tx0.size();
    case GN_REG_TX_TAIL: return tx0.tail();
    case GN_REG_TX_HEAD: return tx0.head();
    case GN_REG_COAL_FRAMES: return m_irq.coal_frames();
    case GN_REG_COAL_USECS: return m_irq.coal_usecs();
    case GN_REG_RX_WATCHDOG: return m_riwt;
    case GN_REG_MSI_ADDR_LO: return m_irq.msi_addr_lo();
    case GN_REG_MSI_ADDR_HI: return m_irq.msi_addr_hi();
    case GN_REG_MSI_DATA: return m_irq.msi_data();
    case GN_REG_TX_HEAD_WB_LO: return static_cast<uint32_t>(m_tx_head_wb_addr[0]);
    case GN_REG_TX_HEAD_WB_HI: return static_cast<uint32_t>(m_tx_head_wb_addr[0] >> 32);
    case GN_REG_RSS_TABLE_SIZE: return m_rss_size;
    default: break;
  }
  uint32_t v = 0;
  if (queue_reg_read(offset, &v)) return v;
  if (offset >= GN_REG_RSS_KEY(0) && offset < GN_REG_RSS_KEY(GN_RSS_KEY_REGS)) {
    const uint8_t *k = m_rss_key + (offset - GN_REG_RSS_KEY(0));
    return k[0] | k[1] << 8 | k[2] << 16 | static_cast<uint32_t>(k[3]) << 24;
  }
  if (offset >= GN_REG_RSS_LUT(0) && offset < GN_REG_RSS_LUT(GN_RSS_LUT_REGS)) {
    const uint8_t *e = m_rss_lut + (offset - GN_REG_RSS_LUT(0));
    return e[0] | e[1] << 8 | e[2] << 16 | static_cast<uint32_t>(e[3]) << 24;
  }
  return 0; /* reserved: reads as zero */
}

/* Registers of a queue block, the MSI-X data table and the per-queue head
 * write-back addresses: false if offset is none of them (or names a queue
 * or vector the device does not have: reserved). */
bool DmaEngine::queue_reg_read(uint32_t offset, uint32_t *v) {
  if (offset >= GN_REG_MSIX_DATA(0) && offset < GN_REG_MSIX_DATA(GN_MAX_QUEUES)) {
    const uint32_t vec = (offset - GN_REG_MSIX_DATA(0)) / 4;
    if (vec >= vectors()) return false;
    *v = irq(vec).msi_data();
    return true;
  }
  if (offset >= GN_REG_TXQ_HEAD_WB_LO(0) && offset < GN_REG_TXQ_HEAD_WB_LO(GN_MAX_QUEUES)) {
    const uint32_t q = (offset - GN_REG_TXQ_HEAD_WB_LO(0)) / 8;
    if (q >= tx_queues()) return false;
    *v = static_cast<uint32_t>(m_tx_head_wb_addr[q] >> ((offset & 4) ? 32 : 0));
    return true;
  }
  if (offset < GN_QBLOCK(0) || offset >= GN_QBLOCK(GN_MAX_QUEUES)) return false;
  const uint32_t q = (offset - GN_QBLOCK(0)) / (GN_QBLOCK(1) - GN_QBLOCK(0));
  const uint32_t r = (offset - GN_QBLOCK(0)) % (GN_QBLOCK(1) - GN_QBLOCK(0));
  if (r <= GN_Q_RX_HEAD) {
    if (q >= rx_queues()) return false;
    const DescRing &x = *m_rx[q];
    switch (r) {
      case GN_Q_RX_RING_LO: *v = x.base_lo(); break;
      case GN_Q_RX_RING_HI: *v = x.base_hi(); break;
      case GN_Q_RX_RING_SIZE: *v = x.size(); break;
      case GN_Q_RX_TAIL: *v = x.tail(); break;
      default: *v = x.head(); break;
    }
    return true;
  }
  if (r <= GN_Q_TX_HEAD) {
    if (q >= tx_queues()) return false;
    const DescRing &x = *m_tx[q];
    switch (r) {
      case GN_Q_TX_RING_LO: *v = x.base_lo(); break;
      case GN_Q_TX_RING_HI: *v = x.base_hi(); break;
      case GN_Q_TX_RING_SIZE: *v = x.size(); break;
      case GN_Q_TX_TAIL: *v = x.tail(); break;
      default: *v = x.head(); break;
    }
    return true;
  }
  if (q >= vectors()) return false;
  IrqModerator &m = irq(q);
  switch (r) {
    case GN_Q_INT_STATUS: *v = m.read_clear_status(); break;
    case GN_Q_INT_MASK: *v = m.mask(); break;
    case GN_Q_COAL_FRAMES: *v = m.coal_frames(); break;
    case GN_Q_COAL_USECS: *v = m.coal_usecs(); break;
    case GN_Q_MSI_ADDR_LO: *v = m.msi_addr_lo(); break;
    case GN_Q_MSI_ADDR_HI: *v = m.msi_addr_hi(); break;
    default: return false;
  }
  return true;
}

void DmaEngine::reg_write(uint32_t offset, uint32_t value) {
  DescRing &rx0 = *m_rx[0], &tx0 = *m_tx[0];
  switch (offset) {
    case GN_REG_CTRL:
      m_ctrl = value;
      ctrl_changed();
      break;
    case GN_REG_INT_STATUS: m_irq.clear_status(value); break;
    case GN_REG_INT_MASK: m_irq.set_mask(value); break;
    case GN_REG_DESC_SPACING: {
      bool owned = false;
      for (const auto &r : m_rx) owned |= r->owned() != 0;
      for (const auto &r : m_tx) owned |= r->owned() != 0;
      if (value < std::min(m_codec.desc_bytes(), m_codec.tx_desc_bytes())) {
        violation("DESC_SPACING %u below the %u-byte descriptor", value,
                  std::min(m_codec.desc_bytes(), m_codec.tx_desc_bytes()));
      } else if (owned) {
        violation("DESC_SPACING changed while the device owns descriptors");
      } else {
        m_spacing = value;
        set_ring_geometry();
      }
      break;
    }
    case GN_REG_RX_RING_LO: ring_config_write(rx0, "RX", 0, value); break;
    case GN_REG_RX_RING_HI: ring_config_write(rx0, "RX", 1, value); break;
    case GN_REG_RX_RING_SIZE: ring_config_write(rx0, "RX", 2, value); break;
    case GN_REG_TX_RING_LO: ring_config_write(tx0, "TX", 0, value); break;
    case GN_REG_TX_RING_HI: ring_config_write(tx0, "TX", 1, value); break;
    case GN_REG_TX_RING_SIZE: ring_config_write(tx0, "TX", 2, value); break;
    case GN_REG_RX_TAIL:
    case GN_REG_TX_TAIL: {
      DescRing &r = offset == GN_REG_RX_TAIL ? rx0 : tx0;
      if (const char *err = r.set_tail(value)) {
        violation("%s tail write %u (head %u, size %u): %s", offset == GN_REG_RX_TAIL ? "RX" : "TX",
                  value, r.head(), r.size(), err);
        r.halt();
      }
      break;
    }
    case GN_REG_RX_BUF_SIZE: m_rx_buf_size = value; break;
    case GN_REG_COAL_FRAMES: m_irq.set_coal_frames(value); break;
    case GN_REG_COAL_USECS: m_irq.set_coal_usecs(value); break;
    case GN_REG_RX_WATCHDOG:
      /* RWT (8 bits) x 256 CSR clock cycles: the moderation timer (dwmac4 DMA_CHAN_RX_WATCHDOG). */
      m_riwt = value & 0xFFu;
      m_irq.set_coal_ps(static_cast<uint64_t>(
          std::llround(static_cast<double>(m_riwt) * STMMAC_RIWT_UNIT_CYCLES * 1e6 / m_p.csr_clock_mhz)));
      break;
    case GN_REG_MSI_ADDR_LO: m_irq.set_msi_addr_lo(value); break;
    case GN_REG_MSI_ADDR_HI: m_irq.set_msi_addr_hi(value); break;
    case GN_REG_MSI_DATA: m_irq.set_msi_data(value); break;
    case GN_REG_TX_HEAD_WB_LO: m_tx_head_wb_addr[0] = (m_tx_head_wb_addr[0] & ~0xFFFFFFFFull) | value; break;
    case GN_REG_TX_HEAD_WB_HI:
      m_tx_head_wb_addr[0] = (m_tx_head_wb_addr[0] & 0xFFFFFFFFull) | (static_cast<uint64_t>(value) << 32);
      break;
    default:
      if (queue_reg_write(offset, value)) break;
      if ((offset >= GN_REG_RSS_KEY(0) && offset < GN_REG_RSS_KEY(GN_RSS_KEY_REGS)) ||
          offset == GN_REG_RSS_TABLE_SIZE ||
          (offset >= GN_REG_RSS_LUT(0) && offset < GN_REG_RSS_LUT(GN_RSS_LUT_REGS))) {
        rss_reg_write(offset, value);
      }
      break; /* head registers are read-only; reserved ones ignore writes */
  }
}

bool DmaEngine::queue_reg_write(uint32_t offset, uint32_t value) {
  if (offset >= GN_REG_MSIX_DATA(0) && offset < GN_REG_MSIX_DATA(GN_MAX_QUEUES)) {
    const uint32_t vec = (offset - GN_REG_MSIX_DATA(0)) / 4;
    if (vec >= vectors()) return false;
    irq(vec).set_msi_data(value);
    return true;
  }
  if (offset >= GN_REG_TXQ_HEAD_WB_LO(0) && offset < GN_REG_TXQ_HEAD_WB_LO(GN_MAX_QUEUES)) {
    const uint32_t q = (offset - GN_REG_TXQ_HEAD_WB_LO(0)) / 8;
    if (q >= tx_queues()) return false;
    uint64_t &a = m_tx_head_wb_addr[q];
    if (offset & 4)
      a = (a & 0xFFFFFFFFull) | (static_cast<uint64_t>(value) << 32);
    else
      a = (a & ~0xFFFFFFFFull) | value;
    return true;
  }
  if (offset < GN_QBLOCK(0) || offset >= GN_QBLOCK(GN_MAX_QUEUES)) return false;
  const uint32_t q = (offset - GN_QBLOCK(0)) / (GN_QBLOCK(1) - GN_QBLOCK(0));
  const uint32_t r = (offset - GN_QBLOCK(0)) % (GN_QBLOCK(1) - GN_QBLOCK(0));
  char which[16];
  if (r <= GN_Q_TX_HEAD) {
    const bool rx = r <= GN_Q_RX_HEAD;
    if (q >= (rx ? rx_queues() : tx_queues())) return false;
    DescRing &x = rx ? *m_rx[q] : *m_tx[q];
    std::snprintf(which, sizeof which, "%s queue %u", rx ? "RX" : "TX", q);
    const uint32_t f = rx ? r : r - GN_Q_TX_RING_LO;
    switch (f) {
      case GN_Q_RX_RING_LO: ring_config_write(x, which, 0, value); break;
      case GN_Q_RX_RING_HI: ring_config_write(x, which, 1, value); break;
      case GN_Q_RX_RING_SIZE: ring_config_write(x, which, 2, value); break;
      case GN_Q_RX_TAIL:
        if (const char *err = x.set_tail(value)) {
          violation("%s tail write %u (head %u, size %u): %s", which, value, x.head(), x.size(), err);
          x.halt();
        }
        break;
      default: break; /* head: read-only */
    }
    return true;
  }
  if (q >= vectors()) return false;
  IrqModerator &m = irq(q);
  switch (r) {
    case GN_Q_INT_STATUS: m.clear_status(value); break;
    case GN_Q_INT_MASK: m.set_mask(value); break;
    case GN_Q_COAL_FRAMES: m.set_coal_frames(value); break;
    case GN_Q_COAL_USECS: m.set_coal_usecs(value); break;
    case GN_Q_MSI_ADDR_LO: m.set_msi_addr_lo(value); break;
    case GN_Q_MSI_ADDR_HI: m.set_msi_addr_hi(value); break;
    default: return false;
  }
  return true;
}

/* RSS key, table size and indirection table. An entry naming a queue the
 * device does not have, or a table size that is not a power of two up to
 * GN_RSS_LUT_MAX, is a violation (the write is refused). */
void DmaEngine::rss_reg_write(uint32_t offset, uint32_t value) {
  if (offset == GN_REG_RSS_TABLE_SIZE) {
    if (value > GN_RSS_LUT_MAX || (value & (value - 1)) != 0) {
      violation("RSS_TABLE_SIZE %u is not a power of two up to %u (0: RSS off)", value, GN_RSS_LUT_MAX);
      return;
    }
    m_rss_size = value;
    return;
  }
  uint8_t b[4];
  for (int i = 0; i < 4; i++) b[i] = static_cast<uint8_t>(value >> (8 * i));
  if (offset < GN_REG_RSS_KEY(GN_RSS_KEY_REGS)) {
    std::memcpy(m_rss_key + (offset - GN_REG_RSS_KEY(0)), b, 4);
    return;
  }
  const uint32_t first = offset - GN_REG_RSS_LUT(0);
  for (uint32_t i = 0; i < 4; i++) {
    if (b[i] >= rx_queues()) {
      violation("RSS table entry %u names RX queue %u, but the device has %u RX queues", first + i, b[i],
                rx_queues());
      return;
    }
  }
  std::memcpy(m_rss_lut + first, b, 4);
}

void DmaEngine::ring_config_write(DescRing &r, const char *which, int field, uint32_t value) {
  if (r.owned()) {
    violation("%s ring base or size written while the device owns %u descriptors", which, r.owned());
    r.halt();
    return;
  }
  switch (field) {
    case 0: r.set_base_lo(value); break;
    case 1: r.set_base_hi(value); break;
    default: r.set_size(value); break;
  }
  set_owns_window();
}

void DmaEngine::ctrl_changed() {
  m_ctrl_event.notify();
  if (m_ctrl_nb_wait) {
    m_ctrl_nb_wait = false;
    m_ctrl_nb.notify();
  }
  for (auto &r : m_rx) r->kick_fetch();
  for (auto &r : m_tx) r->kick_fetch();
}

void DmaEngine::violation(const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (m_on_violation) {
    m_on_violation(name(), msg);
  } else {
    SC_REPORT_ERROR(name(), msg);
  }
}

/* ---- common -------------------------------------------------------------- */

bool DmaEngine::data_ro(uint64_t pa) {
  if (!m_ro_fn || !m_ro_fn(pa)) return false;
  m_cnt.ro_data_xfers++;
  return true;
}

void DmaEngine::wb_add(WbQueue &q, uint32_t idx, bool eop, bool ioc) {
  q.idx[q.count] = idx;
  q.eop[q.count] = eop ? 1 : 0;
  q.ioc[q.count] = ioc ? 1 : 0;
  q.count++;
  if (q.count >= m_p.wb_threshold) wb_flush(q);
}

/* One write-back request of q's queued descriptors [i, i + n) has left the
 * device: head moves past them, then their frames complete (counters, and
 * the queue's interrupt moderation). */
void DmaEngine::wb_written(WbQueue &q, uint32_t i, uint32_t n) {
  m_cnt.desc_writebacks++;
  wb_complete(q, i, n);
}

/* q's queued descriptors [i, i + n) are done: head moves past them, then
 * their frames complete. */
void DmaEngine::wb_complete(WbQueue &q, uint32_t i, uint32_t n) {
  q.ring->advance_head(n);
  uint32_t frames = 0;
  bool ioc = false;
  for (uint32_t k = i; k < i + n; k++) {
    frames += q.eop[k];
    ioc |= q.eop[k] && q.ioc[k];
  }
  /* TBU: the ring holds nothing more the device owns; it suspends and says so. */
  if (q.irq_on_drain && q.ring->owned() == 0) ioc = true;
  if (frames) {
    if (q.rx) {
      m_cnt.rx_dma_frames += frames;
      m_cnt.rxq_frames[q.qid] += frames;
      m_rx_in_engine -= frames;
    }
    q.irq->completion(q.cause, frames, ioc);
  }
}

/* How many of q's queued descriptors from the i-th one write-back request
 * carries: the run of consecutive ones when they are packed (spacing ==
 * size), else one. */
uint32_t DmaEngine::wb_run(const WbQueue &q, uint32_t i) const {
  uint32_t n = 1;
  if (q.ring->spacing() == q.ring->desc_bytes())
    while (i + n < q.count && q.idx[i + n] == q.idx[i] + n) n++;
  return n;
}

/* Writes back the queued descriptors: one request per run of consecutive
 * descriptors when they are packed (spacing == size), else one each. Head
 * moves past them once each request has left; then their frames complete. */
void DmaEngine::wb_flush(WbQueue &q) {
  if (q.head_wb) {
    wb_flush_head(q);
    return;
  }
  const uint32_t db = q.ring->desc_bytes();
  uint32_t i = 0;
  while (i < q.count) {
    const uint32_t n = wb_run(q, i);
    DescRing &r = *q.ring;
    if (!q.xfer->write(r.slot_addr(q.idx[i]), q.bytes.data() + static_cast<size_t>(i) * db, n * db,
                       DmaPurpose::DescWriteBack, 0)) {
      r.halt();
      q.count = 0;
      return;
    }
    wb_written(q, i, n);
    i += n;
  }
  q.count = 0;
}

/* Head write-back (i40e TX style): the descriptors stay as the driver wrote
 * them; one 4-byte write of the new head index to the queue's head
 * write-back address (none if it is 0: the driver reads the HEAD register),
 * then head moves past them all. */
void DmaEngine::wb_flush_head(WbQueue &q) {
  if (q.count == 0) return;
  DescRing &r = *q.ring;
  uint32_t new_head = (r.head() + q.count) % r.size();
  const uint64_t addr = q.head_wb_addr ? *q.head_wb_addr : 0;
  if (addr != 0) {
    for (int i = 0; i < 4; i++) q.head_buf[i] = static_cast<uint8_t>(new_head >> (8 * i));
    if (!q.xfer->write(addr, q.head_buf, 4, DmaPurpose::DescWriteBack, 0)) {
      r.halt();
      q.count = 0;
      return;
    }
    m_cnt.desc_writebacks++;
  }
  const uint32_t n = q.count;
  q.count = 0;
  wb_complete(q, 0, n);
}

bool DmaEngine::flush_all(std::vector<WbQueue> &queues) {
  bool wrote = false;
  for (WbQueue &w : queues) {
    wrote |= w.count > 0;
    wb_flush(w);
  }
  return wrote;
}

bool DmaEngine::rx_flush_all() { return flush_all(m_rx_wb); }

bool DmaEngine::tx_flush_all() { return flush_all(m_tx_wb); }

/* ---- descriptor fetch ---------------------------------------------------- */

void DmaEngine::rx_fetch_thread() { fetch_loop(0, true); }
void DmaEngine::tx_fetch_thread() { fetch_loop(0, false); }

/* Keeps ring q's cache filled: one fetch request outstanding at a time.
 * The channel's rings take read tags in turn (ReadTagPool, by queue). */
void DmaEngine::fetch_loop(uint32_t q, bool rx) {
  DescRing &r = rx ? *m_rx[q] : *m_tx[q];
  DmaXfer &x = rx ? *m_rx_fetch_x[q] : *m_tx_fetch_x[q];
  std::vector<uint8_t> &buf = rx ? m_rx_fetch_buf[q] : m_tx_fetch_buf[q];
  const uint32_t enable = rx ? GN_CTRL_RX_EN : GN_CTRL_TX_EN;
  for (;;) {
    const uint32_t db = r.desc_bytes();
    uint32_t first = 0, n = 0;
    if (!(m_ctrl & enable) ||
        !r.plan_fetch(m_p.desc_fetch_max, r.spacing() == db, &first, &n)) {
      r.wait_fetch_kick();
      continue;
    }
    uint32_t gen = r.generation();
    r.fetch_issued(n);
    m_tags.acquire(rx, q);
    bool ok = x.read(r.slot_addr(first), buf.data(), n * db, DmaPurpose::DescFetch, 0);
    m_tags.release();
    r.fetch_ended();
    m_cnt.desc_fetch_reqs++;
    if (!ok) {
      r.halt();
      continue;
    }
    if (gen != r.generation() || r.halted()) continue;
    m_cnt.desc_fetched += n;
    for (uint32_t i = 0; i < n; i++) {
      DmaDesc d;
      const uint8_t *p = buf.data() + static_cast<size_t>(i) * db;
      if (rx) {
        m_codec.decode_rx(p, &d);
      } else {
        m_codec.decode_tx(p, &d);
      }
      if (!d.own) {
        if (rx_queues() == 1 && tx_queues() == 1) {
          violation("%s descriptor %u is in [head %u, tail %u) but OWN is clear when fetched",
                    rx ? "RX" : "TX", first + i, r.head(), r.tail());
        } else {
          violation("%s queue %u descriptor %u is in [head %u, tail %u) but OWN is clear when fetched",
                    rx ? "RX" : "TX", q, first + i, r.head(), r.tail());
        }
        r.halt();
        break;
      }
      r.push_fetched(d);
    }
    r.notify_desc_ready();
    if (!rx) m_tx_desc_any.notify();
  }
}

/* ---- RX ------------------------------------------------------------------- */

/* The RX channel: frames leave the FIFO in arrival order, each to the queue
 * RSS picks; a frame whose queue has no descriptor waits (and so do the
 * frames behind it: one FIFO, as the generic NIC's), or with rx_drop_nodesc
 * is dropped when the ring has none left for the device (nothing cached,
 * nothing to fetch). */
/* The ring of the RX FIFO's oldest frame (RSS, computed once per frame), or
 * nullptr if that frame has just been dropped because its ring has no
 * descriptor left for the device (rx_drop_nodesc). */
DescRing *DmaEngine::rx_front_ring() {
  if (m_rx_front_q < 0) {
    uint32_t len = 0;
    const uint8_t *data = m_mac.rx_fifo().front(&len);
    m_rx_front_q = static_cast<int>(rss_queue(data, len));
  }
  DescRing &r = *m_rx[static_cast<uint32_t>(m_rx_front_q)];
  if (r.cache_empty() && m_p.rx_drop_nodesc && r.owned() == 0) {
    m_mac.rx_pop(); /* dropped where it stands: the frames behind it go on */
    m_rx_front_q = -1;
    m_cnt.rx_drop_nodesc++;
    return nullptr;
  }
  return &r;
}

void DmaEngine::rx_data_thread() {
  if (m_rx_link) {
    m_rxm_start.notify(); /* the method runs the RX path; this thread ends */
    return;
  }
  for (;;) {
    bool halted = false;
    for (const auto &r : m_rx) halted |= r->halted();
    /* Before each wait the pending write-backs go out; if that took time,
     * what the wait was for may have happened meanwhile (a frame, a tail
     * write, a CTRL write): look again rather than wait for the next one. */
    if (!(m_ctrl & GN_CTRL_RX_EN) || halted) {
      if (rx_flush_all()) continue;
      m_ctrl_event.wait();
      continue;
    }
    if (m_mac.rx_fifo().frames() == 0) {
      if (rx_flush_all()) continue;
      m_mac.wait_rx_frame();
      continue;
    }
    DescRing *front = rx_front_ring();
    if (!front) continue;
    DescRing &r = *front;
    if (r.cache_empty()) {
      if (rx_flush_all()) continue;
      r.wait_desc_ready();
      continue;
    }
    rx_one_frame(static_cast<uint32_t>(m_rx_front_q));
  }
}

/* Takes ring's next cached descriptor for the frame's bytes [off, len): its
 * processing cycles pass as the write's start offset (b->ready_ps); a family
 * may put a header before the frame in its first buffer (mvneta's 2-byte
 * Marvell header), so the frame starts that far in. False (violation
 * reported, ring halted) if the buffer cannot hold a byte. */
bool DmaEngine::rx_take_buffer(DescRing &ring, uint32_t off, uint32_t len, RxBuf *b) {
  b->d = ring.pop_cached(&b->idx);
  b->ready_ps = m_clock.after_cycles(now_ps(), m_p.desc_proc_cycles);
  m_cnt.busy_cycles += m_p.desc_proc_cycles;
  const uint32_t buf = b->d.len ? b->d.len : m_rx_buf_size;
  if (buf == 0) {
    violation("RX descriptor %u has no buffer (buf_len 0 and RX_BUF_SIZE 0)", b->idx);
    ring.halt();
    return false;
  }
  const uint32_t skip = off == 0 ? m_codec.rx_data_offset() : 0;
  if (buf <= skip) {
    violation("RX descriptor %u: buffer of %u bytes has no room after the %u-byte header", b->idx, buf, skip);
    ring.halt();
    return false;
  }
  b->addr = b->d.buf_addr + skip;
  b->chunk = std::min(len - off, buf - skip);
  return true;
}

/* Moves the oldest RX FIFO frame into as many buffers of queue qi as it needs. */
void DmaEngine::rx_one_frame(uint32_t qi) {
  ByteFifo &fifo = m_mac.rx_fifo();
  DescRing &ring = *m_rx[qi];
  DmaXfer &xfer = *m_rx_data_x[qi];
  WbQueue &wb = m_rx_wb[qi];
  uint32_t len = 0;
  const uint8_t *data = fifo.front(&len);
  uint32_t off = 0;
  m_cnt.rxq_steered[qi]++;
  while (off < len) {
    while (ring.cache_empty() || !(m_ctrl & GN_CTRL_RX_EN)) {
      if (ring.halted()) return;
      if (rx_flush_all()) continue; /* time passed: look again first */
      if (!(m_ctrl & GN_CTRL_RX_EN)) {
        m_ctrl_event.wait();
      } else {
        ring.wait_desc_ready();
      }
    }
    if (ring.halted()) return;
    RxBuf b;
    if (!rx_take_buffer(ring, off, len, &b)) return;
    const uint32_t chunk = b.chunk;
    const uint32_t idx = b.idx;
    const DmaDesc &d = b.d;
    if (!xfer.write(b.addr, data + off, chunk, DmaPurpose::Data, 0, b.ready_ps, data_ro(b.addr))) {
      ring.halt();
      return;
    }
    m_cnt.data_write_bytes += chunk;
    off += chunk;
    bool eop = off == len;
    if (eop) {
      m_mac.rx_pop(); /* the bytes have left the device (may send XON) */
      m_rx_front_q = -1;
      m_rx_in_engine++;
    }
    m_codec.encode_rx_done(d, chunk, off, eop, wb_slot(wb));
    wb_add(wb, idx, eop, d.ioc);
  }
}

/* ---- RX as a method --------------------------------------------------------- */

void DmaEngine::start_of_simulation() {
  /* Only a PcieLink answers the probe; another target (the AXI bus, whose
   * b_transport waits) keeps the thread. */
  tlm::tlm_generic_payload gp;
  PcieNbProbe probe;
  gp.set_extension(&probe);
  m_socket->transport_dbg(gp);
  gp.clear_extension(&probe);
  m_rx_link = m_p.rx_method ? probe.link : nullptr;
  if (m_rx_link)
    for (auto &x : m_rx_data_x) x->set_nb_link(m_rx_link);
}

uint64_t DmaEngine::rx_nb_line_waits() const {
  uint64_t n = 0;
  for (const auto &x : m_rx_data_x) n += x->nb_line_waits();
  return n;
}

uint64_t DmaEngine::rx_nb_lookaheads() const {
  uint64_t n = 0;
  for (const auto &x : m_rx_data_x) n += x->nb_lookaheads();
  return n;
}

uint64_t DmaEngine::rx_nb_credit_waits() const {
  uint64_t n = 0;
  for (const auto &x : m_rx_data_x) n += x->nb_credit_waits();
  return n;
}

/* rx_data_thread and rx_one_frame, step for step: each of their waits
 * (rx_flush_all's write-backs, the data write, the events) is a
 * next_trigger, and the activation it ends resumes at the same point. */
void DmaEngine::rx_data_method() {
  /* The kernel is asked again in each activation, after a write enters a
   * link that notifies its commits, and after a write-back ended early (what
   * follows may kick the descriptor fetcher): what ran or was notified since
   * may have given it something to do. Between those points the method
   * notifies nothing: a write entering a lazily committing link, a data
   * write's end, the frame's pop (the wire peer's replay) and a write-back's
   * start make no kernel activity. */
  m_rxm_quiet.reset();
  LogicalNow ahead(0); /* the kernel's time, until a write ends early */
  m_rxm_ahead = &ahead;
  for (;;) {
    bool waits = false;
    switch (m_rxm.st) {
      case kRxmTop: waits = rxm_top(); break;
      case kRxmFrame: waits = rxm_frame(); break;
      case kRxmData: waits = rxm_data(); break;
      case kRxmFlush: waits = rxm_flush(); break;
      case kRxmWokeTop: m_rxm.st = kRxmTop; break;     /* rx_data_thread's `continue` after a wait */
      case kRxmWokeFrame: m_rxm.st = kRxmFrame; break; /* rx_one_frame's wait loop, checked again */
      default: break;
    }
    if (waits) break;
  }
  m_rxm_ahead = nullptr;
}

void DmaEngine::rxm_ended_at(uint64_t done) {
  if (done > now_ps()) m_rxm_ahead->advance(done);
}

/* rx_data_thread's loop body, up to rx_one_frame. */
bool DmaEngine::rxm_top() {
  const uint32_t nq = rx_queues();
  bool halted = false;
  for (const auto &r : m_rx) halted |= r->halted();
  if (!(m_ctrl & GN_CTRL_RX_EN) || halted) {
    rxm_flush_start(0, nq, kAfterCtrl);
    return false;
  }
  if (m_mac.rx_fifo().frames() == 0) {
    rxm_flush_start(0, nq, kAfterFrame);
    return false;
  }
  DescRing *front = rx_front_ring();
  if (!front) return false;
  DescRing &r = *front;
  if (r.cache_empty()) {
    m_rxm.wait_ring = static_cast<uint32_t>(m_rx_front_q);
    rxm_flush_start(0, nq, kAfterDesc);
    return false;
  }
  /* rx_one_frame's start */
  const uint32_t qi = static_cast<uint32_t>(m_rx_front_q);
  m_rxm.q = qi;
  m_rxm.data = m_mac.rx_fifo().front(&m_rxm.len);
  m_rxm.off = 0;
  m_cnt.rxq_steered[qi]++;
  m_rxm.st = kRxmFrame;
  return false;
}

/* rx_one_frame's loop body up to the data write (or its return). */
bool DmaEngine::rxm_frame() {
  const uint32_t qi = m_rxm.q;
  DescRing &ring = *m_rx[qi];
  if (m_rxm.off >= m_rxm.len) { /* the frame is done: rx_one_frame returns */
    m_rxm.st = kRxmTop;
    return false;
  }
  if (ring.cache_empty() || !(m_ctrl & GN_CTRL_RX_EN)) {
    if (ring.halted()) {
      m_rxm.st = kRxmTop;
      return false;
    }
    rxm_flush_start(0, rx_queues(), kAfterFrameWait);
    return false;
  }
  if (ring.halted()) {
    m_rxm.st = kRxmTop;
    return false;
  }
  RxBuf b;
  if (!rx_take_buffer(ring, m_rxm.off, m_rxm.len, &b)) {
    m_rxm.st = kRxmTop;
    return false;
  }
  m_rxm.d = b.d;
  m_rxm.idx = b.idx;
  m_rxm.chunk = b.chunk;
  m_rx_data_x[qi]->write_nb_begin(b.addr, m_rxm.data + m_rxm.off, b.chunk, DmaPurpose::Data, 0, b.ready_ps,
                                  data_ro(b.addr));
  m_rxm.st = kRxmData;
  return false;
}

/* The data write, then what follows it in rx_one_frame (wb_add included). */
bool DmaEngine::rxm_data() {
  const uint32_t qi = m_rxm.q;
  DmaXfer &x = *m_rx_data_x[qi];
  const DmaXfer::NbResult res = x.write_nb_step(rxm_may_end_early(), &m_rxm_quiet);
  if (res == DmaXfer::NbResult::Pending) return true;
  /* It may have ended early: the rest runs at its end (LogicalNow) */
  if (res == DmaXfer::NbResult::Ok) rxm_ended_at(x.nb_done_ps());
  if (res == DmaXfer::NbResult::Failed) {
    m_rx[qi]->halt();
    m_rxm.st = kRxmTop;
    return false;
  }
  const uint32_t chunk = m_rxm.chunk;
  m_cnt.data_write_bytes += chunk;
  m_rxm.off += chunk;
  const bool eop = m_rxm.off == m_rxm.len;
  if (eop) {
    m_mac.rx_pop(); /* the bytes have left the device (may send XON) */
    m_rx_front_q = -1;
    m_rx_in_engine++;
  }
  WbQueue &wb = m_rx_wb[qi];
  m_codec.encode_rx_done(m_rxm.d, chunk, m_rxm.off, eop, wb_slot(wb));
  /* wb_add */
  wb.idx[wb.count] = m_rxm.idx;
  wb.eop[wb.count] = eop ? 1 : 0;
  wb.ioc[wb.count] = m_rxm.d.ioc ? 1 : 0;
  wb.count++;
  if (wb.count >= m_p.wb_threshold) {
    rxm_flush_start(qi, qi + 1, kAfterFrameNext);
    return false;
  }
  m_rxm.st = kRxmFrame;
  return false;
}

bool DmaEngine::rxm_wb_may_end_early(const WbQueue &q) const {
  if (m_rxm.after != kAfterFrameNext || m_mac.pause_enabled()) return false;
  if (m_rxm.fl_q + 1 != m_rxm.fl_end || m_rxm.fl_i + m_rxm.fl_n != q.count) return false; /* not the last write */
  uint32_t frames = 0;
  bool ioc = false;
  for (uint32_t k = m_rxm.fl_i; k < m_rxm.fl_i + m_rxm.fl_n; k++) {
    frames += q.eop[k];
    ioc |= q.eop[k] && q.ioc[k];
  }
  return q.irq->completion_is_quiet(q.cause, frames, ioc);
}

bool DmaEngine::rxm_may_end_early() const {
  if (m_rxm.off + m_rxm.chunk != m_rxm.len || m_mac.pause_enabled()) return false;
  return m_rx_wb[m_rxm.q].count + 1 >= m_p.wb_threshold; /* else rxm_top would look at the FIFO next */
}

void DmaEngine::rxm_flush_start(uint32_t first, uint32_t end, uint8_t after) {
  m_rxm.fl_q = first;
  m_rxm.fl_end = end;
  m_rxm.fl_i = 0;
  m_rxm.fl_writing = false;
  m_rxm.fl_wrote = false;
  m_rxm.after = after;
  m_rxm.st = kRxmFlush;
}

/* wb_flush over queues [fl_q, fl_end) (RX queues write descriptors back, never
 * a head index), then the wait or step that followed the flush. */
bool DmaEngine::rxm_flush() {
  for (;;) {
    if (m_rxm.fl_writing) {
      WbQueue &q = m_rx_wb[m_rxm.fl_q];
      const DmaXfer::NbResult res = q.xfer->write_nb_step(rxm_wb_may_end_early(q), &m_rxm_quiet);
      if (res == DmaXfer::NbResult::Pending) return true;
      if (res == DmaXfer::NbResult::Ok && q.xfer->nb_done_ps() > now_ps()) {
        rxm_ended_at(q.xfer->nb_done_ps());
        m_rxm_quiet.reset(); /* what follows may notify (the fetcher's kick, timed from then) */
      }
      m_rxm.fl_writing = false;
      DescRing &r = *q.ring;
      if (res == DmaXfer::NbResult::Failed) { /* wb_flush gives up on this queue */
        r.halt();
        q.count = 0;
        m_rxm.fl_q++;
        m_rxm.fl_i = 0;
        continue;
      }
      const uint32_t i = m_rxm.fl_i, n = m_rxm.fl_n;
      wb_written(q, i, n);
      m_rxm.fl_i = i + n;
      continue;
    }
    if (m_rxm.fl_q >= m_rxm.fl_end) break;
    WbQueue &q = m_rx_wb[m_rxm.fl_q];
    if (m_rxm.fl_i >= q.count) {
      q.count = 0;
      m_rxm.fl_q++;
      m_rxm.fl_i = 0;
      continue;
    }
    const uint32_t db = q.ring->desc_bytes();
    const uint32_t i = m_rxm.fl_i;
    const uint32_t n = wb_run(q, i);
    m_rxm.fl_n = n;
    m_rxm.fl_writing = true;
    m_rxm.fl_wrote = true;
    q.xfer->write_nb_begin(q.ring->slot_addr(q.idx[i]), q.bytes.data() + static_cast<size_t>(i) * db, n * db,
                           DmaPurpose::DescWriteBack, 0);
  }
  if (m_rxm.fl_wrote && m_rxm.after != kAfterFrameNext) {
    /* The write-backs took time: what the wait was for may have happened
     * meanwhile; look again, as rx_data_thread does. */
    m_rxm.st = m_rxm.after == kAfterFrameWait ? kRxmFrame : kRxmTop;
    return false;
  }
  switch (m_rxm.after) {
    case kAfterCtrl:
      m_ctrl_nb_wait = true;
      sc_core::next_trigger(m_ctrl_nb);
      m_rxm.st = kRxmWokeTop;
      return true;
    case kAfterFrame:
      rxm_wait_frame(true);
      m_rxm.st = kRxmWokeTop;
      return true;
    case kAfterDesc:
      m_rx[m_rxm.wait_ring]->next_trigger_desc_ready();
      m_rxm.st = kRxmWokeTop;
      return true;
    case kAfterFrameWait:
      if (!(m_ctrl & GN_CTRL_RX_EN)) {
        m_ctrl_nb_wait = true;
        sc_core::next_trigger(m_ctrl_nb);
      } else {
        m_rx[m_rxm.q]->next_trigger_desc_ready();
      }
      m_rxm.st = kRxmWokeFrame;
      return true;
    default: /* kAfterFrameNext */
      m_rxm.st = kRxmFrame;
      return false;
  }
}

/* rx_data_thread's wait for a frame: the thread looked at the FIFO and went
 * into wait_rx_frame at once (no write-back took time in between), so a
 * frame there now (put by another process in the same delta, which the
 * thread would have seen) is taken at once (recheck). */
void DmaEngine::rxm_wait_frame(bool recheck) {
  if (recheck && m_mac.rx_fifo().frames() > 0) {
    sc_core::next_trigger(ps_time(now_ps() - kernel_now_ps())); /* a delta, or the time it acts at (ahead) */
    return;
  }
  sc_core::next_trigger(m_mac.want_rx_frame());
}

/* ---- TX ------------------------------------------------------------------- */

int DmaEngine::tx_pick_queue() const {
  const uint32_t n = tx_queues();
  if (m_tx_open_bytes > 0) {
    const DescRing &r = *m_tx[m_tx_cur_q];
    return r.halted() || r.cache_empty() ? -1 : static_cast<int>(m_tx_cur_q);
  }
  for (uint32_t i = 1; i <= n; i++) {
    const uint32_t q = (m_tx_cur_q + i) % n;
    const DescRing &r = *m_tx[q];
    if (!r.halted() && !r.cache_empty()) return static_cast<int>(q);
  }
  return -1;
}

void DmaEngine::tx_issue_thread() {
  ByteFifo &fifo = m_mac.tx_fifo();
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    bool halted = false;
    for (const auto &r : m_tx) halted |= r->halted();
    if (!(m_ctrl & GN_CTRL_TX_EN) || (halted && tx_queues() == 1)) {
      m_ctrl_event.wait();
      continue;
    }
    const int pick = tx_pick_queue();
    if (pick < 0) {
      m_tx_desc_any.wait();
      continue;
    }
    if (m_job_issued - m_job_head == njobs) {
      m_tx_job_freed.wait();
      continue;
    }
    const uint32_t q = static_cast<uint32_t>(pick);
    DescRing &ring = *m_tx[q];
    m_tx_cur_q = q;
    uint32_t idx = 0;
    DmaDesc d = ring.pop_cached(&idx);
    /* Descriptors are processed one after another; the read of this one
     * starts when its processing is done (passed as the start offset, so
     * the stage runs ahead without waiting). */
    uint64_t now = now_ps();
    m_tx_proc_done_ps = m_clock.after_cycles(std::max(now, m_tx_proc_done_ps), m_p.desc_proc_cycles);
    m_cnt.busy_cycles += m_p.desc_proc_cycles;
    if (d.len == 0) {
      violation("TX descriptor %u has length 0", idx);
      ring.halt();
      continue;
    }
    if (m_tx_open_bytes + d.len > fifo.max_frame()) {
      violation("TX frame ending at descriptor %u is longer than %u bytes", idx, fifo.max_frame());
      ring.halt();
      continue;
    }
    while (!fifo.can_append(d.len)) m_mac.wait_tx_space();
    uint8_t *dst = fifo.append(d.len);
    if (m_tx_open_bytes == 0) m_tx_in_engine++;
    m_tx_open_bytes += d.len;
    if (d.eop) {
      fifo.close_frame();
      m_tx_open_bytes = 0;
    }
    m_tags.acquire(false, q);
    TxJob &j = m_jobs[m_job_issued % njobs];
    j.q = q;
    j.idx = idx;
    j.d = d;
    j.dst = dst;
    j.start_ps = m_tx_proc_done_ps;
    j.done = false;
    m_job_issued++;
    /* Wake exactly one idle reader (a reader that is busy takes the next
     * job itself when it finishes). */
    if (!m_idle_readers.empty()) {
      m_reader_wake[m_idle_readers.back()]->notify();
      m_idle_readers.pop_back();
    }
  }
}

void DmaEngine::tx_reader(uint32_t i) {
  DmaXfer &x = *m_tx_read_x[i];
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    if (m_job_started == m_job_issued) {
      m_idle_readers.push_back(i);
      wait(*m_reader_wake[i]);
      continue;
    }
    TxJob &j = m_jobs[m_job_started % njobs];
    x.set_arb_seq(static_cast<uint32_t>(m_job_started)); /* same-edge reads in job order */
    m_job_started++;
    bool ok = x.read(j.d.buf_addr, j.dst, j.d.len, DmaPurpose::Data, 0, j.start_ps, data_ro(j.d.buf_addr));
    m_tags.release();
    if (!ok) {
      m_tx[j.q]->halt(); /* the job never completes: TX stops here */
      continue;
    }
    m_cnt.data_read_bytes += j.d.len;
    j.done = true;
    m_tx_job_done.notify();
  }
}

void DmaEngine::tx_retire_thread() {
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    if (m_job_head == m_job_issued || !m_jobs[m_job_head % njobs].done) {
      if (tx_flush_all()) continue; /* a job may have finished meanwhile */
      m_tx_job_done.wait();
      continue;
    }
    TxJob &j = m_jobs[m_job_head % njobs];
    uint32_t idx = j.idx;
    bool eop = j.d.eop;
    WbQueue &wb = m_tx_wb[j.q];
    if (eop) {
      m_mac.tx_publish();
      m_tx_in_engine--;
      m_cnt.tx_dma_frames++;
      m_cnt.txq_frames[j.q]++;
    }
    m_codec.encode_tx_done(j.d, wb_slot(wb));
    m_job_head++;
    m_tx_job_freed.notify();
    wb_add(wb, idx, eop, j.d.ioc);
  }
}

}  // namespace nicsim
