/* dma_engine.h: the NIC's DMA engine: BAR0 registers, RX and TX descriptor
 * rings (one or more queues per direction) with prefetching caches, RSS,
 * frame data movement between host memory and the MAC FIFOs, descriptor
 * write-back and interrupt moderation (one MSI-X vector per queue pair). */
#ifndef NICSIM_MODELS_DMA_DMA_ENGINE_H
#define NICSIM_MODELS_DMA_DMA_ENGINE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "common/params.h"
#include "dma/desc_codec.h"
#include "dma/dma_counters.h"
#include "dma/desc_ring.h"
#include "dma/dma_xfer.h"
#include "dma/irq_moderator.h"
#include "dma/nic_clock.h"
#include "dma/read_tag_pool.h"

namespace nicsim {

class Mac;
class PcieLink;
struct DmaSnapshot;
namespace stats {
class Registry;
}

/*
 * Processes (SC_THREADs but rx_data over a PcieLink, woken by events, never
 * by a clock):
 *   rx_fetch, tx_fetch   - keep each ring's descriptor cache filled (one per
 *                          ring; rings of a channel take read tags in turn);
 *   rx_data              - RX FIFO frame -> RSS queue -> host buffers, then
 *                          write-back; an SC_METHOD state machine
 *                          (rx_data_method) when the socket leads to a
 *                          PcieLink, whose
 *                          non-blocking posted-write entry it uses, else the
 *                          SC_THREAD rx_data_thread (the AXI bus);
 *   tx_issue             - cached TX descriptor -> TX FIFO space + data read;
 *                          queues served round robin, a frame at a time;
 *   tx_reader_<i>        - one per read tag: performs the TX data reads, so
 *                          up to max_read_reqs are outstanding;
 *   tx_retire            - in order: publishes frames to the MAC, write-back.
 * Every DMA request starts on a NIC clock edge; each descriptor costs
 * desc_proc_cycles of its channel. The family's descriptor format comes from
 * a DescCodec; its policy knobs from Params.
 */
class DmaEngine : public sc_core::sc_module {
 public:
  static constexpr uint32_t kMaxQueues = kDmaMaxQueues; /* GN_MAX_QUEUES */
  /* Construction parameters (policy knobs a family sets). */
  struct Params {
    double clock_mhz = 250;           /* NIC core clock, MHz */
    uint32_t desc_spacing = 16;       /* DESC_SPACING reset value, bytes */
    uint32_t desc_fetch_max = 8;      /* descriptors per fetch request when packed */
    uint32_t desc_cache_entries = 16; /* descriptors each ring's cache holds (at least desc_fetch_max) */
    uint32_t desc_proc_cycles = 4;    /* NIC cycles per descriptor, cycles */
    uint32_t wb_threshold = 1;        /* completed descriptors per write-back */
    bool tx_head_wb = false;          /* TX: write the head index, not the descriptors */
    bool tx_irq_on_drain = false;     /* TX: interrupt when the ring drains (stmmac TBU: set by src/sim from driver.stmmac_tbu) */
    bool rx_drop_nodesc = false;      /* RX: drop a frame whose queue has no descriptor left */
    uint32_t prefetch_threshold = 0;  /* fetch while cached <= this; 0: whenever a batch fits */
    uint32_t max_read_reqs = 32;      /* outstanding read requests (tags) */
    bool rx_read_priority = true;     /* RX reads take free tags first; false: round robin */
    uint32_t read_reqs_per_channel = 0; /* outstanding reads each channel may hold; 0: only the shared limit */
    bool fetch_spaced_span = false;   /* spaced descriptors: one read spans several and their gaps */
    bool prefetch_spaced = true;      /* spaced descriptors are prefetched; false: fetched when the cache is empty */
    double issue_ns = 0;              /* least time between two DMA request starts of the engine, ns; 0: none */
    double itr_usecs = 0;             /* least time between MSIs, us; 0: no throttling */
    /* Per-direction coalescing (nic.rx_/tx_irq_coal_*; [0] RX, [1] TX): -1 is
     * the shared value. The driver programs them (GN_REG_VEC_COAL); here for
     * the rules. */
    int64_t dir_coal_frames[2] = {-1, -1};
    double dir_coal_usecs[2] = {-1, -1};
    bool coal_timer_restart = false;  /* the coalescing timer restarts at every completion (else from the first) */
    uint32_t coal_frames = 32;        /* COAL_FRAMES reset value, frames */
    double coal_usecs = 50;           /* COAL_USECS reset value, us */
    double reg_read_ns = 100;         /* device time to answer a register read, ns */
    double csr_clock_mhz = 250;       /* CSR clock the RX_WATCHDOG register counts (x 256), MHz */
    uint32_t rx_queues = 1;           /* RX rings (nic.rx_queues), at most GN_MAX_QUEUES */
    uint32_t tx_queues = 1;           /* TX rings (nic.tx_queues, plus a driver's XDP rings: src/sim) */
    uint32_t vectors = 0;             /* MSI-X vectors; 0: one per queue pair, max(rx_queues, tx_queues) */
    bool rx_method = true;            /* RX data path as an SC_METHOD over a PcieLink; false: always the thread */
    /* The nic.* keys of the engine (dma_params.cpp): desc_cache_entries 0
     * means two fetch batches; wb_mode desc forces wb_threshold 1; head
     * applies to TX (RX batches). */
    void bind(ParamBinder &b);
    /* The engine's rules: a descriptor cache holds a fetch batch. */
    ParamCheck validate() const;
  };

