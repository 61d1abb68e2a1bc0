/* generic.c: the driver for nicsim's generic NIC (src/hw/generic_nic.h), a small
 * e1000/stmmac hybrid; docs/drivers.md walks its hot path and costs. */

/* Coherent descriptor rings, a page pool of RX buffers recycled in place,
 * copy-break RX into napi_alloc_skb (as stmmac does), one MSI vector masked in
 * the IRQ handler and unmasked when NAPI completes, a TX doorbell per frame. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/generic.h"
#include "drivers/ring.h"
#include "net/frame.h"

#define GENERIC_ETH_HLEN 14 /* shortest frame the RX path accepts */

/* ---- TX completion --------------------------------------------------------- */

/* Reclaims the TX descriptors the device has handed back (OWN clear), in
 * ring order, and wakes the queue once enough are free. Not budgeted: TX
 * cleaning is cheap and must not hold the queue stopped. */
static void generic_tx_clean(struct generic_priv *priv, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *dev = priv->dev;
  u32 cleaned = 0;
  /* Head write-back: one load of the head word says how far the device got;
   * otherwise each descriptor's OWN bit says it. */
  const u32 head = priv->tx_head_wb ? nk_ld32(priv->tx_head_wb) % priv->tx_size : 0;
  while (priv->tx_dirty != priv->tx_cur) {
    u32 entry = priv->tx_dirty;
    u16 flags = 0;
    if (priv->tx_head_wb) {
      if (entry == head) break;
    } else {
      flags = nk_ld16(&generic_tx_desc(priv, entry)->flags);
      if (flags & GN_DESC_OWN) break;
    }
    /* Only OWN is read from the descriptor: the rest comes from the shadow,
     * so no dma_rmb() is needed. */
    struct generic_tx_buf *tb = &priv->tx_buf[entry];
    dma_unmap_single(dev, tb->dma, tb->len, DMA_TO_DEVICE);
    if (flags & GN_DESC_ERR) {
      dev->stats.tx_errors++;
    } else {
      dev->stats.tx_packets++;
      dev->stats.tx_bytes += tb->len;
    }
    napi_consume_skb(tb->skb, budget);
    *tb = (struct generic_tx_buf){NULL, 0, 0};
    priv->tx_dirty = nk_ring_next(entry, priv->tx_size);
    cleaned++;
  }
  if (cleaned && netif_queue_stopped(dev) &&
      nk_ring_space(priv->tx_cur, priv->tx_dirty, priv->tx_size) >= priv->tx_wake_thresh) {
    netif_wake_queue(dev);
    priv->tx_wakes++;
  }
}

/* ---- RX ------------------------------------------------------------------------ */

/* Gives `page` back to the device in the empty slot rx_dirty: address and
 * length first, dma_wmb(), then OWN, so the device never sees OWN with a
 * stale address. The tail register moves once per poll, in generic_rx. */
static void generic_rx_refill(struct generic_priv *priv, struct nk_page *page) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  u32 entry = priv->rx_dirty;
  struct gn_rx_desc *desc = generic_rx_desc(priv, entry);
  priv->rx_buf[entry] = page;
  nk_st64(&desc->buf_addr, page->dma);
  nk_st16(&desc->buf_len, (u16)priv->rx_buf_len);
  dma_wmb();
  nk_st16(&desc->flags, GN_DESC_OWN);
  priv->rx_dirty = nk_ring_next(entry, priv->rx_size);
}

/* Receives up to budget frames: for each completed descriptor, copy the
 * frame into a fresh skb (copy-break), recycle the buffer into the ring and
 * pass the skb up. Returns the number of descriptors consumed. */
