// test_host_e2e.cpp: whole runs (generic NIC and driver) checked against the
// host model's known counts: one misaligned memcpy per RX frame in its own
// profile bucket, per-line maintenance on a non-coherent platform, descriptor
// misses with and without DDIO, and cpu.ns_per_gb as inclusive time per GB of a direction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

constexpr double kFrame = 1518;       /* traffic.frame_bytes below */
constexpr double kCopy = kFrame - 4;  /* the driver copies the frame without FCS */

/* 1518 B RX on the default platform, plus "key=value" overrides, checked. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"traffic.mode=rx", "traffic.frame_bytes=1518", "run.duration_us=700",
                                       "run.warmup_us=100", "run.drain_us=1000"},
                                      sets);
}

double metric_or0(const nicsim_results &r, const char *name) {
  double v = 0;
  return nicsim_results_get(&r, name, &v) ? v : 0;
}

TEST(HostE2e, EveryRxFrameIsOneMisalignedMemcpyInTheMemcpyBucket) {
  /* rx.pkts counts frames by when they were sent, memcpy bytes by when they
   * were copied. Paced at 1 Gbit/s (a 1518 B frame every 12.3 us) with an
   * interrupt per frame, each frame is copied before the next is sent, so
   * the two windows differ by at most the one frame at the window's end. */
  const nicsim_config cfg = make_cfg({"cpu.memcpy_misaligned_cycles_per_byte=0.5",
                                      "traffic.rate_gbps=1", "nic.irq_coal_frames=1",
                                      "run.duration_us=1500"});
  nicsim_results r;
  run_ok(cfg, &r);
  const double pkts = metric(r, "rx.pkts");
  ASSERT_GT(pkts, 100); /* 1.4 ms of window at 81 kframes/s: ~114 frames */
  /* skb->data & 7 == 2, the page-pool buffer is line-aligned: every copy is misaligned. */
  EXPECT_EQ(metric(r, "cpu.memcpy_bytes.aligned"), 0);
  const double copies = metric(r, "cpu.memcpy_bytes.misaligned") / kCopy;
  EXPECT_EQ(copies, std::floor(copies)) << "whole frames only";
  EXPECT_NEAR(copies, pkts, 1.0); /* the frame at the window's end */
  /* The memcpy bucket's self cycles are those copies at the configured rate. */
  const double per_copy = cfg.cpu.memcpy_call_cycles + kCopy * 0.5;
  const double memcpy_cycles = metric(r, "cpu.profile.memcpy") * metric(r, "cpu.busy_cycles");
  EXPECT_NEAR(memcpy_cycles, copies * per_copy, per_copy);
  /* ... and still count as RX work per packet. */
  EXPECT_GT(metric(r, "cpu.cycles_per_rx_pkt"),
            (cfg.stack.ip_rcv_instructions + cfg.stack.udp_rcv_instructions) / cfg.cpu.kernel_ipc + per_copy);
  EXPECT_EQ(metric(r, "cpu.cache_maint_lines"), 0) << "coherent platform";
}

TEST(HostE2e, NsPerGbIsInclusiveTimePerGbOfTheFunctionsDirection) {
  const nicsim_config cfg = make_cfg({"cpu.clock_mhz=2500", "traffic.rate_gbps=3"});
  nicsim_results r;
  run_ok(cfg, &r);
  const double gb = metric(r, "rx.pkts") * kFrame / 1e9; /* RX only: tx.pkts is 0 */
  EXPECT_EQ(metric(r, "tx.pkts"), 0);
  const double busy_ns = metric(r, "cpu.busy_cycles") / 2.5;
  /* memcpy is a leaf: inclusive = self. cpu.busy_cycles is rounded to a whole
   * cycle: relative tolerance. */
  const double want = metric(r, "cpu.profile.memcpy") * metric(r, "cpu.busy_cycles") / 2.5 / gb;
  EXPECT_NEAR(metric(r, "cpu.ns_per_gb.memcpy"), want, want * 1e-6);
  /* generic_rx copies each frame and hands it up (napi_gro_receive) inside itself,
   * and generic_poll calls generic_rx: inclusive times nest. */
  const double rx = metric(r, "cpu.ns_per_gb.generic_rx");
  EXPECT_GT(rx, metric(r, "cpu.ns_per_gb.memcpy") + metric(r, "cpu.ns_per_gb.napi_gro_receive"));
  EXPECT_GE(metric(r, "cpu.ns_per_gb.generic_poll"), rx);
  EXPECT_LE(metric(r, "cpu.ns_per_gb.generic_poll") * gb, busy_ns);
  /* The copy to user space is charged after the poll, outside the driver:
   * stack_rx_cycles_per_byte per delivered byte (frame without FCS); ip_rcv
   * keeps its instructions per packet at cpu.kernel_ipc (its header lines
   * were read by GRO: no miss). The window counts frames by send time while
   * the CPU works on them a coalescing batch later, so each figure alone is
   * off by the batch at the window's edges (~5% in this short window);
   * their ratio is not. */
  const double user = metric(r, "cpu.ns_per_gb.copy_to_user");
  const double ip = metric(r, "cpu.profile.ip_rcv") * metric(r, "cpu.busy_cycles") / 2.5 / gb;
  const double want_ratio =
      cfg.cpu.stack_rx_cycles_per_byte * kCopy / (cfg.stack.ip_rcv_instructions / cfg.cpu.kernel_ipc);
  EXPECT_NEAR(user / ip, want_ratio, 0.005 * want_ratio);
  const double user_ns_per_gb = cfg.cpu.stack_rx_cycles_per_byte * (kCopy / kFrame) * 1e9 / 2.5;
  EXPECT_NEAR(user, user_ns_per_gb, 0.1 * user_ns_per_gb);
  /* Not saturated: NAPI completes and interrupts come; the core takes each
   * one the NIC raised (no MSI latency by default), give or take a window edge. */
  EXPECT_GT(metric(r, "cpu.irqs"), 0);
  EXPECT_NEAR(metric(r, "cpu.irqs"), metric(r, "irq.count"), 1.0);
}

