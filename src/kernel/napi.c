/* napi.c: NAPI contexts with Linux's state rules (SCHED, MISSED, disable),
 * the per-CPU NET_RX softirq that polls them (observed by the NAPI hook), and the
 * multi-queue bookkeeping: which RX queue a NAPI polls, its counts. */
#include <string.h>

#include "kernel/kernel_priv.h"
#include "net/rss.h"

#define NAPI_POLL_WEIGHT 64

static bool on_poll_list(const struct nk_softnet *sd, const struct napi_struct *n) {
  for (int i = 0; i < sd->npoll; i++)
    if (sd->poll_list[i] == n) return true;
  return false;
}

/* Puts n on the poll list of the CPU whose state sd is (the current one). */
static void poll_list_add(struct nk_kernel *k, struct nk_softnet *sd, struct napi_struct *n) {
  if (on_poll_list(sd, n)) return;
  if (sd->npoll == NK_NAPI_MAX) {
    nk__fault(k, "NAPI poll list full (%d contexts)", NK_NAPI_MAX);
    return;
  }
  const int cpu = (int)(sd - k->softnet);
  if (cpu >= k->nsoftnet) k->nsoftnet = cpu + 1;
  sd->poll_list[sd->npoll++] = n;
}

/* Takes n off the poll list of every CPU that has one. */
static void poll_list_del(struct nk_kernel *k, struct napi_struct *n) {
  for (int c = 0; c < k->nsoftnet; c++) {
    struct nk_softnet *sd = &k->softnet[c];
    for (int i = 0; i < sd->npoll; i++)
      if (sd->poll_list[i] == n) {
        memmove(&sd->poll_list[i], &sd->poll_list[i + 1], (size_t)(sd->npoll - i - 1) * sizeof sd->poll_list[0]);
        sd->npoll--;
        break;
      }
  }
}

/* True if some CPU's softirq is polling n now. */
static bool polled(const struct nk_kernel *k, const struct napi_struct *n) {
  for (int c = 0; c < k->nsoftnet; c++)
    if (k->softnet[c].polling == n) return true;
  return false;
}

/* The kernel of a NAPI context, faulting (on the current kernel) if it has none. */
static struct nk_kernel *napi_kernel(struct napi_struct *n, const char *what) {
  if (!n || !n->dev) {
    nk__fault(nk__cur(what), "%s: NAPI context %p was never added (netif_napi_add)", what, (void *)n);
    return NULL;
  }
  return nk__dev_kernel(n->dev, what);
}

void netif_napi_add(struct net_device *dev, struct napi_struct *napi, int (*poll)(struct napi_struct *, int),
                    int weight) {
  struct nk_kernel *k = nk__dev_kernel(dev, "netif_napi_add");
  if (!napi || !poll) {
    nk__fault(k, "netif_napi_add: NULL napi or poll function");
    return;
  }
  int slot = -1;
  for (int i = 0; i < NK_NAPI_MAX; i++) {
    if (k->napis[i] == napi) {
      nk__fault(k, "netif_napi_add: NAPI context added twice");
      return;
    }
    if (!k->napis[i] && slot < 0) slot = i;
  }
  if (slot < 0) {
    nk__fault(k, "netif_napi_add: more than %d NAPI contexts", NK_NAPI_MAX);
    return;
  }
  k->napis[slot] = napi;
  *napi = (struct napi_struct){.poll = poll, .dev = dev, .weight = weight > 0 ? weight : NAPI_POLL_WEIGHT,
                               .registered = true, .index = k->napi_next_index++, .rx_queue = -1};
}

void netif_napi_del(struct napi_struct *napi) {
  struct nk_kernel *k = napi_kernel(napi, "netif_napi_del");
  if (!k) return;
  if (napi->enabled) nk__fault(k, "netif_napi_del: NAPI context still enabled (napi_disable first)");
  poll_list_del(k, napi);
  for (int i = 0; i < NK_NAPI_MAX; i++)
    if (k->napis[i] == napi) k->napis[i] = NULL;
  napi->registered = false;
  napi->scheduled = false;
}

void napi_enable(struct napi_struct *napi) {
  struct nk_kernel *k = napi_kernel(napi, "napi_enable");
  if (!k) return;
  if (!napi->registered) {
    nk__fault(k, "napi_enable: NAPI context not added");
    return;
  }
  napi->enabled = true;
  napi->scheduled = false;
  napi->missed = false;
}

void napi_disable(struct napi_struct *napi) {
  struct nk_kernel *k = napi_kernel(napi, "napi_disable");
  if (!k) return;
  if (nk__sd(k)->polling == napi) {
    nk__fault(k, "napi_disable called from its own poll (deadlocks in Linux)");
    return;
  }
  napi->enabled = false;
  napi->scheduled = false;
  napi->missed = false;
  poll_list_del(k, napi);
}

