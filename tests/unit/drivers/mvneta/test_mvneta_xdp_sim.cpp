// test_mvneta_xdp_sim.cpp: driver.xdp on whole simulations of mvneta (one
// x86 core, non-coherent, 64 B frames at the line rate of a 10 GbE wire,
// 14.88 Mpps, more than the core can take either way; at 1 GbE a drop run
// is capped by the wire): drop skips the stack, so the driver handles far
// more frames per second than with pass; tx sends every frame it sees
// back to the wire, where the peer counts exactly xdp.tx frames; every run
// conserves frames (received + XDP + dropped = sent). Each run in a child process.
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

nicsim_results run64(std::initializer_list<const char *> sets) {
  nicsim_results r;
  EXPECT_TRUE(run_in_child(
      checked_config({"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32", "nic.line_rate_gbps=10",
                      "memory.coherent_dma=false", "traffic.mode=rx", "traffic.frame_bytes=64",
                      "driver.rx_sync=used", "nic.rx_ring_size=128", "nic.tx_ring_size=532",
                      "run.duration_us=2000", "run.warmup_us=500", "run.drain_us=1000"},
                     sets),
      &r));
  return r;
}

/* Frames the driver took off the ring and finished with in the window, per second. */
constexpr double kWindowS = (2000 - 500) * 1e-6; /* run.duration_us - run.warmup_us */

double handled_mpps(const nicsim_results &r) { return nicsim::test::xdp_handled_mpps(r, kWindowS); }

}  // namespace

TEST(MvnetaXdpSim, DropHandlesFarMoreFramesThanPass) {
  /* the core cannot run the stack at 14.88 Mpps (xdp.pass = frames delivered) */
  nicsim::test::expect_xdp_drop_beats_pass(run64({"driver.xdp=pass"}), run64({"driver.xdp=drop"}), kWindowS);
}

TEST(MvnetaXdpSim, TxReturnsEveryFrameToTheWire) {
  const nicsim_results tx = run64({"driver.xdp=tx"});
  expect_conservation(tx);
  std::printf("mvneta 64 B XDP_TX: %.3f Mpps sent back, %.0f ring-full drops, %.0f NIC drops\n", handled_mpps(tx),
              metric(tx, "xdp.tx_errors"), metric(tx, "rx.drops"));
  EXPECT_GT(metric(tx, "xdp.tx"), 0);
  EXPECT_EQ(metric(tx, "rx.pkts"), 0);
  /* the peer received exactly the frames XDP_TX put on the ring (whole run) */
  EXPECT_EQ(metric(tx, "total.tx.received"), metric(tx, "total.tx.xdp"));
  EXPECT_EQ(metric(tx, "total.tx.sent"), 0);
  EXPECT_GT(metric(tx, "cpu.profile.mvneta_xdp_submit_frame"), 0);
}
