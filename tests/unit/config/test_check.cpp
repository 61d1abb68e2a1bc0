// test_check.cpp: the semantic checks of a resolved config, each rule at
// least once, located at the offending value's file:line:col: the rules
// across layers (nc_config_check, run by nc_scenario_resolve), then those of
// the run's window, the models' Params and the driver (nicsim_check_config).
#include <cstring>
#include <string>

#include "config/derived.h"
#include "config_test_util.h"
#include "sim/sim.h"

namespace {

// Loads text as t.yaml, resolves the base point with sets; returns the error.
nc_error check_error(const std::string &text, std::initializer_list<const char *> sets = {}) {
  Loaded l;
  load_text(l, text);
  EXPECT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  if (l.rc == 0) {
    EXPECT_TRUE(resolve(l, -1, &c, &e, sets) != 0 || nicsim_check_config(&c, &e) != 0) << "accepted:\n" << text;
  }
  return e;
}

// Loads and resolves text, expecting success.
void check_ok(const std::string &text) {
  Loaded l;
  load_text(l, text);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), 0) << text << "\n" << printed(e);
  EXPECT_EQ(nicsim_check_config(&c, &e), 0) << text << "\n" << printed(e);
}

TEST(ConfigCheck, WarmupBelowDuration) {
  nc_error e = check_error("run:\n  warmup_us: 3000\n");
  EXPECT_EQ(where(e), "t.yaml:2:14");
  EXPECT_STREQ(e.msg, "run.warmup_us (3000 us) must be below run.duration_us (2000 us)");
  EXPECT_STREQ(e.hint, "set run.warmup_us below 2000, or run.duration_us above 3000");
  // With warmup at its default, the duration is blamed.
  e = check_error("run: {duration_us: 150}\n");
  EXPECT_EQ(where(e), "t.yaml:1:20");
  e = check_error("name: x\n", {"run.duration_us=200"});
  EXPECT_EQ(where(e), "<command line>:1:17");
  check_ok("run: {warmup_us: 0, duration_us: 1}\n");
}

TEST(ConfigCheck, IotlbEntriesAreAMultipleOfItsWays) {
  nc_error e = check_error("iommu:\n  iotlb_entries: 48\n  iotlb_ways: 32\n");
  // Both in the same file: the first of the equally ranked keys (iotlb_ways) is blamed.
  EXPECT_EQ(where(e), "t.yaml:3:15");
  EXPECT_STREQ(e.msg,
               "iommu.iotlb_entries = 48 is not a multiple of iommu.iotlb_ways = 32: the IOTLB has entries / ways sets");
  EXPECT_STREQ(e.hint, "set iommu.iotlb_entries to a multiple of iommu.iotlb_ways (32), e.g. 64");
  e = check_error("name: x\n", {"iommu.iotlb_ways=128"});  // more ways than the 64 default entries
  EXPECT_EQ(where(e), "<command line>:1:18");
  check_ok("iommu: {iotlb_entries: 64, iotlb_ways: 8}\n");
}

TEST(ConfigCheck, IommuEnabledIsAShorthandThatMustAgreeWithTheMode) {
  nc_error e = check_error("iommu:\n  enabled: true\n  mode: off\n");
  EXPECT_EQ(where(e), "t.yaml:3:9");  // same layer: the first key of the rule (iommu.mode)
  EXPECT_STREQ(e.msg, "iommu.enabled = true contradicts iommu.mode = off (iommu.enabled is the shorthand: true for "
                      "strict or lazy, false for off)");
  EXPECT_STREQ(e.hint, "remove iommu.enabled (iommu.mode says it all), or set iommu.mode: strict or lazy");
  e = check_error("iommu: {enabled: false}\n", {"iommu.mode=lazy"});
  EXPECT_EQ(where(e), "<command line>:1:12");
  EXPECT_STREQ(e.hint, "remove iommu.enabled (iommu.mode says it all), or set iommu.mode: off");
  check_ok("iommu: {enabled: true, mode: lazy}\n");
  check_ok("iommu: {enabled: false, mode: off}\n");
  // What the models get: the mode, or the shorthand when the mode is off.
  nicsim_config c;
  nc_config_defaults(&c);
  EXPECT_EQ(nc_iommu_mode(&c), NC_IOMMU_OFF);
  c.iommu.enabled = true;
  EXPECT_EQ(nc_iommu_mode(&c), NC_IOMMU_STRICT);
  c.iommu.mode = NC_IOMMU_LAZY;
  EXPECT_EQ(nc_iommu_mode(&c), NC_IOMMU_LAZY);
}

TEST(ConfigCheck, CpuCacheSizeIsBounded) {
  // 65536 sets x 32 ways x 64 B = 128 MiB. Both set in the same file: the
  // first of the equally ranked keys (cache_sets) is blamed.
  nc_error e = check_error("cpu:\n  cache_sets: 65536\n  cache_ways: 32\n");
  EXPECT_EQ(where(e), "t.yaml:2:15");
  EXPECT_STREQ(e.msg, "cpu cache of 65536 sets x 32 ways x 64 B = 128 MiB is too large");
  EXPECT_NE(std::strstr(e.hint, "at most 64 MiB"), nullptr);
  check_ok("cpu: {cache_sets: 65536, cache_ways: 16}\n");  // exactly 64 MiB
}

