/*
 * frame.h: the test frames nicsim's traffic sources send and its sinks check.
 *
 * A frame is an Ethernet frame of `frame_bytes` (FCS included). What the NIC
 * moves by DMA is the frame without its 4-byte FCS (the MAC strips it on RX
 * and appends it on TX). Layout of the DMA'd bytes:
 *   0..13   Ethernet header (dst, src, ethertype 0x88B5, IEEE local experimental)
 *   14..45  nicsim header: magic, flow, sequence number, length, checksum,
 *           and the time the frame was sent (ps of simulated time)
 *   46..    payload, a pseudo-random stream keyed by (seed, flow, seq)
 * The checksum (FNV-1a's step, 64 bits wide, per 8-byte word, folded to 32
 * bits) covers the payload and the header fields, so a sink detects a
 * lost, duplicated, reordered or corrupted frame.
 */
#ifndef NICSIM_NET_FRAME_H
#define NICSIM_NET_FRAME_H

#include <assert.h> /* static_assert in C11 and C++ */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NF_ETH_HLEN 14
#define NF_FCS_LEN 4
#define NF_ETHERTYPE 0x88B5u
#define NF_MAGIC 0x4E494353u /* "NICS" */
#define NF_HDR_OFF NF_ETH_HLEN
#define NF_HDR_LEN 32
#define NF_MIN_FRAME 64 /* with FCS */

struct nf_header {
  uint32_t magic;
  uint32_t flow;
  uint64_t seq;
  uint32_t len;      /* bytes DMA'd: frame_bytes - FCS */
  uint32_t checksum; /* over header (with checksum = 0) and payload */
  uint64_t ts_ps;    /* when the sender put the frame on the wire or into the stack, ps */
};
static_assert(sizeof(struct nf_header) == NF_HDR_LEN, "nicsim frame header is 32 bytes");

/* traffic.protocol tcp: an ACK frame sets this bit in its header's flow
 * field; its seq is the cumulative ACK (the next segment the receiver
 * expects). ACK frames are NF_ACK_FRAME bytes with FCS; data segments carry
 * no flag. */
#define NF_FLOW_ACK 0x80000000u
#define NF_ACK_FRAME 64u
/* Headers a TCP segment's frame carries around its payload: Ethernet 14,
 * IPv4 20, TCP 20 + 12 (timestamps option), FCS 4: MSS 1448 at a 1518 B frame. */
#define NF_TCP_OVERHEAD 70u
/* SACK (RFC 2018) in an ACK frame: up to NF_SACK_BLOCKS blocks of segments
 * the receiver holds above the cumulative ACK, each [ack + start, ack + end)
 * as 16-bit offsets from the ACK's seq, the block holding the latest
 * arrival first. They sit in the 14 bytes after the nicsim header (offsets
 * 46..59 of the 60 DMA'd bytes of a 64 B ACK frame), covered by the
 * checksum; n = 0: no SACK (an ordinary ACK). */
#define NF_SACK_BLOCKS 3
#define NF_SACK_OFF (NF_HDR_OFF + NF_HDR_LEN)
struct nf_sack {
  uint16_t n;                         /* blocks used, 0..NF_SACK_BLOCKS */
  uint16_t blk[NF_SACK_BLOCKS][2];    /* [start, end) offsets from the cumulative ACK */
};
static_assert(sizeof(struct nf_sack) == 14, "SACK blocks fill a 64 B ACK frame's payload");
/* True if h is an ACK frame's header. */
static inline bool nf_is_ack(const struct nf_header *h) { return (h->flow & NF_FLOW_ACK) != 0; }
/* The flow number of h without the ACK flag. */
static inline uint32_t nf_flow_id(const struct nf_header *h) { return h->flow & ~NF_FLOW_ACK; }
/* TCP payload bytes of a data segment in a frame of frame_bytes (at least 1). */
static inline uint32_t nf_tcp_payload(uint32_t frame_bytes) {
  return frame_bytes > NF_TCP_OVERHEAD ? frame_bytes - NF_TCP_OVERHEAD : 1u;
}

/* Bytes of a frame as moved by DMA (frame_bytes without FCS). */
static inline uint32_t nf_dma_len(uint32_t frame_bytes) { return frame_bytes - NF_FCS_LEN; }

/* Fills buf[0..dma_len) with frame `seq` of `flow`, sent at ts_ps. The sink
 * uses the timestamp to attribute a frame to the measurement window by when
 * it was sent, and to measure latency. */
void nf_fill_ts(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq,
                uint64_t ts_ps);
/* nf_fill_ts with timestamp 0, for senders outside simulated time. */
void nf_fill(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq);
/* Fills an ACK frame (flow | NF_FLOW_ACK, cumulative ACK seq) carrying sack
 * (NULL: none) in its first payload bytes; dma_len at least 60. */
void nf_fill_ack(uint8_t *buf, uint32_t dma_len, uint64_t seed, uint32_t flow, uint64_t seq,
                 uint64_t ts_ps, const struct nf_sack *sack);
/* The SACK blocks of an ACK frame that passed nf_check (n = 0 if none). */
void nf_ack_sack(const uint8_t *buf, uint32_t dma_len, struct nf_sack *sack);

/* The addresses of the test frames: the host's port (a frame's destination)
 * and the wire peer (its source), as byte lists for an array initialiser. A
 * forwarded frame goes back with them swapped (the neighbour's header). */
#define NF_HOST_MAC 0x02, 0x4E, 0x49, 0x43, 0x00, 0x01
#define NF_PEER_MAC 0x02, 0x4E, 0x49, 0x43, 0x00, 0x02

/* Result of checking one received frame. */
enum nf_verdict { NF_OK, NF_BAD_LEN, NF_BAD_MAGIC, NF_BAD_CHECKSUM, NF_BAD_PAYLOAD, NF_BAD_ADDR };

/* Checks a received frame; on NF_OK fills *hdr (flow, seq, len). */
enum nf_verdict nf_check(const uint8_t *buf, uint32_t dma_len, uint64_t seed, struct nf_header *hdr);
const char *nf_verdict_str(enum nf_verdict v);
/* A frame the host forwarded (traffic.mode forward, src/kernel/forward.c)
 * carries two edits: the Ethernet header of its next hop (destination the
 * peer, source the host), and ip_decrease_ttl at the IPv4 header's offsets
 * (byte 8 decremented; the 16-bit word at 10, read little-endian, plus 1
 * with the end-around carry). Undoes both in buf and checks the frame with
 * nf_check: NF_BAD_ADDR if the addresses are not the forwarded ones
 * (buf untouched), else nf_check's verdict (the checksum word's one
 * ambiguous value, 1, is tried both ways). */
enum nf_verdict nf_ip_forward_undo(uint8_t *buf, uint32_t dma_len, uint64_t seed, struct nf_header *hdr);

/* Per-flow sequence tracking at a sink: every frame must arrive once, in
 * order; a gap is only legal if the sender counted the missing frames as drops. */
struct nf_seq_track {
  uint64_t next_seq; /* next expected sequence number */
  uint64_t received; /* frames accepted */
  uint64_t gaps;     /* frames skipped over (reconciled against counted drops) */
  uint64_t errors;   /* reordered, duplicated or corrupted frames */
};
/* Accepts frame seq; returns false (and counts an error) on a duplicate or reorder. */
bool nf_seq_accept(struct nf_seq_track *t, uint64_t seq);

#ifdef __cplusplus
}
#endif
#endif
