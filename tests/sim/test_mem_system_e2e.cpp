// test_mem_system_e2e.cpp: whole runs (generic NIC and driver, x86-gen3
// defaults) with the IOMMU and the DRAM bandwidth limit, checked against
// counts derived from the traffic: one IOTLB lookup per upstream TLP but
// MSIs, a miss per RX buffer page, map/unmap cycles per TX frame, the DRAM
// busy fraction as bytes / bandwidth, and the defaults changing nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <initializer_list>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"
#include "sim_run_util.h"

namespace {

using nicsim::test::metric;
using nicsim::test::run_in_child;
using nicsim::test::run_ok;

/* 1518 B frames; a warm-up of 1000 us covers more than one pass of the
 * 512-entry RX ring at line rate (813 frames per ms), so every RX buffer
 * page has been touched before the window. */
nicsim_config make_cfg(std::initializer_list<const char *> sets) {
  return nicsim::test::checked_config({"traffic.frame_bytes=1518", "run.duration_us=2000", "run.warmup_us=1000",
                                       "run.drain_us=1000"},
                                      sets);
}

TEST(IommuE2e, RxLooksUpEveryUpstreamTlpAndMissesOncePerBufferPage) {
  const nicsim_config cfg = make_cfg({"traffic.mode=rx", "iommu.enabled=true"});
  nicsim_results r;
  run_ok(cfg, &r);
  const double pkts = metric(r, "rx.pkts");
  ASSERT_GT(pkts, 700);
  /* Every device access to memory is looked up: MWr (data, write-backs) and
   * MRd (descriptor fetches) TLPs, but not the MSI writes (irq.count), which
   * go to the interrupt controller. No TLP crosses a 4 KiB page (PCIe). */
  const double lookups = metric(r, "iommu.iotlb_hits") + metric(r, "iommu.iotlb_misses");
  EXPECT_EQ(lookups, metric(r, "pcie.up.tlps") - metric(r, "irq.count"));
  /* Each 4 KiB page holds two 2 KiB RX buffers filled one after the other:
   * the first frame into it misses, the second hits. The 64-entry LRU IOTLB
   * cannot keep the ring's 256 buffer pages from one pass to the next, but
   * keeps the descriptor ring's pages (used for every frame). A window edge
   * may split a page's pair: allow a few. */
  EXPECT_NEAR(metric(r, "iommu.iotlb_misses"), pkts / 2, 8);
  /* The generic driver's page pool maps its pages once, at probe. */
  EXPECT_EQ(metric(r, "iommu.maps"), 0);
  nicsim::test::expect_conservation(r);
}

TEST(IommuE2e, AnIotlbHoldingEveryPageNeverMissesAfterTheWarmUp) {
  /* 4096 entries hold the ring's 256 buffer pages and the descriptor rings. */
  const nicsim_config cfg =
      make_cfg({"traffic.mode=rx", "iommu.enabled=true", "iommu.iotlb_entries=4096", "iommu.iotlb_ways=4096"});
  nicsim_results r;
  run_ok(cfg, &r);
  EXPECT_EQ(metric(r, "iommu.iotlb_misses"), 0);
  EXPECT_GT(metric(r, "iommu.iotlb_hits"), 5 * metric(r, "rx.pkts"));
}

TEST(IommuE2e, TxMapsAndUnmapsEveryFrameAtTheConfiguredCycles) {
  /* 2 Gbit/s of 1518 B frames (165 kframes/s). The generic driver maps each
   * TX frame (dma_map_single) and unmaps it when the device is done: 700 +
   * 2600 = 3300 cycles more per TX frame, plus strict mode's wait for the
   * IOTLB invalidation of each unmap. (The paced sender sends somewhat
   * fewer frames: a long TX clean of a coalesced batch, now 2600 cycles per
   * frame longer, makes it miss send slots, which it does not make up.) */
  nicsim_results off, on;
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=tx", "traffic.rate_gbps=2"}), &off));
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=tx", "traffic.rate_gbps=2", "iommu.enabled=true",
                                     "iommu.map_cycles=700", "iommu.unmap_cycles=2600"}),
                           &on));
  const double pkts = metric(on, "tx.pkts");
  ASSERT_GT(pkts, 100);
  EXPECT_EQ(metric(off, "iommu.maps"), 0);
  /* Maps by the core's time, frames by the wire's: they differ by the frames in flight at the window edges. */
  EXPECT_NEAR(metric(on, "iommu.maps"), pkts, 4);
  EXPECT_NEAR(metric(on, "iommu.unmaps"), pkts, 40) << "TX clean runs in batches (interrupt coalescing)";
  const double busy = metric(on, "cpu.busy_cycles");
  EXPECT_NEAR(metric(on, "cpu.profile.iommu_map") * busy, metric(on, "iommu.maps") * 700, 1);
  /* An unmap straddling a window edge is counted on one side and its cycles
   * split across it: up to one unmap's cycles apart. */
  EXPECT_NEAR(metric(on, "cpu.profile.iommu_unmap") * busy, metric(on, "iommu.unmaps") * 2600, 2600);
  /* The map and unmap cycles are TX work, charged to the caller's class, and
   * so is strict mode's wait for each unmap's invalidation (qi_submit_sync). */
  const double inv = metric(on, "cpu.profile.qi_submit_sync") * busy / metric(on, "iommu.unmaps");
  EXPECT_GT(inv, 0);
  const double extra = metric(on, "cpu.cycles_per_tx_pkt") - metric(off, "cpu.cycles_per_tx_pkt");
  EXPECT_NEAR(extra, 3300 + inv, (3300 + inv) * 0.05) << "maps and unmaps in the window differ from tx.pkts by the edges";
}

