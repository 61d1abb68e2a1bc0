// latency_hist.cpp: log-linear bucketing and quantiles of LatencyHist.
#include "pcie/latency_hist.h"

#include <cmath>

namespace nicsim {

size_t LatencyHist::bucket(uint64_t v) {
  constexpr uint64_t kExact = 2u << kSubBits; /* 256: below this, one bucket per value */
  if (v < kExact) return static_cast<size_t>(v);
  const int msb = 63 - __builtin_clzll(v);
  const int shift = msb - kSubBits;
  return static_cast<size_t>(shift) * (1u << kSubBits) + static_cast<size_t>(v >> shift);
}

uint64_t LatencyHist::bucket_low(size_t i) {
  constexpr size_t kExact = 2u << kSubBits;
  if (i < kExact) return i;
  const size_t shift = i / (1u << kSubBits) - 1;
  const uint64_t mant = i - shift * (1u << kSubBits);
  return mant << shift;
}

uint64_t LatencyHist::bucket_width(size_t i) {
  constexpr size_t kExact = 2u << kSubBits;
  if (i < kExact) return 1;
  return 1ull << (i / (1u << kSubBits) - 1);
}

void LatencyHist::add(uint64_t v_ps) {
  m_n[bucket(v_ps)]++;
  m_count++;
  m_sum += static_cast<double>(v_ps);
}

double LatencyHist::mean_ps_since(const LatencyHist &e) const {
  const uint64_t n = m_count - e.m_count;
  return n ? (m_sum - e.m_sum) / static_cast<double>(n) : 0.0;
}

double LatencyHist::quantile_ps_since(const LatencyHist &e, double q) const {
  const uint64_t n = m_count - e.m_count;
  if (!n) return 0.0;
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(n)));
  if (rank < 1) rank = 1;
  if (rank > n) rank = n;
  uint64_t cum = 0;
  for (size_t i = 0; i < kBuckets; i++) {
    cum += m_n[i] - e.m_n[i];
    if (cum >= rank)
      return static_cast<double>(bucket_low(i)) + static_cast<double>(bucket_width(i) - 1) / 2.0;
  }
  return 0.0;
}

}  // namespace nicsim
