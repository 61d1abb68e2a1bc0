/* generic.c: the driver for nicsim's generic NIC (src/hw/generic_nic_regs.h), a small
 * e1000/stmmac hybrid; docs/drivers.md walks its hot path and costs. */

/* Coherent descriptor rings, a page pool of RX buffers recycled in place,
 * copy-break RX into napi_alloc_skb (as stmmac does), one MSI vector per
 * queue pair masked in its IRQ handler and unmasked when its NAPI completes,
 * a TX doorbell per frame. With nic.rx_queues / tx_queues > 1: one ring per
 * queue, RSS programmed with the default indirection table, queue pair q on
 * vector q and NAPI q, TX queue chosen by the stack (skb queue_mapping). */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/generic.h"
#include "drivers/gn_coal.h"
#include "drivers/gn_rss.h"
#include "drivers/ring.h"
#include "net/frame.h"

#define GENERIC_ETH_HLEN 14 /* shortest frame the RX path accepts */

/* ---- TX completion --------------------------------------------------------- */

/* Reclaims the TX descriptors the device has handed back (OWN clear), in
 * ring order, and wakes the ring's queue once enough are free. Not budgeted:
 * TX cleaning is cheap and must not hold the queue stopped. */
static void generic_tx_clean(struct generic_tx_ring *tx, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct generic_priv *priv = tx->priv;
  struct net_device *dev = priv->dev;
  u32 cleaned = 0;
  /* Head write-back: one load of the head word says how far the device got;
   * otherwise each descriptor's OWN bit says it. */
  /* Against generic_xmit on another CPU: the queue's xmit lock (as
   * __netif_tx_lock in Linux drivers' TX clean). */
  struct netdev_queue *nq = netdev_get_tx_queue(dev, tx->index);
  __netif_tx_lock(nq);
  const u32 head = tx->head_wb ? nk_ld32(tx->head_wb) % tx->size : 0;
  while (tx->dirty != tx->cur) {
    u32 entry = tx->dirty;
    u16 flags = 0;
    if (tx->head_wb) {
      if (entry == head) break;
    } else {
      flags = nk_ld16(&generic_tx_desc(tx, entry)->flags);
      if (flags & GN_DESC_OWN) break;
    }
    /* Only OWN is read from the descriptor: the rest comes from the shadow,
     * so no dma_rmb() is needed. */
    struct generic_tx_buf *tb = &tx->buf[entry];
    dma_unmap_single(dev, tb->dma, tb->len, DMA_TO_DEVICE);
    if (flags & GN_DESC_ERR) {
      dev->stats.tx_errors++;
    } else {
      dev->stats.tx_packets++;
      dev->stats.tx_bytes += tb->len;
    }
    napi_consume_skb(tb->skb, budget);
    *tb = (struct generic_tx_buf){NULL, 0, 0};
    tx->dirty = nk_ring_next(entry, tx->size);
    cleaned++;
  }
  if (cleaned && __netif_subqueue_stopped(dev, (u16)tx->index) &&
      nk_ring_space(tx->cur, tx->dirty, tx->size) >= priv->tx_wake_thresh) {
    netif_wake_subqueue(dev, (u16)tx->index);
    priv->tx_wakes++;
  }
  __netif_tx_unlock(nq);
}

/* ---- RX ------------------------------------------------------------------------ */

/* Gives `page` back to the device in the empty slot dirty: address and
 * length first, dma_wmb(), then OWN, so the device never sees OWN with a
 * stale address. The tail register moves once per poll, in generic_rx. */
static void generic_rx_refill(struct generic_rx_ring *rx, struct nk_page *page) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  u32 entry = rx->dirty;
  struct gn_rx_desc *desc = generic_rx_desc(rx, entry);
  rx->buf[entry] = page;
  nk_st64(&desc->buf_addr, page->dma);
  nk_st16(&desc->buf_len, (u16)rx->priv->rx_buf_len);
  dma_wmb();
  nk_st16(&desc->flags, GN_DESC_OWN);
  rx->dirty = nk_ring_next(entry, rx->size);
}

/* Receives up to budget frames from one RX queue: for each completed
 * descriptor, copy the frame into a fresh skb (copy-break), recycle the
 * buffer into the ring and pass the skb up. Returns the number of
 * descriptors consumed. */
