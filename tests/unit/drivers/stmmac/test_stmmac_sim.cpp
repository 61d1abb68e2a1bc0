// test_stmmac_sim.cpp: whole simulations with nic.family and driver.name
// stmmac at 1 GbE: RX, TX and bidirectional runs conserve frames; only
// rx_buf_offset 0 makes RX copies misaligned; coalescing (the patch's
// defaults) takes fewer interrupts per packet. Each TEST is its own process.
#include <gtest/gtest.h>

#include <initializer_list>

#include "sim/sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

// stmmac at 1 GbE, 1518 B frames, plus overrides.
nicsim_config stmmac_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"nic.family=stmmac", "driver.name=stmmac", "nic.line_rate_gbps=1",
                                       "traffic.frame_bytes=1518", "run.duration_us=2000", "run.warmup_us=200",
                                       "run.drain_us=3000"},
                                      sets);
}

// A run that must succeed (run_ok checks conservation and the driver's
// end-of-run check); returns its results.
nicsim_results run(const nicsim_config &cfg) {
  nicsim_results r;
  run_ok(cfg, &r);
  return r;
}

}  // namespace

TEST(StmmacSim, RxAtLineRateConservesFramesWithAlignedCopies) {
  nicsim_results r = run(stmmac_cfg({"traffic.mode=rx"}));
  EXPECT_GT(metric(r, "rx.pkts"), 100);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  EXPECT_GT(metric(r, "rx.gbps"), 0.9);
  EXPECT_GT(metric(r, "cpu.memcpy_bytes.aligned"), 0);
  EXPECT_EQ(metric(r, "cpu.memcpy_bytes.misaligned"), 0) << "rx_buf_offset 66 (default): every copy aligned";
}

TEST(StmmacSim, RxWithoutTheOffsetCopiesMisaligned) {
  nicsim_results r = run(stmmac_cfg({"traffic.mode=rx", "driver.rx_buf_offset=0"}));
  EXPECT_GT(metric(r, "rx.pkts"), 100);
  EXPECT_GT(metric(r, "cpu.memcpy_bytes.misaligned"), 0);
  EXPECT_EQ(metric(r, "cpu.memcpy_bytes.aligned"), 0);
}

TEST(StmmacSim, TxAtLineRateConservesFramesWithTheCoalescingTimer) {
  nicsim_results r = run(stmmac_cfg({"traffic.mode=tx"}));
  EXPECT_GT(metric(r, "tx.pkts"), 100);
  EXPECT_GT(metric(r, "tx.gbps"), 0.9);
  EXPECT_EQ(metric(r, "cpu.memcpy_bytes.misaligned"), 0);
}

TEST(StmmacSim, BidirConservesFramesNonCoherent) {
  nicsim_results r = run(stmmac_cfg({"traffic.mode=bidir", "memory.coherent_dma=false"}));
  EXPECT_GT(metric(r, "rx.pkts"), 100);
  EXPECT_GT(metric(r, "tx.pkts"), 100);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  EXPECT_GT(metric(r, "cpu.cache_maint_lines"), 0);
}

// Coalescing, bidirectional 1446 B frames (1400 B UDP payload) at line rate.
// Before the series: IOC on every RX descriptor and every TX frame, RIWT 16.
// After: no RX IOC (the watchdog, RIWT 160 = 164 us at 250 MHz), TX IOC on
// every 25th frame. One simulation per TEST (one per process).
static double irqs_per_pkt(std::initializer_list<const char *> coal) {
  nicsim_config cfg = stmmac_cfg({"traffic.mode=bidir", "traffic.frame_bytes=1446"});
  nc_error e;
  for (const char *c : coal) EXPECT_EQ(nc_config_set(&cfg, c, &e), 0) << c << ": " << e.msg;
  nicsim_results r = run(cfg);
  const double pkts = metric(r, "rx.pkts") + metric(r, "tx.pkts");
  EXPECT_GT(pkts, 200);
  EXPECT_EQ(metric(r, "rx.drops"), 0);
  return metric(r, "irq.count") / pkts;
}

TEST(StmmacSim, CoalescingBeforeThePatchInterruptsForEveryRxFrame) {
  // Every RX frame's descriptor has IOC: an interrupt per RX frame (a
  // frame's 12.3 us outlasts its handling); TX IOCs arriving while RX NAPI
  // has the interrupts masked fold into those. About 0.5 per packet.
  const double ipp = irqs_per_pkt({"driver.rx_coal_frames=25", "driver.tx_coal_frames=1", "driver.rx_riwt=16"});
  EXPECT_GT(ipp, 0.4);
}

TEST(StmmacSim, CoalescingAfterThePatchInterruptsOncePerWatchdogPeriod) {
  // The RX watchdog fires 164 us after the first un-notified frame: about
  // 13 frames each way per interrupt, plus a TX IOC every 25th frame.
  const double ipp = irqs_per_pkt({"driver.rx_coal_frames=0", "driver.tx_coal_frames=25", "driver.rx_riwt=160"});
  EXPECT_LT(ipp, 0.1);
}

// driver.page_pool false (v4.14 to v5.3) on non-coherent DMA at line rate:
// no frame is copied (each goes up in its slot's skb), while each frame costs
// two whole-buffer invalidates (unmap, then the new skb's map) instead of one
// of the frame and one of the allocation. Frames are conserved either way and
// the wire stays the limit at 1518 B.
TEST(StmmacSim, WithoutPagePoolNoFrameIsCopiedAndMoreLinesAreMaintained) {
  nicsim_results pp, skb; // two simulations: each in a child process
  ASSERT_TRUE(nicsim::test::run_in_child(
      stmmac_cfg({"traffic.mode=rx", "memory.coherent_dma=false", "driver.page_pool=true"}), &pp));
  ASSERT_TRUE(nicsim::test::run_in_child(
      stmmac_cfg({"traffic.mode=rx", "memory.coherent_dma=false", "driver.page_pool=false"}), &skb));
  nicsim::test::expect_conservation(pp);
  nicsim::test::expect_conservation(skb);
  ASSERT_GT(metric(pp, "rx.pkts"), 100);
  ASSERT_GT(metric(skb, "rx.pkts"), 100);
  EXPECT_GT(metric(pp, "rx.gbps"), 0.9);
  EXPECT_GT(metric(skb, "rx.gbps"), 0.9);
  EXPECT_GT(metric(pp, "cpu.memcpy_bytes.aligned"), 1000 * metric(pp, "rx.pkts"))
      << "the page_pool path copies every 1514-byte frame into its skb";
  EXPECT_EQ(metric(skb, "cpu.memcpy_bytes.aligned") + metric(skb, "cpu.memcpy_bytes.misaligned"), 0)
      << "RX without a page_pool copies nothing (UDP delivery to the socket is not a memcpy here)";
  // Per frame 24 + 32 lines (frame for the CPU, allocation for the device)
  // against 2 x 31 (dma_buf_sz 1976 at skb->data + 66, twice), as the count
  // tests derive; the window's lines also hold refills of frames counted
  // outside it, so these are floors, and the order is the mechanism's.
  const double per_pp = metric(pp, "cpu.cache_maint_lines") / metric(pp, "rx.pkts");
  const double per_skb = metric(skb, "cpu.cache_maint_lines") / metric(skb, "rx.pkts");
  EXPECT_GE(per_pp, 24 + 32 - 1);
  EXPECT_GE(per_skb, 2 * 31 - 1);
  EXPECT_GT(per_skb, per_pp + 3);
}
