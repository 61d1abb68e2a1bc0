/*
 * cache.h: a set-associative, write-back, write-allocate data cache with LRU
 * replacement that keeps a copy of each line's bytes, so a CPU reading a line
 * the device rewrote behind its back (non-coherent DMA) sees its stale copy.
 */
#ifndef NICSIM_MODELS_CPU_CACHE_H
#define NICSIM_MODELS_CPU_CACHE_H

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

namespace nicsim {

/* One cache level. Addresses are physical byte addresses; a line holds
 * line_bytes bytes starting at a multiple of line_bytes. */
class Cache {
 public:
  /* State of one resident line. */
  struct Line {
    uint64_t tag = 0;     /* line number: pa / line_bytes */
    uint64_t lru = 0;     /* last use stamp; the smallest in a set is the victim */
    uint64_t dev_ps = 0;  /* time of the last device write while resident and stale */
    bool valid = false;
    bool dirty = false;   /* written by the CPU since it was filled or cleaned */
    bool stale = false;   /* the device wrote memory under this line (no snoop) */
    bool llc = false;     /* placed by a DDIO write: the core has not touched it yet */
  };

  /* sets x ways lines of line_bytes bytes (a power of two). */
  Cache(uint32_t sets, uint32_t ways, uint32_t line_bytes);

  /* The resident line holding pa, or nullptr. Does not change LRU order.
   * The line found last is checked first: a line number is resident in at
   * most one way (fill is only called for an absent line), so it is the
   * line the set's search would find. */
  Line *find(uint64_t pa) {
    const uint64_t tag = pa >> m_shift;
    if (m_last->tag == tag && m_last->valid) return m_last;
    return find_in_set(tag);
  }
  /* Marks l most recently used. */
  void touch(Line *l) { l->lru = ++m_stamp; }
  /* Brings the line holding pa in, copying its bytes from mem (the bytes of
   * physical memory, pa 0 upwards), evicting the set's LRU line. Returns the
   * line, most recently used, clean and not stale. */
  Line *fill(uint64_t pa, const uint8_t *mem);
  /* The cached copy of line l's bytes (line_bytes of them). */
  uint8_t *data(const Line *l);
  /* Drops line l. */
  void drop(Line *l) {
    *l = Line{};
    m_keys[static_cast<size_t>(l - m_lines.data())] = 0;
  }

  /* Line size in bytes. */
  uint32_t line_bytes() const { return m_line; }
  /* First byte of the line holding pa. */
  uint64_t line_base(uint64_t pa) const { return pa & ~static_cast<uint64_t>(m_line - 1); }
  /* Lines evicted to make room (dirty ones counted in dirty_evictions too). */
  uint64_t evictions() const { return m_evictions; }
  /* Dirty lines evicted: each is a write-back to memory. */
  uint64_t dirty_evictions() const { return m_dirty_evictions; }

 private:
  /* find's search of the set of line number tag; remembers the line found. */
  Line *find_in_set(uint64_t tag);
  /* The first line of the set of line number tag (tag mod sets; a mask
   * when sets is a power of two: no division on every lookup). */
  Line *set_of(uint64_t tag) {
    const uint64_t s = m_set_mask ? (tag & m_set_mask) : (m_sets == 1 ? 0 : tag % m_sets);
    return &m_lines[static_cast<size_t>(s) * m_ways];
  }

  uint32_t m_sets, m_ways, m_line, m_shift;
  uint64_t m_set_mask = 0;     /* sets - 1 if sets is a power of two above 1, else 0 */
  std::vector<Line> m_lines;   /* set-major: set s, way w at s * ways + w */
  /* Per line, the same order: its line number + 1 while valid, else 0 (one
   * compare per way in find; line numbers are below 2^64 - 1). */
  std::vector<uint64_t> m_keys;
  Line *m_last = nullptr;      /* the line find returned last (never null after construction) */
  struct FreeDeleter {
    void operator()(uint8_t *p) const { std::free(p); }
  };
  /* The same order, line_bytes each; malloc'd and never read before a fill,
   * so a large cache costs memory only for the lines it uses. */
  std::unique_ptr<uint8_t, FreeDeleter> m_data;
  uint64_t m_stamp = 0;
  uint64_t m_evictions = 0;
  uint64_t m_dirty_evictions = 0;
};

}  // namespace nicsim
#endif
