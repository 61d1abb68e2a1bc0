/* frame.c: fills and checks nicsim test frames (see frame.h). */
#include "net/frame.h"

#include <stddef.h>
#include <string.h>

/* splitmix64: a small, well-mixed generator for the payload stream. */
static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t stream_key(uint64_t seed, uint32_t flow, uint64_t seq) {
  return seed * 0x100000001B3ull ^ ((uint64_t)flow << 48) ^ seq;
}

/* The checksum: FNV-1a's step, 64 bits wide, over 8-byte words: first the
 * 46 bytes of Ethernet and nicsim header (checksum field zero) as 6 words,
 * the last zero-padded, then the payload as the words the payload stream
 * is made of (from byte 46), the last one zero-padded; folded to 32 bits.
 * A word at a time: a multiply per 8 bytes, not per byte. */
#define NF_SUM_BASIS 0xCBF29CE484222325ull
#define NF_SUM_PRIME 0x100000001B3ull
#define NF_PAYLOAD_OFF (NF_HDR_OFF + NF_HDR_LEN)
#define NF_CK_OFF (NF_HDR_OFF + (uint32_t)offsetof(struct nf_header, checksum))

static inline uint64_t sum_word(uint64_t h, uint64_t w) { return (h ^ w) * NF_SUM_PRIME; }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NF_LE 1
#else
#define NF_LE 0
#endif

/* The 8 bytes at p as a word (memory order). */
static inline uint64_t load8(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* The n <= 8 bytes at p as a word, zero-padded (memory order). Little
 * endian: two fixed-size loads (overlapping when n is not a power of two),
 * not a memcpy of variable length. */
static inline uint64_t load_word(const uint8_t *p, uint32_t n) {
  uint64_t w = 0;
  if (!NF_LE || n == 0) {
    memcpy(&w, p, n);
  } else if (n >= 8) {
    w = load8(p);
  } else if (n >= 4) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + n - 4, 4);
    w = (uint64_t)lo | (uint64_t)hi << (8 * (n - 4));
  } else if (n >= 2) {
    uint16_t lo, hi;
    memcpy(&lo, p, 2);
    memcpy(&hi, p + n - 2, 2);
    w = (uint64_t)lo | (uint64_t)hi << (8 * (n - 2));
  } else {
    w = p[0];
  }
  return w;
}

/* Stores the first n < 8 bytes (memory order) of w at p. */
static inline void store_part(uint8_t *p, uint64_t w, uint32_t n) {
  if (!NF_LE) {
    memcpy(p, &w, n);
    return;
  }
  if (n & 4) {
    const uint32_t v = (uint32_t)w;
    memcpy(p, &v, 4);
    p += 4;
    w >>= 32;
  }
  if (n & 2) {
    const uint16_t v = (uint16_t)w;
    memcpy(p, &v, 2);
    p += 2;
    w >>= 16;
  }
  if (n & 1) *p = (uint8_t)w;
}

/* The word with the first n <= 8 bytes (memory order) all ones. */
static inline uint64_t byte_mask(uint32_t n) {
  if (NF_LE) return n >= 8 ? ~0ull : (1ull << (8 * n)) - 1;
  uint64_t m = 0;
  memset(&m, 0xff, n);
  return m;
}

static inline uint32_t sum_fold(uint64_t h) { return (uint32_t)(h ^ (h >> 32)); }

/* The checksum's running value after the headers of buf (checksum field zero):
 * six words, the checksum's 4 bytes masked out of the fifth, the sixth the
 * 6 header bytes from 40, zero-padded. */
static uint64_t head_sum(const uint8_t *buf) {
  _Static_assert(NF_PAYLOAD_OFF == 46 && NF_CK_OFF == 34, "head_sum's word layout");
  uint64_t h = NF_SUM_BASIS;
  for (uint32_t i = 0; i < 32; i += 8) h = sum_word(h, load8(buf + i));
  h = sum_word(h, load8(buf + 32) & ~(byte_mask(6) & ~byte_mask(2))); /* bytes 34..37: the checksum */
  return sum_word(h, load_word(buf + 40, 6));
}

