// test_frame.cpp: nicsim test frames are detected as intact, or as corrupted,
// rewritten, truncated or out of order, by the sinks that check them.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "net/frame.h"
}

namespace {

std::vector<uint8_t> frame(uint32_t frame_bytes, uint64_t seed, uint32_t flow, uint64_t seq, uint64_t ts = 0) {
  std::vector<uint8_t> b(nf_dma_len(frame_bytes));
  nf_fill_ts(b.data(), static_cast<uint32_t>(b.size()), seed, flow, seq, ts);
  return b;
}

TEST(Frame, IntactFramePassesAndCarriesItsHeader) {
  for (uint32_t fb : {64u, 65u, 71u, 1518u, 9018u}) {
    auto b = frame(fb, 7, 3, 12345, 987654321);
    nf_header h{};
    ASSERT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()), 7, &h), NF_OK) << fb;
    EXPECT_EQ(h.flow, 3u);
    EXPECT_EQ(h.seq, 12345u);
    EXPECT_EQ(h.len, fb - NF_FCS_LEN);
    EXPECT_EQ(h.ts_ps, 987654321u);
  }
}

TEST(Frame, HeaderLayoutIsFixed) {
  EXPECT_EQ(sizeof(nf_header), static_cast<size_t>(NF_HDR_LEN));
  auto b = frame(64, 1, 0, 0);
  EXPECT_EQ(b[12], 0x88);  // ethertype 0x88B5, big-endian on the wire
  EXPECT_EQ(b[13], 0xB5);
  // The smallest frame still holds Ethernet header + nicsim header + payload.
  EXPECT_GT(nf_dma_len(NF_MIN_FRAME), static_cast<uint32_t>(NF_HDR_OFF + NF_HDR_LEN));
}

TEST(Frame, EveryFlippedByteIsDetected) {
  const auto good = frame(128, 9, 1, 77, 5);
  for (size_t i = 0; i < good.size(); i++) {
    auto b = good;
    b[i] ^= 0x5A;
    EXPECT_NE(nf_check(b.data(), static_cast<uint32_t>(b.size()), 9, nullptr), NF_OK) << "byte " << i;
  }
}

TEST(Frame, WrongSeedOrLengthOrMagicIsDetected) {
  auto b = frame(256, 9, 1, 77);
  EXPECT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()), 10, nullptr), NF_BAD_PAYLOAD);
  EXPECT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()) - 1, 9, nullptr), NF_BAD_LEN);
  EXPECT_EQ(nf_check(b.data(), 20, 9, nullptr), NF_BAD_LEN);
  b[NF_HDR_OFF] ^= 1;
  EXPECT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()), 9, nullptr), NF_BAD_MAGIC);
}

TEST(Frame, ConsistentlyRewrittenFrameIsCaughtByThePayloadStream) {
  // Swap in another frame's payload and recompute nothing: the checksum fails.
  // Copy another seq's header and payload wholesale: a different seq arrives,
  // which the sequence tracker (not the checksum) must catch.
  auto a = frame(200, 4, 0, 1);
  auto b = frame(200, 4, 0, 2);
  std::memcpy(a.data() + NF_HDR_OFF + NF_HDR_LEN, b.data() + NF_HDR_OFF + NF_HDR_LEN,
              a.size() - NF_HDR_OFF - NF_HDR_LEN);
  EXPECT_EQ(nf_check(a.data(), static_cast<uint32_t>(a.size()), 4, nullptr), NF_BAD_CHECKSUM);
}

TEST(Frame, EveryFlippedByteIsDetectedAtEveryTailLength) {
  // The checksum and the payload compare go 8 bytes at a time from byte 46:
  // 60..67 DMA'd bytes end the payload with a partial word of 6, 7, 0 (none),
  // 1, ..., 5 bytes. A flip anywhere, the partial word included, fails.
  for (uint32_t fb = 64; fb < 72; fb++) {
    const auto good = frame(fb, 3, 2, 9, 11);
    ASSERT_EQ(nf_check(good.data(), static_cast<uint32_t>(good.size()), 3, nullptr), NF_OK) << fb;
    for (size_t i = 0; i < good.size(); i++) {
      auto b = good;
      b[i] ^= 0x01;
      EXPECT_NE(nf_check(b.data(), static_cast<uint32_t>(b.size()), 3, nullptr), NF_OK) << fb << " byte " << i;
    }
  }
}

