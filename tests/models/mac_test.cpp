/* mac_test.cpp: the MAC's wire timing, FIFOs and drops, the wire peer's
 * offered stream, and the FIFO and clock building blocks. */
#include <gtest/gtest.h>

#include <vector>

#include "sim/model_params.h"
#include "dma/nic_clock.h"
#include "mac/byte_fifo.h"
#include "mac/mac.h"
#include "models/test_rig.h"
#include "traffic/wire_peer.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

/* A consumer of the MAC's RX FIFO that records each frame's arrival time
 * and checks its bytes. */
class RxDrain : public sc_core::sc_module {
 public:
  std::vector<uint64_t> arrival_ps;
  std::vector<uint64_t> sent_ps; /* the frames' send timestamps */
  uint64_t bad = 0;
  bool enabled = true;

  RxDrain(sc_core::sc_module_name n, Mac &mac, uint64_t seed) : sc_core::sc_module(n), m_mac(mac), m_seed(seed) {
    SC_HAS_PROCESS(RxDrain);
    SC_THREAD(run);
  }

 private:
  void run() {
    if (!enabled) return;
    for (;;) {
      while (m_mac.rx_fifo().frames() == 0) m_mac.wait_rx_frame();
      uint32_t len = 0;
      const uint8_t *p = m_mac.rx_fifo().front(&len);
      nf_header h;
      if (nf_check(p, len, m_seed, &h) != NF_OK || h.seq != arrival_ps.size()) bad++;
      arrival_ps.push_back(now_ps());
      sent_ps.push_back(h.ts_ps);
      m_mac.rx_fifo().pop();
    }
  }
  Mac &m_mac;
  uint64_t m_seed;
};

/* Keeps the MAC's TX FIFO full of test frames 0..count-1. */
class TxFeed : public sc_core::sc_module {
 public:
  TxFeed(sc_core::sc_module_name n, Mac &mac, uint32_t dma_len, uint64_t count, uint64_t seed)
      : sc_core::sc_module(n), m_mac(mac), m_len(dma_len), m_count(count), m_seed(seed) {
    SC_HAS_PROCESS(TxFeed);
    SC_THREAD(run);
  }

 private:
  void run() {
    for (uint64_t seq = 0; seq < m_count; seq++) {
      while (!m_mac.tx_fifo().can_append(m_len)) m_mac.wait_tx_space();
      uint8_t *p = m_mac.tx_fifo().append(m_len);
      nf_fill(p, m_len, m_seed, 0, seq);
      m_mac.tx_fifo().close_frame();
      m_mac.tx_publish();
    }
  }
  Mac &m_mac;
  uint32_t m_len;
  uint64_t m_count;
  uint64_t m_seed;
};

/* Pops RX frames through Mac::rx_pop at fixed times and reads the counters
 * in between (all from a thread, as the DMA engine does). */
class SlowDrain : public sc_core::sc_module {
 public:
  uint64_t offered_mid = 0, drops_mid = 0, stored_mid = 0;

  SlowDrain(sc_core::sc_module_name n, Mac &mac, WirePeer &peer) : sc_core::sc_module(n), m_mac(mac), m_peer(peer) {
    SC_HAS_PROCESS(SlowDrain);
    SC_THREAD(run);
  }
  /* Arrival of 64 B frame k at 10 Gbit/s: (8 + 64) B, then 84 B apart, x 800 ps/B. */
  static uint64_t arrival_ps(uint64_t k) { return 57600 + k * 67200; }

 private:
  void run() {
    wait(sc_core::sc_time::from_value(arrival_ps(40)));
    m_mac.rx_pop(); /* at frame 40's very arrival: it came first */
    wait(sc_core::sc_time::from_value(arrival_ps(50) - arrival_ps(40)));
    offered_mid = m_peer.counters().rx_offered_frames;
    drops_mid = m_mac.counters().rx_drop_fifo;
    stored_mid = m_mac.counters().rx_frames;
    wait(sc_core::sc_time::from_value(arrival_ps(60) + 1000 - arrival_ps(50)));
    m_mac.rx_pop();
    m_mac.rx_pop();
  }
  Mac &m_mac;
  WirePeer &m_peer;
};

/* A busy consumer: looks at the RX FIFO at fixed times without ever
 * waiting for a frame (as the DMA engine does while it has work), records
 * what it sees, and pops one frame at each look that finds one. */
