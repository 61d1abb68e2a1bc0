// wc_buffers.cpp: merging stores per line, bursts on full, evict and flush.
#include "cpu/wc_buffers.h"

#include <algorithm>

namespace nicsim {

WcBuffers::WcBuffers(unsigned n) : m_bufs(std::max(1u, n)) {}

unsigned WcBuffers::store(uint64_t pa, unsigned size) {
  const uint64_t end = pa + size;
  const uint64_t split = (pa & ~(kLineBytes - 1)) + kLineBytes;
  if (end <= split) return store_line(pa, size);
  /* A store crossing a line goes into two buffers. */
  return store_line(pa, static_cast<unsigned>(split - pa)) + store_line(split, static_cast<unsigned>(end - split));
}

unsigned WcBuffers::store_line(uint64_t pa, unsigned n) {
  const uint64_t line = pa & ~(kLineBytes - 1);
  const uint64_t bits = (n >= 64 ? ~0ull : ((1ull << n) - 1)) << (pa - line);
  unsigned bursts = 0;
  Buf *b = nullptr;
  for (Buf &x : m_bufs)
    if (x.used && x.line == line) b = &x;
  if (!b) {
    for (Buf &x : m_bufs)
      if (!x.used) {
        b = &x;
        break;
      }
    if (!b) {
      /* All taken: the oldest leaves as a burst and takes the new line. */
      b = &m_bufs[0];
      for (Buf &x : m_bufs)
        if (x.age < b->age) b = &x;
      bursts++;
    }
    *b = Buf{line, 0, ++m_age, true};
  }
  b->mask |= bits;
  if (b->mask == ~0ull) {
    /* The whole line is written: it leaves as one full burst. */
    b->used = false;
    bursts++;
  }
  return bursts;
}

unsigned WcBuffers::flush_all() {
  unsigned bursts = 0;
  for (Buf &x : m_bufs)
    if (x.used) {
      x.used = false;
      bursts++;
    }
  return bursts;
}

unsigned WcBuffers::flush_line(uint64_t pa) {
  const uint64_t line = pa & ~(kLineBytes - 1);
  for (Buf &x : m_bufs)
    if (x.used && x.line == line) {
      x.used = false;
      return 1;
    }
  return 0;
}

unsigned WcBuffers::used() const {
  unsigned n = 0;
  for (const Buf &x : m_bufs) n += x.used ? 1 : 0;
  return n;
}

}  // namespace nicsim
