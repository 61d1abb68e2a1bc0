/* dma_engine.cpp: the NIC DMA engine (see dma_engine.h): parameters,
 * construction of the rings, transfers, processes and interrupt vectors,
 * trace tracks, RSS and the ring-ownership window. The rest of the engine's
 * members are defined by responsibility in
 *   dma_engine_regs.cpp - the BAR0 register file (MMIO reads and writes);
 *   dma_engine_desc.cpp - descriptor fetch and write-back;
 *   dma_engine_rx.cpp   - the RX data path (thread, and method over a PcieLink);
 *   dma_engine_tx.cpp   - the TX data path (issue, readers, retire). */
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
      m_tags(p.max_read_reqs, p.rx_read_priority, p.read_reqs_per_channel),
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
  /* Every request of the engine passes the issue-rate limit, if one is set. */
  const uint64_t issue_ps = static_cast<uint64_t>(std::llround(p.issue_ns * 1000.0));
  auto make_xfer = [this, issue_ps](tlm::tlm_initiator_socket<> &s, const DmaXfer::ErrorFn &err) {
    DmaXfer *x = new DmaXfer(s, m_clock, err);
    if (issue_ps) x->set_issue_gate(&m_issue_next_ps, issue_ps);
    return x;
  };
  const uint32_t nvec = p.vectors ? p.vectors : std::max(p.rx_queues, p.tx_queues);
  if (nvec > kMaxQueues) SC_REPORT_ERROR(this->name(), "vectors must be at most 16");
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
    m_rx_fetch_x.emplace_back(make_xfer(socket, on_err));
    m_rx_data_x.emplace_back(make_xfer(socket, on_err));
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
    m_tx_fetch_x.emplace_back(make_xfer(socket, on_err));
    m_tx_wb_x.emplace_back(make_xfer(socket, on_err));
    m_tx_fetch_buf.emplace_back(static_cast<size_t>(p.desc_fetch_max) * tdb);
    WbQueue &w = m_tx_wb[q];
    w.ring = m_tx[q].get();
    w.xfer = m_tx_wb_x[q].get();
    w.irq = &irq(q % nvec); /* GN_REG_TXQ_VEC's reset value */
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
  for (uint32_t v = 0; v < nvec; v++) {
    irq(v).set_ioc_mode(codec.ioc_moderation());
    irq(v).set_timer_restart(p.coal_timer_restart);
  }
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
    m_tx_read_x.emplace_back(make_xfer(socket, on_err));
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
  /* Counter tracks: descriptors each ring's device owns ([head, tail)). */
  for (uint32_t q = 0; q < rx_queues(); q++) {
    std::snprintf(name, sizeof name, "rxq%u ring owned", q);
    m_rx[q]->set_trace(t, name);
  }
  for (uint32_t q = 0; q < tx_queues(); q++) {
    std::snprintf(name, sizeof name, "txq%u ring owned", q);
    m_tx[q]->set_trace(t, name);
  }
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
    c.moderation_changes += x.moderation_changes;
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

bool DmaEngine::data_ro(uint64_t pa) {
  if (!m_ro_fn || !m_ro_fn(pa)) return false;
  m_cnt.ro_data_xfers++;
  return true;
}
}  // namespace nicsim
