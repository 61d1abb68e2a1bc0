/* nic_knobs_test.cpp: the DMA-engine knobs that are config keys: prefetch
 * threshold, read-tag arbitration, head write-back, ITR throttling; the
 * IMIX and multi-flow wire stream; and the Perfetto timeline trace. */
#include <gtest/gtest.h>
#include <jansson.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "dma/dma_engine.h"
#include "dma/nic_clock.h"
#include "dma/read_tag_pool.h"
#include "models/nic_sim.h"
#include "common/trace.h"
#include "traffic/wire_peer.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

using tlm::TLM_READ_COMMAND;
using tlm::TLM_WRITE_COMMAND;

/* Fetches made before any frame arrives, with a prefetch threshold. */
void run_prefetch(uint32_t threshold, uint64_t expect_reqs, uint64_t expect_fetched) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX; /* the peer offers nothing: the cache only fills */
  cfg.nic.desc_fetch_max = 4;
  cfg.nic.desc_cache_entries = 16;
  cfg.nic.desc_prefetch_threshold = threshold;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 63, 2048, 32, 0, true); };
  sc_core::sc_start(us(10));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.c.desc_fetch_reqs, expect_reqs);
  EXPECT_EQ(c.dma.c.desc_fetched, expect_fetched);
  EXPECT_EQ(s.nic.engine().rx_ring().cached(), expect_fetched);
  for (const auto &a : s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch)) EXPECT_EQ(a.len, 64u);
  EXPECT_TRUE(s.what.empty());
}

/* Threads that take read tags from one pool and record the grant order. */
class TagUsers : public sc_core::sc_module {
 public:
  ReadTagPool pool;
  std::string order; /* 'R' or 'T' per grant after the holder's */

  TagUsers(sc_core::sc_module_name n, bool rx_priority) : sc_core::sc_module(n), pool(1, rx_priority) {
    SC_HAS_PROCESS(TagUsers);
    SC_THREAD(holder);
    SC_THREAD(rx1);
    SC_THREAD(rx2);
    SC_THREAD(tx1);
    SC_THREAD(tx2);
  }

 private:
  void holder() {
    pool.acquire(false);
    wait(ns(10)); /* everybody else queues meanwhile */
    pool.release(false);
  }
  void user(bool rx) {
    wait(ns(1));
    pool.acquire(rx);
    order.push_back(rx ? 'R' : 'T');
    wait(ns(10));
    pool.release(rx);
  }
  void rx1() { user(true); }
  void rx2() { user(true); }
  void tx1() { user(false); }
  void tx2() { user(false); }
};

/* Fetches made before any frame arrives with descriptors spaced 64 B apart
 * (16 B each), batch 4, cache 16, and the given engine options. */
DmaCounters run_spaced_fetch(nicsim_config cfg, std::vector<uint32_t> *read_lens = nullptr) {
  setup_systemc();
  cfg.traffic.mode = NC_MODE_TX; /* the peer offers nothing: the cache only fills */
  cfg.nic.desc_fetch_max = 4;
  cfg.nic.desc_cache_entries = 16;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 64, 63, 2048, 32, 0, true); };
  sc_core::sc_start(us(10));
  if (read_lens)
    for (const auto &a : s.host.accesses(TLM_READ_COMMAND, DmaPurpose::DescFetch)) read_lens->push_back(a.len);
  EXPECT_TRUE(s.what.empty());
  return NicCounts(s.nic).dma.c;
}

/* Tag users where each channel may hold at most one tag of two. */
class ChannelLimitUsers : public sc_core::sc_module {
 public:
  ReadTagPool pool{2, true, 1};
  std::string order; /* 'R' or 'T' per grant, in time order */

  explicit ChannelLimitUsers(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_HAS_PROCESS(ChannelLimitUsers);
    SC_THREAD(rx_holder);
    SC_THREAD(rx2);
    SC_THREAD(tx1);
  }

