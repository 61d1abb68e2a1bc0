/* nic_tx_test.cpp: the NIC's transmit path: frames from host buffers to the
 * wire peer, gather, write-back, pipelined reads, ownership and length
 * checks; and the write-back threshold hook (engine rig). */
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/model_params.h"
#include "dma/dma_engine.h"
#include "mac/mac.h"
#include "models/nic_sim.h"
#include "traffic/wire_peer.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {

using tlm::TLM_READ_COMMAND;
using tlm::TLM_WRITE_COMMAND;

nicsim_config tx_config(uint32_t frame_bytes) {
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.traffic.frame_bytes = frame_bytes;
  cfg.run.duration_us = 1;
  cfg.run.seed = 11;
  return cfg;
}

/* Queues TX frames seq first..first+n-1 (one buffer each, OWN|EOP), writing
 * the tail after each one as the generic driver does; gap between packets. */
void send_frames(FakeHost &h, uint32_t ring_size, uint32_t first, uint32_t n, uint32_t dma_len,
                 sc_core::sc_time gap) {
  for (uint32_t seq = first; seq < first + n; seq++) {
    uint32_t idx = seq % ring_size;
    uint64_t buf = kTxBufs + static_cast<uint64_t>(idx) * kBufStride;
    nf_fill(&h.mem[buf], dma_len, 11, 0, seq);
    h.put_tx_desc(16, idx, buf, static_cast<uint16_t>(dma_len), GN_DESC_OWN | GN_DESC_EOP);
    h.wr(GN_REG_TX_TAIL, (idx + 1) % ring_size);
    if (gap != sc_core::SC_ZERO_TIME) sc_core::wait(gap);
  }
}

/* Records when each frame reaches the peer, then passes it on. */
class TimedSink : public FrameSink {
 public:
  explicit TimedSink(FrameSink &next) : m_next(next) {}
  void frame_received(const uint8_t *data, uint32_t len) override {
    times.push_back(now_ps());
    m_next.frame_received(data, len);
  }
  std::vector<uint64_t> times;

 private:
  FrameSink &m_next;
};

}  // namespace

TEST(NicTx, FramesReachThePeerIntactAndInOrder) {
  setup_systemc();
  const uint32_t frames = 50;
  NicSim s(tx_config(1518));
  uint32_t head_seen = 0;
  s.host.driver = [&](FakeHost &h) {
    h.setup_tx(64, 16, 32, 0, true);
    send_frames(h, 64, 0, frames, 1514, ns(300));
    /* 50 frames take 50 x 1.2304 us on the wire; the TX FIFO holds two, so
     * the last descriptors complete only near the end. */
    sc_core::wait(us(60));
    head_seen = h.rd(GN_REG_TX_HEAD);
  };
  sc_core::sc_start(us(100));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(c.peer.tx_errors, 0u);
  EXPECT_EQ(c.peer.tx_gaps, 0u);
  EXPECT_EQ(c.dma.c.tx_dma_frames, frames);
  EXPECT_EQ(c.mac.tx_wire_frames, frames);
  EXPECT_EQ(c.mac.tx_wire_bytes, uint64_t{frames} * 1518);
  EXPECT_EQ(c.dma.c.data_read_bytes, uint64_t{frames} * 1514);
  EXPECT_EQ(c.dma.c.desc_fetched, frames);
  EXPECT_EQ(c.dma.c.desc_writebacks, frames);
  EXPECT_EQ(c.peer.rx_offered_frames, 0u);
  EXPECT_EQ(head_seen, frames);
  EXPECT_EQ(s.nic.frames_in_flight(), 0u);
  for (uint32_t i = 0; i < frames; i++) {
    gn_tx_desc d = s.host.tx_desc(16, i);
    EXPECT_EQ(d.flags, GN_DESC_EOP) << i; /* OWN cleared, EOP kept */
    EXPECT_EQ(d.len, 1514) << i;
  }
  /* Each data read targets its frame's buffer, in ring order. */
  auto reads = s.host.accesses(TLM_READ_COMMAND, DmaPurpose::Data);
  ASSERT_EQ(reads.size(), frames);
  for (uint32_t i = 0; i < frames; i++) EXPECT_EQ(reads[i].addr, kTxBufs + i * kBufStride);
  EXPECT_TRUE(s.what.empty());
}