TEST(Frame, AckFrameCarriesItsSackAndEveryByteIsCovered) {
  // A 64 B ACK frame: its 14 SACK bytes (46..59) replace the payload stream's
  // first 14 bytes; a 100 B one also carries stream bytes 60..95 after them.
  nf_sack s{};
  s.n = 2;
  s.blk[0][0] = 3;
  s.blk[0][1] = 5;
  s.blk[1][0] = 8;
  s.blk[1][1] = 9;
  for (uint32_t fb : {64u, 100u}) {
    std::vector<uint8_t> b(nf_dma_len(fb));
    nf_fill_ack(b.data(), static_cast<uint32_t>(b.size()), 5, 1, 42, 7, &s);
    nf_header h{};
    ASSERT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()), 5, &h), NF_OK) << fb;
    EXPECT_TRUE(nf_is_ack(&h));
    EXPECT_EQ(nf_flow_id(&h), 1u);
    EXPECT_EQ(h.seq, 42u);
    nf_sack got{};
    nf_ack_sack(b.data(), static_cast<uint32_t>(b.size()), &got);
    EXPECT_EQ(got.n, 2u);
    EXPECT_EQ(got.blk[1][0], 8u);
    for (size_t i = 0; i < b.size(); i++) {
      auto c = b;
      c[i] ^= 0x80;
      EXPECT_NE(nf_check(c.data(), static_cast<uint32_t>(c.size()), 5, nullptr), NF_OK) << fb << " byte " << i;
    }
    // Another seed changes the stream bytes after the SACK (100 B) but not
    // the checksum: the payload compare catches it; a 64 B ACK has no
    // stream bytes to compare.
    EXPECT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()), 6, nullptr), fb == 64 ? NF_OK : NF_BAD_PAYLOAD)
        << fb;
  }
}

TEST(Frame, SequenceTrackerAcceptsGapsAndRejectsReplays) {
  nf_seq_track t{};
  EXPECT_TRUE(nf_seq_accept(&t, 0));
  EXPECT_TRUE(nf_seq_accept(&t, 1));
  EXPECT_TRUE(nf_seq_accept(&t, 4));  // 2 and 3 dropped
  EXPECT_EQ(t.gaps, 2u);
  EXPECT_FALSE(nf_seq_accept(&t, 4));  // duplicate
  EXPECT_FALSE(nf_seq_accept(&t, 3));  // reordered
  EXPECT_EQ(t.errors, 2u);
  EXPECT_EQ(t.received, 3u);
  EXPECT_EQ(t.next_seq, 5u);
}

TEST(Frame, ChecksumAndBytesArePinned) {
  // Golden values of the implementation before the fixed-size loads and
  // stores of the tail word (issue 10): the frames a run sends, and so
  // every figure that depends on them, must not change with the code. The
  // byte hash is FNV-1a 64 over the dma_len bytes; every tail length 1..7.
  struct Gold {
    uint32_t frame_bytes;
    uint32_t checksum;
    uint64_t bytes_fnv;
  };
  const Gold gold[] = {
      {64u, 0x4f24dfbfu, 0x51356f6b82edc8acull},
      {65u, 0xd2ce5affu, 0x9273b34f8bb90d90ull},
      {66u, 0xcb0e1312u, 0x8291f413d4bffc46ull},
      {67u, 0x3376f8d3u, 0x467c752a56e6d109ull},
      {69u, 0xdc6f0facu, 0x81b94696a286d2f5ull},
      {71u, 0x4a0a7a6du, 0xdd6efcad8f6d63a8ull},
      {72u, 0x3d98c5a5u, 0x19bfe958573898faull},
      {100u, 0x16e307fau, 0x6db9598fb8adf3d0ull},
      {1518u, 0x680b518du, 0x6267ca1af43eb64eull},
      {9018u, 0x32901b96u, 0xdbc3dd372b88a61bull},
  };
  for (size_t i = 0; i < sizeof gold / sizeof gold[0]; i++) {
    auto b = frame(gold[i].frame_bytes, 7, 3, 12345 + i, 987654321);
    nf_header h{};
    ASSERT_EQ(nf_check(b.data(), static_cast<uint32_t>(b.size()), 7, &h), NF_OK);
    EXPECT_EQ(h.checksum, gold[i].checksum) << gold[i].frame_bytes;
    uint64_t fnv = 1469598103934665603ull;
    for (uint8_t c : b) fnv = (fnv ^ c) * 1099511628211ull;
    EXPECT_EQ(fnv, gold[i].bytes_fnv) << gold[i].frame_bytes;
  }
  nf_sack sk{};
  sk.n = 2;
  sk.blk[0][0] = 1;
  sk.blk[0][1] = 3;
  sk.blk[1][0] = 5;
  sk.blk[1][1] = 9;
  std::vector<uint8_t> a(60);
  nf_fill_ack(a.data(), 60, 7, 2, 777, 55, &sk);
  nf_header h{};
  ASSERT_EQ(nf_check(a.data(), 60, 7, &h), NF_OK);
  EXPECT_EQ(h.checksum, 0x1260ad0fu);
}

TEST(Frame, VerdictsHaveText) {
  for (nf_verdict v : {NF_OK, NF_BAD_LEN, NF_BAD_MAGIC, NF_BAD_CHECKSUM, NF_BAD_PAYLOAD})
    EXPECT_GT(std::strlen(nf_verdict_str(v)), 1u);
}

}  // namespace
