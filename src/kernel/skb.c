/* skb.c: the preallocated sk_buff pool (data in cacheable simulated memory),
 * RX delivery to the host stack, and (traffic.protocol tcp) GRO and the TCP
 * receiver's in-order check and ACK queue. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_priv.h"
#include "net/frame.h"

int nk__skb_init(struct nk_kernel *k, char *err, size_t errlen) {
  const struct nicsim_config *c = k->cfg;
  /* Data room for the largest frame of the run (at least a standard 1518-byte
   * one), or for a whole RX buffer where the driver arms each RX slot with
   * an skb of its buffer size (lan743x: driver.rx_buf_bytes). */
  u64 frame = c->traffic.frame_bytes > NK_SKB_MIN_FRAME ? (u64)c->traffic.frame_bytes : NK_SKB_MIN_FRAME;
  if (k->rx_slot_skbs && (u64)c->driver.rx_buf_bytes > frame) frame = (u64)c->driver.rx_buf_bytes;
  /* every TX ring full (nic.tx_queues of them) */
  u64 n = (u64)c->nic.tx_ring_size * (u64)c->nic.tx_queues + k->rx_slot_skbs + (1 + nk__polling_cpus(c)) * (u64)c->driver.napi_budget +
          NK_SKB_SLACK;
  k->tcp = c->traffic.protocol == NC_PROTO_TCP;
  if (k->tcp) {
    /* The TCP receiver's out-of-order queue holds skbs too: at most a window
     * per flow, NK_OOO_MAX in all. */
    k->tcp_win_segs = (u64)c->traffic.tcp_window_bytes / nf_tcp_payload((u32)c->traffic.frame_bytes);
    if (k->tcp_win_segs == 0) k->tcp_win_segs = 1;
    u64 cap = k->tcp_win_segs * (u64)(c->traffic.flows > 0 ? c->traffic.flows : 1);
    k->ooo_cap = cap < NK_OOO_MAX ? (u32)cap : NK_OOO_MAX;
    n += k->ooo_cap;
  }
  u64 bytes = nk__round_up(NET_SKB_PAD + NET_IP_ALIGN + frame, k->line);
  k->nskbs = (unsigned int)n;
  k->skb_buf_bytes = (unsigned int)bytes;
  k->skbs = calloc(n, sizeof *k->skbs);
  if (!k->skbs) {
    snprintf(err, errlen, "out of host memory for %" PRIu64 " skbs", n);
    return -1;
  }
  /* traffic.mode forward: one line more, the neighbour entry's cached header (forward.c). */
  const u64 neigh = k->cfg->traffic.mode == NC_MODE_FORWARD ? k->line : 0;
  k->skb_chunk_pa = nk__mem_alloc(k, n * bytes + neigh, k->line, NK_ALLOC_SKB_POOL, "skb pool");
  if (!k->skb_chunk_pa) {
    snprintf(err, errlen, "skb pool of %" PRIu64 " x %" PRIu64 " bytes: %s", n, bytes, k->last_error);
    return -1;
  }
  k->neigh_pa = neigh ? k->skb_chunk_pa + n * bytes : 0;
  nk__fwd_neigh_init(k);
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
    nk__mem_free(k, k->skb_chunk_pa, (u64)k->nskbs * k->skb_buf_bytes + (k->neigh_pa ? k->line : 0),
                 NK_ALLOC_SKB_POOL, "skb pool");
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
  s->queue_mapping = 0;
  s->wmem = 0;
  s->users = 0;
  k->skbs_in_use++;
  nk__stack_alloc_skb(k);
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

/* The checks of a free; false (fault recorded) if skb cannot be freed. */
static bool skb_free_ok(struct nk_kernel *k, const struct sk_buff *skb) {
  if (skb < k->skbs || skb >= k->skbs + k->nskbs) {
    nk__fault(k, "dev_kfree_skb_any(%p): not an skb of this kernel", (const void *)skb);
    return false;
  }
  if (!skb->in_use) {
    nk__fault(k, "dev_kfree_skb_any: skb %td freed twice", skb - k->skbs);
    return false;
  }
  return true;
}

