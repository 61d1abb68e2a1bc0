// pcie_link.cpp: TLP splitting, FIFO serialisation per direction, DLLPs,
// flow-control credits, tags, the root complex's read answers and write
// commits, posted-write delivery and the MMIO round trips.
#include "pcie/pcie_link.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "common/ps_time.h"
#include "common/trace.h"
#include "pcie/pcie_stats.h"

namespace nicsim {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

namespace {

sc_time ps(uint64_t v) { return ps_time(v); }
/* Notifies ev at absolute time t_ps (now if past; now: the current time,
 * ps); an earlier pending notification wins. */
void notify_at(sc_core::sc_event &ev, uint64_t t_ps, uint64_t now) { ev.notify(ps(t_ps > now ? t_ps - now : 0)); }
void notify_at(sc_core::sc_event &ev, uint64_t t_ps) { notify_at(ev, t_ps, kernel_now_ps()); }

}  // namespace

PcieLink::PcieLink(sc_core::sc_module_name name, const PcieParams &p)
    : sc_module(name),
      dev("dev"),
      mem("mem"),
      host("host"),
      regs("regs"),
      m_fmt(p),
      m_p(p),
      m_up(m_fmt, p.latency_ps),
      m_down(m_fmt, p.latency_ps),
      m_up_q(std::max<uint32_t>(p.mps, 8)),
      m_up_ro_q(std::max<uint32_t>(p.mps, 8)),
      m_down_q(8),
      m_rd_latency_ps(p.rd_latency_ps),
      m_fc_p(p.rc_ph_credits, p.rc_pd_credits),
      m_fc_np(p.rc_nph_credits, 0),
      m_tags_free(p.tags) {
  if (sc_core::sc_get_time_resolution() != sc_time(1, sc_core::SC_PS))
    throw std::logic_error("PcieLink needs sc_set_time_resolution(1, SC_PS)");
  if (p.tags < 1) throw std::invalid_argument("pcie.tags must be at least 1");
  if (const ParamCheck e = p.validate()) throw std::invalid_argument(e->msg);
  if (p.line_bytes == 0 || (p.line_bytes & (p.line_bytes - 1)))
    throw std::invalid_argument("the root complex's cache line must be a power of two");
  dev.register_b_transport(this, &PcieLink::b_transport_dev);
  dev.register_transport_dbg(this, &PcieLink::dbg_dev);
  host.register_b_transport(this, &PcieLink::b_transport_host);
  m_reg_gp.set_data_ptr(m_reg_buf);
  for (uint32_t t = p.tags; t-- > 0;) m_tag_ids.push_back(static_cast<uint16_t>(t));
  m_rc_delayed.reserve(p.tags);
  if (TraceWriter *t = TraceWriter::global()) {
    /* Counters with any trace; each TLP and DLLP with TLP detail only. */
    m_trace = t;
    m_fc_p.set_trace(t, "pcie credits P hdr", "pcie credits P data");
    m_fc_np.set_trace(t, "pcie credits NP hdr", "pcie credits NP data");
    if (t->tlp_detail()) {
      m_trace_up = t->track("pcie up (device to host)");
      m_trace_down = t->track("pcie down (host to device)");
      m_up.set_trace(t, m_trace_up);
      m_down.set_trace(t, m_trace_down);
    }
  }

  SC_HAS_PROCESS(PcieLink);
  SC_METHOD(deliver_up);
  sensitive << m_up_event;
  dont_initialize();
  SC_THREAD(deliver_down_thread);
  SC_METHOD(rc_process);
  sensitive << m_rc_event;
  dont_initialize();
  SC_METHOD(rc_delayed);
  sensitive << m_rc_delayed_event;
  dont_initialize();
  SC_METHOD(tag_release);
  sensitive << m_tag_event;
  dont_initialize();
}

PcieLink::~PcieLink() = default;

PcieDirCounters PcieLink::up_counters() const {
  PcieDirCounters c = m_up.counters(now_ps());
  c.ro_tlps = m_up_ro_tlps;
  c.rc_busy_ps = m_rc_busy_ps;
  return c;
}
PcieDirCounters PcieLink::down_counters() const { return m_down.counters(now_ps()); }

void PcieLink::read_stats(PcieReadStats &out) const {
  out = m_rd;
  out.outstanding_area += static_cast<double>(m_outstanding) * static_cast<double>(now_ps() - m_outstanding_since_ps);
}

void PcieLink::add_stats(stats::Registry &r, bool by_purpose) {
  r.add(kPcieStats, [this](PcieSnapshot &s, stats::Edge e) {
    s.up = up_counters();
    s.down = down_counters();
    read_stats(s.rd);
    s.partial_lines = partial_line_writes();
    s.cold_reads = cold_reads();
    if (e == stats::Edge::Warmup) reset_outstanding_max();
  });
  r.add(kDmaPathStats, [this](DmaPathCounters &s, stats::Edge) { s = m_rd.dma; });
  if (by_purpose) {
    r.add(kPciePurposeStats, [this](PcieDirs &s, stats::Edge) {
      s.up = up_counters();
      s.down = down_counters();
    });
  }
}

void PcieLink::violation(const std::string &msg) {
  if (on_violation) on_violation(name(), msg);
}

void PcieLink::wait_until(uint64_t t_ps) {
  const uint64_t now = now_ps();
  if (t_ps > now) wait(ps(t_ps - now));
}

void PcieLink::outstanding_change(int delta) {
  const uint64_t now = now_ps();
  m_rd.outstanding_area += static_cast<double>(m_outstanding) * static_cast<double>(now - m_outstanding_since_ps);
  m_outstanding_since_ps = now;
  m_outstanding = static_cast<uint32_t>(static_cast<int64_t>(m_outstanding) + delta);
  m_rd.outstanding_max = std::max<uint64_t>(m_rd.outstanding_max, m_outstanding);
  if (m_trace) m_trace->counter("pcie tags in use", now, m_outstanding);
}

void PcieLink::trace_tlp(bool up, const char *type, const TlpReservation &r, uint64_t addr, uint32_t len,
                         int tag) {
  if (m_trace_up) m_trace->tlp(up ? m_trace_up : m_trace_down, type, r.start_ps, r.end_ps, addr, len, tag);
}

uint64_t PcieLink::schedule_dllp(DllpStream &s, PcieDirection &dir, uint64_t event_ps, const char *kind) {
  if (s.any && event_ps <= s.last_due_ps) return s.last_due_ps;
  s.last_due_ps = event_ps + m_fmt.ack_latency_ps();
  s.any = true;
  /* The direction books it at its send time, before anything later uses or reads the wire. */
  if (m_p.dllp) dir.queue_dllp(s.last_due_ps, kind);
  return s.last_due_ps;
}

void PcieLink::ack(DllpStream *receiver_streams, PcieDirection &dir, uint64_t arrival_ps) {
  if (!m_p.dllp) return;
  schedule_dllp(receiver_streams[kAck], dir, arrival_ps, "Ack");
}

uint64_t PcieLink::update_fc(int stream, uint64_t free_ps) {
  /* The root port returns credits with an UpdateFC DLLP, coalesced like Acks;
   * the credits are usable once it has reached the device (whether or not
   * pcie.dllp puts it on the wire, and whatever is booked on the wire). */
  const uint64_t send =
      schedule_dllp(m_down_dllps[stream], m_down, free_ps, stream == kUpdateP ? "UpdateFC-P" : "UpdateFC-NP");
  return send + m_fmt.serialise_ps(m_fmt.dllp_wire_bytes()) + m_p.latency_ps;
}

void PcieLink::up_enter(FcCredits *fc, uint32_t hdr, uint32_t data) {
  /* Upstream TLPs enter the wire in the order they were offered: a TLP that
   * waits for credits holds up the ones behind it (no passing). */
  const uint64_t my = m_ticket_next++;
  while (m_ticket_serving != my) m_ticket_event.wait();
  if (!fc || fc->infinite()) return;
  const uint64_t t0 = now_ps();
  const uint64_t t = fc->ready_ps(t0, hdr, data);
  if (t > t0) {
    m_up.count_credit_stall(t - t0);
    wait_until(t);
    fc->ready_ps(now_ps(), hdr, data);
  }
}

void PcieLink::up_leave() {
  m_ticket_serving++;
  m_ticket_event.notify();
  if (m_ticket_nb_waiters) {
    m_ticket_nb_waiters = 0;
    m_ticket_nb_event.notify();
  }
}

uint64_t PcieLink::commit(uint64_t arrival_ps, uint64_t addr, uint32_t len, bool ro, bool msi) {
  /* A chipset-attached port: the write reaches the CPU's uncore one PCH/DMI hop after the root port. */
  arrival_ps += m_p.pch_hop_ps;
  uint64_t c = arrival_ps;
  if (m_p.rc_serialize_writes) {
    /* A serialising root complex commits a posted write cache line by cache
     * line, each after the coherence acknowledgement of the previous one.
     * A write with Relaxed Ordering need not wait: its lines are committed
     * in parallel, one commit time after its arrival. A strongly ordered
     * write waits for every earlier write, RO ones included. */
    const uint64_t lines = (addr + len - 1) / m_p.line_bytes - addr / m_p.line_bytes + 1;
    c = ro ? arrival_ps + m_p.rc_commit_ps : std::max(arrival_ps, m_last_commit_ps) + lines * m_p.rc_commit_ps;
    if (!ro) m_rc_busy_ps += lines * m_p.rc_commit_ps;
  }
  /* A write that covers a cache line only in part needs the line's old
   * contents: the root complex reads it for ownership and merges (Intel
   * Optimization Manual §3.9; 82574 datasheet §7.1.7). A full line is
   * simply overwritten. An MSI is no memory write: it merges nothing. */
  const uint64_t L = m_p.line_bytes;
  const bool head = addr % L != 0, tail = (addr + len) % L != 0;
  const uint64_t partial =
      msi ? 0 : lines_of(addr, len) == 1 ? ((head || tail) ? 1 : 0) : (head ? 1 : 0) + (tail ? 1 : 0);
  m_partial_lines += partial;
  if (m_p.rc_partial_ps) {
    /* Writes leave the root complex in order (its queues are in commit
     * order), RO ones and MSIs too: a merge in progress holds them all. */
    c = std::max(c, m_partial_until_ps);
    if (partial) {
      c += partial * m_p.rc_partial_ps;
      m_partial_until_ps = c;
    }
  }
  m_last_commit_ps = std::max(m_last_commit_ps, c);
  return c;
}

void PcieLink::b_transport_dev(tlm_generic_payload &p, sc_time &d) {
  if (d != sc_core::SC_ZERO_TIME) {
    wait(d);
    d = sc_core::SC_ZERO_TIME;
  }
  TlpExt *ext = nullptr;
  p.get_extension(ext);
  const DmaPurpose purpose = ext ? ext->purpose : DmaPurpose::Other;
  const TlpAttrs attrs = ext ? ext->attrs() : TlpAttrs();
  if (p.get_data_length() == 0 || p.get_data_ptr() == nullptr) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "device DMA of zero length (or no data buffer) at address 0x%" PRIx64,
                  static_cast<uint64_t>(p.get_address()));
    violation(msg);
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const uint64_t t0 = now_ps();
  if (p.is_write()) {
    device_write(p, purpose, attrs);
  } else if (p.is_read()) {
    device_read(p, purpose, attrs);
    m_rd.dma.rd_latency.add(now_ps() - t0);
  } else {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  m_rd.dma.reqs++;
  m_rd.dma.bytes += p.get_data_length();
}

/* One posted-write TLP of n bytes (dc data credits) at addr, once its turn
 * in the upstream line and its credits have come (up_enter, or
 * device_write_nb's steps): reserves the wire at at_ps (now, or a lookahead's
 * start edge), commits it, returns the
 * credits and schedules the Ack, queues the bytes for memory, and leaves the
 * line. Shared by device_write and device_write_nb. */
TlpReservation PcieLink::post_tlp(uint64_t addr, const uint8_t *data, uint32_t n, uint32_t dc, DmaPurpose purpose,
                                  const TlpAttrs &attrs, uint64_t at_ps) {
  const bool ro = attrs.relaxed_ordering;
  const uint64_t now = kernel_now_ps(); /* notifications are relative to the kernel's time */
  const TlpReservation r = m_up.reserve(at_ps, m_fmt.wire_bytes(TlpKind::MemWrite, addr, n), n, purpose);
  if (m_trace_up) trace_tlp(true, "MWr", r, addr, n, -1);
  const uint64_t c = commit(r.arrival_ps, addr, n, ro, purpose == DmaPurpose::Msi);
  if (ro) m_up_ro_tlps++;
  if (!m_fc_p.infinite()) {
    /* The root port frees the buffer once the write is committed, in order. */
    m_last_p_free_ps = std::max(m_last_p_free_ps, c);
    m_fc_p.consume(1, dc, update_fc(kUpdateP, m_last_p_free_ps));
  }
  ack(m_down_dllps, m_down, r.arrival_ps);
  PostedWriteQueue &q = (ro && m_p.rc_serialize_writes) ? m_up_ro_q : m_up_q;
  q.push(c, addr, data, n, purpose, attrs);
  if (&q == &m_up_q) m_so_pushed++;
  if (!m_lazy) {
    notify_at(m_up_event, c, now);
  } else if (purpose == DmaPurpose::Msi) {
    /* An MSI interrupts the CPU: it reaches memory at its commit, as eagerly. */
    m_lazy_wakes++;
    notify_at(m_up_event, c, now);
  }
  up_leave();
  return r;
}

void PcieLink::device_write(tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs) {
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  const uint8_t *data = p.get_data_ptr();
  uint64_t last_end = now_ps();
  for (uint64_t off = 0; off < len;) {
    const uint32_t n = m_fmt.write_chunk(addr + off, len - off);
    const uint32_t dc = FcCredits::data_credits(n);
    up_enter(&m_fc_p, 1, dc);
    const TlpReservation r = post_tlp(addr + off, data + off, n, dc, purpose, attrs, now_ps());
    last_end = r.end_ps;
    off += n;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  /* Posted: the device is done once its TLPs have left it. */
  wait_until(last_end);
}

unsigned int PcieLink::dbg_dev(tlm_generic_payload &p) {
  PcieNbProbe *probe = nullptr;
  p.get_extension(probe);
  if (probe) probe->link = this;
  return 0;
}

/* device_write's steps (up_enter's ticket and credit waits included), each
 * wait turned into a return that the caller resumes; the same reservations,
 * commits, credits, DLLP schedules and notifications, in the same order. */
PcieLink::NbStatus PcieLink::device_write_nb(tlm_generic_payload &p, NbWrite &w, uint64_t at_ps) {
  TlpExt *ext = nullptr;
  p.get_extension(ext);
  const DmaPurpose purpose = ext ? ext->purpose : DmaPurpose::Other;
  const TlpAttrs attrs = ext ? ext->attrs() : TlpAttrs();
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  const uint8_t *data = p.get_data_ptr();
  if (w.off == 0 && !w.ticketed && (len == 0 || data == nullptr)) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "device DMA of zero length (or no data buffer) at address 0x%" PRIx64, addr);
    violation(msg);
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return NbStatus::Error;
  }
  while (w.off < len) {
    const uint32_t n = m_fmt.write_chunk(addr + w.off, len - w.off);
    const uint32_t dc = FcCredits::data_credits(n);
    /* up_enter(&m_fc_p, 1, dc) */
    if (!w.ticketed) {
      w.ticket = m_ticket_next++;
      w.ticketed = true;
      w.stalled = false;
    }
    if (m_ticket_serving != w.ticket) {
      m_ticket_nb_waiters++;
      w.ev = &m_ticket_nb_event;
      return NbStatus::WaitEvent;
    }
    if (!m_fc_p.infinite()) {
      if (!w.stalled) {
        const uint64_t t0 = at_ps;
        const uint64_t t = m_fc_p.ready_ps(t0, 1, dc);
        if (t > t0) {
          m_up.count_credit_stall(t - t0);
          w.stalled = true;
          w.retry_ps = t;
          return NbStatus::RetryAt;
        }
      } else {
        m_fc_p.ready_ps(at_ps, 1, dc);
      }
    }
    const TlpReservation r = post_tlp(addr + w.off, data + w.off, n, dc, purpose, attrs, at_ps);
    w.ticketed = false;
    w.stalled = false;
    w.end_ps = r.end_ps;
    w.off += n;
  }
  p.set_response_status(tlm::TLM_OK_RESPONSE);
  return NbStatus::Done;
}

