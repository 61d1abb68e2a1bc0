// test_mem_timing.cpp: the interconnect -> host memory contract (issue 12):
// a memory target in front of HostMemory that adds a fixed delay and logs
// what TlpExt says; the PcieLink and the AxiBus carry the TLP's type, tag and
// attributes and honour the returned delay (reads later, commits later).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "bus/axi_bus.h"
#include "memory/host_memory.h"
#include "pcie/pcie_link.h"
#include "pcie_bench.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::make;
using test::now_ps;
using test::ps;

/* A memory target that forwards to HostMemory, returns delay_ps more, and logs each access. */
class DelayMemory : public sc_core::sc_module {
 public:
  /* One access as the memory saw it. */
  struct Access {
    uint64_t time_ps;
    bool write;
    uint64_t addr;
    uint32_t len;
    TlpType type;
    uint16_t tag;
    bool ro;
    bool ns;
    uint8_t tc;
  };
  tlm_utils::simple_target_socket<DelayMemory> tgt;
  tlm_utils::simple_initiator_socket<DelayMemory> out;
  uint64_t delay_ps = 0;
  std::vector<Access> log;

  /* A delaying memory named name, delay_ps added to every access. */
  DelayMemory(sc_core::sc_module_name name, uint64_t d) : sc_module(name), tgt("tgt"), out("out"), delay_ps(d) {
    tgt.register_b_transport(this, &DelayMemory::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload &p, sc_core::sc_time &d) {
    const TlpExt *e = p.get_extension<TlpExt>();
    EXPECT_NE(e, nullptr);
    if (e)
      log.push_back({now_ps(), p.is_write(), static_cast<uint64_t>(p.get_address()), p.get_data_length(), e->type,
                     e->tag, e->relaxed_ordering, e->no_snoop, e->traffic_class});
    out->b_transport(p, d);
    d += ps(delay_ps);
  }
};

/* The PCIe bench of pcie_bench.h with DelayMemory between the link and HostMemory. */
struct DelayBench {
  HostMemory *mem;
  DelayMemory *dmem;
  PcieLink *link;
  test::ScriptedInitiator *dev;
  test::ScriptedThread *probe;
  std::vector<std::string> violations;

  DelayBench(const PcieParams &p, uint64_t delay_ps) {
    test::init_systemc();
    mem = &make<HostMemory>("mem", test::kMem, test::kMsi);
    dmem = &make<DelayMemory>("dmem", delay_ps);
    link = &make<PcieLink>("pcie", p);
    dev = &make<test::ScriptedInitiator>("dev");
    probe = &make<test::ScriptedThread>("probe");
    auto &cpu = make<test::ScriptedInitiator>("cpu");
    auto &regs = make<test::RegTarget>("regs");
    dev->socket.bind(link->dev);
    cpu.socket.bind(link->host);
    link->mem.bind(dmem->tgt);
    dmem->out.bind(mem->tgt);
    link->regs.bind(regs.socket);
    link->on_violation = [this](const std::string &c, const std::string &m) { violations.push_back(c + ": " + m); };
  }
  void run(uint64_t until_ps) { sc_core::sc_start(ps(until_ps)); }
};

/* A DMA request with the given attributes (as the DMA engine sets them). */
tlm::tlm_response_status xfer(test::ScriptedInitiator &d, tlm::tlm_command cmd, uint64_t addr, uint8_t *data,
                              uint32_t len, bool ro, bool ns = false, uint8_t tc = 0) {
  tlm::tlm_generic_payload p;
  TlpExt ext;
  ext.purpose = DmaPurpose::Data;
  ext.relaxed_ordering = ro;
  ext.no_snoop = ns;
  ext.traffic_class = tc;
  p.set_extension(&ext);
  p.set_command(cmd);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  d.socket->b_transport(p, t);
  p.clear_extension(&ext);
  return p.get_response_status();
}

constexpr uint64_t kD = 1000000; /* the memory's own delay: 1 us */

TEST(MemTiming, PcieReadLatencyRisesByExactlyTheMemoryDelay) {
  DelayBench b(test::gen1x1(), kD);
  uint64_t returned = 0;
  std::vector<uint8_t> got(64, 0);
  b.mem->data()[0x400 + 63] = 0x33;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    EXPECT_EQ(xfer(d, tlm::TLM_READ_COMMAND, 0x400, got.data(), 64, false, true, 3), tlm::TLM_OK_RESPONSE);
    returned = now_ps();
  };
  b.run(5000000);
  /* Without the delay (PcieLink.ReadRoundTripReadsMemoryWhenTheRootComplexAnswers):
   * MRd arrives 180 ns, answered 380 ns, CplD 336 + 100 ns -> 816 ns. The
   * memory is read at 380 ns and its data is there 1 us later. */
  EXPECT_EQ(returned, 816000u + kD);
  EXPECT_EQ(got[63], 0x33);
  ASSERT_EQ(b.dmem->log.size(), 1u);
  const DelayMemory::Access &a = b.dmem->log[0];
  EXPECT_EQ(a.time_ps, 380000u);
  EXPECT_FALSE(a.write);
  EXPECT_EQ(a.type, TlpType::MemRead);
  EXPECT_EQ(a.tag, 0u);
  EXPECT_FALSE(a.ro);
  EXPECT_TRUE(a.ns);
  EXPECT_EQ(a.tc, 3u);
  PcieReadStats st;
  b.link->read_stats(st);
  EXPECT_EQ(st.dma.rd_latency.count(), 1u);
  EXPECT_EQ(b.link->outstanding(), 0u); /* the tag came back */
  EXPECT_TRUE(b.violations.empty());
}