  /* Cumulative counters (dma_counters.h). */
  using Counters = DmaCounters;

  /* Called on an invariant violation: component (this module's name), message. */
  using ViolationFn = std::function<void(const std::string &, const std::string &)>;

  /* codec: descriptor format (must outlive the engine); mac: its FIFOs;
   * socket: the initiator socket all DMA goes through (bound by the owner). */
  DmaEngine(sc_core::sc_module_name name, const Params &p, const DescCodec &codec, Mac &mac,
            tlm::tlm_initiator_socket<> &socket);

  /* Records every DMA of the engine and its MSIs on tracks of t, per queue q
   * and vector v: rxq<q>.fetch, rxq<q>.dma (data and write-backs),
   * txq<q>.fetch, txq<q>.writeback, irq<v>.msi, irq<v>.moderation, and the
   * TX readers (shared by the TX queues) txq0.read<i> with one TX queue,
   * tx.read<i> with several. Call before sc_start. */
  void set_trace(TraceWriter *t);

  /* Where violations go; without one they are SC_REPORT_ERRORs. */
  void set_violation_handler(ViolationFn fn) { m_on_violation = std::move(fn); }

  /* Tells whether a frame-data transfer starting at bus address pa carries
   * the Relaxed Ordering attribute (the glue asks the kernel whether the
   * mapping there has DMA_ATTR_WEAK_ORDERING). Must be O(1), no allocation. */
  using RelaxedOrderingFn = std::function<bool(uint64_t pa)>;
  /* Sets the RO source for RX data writes and TX data reads; unset: no RO.
   * Descriptor fetches, write-backs and MSIs never carry RO (they must not
   * pass the data they announce). */
  void set_relaxed_ordering_fn(RelaxedOrderingFn fn) { m_ro_fn = std::move(fn); }

  /* BAR0 access (b_transport of the register target). The access takes
   * effect at the time of the call, after waiting the caller's delay. A read
   * then takes reg_read_ns: a thread caller waits inside this call; a method
   * caller (which cannot wait) gets it added to delay instead. */
  void reg_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &delay);
  /* Register value, with read side effects (INT_STATUS clears); no timing. */
  uint32_t reg_read(uint32_t offset);
  /* Register write and its effects (kicks, unmask); no timing. */
  void reg_write(uint32_t offset, uint32_t value);

  /* True if pa lies in a descriptor the device owns, on any ring. Inline,
   * with one compare for an address outside every ring: the CPU asks it
   * for every store. */
  bool device_owns(uint64_t pa) const {
    if (pa - m_owns_lo >= m_owns_len) return false;
    for (const DescRing *r : m_rings)
      if (r->owns(pa)) return true;
    return false;
  }
  /* Frames taken from a FIFO or a ring and not yet completed. */
  uint64_t frames_in_engine() const { return m_rx_in_engine + m_tx_in_engine; }