void PcieLink::device_write_nb_done(const tlm_generic_payload &p) {
  m_rd.dma.reqs++;
  m_rd.dma.bytes += p.get_data_length();
}

void PcieLink::device_read(tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs) {
  const uint64_t addr = p.get_address();
  const uint64_t len = p.get_data_length();
  uint8_t *data = p.get_data_ptr();

  SplitReadPool::Read *ctx = m_split.begin(m_fmt.count_read_requests(addr, len), now_ps());

  /* The device sends the transfer's MRds back to back, each as soon as it has
   * a tag and the root port has a non-posted credit. */
  for (uint64_t off = 0; off < len;) {
    const uint32_t n = m_fmt.read_chunk(addr + off, len - off);
    if (m_tags_free == 0 || m_tag_ticket_next != m_tag_ticket_serving) {
      /* No tag, or others waiting already: wait in line (first come, first served). */
      m_rd.tag_stalls++;
      const uint64_t my = m_tag_ticket_next++;
      while (m_tag_ticket_serving != my || m_tags_free == 0) m_tag_freed.wait();
      m_tag_ticket_serving++;
      m_tag_freed.notify();
    }
    m_tags_free--;
    const uint16_t tag = m_tag_ids.back();
    m_tag_ids.pop_back();
    outstanding_change(+1);
    up_enter(&m_fc_np, 1, 0);
    const uint64_t now = now_ps();
    const TlpReservation r = m_up.reserve(now, m_fmt.wire_bytes(TlpKind::MemRead, addr + off, 0), 0, purpose);
    if (m_trace_up) trace_tlp(true, "MRd", r, addr + off, n, tag);
    m_rd.mrds++;
    /* The root complex answers rd_latency after the MRd arrived, and not
     * before every earlier posted write is committed (a read must not pass
     * a posted write, §2.4.1). */
    const uint64_t ready = std::max(r.arrival_ps + m_rd_latency_ps + 2 * m_p.pch_hop_ps, m_last_commit_ps);
    if (!m_fc_np.infinite()) m_fc_np.consume(1, 0, update_fc(kUpdateNp, ready));
    ack(m_down_dllps, m_down, r.arrival_ps);
    PendingRead pr;
    pr.at_ps = ready;
    pr.issue_ps = now;
    pr.addr = addr + off;
    pr.len = n;
    pr.data = data + off;
    pr.purpose = purpose;
    pr.attrs = attrs;
    pr.tag = tag;
    pr.so_writes = m_so_pushed;
    pr.ctx = ctx;
    m_rc_q.push(pr);
    notify_at(m_rc_event, ready);
    up_leave();
    off += n;
  }
  uint64_t last = 0;
  const bool ok = m_split.finish(ctx, &last);
  p.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  /* A read is done when its last completion byte has arrived at the device. */
  wait_until(last);
}