static int generic_rx(struct generic_rx_ring *rx, struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct generic_priv *priv = rx->priv;
  struct net_device *dev = priv->dev;
  int work = 0;
  while (work < budget) {
    u32 entry = rx->cur;
    struct gn_rx_desc *desc = generic_rx_desc(rx, entry);
    u16 flags = nk_ld16(&desc->flags);
    if (flags & GN_DESC_OWN) break;
    dma_rmb(); /* pkt_len is read only after OWN was seen clear */
    u16 len = nk_ld16(&desc->pkt_len);
    struct nk_page *page = rx->buf[entry];
    rx->buf[entry] = NULL;
    rx->cur = nk_ring_next(entry, rx->size);
    work++;

    struct sk_buff *skb = NULL;
    if (!(flags & GN_DESC_EOP) || (flags & GN_DESC_ERR) || len < GENERIC_ETH_HLEN || len > priv->rx_buf_len) {
      dev->stats.rx_errors++;
      rx->dropped++;
      nk_napi_rx_dropped(napi);
    } else {
      dma_sync_single_for_cpu(dev, page->dma, len, DMA_FROM_DEVICE);
      skb = napi_alloc_skb(napi, len);
      if (skb) {
        nk_memcpy(skb_put(skb, len), page->addr, len);
        priv->qv[rx->index].dim_packets++;
        priv->qv[rx->index].dim_bytes += len;
      } else {
        dev->stats.rx_dropped++;
        rx->dropped++;
        nk_napi_rx_dropped(napi);
      }
    }
    /* The frame is in the skb (or dropped): the buffer goes straight back. */
    generic_rx_refill(rx, page);
    if (skb) napi_gro_receive(napi, skb);
  }
  if (work) writel(rx->dirty, priv->ioaddr + gn_qreg(rx->index, GN_Q_RX_TAIL)); /* one doorbell per poll */
  return work;
}

/* ---- NAPI and IRQ ------------------------------------------------------------------ */

/* driver.rx_coal_adaptive dim, at the end of each poll (as bcmgenet_rx_poll):
 * the vector's sample into net_dim; a new profile is written to the
 * vector's RX coalescing registers at once (Linux defers it to a work item,
 * bcmgenet_dim_work, which then restarts the measurement). */
static void generic_dim_sample(struct generic_priv *priv, struct generic_q_vector *qv) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct nk_dim_sample s;
  nk_dim_update_sample((u64)nk_ktime_get(priv->dev), qv->dim_events, qv->dim_packets, qv->dim_bytes, &s);
  if (!nk_net_dim(&qv->dim, s)) return;
  const struct nk_dim_moder m = nk_net_dim_get_rx_moderation(qv->dim.profile_ix);
  gn_coal_dir_write(priv->ioaddr, qv->index, false, m.pkts, m.usec);
  qv->dim_changes++;
  qv->dim.state = NK_DIM_START_MEASURE;
}

/* NAPI poll of one vector: its TX queue's completions, then up to budget RX
 * frames of its RX queue; re-enables the vector when it finishes under budget. */
static int generic_poll(struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct generic_priv *priv = netdev_priv(napi->dev);
  const struct generic_q_vector *qv =
      (const struct generic_q_vector *)((const char *)napi - offsetof(struct generic_q_vector, napi)); /* container_of */
  const u32 v = qv->index;
  if (v < priv->num_tx) generic_tx_clean(&priv->tx[v], budget);
  int work = v < priv->num_rx ? generic_rx(&priv->rx[v], napi, budget) : 0;
  if (work < budget && napi_complete_done(napi, work)) writel(0, priv->ioaddr + gn_qreg(v, GN_Q_INT_MASK));
  if (priv->use_dim) generic_dim_sample(priv, &priv->qv[v]);
  return work;
}

/* Hard IRQ of one vector: masks its causes and defers to its NAPI. It does
 * not read INT_STATUS (a PCIe round trip): the poll finds the work in the rings. */
static irqreturn_t generic_intr(int irq, void *dev_id) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  struct generic_q_vector *qv = dev_id;
  (void)irq;
  qv->dim_events++; /* dim's event counter: one per interrupt */
  writel(GN_INT_ALL, qv->priv->ioaddr + gn_qreg(qv->index, GN_Q_INT_MASK));
  napi_schedule(&qv->napi);
  return IRQ_HANDLED;
}

/* ---- TX ---------------------------------------------------------------------------- */

