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

/* FNV-1a over the header (checksum field zero) and the payload. */
static uint32_t frame_sum(const uint8_t *buf, uint32_t len) {
  const uint32_t ck = NF_HDR_OFF + (uint32_t)offsetof(struct nf_header, checksum);
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < len; i++) {
    uint8_t b = buf[i];
    if (i >= ck && i < ck + 4) b = 0; /* the checksum itself */
    h = (h ^ b) * 16777619u;
  }
  return h;
}

static void put_payload(uint8_t *p, uint32_t n, uint64_t key) {
  uint64_t s = key;
  while (n >= 8) {
    uint64_t r = splitmix64(&s);
    memcpy(p, &r, 8);
    p += 8;
    n -= 8;
  }
  if (n) {
    uint64_t r = splitmix64(&s);
    memcpy(p, &r, n);
  }
}

void nf_fill(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq) {
  nf_fill_ts(buf, dma_len, seed, flow, seq, 0);
}

void nf_fill_ts(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq,
                uint64_t ts_ps) {
  static const uint8_t dst[6] = {0x02, 0x4E, 0x49, 0x43, 0x00, 0x01};
  static const uint8_t src[6] = {0x02, 0x4E, 0x49, 0x43, 0x00, 0x02};
  memcpy(buf, dst, 6);
  memcpy(buf + 6, src, 6);
  buf[12] = (uint8_t)(NF_ETHERTYPE >> 8);
  buf[13] = (uint8_t)(NF_ETHERTYPE & 0xff);
  struct nf_header h = {NF_MAGIC, flow, seq, dma_len, 0, ts_ps};
  memcpy(buf + NF_HDR_OFF, &h, sizeof h);
  uint32_t off = NF_HDR_OFF + NF_HDR_LEN;
  put_payload(buf + off, dma_len - off, stream_key(seed, flow, seq));
  h.checksum = frame_sum(buf, dma_len);
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
  if (frame_sum(buf, dma_len) != h.checksum) return NF_BAD_CHECKSUM;
  /* The checksum could match a consistently rewritten frame; the payload
   * stream is keyed by (seed, flow, seq), so regenerate and compare. */
  uint64_t s = stream_key(seed, h.flow, h.seq);
  uint32_t off = NF_HDR_OFF + NF_HDR_LEN;
  if (h.flow & NF_FLOW_ACK) { /* an ACK's SACK bytes replace the stream's first bytes */
    uint32_t skip = (uint32_t)sizeof(struct nf_sack);
    while (skip >= 8 && off < dma_len) {
      splitmix64(&s);
      off += 8;
      skip -= 8;
    }
    if (skip) {
      uint64_t r = splitmix64(&s);
      uint32_t end = off + 8 < dma_len ? off + 8 : dma_len;
      uint32_t from = off + skip < end ? off + skip : end;
      if (memcmp(buf + from, (const uint8_t *)&r + skip, end - from) != 0) return NF_BAD_PAYLOAD;
      off = end;
    }
  }
  while (off < dma_len) {
    uint64_t r = splitmix64(&s);
    uint32_t n = dma_len - off < 8 ? dma_len - off : 8;
    if (memcmp(buf + off, &r, n) != 0) return NF_BAD_PAYLOAD;
    off += n;
  }
  if (hdr) *hdr = h;
  return NF_OK;
}

const char *nf_verdict_str(enum nf_verdict v) {
  switch (v) {
    case NF_OK: return "ok";
    case NF_BAD_LEN: return "length does not match the frame header";
    case NF_BAD_MAGIC: return "not a nicsim test frame (bad magic)";
    case NF_BAD_CHECKSUM: return "checksum mismatch (corrupted bytes)";
    case NF_BAD_PAYLOAD: return "payload differs from the sender's stream";
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
