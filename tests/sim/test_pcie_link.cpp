// test_pcie_link.cpp: the PcieLink in a small SystemC bench (scripted device,
// scripted CPU, real HostMemory, logging BAR0): timing of posted writes, reads
// and MMIO against hand-computed values, FIFO queueing, ordering, counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pcie/pcie_link.h"
#include "pcie_bench.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::now_ps;
using test::ps;
using test::Bench;
using test::gen1x1;
using test::kMem;
using test::kMsi;

TEST(PcieLink, PostedWriteReturnsWhenSerialisedAndLandsAtArrival) {
  Bench b(gen1x1());
  uint64_t returned = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 0xAB);
    EXPECT_EQ(d.transfer(tlm::TLM_WRITE_COMMAND, 0x100, buf.data(), 64), tlm::TLM_OK_RESPONSE);
    returned = now_ps();
  };
  /* 64 + 12 + 8 = 84 wire bytes at 4 ns: 336 ns on the wire, +100 ns latency. */
  uint8_t before = 0xFF, after = 0;
  b.probe->script = [&] {
    wait(ps(436000 - 1));
    before = b.mem->data()[0x100 + 63];
    wait(ps(2));
    after = b.mem->data()[0x100 + 63];
  };
  b.run(2000000);
  EXPECT_EQ(returned, 336000u);
  EXPECT_EQ(before, 0);
  EXPECT_EQ(after, 0xAB);
  EXPECT_TRUE(b.violations.empty());
}

TEST(PcieLink, BackToBackWritesQueueInFifoOrder) {
  Bench b(gen1x1());
  std::vector<uint64_t> done;
  auto writer = [&](uint8_t v, uint64_t addr) {
    return [&done, v, addr](test::ScriptedInitiator &d) {
      std::vector<uint8_t> buf(64, v);
      d.transfer(tlm::TLM_WRITE_COMMAND, addr, buf.data(), 64);
      done.push_back(now_ps());
    };
  };
  b.dev->script = writer(1, 0x1000);
  b.dev->script2 = writer(2, 0x2000);
  uint8_t second_before = 0xFF, second_after = 0;
  b.probe->script = [&] {
    wait(ps(772000 - 1)); /* the second TLP: 336 ns queued + 336 ns serialised + 100 ns */
    second_before = b.mem->data()[0x1000 + 63] + b.mem->data()[0x2000 + 63];
    wait(ps(2));
    second_after = b.mem->data()[0x1000 + 63] + b.mem->data()[0x2000 + 63];
  };
  b.run(2000000);
  ASSERT_EQ(done.size(), 2u);
  std::sort(done.begin(), done.end());
  EXPECT_EQ(done[0], 336000u);
  EXPECT_EQ(done[1], 672000u);
  /* Just before 772 ns only one of the two writes has landed; just after, both. */
  EXPECT_TRUE(second_before == 1 || second_before == 2);
  EXPECT_EQ(second_after, 3);
  const PcieDirCounters up = b.link->up_counters();
  EXPECT_EQ(up.tlps, 2u);
  EXPECT_EQ(up.wire_bytes, 168u);
  EXPECT_EQ(up.payload_bytes, 128u);
  EXPECT_EQ(up.busy_ps, 672000u);
}

TEST(PcieLink, ReadRoundTripReadsMemoryWhenTheRootComplexAnswers) {
  Bench b(gen1x1());
  uint64_t returned = 0;
  std::vector<uint8_t> got(64, 0);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    EXPECT_EQ(d.transfer(tlm::TLM_READ_COMMAND, 0x400, got.data(), 64, DmaPurpose::DescFetch), tlm::TLM_OK_RESPONSE);
    returned = now_ps();
  };
  /* MRd 12 + 8 = 20 B: 80 ns + 100 ns -> arrives 180 ns; answered at 380 ns;
   * CplD 64 + 12 + 8 = 84 B: 336 ns + 100 ns -> 816 ns. */
  b.probe->script = [&] {
    wait(ps(379000));
    std::fill(b.mem->data() + 0x400, b.mem->data() + 0x440, 0x11);
    wait(ps(2000));
    std::fill(b.mem->data() + 0x400, b.mem->data() + 0x440, 0x22);
  };
  b.run(2000000);
  EXPECT_EQ(returned, 816000u);
  EXPECT_EQ(got[0], 0x11);
  EXPECT_EQ(got[63], 0x11);
  EXPECT_EQ(b.link->up_counters().purpose_tlps[static_cast<size_t>(DmaPurpose::DescFetch)], 1u);
  EXPECT_EQ(b.link->down_counters().purpose_wire_bytes[static_cast<size_t>(DmaPurpose::DescFetch)], 84u);
}