TEST(NicTx, FrameGatheredFromTwoBuffers) {
  setup_systemc();
  const uint32_t frames = 10;
  NicSim s(tx_config(1518));
  s.host.driver = [&](FakeHost &h) {
    h.setup_tx(64, 16, 32, 0, true);
    std::vector<uint8_t> f(1514);
    for (uint32_t seq = 0; seq < frames; seq++) {
      nf_fill(f.data(), 1514, 11, 0, seq);
      uint64_t a = kTxBufs + 2 * seq * kBufStride, b = a + kBufStride;
      std::memcpy(&h.mem[a], f.data(), 1000);
      std::memcpy(&h.mem[b], f.data() + 1000, 514);
      h.put_tx_desc(16, 2 * seq, a, 1000, GN_DESC_OWN);
      h.put_tx_desc(16, 2 * seq + 1, b, 514, GN_DESC_OWN | GN_DESC_EOP);
      h.wr(GN_REG_TX_TAIL, 2 * seq + 2);
    }
  };
  sc_core::sc_start(us(50));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(c.peer.tx_errors, 0u);
  EXPECT_EQ(c.dma.c.tx_dma_frames, frames);
  EXPECT_EQ(c.dma.c.desc_writebacks, 2u * frames);
  EXPECT_EQ(s.host.tx_desc(16, 0).flags, 0);
  EXPECT_EQ(s.host.tx_desc(16, 1).flags, GN_DESC_EOP);
  EXPECT_EQ(s.nic.frames_in_flight(), 0u);
}

TEST(NicTx, PipelinedReadsKeep64ByteFramesAtLineRate) {
  setup_systemc();
  const uint32_t frames = 300;
  NicSim s(tx_config(64));
  s.host.read_latency = ns(300);
  TimedSink sink(s.nic.peer());
  s.nic.mac().set_tx_sink(&sink);
  s.host.driver = [&](FakeHost &h) {
    h.setup_tx(512, 16, 32, 0, true);
    send_frames(h, 512, 0, frames, 60, sc_core::SC_ZERO_TIME);
  };
  sc_core::sc_start(us(60));
  EXPECT_EQ(s.nic.peer().counters().tx_ok, frames);
  EXPECT_EQ(s.nic.peer().counters().tx_errors, 0u);
  ASSERT_EQ(sink.times.size(), frames);
  /* Once the pipeline is full the wire never idles: (64 + 20) B x 0.8 ns apart. */
  for (size_t i = 40; i < frames; i++) ASSERT_EQ(sink.times[i] - sink.times[i - 1], 67200u) << i;
}

TEST(NicTx, OneOutstandingReadMakesTransmitLatencyBound) {
  setup_systemc();
  nicsim_config cfg = tx_config(64);
  DmaEngine::Params ep = nic_params(cfg).dma;
  ep.max_read_reqs = 1;
  EngineRig rig("rig", cfg, ep);
  FakeHost host("host");
  host.read_latency = ns(1000);
  rig.dma.bind(host.dma_target);
  host.mmio.bind(rig.regs);
  TimedSink sink(rig.peer);
  rig.mac.set_tx_sink(&sink);
  const uint32_t frames = 20;
  host.driver = [&](FakeHost &h) {
    h.setup_tx(64, 16, 32, 0, true);
    send_frames(h, 64, 0, frames, 60, sc_core::SC_ZERO_TIME);
  };
  sc_core::sc_start(us(60));
  EXPECT_EQ(rig.peer.counters().tx_ok, frames);
  ASSERT_EQ(sink.times.size(), frames);
  /* Every read, descriptor or data, waits for the previous one: frames
   * leave at least one read latency apart. */
  for (size_t i = 1; i < frames; i++) EXPECT_GE(sink.times[i] - sink.times[i - 1], 1000000u) << i;
  EXPECT_TRUE(rig.violations.empty());
}

