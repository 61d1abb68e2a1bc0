// test_rc_uncore.cpp: the x86 root complex's mechanisms through whole
// dma-bench runs on the x86-gen3 platform (the Broadwell Xeon E5-2630 v4 of
// pcie-bench): completion pacing against pcie-bench's measured 64 B and
// 2 KiB DMA read latencies, cold (LLC-missing) reads, partial-cache-line
// writes, the PCH/DMI hop and the dma-bench access patterns.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "config/config.h"
#include "pcie/pcie_params.h"
#include "pcie/tlp_format.h"
#include "results/metrics.h"
#include "sim/model_params.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

/* pcie-bench (Neugebauer et al., SIGCOMM 2018), data directory
 * nfp6000-1.2GHz_bdw-Xeon-E5-2630v4, lat_dma_sizes.txt: median DMA read
 * latency, sequential, host-warm, 8 KiB window. The measurement, not a model
 * figure: the model's own prediction is computed from its parameters. */
constexpr double kPcieBench64B = 546.0;
constexpr double kPcieBench2KiB = 1133.0;

/* The x86-gen3 platform as a dma-bench scenario, with overrides. */
nicsim_config x86_bench(const std::vector<std::string> &sets) {
  const std::string text =
      "name: rc-test\nplatform: x86-gen3\n"
      "workload: {kind: dma-bench, op: read, size_bytes: 64, outstanding: 1, window_bytes: 8192}\n"
      "run: {duration_us: 60, warmup_us: 10, drain_us: 20}\n";
  nc_scenario *s = nullptr;
  nc_error e;
  nicsim_config c;
  EXPECT_EQ(nc_scenario_load_string("rc-test.yaml", text.c_str(), &s, &e), 0) << e.msg;
  std::vector<const char *> v;
  for (const std::string &x : sets) v.push_back(x.c_str());
  EXPECT_EQ(nc_scenario_resolve(s, -1, v.data(), v.size(), &c, &e), 0) << e.msg;
  nc_scenario_free(s);
  return c;
}

double ns(uint64_t ps) { return static_cast<double>(ps) / 1000.0; }

/* One read of `size` bytes alone on the link, from the model's parameters:
 * MRd(s) up, the root complex (plus a cold miss), the completions paced one
 * line per rc_cpl_ns_per_line from the first MRd's answer, the last CplD
 * serialised, back down. MRRS-split MRds go back to back and are answered
 * while the producer is still busy with the first, so only the first one's
 * arrival counts. */
double predicted_read_ns(const nicsim_config &c, uint32_t size, bool cold) {
  const nicsim::PcieParams p = nicsim::pcie_params(c);
  const nicsim::TlpFormat f(p);
  const uint32_t last_cpl = size <= p.mps ? size : p.mps;
  const double mrd = ns(f.serialise_ps(f.wire_bytes(nicsim::TlpKind::MemRead, 0, 0)));
  const double cpl = ns(f.serialise_ps(f.wire_bytes(nicsim::TlpKind::Completion, 0, last_cpl)));
  const double lines = std::ceil(size / 64.0);
  return mrd + ns(p.latency_ps) + ns(p.rd_latency_ps) + 2 * ns(p.pch_hop_ps) + (cold ? ns(p.rc_cold_ps) : 0) +
         lines * ns(p.rc_cpl_line_ps) + cpl + ns(p.latency_ps);
}

}  // namespace

TEST(RootComplex, X86Gen3HasTheMechanismsOn) {
  const nicsim_config c = x86_bench({});
  EXPECT_GT(c.pcie.rc_cpl_ns_per_line, 0);
  EXPECT_GT(c.pcie.rc_partial_write_ns, 0);
  EXPECT_GT(c.pcie.rc_cold_read_ns, 0);
  EXPECT_EQ(c.pcie.pch_hop_ns, 0); /* a CPU root port */
}

TEST(RootComplex, Read64BMatchesPcieBenchFromTheParameters) {
  const nicsim_config c = x86_bench({"workload.size_bytes=64"});
  nicsim_results r;
  run_ok(c, &r);
  const double pred = predicted_read_ns(c, 64, false);
  const double got = metric(r, "dma.rd_latency_ns");
  EXPECT_NEAR(got, pred, 17.0); /* an SKP or a DLLP may be in the way */
  EXPECT_NEAR(got, kPcieBench64B, 0.10 * kPcieBench64B);
  EXPECT_EQ(metric(r, "pcie.rc.cold_reads"), 0);
}

TEST(RootComplex, Read2KiBMatchesPcieBenchBecauseCompletionsArePaced) {
  const nicsim_config c = x86_bench({"workload.size_bytes=2048"});
  nicsim_results r;
  run_ok(c, &r);
  const double pred = predicted_read_ns(c, 2048, false);
  const double got = metric(r, "dma.rd_latency_ns");
  EXPECT_NEAR(got, pred, 17.0);
  EXPECT_NEAR(got, kPcieBench2KiB, 0.10 * kPcieBench2KiB);
}

TEST(RootComplex, Read2KiBWithoutPacingIsAQuarterTooFast) {
  /* The mechanism off: completions leave at the link's rate, and the 2 KiB
   * read misses pcie-bench by far more than the 10 % the test above allows. */
  const nicsim_config c = x86_bench({"workload.size_bytes=2048", "pcie.rc_cpl_ns_per_line=0"});
  nicsim_results r;
  run_ok(c, &r);
  EXPECT_LT(metric(r, "dma.rd_latency_ns"), 0.85 * kPcieBench2KiB);
}