void nk__skb_release(struct nk_kernel *k, struct sk_buff *skb) {
  if (!skb_free_ok(k, skb)) return;
  skb->in_use = false;
  skb->len = 0;
  if (skb->wmem) { /* sock_wfree */
    k->sk_wmem_alloc -= skb->wmem;
    skb->wmem = 0;
  }
  skb->next = k->skb_free;
  k->skb_free = skb;
  k->skbs_in_use--;
}

void dev_kfree_skb_any(struct sk_buff *skb) {
  if (!skb) return;
  struct nk_kernel *k = nk__dev_kernel(skb->dev, "dev_kfree_skb_any");
  if (!skb_free_ok(k, skb)) return;
  if (skb->users) { /* skb_unref: another reference remains (a pktgen clone), nothing is freed */
    skb->users--;
    return;
  }
  nk__stack_free_skb(k);
  nk__skb_release(k, skb);
}

void napi_consume_skb(struct sk_buff *skb, int budget) {
  (void)budget; /* Linux defers the free when budget != 0; the cost is the same here */
  dev_kfree_skb_any(skb);
}

/* The test-frame header of skb's data (read natively: parsing headers is
 * part of the GRO and stack charges). False if it is no nicsim frame. */
static bool skb_frame_header(const struct sk_buff *skb, struct nf_header *h) {
  if (skb->len < NF_HDR_OFF + NF_HDR_LEN) return false;
  memcpy(h, skb->data + NF_HDR_OFF, sizeof *h);
  return h->magic == NF_MAGIC;
}

/* Headers in front of a UDP datagram's payload: Ethernet 14, IPv4 20, UDP 8. */
#define NK_UDP_HDRS 42u

/* The L4 payload bytes of a data frame of len bytes (no FCS) in the skb. */
static u32 skb_payload(const struct nk_kernel *k, u32 len) {
  const u32 hdr = k->tcp ? NF_TCP_OVERHEAD - NF_FCS_LEN : NK_UDP_HDRS;
  return len > hdr ? len - hdr : 0;
}

/* cpu.user_copy memcpy: prices the copy of skb's L4 payload into the reader's
 * buffer with the CPU's copy routine, and at least the time to stream its
 * source lines that miss the cache (ops->stream_read_cycles). The payload
 * starts after the real protocol headers (TCP with timestamps 66 B, UDP
 * 42 B) at skb->data; a TCP reader's read() fills its buffer from offset 0
 * with the payloads in order (traffic.read_bytes, a segment split across two
 * reads), a UDP recv() puts each datagram at offset 0. */
static void user_copy_price(struct nk_kernel *k, const struct sk_buff *skb) {
  const u32 hdr = k->tcp ? NF_TCP_OVERHEAD - NF_FCS_LEN : NK_UDP_HDRS;
  if (skb->len <= hdr) return;
  u64 src = nk__pa(k, skb->data) + hdr;
  u64 n = skb->len - hdr;
  const double stream = k->plat.ops->stream_read_cycles ? k->plat.ops->stream_read_cycles(k->plat.ctx, src, n) : 0;
  double routine = 0;
  const u64 buf = (u64)k->cfg->traffic.read_bytes;
  while (n > 0) {
    const u64 off = k->tcp ? k->user_copy_payload % buf : 0;
    const u64 part = off + n > buf ? buf - off : n;
    routine += k->plat.ops->user_copy_cycles(k->plat.ctx, NK_USER_BUF_BASE + off, src, part);
    k->user_copy_payload += part;
    src += part;
    n -= part;
  }
  k->user_copy_cycles += routine > stream ? routine : stream;
}

