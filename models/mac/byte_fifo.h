/* byte_fifo.h: a frame FIFO over byte-accounted ring storage, as a MAC's RX
 * or TX packet buffer: space is counted in bytes, storage is preallocated. */
#ifndef NICSIM_MODELS_MAC_BYTE_FIFO_H
#define NICSIM_MODELS_MAC_BYTE_FIFO_H

#include <cstdint>
#include <vector>

namespace nicsim {

/*
 * ByteFifo holds whole frames in a ring of `capacity` bytes. Every frame is
 * stored contiguously (the storage has `max_frame` bytes of slack past the
 * ring end, so a frame that wraps logically stays contiguous physically),
 * which lets a DMA transfer or a checker use one pointer per frame.
 *
 * Writer side: append() grows the open frame chunk by chunk, close_frame()
 * ends it, publish_frame() makes the oldest closed frame visible to the
 * reader. A frame is visible only once published, so a writer can close
 * several frames whose bytes are still being filled (pipelined DMA reads)
 * and publish them in order. Reader side: front(), pop().
 * No allocation after construction.
 */
class ByteFifo {
 public:
  /* capacity: ring size in bytes; max_frame: largest frame in bytes;
   * min_frame: smallest frame in bytes (sizes the frame table). */
  ByteFifo(uint32_t capacity, uint32_t max_frame, uint32_t min_frame);

  /* Ring size in bytes. */
  uint32_t capacity() const { return m_capacity; }
  /* Largest frame in bytes. */
  uint32_t max_frame() const { return m_max_frame; }
  /* Bytes held: published, closed and open frames. */
  uint32_t used_bytes() const { return m_used + m_open_len; }
  /* Bytes still free. */
  uint32_t free_bytes() const { return m_capacity - used_bytes(); }
  /* True if append(len) would succeed now. */
  bool can_append(uint32_t len) const;

  /* Extends the open frame by len bytes; returns where to write them, or
   * nullptr if the ring, the frame table or the frame size limit is full. */
  uint8_t *append(uint32_t len);
  /* Ends the open frame (it must hold at least one byte). */
  void close_frame();
  /* Discards the open frame's bytes. */
  void abort_frame();
  /* Makes the oldest closed, unpublished frame visible to the reader. */
  void publish_frame();

  /* Frames visible to the reader. */
  uint32_t frames() const { return m_published; }
  /* Frames held, visible or not (the open frame excluded). */
  uint32_t frames_held() const { return m_count; }
  /* Closed frames not yet published. */
  uint32_t frames_unpublished() const { return m_count - m_published; }
  /* The oldest visible frame: its bytes; *len gets its length in bytes. */
  const uint8_t *front(uint32_t *len) const;
  /* Removes the oldest visible frame and frees its bytes (calls the pop
   * hook first). */
  void pop();
  /* fn(ctx) runs at the start of every pop(), before the frame leaves
   * (the MAC: a deferred RX sender catches up); nullptr: none. */
  void set_pop_hook(void (*fn)(void *), void *ctx) {
    m_pop_hook = fn;
    m_pop_ctx = ctx;
  }

 private:
  struct Entry {
    uint32_t off; /* start in the storage, < capacity */
    uint32_t len; /* bytes */
  };
  uint32_t m_capacity;
  uint32_t m_max_frame;
  std::vector<uint8_t> m_storage; /* capacity + max_frame bytes */
  std::vector<Entry> m_entries;   /* frame table ring */
  uint32_t m_used = 0;            /* bytes of closed frames */
  uint32_t m_open_off = 0;        /* storage offset where the open frame starts */
  uint32_t m_open_len = 0;        /* bytes in the open frame */
  uint32_t m_first = 0;           /* frame table index of the oldest frame */
  uint32_t m_count = 0;           /* closed frames held */
  uint32_t m_published = 0;       /* of which visible */
  void (*m_pop_hook)(void *) = nullptr;
  void *m_pop_ctx = nullptr;
};

}  // namespace nicsim
#endif