/* ndo_start_xmit: on the TX queue the stack picked, maps the frame, fills
 * the next descriptor (address and length, dma_wmb(), then OWN|EOP) and
 * rings the queue's TX tail doorbell. Stops the queue when its ring becomes
 * full. */
static netdev_tx_t generic_xmit(struct sk_buff *skb, struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct generic_priv *priv = netdev_priv(dev);
  const u16 q = skb_get_queue_mapping(skb);
  if (q >= priv->num_tx) {
    /* The stack never picks a queue beyond real_num_tx_queues. */
    dev->stats.tx_errors++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  struct generic_tx_ring *tx = &priv->tx[q];
  if (nk_ring_space(tx->cur, tx->dirty, tx->size) == 0) {
    /* The queue should have been stopped when the ring filled (as Linux
     * drivers say: "BUG! Tx ring full when queue awake"). */
    netif_stop_subqueue(dev, q);
    priv->tx_stops++;
    return NETDEV_TX_BUSY;
  }
  u32 len = skb->len;
  if (len > 0xffff) {
    dev->stats.tx_errors++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  dma_addr_t dma = dma_map_single(dev, skb->data, len, DMA_TO_DEVICE);
  if (dma_mapping_error(dev, dma)) {
    dev->stats.tx_dropped++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  u32 entry = tx->cur;
  struct gn_tx_desc *desc = generic_tx_desc(tx, entry);
  tx->buf[entry] = (struct generic_tx_buf){skb, dma, len};
  nk_st64(&desc->buf_addr, dma);
  nk_st16(&desc->len, (u16)len);
  dma_wmb();
  nk_st16(&desc->flags, GN_DESC_OWN | GN_DESC_EOP);
  tx->cur = nk_ring_next(entry, tx->size);
  writel(tx->cur, priv->ioaddr + gn_qreg(q, GN_Q_TX_TAIL)); /* writel orders the stores above before it */
  if (nk_ring_space(tx->cur, tx->dirty, tx->size) == 0) {
    netif_stop_subqueue(dev, q);
    priv->tx_stops++;
  }
  return NETDEV_TX_OK;
}

/* ---- probe / remove -------------------------------------------------------------------- */

/* Frees whatever of the rings, buffers and shadows exists (remove and the
 * probe error path). Frames still on a TX ring count as tx_dropped. */
static void generic_free_rings(struct generic_priv *priv) {
  struct net_device *dev = priv->dev;
  for (u32 q = 0; q < priv->num_tx; q++) {
    struct generic_tx_ring *tx = &priv->tx[q];
    if (!tx->buf) continue;
    for (u32 i = 0; i < tx->size; i++) {
      struct generic_tx_buf *tb = &tx->buf[i];
      if (!tb->skb) continue;
      dma_unmap_single(dev, tb->dma, tb->len, DMA_TO_DEVICE);
      dev_kfree_skb_any(tb->skb);
      dev->stats.tx_dropped++;
      *tb = (struct generic_tx_buf){NULL, 0, 0};
    }
    free(tx->buf);
    tx->buf = NULL;
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct generic_rx_ring *rx = &priv->rx[q];
    if (rx->buf) {
      for (u32 i = 0; i < rx->size; i++)
        if (rx->buf[i]) page_pool_recycle_direct(rx->pool, rx->buf[i]);
      free(rx->buf);
      rx->buf = NULL;
    }
    if (rx->pool) page_pool_destroy(rx->pool);
    rx->pool = NULL;
  }
  for (u32 q = 0; q < priv->num_tx; q++) {
    struct generic_tx_ring *tx = &priv->tx[q];
    if (tx->head_wb) dma_free_coherent(dev, sizeof(u32), tx->head_wb, tx->head_wb_dma);
    tx->head_wb = NULL;
    if (tx->ring) dma_free_coherent(dev, tx->ring_bytes, tx->ring, tx->ring_dma);
    tx->ring = NULL;
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct generic_rx_ring *rx = &priv->rx[q];
    if (rx->ring) dma_free_coherent(dev, rx->ring_bytes, rx->ring, rx->ring_dma);
    rx->ring = NULL;
  }
}

/* Checks the config against what the generic NIC's descriptors can express. */
static int generic_check_config(const struct nicsim_config *cfg, struct nk_config_error *e) {
  char hint[256];
  if (nk_config_spacing8(cfg, GN_DESC_SIZE, "the generic NIC", e) || nk_config_ring_min(cfg, 2, 2, "generic", e))
    return -1;
  if (cfg->driver.rx_buf_bytes > 0xffff)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_buf_bytes), "use at most 65535",
                          "driver.rx_buf_bytes = %" PRId64
                          ": the generic RX descriptor's buf_len is 16 bits (max 65535)",
                          cfg->driver.rx_buf_bytes);
  const uint32_t need = nf_dma_len((uint32_t)cfg->traffic.frame_bytes);
  if (cfg->traffic.mode != NC_MODE_TX && need > cfg->driver.rx_buf_bytes) {
    snprintf(hint, sizeof hint,
             "set driver.rx_buf_bytes to at least %u, or traffic.frame_bytes to at most %" PRId64
             ", or traffic.mode: tx",
             need, cfg->driver.rx_buf_bytes + NF_FCS_LEN);
    return nk_config_fail(e, NK_KEYS(NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes), hint,
                          "traffic.frame_bytes = %" PRId64 " needs %u-byte RX buffers but driver.rx_buf_bytes = "
                          "%" PRId64 ": the generic NIC does not chain buffers",
                          cfg->traffic.frame_bytes, need, cfg->driver.rx_buf_bytes);
  }
  return 0;
}

/* Allocates rings, buffers and shadows of every queue and fills each RX ring
 * (size - 1 buffers). Order: RX rings, TX rings, head words, RX pools. */
static int generic_alloc_rings(struct generic_priv *priv, char *err, size_t errlen) {
  struct net_device *dev = priv->dev;
  const struct nicsim_config *cfg = dev->cfg;
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct generic_rx_ring *rx = &priv->rx[q];
    rx->ring_bytes = (size_t)rx->size * priv->spacing;
    rx->ring = dma_alloc_coherent(dev, rx->ring_bytes, &rx->ring_dma);
    if (!rx->ring) goto fail;
  }
  for (u32 q = 0; q < priv->num_tx; q++) {
    struct generic_tx_ring *tx = &priv->tx[q];
    tx->ring_bytes = (size_t)tx->size * priv->spacing;
    tx->ring = dma_alloc_coherent(dev, tx->ring_bytes, &tx->ring_dma);
    if (!tx->ring) goto fail;
  }
  if (cfg->nic.wb_mode == NC_WB_HEAD) {
    for (u32 q = 0; q < priv->num_tx; q++) {
      struct generic_tx_ring *tx = &priv->tx[q];
      tx->head_wb = dma_alloc_coherent(dev, sizeof(u32), &tx->head_wb_dma);
      if (!tx->head_wb) goto fail;
    }
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct generic_rx_ring *rx = &priv->rx[q];
    rx->pool = page_pool_create(dev, rx->size - 1, priv->rx_buf_len, DMA_FROM_DEVICE);
    if (!rx->pool) goto fail;
    rx->buf = calloc(rx->size, sizeof *rx->buf);
  }
  for (u32 q = 0; q < priv->num_tx; q++) priv->tx[q].buf = calloc(priv->tx[q].size, sizeof *priv->tx[q].buf);
  for (u32 q = 0; q < priv->num_rx; q++)
    if (!priv->rx[q].buf) goto oom;
  for (u32 q = 0; q < priv->num_tx; q++)
    if (!priv->tx[q].buf) goto oom;
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct generic_rx_ring *rx = &priv->rx[q];
    for (u32 i = 0; i + 1 < rx->size; i++) {
      struct nk_page *page = page_pool_dev_alloc_pages(rx->pool);
      struct gn_rx_desc *desc = generic_rx_desc(rx, i);
      rx->buf[i] = page;
      nk_st64(&desc->buf_addr, page->dma);
      nk_st16(&desc->buf_len, (u16)priv->rx_buf_len);
      nk_st16(&desc->flags, GN_DESC_OWN);
    }
    rx->cur = 0;
    rx->dirty = rx->size - 1;
  }
  for (u32 q = 0; q < priv->num_tx; q++) priv->tx[q].cur = priv->tx[q].dirty = 0;
  dma_wmb(); /* descriptors are in memory before the device is told where they are */
  return 0;