bool napi_schedule_prep(struct napi_struct *napi) {
  struct nk_kernel *k = napi_kernel(napi, "napi_schedule_prep");
  if (!k || !napi->enabled) return false;
  if (napi->scheduled) {
    napi->missed = true; /* the running/pending poll must run once more */
    return false;
  }
  napi->scheduled = true;
  return true;
}

void __napi_schedule(struct napi_struct *napi) {
  struct nk_kernel *k = napi_kernel(napi, "__napi_schedule");
  if (!k) return;
  if (!napi->enabled) {
    nk__fault(k, "__napi_schedule on a disabled NAPI context");
    return;
  }
  napi->scheduled = true;
  /* On the poll list of the CPU that runs this (the one that took the IRQ). */
  if (!polled(k, napi)) poll_list_add(k, nk__sd(k), napi);
}

void napi_schedule(struct napi_struct *napi) {
  if (napi_schedule_prep(napi)) __napi_schedule(napi);
}

bool napi_complete_done(struct napi_struct *napi, int work_done) {
  struct nk_kernel *k = napi_kernel(napi, "napi_complete_done");
  if (!k) return false;
  struct nk_softnet *sd = nk__sd(k);
  if (sd->polling == napi && work_done >= sd->polling_budget) return false; /* it used its budget: keep polling */
  if (!napi->scheduled) {
    nk__fault(k, "napi_complete_done on a NAPI context that is not scheduled");
    return false;
  }
  if (napi->missed) {
    /* Scheduled again while it ran: stay scheduled and poll once more. */
    napi->missed = false;
    poll_list_add(k, sd, napi);
    return false;
  }
  napi->scheduled = false;
  poll_list_del(k, napi);
  /* napi_complete_done hands GRO's held packets up (napi_gro_flush). */
  if (sd->polling == napi) nk__gro_flush(k, false);
  return true;
}

NK_NOCOUNT bool nk_kernel_napi_pending(const struct nk_kernel *k) {
  return k->softnet[nk__cpu].npoll > 0 && !k->fault[0]; /* after a fault nothing runs: nothing is pending */
}

NK_NOCOUNT struct nk_cpu_stats nk_kernel_cpu_stats(const struct nk_kernel *k, int cpu) {
  if (!k || cpu < 0 || cpu >= NK_CPU_MAX) return (struct nk_cpu_stats){0};
  return k->softnet[cpu].stats;
}

bool nk_kernel_softirq(struct nk_kernel *k) {
  nk_kernel_set_current(k);
  /* This CPU's net_rx_action: its own poll list (per-CPU softnet_data). */
  struct nk_softnet *sd = nk__sd(k);
  if (k->fault[0] || sd->npoll == 0) return false;
  k->stats.softirqs++;
  sd->stats.softirqs++;
  int prev = nk_prof_enter(k->prof_softirq);
  k->plat.ops->charge(k->plat.ctx, k->cfg->cpu.softirq_cycles);
  nk_prof_leave(prev);

  /* net_rx_action polls the list as it stood once, each context once,
   * until netdev_budget packets or 2 jiffies (netdev_budget_usecs' default,
   * 2 * USEC_PER_SEC / HZ) are spent; those left and those that used their
   * whole weight stay scheduled, and NET_RX is raised again. */
  struct napi_struct *list[NK_NAPI_MAX];
  int n = sd->npoll;
  memcpy(list, sd->poll_list, (size_t)n * sizeof list[0]);
  sd->npoll = 0; /* contexts scheduled from here on run in the next softirq */
  long budget_left = (long)k->cfg->cpu.netdev_budget;
  const uint64_t jiffy_ns = 1000000000ull / (uint64_t)(k->cfg->cpu.hz > 0 ? k->cfg->cpu.hz : 250);
  const bool timed = k->plat.ops->now_ns != NULL;
  const uint64_t time_limit = timed ? k->plat.ops->now_ns(k->plat.ctx) / jiffy_ns + 2 : 0;
  int i = 0;
  for (; i < n && !k->fault[0]; i++) {
    struct napi_struct *napi = list[i];
    if (!napi->scheduled || !napi->enabled) continue;
    int budget = napi->weight < k->cfg->driver.napi_budget ? napi->weight : (int)k->cfg->driver.napi_budget;
    sd->polling = napi;
    sd->polling_budget = budget;
    if (k->napi_hook) k->napi_hook(k->napi_hook_ctx, napi->index, napi->rx_queue, false, 0, budget);
    int work = napi->poll(napi, budget);
    if (k->napi_hook) k->napi_hook(k->napi_hook_ctx, napi->index, napi->rx_queue, true, work, budget);
    /* The end of the poll: whatever GRO still holds goes up (Linux keeps
     * packets of the current jiffy across full-budget polls; here a poll
     * always ends with an empty GRO table), and the TCP receiver ACKs the
     * rest. */
    if (!k->fault[0]) nk__gro_flush(k, true);
    sd->polling = NULL;
    k->stats.napi_polls++;
    k->stats.napi_work += work > 0 ? (u64)work : 0;
    sd->stats.napi_polls++;
    sd->stats.napi_work += work > 0 ? (u64)work : 0;
    if (work < 0 || work > budget) {
      nk__fault(k, "NAPI poll returned %d, outside its budget [0, %d]", work, budget);
    } else if (work == budget) {
      k->stats.napi_full++;
      if (napi->scheduled) poll_list_add(k, sd, napi); /* stays scheduled: poll again */
    } else if (napi->scheduled && !on_poll_list(sd, napi)) {
      nk__fault(k, "NAPI poll returned %d < budget %d without napi_complete_done: the context would never run again",
                work, budget);
    }
    budget_left -= work > 0 ? work : 0;
    if (budget_left <= 0 || (timed && k->plat.ops->now_ns(k->plat.ctx) / jiffy_ns >= time_limit)) {
      /* time_squeeze: the contexts not polled go first at the next run */
      k->stats.time_squeeze++;
      sd->stats.time_squeeze++;
      int rest = 0;
      for (int j = i + 1; j < n; j++)
        if (list[j]->scheduled && list[j]->enabled && !on_poll_list(sd, list[j])) list[rest++] = list[j];
      if (rest > 0 && sd->npoll + rest <= NK_NAPI_MAX) {
        memmove(&sd->poll_list[rest], &sd->poll_list[0], (size_t)sd->npoll * sizeof sd->poll_list[0]);
        memcpy(&sd->poll_list[0], list, (size_t)rest * sizeof list[0]);
        sd->npoll += rest;
      }
      break;
    }
  }
  nk__flush_user_copy(k);
  return sd->npoll > 0;
}