TEST(ConfigCheck, BusWidthIsAPowerOfTwoAndEitherWorkloadRunsOverTheBus) {
  nc_error e = check_error("bus:\n  enabled: true\n  width_bytes: 12\n");
  EXPECT_EQ(where(e), "t.yaml:3:16");
  EXPECT_STREQ(e.msg, "bus.width_bytes = 12 is not a power of two");
  EXPECT_STREQ(e.hint, "use a power of two, e.g. 8 or 16 (docs/bus.md)");
  check_ok("bus: {enabled: true}\n");  // the NIC workload (docs/bus.md)
  check_ok("bus: {enabled: true}\nworkload: {kind: dma-bench}\n");
}

TEST(ConfigCheck, DmaBenchWindowHoldsARequestAndFitsInMemory) {
  nc_error e = check_error("workload:\n  kind: dma-bench\n  size_bytes: 4096\n  window_bytes: 1024\n");
  EXPECT_EQ(where(e), "t.yaml:4:17");  // both in one file: the first of the pair (the window)
  EXPECT_STREQ(e.msg,
               "workload.window_bytes = 1024 B cannot hold one request of workload.size_bytes = 4096 B");
  EXPECT_STREQ(e.hint, "set workload.window_bytes to at least 4096");
  e = check_error("workload: {kind: dma-bench}\n", {"workload.window_bytes=134217728"});
  EXPECT_EQ(where(e), "<command line>:1:23");
  EXPECT_NE(std::strstr(e.msg, "does not fit in host memory (memory.size_mb = 64 MiB)"), nullptr) << e.msg;
  // The window rules do not apply to the NIC workload.
  check_ok("workload: {size_bytes: 4096, window_bytes: 1024}\n");
}

TEST(ConfigCheck, PcieLanes) {
  nc_error e = check_error("pcie:\n  gen: 4\n  lanes: 3\n");
  EXPECT_EQ(where(e), "t.yaml:3:10");
  EXPECT_STREQ(e.msg, "pcie.lanes = 3 is not a PCIe link width");
  EXPECT_STREQ(e.hint, "use 1, 2, 4, 8 or 16");
  for (int w : {1, 2, 4, 8, 16}) check_ok("pcie: {lanes: " + std::to_string(w) + "}\n");
}

TEST(ConfigCheck, PcieMpsAndMrrs) {
  nc_error e = check_error("pcie: {mps: 384}\n");
  EXPECT_EQ(where(e), "t.yaml:1:13");
  EXPECT_STREQ(e.msg, "pcie.mps = 384 is not a valid max payload size");
  EXPECT_STREQ(e.hint, "use a power of two from 128 to 4096, e.g. 256 or 512");
  e = check_error("pcie: {mrrs: 1000}\n");
  EXPECT_EQ(where(e), "t.yaml:1:14");
  EXPECT_STREQ(e.msg, "pcie.mrrs = 1000 is not a valid max read request size");
  EXPECT_STREQ(e.hint, "use a power of two up to 4096, e.g. 512 or 1024");
  check_ok("pcie: {mps: 128, mrrs: 4096}\n");
}

TEST(ConfigCheck, PcieAddrBits) {
  nc_error e = check_error("pcie: {addr_bits: 48}\n");
  EXPECT_EQ(where(e), "t.yaml:1:19");
  EXPECT_STREQ(e.msg, "pcie.addr_bits = 48 is not a PCIe address width");
  check_ok("pcie: {addr_bits: 32}\n");
}

TEST(ConfigCheck, LineRate) {
  nc_error e = check_error("nic:\n  line_rate_gbps: 5\n");
  EXPECT_EQ(where(e), "t.yaml:2:19");
  EXPECT_STREQ(e.msg, "nic.line_rate_gbps = 5 is not an Ethernet line rate");
  EXPECT_STREQ(e.hint, "use 1, 2.5, 10, 25, 40 or 100");
  check_ok("nic: {line_rate_gbps: 2.5}\n");
  check_ok("nic: {line_rate_gbps: 100}\n");
}

// nic.desc_spacing's rules are each driver's (its family's stride; the
// models' NicDevice::Params::validate keeps "at least a descriptor" for any
// driver): nicsim_check_config asks the driver first.
TEST(ConfigCheck, DescriptorSpacing) {
  nc_error e = check_error("nic: {desc_spacing: 8}\n");
  EXPECT_EQ(where(e), "t.yaml:1:21");
  EXPECT_STREQ(e.msg, "nic.desc_spacing = 8: the generic NIC needs a multiple of 8 (the 64-bit buffer address must "
                      "stay aligned) of at least 16");
  EXPECT_STREQ(e.hint, "use a multiple of 8 of at least 16, e.g. 16");
  e = check_error("nic: {desc_spacing: 20}\n");
  EXPECT_STREQ(e.hint, "use a multiple of 8 of at least 16, e.g. 24");
  check_ok("nic: {desc_spacing: 24}\n");
}