  /* Counters so far. */
  const Counters &counters() const { return m_cnt; }
  /* Its statistics (dma_stats.h): its counters, rings and vectors now, and its table read that way. */
  void stats_snapshot(DmaSnapshot &s) const;
  void add_stats(stats::Registry &r) const;
  /* Interrupt counters so far, summed over the vectors. */
  IrqModerator::Counters irq_counters() const;
  /* Interrupt counters of vector v (< vectors()). */
  const IrqModerator::Counters &irq_counters(uint32_t v) const { return irq(v).counters(); }
  /* Queues per direction and MSI-X vectors (max of the two: one per queue pair). */
  uint32_t rx_queues() const { return static_cast<uint32_t>(m_rx.size()); }
  uint32_t tx_queues() const { return static_cast<uint32_t>(m_tx.size()); }
  uint32_t vectors() const { return static_cast<uint32_t>(m_irq_extra.size()) + 1; }
  /* The rings, for inspection (queue 0 without an argument). */
  const DescRing &rx_ring(uint32_t q = 0) const { return *m_rx[q]; }
  const DescRing &tx_ring(uint32_t q = 0) const { return *m_tx[q]; }
  /* RSS: the RX queue a frame of dma_len bytes goes to, by the key and
   * indirection table the driver programmed (queue 0 without RSS). */
  uint32_t rss_queue(const uint8_t *frame, uint32_t dma_len) const;
  /* The read-tag pool (arbitration counters). */
  const ReadTagPool &read_tags() const { return m_tags; }
  /* The NIC clock. */
  const NicClock &clock() const { return m_clock; }
  /* True once the simulation has started if the RX data path runs as an
   * SC_METHOD over a PcieLink (rx_data_method), false for the thread. */
  bool rx_is_method() const { return m_rx_link != nullptr; }
  /* The method's link waits so far, summed over the RX queues: in the
   * ordering line behind another request, and for flow-control credits. */
  uint64_t rx_nb_line_waits() const;
  uint64_t rx_nb_credit_waits() const;
  /* Waits of the method's data writes and write-backs skipped by lookahead
   * (start edges and data-write ends; DmaXfer, common/lookahead.h). */
  uint64_t rx_nb_lookaheads() const;

 private:
  /* Recomputes the bytes every ring spans (after a base, size or geometry change). */
  void set_owns_window();
  /* Completed descriptors waiting for their write-back. */
  struct WbQueue {
    DescRing *ring = nullptr;
    DmaXfer *xfer = nullptr;
    IrqModerator *irq = nullptr;   /* the queue pair's vector */
    uint32_t qid = 0;              /* queue index */
    uint64_t *head_wb_addr = nullptr; /* TX: where the head index goes (0: nowhere) */
    uint32_t cause = 0;            /* GN_INT_RX or GN_INT_TX */
    bool rx = false;
    bool head_wb = false;          /* write the new head index instead of the descriptors */
    bool irq_on_drain = false;     /* TX: completing the last descriptor given raises the cause (TBU) */
    uint8_t head_buf[4] = {};      /* the head index, little-endian */
    std::vector<uint8_t> bytes;    /* encoded descriptors, wb_threshold of them */
    std::vector<uint32_t> idx;     /* their ring indices */
    std::vector<uint8_t> eop;      /* 1 if the descriptor ends a frame */
    std::vector<uint8_t> ioc;      /* 1 if it asks for an interrupt on completion */
    uint32_t count = 0;
  };
  /* One TX data read, from descriptor to FIFO bytes. */
  struct TxJob {
    uint32_t q = 0; /* TX queue */
    uint32_t idx = 0;
    DmaDesc d;
    uint8_t *dst = nullptr;
    uint64_t start_ps = 0; /* the read starts here: after the descriptor's processing */
    bool done = false;
  };