 private:
  void rx_holder() {
    pool.acquire(true);
    order.push_back('R');
    wait(ns(10));
    pool.release(true);
  }
  void rx2() {
    wait(ns(1));
    pool.acquire(true); /* a tag is free, but RX holds its one: waits for the holder */
    order.push_back('R');
    pool.release(true);
  }
  void tx1() {
    wait(ns(2));
    pool.acquire(false); /* TX may take the free tag although RX waits (RX has priority) */
    order.push_back('T');
    wait(ns(20));
    pool.release(false);
  }
};

nicsim_config tx_cfg() {
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.run.duration_us = 1;
  cfg.run.seed = 11;
  return cfg;
}

constexpr uint64_t kHeadWb = 0x80000;

}  // namespace

TEST(NicPrefetch, ThresholdHoldsBackFetchesWhileTheCacheIsFullEnough) {
  /* Batch 4, cache 16, threshold 4: the first fetch (cache empty) and one
   * more (4 cached, not above 4); then 8 cached stop the fetcher. */
  run_prefetch(4, 2, 8);
}

TEST(NicPrefetch, WithoutThresholdTheCacheFillsCompletely) {
  run_prefetch(0, 4, 16);
}

TEST(ReadTagArbitration, RxPriorityServesAllRxFirst) {
  setup_systemc();
  TagUsers t("t", true);
  sc_core::sc_start(us(1));
  EXPECT_EQ(t.order, "RRTT");
  EXPECT_EQ(t.pool.granted(true), 2u);
  EXPECT_EQ(t.pool.granted(false), 3u); /* the holder's and two */
  EXPECT_EQ(t.pool.in_use(), 0u);
}

TEST(ReadTagArbitration, RoundRobinAlternatesChannels) {
  setup_systemc();
  TagUsers t("t", false);
  sc_core::sc_start(us(1));
  /* The holder (TX) was served last, so RX goes first, then they alternate. */
  EXPECT_EQ(t.order, "RTRT");
  EXPECT_EQ(t.pool.in_use(), 0u);
}

TEST(NicWriteBack, HeadModeWritesTheTxHeadIndexInsteadOfDescriptors) {
  setup_systemc();
  nicsim_config cfg = tx_cfg();
  cfg.nic.wb_mode = NC_WB_HEAD;
  cfg.nic.wb_threshold = 4;
  NicSim s(cfg);
  const uint32_t frames = 12;
  s.host.driver = [&](FakeHost &h) {
    h.setup_tx(64, 16, 1, 0, true);
    h.wr(GN_REG_TX_HEAD_WB_LO, static_cast<uint32_t>(kHeadWb));
    h.wr(GN_REG_TX_HEAD_WB_HI, 0);
    EXPECT_EQ(h.rd(GN_REG_TX_HEAD_WB_LO), static_cast<uint32_t>(kHeadWb));
    for (uint32_t i = 0; i < frames; i++) {
      uint64_t buf = kTxBufs + i * kBufStride;
      nf_fill(&h.mem[buf], 1514, 11, 0, i);
      h.put_tx_desc(16, i, buf, 1514, GN_DESC_OWN | GN_DESC_EOP);
    }
    h.wr(GN_REG_TX_TAIL, frames);
  };
  sc_core::sc_start(us(40));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(s.nic.engine().tx_ring().head(), frames);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_FALSE(wb.empty());
  EXPECT_EQ(wb.size(), c.dma.c.desc_writebacks);
  EXPECT_LE(wb.size(), static_cast<size_t>(frames)); /* at most one per descriptor... */
  for (const auto &a : wb) {
    EXPECT_EQ(a.addr, kHeadWb); /* ...and never to the ring */
    EXPECT_EQ(a.len, 4u);
  }
  uint32_t head = 0;
  std::memcpy(&head, &s.host.mem[kHeadWb], 4);
  EXPECT_EQ(head, frames);
  /* The descriptors stay as the driver wrote them: OWN still set. */
  for (uint32_t i = 0; i < frames; i++) EXPECT_EQ(s.host.tx_desc(16, i).flags, GN_DESC_OWN | GN_DESC_EOP) << i;
  EXPECT_EQ(c.dma.irq.raised, frames); /* coal_frames 1: every completion still interrupts */
  EXPECT_TRUE(s.what.empty());
}

