/* nic_mq_test.cpp: several queues on the NIC model (docs/nic.md, Queues):
 * RSS puts each frame on the queue its flow's Toeplitz hash and the
 * indirection table name (exact per-queue counts, frame by frame); each
 * queue pair's vector has its own mask, coalescing and MSI data; TX queues
 * are served round robin, a frame at a time; bad RSS programming is a
 * violation; a queue without descriptors blocks the FIFO, or with
 * nic.rx_drop_nodesc loses only its own frames. A fake host plays the
 * driver through the queue registers. */
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "models/nic_sim.h"
#include "net/rss.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

constexpr uint32_t kRing = 64;       /* descriptors per RX ring */
constexpr uint64_t kRingStride = 0x4000; /* queue q's RX ring at kRxRing + q x this */

/* Queue (or vector) q's register r: the single-queue alias for queue 0 is
 * not used, so the queue blocks are what is tested. */
uint32_t qreg(uint32_t q, uint32_t r) { return GN_QREG(q, r); }

uint64_t rx_ring_pa(uint32_t q) { return kRxRing + q * kRingStride; }
uint64_t rx_buf_pa(uint32_t q, uint32_t i) { return kRxBufs + (static_cast<uint64_t>(q) * kRing + i) * kBufStride; }

/* Programs RX queue q: kRing - 1 buffers, tail at kRing - 1. */
void setup_rxq(FakeHost &h, uint32_t q) {
  for (uint32_t i = 0; i + 1 < kRing; i++) {
    gn_rx_desc d{rx_buf_pa(q, i), 2048, 0, GN_DESC_OWN, 0};
    std::memcpy(&h.mem[rx_ring_pa(q) + i * 16], &d, sizeof d);
  }
  h.wr(qreg(q, GN_Q_RX_RING_LO), static_cast<uint32_t>(rx_ring_pa(q)));
  h.wr(qreg(q, GN_Q_RX_RING_HI), 0);
  h.wr(qreg(q, GN_Q_RX_RING_SIZE), kRing);
  h.wr(qreg(q, GN_Q_RX_TAIL), kRing - 1);
}

/* Vector v: MSI data 0x100 + v, coalescing, mask. */
void setup_vec(FakeHost &h, uint32_t v, uint32_t coal_frames, uint32_t coal_usecs, bool unmask) {
  h.wr(qreg(v, GN_Q_MSI_ADDR_LO), static_cast<uint32_t>(kMsiAddr));
  h.wr(qreg(v, GN_Q_MSI_ADDR_HI), 0);
  h.wr(GN_REG_MSIX_DATA(v), 0x100 + v);
  h.wr(qreg(v, GN_Q_COAL_FRAMES), coal_frames);
  h.wr(qreg(v, GN_Q_COAL_USECS), coal_usecs);
  h.wr(qreg(v, GN_Q_INT_MASK), unmask ? 0 : GN_INT_ALL);
}

/* The MS key and the default table (entry i: queue i mod queues) of size entries. */
void setup_rss(FakeHost &h, uint32_t queues, uint32_t size) {
  for (uint32_t i = 0; i < GN_RSS_KEY_REGS; i++) {
    const uint8_t *k = nf_rss_ms_key + 4 * i;
    h.wr(GN_REG_RSS_KEY(i), k[0] | k[1] << 8 | k[2] << 16 | static_cast<uint32_t>(k[3]) << 24);
  }
  for (uint32_t i = 0; i < size / 4; i++) {
    uint32_t v = 0;
    for (uint32_t j = 0; j < 4; j++) v |= ((4 * i + j) % queues) << (8 * j);
    h.wr(GN_REG_RSS_LUT(i), v);
  }
  h.wr(GN_REG_RSS_TABLE_SIZE, size);
}

/* The RX queue of each of the 16 test flows with the MS key and a 128-entry
 * default table, hand-derived: the Toeplitz hashes of flow f's tuple
 * 10.0.0.2:(10000 + f) -> 10.0.0.1:5001 (computed with an independent
 * implementation, checked against the MS spec's vectors) are
 *   f:     0          1          2          3          4          5          6          7
 *   hash:  0x631fa694 0xf1810745 0xaa50f67c 0x38ce57ad 0x87b80ee0 0x1526af31 0x4ef75e08 0xdc69ffd9
 *   f:     8          9          10         11         12         13         14         15
 *   hash:  0x114c72ae 0x83d2d37f 0xd8032246 0x4a9d8397 0xf5ebdada 0x67757b0b 0x3ca48a32 0xae3a2be3
 * so the table entries (hash & 127) are 20 69 124 45 96 49 8 89 46 127 70 23 90 11 50 99. */