void PcieLink::rc_process() {
  const uint64_t now = now_ps();
  m_rc_blocked = false;
  while (!m_rc_q.empty() && m_rc_q.front().at_ps <= now) {
    /* Writes committed at this very instant are visible to the read. */
    apply_committed(now);
    if (m_so_applied < m_rc_q.front().so_writes) {
      /* An earlier write, held back by the memory's delays, is not in memory
       * yet: the read waits for it (apply_committed wakes it). */
      m_rc_blocked = true;
      return;
    }
    const PendingRead r = m_rc_q.front();
    m_rc_q.pop();
    /* Memory is read now; its data is there once the memory's own delay has
     * passed and every write handed to it so far is complete (a read does not
     * pass a posted write). */
    uint64_t mem_delay = 0;
    const bool ok =
        m_mem(mem, tlm::TLM_READ_COMMAND, r.addr, r.data, r.len, r.purpose, r.attrs, r.tag, &mem_delay);
    uint64_t data_ps = std::max(now + mem_delay, m_wr_mem_done_ps);
    if (m_p.rc_cold_ps && m_llc_hit && !m_llc_hit(r.addr, r.len)) {
      /* A miss in the last-level cache: the lines come from DRAM, once per
       * request (its lines are fetched in parallel). */
      m_cold_reads++;
      data_ps += m_p.rc_cold_ps;
    }
    if (m_p.rc_cpl_line_ps) {
      start_paced(r, ok, data_ps);
      continue;
    }
    if (data_ps <= now) {
      send_completions(r, ok);
      continue;
    }
    DelayedRead d;
    d.at_ps = data_ps;
    d.seq = m_rc_delayed_seq++;
    d.r = r;
    d.ok = ok;
    m_rc_delayed.push_back(d);
    std::push_heap(m_rc_delayed.begin(), m_rc_delayed.end());
    notify_at(m_rc_delayed_event, m_rc_delayed.front().at_ps);
  }
  if (!m_rc_q.empty()) notify_at(m_rc_event, m_rc_q.front().at_ps);
}

