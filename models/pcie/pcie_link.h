/*
 * pcie_link.h: a full-duplex PCIe link between one device and the root
 * complex. Device DMA becomes MWr / MRd TLPs upstream and CplD TLPs
 * downstream; CPU MMIO becomes MWr / MRd downstream and CplD upstream. Each
 * direction serialises its TLPs in FIFO order at the link's rate, with Ack /
 * UpdateFC DLLPs and SKP ordered sets; the root port's posted and non-posted
 * credits, the device's tags and a serialising root complex (relaxed ordering
 * lets writes pipeline) throttle the device. Protocol: models/common/tlp.h.
 */
#ifndef NICSIM_MODELS_PCIE_PCIE_LINK_H
#define NICSIM_MODELS_PCIE_PCIE_LINK_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/mem_access.h"
#include "common/split_read.h"
#include "common/tlp.h"
#include "common/waited_event.h"
#include "pcie/flow_control.h"
#include "pcie/latency_hist.h"
#include "pcie/pcie_counters.h"
#include "pcie/pcie_direction.h"
#include "pcie/pcie_params.h"
#include "pcie/posted_write_queue.h"
#include "pcie/time_ring.h"
#include "pcie/tlp_format.h"

namespace nicsim {

class PcieLink;
class TraceWriter;
namespace stats {
class Registry;
}

/* Sent with transport_dbg on the device socket: a PcieLink target sets link to
 * itself (its non-blocking posted-write entry, device_write_nb, may be used);
 * any other target leaves it null. */
struct PcieNbProbe : tlm::tlm_extension<PcieNbProbe> {
  PcieLink *link = nullptr;
  tlm::tlm_extension_base *clone() const override { return new PcieNbProbe(*this); }
  void copy_from(const tlm::tlm_extension_base &e) override { link = static_cast<const PcieNbProbe &>(e).link; }
};

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
  /* Device-read statistics, the outstanding area counted up to now. */
  /* Fills out with the read statistics so far. PcieReadStats holds a latency
   * histogram (~120 KB): keep it off coroutine stacks, hence no return by value. */
  void read_stats(PcieReadStats &out) const;
  /* Restarts the outstanding maximum from the current count (at the start of a window). */
  void reset_outstanding_max() { m_rd.outstanding_max = m_outstanding; }
  /* Registers its statistics (pcie_stats.h, and the dma.* ones of
   * dma_path_stats.h); by_purpose: also the traffic by DMA purpose. Its
   * reader restarts the outstanding maximum at the window's start. */
  void add_stats(stats::Registry &r, bool by_purpose = true);
  /* MRds outstanding now. */
  uint32_t outstanding() const { return m_outstanding; }
  /* Time (ps) at which the root complex has committed every posted write queued so far. */
  uint64_t last_commit_ps() const { return m_last_commit_ps; }
  /* Cache lines that posted writes covered only in part (each a read-for-ownership and merge at the root complex). */
  uint64_t partial_line_writes() const { return m_partial_lines; }
  /* Read requests that missed the last-level cache (rc_cold_read_ns charged). */
  uint64_t cold_reads() const { return m_cold_reads; }
  /* Tells whether a device read of [addr, addr + len) finds its data in the
   * last-level cache (warm) or goes to DRAM (cold: pcie.rc_cold_read_ns).
   * Unset: every read is warm. Set before the run. */
  using LlcHitFn = std::function<bool(uint64_t addr, uint32_t len)>;
  void set_llc_hit_fn(LlcHitFn fn) { m_llc_hit = std::move(fn); }
  /* Earliest simulated time (ps) at which the root complex can next access
   * host memory (a queued write's commit, a queued read's answer, or a TLP
   * not yet sent: now + the link's latency); MSIs are such writes. */
  uint64_t quiet_until_ps() const;
  /* The same for what is queued only (a write's commit, a read's answer);
   * UINT64_MAX when nothing is. */
  uint64_t queued_until_ps() const;
  /* The link's TLP rules. */
  const TlpFormat &format() const { return m_fmt; }