const uint32_t kEntry[16] = {20, 69, 124, 45, 96, 49, 8, 89, 46, 127, 70, 23, 90, 11, 50, 99};

}  // namespace

TEST(NicMq, EntriesOfTheFlowsAreThoseOfTheToeplitzHash) {
  for (uint32_t f = 0; f < 16; f++) {
    nf_rss_tuple t = nf_rss_flow_tuple(f);
    EXPECT_EQ(nf_rss_hash(nf_rss_ms_key, &t) & 127, kEntry[f]) << f;
  }
}

/* 64 frames of 16 flows (4 each) on 4 and on 3 queues: entry mod 4 puts
 * flows 0-7 alternately on queues 0 and 1 and flows 8-15 on 2 and 3 (16
 * frames each); entry mod 3 gives queue 0 flows {1, 3, 4, 12, 15}, queue 1
 * {2, 5, 8, 9, 10}, queue 2 {0, 6, 7, 11, 13, 14}: 20, 20 and 24 frames.
 * Every frame lands in its queue's ring, in order per queue. */
void run_spread(uint32_t queues, const std::vector<uint64_t> &want) {
  setup_systemc();
  const uint64_t frames = 64;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.traffic.flows = 16;
  cfg.nic.rx_queues = queues;
  NicSim s(cfg);
  s.host.driver = [queues](FakeHost &h) {
    h.wr(GN_REG_DESC_SPACING, 16);
    h.wr(GN_REG_RX_BUF_SIZE, 2048);
    for (uint32_t q = 0; q < queues; q++) {
      setup_rxq(h, q);
      setup_vec(h, q, 1, 0, true);
    }
    setup_rss(h, queues, 128);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(200));
  ASSERT_TRUE(s.what.empty()) << s.what[0];
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  ASSERT_EQ(c.dma.rx_queues, queues);
  for (uint32_t q = 0; q < queues; q++) {
    EXPECT_EQ(c.dma.c.rxq_frames[q], want[q]) << "queue " << q;
    EXPECT_EQ(c.dma.c.rxq_steered[q], want[q]) << "queue " << q;
    EXPECT_EQ(s.nic.engine().rx_ring(q).head(), want[q]) << "queue " << q;
    /* Each written-back buffer holds a frame of a flow whose entry names q, in frame order. */
    uint64_t last = 0;
    for (uint32_t i = 0; i < want[q]; i++) {
      gn_rx_desc d;
      std::memcpy(&d, &s.host.mem[rx_ring_pa(q) + i * 16], sizeof d);
      EXPECT_EQ(d.flags & GN_DESC_OWN, 0) << q << "/" << i;
      nf_header h{};
      ASSERT_EQ(nf_check(&s.host.mem[rx_buf_pa(q, i)], d.pkt_len, 11, &h), NF_OK) << q << "/" << i;
      EXPECT_EQ(kEntry[h.flow] % queues, q) << "flow " << h.flow;
      const uint64_t n = h.seq * 16 + h.flow; /* the frame's number on the wire */
      if (i) {
        EXPECT_GT(n, last);
      }
      last = n;
    }
  }
  /* One MSI per frame (coalescing 1, never masked), each with its vector's data. */
  std::vector<uint64_t> per_vec(queues, 0);
  for (uint32_t d : s.host.msi_data) {
    ASSERT_GE(d, 0x100u);
    ASSERT_LT(d, 0x100u + queues);
    per_vec[d - 0x100]++;
  }
  for (uint32_t v = 0; v < queues; v++) EXPECT_EQ(per_vec[v], s.nic.engine().irq_counters(v).raised) << v;
}

TEST(NicMq, RssSpreadsSixteenFlowsOverFourQueues) { run_spread(4, {16, 16, 16, 16}); }
TEST(NicMq, RssSpreadsSixteenFlowsOverThreeQueuesUnevenly) { run_spread(3, {20, 20, 24}); }

/* Two queues (flow 0 -> entry 20 -> queue 0, flow 1 -> entry 69 -> queue 1),
 * 16 frames: vector 0 coalesces 4 frames and is unmasked; vector 1
 * interrupts per frame but stays masked until the driver unmasks it after
 * all frames: 8 / 4 = 2 MSIs on vector 0, 8 suppressed then one MSI at the
 * unmask on vector 1. A shared mask or counter would give other counts. */