TEST(ConfigCheck, DriverMustMatchTheNicFamily) {
  nc_error e = check_error("nic: {family: lan743x}\n");
  EXPECT_EQ(where(e), "t.yaml:1:15");
  EXPECT_STREQ(e.msg, "driver.name = generic cannot drive nic.family = lan743x: each driver speaks only "
                      "its family's descriptors and registers");
  EXPECT_STREQ(e.hint, "set driver.name: lan743x, or nic.family: generic");
  e = check_error("driver: {name: i40e}\n");
  EXPECT_EQ(where(e), "t.yaml:1:16");
  EXPECT_STREQ(e.hint, "set driver.name: generic, or nic.family: i40e");
  check_ok("nic: {family: lan743x}\ndriver: {name: lan743x}\n");
  check_ok("workload: {kind: dma-bench}\nnic: {family: lan743x}\n");  // no driver runs
}

TEST(ConfigCheck, FamilyDescriptorSizeAndSpacing) {
  nc_error e = check_error("nic: {family: mvneta, desc_spacing: 16}\ndriver: {name: mvneta}\n");
  EXPECT_STREQ(e.msg, "nic.desc_spacing = 16: mvneta needs a multiple of 8 (the 64-bit buffer address must stay "
                      "aligned) of at least 32");
  EXPECT_STREQ(e.hint, "use a multiple of 8 of at least 32, e.g. 32");
  e = check_error("nic: {family: i40e, rx_desc_bytes: 24, desc_spacing: 16}\ndriver: {name: i40e}\n");
  EXPECT_STREQ(e.msg, "i40e: nic.rx_desc_bytes = 24 is not an i40e RX descriptor size");
  e = check_error("nic: {family: lan743x, desc_spacing: 48}\ndriver: {name: lan743x}\n");
  EXPECT_STREQ(e.msg, "nic.desc_spacing = 48: lan743x DSPACE is 16, 32, 64 or 128 bytes");
  EXPECT_STREQ(e.hint, "use 16, 32, 64 or 128 (DMAC_CFG MAX_DSPACE)");
  check_ok("nic: {family: lan743x, desc_spacing: 128}\ndriver: {name: lan743x}\n");
  e = check_error("nic: {family: i40e, rx_desc_bytes: 32, desc_spacing: 64}\ndriver: {name: i40e}\n");
  EXPECT_STREQ(e.msg, "i40e: nic.desc_spacing = 64: i40e descriptors are packed");
  EXPECT_STREQ(e.hint, "use 16 or 32 (nic.rx_desc_bytes): i40e rings are packed");
  check_ok("nic: {family: i40e, rx_desc_bytes: 32, desc_spacing: 16}\ndriver: {name: i40e}\n");
  e = check_error("nic: {family: stmmac, desc_spacing: 32}\ndriver: {name: stmmac}\n");
  EXPECT_STREQ(e.msg, "nic.desc_spacing = 32: stmmac's normal descriptors are packed, 16 bytes apart");
}

TEST(ConfigCheck, DescriptorSpacingHintFitsTheFamily) {
  // The hint's value is one the family accepts, so following it does not
  // fail again (mvneta's descriptors are 32 B, not the generic 16).
  nc_error e = check_error("nic: {family: mvneta}\ndriver: {name: mvneta}\n", {"nic.desc_spacing=8"});
  EXPECT_EQ(where(e), "<command line>:1:18");
  EXPECT_STREQ(e.hint, "use a multiple of 8 of at least 32, e.g. 32");
  check_ok("nic: {family: mvneta, desc_spacing: 32}\ndriver: {name: mvneta}\n");
  e = check_error("nic: {family: mvneta, desc_spacing: 36}\ndriver: {name: mvneta}\n");
  EXPECT_STREQ(e.hint, "use a multiple of 8 of at least 32, e.g. 40");
  check_ok("nic: {family: mvneta, desc_spacing: 40}\ndriver: {name: mvneta}\n");
  e = check_error("nic: {family: stmmac, desc_spacing: 20}\ndriver: {name: stmmac}\n");
  EXPECT_STREQ(e.hint, "use 16: stmmac rings are packed (DMA_BUS_MODE descriptor skip length 0)");
  check_ok("nic: {family: stmmac, desc_spacing: 16}\ndriver: {name: stmmac}\n");
  e = check_error("nic: {family: i40e, desc_spacing: 20}\ndriver: {name: i40e}\n");  // rx_desc_bytes 32
  EXPECT_STREQ(e.hint, "use 16 or 32 (nic.rx_desc_bytes): i40e rings are packed");
  check_ok("nic: {family: i40e, desc_spacing: 32}\ndriver: {name: i40e}\n");
  e = check_error("nic: {family: i40e, rx_desc_bytes: 16, desc_spacing: 20}\ndriver: {name: i40e}\n");
  EXPECT_STREQ(e.hint, "use 16 (the TX and the 16-byte RX descriptors): i40e rings are packed");
  check_ok("nic: {family: i40e, rx_desc_bytes: 16, desc_spacing: 16}\ndriver: {name: i40e}\n");
  e = check_error("nic: {family: lan743x, desc_spacing: 132}\ndriver: {name: lan743x}\n");
  EXPECT_STREQ(e.hint, "use 16, 32, 64 or 128 (DMAC_CFG MAX_DSPACE)");
}