  /* Lazy posted writes (before the run; default off): a posted write is
   * handed to memory when something can observe it (apply_posted, the root
   * complex's reads) instead of by a wake-up at its commit; MSI writes keep
   * their wake-up. Exact only if memory's delay is always zero (no DRAM
   * channel, no IOMMU): a delay is then reported as a violation. */
  void set_lazy_writes(bool on) { m_lazy = on; }
  /* True if posted writes are applied lazily. */
  bool lazy_writes() const { return m_lazy; }
  /* Lazy: hands memory every posted write committed by now, each at its own
   * commit time. Call before anything reads host memory or what a write's
   * arrival changes (the CPU, counter snapshots, the end of the run). */
  void apply_posted();
  /* apply_posted as at time t_ps (> now): for an observer that knows by
   * kernel_quiet_through(t_ps) that nothing else acts before then. */
  void apply_posted_until(uint64_t t_ps);
  /* Simulated time (ps) of the memory access the root complex is making:
   * a lazily applied write's commit time; otherwise now. */
  uint64_t mem_access_ps() const;

  /* A device posted write in progress through device_write_nb (one per
   * initiator context; reset it, = {}, before each new write). */
  struct NbWrite {
    uint64_t off = 0;       /* payload bytes whose TLPs are reserved */
    uint64_t ticket = 0;    /* the ordering-line ticket of the next TLP, if ticketed */
    bool ticketed = false;  /* holds a ticket for the next TLP */
    bool stalled = false;   /* waited for credits for the next TLP (re-read them, as up_enter) */
    uint64_t end_ps = 0;    /* Done: when the last TLP has left the device */
    uint64_t retry_ps = 0;  /* RetryAt: when to call again */
    const sc_core::sc_event *ev = nullptr; /* WaitEvent: call again when it is notified */
  };
  enum class NbStatus { Done, RetryAt, WaitEvent, Error };
  /* Non-blocking device posted write for an SC_METHOD initiator, called at
   * the request's start time at_ps (b_transport_dev's after its start wait;
   * now, or later when the caller knows by kernel_quiet_through that nothing
   * else can act before at_ps, common/lookahead.h): does
   * what device_write does, TLP by TLP, as far as it can now. Done: every TLP
   * is reserved (w.end_ps: the last one has left the device; call
   * device_write_nb_done then); RetryAt / WaitEvent: device_write would wait
   * here (credits short / others ahead in the ordering line, whose ticket w
   * keeps): call again with the same w at w.retry_ps / on w.ev; Error: as
   * b_transport_dev's (empty transfer), response set. */
  NbStatus device_write_nb(tlm::tlm_generic_payload &p, NbWrite &w, uint64_t at_ps);
  /* Counts a finished device_write_nb request, at its end (as b_transport_dev on return). */
  void device_write_nb_done(const tlm::tlm_generic_payload &p);

  /* Called when a request cannot be carried (empty transfer, bad address
   * answer): component, message. The glue stops the run. */
  std::function<void(const std::string &, const std::string &)> on_violation;

 private:
  /* An MRd waiting at the root complex until at_ps. */
  struct PendingRead {
    uint64_t at_ps = 0;    /* when the root complex answers */
    uint64_t issue_ps = 0; /* when it entered the link */
    uint64_t addr = 0;
    uint32_t len = 0;
    uint8_t *data = nullptr;
    DmaPurpose purpose = DmaPurpose::Other;
    TlpAttrs attrs;                     /* the MRd's RO / no-snoop / traffic class */
    uint16_t tag = 0;                   /* the MRd's tag */
    uint64_t so_writes = 0;             /* strongly ordered writes queued before it (it must not pass them) */
    SplitReadPool::Read *ctx = nullptr; /* the device read this MRd belongs to */
  };
  /* An MRd whose data the memory returns later (it answered with a delay), at at_ps. */
  struct DelayedRead {
    uint64_t at_ps = 0;
    uint64_t seq = 0; /* order among reads ready at the same time */
    PendingRead r;
    bool ok = true;
    bool paced = false;    /* completion pacing: one CplD per wake-up, from offset off */
    uint32_t off = 0;      /* paced: next completion's offset in the MRd */
    uint64_t cpl_start_ps = 0; /* paced: when the root complex started producing its data */
    /* Later first, for the min-heap. */
    bool operator<(const DelayedRead &o) const { return at_ps != o.at_ps ? at_ps > o.at_ps : seq > o.seq; }
  };
  /* A tag to free at at_ps, when the MRd's last CplD arrives. */
  struct TagRelease {
    uint64_t at_ps = 0;
    uint16_t tag = 0;
  };
  /* DLLPs of one kind to send on one direction, coalesced (one covers every
   * event up to its send time); the direction books them at their send time. */
  struct DllpStream {
    uint64_t last_due_ps = 0;
    bool any = false;
  };
  enum { kAck, kUpdateP, kUpdateNp, kStreams };