TEST(NicMq, EachVectorHasItsOwnMaskCoalescingAndMsiData) {
  setup_systemc();
  const uint64_t frames = 16;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.traffic.flows = 2;
  cfg.nic.rx_queues = 2;
  NicSim s(cfg);
  NicCounts before{};
  uint32_t status1 = 0, status0 = 0;
  uint64_t unmask_ps = 0;
  s.host.driver = [&](FakeHost &h) {
    h.wr(GN_REG_DESC_SPACING, 16);
    h.wr(GN_REG_RX_BUF_SIZE, 2048);
    for (uint32_t q = 0; q < 2; q++) setup_rxq(h, q);
    setup_vec(h, 0, 4, 0, true);
    setup_vec(h, 1, 1, 0, false);
    setup_rss(h, 2, 128);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
    while (h.rd(qreg(1, GN_Q_RX_HEAD)) != 8 || h.rd(qreg(0, GN_Q_RX_HEAD)) != 8) sc_core::wait(us(1));
    before = NicCounts(s.nic);
    status0 = h.rd(qreg(0, GN_Q_INT_STATUS));
    status1 = h.rd(qreg(1, GN_Q_INT_STATUS));
    unmask_ps = now_ps();
    h.wr(qreg(1, GN_Q_INT_MASK), 0);
  };
  sc_core::sc_start(us(100));
  ASSERT_TRUE(s.what.empty()) << s.what[0];
  EXPECT_EQ(before.dma.vec[0].raised, 2u);
  EXPECT_EQ(before.dma.vec[0].suppressed, 0u);
  EXPECT_EQ(before.dma.vec[1].raised, 0u);
  EXPECT_EQ(before.dma.vec[1].suppressed, 8u);
  EXPECT_EQ(status0, GN_INT_RX);
  EXPECT_EQ(status1, GN_INT_RX);
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.vec[1].raised, 1u);
  EXPECT_EQ(c.dma.irq.raised, 3u);
  EXPECT_EQ(c.dma.irq.suppressed, 8u);
  ASSERT_EQ(s.host.msi_data.size(), 3u);
  EXPECT_EQ(s.host.msi_data[0], 0x100u);
  EXPECT_EQ(s.host.msi_data[1], 0x100u);
  EXPECT_EQ(s.host.msi_data[2], 0x101u);
  EXPECT_GE(s.host.msi_ps[2], unmask_ps);
  /* The legacy registers are vector 0's: its mask reads back 0. */
  EXPECT_EQ(s.nic.engine().reg_read(GN_REG_INT_MASK), 0u);
  EXPECT_EQ(s.nic.engine().reg_read(GN_REG_MSI_DATA), 0x100u);
}

/* Two TX queues with 4 one-descriptor frames each, queued before TX is
 * enabled: the channel serves them round robin, a frame at a time, so the
 * data reads alternate between the queues' buffers; each queue's frames go
 * out in its order and each queue writes back its own ring. */
TEST(NicMq, TxQueuesAreServedRoundRobinAFrameAtATime) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.traffic.flows = 2;
  cfg.nic.tx_queues = 2;
  cfg.run.duration_us = 50;
  cfg.run.seed = 11;
  NicSim s(cfg);
  const uint32_t dma_len = 60;
  auto buf_pa = [](uint32_t q, uint32_t i) { return kTxBufs + (q * 8 + i) * kBufStride; };
  s.host.driver = [&](FakeHost &h) {
    h.wr(GN_REG_DESC_SPACING, 16);
    for (uint32_t q = 0; q < 2; q++) {
      const uint64_t ring = kTxRing + q * kRingStride;
      for (uint32_t i = 0; i < 4; i++) {
        nf_fill(&h.mem[buf_pa(q, i)], dma_len, 11, q, i);
        gn_tx_desc d{buf_pa(q, i), static_cast<uint16_t>(dma_len), GN_DESC_OWN | GN_DESC_EOP, 0};
        std::memcpy(&h.mem[ring + i * 16], &d, sizeof d);
      }
      h.wr(qreg(q, GN_Q_TX_RING_LO), static_cast<uint32_t>(ring));
      h.wr(qreg(q, GN_Q_TX_RING_HI), 0);
      h.wr(qreg(q, GN_Q_TX_RING_SIZE), 16);
      h.wr(qreg(q, GN_Q_TX_TAIL), 4);
    }
    h.wr(GN_REG_CTRL, GN_CTRL_TX_EN);
  };
  sc_core::sc_start(us(50));
  ASSERT_TRUE(s.what.empty()) << s.what[0];
  const NicCounts c(s.nic);
  EXPECT_EQ(c.mac.tx_wire_frames, 8u);
  EXPECT_EQ(c.peer.tx_ok, 8u);
  EXPECT_EQ(c.peer.tx_errors, 0u);
  EXPECT_EQ(c.dma.c.txq_frames[0], 4u);
  EXPECT_EQ(c.dma.c.txq_frames[1], 4u);
  auto reads = s.host.accesses(tlm::TLM_READ_COMMAND, DmaPurpose::Data);
  ASSERT_EQ(reads.size(), 8u);
  /* The queues alternate (whichever fetch completed first goes first), each in its own order. */
  const uint32_t first = reads[0].addr >= buf_pa(1, 0) ? 1 : 0;
  for (uint32_t k = 0; k < 8; k++) {
    const uint32_t q = (first + k) % 2, i = k / 2;
    EXPECT_EQ(reads[k].addr, buf_pa(q, i)) << "read " << k;
  }
  EXPECT_EQ(s.nic.engine().tx_ring(0).head(), 4u);
  EXPECT_EQ(s.nic.engine().tx_ring(1).head(), 4u);
}