TEST(ConfigCheck, DescriptorCacheHoldsAFetchBatch) {
  nc_error e = check_error("nic:\n  desc_cache_entries: 4\n");  // desc_fetch_max 8
  EXPECT_EQ(where(e), "t.yaml:2:23");
  EXPECT_STREQ(e.msg, "nic.desc_cache_entries = 4 cannot hold one fetch batch (nic.desc_fetch_max = 8 descriptors)");
  EXPECT_STREQ(e.hint,
               "set nic.desc_cache_entries to at least 8 (or 0: two fetch batches), or nic.desc_fetch_max to at most 4");
  // Raising the batch later blames the batch.
  e = check_error("nic: {desc_cache_entries: 16}\n", {"nic.desc_fetch_max=32"});
  EXPECT_EQ(where(e), "<command line>:1:20");
  check_ok("nic: {desc_cache_entries: 8}\n");
  check_ok("nic: {desc_fetch_max: 256}\n");  // 0: two batches
  check_ok("workload: {kind: dma-bench}\nnic: {desc_cache_entries: 4}\n");  // no DMA engine
}

TEST(ConfigCheck, TxFifoHoldsTheLongestFrame) {
  // The longest frame is 1518 B at least (IMIX's largest), without its 4-byte FCS.
  nc_error e = check_error("nic:\n  tx_fifo_bytes: 1513\ntraffic: {frame_bytes: 64}\n");
  EXPECT_EQ(where(e), "t.yaml:2:18");
  EXPECT_STREQ(e.msg, "nic.tx_fifo_bytes = 1513 cannot hold the longest frame: 1514 B without its FCS (the larger of "
                      "1518 and traffic.frame_bytes = 64)");
  EXPECT_STREQ(e.hint, "set nic.tx_fifo_bytes to at least 1514 (or 0: two longest frames)");
  check_ok("nic: {tx_fifo_bytes: 1514}\ntraffic: {frame_bytes: 64, frame_dist: imix}\n");
  // Jumbo frames: the frame size set later is blamed.
  e = check_error("nic: {tx_fifo_bytes: 4096}\ndriver: {rx_buf_bytes: 9014}\n", {"traffic.frame_bytes=9018"});
  EXPECT_EQ(where(e), "<command line>:1:21");
  EXPECT_STREQ(e.hint, "set nic.tx_fifo_bytes to at least 9014 (or 0: two longest frames)");
  // The MAC builds its TX FIFO whatever the mode.
  e = check_error("nic: {tx_fifo_bytes: 1000}\ntraffic: {mode: rx}\n");
  EXPECT_NE(std::strstr(e.msg, "cannot hold the longest frame"), nullptr) << e.msg;
  check_ok("traffic: {frame_bytes: 9018}\ndriver: {rx_buf_bytes: 9014}\n");  // 0: two longest frames
}

TEST(ConfigCheck, PostedDataCreditsCoverOneMaxPayloadTlp) {
  nc_error e = check_error("pcie:\n  mps: 512\n  rc_pd_credits: 16\n");
  EXPECT_EQ(where(e), "t.yaml:3:18");  // both in one file: the first of the pair (the credits)
  EXPECT_STREQ(e.msg, "pcie.rc_pd_credits = 16 cannot cover one max-payload TLP: pcie.mps = 512 B needs 32 data "
                      "credits of 16 B");
  EXPECT_STREQ(e.hint, "set pcie.rc_pd_credits to at least 32 (or 0: infinite), or a smaller pcie.mps");
  e = check_error("pcie: {rc_pd_credits: 8}\n");
  EXPECT_EQ(where(e), "t.yaml:1:23");
  check_ok("pcie: {rc_pd_credits: 16}\n");  // mps 256
  check_ok("pcie: {rc_pd_credits: 0}\n");   // infinite
  check_ok("workload: {kind: dma-bench}\npcie: {rc_pd_credits: 32}\n");
  check_ok("bus: {enabled: true}\npcie: {rc_pd_credits: 8}\n");  // no PCIe link
}

TEST(ConfigCheck, ReadCompletionBoundary) {
  nc_error e = check_error("pcie: {rcb: 96}\n");
  EXPECT_EQ(where(e), "t.yaml:1:13");
  EXPECT_STREQ(e.msg, "pcie.rcb = 96 is not a read completion boundary");
  EXPECT_STREQ(e.hint, "use 64 or 128 (Base Spec 3.0 §2.3.1.1)");
  check_ok("pcie: {rcb: 128}\n");
}