/* The checksum of the len >= NF_PAYLOAD_OFF bytes at buf. */
static uint32_t frame_sum(const uint8_t *buf, uint32_t len) {
  uint64_t h = head_sum(buf);
  for (uint32_t off = NF_PAYLOAD_OFF; off < len; off += 8) {
    const uint32_t n = len - off < 8 ? len - off : 8;
    h = sum_word(h, load_word(buf + off, n));
  }
  return sum_fold(h);
}

/* Writes the payload stream keyed by key into p[0..n) and returns the
 * checksum's running value h continued over it. */
static uint64_t put_payload(uint8_t *p, uint32_t n, uint64_t key, uint64_t h) {
  uint64_t s = key;
  while (n >= 8) {
    uint64_t r = splitmix64(&s);
    memcpy(p, &r, 8);
    h = sum_word(h, r);
    p += 8;
    n -= 8;
  }
  if (n) {
    uint64_t r = splitmix64(&s);
    store_part(p, r, n);
    h = sum_word(h, r & byte_mask(n));
  }
  return h;
}

void nf_fill(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq) {
  nf_fill_ts(buf, dma_len, seed, flow, seq, 0);
}

void nf_fill_ts(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq,
                uint64_t ts_ps) {
  static const uint8_t dst[6] = {NF_HOST_MAC};
  static const uint8_t src[6] = {NF_PEER_MAC};
  memcpy(buf, dst, 6);
  memcpy(buf + 6, src, 6);
  buf[12] = (uint8_t)(NF_ETHERTYPE >> 8);
  buf[13] = (uint8_t)(NF_ETHERTYPE & 0xff);
  struct nf_header h = {NF_MAGIC, flow, seq, dma_len, 0, ts_ps};
  memcpy(buf + NF_HDR_OFF, &h, sizeof h);
  const uint64_t hs = head_sum(buf);
  h.checksum = sum_fold(put_payload(buf + NF_PAYLOAD_OFF, dma_len - NF_PAYLOAD_OFF, stream_key(seed, flow, seq), hs));
  memcpy(buf + NF_HDR_OFF, &h, sizeof h);
}

void nf_fill_ack(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq,
                 uint64_t ts_ps, const struct nf_sack *sack) {
  nf_fill_ts(buf, dma_len, seed, flow | NF_FLOW_ACK, seq, ts_ps);
  struct nf_sack none;
  memset(&none, 0, sizeof none);
  memcpy(buf + NF_SACK_OFF, sack ? sack : &none, sizeof none);
  struct nf_header h;
  memcpy(&h, buf + NF_HDR_OFF, sizeof h);
  h.checksum = frame_sum(buf, dma_len);
  memcpy(buf + NF_HDR_OFF, &h, sizeof h);
}

void nf_ack_sack(const uint8_t *buf, uint32_t dma_len, struct nf_sack *sack) {
  memset(sack, 0, sizeof *sack);
  if (dma_len < NF_SACK_OFF + sizeof *sack) return;
  memcpy(sack, buf + NF_SACK_OFF, sizeof *sack);
  if (sack->n > NF_SACK_BLOCKS) sack->n = 0;
}