TEST(NicWriteBack, BatchModeFromConfigWritesBackFourAtATimeFromABacklog) {
  setup_systemc();
  const uint64_t frames = 40;
  nicsim_config cfg = rx_config(64, frames);
  cfg.nic.wb_mode = NC_WB_BATCH;
  cfg.nic.wb_threshold = 4;
  cfg.nic.desc_cache_entries = 32;
  NicSim s(cfg);
  s.host.read_latency = ns(20);
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 32, 0, true);
    h.wr(GN_REG_CTRL, 0); /* the frames queue up in the FIFO */
    sc_core::wait(us(5));
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(20));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_writebacks, frames / 4);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames / 4);
  for (const auto &a : wb) EXPECT_EQ(a.len, 64u);
}

TEST(NicIrq, ItrThrottlingSpacesInterruptsByTheInterval) {
  setup_systemc();
  const uint64_t frames = 100;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.nic.irq_itr_usecs = 10;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) { h.setup_rx(256, 16, 255, 2048, 1, 0, true); };
  sc_core::sc_start(us(200));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames);
  /* Frames complete every 1.23 us: the first raises at once, then one MSI at
   * every 10 us after it while completions keep coming. */
  const uint64_t t0 = wb.front().end_ps, t_last = wb.back().end_ps;
  const uint64_t itr = 10000000;
  const uint64_t k_max = (t_last - t0 + itr - 1) / itr;
  ASSERT_EQ(c.dma.irq.raised, 1 + k_max);
  ASSERT_EQ(s.host.msi_ps.size(), 1 + k_max);
  NicClock clk(250);
  EXPECT_EQ(s.host.msi_ps[0], clk.after_cycles(t0, 0));
  for (uint64_t k = 1; k <= k_max; k++) EXPECT_EQ(s.host.msi_ps[k], clk.after_cycles(t0 + k * itr, 0)) << k;
  /* Every completion met coal_frames 1: it raised, deferred, or merged. */
  EXPECT_EQ(c.dma.irq.throttled, frames - c.dma.irq.raised);
  EXPECT_EQ(c.dma.irq.suppressed, 0u);
}

TEST(NicIrq, WithoutItrEveryCompletionInterrupts) {
  setup_systemc();
  const uint64_t frames = 100;
  NicSim s(rx_config(1518, frames));
  s.host.driver = [](FakeHost &h) { h.setup_rx(256, 16, 255, 2048, 1, 0, true); };
  sc_core::sc_start(us(200));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.irq.raised, frames);
  EXPECT_EQ(c.dma.irq.throttled, 0u);
}

TEST(WireImix, SizesFollowTheSimpleImixAndFramesLandIntactPerFlow) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_RX;
  cfg.traffic.frame_dist = NC_DIST_IMIX;
  cfg.traffic.flows = 3;
  cfg.run.duration_us = 60;
  cfg.run.seed = 11;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) { h.setup_rx(256, 16, 255, 2048, 32, 0, true); };
  sc_core::sc_start(us(200));
  const NicCounts c(s.nic);
  const uint64_t n = c.peer.rx_offered_frames;
  ASSERT_GT(n, 150u);
  ASSERT_LT(n, 255u);
  EXPECT_EQ(c.dma.c.rx_dma_frames, n);
  EXPECT_EQ(c.mac.rx_drop_fifo, 0u);
  const uint64_t *cnt = s.nic.peer().imix_counts();
  EXPECT_EQ(cnt[0] + cnt[1] + cnt[2], n);
  EXPECT_EQ(c.peer.rx_offered_bytes, cnt[0] * 64 + cnt[1] * 594 + cnt[2] * 1518);
  /* Binomial counts within 5 sigma of n x 7/12, 4/12, 1/12. */
  const double p[3] = {7.0 / 12, 4.0 / 12, 1.0 / 12};
  for (int i = 0; i < 3; i++) {
    double mean = n * p[i], sigma = std::sqrt(n * p[i] * (1 - p[i]));
    EXPECT_NEAR(static_cast<double>(cnt[i]), mean, 5 * sigma) << i;
    EXPECT_GT(cnt[i], 0u) << i;
  }
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < n; i++) {
    gn_rx_desc d = s.host.rx_desc(16, i);
    ASSERT_EQ(d.flags, GN_DESC_EOP) << i;
    EXPECT_TRUE(d.pkt_len == 60 || d.pkt_len == 590 || d.pkt_len == 1514) << d.pkt_len;
    nf_header h;
    ASSERT_EQ(nf_check(&s.host.mem[d.buf_addr], d.pkt_len, 11, &h), NF_OK) << i;
    EXPECT_EQ(h.flow, i % 3) << i;
    EXPECT_EQ(h.seq, i / 3) << i;
    bytes += d.pkt_len;
  }
  EXPECT_EQ(c.dma.c.data_write_bytes, bytes);
  EXPECT_EQ(bytes + 4 * n, c.peer.rx_offered_bytes);
}