TEST(ConfigCheck, PauseXonBelowXoff) {
  nc_error e = check_error("nic:\n  pause_enable: true\n  pause_xoff_bytes: 30000\n  pause_xon_bytes: 30000\n");
  EXPECT_EQ(where(e), "t.yaml:4:20");
  EXPECT_STREQ(e.msg, "nic.pause_xon_bytes = 30000 B is not below the XOFF level (30000 B): the MAC would send XON "
                      "while still above XOFF");
  EXPECT_STREQ(e.hint, "set nic.pause_xon_bytes below 30000 (or 0: half of XOFF), or nic.pause_xoff_bytes above 30000");
  // XOFF derived from the RX FIFO: 65536 - 2 x 1518 = 62500; a smaller FIFO set later is blamed.
  e = check_error("nic: {pause_enable: true, pause_xon_bytes: 40000}\n", {"nic.rx_fifo_bytes=32768"});
  EXPECT_EQ(where(e), "<command line>:1:19");
  EXPECT_STREQ(e.msg, "nic.pause_xon_bytes = 40000 B is not below the XOFF level (29732 B, from nic.rx_fifo_bytes): "
                      "the MAC would send XON while still above XOFF");
  e = check_error("nic: {pause_enable: true, pause_xoff_bytes: 20000}\n", {"nic.pause_xon_bytes=20001"});
  EXPECT_EQ(where(e), "<command line>:1:21");
  check_ok("nic: {pause_enable: true, pause_xoff_bytes: 30000, pause_xon_bytes: 29999}\n");
  check_ok("nic: {pause_enable: true, pause_xoff_bytes: 1}\n");  // XON 0
  check_ok("nic: {pause_enable: false, pause_xoff_bytes: 10, pause_xon_bytes: 20}\n");
}

TEST(ConfigCheck, FrameCountModerationNeedsATimer) {
  nc_error e = check_error("nic:\n  irq_coal_usecs: 0\n");  // irq_coal_frames 32
  EXPECT_EQ(where(e), "t.yaml:2:19");
  EXPECT_STREQ(e.msg, "nic.irq_coal_frames = 32 with no coalescing timer (nic.irq_coal_usecs = 0): the last frames "
                      "of a burst, fewer than the count, would never be notified");
  EXPECT_STREQ(e.hint,
               "set nic.irq_coal_usecs to at least 1 (drivers program whole microseconds), or nic.irq_coal_frames: 1");
  // The drivers round to whole microseconds: 0.4 is no timer.
  e = check_error("nic: {irq_coal_usecs: 0.4}\n", {"nic.irq_coal_frames=2"});
  EXPECT_EQ(where(e), "<command line>:1:21");
  check_ok("nic: {irq_coal_usecs: 0.5}\n");
  check_ok("nic: {irq_coal_usecs: 0, irq_coal_frames: 1}\n");
  for (const char *fam : {"lan743x", "i40e", "mvneta"}) {
    std::string sp = std::string(fam) == "mvneta" ? "32" : "16";
    e = check_error(std::string("nic: {family: ") + fam + ", desc_spacing: " + sp +
                    ", irq_coal_usecs: 0}\ndriver: {name: " + fam + "}\n");
    EXPECT_NE(std::strstr(e.msg, "no coalescing timer"), nullptr) << fam << ": " << e.msg;
  }
  // stmmac moderates by IOC and its RX watchdog, not these keys.
  check_ok("nic: {family: stmmac, irq_coal_usecs: 0}\ndriver: {name: stmmac}\n");
  check_ok("workload: {kind: dma-bench}\nnic: {irq_coal_usecs: 0}\n");
}

TEST(ConfigCheck, PerDirectionModerationRules) {
  // A direction with a frame count above 1 needs its own timer (or the shared one).
  nc_error e = check_error("nic:\n  rx_irq_coal_frames: 8\n  rx_irq_coal_usecs: 0\n");
  EXPECT_STREQ(e.msg, "nic.rx_irq_coal_frames = 8 with no coalescing timer (nic.rx_irq_coal_usecs = 0): the last "
                      "frames of a burst, fewer than the count, would never be notified");
  EXPECT_STREQ(e.hint, "set nic.rx_irq_coal_usecs to at least 1 (drivers program whole microseconds), or "
                       "nic.rx_irq_coal_frames: 1");
  // TX falls back to the shared keys: 32 frames and no shared timer.
  e = check_error("nic: {irq_coal_frames: 1, irq_coal_usecs: 0, tx_irq_coal_frames: 4}\n");
  EXPECT_NE(std::strstr(e.msg, "nic.tx_irq_coal_frames = 4 with no coalescing timer (nic.tx_irq_coal_usecs = 0)"),
            nullptr)
      << e.msg;
  e = check_error("nic: {rx_irq_coal_frames: 0}\n");
  EXPECT_STREQ(e.msg, "nic.rx_irq_coal_frames = 0: an interrupt needs at least one completion");
  // stmmac moderates by IOC and its RX watchdog.
  e = check_error("nic: {family: stmmac, tx_irq_coal_usecs: 10}\ndriver: {name: stmmac}\n");
  EXPECT_NE(std::strstr(e.msg, "set on the stmmac family"), nullptr) << e.msg;
  check_ok("nic: {rx_irq_coal_frames: 1, rx_irq_coal_usecs: 0, tx_irq_coal_frames: 64, tx_irq_coal_usecs: 100}\n");
  check_ok("nic: {irq_coal_timer: restart}\n");
  // A direction's timer longer than the drain and its extension is refused, as the shared one.
  e = check_error("run: {drain_us: 100}\nnic: {tx_irq_coal_usecs: 500000}\n");
  EXPECT_NE(std::strstr(e.msg, "nic.tx_irq_coal_usecs = 500000 us can hold the last frames"), nullptr) << e.msg;
}