class BusyLooker : public sc_core::sc_module {
 public:
  std::vector<uint32_t> seen;    /* frames() at each look */
  std::vector<uint64_t> popped;  /* seq of each popped frame */
  std::vector<uint64_t> stored;  /* Mac rx_frames at each look */

  BusyLooker(sc_core::sc_module_name n, Mac &mac, std::vector<uint64_t> look_ps)
      : sc_core::sc_module(n), m_mac(mac), m_look(std::move(look_ps)) {
    SC_HAS_PROCESS(BusyLooker);
    SC_THREAD(run);
  }

 private:
  void run() {
    for (uint64_t t : m_look) {
      wait(sc_core::sc_time::from_value(t - now_ps()));
      seen.push_back(m_mac.rx_fifo().frames());
      stored.push_back(m_mac.counters().rx_frames);
      if (m_mac.rx_fifo().frames() == 0) continue;
      uint32_t len = 0;
      const uint8_t *p = m_mac.rx_fifo().front(&len);
      nf_header h{};
      popped.push_back(nf_check(p, len, 7, &h) == NF_OK ? h.seq : UINT64_MAX);
      m_mac.rx_pop();
    }
  }
  Mac &m_mac;
  std::vector<uint64_t> m_look;
};

/* The MAC and the wire peer of a config, connected as in a NicDevice (the
 * peer is the MAC's TX sink and its RX source). */
struct WireRig {
  Mac mac;
  WirePeer peer;
  explicit WireRig(const nicsim_config &cfg)
      : mac("mac", nic_params(cfg).mac), peer("peer", nic_params(cfg).peer, mac) {
    mac.set_tx_sink(&peer);
  }
};

nicsim_config wire_config(uint32_t frame_bytes, uint64_t frames, double interval_ns) {
  nicsim_config cfg = default_config();
  cfg.traffic.frame_bytes = frame_bytes;
  cfg.traffic.mode = NC_MODE_RX;
  /* frames start at n * interval for n < frames */
  cfg.run.duration_us = (static_cast<double>(frames) - 0.5) * interval_ns / 1000.0;
  cfg.run.seed = 7;
  return cfg;
}

/* frames 64 B frames back to back at 10 GbE into a 2048 B RX FIFO (34 fit). */
nicsim_config small_fifo_config(uint64_t frames) {
  nicsim_config cfg = wire_config(64, frames, 67.2);
  cfg.nic.rx_fifo_bytes = 2048;
  return cfg;
}

}  // namespace

TEST(ByteFifo, WrappingFrameStaysContiguousAndBytesAreExact) {
  ByteFifo f(100, 40, 10);
  for (int i = 0; i < 3; i++) {
    uint8_t *p = f.append(30);
    ASSERT_NE(p, nullptr);
    std::memset(p, 'a' + i, 30);
    f.close_frame();
    f.publish_frame();
  }
  EXPECT_EQ(f.used_bytes(), 90u);
  EXPECT_EQ(f.free_bytes(), 10u);
  EXPECT_FALSE(f.can_append(11));
  EXPECT_EQ(f.append(20), nullptr);
  f.pop(); /* frees bytes 0..29 */
  /* 20 bytes from offset 90: logically wraps, physically contiguous. */
  uint8_t *p = f.append(20);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 20; i++) p[i] = static_cast<uint8_t>(i);
  f.close_frame();
  EXPECT_EQ(f.frames(), 2u);
  EXPECT_EQ(f.frames_unpublished(), 1u);
  f.publish_frame();
  EXPECT_EQ(f.used_bytes(), 80u);
  uint32_t len = 0;
  f.pop();
  f.pop();
  const uint8_t *q = f.front(&len);
  ASSERT_NE(q, nullptr);
  ASSERT_EQ(len, 20u);
  for (int i = 0; i < 20; i++) EXPECT_EQ(q[i], i);
  /* The next frame starts at logical offset 10 and must not overlap it. */
  uint8_t *r = f.append(40);
  ASSERT_NE(r, nullptr);
  std::memset(r, 0xEE, 40);
  for (int i = 0; i < 20; i++) EXPECT_EQ(q[i], i);
  EXPECT_EQ(f.free_bytes(), 40u);
  EXPECT_FALSE(f.can_append(1)); /* open frame is at the 40-byte frame limit */
}

