/*
 * latency_hist.h: a fixed-size log-linear histogram of latencies in ps (128
 * sub-buckets per power of two, exact below 256 ps), for mean and
 * percentiles without any allocation per sample.
 */
#ifndef NICSIM_MODELS_PCIE_LATENCY_HIST_H
#define NICSIM_MODELS_PCIE_LATENCY_HIST_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace nicsim {

/* Counts of latencies; relative bucket width at most 1/128. */
class LatencyHist {
 public:
  static constexpr int kSubBits = 7;
  static constexpr size_t kBuckets = (64 - kSubBits) * (1u << kSubBits) + (1u << kSubBits);

  /* Adds one sample of v ps. */
  void add(uint64_t v_ps);
  /* Samples added. */
  uint64_t count() const { return m_count; }
  /* Sum of the samples, ps. */
  double sum_ps() const { return m_sum; }
  /* Mean of the samples added since `earlier` (a copy of this histogram taken before), ps; 0 if none. */
  double mean_ps_since(const LatencyHist &earlier) const;
  /* The q-quantile (0 < q <= 1) of the samples added since `earlier`, ps: the
   * midpoint of the bucket holding the ceil(q*n)-th smallest sample; 0 if none. */
  double quantile_ps_since(const LatencyHist &earlier, double q) const;

  /* Bucket index of v (exposed for tests). */
  static size_t bucket(uint64_t v);
  /* Smallest value in bucket i. */
  static uint64_t bucket_low(size_t i);
  /* Number of values in bucket i. */
  static uint64_t bucket_width(size_t i);

 private:
  std::array<uint64_t, kBuckets> m_n{};
  uint64_t m_count = 0;
  double m_sum = 0;
};

}  // namespace nicsim
#endif
