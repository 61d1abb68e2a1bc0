/* core.c: the kernel layer's entry points (create, probe, irq, softirq, xmit,
 * remove, check), the current kernel, faults, IRQs and TX queue control. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/icount.h"
#include "kernel/kernel_priv.h"
#include "net/frame.h"

struct nk_kernel *nk__current = NULL;

NK_NOCOUNT void nk__no_current(const char *what) {
  fprintf(stderr,
          "nicsim: %s called with no current kernel: driver code must run inside an nk_kernel_* entry "
          "point (or after nk_kernel_set_current)\n",
          what);
  abort();
}

NK_NOCOUNT void nk__fault(struct nk_kernel *k, const char *fmt, ...) {
  k->nfaults++;
  if (k->fault[0]) return;
  char msg[384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *fn = nk_prof_name(nk_prof_current());
  snprintf(k->fault, sizeof k->fault, "%s (in %s)", msg, fn ? fn : "?");
}

NK_NOCOUNT void nk__error(struct nk_kernel *k, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(k->last_error, sizeof k->last_error, fmt, ap);
  va_end(ap);
}

struct nk_kernel *nk__dev_kernel(const struct net_device *dev, const char *what) {
  if (dev && dev->k) return dev->k;
  struct nk_kernel *k = nk__cur(what);
  nk__fault(k, "%s: net_device %p has no kernel", what, (const void *)dev);
  return k;
}

NK_NOCOUNT void nk_kernel_set_current(struct nk_kernel *k) { nk__current = k; }
NK_NOCOUNT struct nk_kernel *nk_kernel_get_current(void) { return nk__current; }

int nk__cpu = 0;

NK_NOCOUNT void nk_kernel_set_cpu(int cpu) { nk__cpu = cpu >= 0 && cpu < NK_CPU_MAX ? cpu : 0; }
NK_NOCOUNT int nk_kernel_get_cpu(void) { return nk__cpu; }

/* ---- create / destroy --------------------------------------------------------- */

NK_NOCOUNT struct nk_kernel *nk_kernel_create(const struct nk_platform *p, const struct nicsim_config *cfg,
                                   const struct nk_driver *drv, char *err, size_t errlen) {
  const struct nk_platform_ops *o = p ? p->ops : NULL;
  if (!p || !cfg || !o || !p->mem || !o->load || !o->store || !o->copy || !o->cache_maint || !o->mmio_read32 ||
      !o->mmio_write32 || !o->barrier || !o->charge || !o->exec || !o->set_attr || !o->host_rx) {
    snprintf(err, errlen, "nk_kernel_create: platform, config, memory and every platform op are required");
    return NULL;
  }
  int64_t line = cfg->cpu.cache_line_bytes;
  if (line < 8 || (line & (line - 1)) || (uint64_t)line > NK_PAGE_SIZE) {
    snprintf(err, errlen, "cpu.cache_line_bytes = %" PRId64 ": the kernel layer needs a power of two in [8, %u]",
             line, NK_PAGE_SIZE);
    return NULL;
  }
  struct nk_kernel *k = calloc(1, sizeof *k);
  if (!k) {
    snprintf(err, errlen, "nk_kernel_create: out of host memory");
    return NULL;
  }
  k->plat = *p;
  k->cfg = cfg;
  k->rx_slot_skbs = drv && nk_driver_rx_slot_skbs(drv, cfg) ? (u64)cfg->nic.rx_ring_size : 0;
  k->line = (u64)line;
  for (u64 l = k->line; l > 1; l >>= 1) k->line_shift++; /* k is zeroed */
  snprintf(k->dev.name, sizeof k->dev.name, "eth0");
  k->dev.k = k;
  k->dev.cfg = cfg;
  k->prof_irq_entry = nk_prof_id(NK_PROF_IRQ_ENTRY, NK_CLASS_IRQ);
  k->prof_softirq = nk_prof_id(NK_PROF_NET_RX_ACTION, NK_CLASS_IRQ);
  k->prof_hrtimer = nk_prof_id(NK_PROF_HRTIMER, NK_CLASS_IRQ);
  k->prof_copy_to_user = nk_prof_id(NK_PROF_COPY_TO_USER, NK_CLASS_RX);
  nk__stack_init(k);
  nk__fwd_init(k);
  /* The TX queues' xmit locks take the first spinlock ids. */
  k->dev.num_tx_queues = cfg->nic.tx_queues < 1 ? 1 : cfg->nic.tx_queues > NK_TXQ_MAX ? NK_TXQ_MAX
                                                                                    : (u32)cfg->nic.tx_queues;
  for (u32 q = 0; q < k->dev.num_tx_queues; q++) {
    struct netdev_queue *nq = &k->dev._tx[q];
    nq->_xmit_lock.id = ++k->nspin;
    nq->dev = &k->dev;
    nk_dql_init(&nq->dql, (uint32_t)cfg->driver.bql_limit_min, (uint32_t)cfg->driver.bql_limit_max,
                (uint64_t)cfg->driver.bql_hold_time_ms * 1000000u, 0);
  }
  /* Streaming mapping records: one per TX descriptor of every TX queue the
   * device has (XDP rings too: i40e's XDP_TX maps each frame), the RX slot
   * skbs, a NAPI budget per polling CPU and slack. */
  u32 cap = (u32)cfg->nic.tx_ring_size * nk_driver_device_tx_queues(drv, cfg) + (u32)k->rx_slot_skbs +
            (1 + (u32)nk__polling_cpus(cfg)) * (u32)cfg->driver.napi_budget +
            NK_SKB_SLACK + 64;
  if (nk__mem_init(k, err, errlen) != 0 || nk__dma_init(k, cap, err, errlen) != 0 ||
      nk__skb_init(k, err, errlen) != 0) {
    nk__skb_fini(k);
    nk__dma_fini(k);
    free(k);
    return NULL;
  }
  return k;
}