/* Hands one frame to the host sink. A data frame joins the reader's queue:
 * its copy to user space and its free are the reader's, charged when it
 * reads (nk_kernel_user_copy); any other frame (a TCP ACK to the host's
 * sender) is consumed and freed by the stack here. */
static void deliver_one(struct nk_kernel *k, struct sk_buff *skb, bool data) {
  struct net_device *dev = skb->dev;
  const u32 len = skb->len;
  if (data) {
    k->user_copy_bytes += len;
    k->user_payload += skb_payload(k, len);
    k->user_frees++;
    if (k->cfg->cpu.user_copy == NC_USER_COPY_MEMCPY && k->plat.ops->user_copy_cycles) user_copy_price(k, skb);
  }
  k->plat.ops->host_rx(k->plat.ctx, nk__pa(k, skb->data), len);
  dev->stats.rx_packets++;
  dev->stats.rx_bytes += len;
  k->stats.rx_delivered++;
  k->stats.rx_bytes += len;
  if (data)
    nk__skb_release(k, skb);
  else
    dev_kfree_skb_any(skb);
}

/* The sequence number of a held skb (a nicsim TCP segment). */
static u64 skb_seq(const struct sk_buff *skb) {
  struct nf_header h;
  skb_frame_header(skb, &h);
  return h.seq;
}

/* Fills sack with flow's held blocks above the cumulative ACK seq: the one
 * holding the latest arrival first (RFC 2018), then the others from the
 * lowest, NF_SACK_BLOCKS at most, offsets clipped to 16 bits. */
static void build_sack(const struct nk_kernel *k, u32 flow, u64 seq, struct nf_sack *sack) {
  memset(sack, 0, sizeof *sack);
  u64 starts[NF_SACK_BLOCKS + 1], ends[NF_SACK_BLOCKS + 1];
  int nb = 0, first = -1;
  const u64 last = k->ooo_last_seq[flow];
  for (const struct sk_buff *s = k->ooo_head[flow]; s;) {
    const u64 b = skb_seq(s);
    u64 e = b + 1;
    s = s->next;
    while (s && skb_seq(s) == e) {
      e++;
      s = s->next;
    }
    const bool has_last = last >= b && last < e;
    if (has_last || nb < NF_SACK_BLOCKS - (first < 0 ? 1 : 0)) {
      starts[nb] = b;
      ends[nb] = e;
      if (has_last) first = nb;
      nb++;
    }
    if (first >= 0 && nb >= NF_SACK_BLOCKS) break;
  }
  int out = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < nb && out < NF_SACK_BLOCKS; i++) {
      if ((pass == 0) != (i == first)) continue;
      if (starts[i] < seq || starts[i] - seq > 0xFFFFu) continue;
      const u64 e = ends[i] - seq > 0xFFFFu ? 0xFFFFu : ends[i] - seq;
      sack->blk[out][0] = (uint16_t)(starts[i] - seq);
      sack->blk[out][1] = (uint16_t)e;
      out++;
    }
  sack->n = (uint16_t)out;
}

/* Queues an ACK of flow up to seq (with its SACK blocks) for the CPU to
 * transmit; a full queue drops it, as a full qdisc would. */
static void queue_ack(struct nk_kernel *k, u32 flow, u64 seq) {
  k->tcp_unacked[flow] = 0;
  if (k->ack_count == NK_ACK_QUEUE) {
    k->stats.tcp_acks_dropped++;
    return;
  }
  struct nk_ack *a = &k->acks[(k->ack_head + k->ack_count++) % NK_ACK_QUEUE];
  a->flow = flow;
  a->seq = seq;
  build_sack(k, flow, seq, &a->sack);
  k->stats.tcp_acks_queued++;
}

/* Holds out-of-order segment skb (seq) of flow in its sorted queue; false
 * if it is held already (a duplicate). */
