/* pktgen.c: traffic.sender pktgen, the kernel's packet generator
 * (net/core/pktgen.c, v5.4): a kernel thread that builds test frames and
 * hands them to the driver's ndo_start_xmit itself, with no socket, no
 * UDP/IP stack and no copy from user space. Mirrored function by function:
 *
 *   pktgen_xmit:  a new skb when there is none or the last one was sent
 *                 clone_skb times (fill_packet), else the same skb again;
 *                 HARD_TX_LOCK, netif_xmit_frozen_or_drv_stopped, users
 *                 bumped, netdev_start_xmit; NETDEV_TX_BUSY drops the bump
 *                 and keeps the skb for the next call (last_ok 0)
 *   fill_packet:  pktgen_alloc_skb (__alloc_skb), fill_packet_ipv4 (the
 *                 headers, the pktgen header, the payload zeroed)
 *   pktgen_stop_device: kfree_skb of its reference
 *
 * Its queue is queue_map_min (0): TX queue 0. The thread's scheduling is
 * the host model's (models/cpu/host_app.cpp). Costs: docs/host.md. */
#include <errno.h>

#include "kernel/kernel_priv.h"
#include "net/frame.h"

/* fill_packet: a new skb holding frame (flow 0, seq), charged as pktgen
 * builds it; NULL if none is free (pktgen: "couldn't allocate skb"). */
static struct sk_buff *pktgen_fill_packet(struct nk_kernel *k, uint32_t frame_bytes, uint64_t seq) {
  struct net_device *dev = &k->dev;
  const uint32_t len = nf_dma_len(frame_bytes);
  struct sk_buff *skb = netdev_alloc_skb(dev, len); /* pktgen_alloc_skb: __netdev_alloc_skb */
  if (!skb) return NULL;
  const int prev = nk_prof_enter(k->prof.pktgen_fill);
  /* The headers and pktgen header, then pktgen_finalize_skb's skb_put_zero
   * of the payload (a memset, priced as the send's per-byte copy). */
  nk__exec(k, k->cfg->stack.pktgen_fill_instructions, k->cfg->cpu.stack_tx_cycles_per_byte * (double)len, -1);
  nk_prof_leave(prev);
  nf_fill(skb_put(skb, len), len, (uint64_t)k->cfg->run.seed, 0, seq);
  skb->queue_mapping = 0; /* queue_map_min 0 */
  return skb;
}

int nk_kernel_pktgen_xmit(struct nk_kernel *k, uint32_t frame_bytes, uint64_t seq, bool *clone) {
  nk_kernel_set_current(k);
  if (clone) *clone = false;
  if (!k->probed) return -ENODEV;
  if (k->fault[0]) return -EFAULT;
  if (frame_bytes < NF_MIN_FRAME) return -EINVAL;
  struct net_device *dev = &k->dev;
  const int prev = nk_prof_enter(k->prof.pktgen_xmit);
  nk__exec(k, k->cfg->stack.pktgen_xmit_instructions, 0, -1);
  /* If no skb or clone count exhausted then get new one. */
  const u64 clone_skb = (u64)k->cfg->traffic.pktgen_clone_skb;
  if (!k->pktgen_skb || (k->pktgen_last_ok && ++k->pktgen_clone_count >= clone_skb)) {
    dev_kfree_skb_any(k->pktgen_skb); /* kfree_skb: its reference (the ring may hold others) */
    k->pktgen_skb = pktgen_fill_packet(k, frame_bytes, seq);
    if (!k->pktgen_skb) {
      nk_prof_leave(prev);
      if (k->fault[0]) return -EFAULT;
      k->stats.xmit_nomem++;
      return NETDEV_TX_BUSY; /* pktgen schedule()s and tries again */
    }
    k->pktgen_clone_count = 0;
    k->pktgen_sent = 0;
  }
  struct sk_buff *skb = k->pktgen_skb;
  const u32 txq = skb_get_queue_mapping(skb);
  struct netdev_queue *nq = netdev_get_tx_queue(dev, txq);
  __netif_tx_lock(nq); /* HARD_TX_LOCK (local_bh_disable around it: in the loop's count) */
  if (k->fault[0] || netif_xmit_stopped(dev, (u16)txq)) {
    __netif_tx_unlock(nq);
    nk_prof_leave(prev);
    if (k->fault[0]) return -EFAULT;
    k->pktgen_last_ok = false;
    k->busy_txq = txq;
    k->stats.xmit_busy++;
    return NETDEV_TX_BUSY;
  }
  skb->users++; /* refcount_add(burst, &skb->users): the driver's free drops it */
  netdev_tx_t rc = k->drv->ndo_start_xmit(skb, dev);
  __netif_tx_unlock(nq);
  nk_prof_leave(prev);
  if (rc == NETDEV_TX_BUSY) { /* retry it next time */
    if (skb->users) skb->users--;
    k->pktgen_last_ok = false;
    k->busy_txq = txq;
    k->stats.xmit_busy_driver++;
    return NETDEV_TX_BUSY;
  }
  k->pktgen_last_ok = true;
  k->stats.xmit_ok++;
  if (txq < NK_NAPI_MAX) k->txq_packets[txq]++;
  if (clone) *clone = k->pktgen_sent > 0; /* a retry after NETDEV_TX_BUSY is no clone */
  k->pktgen_sent++;
  return NETDEV_TX_OK;
}

void nk__pktgen_stop(struct nk_kernel *k) {
  if (!k->pktgen_skb) return;
  dev_kfree_skb_any(k->pktgen_skb);
  k->pktgen_skb = NULL;
  k->pktgen_last_ok = false;
  k->pktgen_clone_count = 0;
  k->pktgen_sent = 0;
}
