// test_bus.cpp: the AXI-like on-chip bus in a small SystemC bench (scripted
// device, real HostMemory): burst splitting, beat timing, latencies and the
// outstanding-burst limit against hand-computed values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bus/axi_bus.h"
#include "memory/host_memory.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::make;
using test::now_ps;
using test::ps;

/* 16 B x 250 MHz (4 ns per beat), bursts up to 16 beats, 100 ns read and 50 ns write latency. */
AxiParams axi(uint32_t outstanding = 8) {
  AxiParams p;
  p.width_bytes = 16;
  p.cycle_ps = 4000;
  p.burst_beats = 16;
  p.rd_latency_ps = 100000;
  p.wr_latency_ps = 50000;
  p.outstanding = outstanding;
  return p;
}

struct Bench {
  HostMemory *mem;
  AxiBus *bus;
  test::ScriptedInitiator *dev;
  test::ScriptedThread *probe;

  explicit Bench(const AxiParams &p) {
    test::init_systemc();
    mem = &make<HostMemory>("mem", 1u << 20, 0xFEE00000ull);
    bus = &make<AxiBus>("bus", p);
    dev = &make<test::ScriptedInitiator>("dev");
    probe = &make<test::ScriptedThread>("probe");
    dev->socket.bind(bus->dev);
    bus->mem.bind(mem->tgt);
  }
  void run(uint64_t until_ps) { sc_core::sc_start(ps(until_ps)); }
};

TEST(AxiBus, BurstsSplitAtBurstSizeAnd4KiB) {
  test::init_systemc();
  AxiBus &b = make<AxiBus>("bus", axi());
  EXPECT_EQ(b.burst_chunk(0, 1500), 256u);
  EXPECT_EQ(b.burst_chunk(0x100 - 8, 1500), 8u);
  EXPECT_EQ(b.burst_chunk(0xFF0, 64), 16u);
  EXPECT_EQ(b.beats(0, 256), 16u);
  EXPECT_EQ(b.beats(8, 16), 2u); /* straddles two beats */
  EXPECT_EQ(b.beats(0, 1), 1u);
}

TEST(AxiBus, WriteReturnsAfterItsBeatsAndLandsAfterTheWriteLatency) {
  Bench b(axi());
  uint64_t returned = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(256, 0x5A);
    EXPECT_EQ(d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000, buf.data(), 256), tlm::TLM_OK_RESPONSE);
    returned = now_ps();
  };
  uint8_t before = 1, after = 0;
  b.probe->script = [&] {
    wait(ps(64000 + 50000 - 1));
    before = b.mem->data()[0x1000 + 255];
    wait(ps(1));
    after = b.mem->data()[0x1000 + 255];
  };
  b.run(1000000);
  EXPECT_EQ(returned, 64000u); /* 16 beats of 4 ns */
  EXPECT_EQ(before, 0);
  EXPECT_EQ(after, 0x5A);
  const AxiCounters c = b.bus->counters();
  EXPECT_EQ(c.wr_bursts, 1u);
  EXPECT_EQ(c.wr_bytes, 256u);
  EXPECT_EQ(c.wr_busy_ps, 64000u);
}

TEST(AxiBus, ReadTakesAddressCycleLatencyAndBeats) {
  Bench b(axi());
  uint64_t done = 0;
  uint8_t got = 0;
  b.mem->data()[0x2000 + 63] = 0x77;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64);
    EXPECT_EQ(d.transfer(tlm::TLM_READ_COMMAND, 0x2000, buf.data(), 64), tlm::TLM_OK_RESPONSE);
    done = now_ps();
    got = buf[63];
  };
  b.run(1000000);
  EXPECT_EQ(done, 4000u + 100000u + 4u * 4000u);
  EXPECT_EQ(got, 0x77);
  EXPECT_EQ(b.bus->counters().dma.rd_latency.count(), 1u);
}

uint64_t read_1k(uint32_t outstanding, uint64_t *stalls) {
  Bench b(axi(outstanding));
  uint64_t done = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(1024);
    d.transfer(tlm::TLM_READ_COMMAND, 0, buf.data(), 1024); /* 4 bursts of 16 beats */
    done = now_ps();
  };
  b.run(10000000);
  *stalls = b.bus->counters().slot_stalls;
  return done;
}

TEST(AxiBus, OutstandingBurstsPipelineReads) {
  uint64_t stalls = 99;
  /* AR at 0, 4, 8, 12 ns; data ready 104..116 ns; 4 x 64 ns of beats from 104 ns. */
  EXPECT_EQ(read_1k(8, &stalls), 104000u + 4u * 64000u);
  EXPECT_EQ(stalls, 0u);
}

TEST(AxiBus, OneOutstandingBurstSerialisesReads) {
  uint64_t stalls = 0;
  /* Each burst waits for the previous one's last beat: 4 x (4 + 100 + 64) ns. */
  EXPECT_EQ(read_1k(1, &stalls), 4u * 168000u);
  EXPECT_EQ(stalls, 3u);
}

}  // namespace
}  // namespace nicsim