TEST(NicTrace, TraceIsValidJsonInTimeOrderPerTrackAndMatchesTheCounters) {
  setup_systemc();
  const std::string path = testing::TempDir() + "nicsim_trace_test.json";
  ASSERT_EQ(nicsim_trace_open(path.c_str()), 0);
  const uint64_t frames = 40;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.traffic.mode = NC_MODE_BIDIR;
  NicCounts c;
  {
    NicSim s(cfg);
    s.host.driver = [](FakeHost &h) {
      h.setup_rx(64, 64, 63, 2048, 4, 0, true);
      h.setup_tx(64, 64, 4, 0, true);
      for (uint32_t i = 0; i < 10; i++) {
        uint64_t buf = kTxBufs + i * kBufStride;
        nf_fill(&h.mem[buf], 1514, 11, 0, i);
        h.put_tx_desc(64, i, buf, 1514, GN_DESC_OWN | GN_DESC_EOP);
      }
      h.wr(GN_REG_TX_TAIL, 10);
    };
    sc_core::sc_start(us(80));
    c = NicCounts(s.nic);
    ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
    ASSERT_EQ(c.peer.tx_ok, 10u);
  }
  ASSERT_EQ(nicsim_trace_close(), 0);

  json_error_t jerr;
  json_t *root = json_load_file(path.c_str(), 0, &jerr);
  ASSERT_NE(root, nullptr) << jerr.text << " at line " << jerr.line;
  json_t *events = json_object_get(root, "traceEvents");
  ASSERT_TRUE(json_is_array(events));
  std::map<long long, double> last_ts;
  std::map<long long, std::string> track_name;
  std::map<std::string, uint64_t> count;
  size_t i;
  json_t *e;
  json_array_foreach(events, i, e) {
    const char *ph = json_string_value(json_object_get(e, "ph"));
    const char *name = json_string_value(json_object_get(e, "name"));
    ASSERT_NE(ph, nullptr);
    ASSERT_NE(name, nullptr);
    long long tid = json_integer_value(json_object_get(e, "tid"));
    if (std::string(ph) == "M") {
      if (std::string(name) == "thread_name")
        track_name[tid] = json_string_value(json_object_get(json_object_get(e, "args"), "name"));
      continue;
    }
    if (std::string(ph) == "C") continue; /* counter tracks: by name, not tid (test_trace.cpp) */
    ASSERT_TRUE(std::string(ph) == "X" || std::string(ph) == "i") << ph;
    ASSERT_TRUE(track_name.count(tid)) << "event on an unnamed track " << tid;
    double ts = json_number_value(json_object_get(e, "ts"));
    if (last_ts.count(tid)) {
      EXPECT_GE(ts, last_ts[tid]) << "track " << track_name[tid] << " event " << i;
    }
    last_ts[tid] = ts;
    if (std::string(ph) == "X") {
      EXPECT_GE(json_number_value(json_object_get(e, "dur")), 0.0);
    }
    count[std::string(name)]++;
  }
  json_decref(root);
  EXPECT_EQ(count["desc_fetch"], c.dma.c.desc_fetch_reqs);
  EXPECT_EQ(count["desc_writeback"], c.dma.c.desc_writebacks); /* DmaPurpose names (common/dma_purpose.h) */
  EXPECT_EQ(count["data"], frames + 10); /* one write per RX frame, one read per TX frame */
  EXPECT_EQ(count["msi"], c.dma.irq.raised);
  EXPECT_EQ(count["raise"], c.dma.irq.raised);
  EXPECT_GT(c.dma.irq.raised, 0u);
  bool has_rx_fetch = false, has_msi = false;
  for (const auto &t : track_name) {
    has_rx_fetch |= t.second == "rxq0.fetch";
    has_msi |= t.second == "irq0.msi";
  }
  EXPECT_TRUE(has_rx_fetch);
  EXPECT_TRUE(has_msi);
}