// Ring sizes are each driver's rules (its ethtool set_ringparam limits).
TEST(ConfigCheck, FamilyRingSizes) {
  nc_error e = check_error("nic: {family: i40e, desc_spacing: 32, rx_ring_size: 100}\ndriver: {name: i40e}\n");
  EXPECT_STREQ(e.msg, "i40e: nic.rx_ring_size = 100: ring sizes must be multiples of 32 in [64, 4096] "
                      "(I40E_REQ_DESCRIPTOR_MULTIPLE, ethtool -G limits)");
  EXPECT_NE(std::string(e.hint).find("e.g. 128"), std::string::npos) << e.hint;
  e = check_error("nic: {family: stmmac, tx_ring_size: 2048}\ndriver: {name: stmmac}\n");
  EXPECT_STREQ(e.msg, "nic.tx_ring_size = 2048 is not an stmmac ring size");
  e = check_error("nic: {family: stmmac, rx_ring_size: 96}\ndriver: {name: stmmac}\n");
  EXPECT_STREQ(e.msg, "nic.rx_ring_size = 96 is not an stmmac ring size");
  e = check_error("nic: {family: mvneta, desc_spacing: 32, rx_ring_size: 1024}\ndriver: {name: mvneta}\n");
  EXPECT_STREQ(e.msg, "nic.rx_ring_size = 1024 is more than an mvneta ring holds");
  EXPECT_STREQ(e.hint, "use at most 512 (MVNETA_MAX_RXD in mvneta.c)");
  check_ok("nic: {family: mvneta, desc_spacing: 32, rx_ring_size: 128, tx_ring_size: 532}\ndriver: {name: mvneta}\n");
  check_ok("nic: {family: stmmac, rx_ring_size: 512, tx_ring_size: 64}\ndriver: {name: stmmac}\n");
  e = check_error("nic: {family: lan743x, rx_ring_size: 100}\ndriver: {name: lan743x}\n");
  EXPECT_STREQ(e.msg, "nic.rx_ring_size = 100: lan743x needs a multiple of 8 (it moves RX_TAIL only at indices with "
                      "index & 7 == 7)");
  EXPECT_NE(std::string(e.hint).find("e.g. 104"), std::string::npos) << e.hint;
  check_ok("nic: {family: i40e, desc_spacing: 32, rx_ring_size: 4096}\ndriver: {name: i40e}\n");
}

TEST(ConfigCheck, QueuesOnlyOnMultiQueueFamiliesAndRssKnobs) {
  // lan743x is modelled with one queue: the later of the two keys is blamed.
  nc_error e = check_error("nic:\n  family: lan743x\n  rx_queues: 4\ndriver: {name: lan743x}\n");
  EXPECT_EQ(where(e), "t.yaml:3:14");
  EXPECT_STREQ(e.msg, "nic.rx_queues = 4: the lan743x family is modelled with one queue per direction");
  EXPECT_STREQ(e.hint, "set nic.rx_queues: 1, or nic.family: generic or i40e (the multi-queue families)");
  e = check_error("nic: {family: stmmac, desc_spacing: 16}\ndriver: {name: stmmac}\n", {"nic.tx_queues=2"});
  EXPECT_EQ(where(e), "<command line>:1:15");
  EXPECT_STREQ(e.msg, "nic.tx_queues = 2: the stmmac family is modelled with one queue per direction");
  check_ok("nic: {rx_queues: 16, tx_queues: 16}\n");
  check_ok("nic: {family: i40e, rx_queues: 4, tx_queues: 2}\ndriver: {name: i40e}\n");
  // The indirection table is a power of two; the key 80 hex digits.
  e = check_error("nic:\n  rss_table_size: 100\n");
  EXPECT_EQ(where(e), "t.yaml:2:19");
  EXPECT_STREQ(e.msg, "nic.rss_table_size = 100 is not a power of two");
  EXPECT_STREQ(e.hint, "use a power of two up to 512, e.g. 64 or 128");
  e = check_error("nic:\n  rss_key: 6d5a\n");
  EXPECT_EQ(where(e), "t.yaml:2:12");
  EXPECT_STREQ(e.msg, "nic.rss_key has 4 hex digits, not 80");
  e = check_error("nic:\n  rss_key: " + std::string(79, 'a') + "x\n");
  EXPECT_STREQ(e.msg, "nic.rss_key has a non-hex character at position 80");
  check_ok("nic:\n  rss_key: " + std::string(80, 'A') + "\n");
  // The memory check counts every queue's ring and buffers: 16 RX queues of
  // 512 x 2 KiB buffers are 16 MiB, more than memory.size_mb 8 holds (one
  // queue's 1 MiB would fit).
  check_ok("memory: {size_mb: 8}\n");
  e = check_error("memory: {size_mb: 8}\nnic: {rx_queues: 16}\n");
  EXPECT_NE(std::strstr(e.msg, "is too small for the rings and buffers"), nullptr) << e.msg;
}