oom:
  snprintf(err, errlen, "generic: out of host memory for ring shadows");
  return -1;
fail:
  snprintf(err, errlen, "generic: %s", nk_kernel_last_error(dev->k));
  return -1;
}

/* RSS (several RX queues): the key (nic.rss_key, or the Microsoft key), the
 * indirection table filled as ethtool_rxfh_indir_default (entry i: queue i
 * mod num_rx), then its size, which turns RSS on. The kernel gets the same
 * table to check every frame's queue. */
static void generic_program_rss(struct generic_priv *priv) {
  gn_program_rss(priv->dev, priv->ioaddr, priv->num_rx, priv->rss_key, priv->rss_lut, &priv->rss_size);
}

/* Programs rings, coalescing and MSI(-X) of every queue and vector, RSS,
 * then enables RX and TX (interrupts masked). */
static void generic_program(struct generic_priv *priv) {
  const struct nicsim_config *cfg = priv->dev->cfg;
  void __iomem *io = priv->ioaddr;
  u64 msi = nk_msi_addr(priv->dev);
  writel(priv->spacing, io + GN_REG_DESC_SPACING);
  for (u32 q = 0; q < priv->num_rx; q++) {
    const struct generic_rx_ring *rx = &priv->rx[q];
    writel((u32)rx->ring_dma, io + gn_qreg(q, GN_Q_RX_RING_LO));
    writel((u32)(rx->ring_dma >> 32), io + gn_qreg(q, GN_Q_RX_RING_HI));
    writel(rx->size, io + gn_qreg(q, GN_Q_RX_RING_SIZE));
  }
  writel(priv->rx_buf_len, io + GN_REG_RX_BUF_SIZE);
  for (u32 q = 0; q < priv->num_tx; q++) {
    const struct generic_tx_ring *tx = &priv->tx[q];
    writel((u32)tx->ring_dma, io + gn_qreg(q, GN_Q_TX_RING_LO));
    writel((u32)(tx->ring_dma >> 32), io + gn_qreg(q, GN_Q_TX_RING_HI));
    writel(tx->size, io + gn_qreg(q, GN_Q_TX_RING_SIZE));
    if (tx->head_wb) {
      writel((u32)tx->head_wb_dma, io + (q ? GN_REG_TXQ_HEAD_WB_LO(q) : GN_REG_TX_HEAD_WB_LO));
      writel((u32)(tx->head_wb_dma >> 32), io + (q ? GN_REG_TXQ_HEAD_WB_HI(q) : GN_REG_TX_HEAD_WB_HI));
    }
  }
  for (u32 v = 0; v < priv->num_vec; v++) {
    writel((u32)cfg->nic.irq_coal_frames, io + gn_qreg(v, GN_Q_COAL_FRAMES));
    writel((u32)(cfg->nic.irq_coal_usecs + 0.5), io + gn_qreg(v, GN_Q_COAL_USECS)); /* whole microseconds */
    gn_coal_dir_program(io, v, cfg);
    if (priv->use_dim) {
      /* the default profile on RX (net_dim_get_def_rx_moderation), TX as configured */
      const struct nk_dim_moder m = nk_net_dim_get_rx_moderation(NK_DIM_DEF_PROFILE);
      gn_coal_dir_write(io, v, false, m.pkts, m.usec);
    }
    writel((u32)msi, io + gn_qreg(v, GN_Q_MSI_ADDR_LO));
    writel((u32)(msi >> 32), io + gn_qreg(v, GN_Q_MSI_ADDR_HI));
    writel(nk_msi_data(priv->dev, (int)v), io + (v ? GN_REG_MSIX_DATA(v) : GN_REG_MSI_DATA));
  }
  if (priv->num_rx > 1) generic_program_rss(priv);
  for (u32 q = 0; q < priv->num_rx; q++) writel(priv->rx[q].dirty, io + gn_qreg(q, GN_Q_RX_TAIL));
  for (u32 q = 0; q < priv->num_tx; q++) writel(priv->tx[q].cur, io + gn_qreg(q, GN_Q_TX_TAIL));
  writel(GN_CTRL_RX_EN | GN_CTRL_TX_EN, io + GN_REG_CTRL);
}

