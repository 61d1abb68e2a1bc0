/* forward.c: traffic.mode forward: the IPv4 forwarding path of Linux v5.4,
 * each part charged under the function that does it, as perf shows it
 * (docs/kernel.md, "Forwarding"):
 *
 *   __netif_receive_skb_core > ip_rcv        (stack.netif_receive / ip_rcv_instructions, header read)
 *   ip_rcv_finish > ip_route_input_noref > fib_table_lookup
 *                                            (stack.fib_lookup_instructions; saddr and daddr loaded)
 *   ip_forward > ip_forward_finish           (stack.ip_forward_instructions; the TTL check's load and
 *                                             ip_decrease_ttl's load and two stores to the header)
 *   ip_output > ip_finish_output2 > neigh_output > neigh_hh_output
 *                                            (stack.ip_output_instructions; the cached neighbour's
 *                                             16-byte hardware header copied in front of the packet)
 *   dev_queue_xmit                           (the RX queue's TX queue, HARD_TX_LOCK, the driver's
 *                                             ndo_start_xmit with the received skb itself)
 *
 * The skb the driver received goes out as it is: no allocation, no copy of
 * the packet. The TX clean frees it (kfree_skb) as any sent skb, so its
 * lifetime ends at TX completion and the skb pool stays conserved.
 *
 * nicsim's test frames carry the nicsim header where an IPv4 header would
 * be (src/net/frame.h), so the loads and stores are made at the IPv4
 * header's offsets, on the bytes that are there: TTL is the byte at offset
 * 8, the checksum the 16-bit word at 10. Every frame is taken to arrive with
 * a TTL above 1 (a generator sends 64), so ip_forward's "too many hops"
 * branch is loaded but never taken, whatever the byte holds. The wire peer
 * undoes the edit before it checks the frame (nf_ip_forward_undo). */
#include <string.h>

#include "kernel/kernel_priv.h"
#include "net/frame.h"

/* Offsets in the IPv4 header. */
#define IPH_TTL 8u
#define IPH_CHECK 10u
#define IPH_SADDR 12u
/* HH_DATA_MOD: the neighbour's cached header is kept right-aligned in 16 bytes. */
#define NK_HH_DATA_MOD 16u

void nk__fwd_init(struct nk_kernel *k) {
  struct nk_stack_prof *p = &k->prof;
  k->forward = k->cfg->traffic.mode == NC_MODE_FORWARD;
  p->ip_rcv_finish = nk_prof_id(NK_PROF_IP_RCV_FINISH, NK_CLASS_RX);
  p->fib_lookup = nk_prof_id(NK_PROF_FIB_LOOKUP, NK_CLASS_RX);
  p->ip_forward = nk_prof_id(NK_PROF_IP_FORWARD, NK_CLASS_RX);
  p->neigh_output = nk_prof_id(NK_PROF_NEIGH_OUTPUT, NK_CLASS_TX);
  p->dev_queue_xmit = nk_prof_id(NK_PROF_DEV_QUEUE_XMIT, NK_CLASS_TX);
}

void nk__fwd_neigh_init(struct nk_kernel *k) {
  if (!k->neigh_pa) return;
  /* neigh_hh_init: the resolved neighbour's header, dst = the wire peer's
   * address (the next hop), src = the port's, and the frame's EtherType
   * (nicsim's, standing for ETH_P_IP), right-aligned in HH_DATA_MOD bytes. */
  static const u8 peer[6] = {NF_PEER_MAC}, host[6] = {NF_HOST_MAC};
  u8 *hh = k->plat.mem + k->neigh_pa;
  memset(hh, 0, NK_HH_DATA_MOD);
  memcpy(hh + 2, peer, 6);
  memcpy(hh + 8, host, 6);
  hh[14] = (u8)(NF_ETHERTYPE >> 8);
  hh[15] = (u8)(NF_ETHERTYPE & 0xff);
}

/* Reads [pa, pa + len) of the packet's headers (ops->read_headers), no misaligned loads. */
static void headers(struct nk_kernel *k, u64 pa, u32 len) {
  if (k->plat.ops->read_headers) k->plat.ops->read_headers(k->plat.ctx, pa, len, 0);
}

/* ip_rcv_finish > ip_route_input_noref > ip_route_input_slow > fib_lookup:
 * the lookup of iph->daddr (and saddr for the reverse-path filter, rp_filter
 * off by default) in the main table; its trie is small and stays in cache. */
static void fib_table_lookup(struct nk_kernel *k, u64 iph) {
  const int prev = nk_prof_enter(k->prof.fib_lookup);
  headers(k, iph + IPH_SADDR, 8);
  nk__exec(k, k->cfg->stack.fib_lookup_instructions, 0, -1);
  k->stats.fwd_fib_lookups++;
  nk_prof_leave(prev);
}

