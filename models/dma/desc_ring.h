/* desc_ring.h: one descriptor ring as the DMA engine sees it: base, size,
 * head/tail/fetch indices and the on-chip descriptor cache (gem5's
 * DescCache idea, without the transport, which the engine owns). */
#ifndef NICSIM_MODELS_DMA_DESC_RING_H
#define NICSIM_MODELS_DMA_DESC_RING_H

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "common/waited_event.h"
#include "dma/desc_codec.h"

namespace nicsim {

class TraceWriter;

/*
 * Indices, all modulo size:
 *   head  - next descriptor the device completes (written back);
 *   fetch - next descriptor the device reads from memory;
 *   tail  - first descriptor not given to the device (driver-written).
 * [head, tail) is device-owned; [head, fetch) has been fetched (in the cache
 * or being processed); [fetch, tail) is still only in host memory, the first
 * of those possibly being read right now.
 */
class DescRing {
 public:
  /* cache_entries: descriptors the on-chip cache holds. */
  explicit DescRing(uint32_t cache_entries);

  /* ---- configuration (register writes) --------------------------------- */
  /* Sets the low/high half of the ring base, bus address. */
  void set_base_lo(uint32_t v);
  void set_base_hi(uint32_t v);
  /* Sets the number of entries. */
  void set_size(uint32_t entries);
  /* Descriptor geometry: spacing (bytes between starts) and size, bytes. */
  void set_geometry(uint32_t spacing, uint32_t desc_bytes);
  /* Forgets all indices and cached descriptors (base or size changed). */
  void reset();
  /* Moves the tail; returns nullptr, or why the new tail is invalid (beyond
   * the ring, or taking back descriptors the device has fetched). */
  const char *set_tail(uint32_t tail);

  /* Ring base, bus address, and its register halves. */
  uint64_t base() const { return m_base; }
  uint32_t base_lo() const { return static_cast<uint32_t>(m_base); }
  uint32_t base_hi() const { return static_cast<uint32_t>(m_base >> 32); }
  /* Entries. */
  uint32_t size() const { return m_size; }
  /* Next index the device completes; first index not given to it. */
  uint32_t head() const { return m_head; }
  uint32_t tail() const { return m_tail; }
  /* Bytes between descriptor starts; bytes of one descriptor. */
  uint32_t spacing() const { return m_spacing; }
  uint32_t desc_bytes() const { return m_desc_bytes; }
  /* Descriptors the device owns: [head, tail). */
  uint32_t owned() const { return dist(m_head, m_tail); }
  /* Bus address of descriptor idx. */
  uint64_t slot_addr(uint32_t idx) const { return m_base + static_cast<uint64_t>(idx) * m_spacing; }
  /* True if pa lies inside the bytes of a device-owned descriptor. Inline,
   * with one compare for an address outside the ring's bytes: it runs for
   * every CPU store. */
  bool owns(uint64_t pa) const { return pa - m_base < m_span && m_head != m_tail && owns_slot(pa - m_base); }
  /* Bytes from the base to the end of the last descriptor (0: no ring). */
  uint64_t span() const { return m_span; }
  /* Bumped by reset(); a fetch that started under another generation is stale. */
  uint32_t generation() const { return m_gen; }

  /* ---- fetching ---------------------------------------------------------- */
  /* The next fetch, if one should start now: first index and count. With
   * batching (packed descriptors) up to max_batch contiguous descriptors,
   * never crossing the ring end; otherwise one. It starts only when the
   * cache has room for the whole batch. */
  bool plan_fetch(uint32_t max_batch, bool batching, uint32_t *first, uint32_t *n) const;
  /* Prefetch threshold: with t > 0 a fetch starts only while the cache holds
   * at most t unprocessed descriptors (Intel's PTHRESH idea); 0: whenever a
   * whole batch fits. */
  void set_prefetch_threshold(uint32_t t) { m_prefetch_thresh = t; }
  /* Descriptors in the cache, not yet processed. */
  uint32_t cached() const { return m_cache_count; }
  /* A fetch of n descriptors from the fetch index has been issued. */
  void fetch_issued(uint32_t n) { m_fetching = n; }
  /* The issued fetch has ended (its descriptors pushed, or it failed). */
  void fetch_ended() { m_fetching = 0; }
  /* Stores the fetched descriptor at the fetch index and moves past it. */
  void push_fetched(const DmaDesc &d);