  void b_transport_dev(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
  void b_transport_host(tlm::tlm_generic_payload &p, sc_core::sc_time &d);
  /* Device socket debug transport: answers a PcieNbProbe (0 bytes otherwise). */
  unsigned int dbg_dev(tlm::tlm_generic_payload &p);
  void device_write(tlm::tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs);
  TlpReservation post_tlp(uint64_t addr, const uint8_t *data, uint32_t n, uint32_t dc, DmaPurpose purpose,
                          const TlpAttrs &attrs, uint64_t at_ps);
  void device_read(tlm::tlm_generic_payload &p, DmaPurpose purpose, const TlpAttrs &attrs);
  /* Sends the completions of MRd r (memory answered ok) from now on; frees its tag on arrival. */
  void send_completions(const PendingRead &r, bool ok);
  /* Completion pacing: queues r's completions, each when the root complex has produced its lines (data ready at data_ps). */
  void start_paced(const PendingRead &r, bool ok, uint64_t data_ps);
  /* Paced: books the CplD at d.off now; returns false when it was the last. */
  bool send_paced_chunk(DelayedRead &d);
  /* The tag release, latency sample and split-read part of a read whose last CplD arrives at last_ps. */
  void read_done(const PendingRead &r, bool ok, uint64_t last_ps);
  /* Cache lines [addr, addr + len) touches. */
  uint64_t lines_of(uint64_t addr, uint64_t len) const {
    return (addr + len - 1) / m_p.line_bytes - addr / m_p.line_bytes + 1;
  }
  void rc_delayed(); /* SC_METHOD: completions of MRds whose memory access took time */
  /* When the earliest strongly ordered posted write commits (m_up_q not empty), ps. */
  uint64_t so_due_ps() const;
  void deliver_up();          /* SC_METHOD: applies posted writes to memory at commit */
  /* Applies every posted write committed by now_ps (ps, the current time), earliest commit first:
   * eager, each as if now; lazy, each at its own commit time. */
  void apply_committed(uint64_t now_ps);
  /* Lazy: commit time (ps) of the earliest queued MSI write (m_lazy_wakes > 0). */
  uint64_t next_wake_ps() const;
  void deliver_down_thread(); /* SC_THREAD: applies MMIO writes to the device on arrival */
  void rc_process();          /* SC_METHOD: the root complex answers MRds */
  void tag_release();         /* SC_METHOD: frees tags as their last CplD arrives */
  /* Send time (ps) of the DLLP of stream s covering an event at event_ps; a
   * new one is queued on dir (the direction it goes on) if pcie.dllp is on. */
  uint64_t schedule_dllp(DllpStream &s, PcieDirection &dir, uint64_t event_ps, const char *kind);
  /* Schedules the Ack, on dir, for a TLP arriving at arrival_ps through the
   * opposite direction; receiver_streams are the receiver's. */
  void ack(DllpStream *receiver_streams, PcieDirection &dir, uint64_t arrival_ps);
  /* Schedules an UpdateFC for credits the root port frees at free_ps; returns when it reaches the device. */
  uint64_t update_fc(int stream, uint64_t free_ps);
  /* Waits for the upstream ordering line (FIFO of TLPs), then for hdr/data credits of fc. */
  void up_enter(FcCredits *fc, uint32_t hdr, uint32_t data);
  void up_leave();
  /* Commit time of a posted write of len bytes at addr arriving at arrival_ps. */
  uint64_t commit(uint64_t arrival_ps, uint64_t addr, uint32_t len, bool ro, bool msi);
  void outstanding_change(int delta);
  /* TLP detail: TLP r (up: device to host) as a slice named type (tag < 0: none). */
  void trace_tlp(bool up, const char *type, const TlpReservation &r, uint64_t addr, uint32_t len, int tag);
  void wait_until(uint64_t t_ps);
  void violation(const std::string &msg);

  TlpFormat m_fmt;
  PcieParams m_p;
  PcieDirection m_up;
  PcieDirection m_down;
  PostedWriteQueue m_up_q;    /* strongly ordered posted writes, by commit time */
  PostedWriteQueue m_up_ro_q; /* relaxed-ordering writes on a serialising root complex, by commit time */
  uint64_t m_up_ro_tlps = 0;  /* upstream MWr TLPs with RO set (PcieDirCounters::ro_tlps) */
  PostedWriteQueue m_down_q;
  sc_core::sc_event m_up_event;
  sc_core::sc_event m_down_event;
  uint64_t m_rd_latency_ps;

  /* Upstream ordering line: TLPs enter the wire in ticket order. */
  uint64_t m_ticket_next = 0;
  uint64_t m_ticket_serving = 0;
  WaitedEvent m_ticket_event;
  sc_core::sc_event m_ticket_nb_event; /* up_leave: for device_write_nb callers waiting in line */
  uint32_t m_ticket_nb_waiters = 0;
  FcCredits m_fc_p;
  FcCredits m_fc_np;
  uint64_t m_last_p_free_ps = 0;

  /* Root complex. */
  uint64_t m_last_commit_ps = 0;
  uint64_t m_rc_busy_ps = 0; /* PcieDirCounters::rc_busy_ps */
  uint64_t m_partial_until_ps = 0; /* the last partial-line write's merge is done (later writes wait) */
  uint64_t m_partial_lines = 0;    /* partly written lines so far */
  uint64_t m_cold_reads = 0;       /* read requests that missed the LLC */
  LlcHitFn m_llc_hit;
  TimeRing<PendingRead> m_rc_q;
  sc_core::sc_event m_rc_event;
  std::vector<DelayedRead> m_rc_delayed; /* min-heap by time: MRds whose memory returned a delay */
  uint64_t m_rc_delayed_seq = 0;
  sc_core::sc_event m_rc_delayed_event;
  uint64_t m_so_done_ps = 0;     /* when the last strongly ordered write handed to memory is complete */
  uint64_t m_wr_mem_done_ps = 0; /* when every write handed to memory so far is complete */
  uint64_t m_so_pushed = 0;      /* strongly ordered writes queued (m_up_q) so far */
  uint64_t m_so_applied = 0;     /* ... and handed to memory so far */
  bool m_rc_blocked = false;     /* an MRd is due but waits for an earlier write delayed by memory */
  bool m_lazy = false;           /* posted writes applied when observed (set_lazy_writes) */
  uint64_t m_lazy_wakes = 0;     /* lazy: MSI writes queued (each keeps a wake-up at its commit) */
  bool m_applying = false;       /* inside apply_committed (a memory callback must not re-enter it) */
  uint64_t m_access_ps = 0;      /* while m_applying: the time of the write being handed to memory */
  SplitReadPool m_split; /* device reads waiting for their completions */

  /* Tags. */
  uint32_t m_tags_free;
  uint64_t m_tag_ticket_next = 0; /* MRds waiting for a tag are served in order */
  uint64_t m_tag_ticket_serving = 0;
  uint32_t m_outstanding = 0;
  uint64_t m_outstanding_since_ps = 0;
  WaitedEvent m_tag_freed;
  TimeRing<TagRelease> m_tag_releases;
  std::vector<uint16_t> m_tag_ids; /* free tag numbers, next one at the back */
  sc_core::sc_event m_tag_event;
  PcieReadStats m_rd;

  /* DLLPs: streams[k] of the receiver whose DLLPs go on that direction
   * (which books them lazily: no process wakes up for a DLLP). */
  DllpStream m_up_dllps[kStreams];   /* sent upstream by the device */
  DllpStream m_down_dllps[kStreams]; /* sent downstream by the root port */

  HostMemAccess m_mem; /* root complex -> memory, one access per MRd served or MWr committed */
  tlm::tlm_generic_payload m_reg_gp; /* MMIO write delivery -> device */
  uint8_t m_reg_buf[8] = {};

  /* Trace (nullptr: none): the tags counter; with TLP detail the two link tracks (0: no TLP detail). */
  TraceWriter *m_trace = nullptr;
  uint32_t m_trace_up = 0;
  uint32_t m_trace_down = 0;
};

}  // namespace nicsim
#endif
