/* nic_irq_test.cpp: interrupt moderation: frame-count coalescing, the
 * timer, masking with suppression and raise-at-unmask, TX causes. */
#include <gtest/gtest.h>

#include "dma/nic_clock.h"
#include "models/nic_sim.h"

using namespace nicsim;
using namespace nicsim_test;

namespace {
using tlm::TLM_WRITE_COMMAND;
}  // namespace

TEST(NicIrq, FrameCountCoalescingWithoutTimer) {
  setup_systemc();
  const uint64_t frames = 50;
  NicSim s(rx_config(1518, frames));
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 63, 2048, 8, 0, true); };
  sc_core::sc_start(us(100));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  /* One MSI per 8 completions; the last 50 mod 8 = 2 wait (no timer). */
  EXPECT_EQ(c.dma.irq.raised, frames / 8);
  EXPECT_EQ(c.dma.irq.suppressed, 0u);
  ASSERT_EQ(s.host.msi_ps.size(), frames / 8);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames);
  for (size_t k = 0; k < s.host.msi_ps.size(); k++) {
    /* MSI k follows the write-back of completion 8k+8 and precedes the next. */
    EXPECT_GE(s.host.msi_ps[k], wb[8 * k + 7].end_ps) << k;
    EXPECT_LT(s.host.msi_ps[k], wb[8 * k + 8].start_ps) << k;
    EXPECT_EQ(s.host.msi_data[k], kMsiData);
  }
  EXPECT_EQ(s.nic.engine().irq_counters().raised, frames / 8);
}

TEST(NicIrq, TimerFiresWhenFewerFramesThanTheThreshold) {
  setup_systemc();
  const uint64_t frames = 5;
  NicSim s(rx_config(1518, frames));
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 63, 2048, 32, 10, true); };
  sc_core::sc_start(us(40));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(c.dma.irq.raised, 1u);
  ASSERT_EQ(s.host.msi_ps.size(), 1u);
  /* The first completion (end of its write-back) arms a 10 us timer; the
   * MSI write starts at the first 250 MHz edge at or after it fires. */
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  uint64_t due = wb[0].end_ps + 10000000u;
  EXPECT_EQ(s.host.msi_ps[0], NicClock(250).after_cycles(due, 0));
  EXPECT_GT(s.host.msi_ps[0], wb.back().end_ps); /* all five arrived within the 10 us */
}

TEST(NicIrq, MaskedInterruptsAreSuppressedThenRaisedAtUnmask) {
  setup_systemc();
  const uint64_t frames = 12;
  NicSim s(rx_config(1518, frames));
  NicCounts before{};
  uint64_t unmask_ps = 0;
  uint32_t status = 0;
  s.host.driver = [&](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 4, 0, false);
    while (h.rd(GN_REG_RX_HEAD) != frames) sc_core::wait(us(1));
    before = NicCounts(s.nic);
    unmask_ps = now_ps();
    h.wr(GN_REG_INT_MASK, 0);
    sc_core::wait(us(1));
    status = h.rd(GN_REG_INT_STATUS);
  };
  sc_core::sc_start(us(40));
  EXPECT_EQ(before.dma.irq.raised, 0u);
  EXPECT_EQ(before.dma.irq.suppressed, frames / 4); /* three thresholds met while masked */
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.irq.raised, 1u);
  EXPECT_EQ(c.dma.irq.suppressed, frames / 4);
  ASSERT_EQ(s.host.msi_ps.size(), 1u);
  EXPECT_GE(s.host.msi_ps[0], unmask_ps);
  EXPECT_LE(s.host.msi_ps[0], unmask_ps + 4000); /* at the next NIC clock edge */
  EXPECT_EQ(status, GN_INT_RX);
}

TEST(NicIrq, UnmaskWithoutPendingInterruptRaisesNothing) {
  setup_systemc();
  const uint64_t frames = 3;
  NicSim s(rx_config(1518, frames));
  s.host.driver = [&](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 4, 0, false);
    while (h.rd(GN_REG_RX_HEAD) != frames) sc_core::wait(us(1));
    h.wr(GN_REG_INT_MASK, 0);
  };
  sc_core::sc_start(us(20));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.irq.raised, 0u); /* 3 < COAL_FRAMES and no timer: nothing pending */
  EXPECT_EQ(c.dma.irq.suppressed, 0u);
  EXPECT_EQ(s.nic.engine().irq_counters().raised, 0u);
  EXPECT_TRUE(s.host.msi_ps.empty());
}

TEST(NicIrq, TimerExpiringWhileMaskedIsRaisedAtUnmask) {
  setup_systemc();
  const uint64_t frames = 3;
  NicSim s(rx_config(1518, frames));
  uint64_t unmask_ps = 0;
  s.host.driver = [&](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 32, 5, false);
    sc_core::wait(us(20));
    unmask_ps = now_ps();
    h.wr(GN_REG_INT_MASK, 0);
  };
  sc_core::sc_start(us(30));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.dma.irq.suppressed, 1u);
  EXPECT_EQ(c.dma.irq.raised, 1u);
  ASSERT_EQ(s.host.msi_ps.size(), 1u);
  EXPECT_GE(s.host.msi_ps[0], unmask_ps);
}