TEST(PcieLink, ReadAfterWriteSeesTheWrite) {
  Bench b(gen1x1());
  uint8_t got[16] = {};
  b.dev->script = [&](test::ScriptedInitiator &d) {
    uint8_t v[16];
    std::fill(v, v + 16, 0x55);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x800, v, 16);
    d.transfer(tlm::TLM_READ_COMMAND, 0x800, got, 16);
  };
  b.run(5000000);
  EXPECT_EQ(got[0], 0x55);
  EXPECT_EQ(got[15], 0x55);
}

TEST(PcieLink, LargeReadSplitsIntoRequestsAndCompletions) {
  PcieParams p = gen1x1();
  p.gen = 3;
  p.lanes = 8;
  p.addr_bits = 64;
  Bench b(p);
  std::vector<uint8_t> got(2048);
  for (int i = 0; i < 2048; i++) b.mem->data()[0x3000 + i] = static_cast<uint8_t>(i * 7);
  b.dev->script = [&](test::ScriptedInitiator &d) { d.transfer(tlm::TLM_READ_COMMAND, 0x3000, got.data(), 2048); };
  b.run(10000000);
  for (int i = 0; i < 2048; i++) ASSERT_EQ(got[i], static_cast<uint8_t>(i * 7)) << i;
  /* 2048 B at MRRS 512: 4 MRds (4DW: 16 + 8 B); completions of 256 B (MPS): 8 CplDs. */
  const PcieDirCounters up = b.link->up_counters();
  const PcieDirCounters down = b.link->down_counters();
  EXPECT_EQ(up.tlps, 4u);
  EXPECT_EQ(up.wire_bytes, 4u * 24u);
  EXPECT_EQ(up.payload_bytes, 0u);
  EXPECT_EQ(down.tlps, 8u);
  EXPECT_EQ(down.wire_bytes, 8u * (256u + 12u + 8u));
  EXPECT_EQ(down.payload_bytes, 2048u);
}

TEST(PcieLink, CompletionsQueueBehindEarlierDownstreamWrites) {
  Bench b(gen1x1());
  uint64_t read_done = 0;
  b.cpu->script = [&](test::ScriptedInitiator &c) {
    for (uint32_t i = 0; i < 10; i++) {
      uint32_t v = i;
      EXPECT_EQ(c.transfer(tlm::TLM_WRITE_COMMAND, 4 * i, reinterpret_cast<uint8_t *>(&v), 4, DmaPurpose::Mmio),
                tlm::TLM_OK_RESPONSE);
    }
    EXPECT_EQ(now_ps(), 0u); /* posted: the CPU did not wait */
  };
  b.dev->script = [&](test::ScriptedInitiator &d) {
    uint8_t buf[64];
    d.transfer(tlm::TLM_READ_COMMAND, 0x0, buf, 64);
    read_done = now_ps();
  };
  b.run(5000000);
  /* Ten 24-byte MWr keep the downstream busy until 960 ns; the CplD, ready
   * at 380 ns, goes after them: 960 + 336 + 100 = 1396 ns. */
  EXPECT_EQ(read_done, 1396000u);
  ASSERT_EQ(b.regs->log.size(), 10u);
  for (uint32_t i = 0; i < 10; i++) {
    EXPECT_EQ(b.regs->log[i].time_ps, 96000u * (i + 1) + 100000u);
    EXPECT_EQ(b.regs->log[i].val, i);
    EXPECT_TRUE(b.regs->log[i].write);
  }
}