  /* ---- processing --------------------------------------------------------- */
  /* True if the cache holds a descriptor ready for processing. */
  bool cache_empty() const { return m_cache_count == 0; }
  /* Takes the oldest cached descriptor; *idx gets its ring index. */
  DmaDesc pop_cached(uint32_t *idx);
  /* n descriptors from head have been written back: head moves past them. */
  void advance_head(uint32_t n);

  /* Integral of owned() over simulated time up to now, descriptor x ps
   * (divide a difference by the interval for the mean occupancy). */
  uint64_t occupancy_integral() const;
  /* Most descriptors the device has owned at once. */
  uint32_t occupancy_max() const { return m_occ_max; }
  /* A trace counter named name of owned(), written when it changes (t nullptr: none). */
  void set_trace(TraceWriter *t, const char *name);

  /* Halts the ring after a violation: nothing more is fetched or processed. */
  void halt() { m_halted = true; }
  bool halted() const { return m_halted; }

  /* Notified when the fetcher may have work (tail moved, cache room):
   * wait_fetch_kick() waits for the next kick_fetch(). */
  void kick_fetch() { m_fetch_kick.notify(); }
  void wait_fetch_kick() { m_fetch_kick.wait(); }
  /* Notified when descriptors enter the cache: wait_desc_ready() waits for
   * the next notify_desc_ready(). */
  void notify_desc_ready() {
    m_desc_ready.notify();
    if (m_desc_ready_nb_wait) {
      m_desc_ready_nb_wait = false;
      m_desc_ready_nb.notify();
    }
  }
  void wait_desc_ready() { m_desc_ready.wait(); }
  /* The same for an SC_METHOD: its next activation is at the next notify_desc_ready(). */
  void next_trigger_desc_ready() {
    m_desc_ready_nb_wait = true;
    sc_core::next_trigger(m_desc_ready_nb);
  }

 private:
  void account();
  /* Writes owned() to the trace counter if it changed. */
  void trace_owned();
  /* owns() for an offset inside the ring's span. */
  bool owns_slot(uint64_t off) const;
  /* Recomputes m_span from size and geometry. */
  void set_span();
  uint32_t dist(uint32_t from, uint32_t to) const { return m_size ? mod(to + m_size - from, m_size) : 0; }
  /* x % n (n > 0), without a division when x < 2n, as it nearly always is here. */
  static uint32_t mod(uint32_t x, uint32_t n) { return x < n ? x : x - n < n ? x - n : x % n; }

  struct Cached {
    uint32_t idx;
    DmaDesc d;
  };
  uint64_t m_base = 0;
  uint32_t m_size = 0;
  uint64_t m_span = 0; /* (size - 1) * spacing + desc_bytes, 0 with size 0 */
  uint32_t m_spacing = 16;
  uint32_t m_spacing_shift = 4; /* log2(m_spacing) if a power of two, else 32 (divide) */
  uint32_t m_desc_bytes = 16;
  uint32_t m_head = 0;
  uint32_t m_tail = 0;
  uint32_t m_fetch = 0;
  uint32_t m_fetching = 0; /* descriptors being read from the fetch index on */
  uint32_t m_gen = 0;
  bool m_halted = false;
  uint32_t m_prefetch_thresh = 0;
  uint64_t m_occ_integral = 0; /* descriptor x ps up to m_occ_last_ps */
  uint64_t m_occ_last_ps = 0;
  uint32_t m_occ_max = 0;
  std::vector<Cached> m_cache; /* ring of cache_entries */
  uint32_t m_cache_first = 0;
  uint32_t m_cache_count = 0;
  TraceWriter *m_trace = nullptr;
  std::string m_trace_name;
  int64_t m_traced = -1; /* owned() last written (-1: none yet) */
  WaitedEvent m_fetch_kick;
  WaitedEvent m_desc_ready;
  sc_core::sc_event m_desc_ready_nb; /* for next_trigger_desc_ready */
  bool m_desc_ready_nb_wait = false;
};

}  // namespace nicsim
#endif
