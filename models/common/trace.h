/* trace.h: optional Chrome/Perfetto trace-event JSON timeline of a run
 * (descriptor fetches, data DMA, write-backs, MSIs, moderation), one track
 * per DMA context; with TLP detail also each TLP and DLLP on the PCIe link;
 * counter tracks (ring occupancy, tags, credits, core busy, interrupt rate);
 * viewable in ui.perfetto.dev or chrome://tracing. */
#ifndef NICSIM_MODELS_COMMON_TRACE_H
#define NICSIM_MODELS_COMMON_TRACE_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/tlp.h"

namespace nicsim {

class TraceSampler;

/*
 * One writer per process (SystemC elaborates once per process). Events are
 * written as they end, so on every track they appear in time order as long as
 * each track is fed by one sequential context (one DmaXfer, one thread).
 * Timestamps are microseconds with picosecond digits, from simulated time
 * only, so a trace is bit-identical for the same config and seed.
 * Tracing formats one line per event into a buffered FILE; with no trace open
 * the hooks cost one null-pointer test.
 */
class TraceWriter {
 public:
  /* What is written: events that overlap [from_ps, to_ps) of simulated time,
   * until the file would pass max_bytes (0: no limit). */
  struct Limits {
    uint64_t from_ps = 0;
    uint64_t to_ps = UINT64_MAX;
    uint64_t max_bytes = 0;
    bool tlp = false;               /* TLP detail: the link's TLPs and DLLPs too */
    uint64_t sample_ps = 10000000;  /* the interval of sampled counters (10 us) */
  };
  /* How a finished trace went. */
  struct Report {
    uint64_t bytes = 0;        /* written, the closing bracket included */
    uint64_t events = 0;       /* events written (metadata not counted) */
    bool truncated = false;    /* the size cap stopped it */
    uint64_t truncated_ps = 0; /* the simulated time of the first event left out */
  };

  /* The process's open trace, or nullptr. */
  static TraceWriter *global();
  /* Opens path as the process's trace (in place: for tests; the CLI writes
   * through start_global with a temporary file it renames); false (errno
   * set) if it cannot. */
  static bool open_global(const char *path);
  /* Finishes the JSON and closes the trace; true if all writes succeeded. */
  static bool close_global();
  /* Starts the process's trace on f (not closed by the writer). */
  static void start_global(std::FILE *f, const Limits &lim);
  /* Finishes the JSON on f (flushed, not closed); true if every write
   * succeeded (errno set otherwise). *r (if not NULL) says how it went. */
  static bool finish_global(Report *r);

  /* A new track (Chrome "thread") named name; returns its id. The name is
   * written with the track's first event: an empty track is not named. */
  uint32_t track(const char *name);
  /* A span on track tid from start_ps to end_ps ("ph":"X"), with the DMA
   * address and length as arguments. */
  void complete(uint32_t tid, const char *name, uint64_t start_ps, uint64_t end_ps, uint64_t addr,
                uint32_t len);
  /* A NAPI poll on track tid from start_ps to end_ps (by the polling core's
   * local time), with its work done and budget as arguments. */
  void poll(uint32_t tid, uint64_t start_ps, uint64_t end_ps, int work, int budget);
  /* A point event on track tid at ps ("ph":"i"). */
  void instant(uint32_t tid, const char *name, uint64_t ps);

  /* ---- TLP detail (Limits::tlp) ---------------------------------------- */
  /* Sets the detail and the sampled counters' interval (ps, > 0); before the run. */
  void set_detail(bool tlp, uint64_t sample_ps) {
    m_lim.tlp = tlp;
    m_lim.sample_ps = sample_ps;
  }
  /* True if the link's TLPs and DLLPs are to be traced. */
  bool tlp_detail() const { return m_lim.tlp; }
  /* One TLP on link track tid, its first byte leaving at start_ps and its
   * last at end_ps, named by type (MWr, MRd, CplD), with its payload length,
   * address and tag (tag < 0: none) as arguments. */
  void tlp(uint32_t tid, const char *type, uint64_t start_ps, uint64_t end_ps, uint64_t addr, uint32_t len,
           int tag);
  /* One DLLP (Ack, UpdateFC-P, UpdateFC-NP) on link track tid, on the wire from start_ps to end_ps. */
  void dllp(uint32_t tid, const char *type, uint64_t start_ps, uint64_t end_ps);