void PcieLink::rc_delayed() {
  const uint64_t now = now_ps();
  while (!m_rc_delayed.empty() && m_rc_delayed.front().at_ps <= now) {
    std::pop_heap(m_rc_delayed.begin(), m_rc_delayed.end());
    DelayedRead d = m_rc_delayed.back();
    m_rc_delayed.pop_back();
    if (!d.paced) {
      send_completions(d.r, d.ok);
    } else if (send_paced_chunk(d)) {
      m_rc_delayed.push_back(d);
      std::push_heap(m_rc_delayed.begin(), m_rc_delayed.end());
    }
  }
  if (!m_rc_delayed.empty()) notify_at(m_rc_delayed_event, m_rc_delayed.front().at_ps);
}

void PcieLink::send_completions(const PendingRead &r, bool ok) {
  /* The completions queue behind whatever the host has already sent
   * downstream (they never pass earlier posted writes). */
  const uint64_t now = now_ps();
  uint64_t last = now;
  for (uint32_t c = 0; c < r.len;) {
    const uint32_t cn = m_fmt.completion_chunk(r.addr + c, r.len - c);
    const TlpReservation cr =
        m_down.reserve(now, m_fmt.wire_bytes(TlpKind::Completion, r.addr + c, cn), cn, r.purpose);
    if (m_trace_up) trace_tlp(false, "CplD", cr, r.addr + c, cn, r.tag);
    ack(m_up_dllps, m_up, cr.arrival_ps);
    last = cr.arrival_ps;
    c += cn;
  }
  read_done(r, ok, last);
}