/* ---- multi-queue --------------------------------------------------------- */

void netif_queue_set_napi(struct net_device *dev, unsigned int q, enum netdev_queue_type type,
                          struct napi_struct *napi) {
  struct nk_kernel *k = nk__dev_kernel(dev, "netif_queue_set_napi");
  if (!napi || !napi->registered) {
    nk__fault(k, "netif_queue_set_napi: NAPI context not added");
    return;
  }
  if (q >= NK_NAPI_MAX) {
    nk__fault(k, "netif_queue_set_napi: queue %u beyond the %d modelled", q, NK_NAPI_MAX);
    return;
  }
  if (type == NETDEV_QUEUE_TYPE_RX) napi->rx_queue = (int)q;
}

void nk_napi_rx_dropped(struct napi_struct *napi) {
  if (napi && napi->rx_queue >= 0 && napi->dev && napi->dev->k) napi->dev->k->rxq_dropped[napi->rx_queue]++;
}

NK_NOCOUNT uint64_t nk_kernel_rxq_packets(const struct nk_kernel *k, uint32_t q) {
  return q < NK_NAPI_MAX ? k->rxq_packets[q] : 0;
}

NK_NOCOUNT uint64_t nk_kernel_rxq_dropped(const struct nk_kernel *k, uint32_t q) {
  return q < NK_NAPI_MAX ? k->rxq_dropped[q] : 0;
}

NK_NOCOUNT void nk_kernel_set_napi_hook(struct nk_kernel *k, nk_napi_hook_fn hook, void *ctx) {
  k->napi_hook = hook;
  k->napi_hook_ctx = ctx;
}

void nk__napi_rx(struct nk_kernel *k, const struct napi_struct *napi, const struct sk_buff *skb) {
  if (!napi || napi->rx_queue < 0 || !skb->in_use) return;
  const u32 q = (u32)napi->rx_queue;
  k->rxq_packets[q]++;
  nk__sd(k)->stats.rxq_mask |= 1ull << q;
  const struct net_device *dev = napi->dev;
  if (!dev || !dev->rss_key || !dev->rss_lut || dev->rss_lut_size == 0) return;
  const u32 hash = nf_rss_frame_hash(dev->rss_key, skb->data, skb->len);
  const u32 entry = hash & (dev->rss_lut_size - 1);
  if (dev->rss_lut[entry] != q) {
    struct nf_header h;
    memcpy(&h, skb->data + NF_HDR_OFF, sizeof h);
    nk__fault(k,
              "frame of flow %u (RSS hash %#x, table entry %u -> RX queue %u) reached the stack from RX queue %u",
              h.flow, hash, entry, dev->rss_lut[entry], q);
  }
}

void nk_netdev_set_rss(struct net_device *dev, const u8 *key, const u8 *lut, u32 size) {
  struct nk_kernel *k = nk__dev_kernel(dev, "nk_netdev_set_rss");
  if (size && (size & (size - 1))) {
    nk__fault(k, "nk_netdev_set_rss: table size %u is not a power of two", size);
    return;
  }
  dev->rss_key = key;
  dev->rss_lut = lut;
  dev->rss_lut_size = key && lut ? size : 0;
}