TEST(RootComplex, AColdReadPaysTheDramMissOncePerRequest) {
  const nicsim_config c = x86_bench({"workload.size_bytes=2048", "workload.host_cache=cold"});
  nicsim_results r;
  run_ok(c, &r);
  const double pred = predicted_read_ns(c, 2048, true);
  EXPECT_NEAR(metric(r, "dma.rd_latency_ns"), pred, 17.0);
  /* One cold charge per MRd (a 2 KiB read is 4 MRds of 512 B); only the
   * first one's is on the read's path, the producer being busy after it. */
  EXPECT_NEAR(metric(r, "pcie.rc.cold_reads"), metric(r, "pcie.up.tlps"), 4);
}

TEST(RootComplex, AWarmWindowLargerThanTheLlcIsCold) {
  const nicsim_config c = x86_bench({"workload.window_bytes=67108864", "memory.size_mb=80"});
  ASSERT_GT(c.memory.llc_mb, 0);
  nicsim_results r;
  run_ok(c, &r);
  EXPECT_NEAR(metric(r, "dma.rd_latency_ns"), predicted_read_ns(c, 64, true), 17.0);
  EXPECT_GT(metric(r, "pcie.rc.cold_reads"), 0);
}

TEST(RootComplex, PartialLineWritesAreCountedAndThrottleACreditLimitedDevice) {
  /* 16 B writes, each its own partial line; finite posted credits, so the
   * device is held to the root complex's merge rate: one per
   * rc_partial_write_ns (made large here to dominate). */
  const nicsim_config c = x86_bench({"workload.op=write", "workload.size_bytes=16", "workload.outstanding=8",
                                     "pcie.rc_partial_write_ns=100", "pcie.rc_ph_credits=8"});
  nicsim_results r;
  run_ok(c, &r);
  const double writes = metric(r, "pcie.up.tlps");
  EXPECT_NEAR(metric(r, "pcie.rc.partial_line_writes"), writes, 2);
  const double per_s = metric(r, "dma.gbps") * 1e9 / (16 * 8);
  EXPECT_NEAR(per_s, 1e9 / 100.0, 0.03 * 1e9 / 100.0);
}

TEST(RootComplex, FullLineWritesNeedNoMerge) {
  const nicsim_config c = x86_bench({"workload.op=write", "workload.size_bytes=64", "workload.outstanding=8",
                                     "pcie.rc_partial_write_ns=100", "pcie.rc_ph_credits=8"});
  nicsim_results r;
  run_ok(c, &r);
  EXPECT_EQ(metric(r, "pcie.rc.partial_line_writes"), 0);
  /* Held only by the credit round trip (8 credits over ~320 ns), not by merges. */
  EXPECT_GT(metric(r, "dma.gbps") * 1e9 / (64 * 8), 2 * 1e9 / 100.0);
}

TEST(RootComplex, ThePchHopAddsTwoCrossingsToARead) {
  const nicsim_config c = x86_bench({"workload.size_bytes=64", "pcie.pch_hop_ns=300"});
  nicsim_results r;
  run_ok(c, &r);
  const double pred = predicted_read_ns(c, 64, false);
  EXPECT_NEAR(metric(r, "dma.rd_latency_ns"), pred, 17.0);
  EXPECT_GT(pred, predicted_read_ns(x86_bench({"workload.size_bytes=64"}), 64, false) + 599.0);
}

TEST(DmaBenchPattern, PageStrideMissesTheIotlbOnEveryRequest) {
  /* 64 pages in the window against a 32-entry IOTLB: every request a new page. */
  const nicsim_config c = x86_bench({"workload.window_bytes=262144", "iommu.enabled=true",
                                     "iommu.iotlb_entries=32", "iommu.iotlb_ways=32",
                                     "workload.pattern=page_stride"});
  nicsim_results r;
  run_ok(c, &r);
  const double hits = metric(r, "iommu.iotlb_hits"), misses = metric(r, "iommu.iotlb_misses");
  EXPECT_GT(misses, 0);
  EXPECT_LT(hits, 0.05 * (hits + misses));
}

TEST(DmaBenchPattern, SequentialHitsTheIotlbWithinAPage) {
  const nicsim_config c = x86_bench({"workload.window_bytes=262144", "iommu.enabled=true",
                                     "iommu.iotlb_entries=32", "iommu.iotlb_ways=32", "workload.pattern=seq"});
  nicsim_results r;
  run_ok(c, &r);
  const double hits = metric(r, "iommu.iotlb_hits"), misses = metric(r, "iommu.iotlb_misses");
  /* One miss per 64 requests of 64 B (a 4 KiB page). */
  EXPECT_NEAR(misses / (hits + misses), 1.0 / 64, 0.01);
}

TEST(DmaBenchPattern, RandomSpreadsOverTheWindowAndIsDeterministic) {
  const nicsim_config c = x86_bench({"workload.window_bytes=262144", "iommu.enabled=true",
                                     "iommu.iotlb_entries=32", "iommu.iotlb_ways=32",
                                     "workload.pattern=random"});
  nicsim_results r;
  run_ok(c, &r);
  const double hits = metric(r, "iommu.iotlb_hits"), misses = metric(r, "iommu.iotlb_misses");
  /* A random page of 64 is in a 32-entry LRU IOTLB about half the time. */
  EXPECT_GT(misses / (hits + misses), 0.3);
  EXPECT_LT(misses / (hits + misses), 0.7);
}