TEST(ByteFifo, FrameTableLimitsFrameCount) {
  ByteFifo f(100, 40, 50); /* table holds 100/50 + 2 = 4 frames */
  for (int i = 0; i < 4; i++) {
    ASSERT_NE(f.append(1), nullptr);
    f.close_frame();
  }
  EXPECT_EQ(f.append(1), nullptr);
  EXPECT_EQ(f.frames_held(), 4u);
  EXPECT_EQ(f.frames(), 0u);
}

TEST(NicClock, EdgesDoNotDriftWithFractionalPeriods) {
  NicClock c250(250);
  EXPECT_EQ(c250.edge_ps(1), 4000u);
  EXPECT_EQ(c250.after_cycles(4000, 0), 4000u);
  EXPECT_EQ(c250.after_cycles(4001, 0), 8000u);
  EXPECT_EQ(c250.after_cycles(4001, 4), 24000u);
  NicClock c300(300); /* 3333.33 ps */
  EXPECT_EQ(c300.edge_ps(3), 10000u);
  EXPECT_EQ(c300.edge_ps(3000000), 10000000000u);
  EXPECT_EQ(c300.after_cycles(3334, 0), 6667u);
  EXPECT_EQ(c300.after_cycles(3333, 0), 3333u);
  EXPECT_EQ(c300.edge_index_at_or_after(6667), 2u);
}

TEST(MacWire, RxBackToBack64BFramesArriveAt14_88Mpps) {
  setup_systemc();
  const uint64_t frames = 1000;
  nicsim_config cfg = wire_config(64, frames, 67.2);
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  WirePeer &peer = rig.peer;
  RxDrain drain("drain", mac, 7);
  sc_core::sc_start(us(100));
  ASSERT_EQ(drain.arrival_ps.size(), frames);
  EXPECT_EQ(drain.bad, 0u);
  EXPECT_EQ(peer.counters().rx_offered_frames, frames);
  EXPECT_EQ(peer.counters().rx_offered_bytes, frames * 64);
  /* (8 B preamble + 64 B frame) x 0.8 ns for the first; then 84 B x 0.8 ns apart. */
  EXPECT_EQ(drain.arrival_ps[0], 57600u);
  for (size_t i = 1; i < frames; i++) ASSERT_EQ(drain.arrival_ps[i] - drain.arrival_ps[i - 1], 67200u) << i;
  double mpps = (frames - 1) / ((drain.arrival_ps.back() - drain.arrival_ps[0]) * 1e-12) / 1e6;
  EXPECT_NEAR(mpps, 14.880952, 1e-6);
  EXPECT_EQ(mac.counters().rx_drop_fifo, 0u);
  /* The drain waits whenever the FIFO is empty (Mac::wait_rx_frame), so the
   * lazy peer (wire_peer.h) wakes on time for each frame: the initial run
   * of its method, then one per frame. */
  EXPECT_EQ(peer.rx_wakes(), 1u + frames);
}

TEST(MacWire, TxBackToBack64BFramesLeaveAt14_88Mpps) {
  setup_systemc();
  const uint64_t frames = 1000;
  nicsim_config cfg = wire_config(64, 1, 67.2);
  cfg.traffic.mode = NC_MODE_TX;
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  WirePeer &peer = rig.peer;
  TxFeed feed("feed", mac, 60, frames, 7);
  sc_core::sc_start(us(100));
  EXPECT_EQ(peer.counters().tx_ok, frames);
  EXPECT_EQ(peer.counters().tx_errors, 0u);
  EXPECT_EQ(peer.counters().tx_gaps, 0u);
  EXPECT_EQ(peer.counters().rx_offered_frames, 0u); /* mode tx: the peer offers nothing */
  EXPECT_EQ(mac.counters().tx_wire_frames, frames);
  EXPECT_EQ(mac.counters().tx_wire_bytes, frames * 64);
  EXPECT_EQ(peer.tx_first_ps(), 57600u); /* preamble + frame with FCS */
  EXPECT_EQ(peer.tx_last_ps() - peer.tx_first_ps(), (frames - 1) * 67200u);
}