NK_NOCOUNT void nk_kernel_destroy(struct nk_kernel *k) {
  if (!k) return;
  nk_kernel_remove(k);
  nk_kernel_set_current(k);
  /* Pools a faulty driver never destroyed: release their host arrays (the
   * simulated memory goes with the kernel). */
  for (int i = 0; i < NK_POOL_MAX; i++)
    if (k->pools[i].live) {
      free(k->pools[i].pages);
      k->pools[i].live = false;
    }
  nk__skb_fini(k);
  nk__dma_fini(k);
  nk__mem_fini(k);
  if (nk__current == k) nk__current = NULL;
  free(k);
}

/* ---- probe / remove / check ------------------------------------------------------- */

NK_NOCOUNT int nk_kernel_probe_driver(struct nk_kernel *k, const struct nk_driver *drv, char *err, size_t errlen) {
  nk_kernel_set_current(k);
  if (k->probed || k->removed) {
    snprintf(err, errlen, "nk_kernel_probe_driver: the driver was already probed");
    return -EBUSY;
  }
  if (!drv || !drv->probe || !drv->remove || !drv->ndo_start_xmit) {
    snprintf(err, errlen, "nk_kernel_probe_driver: driver table without probe, remove or ndo_start_xmit");
    return -EINVAL;
  }
  k->drv = drv;
  err[0] = '\0';
  /* A driver binds long before traffic on a real host: its probe's code is not counted. */
  nk_icount_hold(true);
  int rc = drv->probe(&k->dev, err, errlen);
  nk_icount_hold(false);
  if (rc == 0 && k->fault[0]) {
    snprintf(err, errlen, "%s probe: driver bug: %s", drv->name, k->fault);
    rc = -EFAULT;
  }
  if (rc != 0) {
    if (!err[0]) snprintf(err, errlen, "%s probe failed (%d)", drv->name, rc);
    return rc < 0 ? rc : -EIO;
  }
  k->probed = true;
  return 0;
}

NK_NOCOUNT void nk_kernel_remove(struct nk_kernel *k) {
  if (!k->probed) return;
  nk_kernel_set_current(k);
  k->remove_check_rc = 0;
  k->remove_check_err[0] = '\0';
  /* The socket closes first: segments still held out of order are freed. */
  nk__tcp_ooo_purge(k);
  nk__pktgen_stop(k);
  if (k->drv->check) k->remove_check_rc = k->drv->check(&k->dev, k->remove_check_err, sizeof k->remove_check_err);
  nk_icount_hold(true); /* after the traffic: not counted either */
  k->drv->remove(&k->dev);
  nk_icount_hold(false);
  nk__iommu_fq_release(k);
  nk__timers_release(k);
  k->probed = false;
  k->removed = true;
}