static int generic_rx(struct generic_priv *priv, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *dev = priv->dev;
  int work = 0;
  while (work < budget) {
    u32 entry = priv->rx_cur;
    struct gn_rx_desc *desc = generic_rx_desc(priv, entry);
    u16 flags = nk_ld16(&desc->flags);
    if (flags & GN_DESC_OWN) break;
    dma_rmb(); /* pkt_len is read only after OWN was seen clear */
    u16 len = nk_ld16(&desc->pkt_len);
    struct nk_page *page = priv->rx_buf[entry];
    priv->rx_buf[entry] = NULL;
    priv->rx_cur = nk_ring_next(entry, priv->rx_size);
    work++;

    struct sk_buff *skb = NULL;
    if (!(flags & GN_DESC_EOP) || (flags & GN_DESC_ERR) || len < GENERIC_ETH_HLEN || len > priv->rx_buf_len) {
      dev->stats.rx_errors++;
    } else {
      dma_sync_single_for_cpu(dev, page->dma, len, DMA_FROM_DEVICE);
      skb = napi_alloc_skb(&priv->napi, len);
      if (skb)
        nk_memcpy(skb_put(skb, len), page->addr, len);
      else
        dev->stats.rx_dropped++;
    }
    /* The frame is in the skb (or dropped): the buffer goes straight back. */
    generic_rx_refill(priv, page);
    if (skb) napi_gro_receive(&priv->napi, skb);
  }
  if (work) writel(priv->rx_dirty, priv->ioaddr + GN_REG_RX_TAIL); /* one doorbell per poll */
  return work;
}

/* ---- NAPI and IRQ ------------------------------------------------------------------ */

/* NAPI poll: TX completions, then up to budget RX frames; re-enables the
 * interrupt when it finishes under budget. */
static int generic_poll(struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct generic_priv *priv = netdev_priv(napi->dev);
  generic_tx_clean(priv, budget);
  int work = generic_rx(priv, budget);
  if (work < budget && napi_complete_done(napi, work)) writel(0, priv->ioaddr + GN_REG_INT_MASK);
  return work;
}

/* Hard IRQ: masks every cause and defers to NAPI. It does not read
 * INT_STATUS (a PCIe round trip): the poll finds the work in the rings. */
static irqreturn_t generic_intr(int irq, void *dev_id) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  struct generic_priv *priv = dev_id;
  (void)irq;
  writel(GN_INT_ALL, priv->ioaddr + GN_REG_INT_MASK);
  napi_schedule(&priv->napi);
  return IRQ_HANDLED;
}

/* ---- TX ---------------------------------------------------------------------------- */

/* ndo_start_xmit: maps the frame, fills the next TX descriptor (address and
 * length, dma_wmb(), then OWN|EOP) and rings the TX tail doorbell. Stops the
 * queue when the ring becomes full. */