TEST(HostE2e, NonCoherentPlatformInvalidatesEachRxBufferLineAndReadsDescriptorsUncached) {
  /* Probe maps 511 RX buffers of 2 KiB (32 lines each, invalidated): about
   * 250 us of the core at 2 GHz; the window starts after it. */
  const nicsim_config cfg = make_cfg({"memory.coherent_dma=false", "cpu.cache_maint_cycles_per_line=30",
                                      "run.warmup_us=500", "run.duration_us=1100"});
  nicsim_results r;
  run_ok(cfg, &r);
  const double copies = metric(r, "cpu.memcpy_bytes.misaligned") / kCopy;
  ASSERT_GT(copies, 100);
  /* dma_sync_single_for_cpu(len 1514) of a line-aligned buffer: 24 lines per frame. */
  const double lines_per_frame = std::ceil(kCopy / 64);
  EXPECT_NEAR(metric(r, "cpu.cache_maint_lines"), copies * lines_per_frame, lines_per_frame);
  EXPECT_NEAR(metric(r, "cpu.profile.cache_maint") * metric(r, "cpu.busy_cycles"),
              metric(r, "cpu.cache_maint_lines") * 30, lines_per_frame * 30);
  /* Descriptors live in dma_alloc_coherent memory, uncached here: at least
   * the flags and length of each received descriptor are uncached loads. */
  EXPECT_GE(metric(r, "cpu.uncached_loads"), 2 * (copies - 1));
  EXPECT_EQ(metric(r, "cpu.cache_misses"), 0) << "nothing cacheable is loaded through the ops";
  EXPECT_EQ(metric_or0(r, "cpu.profile.generic_probe"), 0) << "the probe ended before the window";
}

/* Packed descriptors (four per line) with or without DDIO, at 5 Gbit/s: a
 * rate the core keeps up with, so the frames of the window (rx.pkts) are
 * also polled in it, where cpu.cache_misses is counted (at line rate the
 * stack by its parts saturates the default core, and part of the window's
 * frames are polled in the drain). */
nicsim_config ddio_cfg(bool ddio) {
  return make_cfg({ddio ? "memory.ddio=true" : "memory.ddio=false", "nic.desc_spacing=16", "traffic.rate_gbps=5"});
}

TEST(HostE2e, WithoutDdioEachWrittenBackDescriptorLineMisses) {
  const nicsim_config cfg = ddio_cfg(false);
  nicsim_results r;
  run_ok(cfg, &r);
  const double pkts = metric(r, "rx.pkts");
  ASSERT_GT(pkts, 100); /* 0.6 ms of window at 406 kframes/s: ~247 frames */
  /* Four 16 B descriptors per 64 B line; the device's write-back invalidates
   * the line before the CPU can see the status, so each line misses at least
   * once per pass. */
  EXPECT_GE(metric(r, "cpu.cache_misses"), std::floor(pkts / 4) - 1);
  EXPECT_EQ(metric_or0(r, "cpu.profile.cache_maint"), 0);
}

TEST(HostE2e, DdioTurnsDescriptorMissesIntoLlcHits) {
  const nicsim_config cfg = ddio_cfg(true);
  nicsim_results r;
  run_ok(cfg, &r);
  const double pkts = metric(r, "rx.pkts");
  ASSERT_GT(pkts, 100); /* 0.6 ms of window at 406 kframes/s: ~247 frames */
  /* Write-backs now allocate the line: fewer misses than the no-DDIO bound. */
  EXPECT_LT(metric(r, "cpu.cache_misses"), std::floor(pkts / 4) - 1);
}

TEST(HostE2e, InterruptLatencyIncludesTheControllerLatency) {
  const nicsim_config cfg = make_cfg({"traffic.rate_gbps=2", "cpu.msi_latency_ns=500"});
  nicsim_results r;
  run_ok(cfg, &r);
  ASSERT_GT(metric(r, "cpu.irqs"), 5);
  /* Every interrupt waits at least the controller's 500 ns; a core that is
   * lightly loaded takes it at once after that (well under one poll's work). */
  EXPECT_GE(metric(r, "irq.latency_ns"), 500.0);
  EXPECT_LT(metric(r, "irq.latency_ns"), 500.0 + 5000.0);
  EXPECT_GE(metric(r, "irq.latency_ns_max"), metric(r, "irq.latency_ns"));
}

}  // namespace