  void rx_fetch_thread();
  void tx_fetch_thread();
  void fetch_loop(uint32_t q, bool rx);
  /* Asks the socket's target for a PcieLink (PcieNbProbe): the RX data path is then a method. */
  void start_of_simulation() override;
  void rx_data_thread();
  DescRing *rx_front_ring();
  /* One RX buffer taken for a frame's bytes (rx_take_buffer). */
  struct RxBuf {
    uint32_t idx = 0;      /* descriptor index */
    DmaDesc d;             /* the descriptor */
    uint64_t ready_ps = 0; /* its processing done: the write's earliest start, ps */
    uint64_t addr = 0;     /* where the bytes go */
    uint32_t chunk = 0;    /* how many of the frame's bytes it takes */
  };
  bool rx_take_buffer(DescRing &ring, uint32_t off, uint32_t len, RxBuf *b);
  void rx_one_frame(uint32_t q);
  /* The RX data path as an SC_METHOD: rx_data_thread's steps, its waits
   * turned into next_triggers (see m_rxm). */
  void rx_data_method();
  /* rx_data_method's states: true if it now waits (next_trigger set). */
  bool rxm_top();
  bool rxm_frame();
  bool rxm_data();
  bool rxm_flush();
  /* Starts writing back the pending completions of RX queues [first, end), then `after`. */
  void rxm_flush_start(uint32_t first, uint32_t end, uint8_t after);
  /* Waits for a frame to enter the MAC's RX FIFO (Mac::want_rx_frame). */
  void rxm_wait_frame(bool recheck);
  /* SC_THREAD: waits in Mac::wait_rx_frame for rx_data_method (a method cannot). */
  /* Writes back every RX (TX) queue's pending completions. */
  /* Writes back every queue's pending descriptors; true if it wrote any (time passed). */
  bool flush_all(std::vector<WbQueue> &queues);
  bool rx_flush_all(); /* writes back every RX queue's pending descriptors; true if it wrote any */
  bool tx_flush_all(); /* the same for the TX queues */
  /* The TX queue tx_issue serves next (round robin over queues with cached
   * descriptors; the open frame's queue until its EOP), or -1 if none. */
  int tx_pick_queue() const;
  IrqModerator &irq(uint32_t v) { return v == 0 ? m_irq : *m_irq_extra[v - 1]; }
  const IrqModerator &irq(uint32_t v) const { return v == 0 ? m_irq : *m_irq_extra[v - 1]; }
  /* Queue-block and per-queue registers (GN_QBLOCK, MSI-X data, head write-back). */
  bool queue_reg_read(uint32_t offset, uint32_t *v);
  bool queue_reg_write(uint32_t offset, uint32_t value);
  void rss_reg_write(uint32_t offset, uint32_t value);
  void tx_issue_thread();
  void tx_reader(uint32_t i);
  void tx_retire_thread();
  uint8_t *wb_slot(WbQueue &q) { return q.bytes.data() + q.count * q.ring->desc_bytes(); }
  void set_ring_geometry();
  void wb_add(WbQueue &q, uint32_t idx, bool eop, bool ioc);
  void wb_flush(WbQueue &q);
  void wb_written(WbQueue &q, uint32_t i, uint32_t n);
  void wb_complete(WbQueue &q, uint32_t i, uint32_t n);
  uint32_t wb_run(const WbQueue &q, uint32_t i) const;
  void wb_flush_head(WbQueue &q);
  /* Ring base/size register write; field: 0 low base, 1 high base, 2 size. */
  void ring_config_write(DescRing &r, const char *which, int field, uint32_t value);
  void ctrl_changed();
  void violation(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  /* RO attribute of a data transfer at pa (m_ro_fn), counted. */
  bool data_ro(uint64_t pa);

  Params m_p;
  const DescCodec &m_codec;
  Mac &m_mac;
  tlm::tlm_initiator_socket<> &m_socket;
  NicClock m_clock;
  ReadTagPool m_tags;
  std::vector<std::unique_ptr<DescRing>> m_rx; /* one per RX queue */
  std::vector<std::unique_ptr<DescRing>> m_tx; /* one per TX queue */
  ViolationFn m_on_violation;
  RelaxedOrderingFn m_ro_fn;
  IrqModerator m_irq;                                     /* vector 0 */
  std::unique_ptr<DmaArbiter> m_arb;                      /* same-edge requests of the threads */
  std::vector<std::unique_ptr<IrqModerator>> m_irq_extra; /* vectors 1.. */

  /* registers */
  uint32_t m_ctrl = 0;
  uint32_t m_spacing;
  std::vector<const DescRing *> m_rings; /* every RX ring, then every TX ring, for device_owns() */
  uint64_t m_owns_lo = 0;  /* lowest ring byte, bus address */
  uint64_t m_owns_len = 0; /* bytes from m_owns_lo to the last ring's end; 0: no ring */
  uint32_t m_rx_buf_size = 0;
  uint32_t m_riwt = 0;            /* RX_WATCHDOG (RWT) */
  uint64_t m_tx_head_wb_addr[kMaxQueues] = {}; /* TX_HEAD_WB_LO/HI per TX queue */
  uint8_t m_rss_key[40] = {};     /* RSS_KEY (NF_RSS_KEY_LEN) */
  uint8_t m_rss_lut[512] = {};    /* RSS_LUT (GN_RSS_LUT_MAX) */
  uint32_t m_rss_size = 0;        /* RSS_TABLE_SIZE; 0: every frame to queue 0 */
  WaitedEvent m_ctrl_event;

  /* RX: per queue a fetch payload and buffer, a data payload, a write-back queue */
  std::vector<std::unique_ptr<DmaXfer>> m_rx_fetch_x;
  std::vector<std::unique_ptr<DmaXfer>> m_rx_data_x;
  std::vector<std::vector<uint8_t>> m_rx_fetch_buf;
  std::vector<WbQueue> m_rx_wb;
  uint64_t m_rx_in_engine = 0;
  int m_rx_front_q = -1; /* RSS queue of the RX FIFO's oldest frame (-1: not hashed yet) */
  /* RX data path as a method (rx_data_method): the link (nullptr: the thread
   * runs instead), and where it stands. */
  PcieLink *m_rx_link = nullptr;
  /* True if the data write in flight may end early (DmaXfer::write_nb_step):
   * it is a frame's last chunk, whose write-back is started right after it
   * (so what follows reads no FIFO), and there is no PAUSE (an XON would be
   * sent at the kernel's time). */
  bool rxm_may_end_early() const;
  /* True if the write-back in flight (q, the flush's last write, which
   * follows a frame's data) may end early: what follows reads the RX FIFO,
   * the rings and the interrupt state as at its end (LogicalNow), so no
   * PAUSE, and completing its frames must schedule nothing
   * (IrqModerator::completion_is_quiet); the descriptor fetcher's kick and
   * the wire peer's wake are timed from then. */
  bool rxm_wb_may_end_early(const WbQueue &q) const;
  /* After a write ended (Ok) at done: if that is later than now, the rest of
   * the activation acts at done. */
  void rxm_ended_at(uint64_t done);
  enum RxmState : uint8_t { kRxmTop, kRxmFrame, kRxmData, kRxmFlush, kRxmWokeTop, kRxmWokeFrame };
  /* What follows a flush: the thread's wait after rx_flush_all (ctrl, frame,
   * descriptors of wait_ring; in rx_one_frame ctrl or descriptors), or
   * rx_one_frame's loop after wb_add's flush. */
  enum RxmAfter : uint8_t { kAfterCtrl, kAfterFrame, kAfterDesc, kAfterFrameWait, kAfterFrameNext };
  struct RxMethod {
    uint8_t st = kRxmTop;
    uint8_t after = kAfterCtrl;
    uint32_t wait_ring = 0;
    /* flush of queues [fl_q, fl_end): run from descriptor fl_i, fl_n long, being written */
    uint32_t fl_q = 0, fl_end = 0, fl_i = 0, fl_n = 0;
    bool fl_writing = false;
    bool fl_wrote = false; /* the flush wrote something (so the thread waited in it) */
    /* the frame being moved: queue, bytes, progress, current descriptor and chunk */
    uint32_t q = 0;
    const uint8_t *data = nullptr;
    uint32_t len = 0, off = 0, idx = 0, chunk = 0;
    DmaDesc d;
  } m_rxm;
  QuietBound m_rxm_quiet;         /* the kernel's answer for lookahead, this activation */
  LogicalNow *m_rxm_ahead = nullptr; /* this activation's time, once a write ended early */
  sc_core::sc_event m_rxm_start;  /* rx_data_thread starts the method (at time 0) */
  sc_core::sc_event m_ctrl_nb;    /* ctrl_changed, for the method */
  bool m_ctrl_nb_wait = false;

  /* TX */
  std::vector<std::unique_ptr<DmaXfer>> m_tx_fetch_x;
  std::vector<std::unique_ptr<DmaXfer>> m_tx_wb_x;
  std::vector<std::vector<uint8_t>> m_tx_fetch_buf;
  WaitedEvent m_tx_desc_any; /* descriptors entered some TX queue's cache */
  uint32_t m_tx_cur_q = 0;         /* queue of the frame being issued (or served last) */
  std::vector<std::unique_ptr<DmaXfer>> m_tx_read_x;
  std::vector<TxJob> m_jobs;
  uint64_t m_job_head = 0;    /* oldest job not retired */
  uint64_t m_job_started = 0; /* next job a reader takes */
  uint64_t m_job_issued = 0;  /* jobs created */
  uint32_t m_tx_open_bytes = 0;
  uint64_t m_tx_proc_done_ps = 0; /* the issue stage is busy processing until then */
  uint64_t m_tx_in_engine = 0;
  std::vector<WbQueue> m_tx_wb;
  std::vector<uint32_t> m_idle_readers;                    /* readers waiting for a job */
  std::vector<std::unique_ptr<sc_core::sc_event>> m_reader_wake; /* one per reader */
  WaitedEvent m_tx_job_done;
  WaitedEvent m_tx_job_freed;

  Counters m_cnt;
  uint64_t m_issue_next_ps = 0; /* issue-rate limit: the next request starts no earlier (Params::issue_ns) */
};

}  // namespace nicsim
#endif