TEST(PcieLink, MmioReadIsARoundTrip) {
  Bench b(gen1x1());
  b.regs->regs[0x10 / 4] = 0x1234;
  b.regs->read_delay_ps = 50000;
  uint32_t v = 0;
  uint64_t done = 0;
  b.cpu->script = [&](test::ScriptedInitiator &c) {
    c.transfer(tlm::TLM_READ_COMMAND, 0x10, reinterpret_cast<uint8_t *>(&v), 4, DmaPurpose::Mmio);
    done = now_ps();
  };
  b.run(2000000);
  /* MRd 20 B: 80 + 100 -> 180 ns; device answers at 230 ns; CplD 4 + 12 + 8 = 24 B: 96 + 100 -> 426 ns. */
  EXPECT_EQ(v, 0x1234u);
  EXPECT_EQ(done, 426000u);
  ASSERT_EQ(b.regs->log.size(), 1u);
  EXPECT_EQ(b.regs->log[0].time_ps, 230000u);
  EXPECT_EQ(b.link->down_counters().tlps, 1u);
  EXPECT_EQ(b.link->up_counters().tlps, 1u);
  EXPECT_EQ(b.link->up_counters().payload_bytes, 4u);
}

TEST(PcieLink, MsiArrivesAfterTheDataWrittenBeforeIt) {
  Bench b(gen1x1());
  bool data_there = false;
  test::data_then_msi(b, &data_there);
  b.run(20000000);
  ASSERT_EQ(b.msis.size(), 1u);
  EXPECT_EQ(b.msis[0].second, 3u);
  EXPECT_TRUE(data_there);
  /* 1500 B: 5 x (256 + 20) + (220 + 20) = 1620 B; MSI 4 + 20 = 24 B; all at 4 ns. */
  EXPECT_EQ(b.msis[0].first, (1620u + 24u) * 4000u + 100000u);
  EXPECT_EQ(b.link->up_counters().tlps, 7u);
  EXPECT_EQ(b.link->up_counters().purpose_tlps[static_cast<size_t>(DmaPurpose::Msi)], 1u);
}

TEST(PcieLink, BusyTimeCountsOnlyWhatHasBeenSentSoFar) {
  Bench b(gen1x1());
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(1500, 1);
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000, buf.data(), 1500);
  };
  uint64_t busy_at_1us = 0, tlps_at_1us = 0;
  b.probe->script = [&] {
    wait(ps(1000000));
    busy_at_1us = b.link->up_counters().busy_ps;
    tlps_at_1us = b.link->up_counters().tlps;
  };
  b.run(20000000);
  EXPECT_EQ(busy_at_1us, 1000000u);
  EXPECT_EQ(tlps_at_1us, 6u); /* TLPs are counted when queued */
  const PcieDirCounters up = b.link->up_counters();
  EXPECT_EQ(up.wire_bytes, 1620u);
  EXPECT_EQ(up.payload_bytes, 1500u);
  EXPECT_EQ(up.busy_ps, 1620u * 4000u);
}

TEST(PcieLink, DmaOutsideMemoryIsAViolationNamingTheAddress) {
  Bench b(gen1x1());
  tlm::tlm_response_status read_status = tlm::TLM_OK_RESPONSE;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    uint8_t buf[64] = {};
    d.transfer(tlm::TLM_WRITE_COMMAND, kMem + 0x100, buf, 64);
    read_status = d.transfer(tlm::TLM_READ_COMMAND, kMem - 32, buf, 64);
  };
  b.run(5000000);
  EXPECT_EQ(read_status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ASSERT_EQ(b.violations.size(), 2u);
  EXPECT_NE(b.violations[0].find("0x100100"), std::string::npos) << b.violations[0];
  EXPECT_NE(b.violations[0].find("write"), std::string::npos) << b.violations[0];
  /* The read crosses the 4 KiB boundary at the end of memory: its second MRd (at 0x100000) fails. */
  EXPECT_NE(b.violations[1].find("read out of range: address 0x100000"), std::string::npos) << b.violations[1];
}

TEST(PcieLink, SixtyFourBitAddressingCostsFourMoreBytesPerRequest) {
  PcieParams p = gen1x1();
  p.gen = 3;
  p.lanes = 8;
  p.addr_bits = 64;
  Bench b(p);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    uint8_t buf[64] = {};
    d.transfer(tlm::TLM_WRITE_COMMAND, 0x1000, buf, 64);
  };
  b.run(1000000);
  EXPECT_EQ(b.link->up_counters().wire_bytes, 64u + 16u + 8u);
  EXPECT_EQ(b.link->up_counters().busy_ps, 11172u);
}

}  // namespace
}  // namespace nicsim