/* ip_forward's header work: the TTL check, then ip_decrease_ttl
 * (include/net/ip.h): check += htons(0x0100) with the end-around carry,
 * stored, then --ttl stored. */
static void ip_decrease_ttl(u8 *iph) {
  const u8 ttl = nk_ld8(iph + IPH_TTL); /* if (ip_hdr(skb)->ttl <= 1) goto too_many_hops; (file comment) */
  const u32 check = (u32)nk_ld16(iph + IPH_CHECK) + 0x0001u; /* htons(0x0100) on a little-endian core */
  nk_st16(iph + IPH_CHECK, (u16)(check + (check >= 0xFFFFu)));
  nk_st8(iph + IPH_TTL, (u8)(ttl - 1u)); /* --iph->ttl */
}

/* dev_queue_xmit of a forwarded skb: netdev_pick_tx takes the queue the
 * packet came in on (skb_tx_hash with the RX queue recorded), then
 * HARD_TX_LOCK and the driver. A stopped queue or a refusal drops the
 * packet (kfree_skb), counted in fwd_drops_txq: nicsim has no qdisc to hold
 * it (docs/kernel.md, "Forwarding"). */
static void dev_queue_xmit(struct nk_kernel *k, struct sk_buff *skb) {
  struct net_device *dev = skb->dev;
  const int prev = nk_prof_enter(k->prof.dev_queue_xmit);
  const struct napi_struct *napi = nk__sd(k)->polling;
  const u32 rxq = napi && napi->rx_queue > 0 ? (u32)napi->rx_queue : 0;
  const u32 ntx = dev->real_num_tx_queues > 1 ? dev->real_num_tx_queues : 1;
  const u32 txq = rxq % ntx;
  skb->queue_mapping = (u16)txq;
  struct netdev_queue *nq = netdev_get_tx_queue(dev, txq);
  netdev_tx_t rc = NETDEV_TX_BUSY;
  if (!k->fault[0] && !netif_xmit_stopped(dev, (u16)txq)) {
    __netif_tx_lock(nq);
    if (!netif_xmit_stopped(dev, (u16)txq)) rc = k->drv->ndo_start_xmit(skb, dev);
    __netif_tx_unlock(nq);
  }
  if (rc == NETDEV_TX_OK) {
    k->stats.fwd_xmit++;
    if (txq < NK_NAPI_MAX) k->txq_packets[txq]++;
  } else {
    k->stats.fwd_drops_txq++;
    dev_kfree_skb_any(skb);
  }
  nk_prof_leave(prev);
}

void nk__stack_forward(struct nk_kernel *k, struct sk_buff *skb) {
  const struct nc_stack *st = &k->cfg->stack;
  const u64 iph_pa = nk__pa(k, skb->data) + NF_ETH_HLEN;
  u8 *iph = skb->data + NF_ETH_HLEN;
  k->stats.fwd_packets++;
  const int prev = nk_prof_enter(k->prof.netif);
  nk__exec(k, st->netif_receive_instructions, 0, -1);
  nk_prof_enter(k->prof.ip_rcv);
  nk__exec(k, st->ip_rcv_instructions, 0, -1);
  headers(k, iph_pa, 20);
  /* The host took the packet in (the sink checks it, counts it received:
   * rx.* metrics; dropped or sent, it is accounted from here on). */
  struct net_device *dev = skb->dev;
  k->plat.ops->host_rx(k->plat.ctx, iph_pa - NF_ETH_HLEN, skb->len);
  dev->stats.rx_packets++;
  dev->stats.rx_bytes += skb->len;
  k->stats.rx_delivered++;
  k->stats.rx_bytes += skb->len;
  nk_prof_enter(k->prof.ip_rcv_finish);
  fib_table_lookup(k, iph_pa);
  nk_prof_enter(k->prof.ip_forward);
  nk__exec(k, st->ip_forward_instructions, 0, -1);
  ip_decrease_ttl(iph);
  nk_prof_enter(k->prof.ip_output);
  nk__exec(k, st->ip_output_instructions, 0, -1);
  nk_prof_enter(k->prof.neigh_output);
  /* neigh_hh_output: the cached header, HH_DATA_MOD bytes ending at the
   * network header (2 bytes of headroom, then the 14-byte Ethernet header). */
  nk_memcpy(iph - NK_HH_DATA_MOD, k->plat.mem + k->neigh_pa, NK_HH_DATA_MOD);
  dev_queue_xmit(k, skb);
  /* The six frames entered above, innermost first. */
  for (int i = 0; i < 6; i++) nk_prof_leave(prev);
}