TEST(MacWire, RxFifoOverflowDropsAreCounted) {
  setup_systemc();
  const uint64_t frames = 100;
  const nicsim_config cfg = small_fifo_config(frames);
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  WirePeer &peer = rig.peer;
  sc_core::sc_start(us(20)); /* nobody drains the FIFO */
  /* 60 B per stored frame (FCS stripped): floor(2048 / 60) = 34 fit. */
  EXPECT_EQ(mac.counters().rx_frames, 34u);
  EXPECT_EQ(mac.rx_fifo().frames(), 34u);
  EXPECT_EQ(mac.rx_fifo().used_bytes(), 34u * 60);
  EXPECT_EQ(mac.counters().rx_drop_fifo, frames - 34);
  EXPECT_EQ(peer.counters().rx_offered_frames, frames);
}

TEST(MacWire, DropsAtAFullFifoAreExactWhenThePeerDefersThem) {
  /* The peer stops waking per arrival once the FIFO is full and replays the
   * drops before a pop or a counter read (wire_peer.h); the counts and the
   * frames stored must be those of per-arrival delivery. 100 frames of 64 B
   * back to back, a 2048 B FIFO: frames 0..33 fit (34 x 60 B). */
  setup_systemc();
  const uint64_t frames = 100;
  const nicsim_config cfg = small_fifo_config(frames);
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  WirePeer &peer = rig.peer;
  SlowDrain drain("drain", mac, peer);
  sc_core::sc_start(us(20));
  /* At frame 50's arrival: offered 0..50 = 51; stored 0..33 and 41 (the pop
   * at frame 40's arrival comes after it, so 40 is dropped and 41 finds the
   * room) = 35; dropped 34..40 and 42..50 = 7 + 9 = 16. */
  EXPECT_EQ(drain.offered_mid, 51u);
  EXPECT_EQ(drain.stored_mid, 35u);
  EXPECT_EQ(drain.drops_mid, 16u);
  /* Two pops 1 ns after frame 60's arrival: 61 and 62 fit; 63..99 dropped.
   * Stored 34 + 1 + 2 = 37, dropped 100 - 37 = 63. */
  EXPECT_EQ(mac.counters().rx_frames, 37u);
  EXPECT_EQ(mac.counters().rx_drop_fifo, 63u);
  EXPECT_EQ(peer.counters().rx_offered_frames, frames);
  EXPECT_EQ(peer.counters().rx_offered_bytes, frames * 64);
  /* In the FIFO, in order: 3..33, 41, 61, 62 (0, 1, 2 were popped). */
  std::vector<uint64_t> seqs;
  while (mac.rx_fifo().frames() > 0) {
    uint32_t len = 0;
    const uint8_t *p = mac.rx_fifo().front(&len);
    nf_header h{};
    ASSERT_EQ(nf_check(p, len, 7, &h), NF_OK);
    seqs.push_back(h.seq);
    mac.rx_fifo().pop();
  }
  std::vector<uint64_t> want;
  for (uint64_t k = 3; k <= 33; k++) want.push_back(k);
  want.push_back(41);
  want.push_back(61);
  want.push_back(62);
  EXPECT_EQ(seqs, want);
}