/* The leaks left once no driver is bound: 0, or -1 with err. */
NK_NOCOUNT static int check_leaks(struct nk_kernel *k, char *err, size_t errlen) {
  if (k->skbs_in_use) {
    snprintf(err, errlen, "%u of %u skbs were never freed", k->skbs_in_use, k->nskbs);
    return -1;
  }
  if (k->sk_wmem_alloc) {
    snprintf(err, errlen, "the sending socket still holds %" PRIu64 " bytes of skb memory with every skb freed",
             k->sk_wmem_alloc);
    return -1;
  }
  for (int i = 0; i < NK_POOL_MAX; i++)
    if (k->pools[i].live) {
      snprintf(err, errlen, "a page pool of %u x %u-byte buffers was never destroyed (%u buffers in use)",
               k->pools[i].n, k->pools[i].size, k->pools[i].in_use);
      return -1;
    }
  if (k->maps_live) {
    for (u32 i = 0; i < k->nmaps_cap; i++)
      if (k->maps[i].live) {
        const struct nk_dma_map *m = &k->maps[i];
        snprintf(err, errlen, "%u DMA mapping(s) still live, e.g. %s pa %#" PRIx64 " + %" PRIu64 " bytes",
                 k->maps_live, m->coherent ? "coherent allocation" : "streaming mapping", m->pa, m->len);
        return -1;
      }
  }
  for (int i = 0; i < NK_IRQ_MAX; i++)
    if (k->irqs[i].handler) {
      snprintf(err, errlen, "IRQ vector %d still has a handler (free_irq missing)", i);
      return -1;
    }
  if (k->timer_leak) {
    snprintf(err, errlen, "an hrtimer was still queued after remove (hrtimer_cancel missing)");
    return -1;
  }
  for (int i = 0; i < NK_NAPI_MAX; i++)
    if (k->napis[i]) {
      snprintf(err, errlen, "a NAPI context is still registered (netif_napi_del missing)");
      return -1;
    }
  return 0;
}

NK_NOCOUNT int nk_kernel_check(struct nk_kernel *k, char *err, size_t errlen) {
  nk_kernel_set_current(k);
  if (k->fault[0]) {
    if (k->nfaults > 1)
      snprintf(err, errlen, "driver bug: %s (and %" PRIu64 " more)", k->fault, k->nfaults - 1);
    else
      snprintf(err, errlen, "driver bug: %s", k->fault);
    return -1;
  }
  if (k->probed) return k->drv->check ? k->drv->check(&k->dev, err, errlen) : 0;
  if (k->removed && k->remove_check_rc != 0) {
    snprintf(err, errlen, "%s (at remove)", k->remove_check_err);
    return -1;
  }
  char leak[448];
  if (check_leaks(k, leak, sizeof leak) != 0) {
    snprintf(err, errlen, "leak after remove: %s", leak);
    return -1;
  }
  return 0;
}

/* ---- interrupts --------------------------------------------------------------------- */

int request_irq(struct net_device *dev, int vec, irq_handler_t handler, void *dev_id) {
  struct nk_kernel *k = nk__dev_kernel(dev, "request_irq");
  if (vec < 0 || vec >= NK_IRQ_MAX || !handler) return -EINVAL;
  if (k->irqs[vec].handler) return -EBUSY;
  k->irqs[vec] = (struct nk_irq){handler, dev_id};
  return 0;
}

void free_irq(struct net_device *dev, int vec) {
  struct nk_kernel *k = nk__dev_kernel(dev, "free_irq");
  if (vec < 0 || vec >= NK_IRQ_MAX || !k->irqs[vec].handler) {
    nk__fault(k, "free_irq(%d): vector was not requested", vec);
    return;
  }
  k->irqs[vec] = (struct nk_irq){NULL, NULL};
}

u64 nk_msi_addr(struct net_device *dev) { return nk__dev_kernel(dev, "nk_msi_addr")->plat.msi_addr; }

u32 nk_msi_data(struct net_device *dev, int vec) {
  (void)dev;
  return (u32)vec;
}

void nk_kernel_irq(struct nk_kernel *k, int vec) {
  nk_kernel_set_current(k);
  if (k->fault[0]) return;
  int prev = nk_prof_enter(k->prof_irq_entry);
  k->plat.ops->charge(k->plat.ctx, k->cfg->cpu.irq_entry_cycles);
  nk_prof_leave(prev);
  if (vec < 0 || vec >= NK_IRQ_MAX || !k->irqs[vec].handler) {
    k->stats.irqs_spurious++;
    nk__flush_user_copy(k);
    return;
  }
  k->stats.irqs++;
  if (k->irqs[vec].handler(vec, k->irqs[vec].dev_id) == IRQ_NONE) k->stats.irqs_none++;
  nk__flush_user_copy(k);
}

/* ---- spinlocks ------------------------------------------------------------------------ */

