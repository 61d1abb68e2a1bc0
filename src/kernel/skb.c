/* skb.c: the preallocated sk_buff pool (data in cacheable simulated memory)
 * and RX delivery to the host stack. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/kernel_priv.h"

int nk__skb_init(struct nk_kernel *k, char *err, size_t errlen) {
  const struct nicsim_config *c = k->cfg;
  /* Data room for the largest frame of the run (at least a standard 1518-byte
   * one): skbs hold frames, not whole RX buffers. */
  u64 frame = c->traffic.frame_bytes > NK_SKB_MIN_FRAME ? (u64)c->traffic.frame_bytes : NK_SKB_MIN_FRAME;
  u64 n = (u64)c->nic.tx_ring_size + nk__rx_slot_skbs(c) + 2 * (u64)c->driver.napi_budget + NK_SKB_SLACK;
  u64 bytes = nk__round_up(NET_SKB_PAD + NET_IP_ALIGN + frame, k->line);
  k->nskbs = (unsigned int)n;
  k->skb_buf_bytes = (unsigned int)bytes;
  k->skbs = calloc(n, sizeof *k->skbs);
  if (!k->skbs) {
    snprintf(err, errlen, "out of host memory for %" PRIu64 " skbs", n);
    return -1;
  }
  k->skb_chunk_pa = nk__mem_alloc(k, n * bytes, k->line, NK_ALLOC_SKB_POOL, "skb pool");
  if (!k->skb_chunk_pa) {
    snprintf(err, errlen, "skb pool of %" PRIu64 " x %" PRIu64 " bytes: %s", n, bytes, k->last_error);
    return -1;
  }
  k->skb_free = NULL;
  for (u64 i = n; i-- > 0;) {
    struct sk_buff *s = &k->skbs[i];
    s->head = k->plat.mem + k->skb_chunk_pa + i * bytes;
    s->size = (u32)bytes;
    s->next = k->skb_free;
    k->skb_free = s;
  }
  k->skbs_in_use = 0;
  return 0;
}

void nk__skb_fini(struct nk_kernel *k) {
  if (k->skb_chunk_pa)
    nk__mem_free(k, k->skb_chunk_pa, (u64)k->nskbs * k->skb_buf_bytes, NK_ALLOC_SKB_POOL, "skb pool");
  free(k->skbs);
  k->skbs = NULL;
  k->skb_chunk_pa = 0;
}

/* Takes an skb from the pool with NET_SKB_PAD + NET_IP_ALIGN headroom. */
static struct sk_buff *alloc_skb(struct net_device *dev, unsigned int len, const char *what) {
  struct nk_kernel *k = nk__dev_kernel(dev, what);
  if ((u64)len + NET_SKB_PAD + NET_IP_ALIGN > k->skb_buf_bytes) {
    k->stats.skb_alloc_fail++;
    nk__fault(k, "%s(%u): larger than the skb pool's buffers (%u bytes with %d headroom)", what, len,
              k->skb_buf_bytes, NET_SKB_PAD + NET_IP_ALIGN);
    return NULL;
  }
  struct sk_buff *s = k->skb_free;
  if (!s) {
    k->stats.skb_alloc_fail++;
    nk__error(k, "%s: all %u skbs are in use", what, k->nskbs);
    return NULL;
  }
  k->skb_free = s->next;
  s->next = NULL;
  s->in_use = true;
  s->dev = dev;
  s->data = s->head + NET_SKB_PAD + NET_IP_ALIGN;
  s->len = 0;
  k->skbs_in_use++;
  return s;
}

struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len) {
  if (!napi || !napi->dev) {
    nk__fault(nk__cur("napi_alloc_skb"), "napi_alloc_skb: NAPI context without a device");
    return NULL;
  }
  return alloc_skb(napi->dev, len, "napi_alloc_skb");
}

struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int len) {
  return alloc_skb(dev, len, "netdev_alloc_skb");
}

void skb_reserve(struct sk_buff *skb, int len) {
  if (!skb) {
    nk__fault(nk__cur("skb_reserve"), "skb_reserve(NULL)");
    return;
  }
  struct nk_kernel *k = nk__dev_kernel(skb->dev, "skb_reserve");
  u8 *d = skb->data + len;
  if (skb->len != 0 || d < skb->head || d > skb->head + skb->size) {
    nk__fault(k, "skb_reserve(%d): skb has %u bytes of data and %td of headroom", len, skb->len,
              skb->data - skb->head);
    return;
  }
  skb->data = d;
}

u8 *skb_put(struct sk_buff *skb, unsigned int len) {
  if (!skb) {
    nk__fault(nk__cur("skb_put"), "skb_put(NULL)");
    return NULL;
  }
  struct nk_kernel *k = nk__dev_kernel(skb->dev, "skb_put");
  u8 *tail = skb->data + skb->len;
  if ((u64)(tail - skb->head) + len > skb->size) {
    nk__fault(k, "skb_put(%u): skb_over_panic: data %u + headroom %td exceeds the %u-byte buffer", len,
              skb->len, skb->data - skb->head, skb->size);
    return tail;
  }
  skb->len += len;
  return tail;
}

void dev_kfree_skb_any(struct sk_buff *skb) {
  if (!skb) return;
  struct nk_kernel *k = nk__dev_kernel(skb->dev, "dev_kfree_skb_any");
  if (skb < k->skbs || skb >= k->skbs + k->nskbs) {
    nk__fault(k, "dev_kfree_skb_any(%p): not an skb of this kernel", (void *)skb);
    return;
  }
  if (!skb->in_use) {
    nk__fault(k, "dev_kfree_skb_any: skb %td freed twice", skb - k->skbs);
    return;
  }
  skb->in_use = false;
  skb->len = 0;
  skb->next = k->skb_free;
  k->skb_free = skb;
  k->skbs_in_use--;
}

void napi_consume_skb(struct sk_buff *skb, int budget) {
  (void)budget; /* Linux defers the free when budget != 0; the cost is the same here */
  dev_kfree_skb_any(skb);
}

void netif_receive_skb(struct sk_buff *skb) {
  if (!skb) {
    nk__fault(nk__cur("netif_receive_skb"), "netif_receive_skb(NULL)");
    return;
  }
  struct net_device *dev = skb->dev;
  struct nk_kernel *k = nk__dev_kernel(dev, "netif_receive_skb");
  if (!skb->in_use) {
    nk__fault(k, "netif_receive_skb: skb %td is not allocated", skb - k->skbs);
    return;
  }
  const struct nc_cpu *cpu = &k->cfg->cpu;
  int prev = nk_prof_enter(k->prof_stack_rx);
  /* GRO, IP and UDP/TCP in the softirq; the copy to user space is the
   * reader's, charged after the poll (nk__flush_user_copy). */
  k->plat.ops->charge(k->plat.ctx, cpu->stack_rx_cycles_per_pkt);
  k->user_copy_bytes += skb->len;
  k->plat.ops->host_rx(k->plat.ctx, nk__pa(k, skb->data), skb->len);
  nk_prof_leave(prev);
  dev->stats.rx_packets++;
  dev->stats.rx_bytes += skb->len;
  k->stats.rx_delivered++;
  k->stats.rx_bytes += skb->len;
  dev_kfree_skb_any(skb);
}

void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb) {
  (void)napi; /* no GRO: every frame goes up on its own */
  netif_receive_skb(skb);
}

unsigned int nk_kernel_skbs_in_use(const struct nk_kernel *k) { return k->skbs_in_use; }