void PcieLink::read_done(const PendingRead &r, bool ok, uint64_t last) {
  TagRelease t;
  t.at_ps = last;
  t.tag = r.tag;
  m_tag_releases.push(t);
  notify_at(m_tag_event, last);
  m_rd.latency.add(last - r.issue_ps);
  r.ctx->part_done(ok, last);
}

void PcieLink::start_paced(const PendingRead &r, bool ok, uint64_t data_ps) {
  /* The root complex produces a read's completion data one cache line per
   * rc_cpl_line_ps: each CplD leaves once its lines are produced, so a long
   * read's completions are paced and its latency grows with its size
   * (pcie-bench, Neugebauer et al. 2018). The MRds of one device read are
   * produced in turn; different reads in parallel (pcie-bench's many reads
   * in flight reach 55.6 Gbit/s at 2 KiB, twice one read's rate). */
  DelayedRead d;
  d.r = r;
  d.ok = ok;
  d.paced = true;
  d.off = 0;
  d.cpl_start_ps = std::max(data_ps, r.ctx->cpl_free_ps);
  r.ctx->cpl_free_ps = d.cpl_start_ps + lines_of(r.addr, r.len) * m_p.rc_cpl_line_ps;
  const uint32_t cn = m_fmt.completion_chunk(r.addr, r.len);
  d.at_ps = d.cpl_start_ps + lines_of(r.addr, cn) * m_p.rc_cpl_line_ps;
  d.seq = m_rc_delayed_seq++;
  m_rc_delayed.push_back(d);
  std::push_heap(m_rc_delayed.begin(), m_rc_delayed.end());
  notify_at(m_rc_delayed_event, m_rc_delayed.front().at_ps);
}