TEST(NicIrq, TransmitCompletionsRaiseTheTxCause) {
  setup_systemc();
  nicsim_config cfg = default_config();
  cfg.traffic.mode = NC_MODE_TX;
  cfg.run.seed = 11;
  NicSim s(cfg);
  uint32_t status = 0;
  const uint32_t frames = 10;
  s.host.driver = [&](FakeHost &h) {
    h.setup_tx(64, 16, 1, 0, true);
    for (uint32_t i = 0; i < frames; i++) {
      uint64_t buf = kTxBufs + i * kBufStride;
      nf_fill(&h.mem[buf], 1514, 11, 0, i);
      h.put_tx_desc(16, i, buf, 1514, GN_DESC_OWN | GN_DESC_EOP);
      h.wr(GN_REG_TX_TAIL, i + 1);
      sc_core::wait(us(2));
    }
    status = h.rd(GN_REG_INT_STATUS);
  };
  sc_core::sc_start(us(30));
  const NicCounts c(s.nic);
  EXPECT_EQ(c.peer.tx_ok, frames);
  EXPECT_EQ(c.dma.irq.raised, frames);
  EXPECT_EQ(s.host.msi_ps.size(), frames);
  EXPECT_EQ(status, GN_INT_TX);
}

/* Per-direction coalescing (GN_REG_VEC_COAL): once written, RX completions
 * count against the RX threshold alone; the shared registers keep their value
 * and the TX threshold does not delay RX interrupts. */
TEST(NicIrq, PerDirectionThresholdCountsReceiveCompletionsApart) {
  setup_systemc();
  const uint64_t frames = 50;
  NicSim s(rx_config(1518, frames));
  uint32_t rx_frames_reg = 0, tx_frames_reg = 0, shared_reg = 0;
  s.host.driver = [&](FakeHost &h) {
    h.setup_rx(64, 16, 63, 2048, 32, 0, true);
    h.wr(GN_REG_VEC_COAL(0) + GN_VC_RX_FRAMES, 4);
    h.wr(GN_REG_VEC_COAL(0) + GN_VC_TX_FRAMES, 1000);
    rx_frames_reg = h.rd(GN_REG_VEC_COAL(0) + GN_VC_RX_FRAMES);
    tx_frames_reg = h.rd(GN_REG_VEC_COAL(0) + GN_VC_TX_FRAMES);
    shared_reg = h.rd(GN_REG_COAL_FRAMES);
  };
  sc_core::sc_start(us(100));
  const NicCounts c(s.nic);
  ASSERT_EQ(c.dma.c.rx_dma_frames, frames);
  EXPECT_EQ(rx_frames_reg, 4u);
  EXPECT_EQ(tx_frames_reg, 1000u);
  EXPECT_EQ(shared_reg, 32u);
  /* One MSI per 4 RX completions (the shared 32 would give one). */
  EXPECT_EQ(c.dma.irq.raised, frames / 4);
  auto wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  ASSERT_EQ(wb.size(), frames);
  ASSERT_EQ(s.host.msi_ps.size(), frames / 4);
  for (size_t k = 0; k < s.host.msi_ps.size(); k++) EXPECT_GE(s.host.msi_ps[k], wb[4 * k + 3].end_ps) << k;
}

namespace {
/* Frames of 1518 B offered at 1 Gbit/s (one every 12.3 us), a frame
 * threshold none of them reaches and a 20 us timer; timer: absolute or
 * restart. Returns the MSI times and the write-backs. */
struct TimerRun {
  std::vector<uint64_t> msi_ps;
  std::vector<FakeHost::Access> wb;
  uint64_t raised = 0;
};
TimerRun run_timer_mode(int timer) {
  setup_systemc();
  nicsim_config cfg = rx_config(1518, 10);
  cfg.traffic.rate_gbps = 1;
  cfg.run.duration_us = 120;
  cfg.nic.irq_coal_timer = timer;
  NicSim s(cfg);
  s.host.driver = [](FakeHost &h) { h.setup_rx(64, 16, 63, 2048, 32, 20, true); };
  sc_core::sc_start(us(200));
  TimerRun r;
  r.msi_ps = s.host.msi_ps;
  r.wb = s.host.accesses(TLM_WRITE_COMMAND, DmaPurpose::DescWriteBack);
  r.raised = NicCounts(s.nic).dma.irq.raised;
  return r;
}
}  // namespace

/* nic.irq_coal_timer absolute: the timer runs from the first un-notified
 * completion, so a steady trickle is interrupted every 20 us. */
TEST(NicIrq, AbsoluteTimerRunsFromTheFirstCompletion) {
  TimerRun r = run_timer_mode(NC_COAL_TIMER_ABSOLUTE);
  ASSERT_GE(r.wb.size(), 8u);
  ASSERT_FALSE(r.msi_ps.empty());
  EXPECT_EQ(r.msi_ps[0], NicClock(250).after_cycles(r.wb[0].end_ps + 20000000u, 0));
  EXPECT_GE(r.raised, r.wb.size() / 2) << "about one MSI per two frames 12.3 us apart";
}

/* nic.irq_coal_timer restart: every completion re-arms the timer, so frames
 * 12.3 us apart never let a 20 us timer expire until the last one. */
TEST(NicIrq, RestartTimerExpiresOnlyAfterTheLastCompletionOfATrickle) {
  TimerRun r = run_timer_mode(NC_COAL_TIMER_RESTART);
  ASSERT_GE(r.wb.size(), 8u);
  EXPECT_EQ(r.raised, 1u);
  ASSERT_EQ(r.msi_ps.size(), 1u);
  EXPECT_EQ(r.msi_ps[0], NicClock(250).after_cycles(r.wb.back().end_ps + 20000000u, 0));
}