TEST(MemTiming, PcieReadsCarryTheirOwnTagsAndTagsAreReused) {
  PcieParams p = test::gen1x1();
  p.tags = 2;
  DelayBench b(p, 0);
  auto reader = [](uint64_t base) {
    return [base](test::ScriptedInitiator &d) {
      std::vector<uint8_t> buf(64);
      for (int i = 0; i < 3; i++) xfer(d, tlm::TLM_READ_COMMAND, base + 64u * i, buf.data(), 64, false);
    };
  };
  b.dev->script = reader(0x1000);
  b.dev->script2 = reader(0x2000);
  b.run(50000000);
  /* Two engines, two tags: the first two MRds take tags 0 and 1; each later
   * MRd reuses one of them; every access is an MRd. */
  ASSERT_EQ(b.dmem->log.size(), 6u);
  EXPECT_NE(b.dmem->log[0].tag, b.dmem->log[1].tag);
  std::set<uint16_t> tags;
  for (const DelayMemory::Access &a : b.dmem->log) {
    EXPECT_EQ(a.type, TlpType::MemRead);
    EXPECT_FALSE(a.write);
    tags.insert(a.tag);
  }
  EXPECT_EQ(tags, (std::set<uint16_t>{0, 1}));
}

TEST(MemTiming, PcieWritesCarryRelaxedOrderingExactlyWhereTheTlpHadIt) {
  DelayBench b(test::gen1x1(), 0);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 1);
    for (int i = 0; i < 6; i++) xfer(d, tlm::TLM_WRITE_COMMAND, 0x3000 + 64u * i, buf.data(), 64, i % 3 == 1);
  };
  b.run(50000000);
  ASSERT_EQ(b.dmem->log.size(), 6u);
  for (const DelayMemory::Access &a : b.dmem->log) {
    const int i = static_cast<int>((a.addr - 0x3000) / 64);
    EXPECT_TRUE(a.write);
    EXPECT_EQ(a.type, TlpType::MemWrite);
    EXPECT_EQ(a.ro, i % 3 == 1) << i;
    EXPECT_EQ(a.tag, 0u);
  }
}

TEST(MemTiming, SerialisingRootComplexCommitsEachWriteAfterTheMemoryDelayOfThePrevious) {
  PcieParams p = test::gen1x1();
  p.rc_serialize_writes = true;
  p.rc_commit_ps = 500000;
  DelayBench b(p, kD);
  uint64_t read_done = 0;
  uint8_t seen = 0;
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 7);
    xfer(d, tlm::TLM_WRITE_COMMAND, 0x5000, buf.data(), 64, false);
    xfer(d, tlm::TLM_WRITE_COMMAND, 0x5040, buf.data(), 64, false);
    uint8_t r = 0;
    xfer(d, tlm::TLM_READ_COMMAND, 0x5040, &r, 1, false);
    seen = r;
    read_done = now_ps();
  };
  b.run(50000000);
  /* Each 64 B MWr is 84 wire bytes: 336 ns; arrivals 436 and 772 ns. Without
   * the delay they commit (one line each) at 936 and 1436 ns. With it, the
   * first is handed to memory at 936 ns and complete at 1936 ns; the second
   * starts its line then and is handed to memory at 2436 ns, complete 3436 ns. */
  ASSERT_EQ(b.dmem->log.size(), 3u);
  EXPECT_EQ(b.dmem->log[0].time_ps, 936000u);
  EXPECT_EQ(b.dmem->log[1].time_ps, 936000u + kD + 500000u);
  /* The MRd (20 B: 80 ns) leaves at 672 ns, arrives 852 ns; the root complex
   * would answer at the last commit known then (1436 ns), but the second
   * write is not in memory yet: memory is read when it is handed over (2436
   * ns), and the data is there when that write is complete (3436 ns; its own
   * 1 us delay ends then too). Then one CplD with 1 B (DW-padded) + 100 ns. */
  EXPECT_EQ(b.dmem->log[2].time_ps, 2436000u);
  EXPECT_EQ(b.dmem->log[2].type, TlpType::MemRead);
  const TlpFormat f(p);
  EXPECT_EQ(read_done, 3436000u + f.serialise_ps(f.wire_bytes(TlpKind::Completion, 0x5040, 1)) + 100000u);
  EXPECT_EQ(b.link->last_commit_ps(), 3436000u);
  EXPECT_EQ(seen, 7);
  EXPECT_TRUE(b.violations.empty());
}