  /* ---- counter tracks ("ph":"C") ---------------------------------------- */
  /* A counter track's value at ps: Perfetto draws each name as a graph that
   * holds the value until the next event. A counter that never gets an
   * event names no track. name must outlive the writer's use of it. */
  void counter(const char *name, uint64_t ps, double value);
  /* The interval (ps) of sampled counters (TraceSampler). */
  uint64_t sample_ps() const { return m_lim.sample_ps; }

  /* A new sampled counter named name (owned by the writer, TraceSampler). */
  TraceSampler *sampler(const char *name, double scale);
  /* The run ended at end_ps: writes every sampler's open interval. */
  void end_run(uint64_t end_ps);

 private:
  TraceWriter(std::FILE *f, bool owned, const Limits &lim);
  /* True if an event over [start_ps, end_ps] is to be written; marks the
   * trace truncated (and returns false) once the size cap is reached. */
  bool want(uint64_t start_ps, uint64_t end_ps);
  void begin_event();
  /* Writes track tid's name and sort index, once, before its first event. */
  void name_track(uint32_t tid);
  void put(const char *s);
  void putf(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  void put_us(uint64_t ps);
  bool finish(Report *r);

  std::FILE *m_f;
  bool m_owned;
  Limits m_lim;
  Report m_rep;
  bool m_failed = false;
  bool m_first = true;
  uint32_t m_next_tid = 1;
  std::vector<std::string> m_names; /* track tid's name at [tid - 1] */
  std::vector<bool> m_named;        /* its name is written */
  std::vector<std::unique_ptr<TraceSampler>> m_samplers;
  friend class TraceSampler;
};

/* A counter sampled per interval of sample_ps(): what is added during
 * [k S, (k + 1) S) is written at k S, divided by S and multiplied by
 * scale (busy ps / S: a busy fraction; MSIs * 1e12 / S: MSIs per second).
 * An interval is written once a later one is reached (or at end_run);
 * intervals with nothing added are written only as the first 0 after a
 * non-zero one, so an idle counter costs nothing. Fed in time order (an
 * addition before the current interval counts in the current one). */
class TraceSampler {
 public:
  /* Adds amount at ps. */
  void add(uint64_t ps, uint64_t amount);
  /* Adds the span [start_ps, end_ps), split over the intervals it covers. */
  void add_span(uint64_t start_ps, uint64_t end_ps);

 private:
  friend class TraceWriter;
  TraceSampler(TraceWriter *t, std::string name, double scale) : m_t(t), m_name(std::move(name)), m_scale(scale) {}
  /* Writes interval m_cur and moves to interval k (> m_cur). */
  void close(uint64_t k);
  TraceWriter *m_t;
  std::string m_name;
  double m_scale;
  uint64_t m_cur = 0;   /* the interval being summed */
  uint64_t m_acc = 0;   /* what it has so far */
  bool m_nonzero = false; /* the last value written is not 0 */
};

}  // namespace nicsim

extern "C" {
/* C entry points (declared in src/sim/sim.h, with struct nicsim_trace_opts
 * and nicsim_trace_report): start/open before nicsim_simulate, finish/close
 * after it. 0 on success, -1 with errno set. */
int nicsim_trace_open(const char *path);
int nicsim_trace_close(void);
int nicsim_trace_start(std::FILE *f, double from_us, double to_us, uint64_t max_bytes);
/* Sets the trace's detail (tlp: 1 for the link's TLPs and DLLPs) and the
 * interval of its sampled counters (sample_us > 0), between start/open and
 * nicsim_simulate. */
int nicsim_trace_set_detail(int tlp, double sample_us);
/* The run ended at end_ps (called by nicsim_simulate): writes the sampled counters' last intervals. */
void nicsim_trace_end_run(uint64_t end_ps);
int nicsim_trace_finish(uint64_t *bytes, int *truncated, double *truncated_at_us);
}

#endif