TEST(ConfigCheck, FrameFitsInOneRxBuffer) {
  nc_error e = check_error("traffic:\n  frame_bytes: 9018\n");
  EXPECT_EQ(where(e), "t.yaml:2:16");
  EXPECT_STREQ(e.msg, "traffic.frame_bytes = 9018 does not fit in driver.rx_buf_bytes = 2048");
  EXPECT_NE(std::strstr(e.hint, "driver.rx_buf_bytes to at least 9014"), nullptr) << e.hint;
  EXPECT_NE(std::strstr(e.hint, "traffic.frame_bytes to at most 2052"), nullptr) << e.hint;
  // Blame the buffer when only it was changed.
  e = check_error("driver: {rx_buf_bytes: 1024}\n");
  EXPECT_EQ(where(e), "t.yaml:1:24");
  // Exactly one buffer per frame without FCS is fine.
  check_ok("traffic: {frame_bytes: 2052}\n");
  check_ok("traffic: {frame_bytes: 9018}\ndriver: {rx_buf_bytes: 9014}\n");
}

TEST(ConfigCheck, OfferedRateAtMostLineRate) {
  nc_error e = check_error("traffic:\n  rate_gbps: 25\n");
  EXPECT_EQ(where(e), "t.yaml:2:14");
  EXPECT_STREQ(e.msg, "traffic.rate_gbps = 25 exceeds nic.line_rate_gbps = 10");
  EXPECT_STREQ(e.hint, "set traffic.rate_gbps to at most 10, or 0 for line rate");
  check_ok("traffic: {rate_gbps: 10}\n");
  check_ok("nic: {line_rate_gbps: 25}\ntraffic: {rate_gbps: 25}\n");
}

TEST(ConfigCheck, SendBufferNeedsAUdpSenderAndLinuxsSmallestSize) {
  nc_error e = check_error("traffic:\n  sndbuf_bytes: 212992\n");  // mode rx by default
  EXPECT_EQ(where(e), "t.yaml:2:17");
  EXPECT_STREQ(e.msg,
               "traffic.sndbuf_bytes = 212992 limits the host's UDP sender, but traffic.mode = rx has none");
  EXPECT_NE(std::strstr(e.hint, "traffic.mode tx or bidir"), nullptr) << e.hint;
  e = check_error("traffic: {mode: tx, protocol: tcp, sndbuf_bytes: 212992}\n");
  EXPECT_NE(std::strstr(e.msg, "traffic.protocol = tcp"), nullptr) << e.msg;
  e = check_error("traffic: {mode: tx, sndbuf_bytes: 4000}\n");
  EXPECT_EQ(where(e), "t.yaml:1:35");
  EXPECT_STREQ(e.msg, "traffic.sndbuf_bytes = 4000 is below Linux's smallest send buffer");
  check_ok("traffic: {mode: tx, sndbuf_bytes: 4608}\n");
  check_ok("traffic: {mode: bidir, sndbuf_bytes: 212992}\n");
  check_ok("traffic: {mode: rx, sndbuf_bytes: 0}\n");
}

TEST(ConfigCheck, ImixNeedsTheWiresUdpFrames) {
  nc_error e = check_error("traffic: {protocol: tcp, frame_dist: imix}\n");
  EXPECT_EQ(where(e), "t.yaml:1:38");
  EXPECT_NE(std::strstr(e.msg, "traffic.protocol = tcp send none"), nullptr) << e.msg;
  EXPECT_NE(std::strstr(e.hint, "traffic.frame_dist fixed"), nullptr) << e.hint;
  e = check_error("traffic: {mode: tx, frame_dist: imix}\n");
  EXPECT_NE(std::strstr(e.msg, "traffic.mode = tx"), nullptr) << e.msg;
  check_ok("traffic: {mode: bidir, frame_dist: imix}\n");
  check_ok("traffic: {mode: rx, protocol: udp, frame_dist: imix}\n");
}