static bool ooo_insert(struct nk_kernel *k, u32 flow, struct sk_buff *skb, u64 seq) {
  skb->next = NULL;
  struct sk_buff *tail = k->ooo_tail[flow];
  if (!tail || skb_seq(tail) < seq) { /* the common case: after the latest */
    if (tail)
      tail->next = skb;
    else
      k->ooo_head[flow] = skb;
    k->ooo_tail[flow] = skb;
    return true;
  }
  struct sk_buff **link = &k->ooo_head[flow];
  while (*link && skb_seq(*link) < seq) link = &(*link)->next;
  if (skb_seq(*link) == seq) return false;
  skb->next = *link;
  *link = skb;
  return true;
}

/* A TCP data segment of flow in the stack: in order (delivered, then the
 * held segments it makes contiguous), ahead of rcv_nxt within the window
 * (held, Linux's out-of-order queue) or else discarded. Returns true if the
 * receiver ACKs at once (RFC 5681 4.2: an out-of-order segment, one that
 * fills a hole, a duplicate). */
static bool tcp_receive(struct nk_kernel *k, u32 flow, u64 seq, struct sk_buff *skb) {
  const u64 nxt = k->tcp_rcv_nxt[flow];
  k->tcp_cpu[flow] = (u8)nk__cpu;
  if (seq == nxt) {
    const bool filling = k->ooo_head[flow] != NULL;
    k->tcp_rcv_nxt[flow] = seq + 1;
    k->tcp_unacked[flow]++;
    deliver_one(k, skb, true);
    struct sk_buff *h;
    while ((h = k->ooo_head[flow]) && skb_seq(h) == k->tcp_rcv_nxt[flow]) {
      k->ooo_head[flow] = h->next;
      if (!h->next) k->ooo_tail[flow] = NULL;
      h->next = NULL;
      k->stats.tcp_ooo_held--;
      k->tcp_rcv_nxt[flow]++;
      k->tcp_unacked[flow]++;
      k->user_skbs++; /* each held segment was its own entry of the out-of-order queue */
      deliver_one(k, h, true);
    }
    return filling;
  }
  if (seq > nxt && seq - nxt < k->tcp_win_segs && k->stats.tcp_ooo_held < k->ooo_cap &&
      ooo_insert(k, flow, skb, seq)) {
    k->stats.tcp_ooo_queued++;
    k->stats.tcp_ooo_held++;
    k->ooo_last_seq[flow] = seq;
    return true;
  }
  /* A duplicate, beyond the window, or no room to hold it. */
  k->stats.tcp_discards++;
  dev_kfree_skb_any(skb);
  return true;
}

void nk__tcp_ooo_purge(struct nk_kernel *k) {
  for (u32 f = 0; f < NK_TCP_FLOWS; f++) {
    while (k->ooo_head[f]) {
      struct sk_buff *s = k->ooo_head[f];
      k->ooo_head[f] = s->next;
      s->next = NULL;
      k->stats.tcp_ooo_held--;
      k->stats.tcp_ooo_purged++;
      dev_kfree_skb_any(s);
    }
    k->ooo_tail[f] = NULL;
  }
}

/* The stack's receive of one packet (a GRO chain of segments of one flow, or
 * a single frame): the receive parts once (nk__stack_rx_enter), then each
 * segment to the host sink; with tcp, through the receiver (tcp_receive),
 * which ACKs at once after an out-of-order segment, a hole filled or a
 * duplicate, and else once tcp_ack_every segments are unacknowledged (Linux
 * sends one ACK per GRO packet of two or more segments: a stretch ACK). Data
 * for the reader wakes it (sock_def_readable) if it sleeps. */
