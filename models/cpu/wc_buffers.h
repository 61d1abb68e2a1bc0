/*
 * wc_buffers.h: the core's write-combining buffers. Stores to WC memory
 * merge into a buffer per 64 B line; a buffer leaves the core as one burst
 * when every byte of its line is written, when a store to a new line needs a
 * buffer and all are taken (the oldest is evicted), or when a flush (a write
 * barrier, an uncached or MMIO access) empties them all.
 */
#ifndef NICSIM_MODELS_CPU_WC_BUFFERS_H
#define NICSIM_MODELS_CPU_WC_BUFFERS_H

#include <cstdint>
#include <vector>

namespace nicsim {

/* A fixed number of 64 B write-combining buffers, allocated oldest-first. */
class WcBuffers {
 public:
  static constexpr uint64_t kLineBytes = 64; /* one WC buffer (x86 WC buffer / line fill buffer) */

  /* n buffers (at least 1). */
  explicit WcBuffers(unsigned n);
  /* A store of size bytes (1-8) at pa: merges it; returns the bursts it
   * sent out (a line completed, or the oldest buffer evicted for a new line). */
  unsigned store(uint64_t pa, unsigned size);
  /* Sends every non-empty buffer out; returns the bursts. */
  unsigned flush_all();
  /* Sends out the buffer of pa's line, if any; returns the bursts (0 or 1). */
  unsigned flush_line(uint64_t pa);
  /* Buffers holding data now. */
  unsigned used() const;

 private:
  struct Buf {
    uint64_t line = 0;  /* line address */
    uint64_t mask = 0;  /* bytes written, bit per byte */
    uint64_t age = 0;   /* allocation order */
    bool used = false;
  };
  /* Merges [pa, pa + n) (one line) and returns the bursts sent. */
  unsigned store_line(uint64_t pa, unsigned n);
  std::vector<Buf> m_bufs;
  uint64_t m_age = 0;
};

}  // namespace nicsim
#endif