namespace {

/* 64 B frames at line rate into a 4 KiB RX FIFO (68 frames) while the host
 * gives no descriptors for the first 10 us (149 frames), then 255. */
NicCounts run_stalled_rx(bool pause, uint64_t frames, uint64_t *peer_pauses, uint64_t *bad_order) {
  setup_systemc();
  nicsim_config cfg = rx_config(64, frames);
  cfg.nic.rx_fifo_bytes = 4096;
  cfg.nic.pause_enable = pause;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) {
    h.setup_rx(256, 16, 0, 2048, 32, 0, true);
    sc_core::wait(us(10));
    for (uint32_t i = 0; i < 255; i++) h.put_rx_desc(16, i, kRxBufs + i * kBufStride, 2048, GN_DESC_OWN);
    h.wr(GN_REG_RX_TAIL, 255);
  };
  sc_core::sc_start(us(200));
  const NicCounts c(s.nic);
  *peer_pauses = s.nic.peer().counters().pause_frames;
  *bad_order = 0;
  uint64_t last = 0;
  for (uint32_t i = 0; i < c.dma.c.rx_dma_frames && i < 255; i++) {
    gn_rx_desc d = s.host.rx_desc(16, i);
    nf_header h;
    if (nf_check(&s.host.mem[d.buf_addr], d.pkt_len, 11, &h) != NF_OK || (i > 0 && h.seq <= last)) ++*bad_order;
    last = h.seq;
  }
  EXPECT_EQ(c.peer.rx_offered_frames, c.dma.c.rx_dma_frames + c.mac.rx_drop_fifo + s.nic.frames_in_flight());
  return c;
}

}  // namespace

TEST(MacPause, XoffStopsThePeerBeforeTheFifoOverflowsAndXonResumesIt) {
  const uint64_t frames = 250;
  uint64_t peer_pauses = 0, bad = 0;
  NicCounts c = run_stalled_rx(true, frames, &peer_pauses, &bad);
  /* Paused frames are delayed, never dropped; the peer stops at the end of
   * traffic (250 frame times), so the frames the pause held back past it are
   * never offered. The XOFF came with the FIFO full (68 frames); that more
   * than 68 + 10 were offered shows the XON let the peer go on. */
  EXPECT_LT(c.peer.rx_offered_frames, frames);
  EXPECT_GT(c.peer.rx_offered_frames, 68u + 10u);
  EXPECT_EQ(c.mac.rx_drop_fifo, 0u);
  EXPECT_EQ(c.dma.c.rx_dma_frames, c.peer.rx_offered_frames);
  EXPECT_GE(c.mac.pause_xoff, 1u);
  EXPECT_GE(c.mac.pause_xon, 1u);
  EXPECT_EQ(peer_pauses, c.mac.pause_xoff + c.mac.pause_xon);
  EXPECT_EQ(bad, 0u);
}

TEST(MacPause, WithoutPauseTheSameStallDropsFrames) {
  const uint64_t frames = 250;
  uint64_t peer_pauses = 0, bad = 0;
  NicCounts c = run_stalled_rx(false, frames, &peer_pauses, &bad);
  EXPECT_EQ(c.peer.rx_offered_frames, frames);
  EXPECT_GT(c.mac.rx_drop_fifo, 0u);
  EXPECT_EQ(c.mac.pause_xoff + c.mac.pause_xon, 0u);
  EXPECT_EQ(peer_pauses, 0u);
  EXPECT_EQ(bad, 0u);
}