/* probe: rings and buffers, registers, one IRQ and NAPI per vector, then
 * unmask interrupts. */
static int generic_probe(struct net_device *dev, char *err, size_t errlen) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  const struct nicsim_config *cfg = dev->cfg;
  if (nk_driver_probe_check(&nk_driver_generic, cfg, err, errlen) != 0) return -EINVAL;
  struct generic_priv *priv = calloc(1, sizeof *priv);
  if (!priv) {
    snprintf(err, errlen, "generic: out of host memory");
    return -ENOMEM;
  }
  dev->priv = priv;
  priv->dev = dev;
  priv->ioaddr = nk_ioremap(dev);
  priv->spacing = (u32)cfg->nic.desc_spacing;
  priv->rx_buf_len = (u32)cfg->driver.rx_buf_bytes;
  priv->num_rx = (u32)cfg->nic.rx_queues;
  priv->num_tx = (u32)cfg->nic.tx_queues;
  priv->num_vec = priv->num_rx > priv->num_tx ? priv->num_rx : priv->num_tx;
  priv->use_dim = cfg->driver.rx_coal_adaptive == NC_ADAPTIVE_DIM;
  const u32 tx_size = (u32)cfg->nic.tx_ring_size;
  priv->tx_wake_thresh = tx_size / 4 > 0 ? tx_size / 4 : 1;
  for (u32 q = 0; q < priv->num_rx; q++)
    priv->rx[q] = (struct generic_rx_ring){.priv = priv, .index = q, .size = (u32)cfg->nic.rx_ring_size};
  for (u32 q = 0; q < priv->num_tx; q++) priv->tx[q] = (struct generic_tx_ring){.priv = priv, .index = q, .size = tx_size};
  for (u32 v = 0; v < priv->num_vec; v++) {
    priv->qv[v] = (struct generic_q_vector){.priv = priv, .index = v};
    priv->qv[v].dim.profile_ix = NK_DIM_DEF_PROFILE; /* net_dim's default; applied at programming */
  }
  netif_set_real_num_tx_queues(dev, priv->num_tx);
  netif_set_real_num_rx_queues(dev, priv->num_rx);

  for (u32 v = 0; v < priv->num_vec; v++)
    writel(GN_INT_ALL, priv->ioaddr + gn_qreg(v, GN_Q_INT_MASK)); /* quiet until NAPI is ready */
  int rc = -ENOMEM;
  if (generic_alloc_rings(priv, err, errlen) != 0) goto err_free;
  generic_program(priv);
  for (u32 v = 0; v < priv->num_vec; v++) {
    struct generic_q_vector *qv = &priv->qv[v];
    rc = request_irq(dev, (int)v, generic_intr, qv);
    if (rc != 0) {
      snprintf(err, errlen, "generic: request_irq(%u) failed (%d)", v, rc);
      goto err_disable;
    }
    qv->irq_requested = true;
    netif_napi_add(dev, &qv->napi, generic_poll, (int)cfg->driver.napi_budget);
    if (v < priv->num_rx) netif_queue_set_napi(dev, v, NETDEV_QUEUE_TYPE_RX, &qv->napi);
    if (v < priv->num_tx) netif_queue_set_napi(dev, v, NETDEV_QUEUE_TYPE_TX, &qv->napi);
    napi_enable(&qv->napi);
  }
  for (u32 v = 0; v < priv->num_vec; v++) writel(0, priv->ioaddr + gn_qreg(v, GN_Q_INT_MASK));
  return 0;

