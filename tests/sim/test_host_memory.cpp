// test_host_memory.cpp: host memory's attribute map, MSI decoding and range
// checks, through its TLM target as the root complex uses it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "memory/host_memory.h"
#include "memory/region_map.h"
#include "sim_test_util.h"

namespace nicsim {
namespace {

using test::make;

TEST(RegionMap, EverythingIsCachedUntilSet) {
  RegionMap m;
  EXPECT_EQ(m.get(0), NK_MEM_CACHED);
  EXPECT_EQ(m.get(123456), NK_MEM_CACHED);
  m.set(0x1000, 0x2000, NK_MEM_UNCACHED);
  EXPECT_EQ(m.get(0xFFF), NK_MEM_CACHED);
  EXPECT_EQ(m.get(0x1000), NK_MEM_UNCACHED);
  EXPECT_EQ(m.get(0x2FFF), NK_MEM_UNCACHED);
  EXPECT_EQ(m.get(0x3000), NK_MEM_CACHED);
}

TEST(RegionMap, OverlappingSetsSplitAndMerge) {
  RegionMap m;
  m.set(0x1000, 0x3000, NK_MEM_UNCACHED); /* [0x1000, 0x4000) */
  m.set(0x2000, 0x1000, NK_MEM_WC);       /* middle becomes WC */
  EXPECT_EQ(m.get(0x1FFF), NK_MEM_UNCACHED);
  EXPECT_EQ(m.get(0x2000), NK_MEM_WC);
  EXPECT_EQ(m.get(0x3000), NK_MEM_UNCACHED);
  EXPECT_EQ(m.ranges(), 3u);
  m.set(0x2000, 0x1000, NK_MEM_UNCACHED); /* back: one range again */
  EXPECT_EQ(m.ranges(), 1u);
  m.set(0x0, 0x10000, NK_MEM_CACHED); /* freed: all cached */
  EXPECT_EQ(m.ranges(), 0u);
  EXPECT_EQ(m.get(0x2000), NK_MEM_CACHED);
}

TEST(RegionMap, ManyRangesLookUpCorrectly) {
  RegionMap m;
  for (uint64_t i = 0; i < 100; i++) m.set(i * 0x10000, 0x100, i % 2 ? NK_MEM_UNCACHED : NK_MEM_WC);
  for (uint64_t i = 0; i < 100; i++) {
    EXPECT_EQ(m.get(i * 0x10000 + 0x80), i % 2 ? NK_MEM_UNCACHED : NK_MEM_WC);
    EXPECT_EQ(m.get(i * 0x10000 + 0x100), NK_MEM_CACHED);
  }
}

TEST(HostMemory, MsiAddressLiesAboveMemory) {
  EXPECT_EQ(HostMemory::default_msi_addr(64ull << 20), 0xFEE00000ull);
  EXPECT_EQ(HostMemory::default_msi_addr(4096ull << 20), 4096ull << 20);
  EXPECT_GE(HostMemory::default_msi_addr((4096ull << 20) - 1), (4096ull << 20) - 1);
}

/* Drives HostMemory's target socket directly. */
struct MemBench {
  HostMemory *mem;
  test::ScriptedInitiator *rc;
  std::vector<uint32_t> msis;
  std::vector<std::string> violations;
  MemBench() {
    test::init_systemc();
    mem = &make<HostMemory>("mem", 1ull << 20, 0xFEE00000ull);
    rc = &make<test::ScriptedInitiator>("rc");
    rc->socket.bind(mem->tgt);
    mem->on_msi = [this](uint32_t d) { msis.push_back(d); };
    mem->on_violation = [this](const std::string &c, const std::string &m) { violations.push_back(c + ": " + m); };
  }
};

TEST(HostMemory, ReadsAndWritesTheBytesAndStartsZeroed) {
  MemBench b;
  uint8_t got[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  b.rc->script = [&](test::ScriptedInitiator &r) {
    r.transfer(tlm::TLM_READ_COMMAND, 0x100, got, 8);
    uint8_t v[4] = {9, 8, 7, 6};
    EXPECT_EQ(r.transfer(tlm::TLM_WRITE_COMMAND, (1u << 20) - 4, v, 4), tlm::TLM_OK_RESPONSE);
  };
  sc_core::sc_start(test::ps(1000));
  for (uint8_t g : got) EXPECT_EQ(g, 0);
  EXPECT_EQ(b.mem->data()[(1u << 20) - 1], 6);
  EXPECT_TRUE(b.violations.empty());
}

TEST(HostMemory, MsiWriteGoesToTheInterruptController) {
  MemBench b;
  b.rc->script = [&](test::ScriptedInitiator &r) {
    uint32_t d = 5;
    EXPECT_EQ(r.transfer(tlm::TLM_WRITE_COMMAND, 0xFEE00000ull, reinterpret_cast<uint8_t *>(&d), 4, DmaPurpose::Msi),
              tlm::TLM_OK_RESPONSE);
  };
  sc_core::sc_start(test::ps(1000));
  ASSERT_EQ(b.msis.size(), 1u);
  EXPECT_EQ(b.msis[0], 5u);
  EXPECT_TRUE(b.violations.empty());
}

TEST(HostMemory, AccessCrossingTheEndIsAViolation) {
  MemBench b;
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  b.rc->script = [&](test::ScriptedInitiator &r) {
    uint8_t v[16] = {};
    st = r.transfer(tlm::TLM_WRITE_COMMAND, (1u << 20) - 8, v, 16);
  };
  sc_core::sc_start(test::ps(1000));
  EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("0xffff8"), std::string::npos) << b.violations[0];
  EXPECT_NE(b.violations[0].find("length 16"), std::string::npos) << b.violations[0];
  EXPECT_EQ(b.mem->data()[(1u << 20) - 1], 0); /* nothing written */
}

TEST(HostMemory, DmaTheCheckRefusesIsAViolationAndChangesNothing) {
  MemBench b;
  /* An IOMMU that maps only [0x1000, 0x2000). */
  b.mem->dma_check = [](uint64_t pa, uint32_t len, bool) -> std::string {
    return pa >= 0x1000 && pa + len <= 0x2000 ? "" : "not mapped";
  };
  tlm::tlm_response_status in = tlm::TLM_GENERIC_ERROR_RESPONSE, out = tlm::TLM_OK_RESPONSE;
  b.rc->script = [&](test::ScriptedInitiator &r) {
    uint8_t v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    in = r.transfer(tlm::TLM_WRITE_COMMAND, 0x1ff8, v, 8);
    out = r.transfer(tlm::TLM_WRITE_COMMAND, 0x1ffc, v, 8);
  };
  sc_core::sc_start(test::ps(1000));
  EXPECT_EQ(in, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.mem->data()[0x1fff], 8);
  EXPECT_EQ(out, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ASSERT_EQ(b.violations.size(), 1u);
  EXPECT_NE(b.violations[0].find("not mapped"), std::string::npos) << b.violations[0];
  EXPECT_EQ(b.mem->data()[0x2000], 0); /* the refused write left nothing */
  EXPECT_EQ(b.mem->data()[0x1ffc], 5) << "the earlier, permitted write stays";
}

}  // namespace
}  // namespace nicsim