TEST(ConfigCheck, BqlMinimumLimitMayNotExceedTheMaximum) {
  nc_error e = check_error("driver: {bql: true, bql_limit_max: 3000, bql_limit_min: 5000}\n");
  EXPECT_EQ(where(e), "t.yaml:1:57") << "the key set last is blamed";
  EXPECT_STREQ(e.msg, "driver.bql_limit_min = 5000 exceeds driver.bql_limit_max = 3000");
  EXPECT_NE(std::strstr(e.hint, "at most 3000"), nullptr) << e.hint;
  check_ok("driver: {bql: true, bql_limit_min: 3000, bql_limit_max: 3000}\n");
}

TEST(ConfigCheck, CacheLinePowerOfTwo) {
  nc_error e = check_error("cpu: {cache_line_bytes: 48}\n");
  EXPECT_EQ(where(e), "t.yaml:1:25");
  EXPECT_STREQ(e.msg, "cpu.cache_line_bytes = 48 is not a power of two");
  EXPECT_STREQ(e.hint, "use a power of two, e.g. 32 or 64");
  check_ok("cpu: {cache_line_bytes: 128}\n");
}

TEST(ConfigCheck, MemoryLargeEnough) {
  // 65536 * 2048 + 512 * 1518 + 66048 * 16 + 1 MiB = 130.7 MiB: 131 MiB needed.
  nc_error e = check_error("nic:\n  rx_ring_size: 65536\n");
  EXPECT_EQ(where(e), "t.yaml:2:17");
  EXPECT_STREQ(e.msg, "host memory (memory.size_mb = 64 MiB) is too small for the rings and "
                      "buffers, which need 131 MiB (with 1 MiB slack)");
  EXPECT_STREQ(e.hint, "set memory.size_mb to at least 131, or use smaller rings or buffers");
  // A size set in the file is blamed first.
  e = check_error("memory:\n  size_mb: 1\n");
  EXPECT_EQ(where(e), "t.yaml:2:12");
  EXPECT_STREQ(e.hint, "set memory.size_mb to at least 3, or use smaller rings or buffers");
  check_ok("memory: {size_mb: 131}\nnic: {rx_ring_size: 65536}\n");
}

TEST(ConfigCheck, BlamesTheLatestLayer) {
  // The platform sets memory.size_mb; the scenario's ring size is to blame.
  TempDir d;
  d.write("p.yaml", "memory: {size_mb: 64}\nrun: {warmup_us: 100}\n");
  std::string scen = d.write("s.yaml",
                             "platform: p.yaml\n"
                             "nic: {rx_ring_size: 65536}\n");
  Loaded l;
  l.rc = nc_scenario_load(scen.c_str(), &l.s, &l.err);
  ASSERT_EQ(l.rc, 0) << printed(l.err);
  nicsim_config c;
  nc_error e{};
  ASSERT_EQ(resolve(l, -1, &c, &e), -1);
  EXPECT_EQ(where(e), scen + ":2:21");
  // A --set beats both; a platform value beats a default.
  ASSERT_EQ(resolve(l, -1, &c, &e, {"memory.size_mb=100"}), -1);
  EXPECT_EQ(where(e), "<command line>:1:16");
  // The run's window is src/sim's rule (nicsim_check_config).
  ASSERT_EQ(resolve(l, -1, &c, &e, {"nic.rx_ring_size=512", "run.duration_us=50"}), 0) << printed(e);
  ASSERT_EQ(nicsim_check_config(&c, &e), -1);
  EXPECT_EQ(where(e), "<command line>:1:17");
  std::string scen2 = d.write("s2.yaml", "platform: p.yaml\nrun: {duration_us: 100}\n");
  Loaded l2;
  l2.rc = nc_scenario_load(scen2.c_str(), &l2.s, &l2.err);
  ASSERT_EQ(l2.rc, 0) << printed(l2.err);
  ASSERT_EQ(resolve(l2, -1, &c, &e), 0) << printed(e);
  ASSERT_EQ(nicsim_check_config(&c, &e), -1);
  EXPECT_EQ(where(e), scen2 + ":2:20");
}

TEST(ConfigCheck, CheckCalledDirectly) {
  nicsim_config c;
  nc_config_defaults(&c);
  nc_error e{};
  ASSERT_EQ(nc_config_check(&c, &e), 0);
  ASSERT_EQ(nicsim_check_config(&c, &e), 0);
  c.pcie.lanes = 12;
  ASSERT_EQ(nc_config_check(&c, &e), 0) << "a rule of the link alone: PcieParams::validate";
  ASSERT_EQ(nicsim_check_config(&c, &e), -1);
  EXPECT_STREQ(e.msg, "pcie.lanes = 12 is not a PCIe link width");
  EXPECT_EQ(printed(e), "<default>: error: pcie.lanes = 12 is not a PCIe link width\n"
                        "  hint: use 1, 2, 4, 8 or 16\n");
  EXPECT_EQ(nicsim_check_config(&c, nullptr), -1) << "a null error is allowed";
}

}  // namespace