TEST(MemTiming, RelaxedOrderingWritesDoNotWaitForEachOthersMemoryDelay) {
  PcieParams p = test::gen1x1();
  p.rc_serialize_writes = true;
  p.rc_commit_ps = 500000;
  DelayBench b(p, kD);
  b.dev->script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64, 7);
    xfer(d, tlm::TLM_WRITE_COMMAND, 0x6000, buf.data(), 64, true);
    xfer(d, tlm::TLM_WRITE_COMMAND, 0x6040, buf.data(), 64, true);
  };
  b.run(50000000);
  /* Arrivals 436 and 772 ns; each RO write is handed to memory one commit time later. */
  ASSERT_EQ(b.dmem->log.size(), 2u);
  EXPECT_EQ(b.dmem->log[0].time_ps, 936000u);
  EXPECT_EQ(b.dmem->log[1].time_ps, 1272000u);
  EXPECT_TRUE(b.dmem->log[0].ro && b.dmem->log[1].ro);
  EXPECT_EQ(b.link->last_commit_ps(), 1272000u + kD);
}

/* 16 B x 250 MHz, 16-beat bursts, 100 ns read and 50 ns write latency (test_bus.cpp). */
AxiParams axi() {
  AxiParams p;
  p.width_bytes = 16;
  p.cycle_ps = 4000;
  p.burst_beats = 16;
  p.rd_latency_ps = 100000;
  p.wr_latency_ps = 50000;
  p.outstanding = 8;
  return p;
}

TEST(MemTiming, BusReadLatencyRisesByTheMemoryDelayAndCarriesTheAttributes) {
  test::init_systemc();
  HostMemory &mem = make<HostMemory>("mem", 1u << 20, 0xFEE00000ull);
  DelayMemory &dmem = make<DelayMemory>("dmem", kD);
  AxiBus &bus = make<AxiBus>("bus", axi());
  test::ScriptedInitiator &dev = make<test::ScriptedInitiator>("dev");
  dev.socket.bind(bus.dev);
  bus.mem.bind(dmem.tgt);
  dmem.out.bind(mem.tgt);
  uint64_t done = 0;
  dev.script = [&](test::ScriptedInitiator &d) {
    std::vector<uint8_t> buf(64);
    xfer(d, tlm::TLM_READ_COMMAND, 0x2000, buf.data(), 64, true, false, 5);
    done = now_ps();
    xfer(d, tlm::TLM_WRITE_COMMAND, 0x3000, buf.data(), 64, false);
  };
  sc_core::sc_start(ps(5000000));
  /* AxiBus.ReadTakesAddressCycleLatencyAndBeats: 4 + 100 + 4 x 4 ns, plus the memory's 1 us. */
  EXPECT_EQ(done, 4000u + 100000u + kD + 4u * 4000u);
  ASSERT_EQ(dmem.log.size(), 2u);
  EXPECT_EQ(dmem.log[0].type, TlpType::MemRead);
  EXPECT_TRUE(dmem.log[0].ro);
  EXPECT_EQ(dmem.log[0].tc, 5u);
  EXPECT_EQ(dmem.log[1].type, TlpType::MemWrite);
  EXPECT_FALSE(dmem.log[1].ro);
  /* The write: 4 beats from `done`, then 50 ns to memory. */
  EXPECT_EQ(dmem.log[1].time_ps, done + 4u * 4000u + 50000u);
}

}  // namespace
}  // namespace nicsim
