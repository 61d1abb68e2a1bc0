// test_rss.cpp: the Toeplitz hash against the Microsoft RSS specification's
// published verification vectors, key parsing, the test flows' tuples and
// the default indirection table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "net/frame.h"
#include "net/rss.h"
}

namespace {

uint32_t ip(uint32_t a, uint32_t b, uint32_t c, uint32_t d) { return a << 24 | b << 16 | c << 8 | d; }

// "Verifying the RSS Hash Calculation" (Microsoft, NDIS RSS documentation):
// destination and source of each IPv4 test packet, the hash over the
// addresses alone and over addresses and TCP ports, with the key
// 6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa.
struct Vec {
  uint32_t daddr;
  uint16_t dport;
  uint32_t saddr;
  uint16_t sport;
  uint32_t ipv4, ipv4_tcp;
};
const Vec kMsVectors[] = {
    {ip(161, 142, 100, 80), 1766, ip(66, 9, 149, 187), 2794, 0x323e8fc2, 0x51ccc178},
    {ip(65, 69, 140, 83), 4739, ip(199, 92, 111, 2), 14230, 0xd718262a, 0xc626b0ea},
    {ip(12, 22, 207, 184), 38024, ip(24, 19, 198, 95), 12898, 0xd2d0a5de, 0x5c2b394a},
    {ip(209, 142, 163, 6), 2217, ip(38, 27, 205, 30), 48228, 0x82989176, 0xafc7327f},
    {ip(202, 188, 127, 2), 1303, ip(153, 39, 163, 191), 44251, 0x5d1809c5, 0x10e828a2},
};

TEST(Rss, MicrosoftVerificationVectorsIpv4) {
  for (const Vec &v : kMsVectors) {
    nf_rss_tuple t{v.saddr, v.daddr, v.sport, v.dport, false};
    EXPECT_EQ(nf_rss_hash(nf_rss_ms_key, &t), v.ipv4) << std::hex << v.daddr;
  }
}

TEST(Rss, MicrosoftVerificationVectorsIpv4Tcp) {
  for (const Vec &v : kMsVectors) {
    nf_rss_tuple t{v.saddr, v.daddr, v.sport, v.dport, true};
    EXPECT_EQ(nf_rss_hash(nf_rss_ms_key, &t), v.ipv4_tcp) << std::hex << v.daddr;
  }
}

TEST(Rss, ToeplitzBitByBit) {
  // One input byte 0x80 picks the key's first 32 bits; 0x01 the 32 bits
  // starting at bit 7, i.e. key bytes 0..4 shifted left by 7.
  const uint8_t key[5] = {0x12, 0x34, 0x56, 0x78, 0x9A};
  const uint8_t hi = 0x80, lo = 0x01, both = 0x81;
  EXPECT_EQ(nf_toeplitz(key, 5, &hi, 1), 0x12345678u);
  EXPECT_EQ(nf_toeplitz(key, 5, &lo, 1), (0x12345678u << 7) | (0x9Au >> 1));
  EXPECT_EQ(nf_toeplitz(key, 5, &both, 1), 0x12345678u ^ ((0x12345678u << 7) | (0x9Au >> 1)));
  // A key shorter than input + 4 bytes cannot hash it.
  EXPECT_EQ(nf_toeplitz(key, 4, &hi, 1), 0u);
}

TEST(Rss, KeyParsing) {
  uint8_t k[NF_RSS_KEY_LEN];
  ASSERT_TRUE(nf_rss_parse_key("", k));
  EXPECT_EQ(std::memcmp(k, nf_rss_ms_key, NF_RSS_KEY_LEN), 0);
  ASSERT_TRUE(nf_rss_parse_key("6D5A56DA255B0EC24167253D43A38FB0D0CA2BCBAE7B30B477CB2DA38030F20C6A42B73BBEAC01FA", k));
  EXPECT_EQ(std::memcmp(k, nf_rss_ms_key, NF_RSS_KEY_LEN), 0);
  std::string zeros(80, '0');
  ASSERT_TRUE(nf_rss_parse_key(zeros.c_str(), k));
  EXPECT_EQ(k[0], 0);
  EXPECT_FALSE(nf_rss_parse_key("6d5a", k));           // too short
  EXPECT_FALSE(nf_rss_parse_key(std::string(80, 'g').c_str(), k));  // not hex
}

TEST(Rss, FlowTuplesAreDistinctAndFramesHashByThem) {
  // RX flow f: 10.0.0.2:(10000 + f) -> 10.0.0.1:5001.
  nf_rss_tuple t = nf_rss_flow_tuple(3);
  EXPECT_EQ(t.saddr, ip(10, 0, 0, 2));
  EXPECT_EQ(t.daddr, ip(10, 0, 0, 1));
  EXPECT_EQ(t.sport, 10003);
  EXPECT_EQ(t.dport, 5001);
  EXPECT_TRUE(t.has_ports);
  // The ACK of the host's TX flow 2: 10.0.0.2:5001 -> 10.0.0.1:20002.
  nf_rss_tuple a = nf_rss_flow_tuple(2 | NF_FLOW_ACK);
  EXPECT_EQ(a.sport, 5001);
  EXPECT_EQ(a.dport, 20002);
  // A frame hashes as its flow's tuple; a non-test frame hashes to 0.
  std::vector<uint8_t> b(nf_dma_len(64));
  nf_fill(b.data(), static_cast<uint32_t>(b.size()), 1, 3, 7);
  EXPECT_EQ(nf_rss_frame_hash(nf_rss_ms_key, b.data(), static_cast<uint32_t>(b.size())),
            nf_rss_hash(nf_rss_ms_key, &t));
  b[12] = 0x08;
  b[13] = 0x00;
  EXPECT_EQ(nf_rss_frame_hash(nf_rss_ms_key, b.data(), static_cast<uint32_t>(b.size())), 0u);
  // 256 flows give 256 distinct hashes (the ports differ).
  std::vector<uint32_t> seen;
  for (uint32_t f = 0; f < 256; f++) {
    nf_rss_tuple u = nf_rss_flow_tuple(f);
    seen.push_back(nf_rss_hash(nf_rss_ms_key, &u));
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
}

TEST(Rss, DefaultIndirectionTable) {
  // ethtool_rxfh_indir_default: 0, 1, 2, 3, 0, 1, ... for 4 queues.
  EXPECT_EQ(nf_rss_indir_default(0, 4), 0u);
  EXPECT_EQ(nf_rss_indir_default(5, 4), 1u);
  EXPECT_EQ(nf_rss_indir_default(127, 4), 3u);
  EXPECT_EQ(nf_rss_indir_default(127, 3), 1u);
  EXPECT_EQ(nf_rss_indir_default(9, 1), 0u);
}

}  // namespace