err_disable:
  writel(0, priv->ioaddr + GN_REG_CTRL);
  for (u32 v = 0; v < priv->num_vec; v++) {
    struct generic_q_vector *qv = &priv->qv[v];
    if (qv->napi.registered) {
      napi_disable(&qv->napi);
      netif_napi_del(&qv->napi);
    }
    if (qv->irq_requested) free_irq(dev, (int)v);
    qv->irq_requested = false;
  }
err_free:
  generic_free_rings(priv);
  free(priv);
  dev->priv = NULL;
  return rc;
}

/* remove: stops the device, then frees what probe allocated. */
static void generic_remove(struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  struct generic_priv *priv = netdev_priv(dev);
  if (!priv) return;
  writel(0, priv->ioaddr + GN_REG_CTRL);
  for (u32 v = 0; v < priv->num_vec; v++) writel(GN_INT_ALL, priv->ioaddr + gn_qreg(v, GN_Q_INT_MASK));
  for (u32 v = 0; v < priv->num_vec; v++) {
    struct generic_q_vector *qv = &priv->qv[v];
    napi_disable(&qv->napi);
    netif_napi_del(&qv->napi);
    if (qv->irq_requested) free_irq(dev, (int)v);
  }
  nk_netdev_set_rss(dev, NULL, NULL, 0);
  generic_free_rings(priv);
  free(priv);
  dev->priv = NULL;
}

/* ---- invariants ----------------------------------------------------------------------- */