static netdev_tx_t generic_xmit(struct sk_buff *skb, struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct generic_priv *priv = netdev_priv(dev);
  if (nk_ring_space(priv->tx_cur, priv->tx_dirty, priv->tx_size) == 0) {
    /* The queue should have been stopped when the ring filled (as Linux
     * drivers say: "BUG! Tx ring full when queue awake"). */
    netif_stop_queue(dev);
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
  u32 entry = priv->tx_cur;
  struct gn_tx_desc *desc = generic_tx_desc(priv, entry);
  priv->tx_buf[entry] = (struct generic_tx_buf){skb, dma, len};
  nk_st64(&desc->buf_addr, dma);
  nk_st16(&desc->len, (u16)len);
  dma_wmb();
  nk_st16(&desc->flags, GN_DESC_OWN | GN_DESC_EOP);
  priv->tx_cur = nk_ring_next(entry, priv->tx_size);
  writel(priv->tx_cur, priv->ioaddr + GN_REG_TX_TAIL); /* writel orders the stores above before it */
  if (nk_ring_space(priv->tx_cur, priv->tx_dirty, priv->tx_size) == 0) {
    netif_stop_queue(dev);
    priv->tx_stops++;
  }
  return NETDEV_TX_OK;
}

/* ---- probe / remove -------------------------------------------------------------------- */

/* Frees whatever of the rings, buffers and shadows exists (remove and the
 * probe error path). Frames still on the TX ring count as tx_dropped. */
static void generic_free_rings(struct generic_priv *priv) {
  struct net_device *dev = priv->dev;
  if (priv->tx_buf) {
    for (u32 i = 0; i < priv->tx_size; i++) {
      struct generic_tx_buf *tb = &priv->tx_buf[i];
      if (!tb->skb) continue;
      dma_unmap_single(dev, tb->dma, tb->len, DMA_TO_DEVICE);
      dev_kfree_skb_any(tb->skb);
      dev->stats.tx_dropped++;
      *tb = (struct generic_tx_buf){NULL, 0, 0};
    }
    free(priv->tx_buf);
    priv->tx_buf = NULL;
  }
  if (priv->rx_buf) {
    for (u32 i = 0; i < priv->rx_size; i++)
      if (priv->rx_buf[i]) page_pool_recycle_direct(priv->rx_pool, priv->rx_buf[i]);
    free(priv->rx_buf);
    priv->rx_buf = NULL;
  }
  if (priv->rx_pool) page_pool_destroy(priv->rx_pool);
  priv->rx_pool = NULL;
  if (priv->tx_head_wb) dma_free_coherent(dev, sizeof(u32), priv->tx_head_wb, priv->tx_head_wb_dma);
  priv->tx_head_wb = NULL;
  if (priv->tx_ring) dma_free_coherent(dev, priv->tx_ring_bytes, priv->tx_ring, priv->tx_ring_dma);
  if (priv->rx_ring) dma_free_coherent(dev, priv->rx_ring_bytes, priv->rx_ring, priv->rx_ring_dma);
  priv->tx_ring = priv->rx_ring = NULL;
}

/* Checks the config against what the generic NIC's descriptors can express. */
static int generic_check_config(const struct nicsim_config *cfg, char *err, size_t errlen) {
  if (cfg->nic.desc_spacing < (int64_t)GN_DESC_SIZE || cfg->nic.desc_spacing % 8) {
    snprintf(err, errlen,
             "nic.desc_spacing = %" PRId64 ": the generic NIC needs a multiple of 8 (the 64-bit buffer address "
             "must stay aligned) of at least %u",
             cfg->nic.desc_spacing, GN_DESC_SIZE);
    return -1;
  }
  if (cfg->nic.rx_ring_size < 2 || cfg->nic.tx_ring_size < 2) {
    snprintf(err, errlen, "generic: rings need at least 2 descriptors");
    return -1;
  }
  if (cfg->driver.rx_buf_bytes > 0xffff) {
    snprintf(err, errlen, "driver.rx_buf_bytes = %" PRId64 ": the generic RX descriptor's buf_len is 16 bits (max 65535)",
             cfg->driver.rx_buf_bytes);
    return -1;
  }
  if (cfg->traffic.mode != NC_MODE_TX && nf_dma_len((uint32_t)cfg->traffic.frame_bytes) > cfg->driver.rx_buf_bytes) {
    snprintf(err, errlen,
             "traffic.frame_bytes = %" PRId64 " needs %u-byte RX buffers but driver.rx_buf_bytes = %" PRId64
             ": the generic NIC does not chain buffers",
             cfg->traffic.frame_bytes, nf_dma_len((uint32_t)cfg->traffic.frame_bytes), cfg->driver.rx_buf_bytes);
    return -1;
  }
  return 0;
}

/* Allocates rings, buffers and shadows and fills the RX ring (size - 1 buffers). */
static int generic_alloc_rings(struct generic_priv *priv, char *err, size_t errlen) {
  struct net_device *dev = priv->dev;
  priv->rx_ring_bytes = (size_t)priv->rx_size * priv->spacing;
  priv->tx_ring_bytes = (size_t)priv->tx_size * priv->spacing;
  priv->rx_ring = dma_alloc_coherent(dev, priv->rx_ring_bytes, &priv->rx_ring_dma);
  if (!priv->rx_ring) goto fail;
  priv->tx_ring = dma_alloc_coherent(dev, priv->tx_ring_bytes, &priv->tx_ring_dma);
  if (!priv->tx_ring) goto fail;
  if (dev->cfg->nic.wb_mode == NC_WB_HEAD) {
    priv->tx_head_wb = dma_alloc_coherent(dev, sizeof(u32), &priv->tx_head_wb_dma);
    if (!priv->tx_head_wb) goto fail;
  }
  priv->rx_pool = page_pool_create(dev, priv->rx_size - 1, priv->rx_buf_len, DMA_FROM_DEVICE);
  if (!priv->rx_pool) goto fail;
  priv->rx_buf = calloc(priv->rx_size, sizeof *priv->rx_buf);
  priv->tx_buf = calloc(priv->tx_size, sizeof *priv->tx_buf);
  if (!priv->rx_buf || !priv->tx_buf) {
    snprintf(err, errlen, "generic: out of host memory for ring shadows");
    return -1;
  }
  for (u32 i = 0; i + 1 < priv->rx_size; i++) {
    struct nk_page *page = page_pool_dev_alloc_pages(priv->rx_pool);
    struct gn_rx_desc *desc = generic_rx_desc(priv, i);
    priv->rx_buf[i] = page;
    nk_st64(&desc->buf_addr, page->dma);
    nk_st16(&desc->buf_len, (u16)priv->rx_buf_len);
    nk_st16(&desc->flags, GN_DESC_OWN);
  }
  priv->rx_cur = 0;
  priv->rx_dirty = priv->rx_size - 1;
  priv->tx_cur = priv->tx_dirty = 0;
  dma_wmb(); /* descriptors are in memory before the device is told where they are */
  return 0;
fail:
  snprintf(err, errlen, "generic: %s", nk_kernel_last_error(dev->k));
  return -1;
}

/* Programs rings, coalescing and MSI, then enables RX and TX (interrupts masked). */
static void generic_program(struct generic_priv *priv) {
  const struct nicsim_config *cfg = priv->dev->cfg;
  void __iomem *io = priv->ioaddr;
  u64 msi = nk_msi_addr(priv->dev);
  writel(priv->spacing, io + GN_REG_DESC_SPACING);
  writel((u32)priv->rx_ring_dma, io + GN_REG_RX_RING_LO);
  writel((u32)(priv->rx_ring_dma >> 32), io + GN_REG_RX_RING_HI);
  writel(priv->rx_size, io + GN_REG_RX_RING_SIZE);
  writel(priv->rx_buf_len, io + GN_REG_RX_BUF_SIZE);
  writel((u32)priv->tx_ring_dma, io + GN_REG_TX_RING_LO);
  writel((u32)(priv->tx_ring_dma >> 32), io + GN_REG_TX_RING_HI);
  writel(priv->tx_size, io + GN_REG_TX_RING_SIZE);
  if (priv->tx_head_wb) {
    writel((u32)priv->tx_head_wb_dma, io + GN_REG_TX_HEAD_WB_LO);
    writel((u32)(priv->tx_head_wb_dma >> 32), io + GN_REG_TX_HEAD_WB_HI);
  }
  writel((u32)cfg->nic.irq_coal_frames, io + GN_REG_COAL_FRAMES);
  writel((u32)(cfg->nic.irq_coal_usecs + 0.5), io + GN_REG_COAL_USECS); /* whole microseconds */
  writel((u32)msi, io + GN_REG_MSI_ADDR_LO);
  writel((u32)(msi >> 32), io + GN_REG_MSI_ADDR_HI);
  writel(nk_msi_data(priv->dev, GENERIC_IRQ_VEC), io + GN_REG_MSI_DATA);
  writel(priv->rx_dirty, io + GN_REG_RX_TAIL);
  writel(priv->tx_cur, io + GN_REG_TX_TAIL);
  writel(GN_CTRL_RX_EN | GN_CTRL_TX_EN, io + GN_REG_CTRL);
}

/* probe: rings and buffers, registers, IRQ, NAPI, then unmask interrupts. */
static int generic_probe(struct net_device *dev, char *err, size_t errlen) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  const struct nicsim_config *cfg = dev->cfg;
  if (generic_check_config(cfg, err, errlen) != 0) return -EINVAL;
  struct generic_priv *priv = calloc(1, sizeof *priv);
  if (!priv) {
    snprintf(err, errlen, "generic: out of host memory");
    return -ENOMEM;
  }
  dev->priv = priv;
  priv->dev = dev;
  priv->ioaddr = nk_ioremap(dev);
  priv->spacing = (u32)cfg->nic.desc_spacing;
  priv->rx_size = (u32)cfg->nic.rx_ring_size;
  priv->tx_size = (u32)cfg->nic.tx_ring_size;
  priv->rx_buf_len = (u32)cfg->driver.rx_buf_bytes;
  priv->tx_wake_thresh = priv->tx_size / 4 > 0 ? priv->tx_size / 4 : 1;

  writel(GN_INT_ALL, priv->ioaddr + GN_REG_INT_MASK); /* quiet until NAPI is ready */
  int rc = -ENOMEM;
  if (generic_alloc_rings(priv, err, errlen) != 0) goto err_free;
  generic_program(priv);
  rc = request_irq(dev, GENERIC_IRQ_VEC, generic_intr, priv);
  if (rc != 0) {
    snprintf(err, errlen, "generic: request_irq(%d) failed (%d)", GENERIC_IRQ_VEC, rc);
    goto err_disable;
  }
  priv->irq_requested = true;
  netif_napi_add(dev, &priv->napi, generic_poll, (int)cfg->driver.napi_budget);
  napi_enable(&priv->napi);
  writel(0, priv->ioaddr + GN_REG_INT_MASK);
  return 0;

err_disable:
  writel(0, priv->ioaddr + GN_REG_CTRL);
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
  writel(GN_INT_ALL, priv->ioaddr + GN_REG_INT_MASK);
  napi_disable(&priv->napi);
  netif_napi_del(&priv->napi);
  if (priv->irq_requested) free_irq(dev, GENERIC_IRQ_VEC);
  generic_free_rings(priv);
  free(priv);
  dev->priv = NULL;
}