bool PcieLink::send_paced_chunk(DelayedRead &d) {
  const PendingRead &r = d.r;
  const uint32_t cn = m_fmt.completion_chunk(r.addr + d.off, r.len - d.off);
  const TlpReservation cr =
      m_down.reserve(now_ps(), m_fmt.wire_bytes(TlpKind::Completion, r.addr + d.off, cn), cn, r.purpose);
  if (m_trace_up) trace_tlp(false, "CplD", cr, r.addr + d.off, cn, r.tag);
  ack(m_up_dllps, m_up, cr.arrival_ps);
  d.off += cn;
  if (d.off >= r.len) {
    read_done(r, d.ok, cr.arrival_ps);
    return false;
  }
  const uint32_t next = m_fmt.completion_chunk(r.addr + d.off, r.len - d.off);
  /* Lines are counted from the MRd's start, so a line two CplDs share is produced once. */
  d.at_ps = d.cpl_start_ps + lines_of(r.addr, d.off + next) * m_p.rc_cpl_line_ps;
  d.seq = m_rc_delayed_seq++;
  return true;
}

void PcieLink::tag_release() {
  const uint64_t now = now_ps();
  bool freed = false;
  while (!m_tag_releases.empty() && m_tag_releases.front().at_ps <= now) {
    m_tag_ids.push_back(m_tag_releases.front().tag);
    m_tag_releases.pop();
    m_tags_free++;
    outstanding_change(-1);
    freed = true;
  }
  if (freed) m_tag_freed.notify();
  if (!m_tag_releases.empty()) notify_at(m_tag_event, m_tag_releases.front().at_ps);
}