static void stack_receive(struct nk_kernel *k, struct sk_buff *first) {
  if (k->forward) {
    /* traffic.mode forward (udp: GRO merges nothing, one packet per skb). */
    for (struct sk_buff *skb = first, *next; skb; skb = next) {
      next = skb->next;
      skb->next = NULL;
      nk__stack_forward(k, skb);
    }
    return;
  }
  struct nf_header h0;
  const bool ack = k->tcp && skb_frame_header(first, &h0) && nf_is_ack(&h0);
  const int prev = nk__stack_rx_enter(k, first, ack);
  bool tcp_data = false, quick = false, delivered = false;
  u32 flow = 0;
  for (struct sk_buff *skb = first, *next; skb; skb = next) {
    next = skb->next;
    skb->next = NULL;
    struct nf_header h;
    const bool nicsim = skb_frame_header(skb, &h);
    if (k->tcp && nicsim && !nf_is_ack(&h) && h.flow < NK_TCP_FLOWS) {
      tcp_data = true;
      flow = h.flow;
      const u64 before = k->stats.rx_delivered;
      if (tcp_receive(k, flow, h.seq, skb)) quick = true;
      if (k->stats.rx_delivered != before) delivered = true;
      continue;
    }
    const bool data = !(k->tcp && nicsim && nf_is_ack(&h));
    deliver_one(k, skb, data);
    if (data) delivered = true;
  }
  if (delivered) {
    k->user_skbs++; /* one entry of the socket queue (a GRO packet is one skb) */
    nk__stack_wakeup(k);
  }
  if (tcp_data && (quick || k->tcp_unacked[flow] >= (u32)k->cfg->traffic.tcp_ack_every))
    queue_ack(k, flow, k->tcp_rcv_nxt[flow]);
  nk__stack_rx_leave(prev);
}

void netif_receive_skb(struct sk_buff *skb) {
  if (!skb) {
    nk__fault(nk__cur("netif_receive_skb"), "netif_receive_skb(NULL)");
    return;
  }
  struct nk_kernel *k = nk__dev_kernel(skb->dev, "netif_receive_skb");
  if (!skb->in_use) {
    nk__fault(k, "netif_receive_skb: skb %td is not allocated", skb - k->skbs);
    return;
  }
  skb->next = NULL;
  stack_receive(k, skb);
}

/* Hands held packet e up and frees its slot. */
static void gro_flush_entry(struct nk_kernel *k, struct nk_gro_entry *e) {
  struct sk_buff *first = e->first;
  e->live = false;
  e->first = e->last = NULL;
  k->stats.gro_flushes++;
  stack_receive(k, first);
}

void nk__gro_flush(struct nk_kernel *k, bool end_of_poll) {
  struct nk_gro_entry *gro = nk__sd(k)->gro; /* this CPU's poll's table */
  for (;;) {
    struct nk_gro_entry *old = NULL;
    for (int i = 0; i < NK_GRO_MAX; i++)
      if (gro[i].live && (!old || gro[i].age < old->age)) old = &gro[i];
    if (!old) break;
    gro_flush_entry(k, old);
  }
  if (!end_of_poll || !k->tcp) return;
  /* The end of the poll: ACK what is left unacknowledged (instead of
   * Linux's delayed-ACK timer, which would fire later); the flows this CPU
   * received last (RSS keeps a flow on one queue, hence one CPU; another
   * CPU's poll of its own flows may be under way). */
  u32 flows = (u32)k->cfg->traffic.flows < NK_TCP_FLOWS ? (u32)k->cfg->traffic.flows : NK_TCP_FLOWS;
  for (u32 f = 0; f < flows; f++)
    if (k->tcp_unacked[f] && k->tcp_cpu[f] == (u8)nk__cpu) queue_ack(k, f, k->tcp_rcv_nxt[f]);
}

/* Linux's GRO (net/core/gro.c) in small. Every frame costs GRO's part
 * (napi_gro_receive: the attempt, its header loads and the first read of the
 * frame, nk__stack_gro). With traffic.protocol tcp, a data segment that
 * continues a held packet of its flow (next seq, under 64 KiB) is appended,
 * else the held one is flushed and the segment starts a new one; a ninth
 * flow flushes the oldest. ACK frames and non-nicsim frames go up at once.
 * Held packets go up at napi_complete_done and at the end of every poll.
 * udp: nothing merges (no UDP GRO socket), every frame goes up on its own. */
