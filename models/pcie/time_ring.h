/*
 * time_ring.h: a FIFO of simulated times (ps) that never decrease, on a
 * growable ring, so no heap allocation happens per packet once it has grown.
 * Items are appended in time order, or inserted at their place in it.
 */
#ifndef NICSIM_MODELS_PCIE_TIME_RING_H
#define NICSIM_MODELS_PCIE_TIME_RING_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace nicsim {

/* A FIFO of items ordered by a non-decreasing time; T needs a member at_ps. */
template <class T>
class TimeRing {
 public:
  /* A ring with room for initial items before it first grows. */
  explicit TimeRing(size_t initial = 64) : m_v(initial ? initial : 1) {}

  /* Appends x; its at_ps must not be before the last item's. */
  void push(const T &x) {
    if (m_n && x.at_ps < back().at_ps) throw std::logic_error("TimeRing: times must not decrease");
    if (m_n == m_v.size()) grow();
    m_v[(m_head + m_n) % m_v.size()] = x;
    m_n++;
  }
  /* Inserts x at its place in time order, after the items of the same time
   * (for items that come nearly in order: it shifts the later ones back). */
  void insert(const T &x) {
    if (m_n == m_v.size()) grow();
    size_t i = m_n++;
    for (; i > 0 && at(i - 1).at_ps > x.at_ps; i--) slot(i) = at(i - 1);
    slot(i) = x;
  }
  /* True if nothing is queued. */
  bool empty() const { return m_n == 0; }
  /* Items queued. */
  size_t size() const { return m_n; }
  /* The earliest item; the ring must not be empty. */
  const T &front() const { return m_v[m_head]; }
  /* The latest item; the ring must not be empty. */
  const T &back() const { return m_v[(m_head + m_n - 1) % m_v.size()]; }
  /* The i-th item from the front (i < size()). */
  const T &at(size_t i) const { return m_v[(m_head + i) % m_v.size()]; }
  /* Drops the earliest item. */
  void pop() {
    if (!m_n) throw std::logic_error("TimeRing: pop from empty ring");
    m_head = (m_head + 1) % m_v.size();
    m_n--;
  }

 private:
  void grow() {
    std::vector<T> v(m_v.size() * 2);
    for (size_t i = 0; i < m_n; i++) v[i] = at(i);
    m_v.swap(v);
    m_head = 0;
  }
  T &slot(size_t i) { return m_v[(m_head + i) % m_v.size()]; }
  std::vector<T> m_v;
  size_t m_head = 0;
  size_t m_n = 0;
};

/* A bare time, for TimeRing<TimeStamp>. */
struct TimeStamp {
  uint64_t at_ps = 0;
};

}  // namespace nicsim
#endif
