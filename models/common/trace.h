/* trace.h: optional Chrome/Perfetto trace-event JSON timeline of a run
 * (descriptor fetches, data DMA, write-backs, MSIs, moderation), one track
 * per DMA context; viewable in ui.perfetto.dev or chrome://tracing. */
#ifndef NICSIM_MODELS_COMMON_TRACE_H
#define NICSIM_MODELS_COMMON_TRACE_H

#include <cstdint>
#include <cstdio>

#include "common/tlp.h"

namespace nicsim {

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
  /* The process's open trace, or nullptr. */
  static TraceWriter *global();
  /* Opens path as the process's trace; false (errno set) if it cannot. */
  static bool open_global(const char *path);
  /* Finishes the JSON and closes the trace; true if all writes succeeded. */
  static bool close_global();

  /* A new track (Chrome "thread") named name; returns its id. */
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

 private:
  explicit TraceWriter(std::FILE *f);
  void begin_event();

  std::FILE *m_f;
  bool m_first = true;
  uint32_t m_next_tid = 1;
};

}  // namespace nicsim

extern "C" {
/* C entry points for the CLI (declared in src/sim/sim.h): open before
 * nicsim_simulate, close after it. 0 on success, -1 with errno set. */
int nicsim_trace_open(const char *path);
int nicsim_trace_close(void);
}

#endif
