// test_i40e_sim.cpp: whole simulations of the i40e driver on its NIC family
// (40 GbE, PCIe Gen3 x8, 1518 B RX frames at line rate): conservation, and the
// relaxed-ordering seed (../shared/seeds 004): on a root complex that
// serialises posted writes, RX buffers mapped with DMA_ATTR_WEAK_ORDERING get
// RO TLPs and pipeline; without it each cache line waits for the previous one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "sim/sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::metric;
using nicsim::test::run_in_child;
using nicsim::test::run_ok;

constexpr double kCommitNs = 200;  // pcie.rc_write_commit_ns below

// The i40e NIC on an x86-like Gen3 x8 host, 40 GbE RX at line rate; rc_serialize
// and weak_ordering select the case.
nicsim_config i40e_config(bool rc_serialize, bool weak_ordering) {
  return checked_config({"nic.family=i40e", "driver.name=i40e", "nic.line_rate_gbps=40", "nic.desc_spacing=32",
                         "nic.rx_fifo_bytes=262144", "pcie.gen=3", "pcie.lanes=8", "pcie.rc_write_commit_ns=200",
                         "traffic.mode=rx", "traffic.frame_bytes=1518", "run.warmup_us=200", "run.duration_us=1000"},
                        {rc_serialize ? "pcie.rc_serialize_writes=true" : "pcie.rc_serialize_writes=false",
                         weak_ordering ? "driver.dma_weak_ordering=true" : "driver.dma_weak_ordering=false"});
}

}  // namespace

// Every frame the wire sent was received intact or counted as dropped; the
// kernel check (rings, buffers, skbs after remove) passed (run_ok).
TEST(I40eSim, RxConservesFramesAndBuffers) {
  static nicsim_results r;
  run_ok(i40e_config(false, true), &r);
  const double sent = metric(r, "total.rx.sent"), got = metric(r, "total.rx.received");
  EXPECT_GT(got, 0);
  EXPECT_EQ(sent, got + metric(r, "total.rx.dropped"));
  EXPECT_GT(metric(r, "rx.gbps"), 5.0) << "frames flow";
}

// Serialising root complex: without RO every 64 B line of a posted write
// commits after the previous one, so each frame costs ceil(1514 / 64) = 24
// data lines + 1 line of descriptor write-back = 25 commits: 1 / (25 x 200 ns)
// = 0.2 Mpkt/s. With RO the data lines pipeline and the rate is set by the
// rest of the system (here the CPU), several times higher.
TEST(I40eSim, WeakOrderingLiftsASerialisingRootComplex) {
  static nicsim_results ro, strict;
  ASSERT_TRUE(run_in_child(i40e_config(true, true), &ro));
  ASSERT_TRUE(run_in_child(i40e_config(true, false), &strict));
  const double ro_gbps = metric(ro, "rx.gbps"), strict_gbps = metric(strict, "rx.gbps");
  EXPECT_GT(ro_gbps, 3.0 * strict_gbps) << ro_gbps << " vs " << strict_gbps;
  const double predicted_mpps = 1.0 / ((std::ceil(1514.0 / 64) + 1) * kCommitNs / 1000.0);
  EXPECT_NEAR(metric(strict, "rx.mpps"), predicted_mpps, 0.03 * predicted_mpps);
  // The mechanism: RO TLPs appear exactly when the buffers are weakly ordered.
  EXPECT_EQ(metric(strict, "pcie.up.ro_tlps"), 0);
  EXPECT_GT(metric(ro, "pcie.up.ro_tlps"), 0);
  // Data TLPs (1514 B at MPS 256: 6 each) carry RO; descriptor write-backs and MSIs do not.
  EXPECT_LT(metric(ro, "pcie.up.ro_tlps"), metric(ro, "pcie.up.tlps"));
  EXPECT_EQ(metric(ro, "total.rx.sent"), metric(ro, "total.rx.received") + metric(ro, "total.rx.dropped"));
  EXPECT_EQ(metric(strict, "total.rx.sent"),
            metric(strict, "total.rx.received") + metric(strict, "total.rx.dropped"));
}

// A root complex that does not serialise (x86): RO changes nothing but the attribute.
TEST(I40eSim, WeakOrderingChangesNothingWithoutSerialisation) {
  static nicsim_results ro, strict;
  ASSERT_TRUE(run_in_child(i40e_config(false, true), &ro));
  ASSERT_TRUE(run_in_child(i40e_config(false, false), &strict));
  const double a = metric(ro, "rx.gbps"), b = metric(strict, "rx.gbps");
  EXPECT_NEAR(a, b, 0.05 * b);
  EXPECT_GT(metric(ro, "pcie.up.ro_tlps"), 0);
  EXPECT_EQ(metric(strict, "pcie.up.ro_tlps"), 0);
  EXPECT_EQ(metric(ro, "cpu.busy_cycles"), metric(strict, "cpu.busy_cycles")) << "the CPU does the same work";
}

// An API caller that skips nk_driver_check_config (the CLI's) still gets the
// driver's rule from nicsim_simulate, as a failed probe with its hint.
TEST(I40eSim, ADriverRuleTheConfigCheckerPassesFailsTheProbe) {
  nicsim_config c = checked_config({"nic.family=i40e", "driver.name=i40e", "nic.line_rate_gbps=40"},
                                   {"driver.rx_buf_bytes=2000"});
  nicsim_results r;
  nicsim_sim_error err;
  EXPECT_EQ(nicsim_simulate(&c, &r, &err, 0), 1);
  EXPECT_STREQ(err.component, "top.cpu");
  EXPECT_NE(std::strstr(err.msg, "driver probe failed: i40e: driver.rx_buf_bytes = 2000 is not a receive buffer size"),
            nullptr)
      << err.msg;
  EXPECT_NE(std::strstr(err.msg, "(use a multiple of 128 of at most 16256, e.g. 1920 or 2048)"), nullptr) << err.msg;
}