/* An indirection-table entry naming a queue the device lacks, a table size
 * that is not a power of two: violations; the table keeps its old value. */
TEST(NicMq, BadRssProgrammingIsAViolation) {
  setup_systemc();
  nicsim_config cfg = rx_config(1518, 1);
  cfg.nic.rx_queues = 4;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) {
    h.wr(GN_REG_RSS_LUT(0), 0x03020100);
    h.wr(GN_REG_RSS_LUT(1), 0x00000400); /* entry 5 -> queue 4 */
    h.wr(GN_REG_RSS_TABLE_SIZE, 96);
  };
  sc_core::sc_start(us(5));
  ASSERT_EQ(s.what.size(), 2u);
  EXPECT_EQ(s.what[0], "RSS table entry 5 names RX queue 4, but the device has 4 RX queues");
  EXPECT_EQ(s.what[1], "RSS_TABLE_SIZE 96 is not a power of two up to 512 (0: RSS off)");
  EXPECT_EQ(s.nic.engine().reg_read(GN_REG_RSS_LUT(0)), 0x03020100u);
  EXPECT_EQ(s.nic.engine().reg_read(GN_REG_RSS_LUT(1)), 0u);
  EXPECT_EQ(s.nic.engine().reg_read(GN_REG_RSS_TABLE_SIZE), 0u);
  /* Queue registers of queues the device lacks are reserved. */
  EXPECT_EQ(s.nic.engine().reg_read(GN_QREG(4, GN_Q_RX_RING_SIZE)), 0u);
}

/* 64 frames of 16 flows on 4 queues (16 per queue, as RssSpreadsSixteenFlows
 * OverFourQueues), queue 1 given no descriptors (tail 0). Frame 1 (flow 1,
 * entry 69) is the first for queue 1. Waiting (the default), it blocks the
 * FIFO: only frame 0 reaches a ring and the rest overflow the FIFO. With
 * nic.rx_drop_nodesc, queue 1's 16 frames are dropped as they reach the head
 * and the other queues get their 16 each; nothing overflows. */
void run_starved_queue(bool drop, uint64_t want_q0, uint64_t want_nodesc) {
  setup_systemc();
  const uint64_t frames = 64;
  nicsim_config cfg = rx_config(1518, frames);
  cfg.traffic.flows = 16;
  cfg.nic.rx_queues = 4;
  cfg.nic.rx_drop_nodesc = drop;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) {
    h.wr(GN_REG_DESC_SPACING, 16);
    h.wr(GN_REG_RX_BUF_SIZE, 2048);
    for (uint32_t q = 0; q < 4; q++) {
      setup_rxq(h, q);
      setup_vec(h, q, 1, 0, true);
    }
    h.wr(qreg(1, GN_Q_RX_TAIL), 0); /* queue 1: no descriptor for the device */
    setup_rss(h, 4, 128);
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(200));
  ASSERT_TRUE(s.what.empty()) << s.what[0];
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.c.rxq_frames[0], want_q0);
  EXPECT_EQ(c.dma.c.rxq_frames[1], 0u);
  EXPECT_EQ(c.dma.c.rx_drop_nodesc, want_nodesc);
  /* Every offered frame is written back, dropped, or still in the FIFO. */
  EXPECT_EQ(c.peer.rx_offered_frames, frames);
  EXPECT_EQ(c.dma.c.rx_dma_frames + c.dma.c.rx_drop_nodesc + c.mac.rx_drop_fifo + s.nic.mac().rx_fifo().frames(), frames);
  if (drop) {
    EXPECT_EQ(c.dma.c.rxq_frames[2], 16u);
    EXPECT_EQ(c.dma.c.rxq_frames[3], 16u);
    EXPECT_EQ(c.mac.rx_drop_fifo, 0u);
  } else {
    EXPECT_GT(c.mac.rx_drop_fifo, 0u);
  }
}

TEST(NicMq, AStarvedQueueBlocksTheFifoWhenTheNicWaits) { run_starved_queue(false, 1, 0); }
TEST(NicMq, AStarvedQueueDropsItsFramesWithRxDropNodesc) { run_starved_queue(true, 16, 16); }