void spin_lock_init(spinlock_t *lock) {
  struct nk_kernel *k = nk__cur("spin_lock_init");
  if (k->nspin >= NK_SPIN_MAX) {
    nk__fault(k, "spin_lock_init: more than %d spinlocks", NK_SPIN_MAX);
    lock->id = 0;
    return;
  }
  lock->id = ++k->nspin;
}

/* Hands an acquire or release of lock to the platform (what names the call). */
static void spin_op(spinlock_t *lock, bool acquire, const char *what) {
  struct nk_kernel *k = nk__cur(what);
  if (!lock || lock->id == 0 || lock->id > k->nspin) {
    nk__fault(k, "%s(%p): spinlock not initialised (spin_lock_init missing)", what, (void *)lock);
    return;
  }
  if (k->plat.ops->spin) k->plat.ops->spin(k->plat.ctx, lock->id, acquire);
}

void spin_lock(spinlock_t *lock) { spin_op(lock, true, "spin_lock"); }
void spin_unlock(spinlock_t *lock) { spin_op(lock, false, "spin_unlock"); }

struct netdev_queue *netdev_get_tx_queue(struct net_device *dev, unsigned int q) {
  struct nk_kernel *k = nk__dev_kernel(dev, "netdev_get_tx_queue");
  if (q >= dev->num_tx_queues) {
    nk__fault(k, "netdev_get_tx_queue(%u): the device has %u TX queues", q, dev->num_tx_queues);
    return &dev->_tx[0];
  }
  return &dev->_tx[q];
}

void __netif_tx_lock(struct netdev_queue *txq) { spin_op(&txq->_xmit_lock, true, "__netif_tx_lock"); }
void __netif_tx_unlock(struct netdev_queue *txq) { spin_op(&txq->_xmit_lock, false, "__netif_tx_unlock"); }

/* ---- TX ------------------------------------------------------------------------------ */

void netif_stop_queue(struct net_device *dev) { dev->tx_stopped = true; }
void netif_wake_queue(struct net_device *dev) { dev->tx_stopped = false; }
bool netif_queue_stopped(const struct net_device *dev) { return dev->tx_stopped; }
NK_NOCOUNT bool nk_kernel_tx_stopped(const struct nk_kernel *k) { return netif_xmit_stopped(&k->dev, (u16)k->busy_txq); }

void netif_stop_subqueue(struct net_device *dev, u16 q) {
  if (q == 0)
    dev->tx_stopped = true;
  else if (q < 32)
    dev->txq_stopped |= 1u << q;
}

void netif_wake_subqueue(struct net_device *dev, u16 q) {
  if (q == 0)
    dev->tx_stopped = false;
  else if (q < 32)
    dev->txq_stopped &= ~(1u << q);
}

bool __netif_subqueue_stopped(const struct net_device *dev, u16 q) {
  return q == 0 ? dev->tx_stopped : q < 32 && (dev->txq_stopped & (1u << q)) != 0;
}

/* ---- byte queue limits ------------------------------------------------------------ */

static uint64_t kernel_now_ns(const struct nk_kernel *k) {
  return k->plat.ops->now_ns ? k->plat.ops->now_ns(k->plat.ctx) : 0;
}

ktime_t nk_ktime_get(struct net_device *dev) { return (ktime_t)kernel_now_ns(nk__dev_kernel(dev, "ktime_get")); }

void netdev_tx_sent_queue(struct netdev_queue *txq, unsigned int bytes) {
  struct nk_kernel *k = txq->dev->k;
  if (!k->cfg->driver.bql) return;
  if (!nk_dql_queued(&txq->dql, bytes)) {
    nk__fault(k, "netdev_tx_sent_queue(%u): more than one frame can be (DQL_MAX_OBJECT)", bytes);
    return;
  }
  if (nk_dql_avail(&txq->dql) >= 0) return;
  txq->stack_xoff = true;
  k->stats.bql_stops++;
}

void netdev_tx_completed_queue(struct netdev_queue *txq, unsigned int pkts, unsigned int bytes) {
  struct nk_kernel *k = txq->dev->k;
  (void)pkts;
  if (!k->cfg->driver.bql || bytes == 0) return;
  if (!nk_dql_completed(&txq->dql, bytes, kernel_now_ns(k))) {
    nk__fault(k, "netdev_tx_completed_queue(%u B): only %u B are in flight on the queue", bytes,
              nk_dql_inflight(&txq->dql));
    return;
  }
  if (txq->dql.limit > k->stats.bql_limit_peak) k->stats.bql_limit_peak = txq->dql.limit;
  if (nk_dql_avail(&txq->dql) < 0) return;
  txq->stack_xoff = false; /* Linux then schedules the qdisc; here the sender retries */
}

