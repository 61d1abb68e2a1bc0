// test_i40e_xdp_sim.cpp: driver.xdp on whole simulations of i40e (one queue
// pair on one x86 core, coherent, PCIe Gen3 x8, 64 B frames at the 40 GbE
// line rate, 59.5 Mpps, more than the core takes either way): drop skips
// the stack, so the driver handles far more frames per second than with
// pass; tx sends every frame back to the wire from the queue pair's XDP
// ring (device TX queue 1), where the peer counts exactly xdp.tx frames,
// with one XDP tail write per poll, not per frame; every run conserves
// frames (received + XDP + dropped = sent). Each run in a child process.
#include <gtest/gtest.h>

#include <cstdio>
#include <initializer_list>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim/sim_run_util.h"

namespace {

using nicsim::test::checked_config;
using nicsim::test::expect_conservation;
using nicsim::test::metric;
using nicsim::test::run_in_child;

constexpr double kWindowS = (2000 - 500) * 1e-6;  // run.duration_us - run.warmup_us

nicsim_results run64(std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(
      checked_config({"nic.family=i40e", "driver.name=i40e", "nic.line_rate_gbps=40", "nic.desc_spacing=32",
                      "pcie.gen=3", "pcie.lanes=8", "traffic.mode=rx", "traffic.frame_bytes=64",
                      "run.duration_us=2000", "run.warmup_us=500", "run.drain_us=1000"},
                     sets),
      &r));
  return r;
}

/* Frames the driver took off the ring and finished with in the window, per second. */
double handled_mpps(const nicsim_results &r) { return nicsim::test::xdp_handled_mpps(r, kWindowS); }

}  // namespace

TEST(I40eXdpSim, DropHandlesFarMoreFramesThanPass) {
  /* drop: the buffers are reused in place; the core cannot run the stack at 59.5 Mpps */
  nicsim::test::expect_xdp_drop_beats_pass(run64({"driver.xdp=pass"}), run64({"driver.xdp=drop"}), kWindowS);
}

TEST(I40eXdpSim, TxReturnsEveryFrameToTheWireFromTheXdpRing) {
  const nicsim_results tx = run64({"driver.xdp=tx"});
  expect_conservation(tx);
  std::printf("i40e 64 B XDP_TX: %.3f Mpps sent back, %.0f ring-full drops, %.0f NIC drops, %.0f MMIO writes\n",
              handled_mpps(tx), metric(tx, "xdp.tx_errors"), metric(tx, "rx.drops"), metric(tx, "cpu.mmio_writes"));
  EXPECT_GT(metric(tx, "xdp.tx"), 0);
  EXPECT_EQ(metric(tx, "rx.pkts"), 0);
  /* the peer received exactly the frames XDP_TX put on the XDP ring (whole run) */
  EXPECT_EQ(metric(tx, "total.tx.received"), metric(tx, "total.tx.xdp"));
  EXPECT_EQ(metric(tx, "total.tx.sent"), 0);
  /* they left through TX queue 1, the XDP ring; the stack's queue 0 stayed idle */
  EXPECT_GT(metric(tx, "nic.txq1.pkts"), 0);
  EXPECT_EQ(metric(tx, "nic.txq0.pkts"), 0);
  EXPECT_GT(metric(tx, "cpu.profile.i40e_xmit_xdp_ring"), 0);
  /* i40e_finalize_xdp_rx: one XDP tail write per poll; with per-frame
   * doorbells the MMIO writes would be at least xdp.tx */
  EXPECT_LT(metric(tx, "cpu.mmio_writes"), 0.5 * metric(tx, "xdp.tx"));
}
