// test_mvneta_sim.cpp: whole simulations of the mvneta NIC and driver on a
// non-coherent platform at 1 GbE (each case in its own process): RX, TX and
// bidirectional runs conserve every frame, and the seed knobs move
// cpu.uncached_loads per packet by the unit tests' hand counts (patch 4: 1
// per RX frame; patch 3: 4 per TX frame).
#include <gtest/gtest.h>

#include <initializer_list>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim/sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_ok;

/* mvneta at 1 GbE, 1518 B frames, non-coherent DMA, plus overrides, checked.
 * rx.pkts counts frames by send time, loads by when they were made: the
 * window's edges differ by the few frames of one interrupt, so over ~1600
 * frames a per-packet figure is within 0.01 of the hand count. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config(
      {"nic.family=mvneta", "driver.name=mvneta", "nic.desc_spacing=32", "nic.line_rate_gbps=1",
       "memory.coherent_dma=false", "traffic.frame_bytes=1518", "nic.rx_ring_size=128", "nic.tx_ring_size=532",
       "run.duration_us=20000", "run.warmup_us=200", "run.drain_us=1000"},
      sets);
}

struct Outcome {
  double rx_pkts, tx_pkts, loads;
};

Outcome run_sim(std::initializer_list<const char *> sets) {
  nicsim_results r;
  run_ok(make_cfg(sets), &r);
  return Outcome{metric(r, "rx.pkts"), metric(r, "tx.pkts"), metric(r, "cpu.uncached_loads")};
}

}  // namespace

/* RX only: uncached loads per frame are status + data_size (2) with the
 * shadow array, + buf_phys_addr (3) without; nothing else on the path loads
 * from the ring (the filled count is a register read). */
TEST(MvnetaSim, RxShadowDmaAddrSavesOneUncachedLoadPerFrame) {
  const Outcome after = run_sim({"traffic.mode=rx", "driver.shadow_dma_addr=true"});
  ASSERT_GT(after.rx_pkts, 1500); /* 19.8 ms at 81 kframes/s: ~1600 */
  EXPECT_EQ(after.tx_pkts, 0);
  EXPECT_NEAR(after.loads / after.rx_pkts, 2.0, 0.01);
}

TEST(MvnetaSim, RxWithoutShadowDmaAddr) {
  const Outcome before = run_sim({"traffic.mode=rx", "driver.shadow_dma_addr=false"});
  ASSERT_GT(before.rx_pkts, 1500);
  EXPECT_NEAR(before.loads / before.rx_pkts, 3.0, 0.01);
}

/* TX only: mvneta_txq_bufs_free reads buf_phys_addr and data_size (2); before
 * patch 3 mvneta_tx reads data_size and buf_phys_addr back (+2) and
 * bufs_free reads buf_phys_addr three times (+2: twice in IS_TSO_HEADER,
 * once for the unmap). */
TEST(MvnetaSim, TxReuseDescReads) {
  const Outcome after = run_sim({"traffic.mode=tx", "driver.reuse_desc_reads=true"});
  ASSERT_GT(after.tx_pkts, 1500);
  EXPECT_EQ(after.rx_pkts, 0);
  EXPECT_NEAR(after.loads / after.tx_pkts, 2.0, 0.01);
}

TEST(MvnetaSim, TxWithoutReuseDescReads) {
  const Outcome before = run_sim({"traffic.mode=tx", "driver.reuse_desc_reads=false"});
  ASSERT_GT(before.tx_pkts, 1500);
  EXPECT_NEAR(before.loads / before.tx_pkts, 6.0, 0.01);
}

/* Both ways at once, upstream (both knobs true) and before the series. */
TEST(MvnetaSim, BidirUpstream) {
  const Outcome r = run_sim({"traffic.mode=bidir"});
  ASSERT_GT(r.rx_pkts, 1500);
  ASSERT_GT(r.tx_pkts, 1500);
  EXPECT_NEAR(r.loads / (2 * r.rx_pkts + 2 * r.tx_pkts), 1.0, 0.01);
}

TEST(MvnetaSim, BidirBeforeTheSeries) {
  const Outcome r = run_sim({"traffic.mode=bidir", "driver.reuse_desc_reads=false", "driver.shadow_dma_addr=false"});
  ASSERT_GT(r.rx_pkts, 1500);
  ASSERT_GT(r.tx_pkts, 1500);
  EXPECT_NEAR(r.loads / (3 * r.rx_pkts + 6 * r.tx_pkts), 1.0, 0.01);
}