void netdev_tx_reset_queue(struct netdev_queue *txq) {
  struct nk_kernel *k = txq->dev->k;
  if (!k->cfg->driver.bql) return;
  txq->stack_xoff = false;
  nk_dql_reset(&txq->dql, kernel_now_ns(k));
}

void netdev_sent_queue(struct net_device *dev, unsigned int bytes) {
  netdev_tx_sent_queue(netdev_get_tx_queue(dev, 0), bytes);
}
void netdev_completed_queue(struct net_device *dev, unsigned int pkts, unsigned int bytes) {
  netdev_tx_completed_queue(netdev_get_tx_queue(dev, 0), pkts, bytes);
}
void netdev_reset_queue(struct net_device *dev) { netdev_tx_reset_queue(netdev_get_tx_queue(dev, 0)); }

NK_NOCOUNT u32 nk_netdev_bql_inflight(const struct net_device *dev, unsigned int q) {
  return dev->cfg->driver.bql && q < dev->num_tx_queues ? nk_dql_inflight(&dev->_tx[q].dql) : 0;
}

NK_NOCOUNT int nk_netdev_bql_check(const struct net_device *dev, unsigned int q, u32 ring_bytes, const char *who, char *err,
                        size_t errlen) {
  const u32 bql_bytes = nk_netdev_bql_inflight(dev, q);
  if (!dev->cfg->driver.bql || bql_bytes == ring_bytes) return 0;
  snprintf(err, errlen, "%s: TX queue %u: BQL counts %u B in flight but the ring holds %u B (a frame sent or "
           "completed without netdev_tx_sent_queue / netdev_tx_completed_queue)", who, q, bql_bytes, ring_bytes);
  return -1;
}

bool netif_xmit_stopped(const struct net_device *dev, u16 q) {
  return __netif_subqueue_stopped(dev, q) || (q < dev->num_tx_queues && dev->_tx[q].stack_xoff);
}

int netif_set_real_num_tx_queues(struct net_device *dev, unsigned int n) {
  if (n < 1 || n > NK_NAPI_MAX) return -EINVAL;
  dev->real_num_tx_queues = n;
  return 0;
}

int netif_set_real_num_rx_queues(struct net_device *dev, unsigned int n) {
  if (n < 1 || n > NK_NAPI_MAX) return -EINVAL;
  dev->real_num_rx_queues = n;
  return 0;
}

NK_NOCOUNT uint64_t nk_kernel_txq_packets(const struct nk_kernel *k, uint32_t q) {
  return q < NK_NAPI_MAX ? k->txq_packets[q] : 0;
}

uint32_t nk_kernel_tx_queue_of_flow(const struct nk_kernel *k, uint32_t flow) {
  const u32 n = k->dev.real_num_tx_queues;
  return n > 1 ? (flow & ~NF_FLOW_ACK) % n : 0;
}