void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb) {
  if (!skb) {
    nk__fault(nk__cur("napi_gro_receive"), "napi_gro_receive(NULL)");
    return;
  }
  struct nk_kernel *k = nk__dev_kernel(skb->dev, "napi_gro_receive");
  if (!skb->in_use) {
    nk__fault(k, "napi_gro_receive: skb %td is not allocated", skb - k->skbs);
    return;
  }
  nk__napi_rx(k, napi, skb); /* multi-queue: per-queue count and RSS check (napi.c) */
  struct nk_softnet *sd = nk__sd(k);
  const int prev = nk_prof_enter(k->prof.gro);
  struct nf_header h;
  const bool mergeable = k->tcp && sd->polling && skb_frame_header(skb, &h) && !nf_is_ack(&h) &&
                         h.flow < NK_TCP_FLOWS && skb->len + NF_FCS_LEN > NF_TCP_OVERHEAD;
  struct nk_gro_entry *e = NULL, *free_slot = NULL, *oldest = NULL;
  if (mergeable)
    for (int i = 0; i < NK_GRO_MAX; i++) {
      struct nk_gro_entry *g = &sd->gro[i];
      if (!g->live) {
        if (!free_slot) free_slot = g;
        continue;
      }
      if (g->flow == h.flow) e = g;
      if (!oldest || g->age < oldest->age) oldest = g;
    }
  nk__stack_gro(k, skb, e != NULL);
  if (!mergeable) {
    netif_receive_skb(skb); /* not mergeable: up at once */
    nk_prof_leave(prev);
    return;
  }
  skb->next = NULL;
  const u32 ip_len = skb->len - NF_ETH_HLEN;
  const u32 payload = skb->len + NF_FCS_LEN - NF_TCP_OVERHEAD;
  if (e) {
    if (h.seq == e->next_seq && e->ip_bytes + payload < NK_GRO_MAX_SIZE) {
      e->last->next = skb;
      e->last = skb;
      e->segs++;
      e->ip_bytes += payload;
      e->next_seq = h.seq + 1;
      k->stats.gro_merged++;
      nk_prof_leave(prev);
      return;
    }
    gro_flush_entry(k, e); /* not the next segment, or 64 KiB reached */
    free_slot = e;
  } else if (!free_slot) {
    gro_flush_entry(k, oldest); /* MAX_GRO_SKBS held: the oldest goes up */
    free_slot = oldest;
  }
  *free_slot = (struct nk_gro_entry){.live = true, .flow = h.flow, .next_seq = h.seq + 1, .segs = 1,
                                     .ip_bytes = ip_len, .age = ++sd->gro_age, .first = skb, .last = skb};
  nk_prof_leave(prev);
}

bool nk_kernel_ack_peek(const struct nk_kernel *k, uint32_t *flow, uint64_t *seq) {
  if (k->ack_count == 0) return false;
  const struct nk_ack *a = &k->acks[k->ack_head];
  if (flow) *flow = a->flow;
  if (seq) *seq = a->seq;
  return true;
}

void nk_kernel_ack_sack(const struct nk_kernel *k, struct nf_sack *sack) {
  if (k->ack_count == 0) {
    memset(sack, 0, sizeof *sack);
    return;
  }
  *sack = k->acks[k->ack_head].sack;
}

void nk_kernel_ack_pop(struct nk_kernel *k) {
  if (k->ack_count == 0) return;
  k->ack_head = (k->ack_head + 1) % NK_ACK_QUEUE;
  k->ack_count--;
}

unsigned int nk_kernel_skbs_in_use(const struct nk_kernel *k) { return k->skbs_in_use; }