TEST(DramE2e, BusyFractionIsBytesOverBandwidthAndALowBandwidthDropsFrames) {
  /* 10 GbE RX at line rate moves 1.23 GB/s of frames (plus descriptors). At
   * 5 GB/s the channel keeps up: the same frames as unlimited. At 1 GB/s it
   * cannot: the link backs up and the NIC drops. */
  nicsim_results unl, fast, slow;
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=rx"}), &unl));
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=rx", "memory.dram_bw_gbps=5"}), &fast));
  /* The backlog built in the window needs a longer drain. */
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=rx", "memory.dram_bw_gbps=1", "run.drain_us=3000"}), &slow));
  const double window_ns = 1000e3;
  EXPECT_EQ(metric(unl, "mem.dram_busy_frac"), 0);
  EXPECT_EQ(metric(unl, "mem.dram_bytes"), 0);
  EXPECT_EQ(metric(fast, "rx.pkts"), metric(unl, "rx.pkts"));
  EXPECT_EQ(metric(fast, "rx.drops"), 0);
  /* Busy time is bytes / (5 B/ns); the window counts bytes by arrival and
   * busy time as it passes, so they differ by what was queued at its edges
   * (at most one frame's six TLPs, 300 ns: 3e-4 of the window). */
  EXPECT_NEAR(metric(fast, "mem.dram_busy_frac"), metric(fast, "mem.dram_bytes") / 5 / window_ns, 3e-4);
  /* At least every received frame's bytes (without FCS) crossed the channel. */
  EXPECT_GE(metric(fast, "mem.dram_bytes"), metric(fast, "rx.pkts") * 1514);
  EXPECT_GT(metric(fast, "mem.dram_wait_ns"), 0) << "256 B TLPs arrive faster (8 GB/s link) than 5 GB/s drains them";
  EXPECT_GT(metric(slow, "rx.drops"), 0);
  /* Overloaded, yet not busy all the time: descriptor fetches (reads) wait
   * behind every data write already queued (a read does not pass a posted
   * write), so the NIC runs short of descriptors and drops instead. */
  EXPECT_GT(metric(slow, "mem.dram_busy_frac"), 0.75);
  EXPECT_LE(metric(slow, "mem.dram_busy_frac"), 1.0);
  EXPECT_LT(metric(slow, "rx.gbps"), 8 * 1.0 * 1518 / 1514 + 0.1) << "no more than the channel's 8 Gbit/s";
  nicsim::test::expect_conservation(slow);
}

TEST(MemSystemE2e, TheDefaultsChangeNothing) {
  /* The new keys at their defaults (and a WC buffer count, which matters only
   * with write-combining memory, which the generic driver never allocates)
   * give bit-identical metrics. */
  nicsim_results a, b;
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=bidir"}), &a));
  ASSERT_TRUE(run_in_child(make_cfg({"traffic.mode=bidir", "memory.dram_bw_gbps=0", "iommu.enabled=false",
                                     "iommu.map_cycles=9999", "cpu.wc_buffers=3", "cpu.wc_flush_cycles=99"}),
                           &b));
  for (size_t i = 0; i < nicsim_metric_count(); i++) {
    const nicsim_metric_def *d = &nicsim_metric_defs()[i];
    if (std::strcmp(d->name, "sim.wall_s") == 0) continue;
    double va = NAN, vb = NAN;
    const bool ha = nicsim_results_get(&a, d->name, &va), hb = nicsim_results_get(&b, d->name, &vb);
    EXPECT_EQ(ha, hb) << d->name;
    if (ha && hb) {
      EXPECT_EQ(va, vb) << d->name;
    }
  }
  EXPECT_GT(metric(a, "rx.pkts"), 0);
}

}  // namespace