/* nk_kernel_xmit of a data frame, or (sack non-NULL) of an ACK frame. */
static int xmit_frame(struct nk_kernel *k, uint32_t frame_bytes, uint32_t flow, uint64_t seq,
                      const struct nf_sack *sack, bool charge_stack) {
  nk_kernel_set_current(k);
  if (!k->probed) return -ENODEV;
  if (k->fault[0]) return -EFAULT;
  if (frame_bytes < NF_MIN_FRAME) return -EINVAL;
  struct net_device *dev = &k->dev;
  /* netdev_pick_tx: the flow's queue (one hash per flow, skb_tx_hash). */
  const u32 txq = nk_kernel_tx_queue_of_flow(k, flow);
  if (netif_xmit_stopped(dev, (u16)txq)) {
    k->busy_txq = txq;
    k->stats.xmit_busy++;
    return NETDEV_TX_BUSY;
  }
  uint32_t len = nf_dma_len(frame_bytes);
  struct sk_buff *skb = netdev_alloc_skb(dev, len);
  if (!skb) {
    if (k->fault[0]) return -EFAULT;
    k->stats.xmit_nomem++;
    return NETDEV_TX_BUSY;
  }
  if (charge_stack) {
    if (sack)
      nk__stack_tx_ack(k);
    else
      nk_kernel_stack_tx(k, frame_bytes);
  }
  /* The application's bytes land in the skb directly: their copy is priced above. */
  if (sack)
    nf_fill_ack(skb_put(skb, len), len, (uint64_t)k->cfg->run.seed, flow, seq, 0, sack);
  else
    nf_fill(skb_put(skb, len), len, (uint64_t)k->cfg->run.seed, flow, seq);
  skb->queue_mapping = (u16)txq;
  if (!sack) { /* the sending socket's memory (skb_set_owner_w); ACKs are the kernel's own */
    skb->wmem = nk_skb_truesize(frame_bytes);
    k->sk_wmem_alloc += skb->wmem;
    if (k->sk_wmem_alloc > k->stats.sk_wmem_max) k->stats.sk_wmem_max = k->sk_wmem_alloc;
  }
  /* HARD_TX_LOCK: the queue's xmit lock around the driver, and the stopped
   * check again under it (another CPU's TX clean may have run meanwhile; as
   * Linux's netif_xmit_frozen_or_stopped after taking the lock). */
  struct netdev_queue *nq = netdev_get_tx_queue(dev, txq);
  __netif_tx_lock(nq);
  if (k->fault[0] || netif_xmit_stopped(dev, (u16)txq)) {
    __netif_tx_unlock(nq);
    dev_kfree_skb_any(skb);
    if (k->fault[0]) return -EFAULT;
    k->busy_txq = txq;
    k->stats.xmit_busy++;
    return NETDEV_TX_BUSY;
  }
  netdev_tx_t rc = k->drv->ndo_start_xmit(skb, dev);
  __netif_tx_unlock(nq);
  if (rc == NETDEV_TX_BUSY) {
    k->busy_txq = txq;
    k->stats.xmit_busy_driver++;
    dev_kfree_skb_any(skb); /* the frame was not consumed: the caller retries it */
    return NETDEV_TX_BUSY;
  }
  k->stats.xmit_ok++;
  if (txq < NK_NAPI_MAX) k->txq_packets[txq]++;
  return NETDEV_TX_OK;
}

int nk_kernel_xmit(struct nk_kernel *k, uint32_t frame_bytes, uint32_t flow, uint64_t seq) {
  return xmit_frame(k, frame_bytes, flow, seq, NULL, true);
}

int nk_kernel_xmit_prepared(struct nk_kernel *k, uint32_t frame_bytes, uint32_t flow, uint64_t seq) {
  return xmit_frame(k, frame_bytes, flow, seq, NULL, false);
}

int nk_kernel_xmit_ack(struct nk_kernel *k) {
  uint32_t flow;
  uint64_t seq;
  if (!nk_kernel_ack_peek(k, &flow, &seq)) return 1;
  struct nf_sack sack;
  nk_kernel_ack_sack(k, &sack);
  const int rc = xmit_frame(k, NF_ACK_FRAME, flow, seq, &sack, true);
  if (rc == NETDEV_TX_OK) nk_kernel_ack_pop(k);
  return rc;
}

/* ---- queries --------------------------------------------------------------------------- */

NK_NOCOUNT uint64_t nk_kernel_sk_wmem(const struct nk_kernel *k) { return k->sk_wmem_alloc; }

/* ip_append_data allocates hh_len (LL_RESERVED_SPACE: 16) + 15 + the IP and
 * UDP headers and payload, i.e. the frame less its Ethernet header and FCS
 * (18 B) plus 31; __alloc_skb aligns that to SMP_CACHE_BYTES (64), adds
 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) (320 B on x86-64, 17
 * frags) and takes kmalloc's size class (powers of two from 256 B; the page
 * allocator's above 8 KiB, powers of two too); truesize is that plus
 * SKB_DATA_ALIGN(sizeof(struct sk_buff)) (232 B: 256). A 1446-byte frame
 * (1400 B of UDP payload) gives 2304. */
uint32_t nk_skb_truesize(uint32_t frame_bytes) {
  const uint32_t head = ((frame_bytes + 13u + 63u) & ~63u) + 320u;
  uint32_t size = 256;
  while (size < head) size <<= 1;
  return size + 256u;
}

NK_NOCOUNT const struct nk_kernel_stats *nk_kernel_get_stats(const struct nk_kernel *k) { return &k->stats; }
NK_NOCOUNT const char *nk_kernel_fault(const struct nk_kernel *k) { return k->fault[0] ? k->fault : NULL; }
NK_NOCOUNT const char *nk_kernel_last_error(const struct nk_kernel *k) { return k->last_error; }
NK_NOCOUNT struct net_device *nk_kernel_netdev(struct nk_kernel *k) { return &k->dev; }
