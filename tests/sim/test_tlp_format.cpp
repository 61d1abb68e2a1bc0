// test_tlp_format.cpp: TLP sizes, serialisation times and splitting rules
// against values computed by hand from the PCIe Base Specification.
#include <gtest/gtest.h>

#include "pcie/tlp_format.h"

namespace nicsim {
namespace {

PcieParams params(int gen, int lanes, int addr_bits = 64) {
  PcieParams p;
  p.gen = gen;
  p.lanes = lanes;
  p.mps = 256;
  p.mrrs = 512;
  p.rcb = 64;
  p.addr_bits = addr_bits;
  p.mem_size = 64ull << 20;
  return p;
}

TEST(TlpFormat, Gen3WriteOf64BytesWith64BitAddressingIs88WireBytes) {
  TlpFormat f(params(3, 8, 64));
  /* 64 payload + 16 (4DW header) + 4 (STP token with sequence number) + 4 (LCRC) */
  EXPECT_EQ(f.header_bytes(TlpKind::MemWrite, 0x1000), 16u);
  EXPECT_EQ(f.link_overhead_bytes(), 8u);
  EXPECT_EQ(f.wire_bytes(TlpKind::MemWrite, 0x1000, 64), 64u + 16u + 8u);
}

TEST(TlpFormat, ThirtyTwoBitAddressingUses3DwHeaders) {
  TlpFormat f(params(3, 8, 32));
  EXPECT_EQ(f.wire_bytes(TlpKind::MemWrite, 0x1000, 64), 64u + 12u + 8u);
  EXPECT_EQ(f.wire_bytes(TlpKind::MemRead, 0x1000, 64), 12u + 8u); /* an MRd carries no data */
  /* An address at or above 4 GiB needs the 4DW format whatever addr_bits says. */
  EXPECT_EQ(f.header_bytes(TlpKind::MemWrite, 1ull << 32), 16u);
}

TEST(TlpFormat, HeaderDependsOnWhereTheAddressLies) {
  TlpFormat f(params(3, 8, 64));
  EXPECT_EQ(f.wire_bytes(TlpKind::MemRead, 0x2000, 512), 16u + 8u);
  /* Completions always have a 3DW header. */
  EXPECT_EQ(f.wire_bytes(TlpKind::Completion, 0x2000, 256), 256u + 12u + 8u);
  /* The x86 MSI window lies below 4 GiB and outside host memory: 3DW. */
  EXPECT_EQ(f.header_bytes(TlpKind::MemWrite, 0xFEE00000ull), 12u);
  /* CPU MMIO goes to a 32-bit BAR. */
  EXPECT_EQ(f.bar_wire_bytes(TlpKind::MemWrite, 4), 4u + 12u + 8u);
  EXPECT_EQ(f.bar_wire_bytes(TlpKind::MemRead, 4), 12u + 8u);
}

TEST(TlpFormat, Gen1And2FrameWithStpEndSequenceAndLcrc) {
  /* STP 1 + sequence 2 + LCRC 4 + END 1 */
  EXPECT_EQ(TlpFormat(params(1, 1)).link_overhead_bytes(), 8u);
  EXPECT_EQ(TlpFormat(params(2, 4)).link_overhead_bytes(), 8u);
  EXPECT_EQ(TlpFormat(params(5, 16)).link_overhead_bytes(), 8u);
}

TEST(TlpFormat, Gen1X1SerialisesAtTwoGigabitsPerSecond) {
  TlpFormat f(params(1, 1, 32));
  /* 2.5 GT/s with 8b/10b: 2 Gbit/s, 4 ns per byte. */
  EXPECT_DOUBLE_EQ(f.effective_gbps(), 2.0);
  EXPECT_EQ(f.serialise_ps(1), 4000u);
  const uint32_t wire = f.wire_bytes(TlpKind::MemWrite, 0x1000, 64); /* 84 B */
  EXPECT_EQ(wire, 84u);
  EXPECT_EQ(f.serialise_ps(wire), 336000u);
}

TEST(TlpFormat, RatesOfEveryGenerationAndWidth) {
  EXPECT_DOUBLE_EQ(TlpFormat(params(2, 1)).effective_gbps(), 4.0);
  EXPECT_DOUBLE_EQ(TlpFormat(params(3, 1)).effective_gbps(), 8.0 * 128.0 / 130.0);
  EXPECT_DOUBLE_EQ(TlpFormat(params(4, 4)).effective_gbps(), 16.0 * 4 * 128.0 / 130.0);
  EXPECT_NEAR(TlpFormat(params(5, 16)).effective_gbps(), 32.0 * 16 * 128.0 / 130.0, 1e-9);
  /* Gen3 x8: 130/128 ns per byte per lane, so 88 B take 88 * 1.015625 / 8 ns = 11171.875 ps. */
  EXPECT_EQ(TlpFormat(params(3, 8)).serialise_ps(88), 11172u);
  /* Gen3 x1: 1.015625 ns per byte exactly. */
  EXPECT_EQ(TlpFormat(params(3, 1)).serialise_ps(128), 130000u);
}

TEST(TlpFormat, WriteOf1500BytesAtMps256IsSixTlps) {
  TlpFormat f(params(3, 8));
  EXPECT_EQ(f.count_write_tlps(0x10000, 1500), 6u);
  EXPECT_EQ(f.write_chunk(0x10000, 1500), 256u);
  EXPECT_EQ(f.write_chunk(0x10000 + 5 * 256, 1500 - 5 * 256), 220u);
}

TEST(TlpFormat, WritesNeverCrossA4KiBBoundary) {
  TlpFormat f(params(3, 8));
  /* 0xF80: 128 B to the boundary, then 5 x 256 and 92. */
  EXPECT_EQ(f.write_chunk(0xF80, 1500), 128u);
  EXPECT_EQ(f.count_write_tlps(0xF80, 1500), 7u);
}

TEST(TlpFormat, ReadOf512AtMrrs512IsOneRequestAndTwoCompletions) {
  TlpFormat f(params(3, 8));
  EXPECT_EQ(f.count_read_requests(0x4000, 512), 1u);
  /* RCB 64, MPS 256: completions of 256 + 256. */
  EXPECT_EQ(f.completion_chunk(0x4000, 512), 256u);
  EXPECT_EQ(f.count_completions(0x4000, 512), 2u);
}

TEST(TlpFormat, UnalignedReadCompletionsEndOnRcbBoundaries) {
  TlpFormat f(params(3, 8));
  /* 0x1020: the first completion runs to 0x1100 (224 B), then 256, then 32. */
  EXPECT_EQ(f.completion_chunk(0x1020, 512), 224u);
  EXPECT_EQ(f.completion_chunk(0x1100, 288), 256u);
  EXPECT_EQ(f.count_completions(0x1020, 512), 3u);
  /* A 16-byte descriptor read is one request and one completion. */
  EXPECT_EQ(f.count_read_requests(0x1008, 16), 1u);
  EXPECT_EQ(f.count_completions(0x1008, 16), 1u);
}

TEST(TlpFormat, LargeReadsSplitAtMrrsAnd4KiB) {
  TlpFormat f(params(3, 8));
  EXPECT_EQ(f.count_read_requests(0x8000, 4096), 8u);
  EXPECT_EQ(f.count_completions(0x8000, 4096), 16u);
  /* Starting 64 B before a 4 KiB boundary: 64, then 512s. */
  EXPECT_EQ(f.read_chunk(0xFC0, 1024), 64u);
  EXPECT_EQ(f.count_read_requests(0xFC0, 1024), 3u);
}

TEST(TlpFormat, RejectsImpossibleParameters) {
  PcieParams p = params(3, 8);
  p.gen = 6;
  EXPECT_THROW(TlpFormat f(p), std::invalid_argument);
  p = params(3, 8);
  p.mps = 100;
  EXPECT_THROW(TlpFormat f(p), std::invalid_argument);
}

}  // namespace
}  // namespace nicsim
