/* dma_engine.cpp: the NIC DMA engine (see dma_engine.h): registers, descriptor
 * fetch with batching, RX and TX data paths, write-back, moderation hooks. */
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "dma/dma_engine.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "hw/generic_nic.h"
#include "hw/stmmac.h"
#include "mac/mac.h"
#include "nic/ps_time.h"
#include "nic/trace.h"

namespace nicsim {

DmaEngine::Params DmaEngine::Params::from_config(const nicsim_config &cfg) {
  Params p;
  p.clock_mhz = cfg.nic.clock_mhz;
  p.desc_spacing = static_cast<uint32_t>(cfg.nic.desc_spacing);
  p.desc_fetch_max = static_cast<uint32_t>(cfg.nic.desc_fetch_max);
  p.desc_cache_entries = cfg.nic.desc_cache_entries > 0 ? static_cast<uint32_t>(cfg.nic.desc_cache_entries)
                                                         : 2 * p.desc_fetch_max;
  p.desc_proc_cycles = static_cast<uint32_t>(cfg.nic.desc_proc_cycles);
  p.wb_threshold = cfg.nic.wb_mode == NC_WB_DESC ? 1 : static_cast<uint32_t>(cfg.nic.wb_threshold);
  p.tx_head_wb = cfg.nic.wb_mode == NC_WB_HEAD;
  p.prefetch_threshold = static_cast<uint32_t>(cfg.nic.desc_prefetch_threshold);
  p.max_read_reqs = static_cast<uint32_t>(cfg.nic.max_read_reqs);
  p.rx_read_priority = cfg.nic.dma_arbitration == NC_ARB_RX_PRIORITY;
  p.itr_usecs = cfg.nic.irq_itr_usecs;
  p.coal_frames = static_cast<uint32_t>(cfg.nic.irq_coal_frames);
  p.coal_usecs = cfg.nic.irq_coal_usecs;
  p.reg_read_ns = cfg.nic.reg_read_ns;
  p.csr_clock_mhz = cfg.nic.csr_clock_mhz;
  if (cfg.nic.family == NC_NIC_STMMAC) {
    /* The timer is the RX watchdog, off (RWT 0) until the driver writes
     * RX_WATCHDOG (dwmac4's reset value). */
    p.coal_usecs = 0;
  }
  return p;
}

DmaEngine::DmaEngine(sc_core::sc_module_name name, const Params &p, const DescCodec &codec,
                     Mac &mac, tlm::tlm_initiator_socket<> &socket)
    : sc_core::sc_module(name),
      m_p(p),
      m_codec(codec),
      m_mac(mac),
      m_socket(socket),
      m_clock(p.clock_mhz),
      m_tags(p.max_read_reqs, p.rx_read_priority),
      m_rx(p.desc_cache_entries),
      m_tx(p.desc_cache_entries),
      m_irq("irq", p.coal_frames, p.coal_usecs, socket, m_clock,
            [this](const std::string &m) { violation("%s (MSI)", m.c_str()); }, p.itr_usecs),
      m_spacing(p.desc_spacing),
      m_rx_fetch_x(socket, m_clock, [this](const std::string &m) { violation("%s", m.c_str()); }),
      m_rx_data_x(socket, m_clock, [this](const std::string &m) { violation("%s", m.c_str()); }),
      m_tx_fetch_x(socket, m_clock, [this](const std::string &m) { violation("%s", m.c_str()); }),
      m_tx_wb_x(socket, m_clock, [this](const std::string &m) { violation("%s", m.c_str()); }) {
  require_ps_resolution(this->name());
  if (p.desc_fetch_max == 0 || p.wb_threshold == 0 || p.max_read_reqs == 0) {
    SC_REPORT_ERROR(this->name(), "desc_fetch_max, wb_threshold and max_read_reqs must be positive");
  }
  if (p.desc_cache_entries < p.desc_fetch_max) {
    SC_REPORT_ERROR(this->name(), "the descriptor cache must hold at least one fetch batch");
  }
  const uint32_t rdb = codec.desc_bytes(), tdb = codec.tx_desc_bytes();
  if (std::max(rdb, tdb) > kMaxDescBytes) SC_REPORT_ERROR(this->name(), "descriptor too large");
  if (p.desc_spacing < std::min(rdb, tdb)) {
    SC_REPORT_ERROR(this->name(), "desc_spacing is smaller than the family's descriptor");
  }
  set_ring_geometry();
  m_rx.set_prefetch_threshold(p.prefetch_threshold);
  m_tx.set_prefetch_threshold(p.prefetch_threshold);
  m_rx_fetch_buf.resize(static_cast<size_t>(p.desc_fetch_max) * rdb);
  m_tx_fetch_buf.resize(static_cast<size_t>(p.desc_fetch_max) * tdb);
  for (WbQueue *q : {&m_rx_wb, &m_tx_wb}) {
    q->bytes.resize(static_cast<size_t>(p.wb_threshold) * std::max(rdb, tdb));
    q->idx.resize(p.wb_threshold);
    q->eop.resize(p.wb_threshold);
    q->ioc.resize(p.wb_threshold);
  }
  m_rx_wb.ring = &m_rx;
  m_rx_wb.xfer = &m_rx_data_x;
  m_rx_wb.cause = GN_INT_RX;
  m_rx_wb.rx = true;
  m_tx_wb.ring = &m_tx;
  m_tx_wb.xfer = &m_tx_wb_x;
  m_tx_wb.cause = GN_INT_TX;
  m_tx_wb.rx = false;
  m_tx_wb.head_wb = p.tx_head_wb || codec.tx_head_writeback();
  m_irq.set_ioc_mode(codec.ioc_moderation());
  m_jobs.resize(2 * static_cast<size_t>(p.max_read_reqs));

  SC_HAS_PROCESS(DmaEngine);
  SC_THREAD(rx_fetch_thread);
  SC_THREAD(tx_fetch_thread);
  SC_THREAD(rx_data_thread);
  SC_THREAD(tx_issue_thread);
  SC_THREAD(tx_retire_thread);
  for (uint32_t i = 0; i < p.max_read_reqs; i++) {
    m_tx_read_x.emplace_back(new DmaXfer(socket, m_clock, [this](const std::string &m) {
      violation("%s", m.c_str());
    }));
    m_reader_wake.emplace_back(new sc_core::sc_event);
    char pname[32];
    std::snprintf(pname, sizeof pname, "tx_reader_%u", i);
    sc_core::sc_spawn([this, i] { tx_reader(i); }, pname);
  }
}

void DmaEngine::set_trace(TraceWriter *t) {
  if (!t) return;
  m_rx_fetch_x.set_trace(t, t->track("rxq0.fetch"));
  m_rx_data_x.set_trace(t, t->track("rxq0.dma"));
  m_tx_fetch_x.set_trace(t, t->track("txq0.fetch"));
  char name[32];
  for (size_t i = 0; i < m_tx_read_x.size(); i++) {
    std::snprintf(name, sizeof name, "txq0.read%zu", i);
    m_tx_read_x[i]->set_trace(t, t->track(name));
  }
  m_tx_wb_x.set_trace(t, t->track("txq0.writeback"));
  m_irq.set_trace(t);
}

/* A ring's descriptors are DESC_SPACING apart, or packed when its
 * descriptors are larger than that (i40e's 32 B RX with 16 B TX). */
void DmaEngine::set_ring_geometry() {
  m_rx.set_geometry(std::max(m_spacing, m_codec.desc_bytes()), m_codec.desc_bytes());
  m_tx.set_geometry(std::max(m_spacing, m_codec.tx_desc_bytes()), m_codec.tx_desc_bytes());
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
  switch (offset) {
    case GN_REG_CTRL: return m_ctrl;
    case GN_REG_INT_STATUS: return m_irq.read_clear_status();
    case GN_REG_INT_MASK: return m_irq.mask();
    case GN_REG_DESC_SPACING: return m_spacing;
    case GN_REG_RX_RING_LO: return m_rx.base_lo();
    case GN_REG_RX_RING_HI: return m_rx.base_hi();
    case GN_REG_RX_RING_SIZE: return m_rx.size();
    case GN_REG_RX_TAIL: return m_rx.tail();
    case GN_REG_RX_HEAD: return m_rx.head();
    case GN_REG_RX_BUF_SIZE: return m_rx_buf_size;
    case GN_REG_TX_RING_LO: return m_tx.base_lo();
    case GN_REG_TX_RING_HI: return m_tx.base_hi();
    case GN_REG_TX_RING_SIZE: return m_tx.size();
    case GN_REG_TX_TAIL: return m_tx.tail();
    case GN_REG_TX_HEAD: return m_tx.head();
    case GN_REG_COAL_FRAMES: return m_irq.coal_frames();
    case GN_REG_COAL_USECS: return m_irq.coal_usecs();
    case GN_REG_RX_WATCHDOG: return m_riwt;
    case GN_REG_MSI_ADDR_LO: return m_irq.msi_addr_lo();
    case GN_REG_MSI_ADDR_HI: return m_irq.msi_addr_hi();
    case GN_REG_MSI_DATA: return m_irq.msi_data();
    case GN_REG_TX_HEAD_WB_LO: return static_cast<uint32_t>(m_tx_head_wb_addr);
    case GN_REG_TX_HEAD_WB_HI: return static_cast<uint32_t>(m_tx_head_wb_addr >> 32);
    default: return 0; /* reserved: reads as zero */
  }
}

void DmaEngine::reg_write(uint32_t offset, uint32_t value) {
  switch (offset) {
    case GN_REG_CTRL:
      m_ctrl = value;
      ctrl_changed();
      break;
    case GN_REG_INT_STATUS: m_irq.clear_status(value); break;
    case GN_REG_INT_MASK: m_irq.set_mask(value); break;
    case GN_REG_DESC_SPACING:
      if (value < std::min(m_codec.desc_bytes(), m_codec.tx_desc_bytes())) {
        violation("DESC_SPACING %u below the %u-byte descriptor", value,
                  std::min(m_codec.desc_bytes(), m_codec.tx_desc_bytes()));
      } else if (m_rx.owned() || m_tx.owned()) {
        violation("DESC_SPACING changed while the device owns descriptors");
      } else {
        m_spacing = value;
        set_ring_geometry();
      }
      break;
    case GN_REG_RX_RING_LO:
    case GN_REG_RX_RING_HI:
    case GN_REG_RX_RING_SIZE: ring_config_write(m_rx, "RX", offset, value); break;
    case GN_REG_TX_RING_LO:
    case GN_REG_TX_RING_HI:
    case GN_REG_TX_RING_SIZE: ring_config_write(m_tx, "TX", offset, value); break;
    case GN_REG_RX_TAIL:
    case GN_REG_TX_TAIL: {
      DescRing &r = offset == GN_REG_RX_TAIL ? m_rx : m_tx;
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
    case GN_REG_TX_HEAD_WB_LO: m_tx_head_wb_addr = (m_tx_head_wb_addr & ~0xFFFFFFFFull) | value; break;
    case GN_REG_TX_HEAD_WB_HI:
      m_tx_head_wb_addr = (m_tx_head_wb_addr & 0xFFFFFFFFull) | (static_cast<uint64_t>(value) << 32);
      break;
    default: break; /* head registers are read-only; reserved ones ignore writes */
  }
}

void DmaEngine::ring_config_write(DescRing &r, const char *which, uint32_t offset, uint32_t value) {
  if (r.owned()) {
    violation("%s ring base or size written while the device owns %u descriptors", which, r.owned());
    r.halt();
    return;
  }
  switch (offset) {
    case GN_REG_RX_RING_LO:
    case GN_REG_TX_RING_LO: r.set_base_lo(value); break;
    case GN_REG_RX_RING_HI:
    case GN_REG_TX_RING_HI: r.set_base_hi(value); break;
    default: r.set_size(value); break;
  }
}

void DmaEngine::ctrl_changed() {
  m_ctrl_event.notify();
  m_rx.fetch_kick().notify();
  m_tx.fetch_kick().notify();
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

/* Writes back the queued descriptors: one request per run of consecutive
 * descriptors when they are packed (spacing == size), else one each. Head
 * moves past them once each request has left; then their frames complete. */
void DmaEngine::wb_flush(WbQueue &q) {
  if (q.head_wb) {
    wb_flush_head(q);
    return;
  }
  const uint32_t db = q.ring->desc_bytes();
  const bool packed = q.ring->spacing() == db;
  uint32_t i = 0;
  while (i < q.count) {
    uint32_t n = 1;
    if (packed) {
      while (i + n < q.count && q.idx[i + n] == q.idx[i] + n) n++;
    }
    DescRing &r = *q.ring;
    if (!q.xfer->write(r.slot_addr(q.idx[i]), q.bytes.data() + static_cast<size_t>(i) * db, n * db,
                       DmaPurpose::DescWriteBack, 0)) {
      r.halt();
      q.count = 0;
      return;
    }
    m_cnt.desc_writebacks++;
    r.advance_head(n);
    uint32_t frames = 0;
    bool ioc = false;
    for (uint32_t k = i; k < i + n; k++) {
      frames += q.eop[k];
      ioc |= q.eop[k] && q.ioc[k];
    }
    if (frames) {
      if (q.rx) {
        m_cnt.rx_dma_frames += frames;
        m_rx_in_engine -= frames;
      }
      m_irq.completion(q.cause, frames, ioc);
    }
    i += n;
  }
  q.count = 0;
}

/* Head write-back (i40e TX style): the descriptors stay as the driver wrote
 * them; one 4-byte write of the new head index to TX_HEAD_WB (none if it is
 * 0: the driver reads the HEAD register), then head moves past them all. */
void DmaEngine::wb_flush_head(WbQueue &q) {
  if (q.count == 0) return;
  DescRing &r = *q.ring;
  uint32_t new_head = (r.head() + q.count) % r.size();
  if (m_tx_head_wb_addr != 0) {
    for (int i = 0; i < 4; i++) q.head_buf[i] = static_cast<uint8_t>(new_head >> (8 * i));
    if (!q.xfer->write(m_tx_head_wb_addr, q.head_buf, 4, DmaPurpose::DescWriteBack, 0)) {
      r.halt();
      q.count = 0;
      return;
    }
    m_cnt.desc_writebacks++;
  }
  r.advance_head(q.count);
  uint32_t frames = 0;
  bool ioc = false;
  for (uint32_t k = 0; k < q.count; k++) {
    frames += q.eop[k];
    ioc |= q.eop[k] && q.ioc[k];
  }
  q.count = 0;
  if (frames) {
    if (q.rx) {
      m_cnt.rx_dma_frames += frames;
      m_rx_in_engine -= frames;
    }
    m_irq.completion(q.cause, frames, ioc);
  }
}

/* ---- descriptor fetch ---------------------------------------------------- */

void DmaEngine::rx_fetch_thread() { fetch_loop(m_rx, true, m_rx_fetch_x, m_rx_fetch_buf); }
void DmaEngine::tx_fetch_thread() { fetch_loop(m_tx, false, m_tx_fetch_x, m_tx_fetch_buf); }

/* Keeps one ring's cache filled: one fetch request outstanding at a time. */
void DmaEngine::fetch_loop(DescRing &r, bool rx, DmaXfer &x, std::vector<uint8_t> &buf) {
  const uint32_t enable = rx ? GN_CTRL_RX_EN : GN_CTRL_TX_EN;
  for (;;) {
    const uint32_t db = r.desc_bytes();
    uint32_t first = 0, n = 0;
    if (!(m_ctrl & enable) ||
        !r.plan_fetch(m_p.desc_fetch_max, r.spacing() == db, &first, &n)) {
      wait(r.fetch_kick());
      continue;
    }
    uint32_t gen = r.generation();
    r.fetch_issued(n);
    m_tags.acquire(rx);
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
        violation("%s descriptor %u is in [head %u, tail %u) but OWN is clear when fetched",
                  rx ? "RX" : "TX", first + i, r.head(), r.tail());
        r.halt();
        break;
      }
      r.push_fetched(d);
    }
    r.desc_ready().notify();
  }
}

/* ---- RX ------------------------------------------------------------------- */

void DmaEngine::rx_data_thread() {
  for (;;) {
    if (!(m_ctrl & GN_CTRL_RX_EN) || m_rx.halted()) {
      wb_flush(m_rx_wb);
      wait(m_ctrl_event);
    } else if (m_mac.rx_fifo().frames() == 0) {
      wb_flush(m_rx_wb);
      wait(m_mac.rx_frame_event());
    } else if (m_rx.cache_empty()) {
      wb_flush(m_rx_wb);
      wait(m_rx.desc_ready());
    } else {
      rx_one_frame();
    }
  }
}

/* Moves the oldest RX FIFO frame into as many buffers as it needs. */
void DmaEngine::rx_one_frame() {
  ByteFifo &fifo = m_mac.rx_fifo();
  uint32_t len = 0;
  const uint8_t *data = fifo.front(&len);
  uint32_t off = 0;
  while (off < len) {
    while (m_rx.cache_empty() || !(m_ctrl & GN_CTRL_RX_EN)) {
      if (m_rx.halted()) return;
      wb_flush(m_rx_wb);
      if (!(m_ctrl & GN_CTRL_RX_EN)) {
        wait(m_ctrl_event);
      } else {
        wait(m_rx.desc_ready());
      }
    }
    if (m_rx.halted()) return;
    uint32_t idx = 0;
    DmaDesc d = m_rx.pop_cached(&idx);
    /* The descriptor's processing cycles pass as the write's start offset. */
    uint64_t ready_ps = m_clock.after_cycles(now_ps(), m_p.desc_proc_cycles);
    m_cnt.busy_cycles += m_p.desc_proc_cycles;
    uint32_t buf = d.len ? d.len : m_rx_buf_size;
    if (buf == 0) {
      violation("RX descriptor %u has no buffer (buf_len 0 and RX_BUF_SIZE 0)", idx);
      m_rx.halt();
      return;
    }
    /* A family may put a header before the frame in its first buffer
     * (mvneta's 2-byte Marvell header): the frame starts that far in. */
    uint32_t skip = off == 0 ? m_codec.rx_data_offset() : 0;
    if (buf <= skip) {
      violation("RX descriptor %u: buffer of %u bytes has no room after the %u-byte header", idx, buf, skip);
      m_rx.halt();
      return;
    }
    uint32_t chunk = std::min(len - off, buf - skip);
    if (!m_rx_data_x.write(d.buf_addr + skip, data + off, chunk, DmaPurpose::Data, 0, ready_ps,
                           data_ro(d.buf_addr + skip))) {
      m_rx.halt();
      return;
    }
    m_cnt.data_write_bytes += chunk;
    off += chunk;
    bool eop = off == len;
    if (eop) {
      m_mac.rx_pop(); /* the bytes have left the device (may send XON) */
      m_rx_in_engine++;
    }
    m_codec.encode_rx_done(d, chunk, off, eop, wb_slot(m_rx_wb));
    wb_add(m_rx_wb, idx, eop, d.ioc);
  }
}

/* ---- TX ------------------------------------------------------------------- */

void DmaEngine::tx_issue_thread() {
  ByteFifo &fifo = m_mac.tx_fifo();
  const uint64_t njobs = m_jobs.size();
  for (;;) {
    if (!(m_ctrl & GN_CTRL_TX_EN) || m_tx.halted()) {
      wait(m_ctrl_event);
      continue;
    }
    if (m_tx.cache_empty()) {
      wait(m_tx.desc_ready());
      continue;
    }
    if (m_job_issued - m_job_head == njobs) {
      wait(m_tx_job_freed);
      continue;
    }
    uint32_t idx = 0;
    DmaDesc d = m_tx.pop_cached(&idx);
    /* Descriptors are processed one after another; the read of this one
     * starts when its processing is done (passed as the start offset, so
     * the stage runs ahead without waiting). */
    uint64_t now = now_ps();
    m_tx_proc_done_ps = m_clock.after_cycles(std::max(now, m_tx_proc_done_ps), m_p.desc_proc_cycles);
    m_cnt.busy_cycles += m_p.desc_proc_cycles;
    if (d.len == 0) {
      violation("TX descriptor %u has length 0", idx);
      m_tx.halt();
      continue;
    }
    if (m_tx_open_bytes + d.len > fifo.max_frame()) {
      violation("TX frame ending at descriptor %u is longer than %u bytes", idx, fifo.max_frame());
      m_tx.halt();
      continue;
    }
    while (!fifo.can_append(d.len)) wait(m_mac.tx_space_event());
    uint8_t *dst = fifo.append(d.len);
    if (m_tx_open_bytes == 0) m_tx_in_engine++;
    m_tx_open_bytes += d.len;
    if (d.eop) {
      fifo.close_frame();
      m_tx_open_bytes = 0;
    }
    m_tags.acquire(false);
    TxJob &j = m_jobs[m_job_issued % njobs];
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
    m_job_started++;
    bool ok = x.read(j.d.buf_addr, j.dst, j.d.len, DmaPurpose::Data, 0, j.start_ps, data_ro(j.d.buf_addr));
    m_tags.release();
    if (!ok) {
      m_tx.halt(); /* the job never completes: TX stops here */
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
      wb_flush(m_tx_wb);
      wait(m_tx_job_done);
      continue;
    }
    TxJob &j = m_jobs[m_job_head % njobs];
    uint32_t idx = j.idx;
    bool eop = j.d.eop;
    if (eop) {
      m_mac.tx_publish();
      m_tx_in_engine--;
      m_cnt.tx_dma_frames++;
    }
    m_codec.encode_tx_done(j.d, wb_slot(m_tx_wb));
    m_job_head++;
    m_tx_job_freed.notify();
    wb_add(m_tx_wb, idx, eop, j.d.ioc);
  }
}

}  // namespace nicsim
