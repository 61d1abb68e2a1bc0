/*
 * dma_bench.h: the dma-bench workload's device: back-to-back DMA reads,
 * writes or both, of a fixed size, walking a window of host memory with a
 * fixed number of requests in flight (as pcie-bench does on hardware).
 */
#ifndef NICSIM_MODELS_WORKLOAD_DMA_BENCH_H
#define NICSIM_MODELS_WORKLOAD_DMA_BENCH_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "common/params.h"
#include "common/tlp.h"
#include "pcie/latency_hist.h"

namespace nicsim {

/* What the bench issues, in bytes and picoseconds. */
struct DmaBenchParams {
  enum Op { Read, Write, ReadWrite } op = Write;
  uint32_t size_bytes = 64;     /* bytes per request */
  uint32_t outstanding = 1;     /* requests in flight (one thread each) */
  uint64_t window_bytes = 4096; /* requests walk [base, base + window) */
  uint64_t base_addr = 0;       /* bus address of the window */
  bool relaxed_ordering = false; /* requests carry the RO attribute */
  enum Pattern { Seq, Random, PageStride } pattern = Seq; /* where requests go in the window */
  bool host_warm = true;        /* the window's lines are in the LLC if it fits (pcie-bench's host-warm) */
  /* Facts of other layers, set by whoever builds the bench (src/sim: memory.llc_mb, run.*): */
  uint64_t llc_bytes = 0;       /* last-level cache size, bytes; 0: any window fits */
  uint64_t seed = 1;            /* random pattern's stream */
  uint64_t warmup_ps = 0;       /* completions from here on are counted, ps */
  uint64_t stop_ps = 0;         /* no request starts at or after this, and completions after it are not counted, ps */

  /* The workload.* keys. */
  void bind(ParamBinder &b);
  /* The bench's rule: its window holds a request. */
  ParamCheck validate() const;
};

/* Requests completed within [warmup, stop], cumulative. */
struct DmaBenchCounters {
  uint64_t reqs = 0;       /* requests completed */
  uint64_t bytes = 0;      /* their payload bytes */
  uint64_t rd_reqs = 0;    /* of them reads */
  LatencyHist rd_latency;  /* per read: issue to last byte back, ps */
};

/* The bench initiator. Its socket speaks models/common/tlp.h. */
class DmaBench : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaBench> socket; /* DMA out, to the interconnect's device side */
  tlm_utils::simple_target_socket<DmaBench> regs;      /* BAR0: the bench has no registers (errors) */

  /* A bench issuing as p says. */
  DmaBench(sc_core::sc_module_name name, const DmaBenchParams &p);

  /* What completed in the window so far. */
  const DmaBenchCounters &counters() const { return m_cnt; }
  /* pcie-bench's host cache state: true if a read of the window finds its lines in the LLC. */
  bool llc_hit() const { return m_p.host_warm && (m_p.llc_bytes == 0 || m_p.window_bytes <= m_p.llc_bytes); }
  /* Threads that have stopped issuing (all of them: the bench is idle). */
  uint32_t stopped() const { return m_stopped; }

  /* Called when a request fails: component, message. */
  std::function<void(const std::string &, const std::string &)> on_violation;

 private:
  void worker(uint32_t i);
  void b_transport_regs(tlm::tlm_generic_payload &p, sc_core::sc_time &d);

  DmaBenchParams m_p;
  uint64_t m_cursor = 0;
  uint64_t m_rng = 0; /* splitmix64 state of the random pattern */
  /* The next request's offset in the window, by the pattern. */
  uint64_t next_offset();
  uint64_t m_seq = 0;
  uint32_t m_stopped = 0;
  std::vector<std::vector<uint8_t>> m_bufs; /* one per thread */
  /* One transaction per worker, owned here rather than on the worker's stack:
   * SystemC never unwinds a thread left suspended when a run stops, so a
   * payload on its stack would never be freed. */
  struct Slot {
    tlm::tlm_generic_payload gp;
    TlpExt ext;
    ~Slot() { gp.clear_extension(&ext); } /* the payload must not free() a member */
  };
  std::vector<std::unique_ptr<Slot>> m_slots;
  DmaBenchCounters m_cnt;
};

}  // namespace nicsim
#endif