TEST(MacWire, LazyArrivalsAreSeenAtTheirOwnTimeByALookThatNeverWaits) {
  /* Nobody waits for a frame, so the peer does not wake per arrival
   * (wire_peer.h, lazy arrivals): a look at the FIFO must still see exactly
   * the frames that have arrived by now, an arrival at the very time of the
   * look included, and the ones arriving later not. 64 B frames arrive at
   * SlowDrain::arrival_ps(k) = 57.6 ns + k x 67.2 ns; a 2048 B FIFO holds 34. */
  setup_systemc();
  const uint64_t frames = 100;
  const nicsim_config cfg = small_fifo_config(frames);
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  WirePeer &peer = rig.peer;
  const std::vector<uint64_t> looks = {
      SlowDrain::arrival_ps(0) - 1, /* before frame 0: empty */
      SlowDrain::arrival_ps(0),     /* at frame 0's arrival: it is there (popped) */
      SlowDrain::arrival_ps(3) - 1, /* frames 1, 2 (3 is 1 ps away) */
      SlowDrain::arrival_ps(3),     /* 2 (one popped), 3 */
      SlowDrain::arrival_ps(60),    /* FIFO filled at 34 + 3 popped = up to frame 36, 37..60 dropped */
      SlowDrain::arrival_ps(61) + 5, /* 61 found the room of the pop at 60 */
  };
  BusyLooker look("look", mac, looks);
  sc_core::sc_start(us(20));
  EXPECT_EQ(look.seen, (std::vector<uint32_t>{0, 1, 2, 2, 34, 34}));
  EXPECT_EQ(look.popped, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  /* Stored by each look: 0, 1, 3, 4, then frames 0..36 (37), then 61 (38). */
  EXPECT_EQ(look.stored, (std::vector<uint64_t>{0, 1, 3, 4, 37, 38}));
  /* The last look's pop made room for frame 62; 63..99 found the FIFO
   * full. Stored 39 (0..36, 61, 62), dropped 37..60 and 63..99 = 24 + 37. */
  EXPECT_EQ(mac.counters().rx_frames, 39u);
  EXPECT_EQ(mac.counters().rx_drop_fifo, 61u);
  EXPECT_EQ(peer.counters().rx_offered_frames, frames);
  /* Only the method's initial run: no look waited, so no arrival woke the peer. */
  EXPECT_EQ(peer.rx_wakes(), 1u);
}

TEST(MacWire, OfferedRateBelowLineRateSpacesFramesByTheirOwnBits) {
  setup_systemc();
  /* 1518 B at 5 Gbit/s: one frame start every 1518 x 8 / 5 = 2428.8 ns. */
  const uint64_t frames = 50;
  nicsim_config cfg = wire_config(1518, frames, 2428.8);
  cfg.traffic.rate_gbps = 5;
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  RxDrain drain("drain", mac, 7);
  sc_core::sc_start(us(200));
  ASSERT_EQ(drain.arrival_ps.size(), frames);
  EXPECT_EQ(drain.bad, 0u);
  EXPECT_EQ(drain.arrival_ps[0], (8u + 1518u) * 800u);
  for (size_t i = 1; i < frames; i++) ASSERT_EQ(drain.arrival_ps[i] - drain.arrival_ps[i - 1], 2428800u);
}

TEST(MacWire, OfferedRateCannotExceedLineRate) {
  setup_systemc();
  /* 10 Gbit/s of frame bits is more than a 10G link carries with preamble
   * and IFG: frames go back to back, (1518 + 20) x 0.8 ns apart. */
  const uint64_t frames = 20;
  nicsim_config cfg = wire_config(1518, frames, 1230.4);
  cfg.traffic.rate_gbps = 10;
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  RxDrain drain("drain", mac, 7);
  sc_core::sc_start(us(100));
  ASSERT_EQ(drain.arrival_ps.size(), frames);
  for (size_t i = 1; i < frames; i++) ASSERT_EQ(drain.arrival_ps[i] - drain.arrival_ps[i - 1], 1230400u);
}

/* Every supported line rate: 64 B frames back to back arrive
 * (8 + 64 + 12) B x 8000 / rate ps apart, the first after (8 + 64) B. */
class MacLineRate : public testing::TestWithParam<double> {};

TEST_P(MacLineRate, BackToBack64BFramesAt) {
  setup_systemc();
  const double rate = GetParam();
  const uint64_t frames = 200;
  const double interval_ns = 84 * 8 / rate;
  nicsim_config cfg = wire_config(64, frames, interval_ns);
  cfg.nic.line_rate_gbps = rate;
  WireRig rig(cfg);
  Mac &mac = rig.mac;
  RxDrain drain("drain", mac, 7);
  sc_core::sc_start(sc_core::sc_time(interval_ns * (frames + 10), sc_core::SC_NS));
  ASSERT_EQ(drain.arrival_ps.size(), frames);
  EXPECT_EQ(drain.bad, 0u);
  const uint64_t ps_per_byte = static_cast<uint64_t>(8000 / rate); /* exact for these rates */
  EXPECT_EQ(drain.arrival_ps[0], 72 * ps_per_byte);
  for (size_t i = 1; i < frames; i++) ASSERT_EQ(drain.arrival_ps[i] - drain.arrival_ps[i - 1], 84 * ps_per_byte) << i;
  /* Each frame carries its preamble's start as its send time. */
  for (size_t i = 0; i < frames; i++) ASSERT_EQ(drain.sent_ps[i], i * 84 * ps_per_byte) << i;
  EXPECT_EQ(mac.counters().rx_drop_fifo, 0u);
}

INSTANTIATE_TEST_SUITE_P(Rates, MacLineRate, testing::Values(1.0, 2.5, 10.0, 25.0, 40.0, 100.0));