/* Ring indices and buffer accounting of every queue. Reads descriptors with
 * plain loads (not through the platform): a check is not driver work and
 * costs nothing. */
static int generic_check(struct net_device *dev, char *err, size_t errlen) {
  const struct generic_priv *priv = netdev_priv(dev);
  if (!priv) {
    snprintf(err, errlen, "generic: no driver state (probe failed or remove ran)");
    return -1;
  }
  /* "RX queue 2: " with several queues, nothing with one */
  char qn[24] = "";
  for (u32 q = 0; q < priv->num_rx; q++) {
    const struct generic_rx_ring *rx = &priv->rx[q];
    const u32 rs = rx->size;
    if (priv->num_rx > 1) snprintf(qn, sizeof qn, "RX queue %u: ", q);
    if (rx->cur >= rs || rx->dirty >= rs) {
      snprintf(err, errlen, "generic: %sRX ring index out of range (%u/%u, size %u)", qn, rx->cur, rx->dirty, rs);
      return -1;
    }
    if (rx->dirty != nk_ring_prev(rx->cur, rs)) {
      snprintf(err, errlen, "generic: %sRX refill index %u is not one behind the clean index %u", qn, rx->dirty,
               rx->cur);
      return -1;
    }
    for (u32 i = 0; i < rs; i++) {
      const struct nk_page *page = rx->buf[i];
      if ((page != NULL) != (i != rx->dirty)) {
        snprintf(err, errlen, "generic: %sRX slot %u %s a buffer (empty slot is %u)", qn, i,
                 page ? "holds" : "lacks", rx->dirty);
        return -1;
      }
      if (!page) continue;
      u64 addr;
      memcpy(&addr, &generic_rx_desc(rx, i)->buf_addr, sizeof addr);
      if (addr != page->dma) {
        snprintf(err, errlen, "generic: %sRX descriptor %u points at %#" PRIx64 " but its buffer is at %#" PRIx64,
                 qn, i, addr, (u64)page->dma);
        return -1;
      }
    }
    if (page_pool_in_use(rx->pool) != rs - 1) {
      snprintf(err, errlen, "generic: %s%u RX buffers out of the pool, expected %u (one per filled slot)", qn,
               page_pool_in_use(rx->pool), rs - 1);
      return -1;
    }
  }
  u32 in_flight = 0;
  qn[0] = '\0';
  for (u32 q = 0; q < priv->num_tx; q++) {
    const struct generic_tx_ring *tx = &priv->tx[q];
    const u32 ts = tx->size;
    if (priv->num_tx > 1) snprintf(qn, sizeof qn, "TX queue %u: ", q);
    if (tx->cur >= ts || tx->dirty >= ts) {
      snprintf(err, errlen, "generic: %sTX ring index out of range (%u/%u, size %u)", qn, tx->cur, tx->dirty, ts);
      return -1;
    }
    in_flight += nk_ring_used(tx->cur, tx->dirty, ts);
    for (u32 i = 0; i < ts; i++) {
      bool busy = nk_ring_in_flight(i, tx->cur, tx->dirty, ts);
      if ((tx->buf[i].skb != NULL) != busy) {
        snprintf(err, errlen, "generic: %sTX slot %u %s an skb but is %s (clean %u, next %u)", qn, i,
                 tx->buf[i].skb ? "holds" : "lacks", busy ? "in flight" : "free", tx->dirty, tx->cur);
        return -1;
      }
    }
    if (__netif_subqueue_stopped(dev, (u16)q) && nk_ring_space(tx->cur, tx->dirty, ts) >= priv->tx_wake_thresh) {
      snprintf(err, errlen, "generic: %sTX queue stopped with %u free descriptors (wake threshold %u): missed wake",
               qn, nk_ring_space(tx->cur, tx->dirty, ts), priv->tx_wake_thresh);
      return -1;
    }
  }
  if (nk_kernel_skbs_in_use(dev->k) != in_flight) {
    snprintf(err, errlen, "generic: %u skbs allocated but %u frames on the TX rings (leak or double free)",
             nk_kernel_skbs_in_use(dev->k), in_flight);
    return -1;
  }
  return 0;
}

const struct nk_driver nk_driver_generic = {
    .name = "generic",
    .probe = generic_probe,
    .remove = generic_remove,
    .ndo_start_xmit = generic_xmit,
    .check = generic_check,
    .check_config = generic_check_config,
    .has_dim = true,
    .page_pool_default = true,
};