enum nf_verdict nf_check(const uint8_t *buf, uint32_t dma_len, uint64_t seed, struct nf_header *hdr) {
  if (dma_len < NF_MIN_FRAME - NF_FCS_LEN) return NF_BAD_LEN;
  struct nf_header h;
  memcpy(&h, buf + NF_HDR_OFF, sizeof h);
  if (h.magic != NF_MAGIC) return NF_BAD_MAGIC;
  if (h.len != dma_len) return NF_BAD_LEN;
  /* One pass over the payload: the checksum, and the payload regenerated
   * from its stream (keyed by seed, flow, seq) and compared word by word:
   * the checksum alone could match a consistently rewritten frame. A
   * checksum mismatch is reported before a payload mismatch. An ACK's SACK
   * bytes (the first sizeof(struct nf_sack) payload bytes) replace the
   * stream's first bytes and are not compared. */
  uint64_t s = stream_key(seed, h.flow, h.seq);
  uint64_t sum = head_sum(buf);
  uint64_t diff = 0;
  const uint32_t skip_end = (h.flow & NF_FLOW_ACK) ? NF_PAYLOAD_OFF + (uint32_t)sizeof(struct nf_sack) : NF_PAYLOAD_OFF;
  uint32_t off = NF_PAYLOAD_OFF;
  for (; off + 8 <= dma_len; off += 8) {
    const uint64_t w = load8(buf + off);
    const uint64_t r = splitmix64(&s);
    sum = sum_word(sum, w);
    if (off + 8 <= skip_end) continue;
    const uint64_t keep = off >= skip_end ? ~0ull : ~byte_mask(skip_end - off);
    diff |= (w ^ r) & keep;
  }
  if (off < dma_len) {
    const uint32_t n = dma_len - off;
    const uint64_t w = load_word(buf + off, n);
    const uint64_t r = splitmix64(&s) & byte_mask(n);
    sum = sum_word(sum, w);
    if (off + n > skip_end) {
      const uint64_t keep = off >= skip_end ? ~0ull : ~byte_mask(skip_end - off);
      diff |= (w ^ r) & keep;
    }
  }
  if (sum_fold(sum) != h.checksum) return NF_BAD_CHECKSUM;
  if (diff) return NF_BAD_PAYLOAD;
  if (hdr) *hdr = h;
  return NF_OK;
}

/* The IPv4 header's TTL and checksum in the frame (src/kernel/forward.c). */
#define NF_IP_TTL (NF_ETH_HLEN + 8)
#define NF_IP_CHECK (NF_ETH_HLEN + 10)

enum nf_verdict nf_ip_forward_undo(uint8_t *buf, uint32_t dma_len, uint64_t seed, struct nf_header *hdr) {
  static const uint8_t host[6] = {NF_HOST_MAC}, peer[6] = {NF_PEER_MAC};
  if (dma_len < NF_MIN_FRAME - NF_FCS_LEN) return NF_BAD_LEN;
  if (memcmp(buf, peer, 6) != 0 || memcmp(buf + 6, host, 6) != 0) return NF_BAD_ADDR;
  memcpy(buf, host, 6);
  memcpy(buf + 6, peer, 6);
  buf[NF_IP_TTL]++;
  /* ip_decrease_ttl stored v = c + 1, plus 1 more if that reached 0xFFFF:
   * 0 came from 0xFFFE, 1 from 0 or 0xFFFF, any other v from v - 1. */
  const uint16_t v = (uint16_t)(buf[NF_IP_CHECK] | (uint16_t)buf[NF_IP_CHECK + 1] << 8);
  const uint16_t cand[2] = {(uint16_t)(v == 0 ? 0xFFFEu : v - 1u), 0xFFFFu};
  enum nf_verdict r = NF_BAD_CHECKSUM;
  for (int i = 0; i < (v == 1 ? 2 : 1); i++) {
    buf[NF_IP_CHECK] = (uint8_t)(cand[i] & 0xff);
    buf[NF_IP_CHECK + 1] = (uint8_t)(cand[i] >> 8);
    r = nf_check(buf, dma_len, seed, hdr);
    if (r == NF_OK) break;
  }
  return r;
}

const char *nf_verdict_str(enum nf_verdict v) {
  switch (v) {
    case NF_OK: return "ok";
    case NF_BAD_LEN: return "length does not match the frame header";
    case NF_BAD_MAGIC: return "not a nicsim test frame (bad magic)";
    case NF_BAD_CHECKSUM: return "checksum mismatch (corrupted bytes)";
    case NF_BAD_PAYLOAD: return "payload differs from the sender's stream";
    case NF_BAD_ADDR: return "not addressed as a forwarded frame (destination the peer, source the host)";
  }
  return "unknown";
}

bool nf_seq_accept(struct nf_seq_track *t, uint64_t seq) {
  if (seq < t->next_seq) {
    t->errors++;
    return false;
  }
  t->gaps += seq - t->next_seq;
  t->next_seq = seq + 1;
  t->received++;
  return true;
}