/* NicClock's first edge at or after t, by a multiply with the period's
 * reciprocal for whole-picosecond periods, against plain division: periods
 * of 2 ps to 1 ms, times near 0, near edges, and near 2^63. */
TEST(NicClockEdges, ReciprocalMatchesDivision) {
  const double mhz[] = {500000, 250000, 3000, 1000, 800, 333.333333, 250, 156.25, 125, 62.5, 1, 0.001};
  const uint64_t big = 1ull << 63;
  uint64_t z = 0x9E3779B97F4A7C15ull; /* splitmix64 stream for the random times */
  for (double f : mhz) {
    NicClock clk(f);
    const uint64_t p = static_cast<uint64_t>(std::llround(1e6 / f));
    const bool whole = std::fabs(1e6 / f - static_cast<double>(p)) < 1e-9;
    std::vector<uint64_t> ts = {0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p, 1000000007ull, big - p, big - 1 - p};
    for (int i = 0; i < 2000; i++) {
      z += 0x9E3779B97F4A7C15ull;
      uint64_t x = z;
      x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
      x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
      x ^= x >> 31;
      ts.push_back(x % (big - 2 * p));
    }
    for (uint64_t t : ts) {
      const uint64_t k = clk.edge_index_at_or_after(t);
      if (whole) {
        EXPECT_EQ(k, (t + p - 1) / p) << f << " MHz, t " << t;
      }
      /* Either way: edge k is at or after t, edge k - 1 before it. */
      EXPECT_GE(clk.edge_ps(k), t) << f << " MHz, t " << t;
      if (k > 0) {
        EXPECT_LT(clk.edge_ps(k - 1), t) << f << " MHz, t " << t;
      }
    }
  }
}

TEST(NicSpacedFetch, SingleReadsOneSpacedDescriptorPerRequest) {
  std::vector<uint32_t> lens;
  const DmaCounters c = run_spaced_fetch(default_config(), &lens);
  EXPECT_EQ(c.desc_fetch_reqs, 16u);
  EXPECT_EQ(c.desc_fetched, 16u);
  for (uint32_t l : lens) EXPECT_EQ(l, 16u);
}

TEST(NicSpacedFetch, SpanReadsSeveralSpacedDescriptorsAndTheirGaps) {
  nicsim_config cfg = default_config();
  cfg.nic.desc_fetch_spaced = NC_FETCH_SPACED_SPAN;
  std::vector<uint32_t> lens;
  const DmaCounters c = run_spaced_fetch(cfg, &lens);
  EXPECT_EQ(c.desc_fetch_reqs, 4u);
  EXPECT_EQ(c.desc_fetched, 16u);
  for (uint32_t l : lens) EXPECT_EQ(l, 3u * 64 + 16); /* first to last descriptor of 4 */
}

TEST(NicSpacedFetch, WithoutPrefetchASpacedDescriptorIsFetchedOnlyWhenTheCacheIsEmpty) {
  nicsim_config cfg = default_config();
  cfg.nic.desc_prefetch_spaced = false;
  const DmaCounters c = run_spaced_fetch(cfg);
  EXPECT_EQ(c.desc_fetch_reqs, 1u); /* nothing consumes it: no second fetch */
  EXPECT_EQ(c.desc_fetched, 1u);
}

TEST(NicIssueRate, TheEngineStartsAtMostOneRequestPerIssueInterval) {
  nicsim_config cfg = default_config();
  cfg.nic.dma_issue_ns = 4000;
  const DmaCounters c = run_spaced_fetch(cfg);
  /* 10 us of fetches (and the MSI-less start) at one request per 4 us. */
  EXPECT_LE(c.desc_fetch_reqs, 3u);
  EXPECT_GE(c.desc_fetch_reqs, 2u);
}

TEST(ReadTagArbitration, PerChannelLimitHoldsAChannelAtItsShare) {
  setup_systemc();
  ChannelLimitUsers t("t");
  sc_core::sc_start(us(1));
  EXPECT_EQ(t.order, "RTR");
  EXPECT_EQ(t.pool.in_use(), 0u);
}
