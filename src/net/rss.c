/* rss.c: Toeplitz hash, the MS RSS key and the test flows' tuples (see rss.h). */
#include "net/rss.h"

#include <string.h>

#include "net/frame.h"

const uint8_t nf_rss_ms_key[NF_RSS_KEY_LEN] = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
    0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
    0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

uint32_t nf_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *in, size_t len) {
  if (key_len < len + 4) return 0; /* the key must cover every input bit plus 32 */
  uint32_t result = 0;
  /* v: the 32 key bits starting at the current input bit. */
  uint32_t v = ((uint32_t)key[0] << 24) | ((uint32_t)key[1] << 16) | ((uint32_t)key[2] << 8) | key[3];
  for (size_t i = 0; i < len; i++) {
    for (int b = 7; b >= 0; b--) {
      if (in[i] & (1u << b)) result ^= v;
      v <<= 1;
      /* shift in the next key bit: bit (7 - b) of key byte i + 4 */
      if (key[i + 4] & (1u << b)) v |= 1;
    }
  }
  return result;
}

static size_t put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
  return 4;
}

static size_t put_be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
  return 2;
}

uint32_t nf_rss_hash(const uint8_t *key, const struct nf_rss_tuple *t) {
  uint8_t in[12];
  size_t n = put_be32(in, t->saddr);
  n += put_be32(in + n, t->daddr);
  if (t->has_ports) {
    n += put_be16(in + n, t->sport);
    n += put_be16(in + n, t->dport);
  }
  return nf_toeplitz(key, NF_RSS_KEY_LEN, in, n);
}

struct nf_rss_tuple nf_rss_flow_tuple(uint32_t flow) {
  struct nf_rss_tuple t;
  const uint32_t f = flow & ~NF_FLOW_ACK;
  t.has_ports = true;
  if (flow & NF_FLOW_ACK) {
    /* the peer's ACK of the host's TX flow f: that flow's tuple reversed */
    t.saddr = NF_RSS_PEER_ADDR;
    t.daddr = NF_RSS_HOST_ADDR;
    t.sport = NF_RSS_DPORT;
    t.dport = (uint16_t)(NF_RSS_TX_SPORT_BASE + f);
  } else {
    t.saddr = NF_RSS_PEER_ADDR;
    t.daddr = NF_RSS_HOST_ADDR;
    t.sport = (uint16_t)(NF_RSS_RX_SPORT_BASE + f);
    t.dport = NF_RSS_DPORT;
  }
  return t;
}

uint32_t nf_rss_frame_hash(const uint8_t *key, const uint8_t *frame, uint32_t dma_len) {
  if (dma_len < NF_HDR_OFF + NF_HDR_LEN) return 0;
  if (frame[12] != (uint8_t)(NF_ETHERTYPE >> 8) || frame[13] != (uint8_t)(NF_ETHERTYPE & 0xff)) return 0;
  struct nf_header h;
  memcpy(&h, frame + NF_HDR_OFF, sizeof h);
  if (h.magic != NF_MAGIC) return 0;
  const struct nf_rss_tuple t = nf_rss_flow_tuple(h.flow);
  return nf_rss_hash(key, &t);
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool nf_rss_parse_key(const char *s, uint8_t key[NF_RSS_KEY_LEN]) {
  if (!s || s[0] == '\0') {
    memcpy(key, nf_rss_ms_key, NF_RSS_KEY_LEN);
    return true;
  }
  if (strlen(s) != 2 * NF_RSS_KEY_LEN) return false;
  uint8_t k[NF_RSS_KEY_LEN];
  for (size_t i = 0; i < NF_RSS_KEY_LEN; i++) {
    int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    k[i] = (uint8_t)(hi << 4 | lo);
  }
  memcpy(key, k, NF_RSS_KEY_LEN);
  return true;
}