uint64_t PcieLink::so_due_ps() const {
  const PostedWrite &w = m_up_q.front();
  if (!m_p.rc_serialize_writes) return w.arrival_ps;
  /* Queued at its commit time without the memory's delays: a serialising
   * root complex starts its lines only once the previous strongly ordered
   * write is complete in memory. */
  const uint64_t lines = (w.addr + w.len - 1) / m_p.line_bytes - w.addr / m_p.line_bytes + 1;
  return std::max(w.arrival_ps, m_so_done_ps + lines * m_p.rc_commit_ps);
}

uint64_t PcieLink::quiet_until_ps() const {
  /* A TLP sent from now on arrives no earlier than now + latency (it is
   * serialised first), and is committed or answered no earlier than that. */
  return std::min(now_ps() + m_p.latency_ps, queued_until_ps());
}

uint64_t PcieLink::queued_until_ps() const {
  uint64_t q = UINT64_MAX;
  if (!m_up_q.empty()) q = std::min(q, so_due_ps());
  if (!m_up_ro_q.empty()) q = std::min(q, m_up_ro_q.front().arrival_ps);
  if (!m_rc_q.empty()) q = std::min(q, m_rc_q.front().at_ps);
  return q;
}

void PcieLink::deliver_up() {
  const uint64_t now = now_ps();
  apply_committed(now);
  if (m_lazy) {
    /* Only MSI writes wake it; the others wait for an observer. */
    if (m_lazy_wakes) notify_at(m_up_event, next_wake_ps(), now);
    return;
  }
  if (!m_up_q.empty()) notify_at(m_up_event, so_due_ps(), now);
  if (!m_up_ro_q.empty()) notify_at(m_up_event, m_up_ro_q.front().arrival_ps, now);
}

uint64_t PcieLink::next_wake_ps() const {
  /* Each queue is in commit order: its first MSI is its earliest. */
  uint64_t t = UINT64_MAX;
  for (const PostedWriteQueue *q : {&m_up_q, &m_up_ro_q})
    for (size_t i = 0; i < q->size(); i++)
      if (q->at(i).purpose == DmaPurpose::Msi) {
        t = std::min(t, q->at(i).arrival_ps);
        break;
      }
  return t;
}

void PcieLink::apply_posted() {
  if (m_lazy && !m_applying) apply_committed(now_ps());
}

void PcieLink::apply_posted_until(uint64_t t_ps) {
  if (m_lazy && !m_applying) apply_committed(t_ps);
}

uint64_t PcieLink::mem_access_ps() const { return m_applying ? m_access_ps : now_ps(); }

void PcieLink::apply_committed(uint64_t now) {
  /* Two queues, each in commit order: strongly ordered writes, and RO writes
   * on a serialising root complex. The earlier commit goes to memory first. */
  m_applying = true;
  for (;;) {
    PostedWriteQueue *q = nullptr;
    const uint64_t so_due = m_up_q.empty() ? UINT64_MAX : so_due_ps();
    if (so_due <= now) q = &m_up_q;
    if (!m_up_ro_q.empty() && m_up_ro_q.front().arrival_ps <= now && (!q || m_up_ro_q.front().arrival_ps < so_due))
      q = &m_up_ro_q;
    if (!q) break;
    const PostedWrite &w = q->front();
    /* The write is handed to memory and complete once the memory's delay has
     * passed. Eagerly that is now (this runs at its commit); lazily it is
     * its commit time, which is when the eager path would have handed it
     * over (with memory's delay zero, so_due_ps() is the queued commit). */
    const uint64_t at = m_lazy ? (q == &m_up_q ? so_due : w.arrival_ps) : now;
    m_access_ps = at;
    uint64_t mem_delay = 0;
    m_mem(mem, tlm::TLM_WRITE_COMMAND, w.addr, w.data, w.len, w.purpose, w.attrs, 0, &mem_delay);
    if (m_lazy && mem_delay != 0) {
      char msg[200];
      std::snprintf(msg, sizeof msg,
                    "host memory delayed a posted write by %" PRIu64
                    " ps, but lazily applied posted writes need a memory without delays", mem_delay);
      violation(msg);
    }
    if (m_lazy && w.purpose == DmaPurpose::Msi) m_lazy_wakes--;
    const uint64_t done = at + mem_delay;
    if (q == &m_up_q) {
      m_so_done_ps = done;
      m_so_applied++;
      if (m_rc_blocked) m_rc_event.notify(sc_core::SC_ZERO_TIME);
    }
    m_wr_mem_done_ps = std::max(m_wr_mem_done_ps, done);
    /* Later requests wait for it as for any commit (reads, serialised writes). */
    m_last_commit_ps = std::max(m_last_commit_ps, done);
    q->pop();
  }
  m_applying = false;
}