TEST(NicTx, DescriptorWithoutOwnIsAnOwnershipViolation) {
  setup_systemc();
  NicSim s(tx_config(1518));
  s.host.driver = [](FakeHost &h) {
    h.setup_tx(64, 16, 32, 0, true);
    nf_fill(&h.mem[kTxBufs], 1514, 11, 0, 0);
    h.put_tx_desc(16, 0, kTxBufs, 1514, GN_DESC_EOP); /* OWN forgotten */
    h.wr(GN_REG_TX_TAIL, 1);
  };
  sc_core::sc_start(us(5));
  ASSERT_EQ(s.what.size(), 1u);
  EXPECT_NE(s.what[0].find("TX descriptor 0"), std::string::npos) << s.what[0];
  EXPECT_NE(s.what[0].find("OWN"), std::string::npos) << s.what[0];
  EXPECT_EQ(s.nic.mac().counters().tx_wire_frames, 0u);
}

TEST(NicTx, OverlongFrameIsAViolation) {
  setup_systemc();
  NicSim s(tx_config(1518));
  s.host.driver = [](FakeHost &h) {
    h.setup_tx(64, 16, 32, 0, true);
    h.put_tx_desc(16, 0, kTxBufs, 1000, GN_DESC_OWN);
    h.put_tx_desc(16, 1, kTxBufs + kBufStride, 1000, GN_DESC_OWN | GN_DESC_EOP);
    h.wr(GN_REG_TX_TAIL, 2);
  };
  sc_core::sc_start(us(5));
  ASSERT_EQ(s.what.size(), 1u);
  EXPECT_NE(s.what[0].find("longer than 1514"), std::string::npos) << s.what[0];
}

TEST(NicTx, ZeroLengthDescriptorIsAViolation) {
  setup_systemc();
  NicSim s(tx_config(1518));
  s.host.driver = [](FakeHost &h) {
    h.setup_tx(64, 16, 32, 0, true);
    h.put_tx_desc(16, 0, kTxBufs, 0, GN_DESC_OWN | GN_DESC_EOP);
    h.wr(GN_REG_TX_TAIL, 1);
  };
  sc_core::sc_start(us(5));
  ASSERT_EQ(s.what.size(), 1u);
  EXPECT_NE(s.what[0].find("length 0"), std::string::npos) << s.what[0];
}

TEST(EngineRig, WriteBackThresholdBatchesABacklog) {
  setup_systemc();
  const uint64_t frames = 40;
  nicsim_config cfg = rx_config(64, frames);
  DmaEngine::Params ep = nic_params(cfg).dma;
  ep.wb_threshold = 4;
  ep.desc_cache_entries = 32;
  EngineRig rig("rig", cfg, ep);
  FakeHost host("host");
  host.read_latency = ns(20);
  rig.dma.bind(host.dma_target);
  host.mmio.bind(rig.regs);
  host.driver = [](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 32, 0, true);
    h.wr(GN_REG_CTRL, 0); /* let the frames queue up in the FIFO */
    sc_core::wait(us(5));
    h.wr(GN_REG_CTRL, GN_CTRL_RX_EN);
  };
  sc_core::sc_start(us(20));
  EXPECT_EQ(rig.engine.counters().rx_dma_frames, frames);
  EXPECT_EQ(rig.engine.counters().desc_writebacks, frames / 4);
  auto wb = host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames / 4);
  for (size_t i = 0; i < wb.size(); i++) {
    EXPECT_EQ(wb[i].len, 64u);
    EXPECT_EQ(wb[i].addr, kRxRing + i * 64);
  }
  EXPECT_EQ(rig.engine.rx_ring().head(), frames);
  for (uint32_t i = 0; i < frames; i++) EXPECT_EQ(host.rx_desc(16, i).flags, GN_DESC_EOP);
}

TEST(EngineRig, WriteBackThresholdFlushesWhenTheDataPathIdles) {
  setup_systemc();
  const uint64_t frames = 10;
  nicsim_config cfg = rx_config(1518, frames);
  DmaEngine::Params ep = nic_params(cfg).dma;
  ep.wb_threshold = 4;
  EngineRig rig("rig", cfg, ep);
  FakeHost host("host");
  rig.dma.bind(host.dma_target);
  host.mmio.bind(rig.regs);
  host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 63, 2048, 32, 0, true); };
  sc_core::sc_start(us(30));
  /* Frames arrive slower than the engine handles them: each one is written
   * back alone when the engine runs out of work, none is stranded. */
  EXPECT_EQ(rig.engine.counters().rx_dma_frames, frames);
  EXPECT_EQ(rig.engine.counters().desc_writebacks, frames);
  EXPECT_EQ(rig.engine.rx_ring().head(), frames);
}
