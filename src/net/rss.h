/*
 * rss.h: Receive Side Scaling as the Microsoft RSS specification defines it:
 * the Toeplitz hash over an IPv4 flow's addresses and ports, the default
 * 40-byte key, and the 5-tuples nicsim's test flows stand for. Shared by the
 * NIC model (models/dma: the hash that picks an RX queue), the kernel layer
 * (the check that a frame arrived on the queue RSS chose) and the tests.
 *
 * nicsim's test frames (frame.h) carry no IP header; a frame's flow number
 * stands for the IPv4/UDP (or TCP) header a real frame of that flow would
 * carry. nf_rss_tuple gives that tuple; the hash is computed over it exactly
 * as a NIC computes it over the parsed header fields.
 */
#ifndef NICSIM_NET_RSS_H
#define NICSIM_NET_RSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NF_RSS_KEY_LEN 40 /* bytes: the Toeplitz key of the MS spec (i40e, ixgbe: 40 B) */
#define NF_RSS_MAX_TABLE 512 /* indirection table entries at most (i40e PF LUT) */

/* The key the Microsoft RSS specification verifies its hashes with, which
 * Linux drivers also used as their default before netdev_rss_key_fill. */
extern const uint8_t nf_rss_ms_key[NF_RSS_KEY_LEN];

/* An IPv4 flow as RSS sees it (host byte order; hashed in network order). */
struct nf_rss_tuple {
  uint32_t saddr, daddr;
  uint16_t sport, dport;
  bool has_ports; /* TCP or UDP: the 4-tuple is hashed; else the addresses only */
};

/* Toeplitz hash of len input bytes with key (at least len + 4 bytes):
 * for every set input bit i (MSB first), XOR in the 32 key bits starting at
 * bit i. */
uint32_t nf_toeplitz(const uint8_t *key, size_t key_len, const uint8_t *in, size_t len);
/* The RSS hash of a tuple: Toeplitz over saddr, daddr (and sport, dport if
 * has_ports), each in network byte order, as the MS spec orders them. */
uint32_t nf_rss_hash(const uint8_t *key, const struct nf_rss_tuple *t);

/* Addresses and ports of the test flows: the wire peer 10.0.0.2 sends RX
 * flow f from port 10000 + f to the host 10.0.0.1 port 5001; the host sends
 * its TX flow f from port 20000 + f to the peer's port 5001. */
#define NF_RSS_PEER_ADDR 0x0A000002u
#define NF_RSS_HOST_ADDR 0x0A000001u
#define NF_RSS_RX_SPORT_BASE 10000u
#define NF_RSS_TX_SPORT_BASE 20000u
#define NF_RSS_DPORT 5001u
/* The tuple of a received frame whose nicsim header carries flow (with
 * NF_FLOW_ACK set: an ACK of the host's TX flow, the reverse of its tuple). */
struct nf_rss_tuple nf_rss_flow_tuple(uint32_t flow);
/* The RSS hash of a received frame: of its flow's tuple if the DMA'd bytes
 * (dma_len of them) are a nicsim test frame, else 0 (a NIC hashes no
 * non-IP frame: it goes to the table's entry 0). */
uint32_t nf_rss_frame_hash(const uint8_t *key, const uint8_t *frame, uint32_t dma_len);
/* Parses a key of 2 x NF_RSS_KEY_LEN hex digits (as nic.rss_key); "" gives
 * the MS key. Returns false if s is neither. */
bool nf_rss_parse_key(const char *s, uint8_t key[NF_RSS_KEY_LEN]);
/* Linux's ethtool_rxfh_indir_default: entry i of the table is i mod queues. */
static inline uint32_t nf_rss_indir_default(uint32_t i, uint32_t queues) { return queues ? i % queues : 0; }

#ifdef __cplusplus
}
#endif
#endif