void PcieLink::deliver_down_thread() {
  for (;;) {
    if (m_down_q.empty()) {
      wait(m_down_event);
      continue;
    }
    const uint64_t now = now_ps();
    if (m_down_q.front().arrival_ps > now) {
      wait(ps(m_down_q.front().arrival_ps - now));
      continue;
    }
    /* Copy out first: the device may take time, and the queue may grow meanwhile. */
    const PostedWrite &w = m_down_q.front();
    const uint64_t off = w.addr;
    const uint32_t len = w.len;
    std::memcpy(m_reg_buf, w.data, len);
    m_down_q.pop();
    tlm_prepare(m_reg_gp, tlm::TLM_WRITE_COMMAND, off, m_reg_buf, len);
    sc_time d = sc_core::SC_ZERO_TIME;
    regs->b_transport(m_reg_gp, d);
    if (!m_reg_gp.is_response_ok()) {
      char msg[200];
      std::snprintf(msg, sizeof msg, "MMIO write to BAR0 offset 0x%" PRIx64 " rejected by the device: %s", off,
                    m_reg_gp.get_response_string().c_str());
      violation(msg);
    }
    if (d != sc_core::SC_ZERO_TIME) wait(d);
  }
}

void PcieLink::b_transport_host(tlm_generic_payload &p, sc_time &d) {
  if (d != sc_core::SC_ZERO_TIME) {
    wait(d);
    d = sc_core::SC_ZERO_TIME;
  }
  const uint32_t len = p.get_data_length();
  if (len == 0 || len > sizeof m_reg_buf || p.get_data_ptr() == nullptr) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  const uint64_t now = now_ps();
  if (p.is_write()) {
    /* Posted: queued behind earlier downstream TLPs, applied on arrival; the CPU goes on. */
    const TlpReservation r = m_down.reserve(now, m_fmt.bar_wire_bytes(TlpKind::MemWrite, len), len, DmaPurpose::Mmio);
    if (m_trace_up) trace_tlp(false, "MWr", r, p.get_address(), len, -1);
    ack(m_up_dllps, m_up, r.arrival_ps);
    const bool was_empty = m_down_q.empty();
    /* Behind a PCH the write crossed DMI first: it reaches the device one hop later. */
    const uint64_t at = r.arrival_ps + m_p.pch_hop_ps;
    m_down_q.push(at, p.get_address(), p.get_data_ptr(), len, DmaPurpose::Mmio);
    if (was_empty) m_down_event.notify(ps(at - now));
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!p.is_read()) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  /* Non-posted: MRd down, the device answers, CplD up; the CPU waits throughout. */
  const TlpReservation rq = m_down.reserve(now, m_fmt.bar_wire_bytes(TlpKind::MemRead, 0), 0, DmaPurpose::Mmio);
  if (m_trace_up) trace_tlp(false, "MRd", rq, p.get_address(), len, -1);
  ack(m_up_dllps, m_up, rq.arrival_ps);
  wait_until(rq.arrival_ps + m_p.pch_hop_ps);
  sc_time rd = sc_core::SC_ZERO_TIME;
  regs->b_transport(p, rd);
  if (rd != sc_core::SC_ZERO_TIME) wait(rd);
  /* Completion credits are infinite at a root port (§2.6.1); the CplD still
   * queues behind earlier upstream TLPs, stalled ones included. */
  up_enter(nullptr, 0, 0);
  const TlpReservation rc =
      m_up.reserve(now_ps(), m_fmt.bar_wire_bytes(TlpKind::Completion, len), len, DmaPurpose::Mmio);
  if (m_trace_up) trace_tlp(true, "CplD", rc, p.get_address(), len, -1);
  ack(m_down_dllps, m_down, rc.arrival_ps);
  up_leave();
  wait_until(rc.arrival_ps + m_p.pch_hop_ps);
}

}  // namespace nicsim