/* ---- invariants ----------------------------------------------------------------------- */

/* Ring indices and buffer accounting. Reads descriptors with plain loads
 * (not through the platform): a check is not driver work and costs nothing. */
static int generic_check(struct net_device *dev, char *err, size_t errlen) {
  const struct generic_priv *priv = netdev_priv(dev);
  if (!priv) {
    snprintf(err, errlen, "generic: no driver state (probe failed or remove ran)");
    return -1;
  }
  const u32 rs = priv->rx_size, ts = priv->tx_size;
  if (priv->rx_cur >= rs || priv->rx_dirty >= rs || priv->tx_cur >= ts || priv->tx_dirty >= ts) {
    snprintf(err, errlen, "generic: ring index out of range (rx %u/%u, tx %u/%u, sizes %u/%u)", priv->rx_cur,
             priv->rx_dirty, priv->tx_cur, priv->tx_dirty, rs, ts);
    return -1;
  }
  if (priv->rx_dirty != nk_ring_prev(priv->rx_cur, rs)) {
    snprintf(err, errlen, "generic: RX refill index %u is not one behind the clean index %u", priv->rx_dirty,
             priv->rx_cur);
    return -1;
  }
  for (u32 i = 0; i < rs; i++) {
    const struct nk_page *page = priv->rx_buf[i];
    if ((page != NULL) != (i != priv->rx_dirty)) {
      snprintf(err, errlen, "generic: RX slot %u %s a buffer (empty slot is %u)", i, page ? "holds" : "lacks",
               priv->rx_dirty);
      return -1;
    }
    if (!page) continue;
    u64 addr;
    memcpy(&addr, &generic_rx_desc(priv, i)->buf_addr, sizeof addr);
    if (addr != page->dma) {
      snprintf(err, errlen, "generic: RX descriptor %u points at %#" PRIx64 " but its buffer is at %#" PRIx64, i,
               addr, (u64)page->dma);
      return -1;
    }
  }
  if (page_pool_in_use(priv->rx_pool) != rs - 1) {
    snprintf(err, errlen, "generic: %u RX buffers out of the pool, expected %u (one per filled slot)",
             page_pool_in_use(priv->rx_pool), rs - 1);
    return -1;
  }
  u32 in_flight = nk_ring_used(priv->tx_cur, priv->tx_dirty, ts);
  for (u32 i = 0; i < ts; i++) {
    bool busy = nk_ring_in_flight(i, priv->tx_cur, priv->tx_dirty, ts);
    if ((priv->tx_buf[i].skb != NULL) != busy) {
      snprintf(err, errlen, "generic: TX slot %u %s an skb but is %s (clean %u, next %u)", i,
               priv->tx_buf[i].skb ? "holds" : "lacks", busy ? "in flight" : "free", priv->tx_dirty, priv->tx_cur);
      return -1;
    }
  }
  if (nk_kernel_skbs_in_use(dev->k) != in_flight) {
    snprintf(err, errlen, "generic: %u skbs allocated but %u frames on the TX ring (leak or double free)",
             nk_kernel_skbs_in_use(dev->k), in_flight);
    return -1;
  }
  if (netif_queue_stopped(dev) && nk_ring_space(priv->tx_cur, priv->tx_dirty, ts) >= priv->tx_wake_thresh) {
    snprintf(err, errlen, "generic: TX queue stopped with %u free descriptors (wake threshold %u): missed wake",
             nk_ring_space(priv->tx_cur, priv->tx_dirty, ts), priv->tx_wake_thresh);
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
};
