/* mvneta.c: the hot paths of Linux's Marvell NETA driver
 * (drivers/net/ethernet/marvell/mvneta.c, software buffer management, as of
 * the seed's v4.10/v4.11), on nicsim's mvneta device; docs/drivers/mvneta.md
 * has the function-by-function correspondence and the access counts. With
 * driver.xdp the RX loop runs the XDP path of v5.5 (Lorenzo Bianconi's
 * series: mvneta_run_xdp, mvneta_xdp_xmit_back, mvneta_xdp_submit_frame),
 * with the sync lengths of v5.7 (page_pool_put_page with the bytes the CPU
 * may have touched). */

/* The two knobs select the code before or after the seed's patches:
 * driver.reuse_desc_reads (patch 3: mvneta_tx and mvneta_txq_bufs_free stop
 * reading tx_desc fields back; patches 1-2 touch only mvneta_rx_hwbm, which
 * nicsim does not model) and driver.shadow_dma_addr (patch 4: mvneta_rx_swbm
 * takes the buffer address from a cacheable array, not rx_desc). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/gn_coal.h"
#include "drivers/mvneta.h"
#include "drivers/ring.h"
#include "net/frame.h"

#define MVNETA_ETH_HLEN 14          /* shortest frame mvneta_rx_swbm accepts */
#define MVNETA_TX_L4_CSUM_NOT (1u << 31) /* no checksum offload asked */

/* Linux's IS_TSO_HEADER: the address lies in the queue's TSO header area.
 * Kept a macro that names addr twice, as Linux's does: before patch 3 addr is
 * tx_desc->buf_phys_addr, so both tests read the descriptor (the first,
 * addr >= tso_hdrs_phys, always holds here: there are no TSO headers). */
#define IS_TSO_HEADER(txq, addr) \
  ((addr) >= (txq)->tso_hdrs_phys && (addr) < (txq)->tso_hdrs_phys + (txq)->tso_hdrs_bytes)

/* A 32-bit descriptor address as a dma_addr_t: all ones is the mapping error
 * (dma_addr_t is 32 bits on the 32-bit Armada SoCs mvneta was written for). */
static inline dma_addr_t mvneta_dma32(u32 a) { return a == 0xffffffffu ? DMA_MAPPING_ERROR : a; }

static inline bool mvneta_rxq_desc_is_first_last(u32 status) {
  return (status & MVNETA_RXD_FIRST_LAST_DESC) == MVNETA_RXD_FIRST_LAST_DESC;
}

/* ---- register helpers (Linux's one-liners, inlined there too) --------------- */

/* mvneta_rxq_busy_desc_num_get: descriptors the device has filled (RXQ_STATUS
 * occupied count), from the RX head register. One readl. */
static u32 mvneta_rxq_busy_desc_num_get(struct mvneta_port *pp) {
  u32 head = readl(pp->base + GN_REG_RX_HEAD);
  return nk_ring_used(head % pp->rxq.size, pp->rxq.next_desc_to_proc, pp->rxq.size);
}

/* mvneta_rxq_desc_num_update: returns rx_filled processed descriptors to the
 * device (RXQ_STATUS_UPDATE's non-occupied add) by moving the RX tail. One writel. */
static void mvneta_rxq_desc_num_update(struct mvneta_port *pp, u32 rx_filled) {
  struct mvneta_rx_queue *rxq = &pp->rxq;
  rxq->tail = (rxq->tail + rx_filled) % rxq->size;
  writel(rxq->tail, pp->base + GN_REG_RX_TAIL);
}

/* mvneta_txq_pend_desc_add: tells the device about new TX descriptors (TXQ_UPDATE). One writel. */
static void mvneta_txq_pend_desc_add(struct mvneta_port *pp) {
  writel(pp->txq.txq_put_index, pp->base + GN_REG_TX_TAIL);
}

/* mvneta_txq_sent_desc_proc: descriptors the device has sent (TXQ_STATUS), from the TX head register. */
static u32 mvneta_txq_sent_desc_proc(struct mvneta_port *pp) {
  u32 head = readl(pp->base + GN_REG_TX_HEAD);
  return nk_ring_used(head % pp->txq.size, pp->txq.txq_get_index, pp->txq.size);
}

/* ---- TX completion ------------------------------------------------------------ */

/* Releases num sent descriptors from txq_get_index: unmaps each buffer with
 * the address and size read from the descriptor, frees the skb, and reports
 * the frames to BQL. Before patch 3 (reuse_desc_reads false) buf_phys_addr is
 * read three times, not once. */
static void mvneta_txq_bufs_free(struct mvneta_port *pp, u32 num) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *dev = pp->dev;
  struct mvneta_tx_queue *txq = &pp->txq;
  unsigned int bytes_compl = 0, pkts_compl = 0;
  for (u32 i = 0; i < num; i++) {
    struct mvneta_tx_desc *tx_desc = mvneta_tx_desc_at(pp, txq->txq_get_index);
    struct sk_buff *skb = txq->tx_skb[txq->txq_get_index];
    const u32 i_get = txq->txq_get_index;
    dma_addr_t dma_addr = 0;
    if (pp->reuse_desc_reads) dma_addr = nk_ld32(&tx_desc->buf_phys_addr);
    txq->tx_skb[txq->txq_get_index] = NULL;
    txq->txq_get_index = nk_ring_next(txq->txq_get_index, txq->size); /* mvneta_txq_inc_get */
    struct nk_page *xdp_page = txq->tx_xdp ? txq->tx_xdp[i_get] : NULL;
    if (xdp_page) txq->tx_xdp[i_get] = NULL;
    /* v5.5: "if (!IS_TSO_HEADER(txq, tx_desc->buf_phys_addr) && buf->type !=
     * MVNETA_TYPE_XDP_TX)": an XDP_TX buffer stays mapped (the pool's). */
    if (pp->reuse_desc_reads) {
      if (!IS_TSO_HEADER(txq, dma_addr) && !xdp_page)
        dma_unmap_single(dev, dma_addr, nk_ld16(&tx_desc->data_size), DMA_TO_DEVICE);
    } else {
      if (!IS_TSO_HEADER(txq, (dma_addr_t)nk_ld32(&tx_desc->buf_phys_addr)) && !xdp_page)
        dma_unmap_single(dev, nk_ld32(&tx_desc->buf_phys_addr), nk_ld16(&tx_desc->data_size), DMA_TO_DEVICE);
    }
    if (xdp_page) {
      /* xdp_return_frame_rx_napi: page_pool_put_page(pool, page, -1, true),
       * a sync for the device over the pool's max_len (rx_sync used). */
      if (pp->sync_used)
        page_pool_put_page(pp->pool, xdp_page, -1, true);
      else
        page_pool_recycle_direct(pp->pool, xdp_page);
      pp->xdp_tx_pending--;
      continue;
    }
    if (!skb) continue;
    bytes_compl += skb->len;
    pkts_compl++;
    dev_kfree_skb_any(skb);
  }
  netdev_tx_completed_queue(netdev_get_tx_queue(dev, 0), pkts_compl, bytes_compl);
}

/* Reclaims what the device has sent and wakes the queue once at most
 * tx_wake_threshold descriptors remain in flight. */
static void mvneta_txq_done(struct mvneta_port *pp) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct mvneta_tx_queue *txq = &pp->txq;
  u32 tx_done = mvneta_txq_sent_desc_proc(pp);
  if (!tx_done) return;
  mvneta_txq_bufs_free(pp, tx_done);
  txq->count -= tx_done;
  if (netif_queue_stopped(pp->dev) && txq->count <= txq->tx_wake_threshold) {
    netif_wake_queue(pp->dev);
    pp->tx_wakes++;
  }
}

/* ---- RX ------------------------------------------------------------------------ */

/* mvneta_rx_desc_fill: the buffer's address into the descriptor (uncached
 * store) and into the cacheable shadows. */
static void mvneta_rx_desc_fill(struct mvneta_port *pp, u32 index, dma_addr_t phys_addr, struct nk_page *page) {
  struct mvneta_rx_desc *rx_desc = mvneta_rx_desc_at(pp, index);
  nk_st32(&rx_desc->buf_phys_addr, (u32)phys_addr);
  pp->rxq.buf_dma_addr[index] = phys_addr;
  pp->rxq.buf_virt_addr[index] = page;
}

/* Puts a fresh buffer in slot index: Linux allocates a fragment and maps it
 * (dma_map_single, FROM_DEVICE); here a pool buffer, synced for the device
 * over the whole buffer, which costs what that map costs. 0 or -ENOMEM. */
static int mvneta_rx_refill(struct mvneta_port *pp, u32 index) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct nk_page *page = page_pool_dev_alloc_pages(pp->pool);
  if (!page) return -ENOMEM;
  /* rx_sync used: the page_pool synced it for the device when it came back. */
  if (!pp->sync_used) dma_sync_single_for_device(pp->dev, page->dma, pp->rx_buf_size, pp->dma_dir);
  mvneta_rx_desc_fill(pp, index, page->dma + pp->rx_offset, page);
  return 0;
}

/* mvneta_rx_error: the error path reads status again from the descriptor (as Linux does). */
static void mvneta_rx_error(struct mvneta_port *pp, struct mvneta_rx_desc *rx_desc) {
  u32 status = nk_ld32(&rx_desc->status);
  (void)status; /* Linux prints the error code from it */
  pp->dev->stats.rx_errors++;
}

/* ---- XDP (driver.xdp; v5.5) ------------------------------------------------------ */

/* mvneta_xdp_put_buff (v5.7's put in mvneta_run_xdp): the buffer goes back
 * to the pool at once, synced for the device over the sync bytes the CPU
 * may have touched (rx_sync used; PP_FLAG_DMA_SYNC_DEV). */
static void mvneta_xdp_put_buff(struct mvneta_port *pp, struct nk_page *page, u32 sync) {
  if (pp->sync_used)
    page_pool_put_page(pp->pool, page, (int)sync, true);
  else
    page_pool_recycle_direct(pp->pool, page);
}

/* mvneta_xdp_submit_frame (dma_map false: XDP_TX): one descriptor for the
 * frame where it lies in the RX buffer, already mapped by the pool, synced
 * for the device over its length (no new mapping); the buffer is remembered
 * for TX completion. MVNETA_XDP_DROPPED when the ring has no room. */
static u32 mvneta_xdp_submit_frame(struct mvneta_port *pp, struct nk_page *page, const struct xdp_buff *xdp) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct mvneta_tx_queue *txq = &pp->txq;
  if (txq->count >= txq->tx_stop_threshold) return MVNETA_XDP_DROPPED;
  struct mvneta_tx_desc *tx_desc = mvneta_tx_desc_at(pp, txq->txq_put_index); /* mvneta_txq_next_desc_get */
  const u32 len = (u32)((u8 *)xdp->data_end - (u8 *)xdp->data);
  /* page_pool_get_dma_addr(page) + sizeof(*xdpf) + xdpf->headroom: where the frame starts */
  const dma_addr_t dma_addr = page->dma + (dma_addr_t)((u8 *)xdp->data - (u8 *)page->addr);
  dma_sync_single_for_device(pp->dev, dma_addr, len, DMA_BIDIRECTIONAL);
  txq->tx_xdp[txq->txq_put_index] = page; /* buf->type = MVNETA_TYPE_XDP_TX; buf->xdpf = xdpf */
  nk_st32(&tx_desc->command, MVNETA_TXD_FLZ_DESC);
  nk_st32(&tx_desc->buf_phys_addr, (u32)dma_addr);
  nk_st16(&tx_desc->data_size, (u16)len);
  pp->dev->stats.tx_packets++; /* mvneta_update_stats(pp, 1, xdpf->len, true) */
  pp->dev->stats.tx_bytes += len;
  txq->txq_put_index = nk_ring_next(txq->txq_put_index, txq->size); /* mvneta_txq_inc_put */
  txq->count++;
  pp->xdp_tx_pending++;
  return MVNETA_XDP_TX;
}

/* mvneta_xdp_xmit_back: XDP_TX from the RX path on the port's TX queue,
 * under its xmit lock; the TXQ_UPDATE doorbell per frame (v5.5 calls
 * mvneta_txq_pend_desc_add after each submit). */
static u32 mvneta_xdp_xmit_back(struct mvneta_port *pp, struct nk_page *page, const struct xdp_buff *xdp) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  convert_to_xdp_frame(xdp); /* v5.5: the frame's struct xdp_frame into its headroom */
  struct netdev_queue *nq = netdev_get_tx_queue(pp->dev, 0);
  __netif_tx_lock(nq);
  u32 ret = mvneta_xdp_submit_frame(pp, page, xdp);
  if (ret == MVNETA_XDP_TX) mvneta_txq_pend_desc_add(pp);
  __netif_tx_unlock(nq);
  /* v5.7's ethtool stats: rx_xdp_tx, or rx_xdp_tx_errors */
  nk_xdp_account(&pp->napi, ret == MVNETA_XDP_TX ? NK_XDP_TX : NK_XDP_TX_ERROR);
  return ret;
}

/* mvneta_run_xdp: runs the program on the frame in its buffer; drop (and
 * aborted) put the buffer back in the pool, tx sends it back out (put back
 * if the ring is full), pass goes on to the skb path. */
static u32 mvneta_run_xdp(struct mvneta_port *pp, struct nk_page *page, struct xdp_buff *xdp) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  /* len: the bytes from the pool's offset the device wrote (Marvell header + frame) */
  const u32 len = (u32)((u8 *)xdp->data_end - (u8 *)xdp->data_hard_start) - pp->rx_offset;
  const u32 act = bpf_prog_run_xdp(pp->xdp_prog, xdp);
  /* Due xdp_adjust_tail: DMA sync for_device cover max len CPU touch */
  u32 sync = (u32)((u8 *)xdp->data_end - (u8 *)xdp->data_hard_start) - pp->rx_offset;
  if (sync < len) sync = len;
  u32 ret;
  switch (act) {
    case XDP_PASS:
      nk_xdp_account(&pp->napi, NK_XDP_PASS);
      return MVNETA_XDP_PASS;
    case XDP_TX:
      ret = mvneta_xdp_xmit_back(pp, page, xdp);
      if (ret != MVNETA_XDP_TX) mvneta_xdp_put_buff(pp, page, sync);
      break;
    default: /* XDP_ABORTED, XDP_DROP (nicsim's program never redirects) */
      mvneta_xdp_put_buff(pp, page, sync);
      nk_xdp_account(&pp->napi, NK_XDP_DROP);
      ret = MVNETA_XDP_DROPPED;
      break;
  }
  return ret;
}

/* Receives up to rx_todo frames: reads status, data_size and (without the
 * shadow) buf_phys_addr from each descriptor; copies frames up to
 * rx_copybreak into a new skb and leaves the descriptor untouched; larger
 * ones get a fresh buffer in the slot (mvneta_rx_refill) and go up from the
 * old one. Returns the descriptors processed, all handed back in one update. */
static int mvneta_rx_swbm(struct mvneta_port *pp, int rx_todo) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *dev = pp->dev;
  struct mvneta_rx_queue *rxq = &pp->rxq;
  int rx_done = (int)mvneta_rxq_busy_desc_num_get(pp);
  if (rx_todo > rx_done) rx_todo = rx_done;
  rx_done = 0;
  while (rx_done < rx_todo) {
    u32 index = rxq->next_desc_to_proc; /* mvneta_rxq_next_desc_get */
    struct mvneta_rx_desc *rx_desc = mvneta_rx_desc_at(pp, index);
    rxq->next_desc_to_proc = nk_ring_next(index, rxq->size);
    rx_done++;
    u32 rx_status = nk_ld32(&rx_desc->status);
    int rx_bytes = (int)nk_ld16(&rx_desc->data_size) - (MVNETA_ETH_FCS_LEN + (int)MVNETA_MH_SIZE);
    struct nk_page *page = rxq->buf_virt_addr[index];
    dma_addr_t phys_addr = pp->shadow_dma_addr ? rxq->buf_dma_addr[index] : (dma_addr_t)nk_ld32(&rx_desc->buf_phys_addr);

    if (!mvneta_rxq_desc_is_first_last(rx_status) || (rx_status & MVNETA_RXD_ERR_SUMMARY) ||
        rx_bytes < MVNETA_ETH_HLEN || (u32)rx_bytes > pp->rx_buf_size - pp->rx_offset - MVNETA_MH_SIZE) {
    err_drop_frame:
      mvneta_rx_error(pp, rx_desc);
      continue; /* leave the descriptor untouched */
    }

    if ((u32)rx_bytes <= pp->copybreak) {
      /* better copy a small frame and not unmap the DMA region */
      struct sk_buff *skb = netdev_alloc_skb(dev, (unsigned int)rx_bytes);
      if (!skb) goto err_drop_frame;
      dma_sync_single_for_cpu(dev, phys_addr + MVNETA_MH_SIZE, (size_t)rx_bytes, DMA_FROM_DEVICE);
      nk_memcpy(skb_put(skb, (unsigned int)rx_bytes), (u8 *)page->addr + pp->rx_offset + MVNETA_MH_SIZE,
                (size_t)rx_bytes);
      pp->rx_copybreak_pkts++;
      napi_gro_receive(&pp->napi, skb);
      continue; /* leave the descriptor and buffer untouched */
    }

    /* Refill processing */
    if (mvneta_rx_refill(pp, index) != 0) {
      rxq->missed++;
      goto err_drop_frame;
    }
    /* Linux: build_skb around the old buffer, then dma_unmap_single of it
     * (an invalidate over the whole mapping). nicsim's skbs cannot wrap a
     * buffer: the frame is copied into one and the buffer recycled. */
    /* rx_sync used (the page_pool driver, v5.5 on): only the data_size bytes
     * the device wrote are synced for the CPU, and the pool syncs as many for
     * the device when the buffer comes back. */
    u32 data_len = (u32)rx_bytes + MVNETA_ETH_FCS_LEN + MVNETA_MH_SIZE;
    if (data_len > pp->rx_buf_size - pp->rx_offset) data_len = pp->rx_buf_size - pp->rx_offset;
    if (pp->sync_used)
      dma_sync_single_for_cpu(dev, phys_addr, data_len, pp->dma_dir);
    else
      dma_sync_single_for_cpu(dev, phys_addr - pp->rx_offset, pp->rx_buf_size, pp->dma_dir);
    if (pp->xdp_prog) {
      /* mvneta_swbm_rx_frame (v5.5): the xdp_buff over the frame in its buffer */
      struct xdp_buff xdp = {
          .data_hard_start = page->addr,
          .data = (u8 *)page->addr + pp->rx_offset + MVNETA_MH_SIZE,
          .rxq = &pp->napi,
          .frame_sz = pp->rx_buf_size,
          .mem_type = MEM_TYPE_PAGE_POOL,
      };
      xdp.data_end = (u8 *)xdp.data + rx_bytes;
      if (mvneta_run_xdp(pp, page, &xdp) != MVNETA_XDP_PASS) {
        pp->rx_xdp_consumed++;
        continue; /* the slot has its new buffer; the old one is in the pool or on the TX ring */
      }
    }
    struct sk_buff *skb = napi_alloc_skb(&pp->napi, (unsigned int)rx_bytes);
    if (skb)
      nk_memcpy(skb_put(skb, (unsigned int)rx_bytes), (u8 *)page->addr + pp->rx_offset + MVNETA_MH_SIZE,
                (size_t)rx_bytes);
    if (pp->sync_used)
      page_pool_put_page(pp->pool, page, (int)data_len, true);
    else
      page_pool_recycle_direct(pp->pool, page);
    if (!skb) {
      dev->stats.rx_errors++;
      continue;
    }
    pp->rx_refill_pkts++;
    napi_gro_receive(&pp->napi, skb);
  }
  /* Update rxq management counters (every processed descriptor goes back) */
  mvneta_rxq_desc_num_update(pp, (u32)rx_done);
  return rx_done;
}

/* ---- NAPI and IRQ ------------------------------------------------------------------ */

/* NAPI poll: reads the cause register, releases TX descriptors on a TX
 * cause, receives on an RX cause (or one left from a poll that used its whole
 * budget), and unmasks the interrupt when it finishes under budget. */
static int mvneta_poll(struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct mvneta_port *pp = netdev_priv(napi->dev);
  int rx_done = 0;
  u32 cause_rx_tx = readl(pp->base + GN_REG_INT_STATUS); /* MVNETA_INTR_NEW_CAUSE */

  /* Release Tx descriptors (mvneta_tx_done_gbe) */
  if (cause_rx_tx & GN_INT_TX) {
    struct netdev_queue *nq = netdev_get_tx_queue(pp->dev, 0);
    __netif_tx_lock(nq); /* against mvneta_tx on another CPU */
    if (pp->txq.count) mvneta_txq_done(pp);
    __netif_tx_unlock(nq);
    cause_rx_tx &= ~GN_INT_TX;
  }
  /* For the case where the last mvneta_poll did not process all RX packets */
  cause_rx_tx |= pp->cause_rx_tx;
  if (cause_rx_tx & GN_INT_RX) rx_done = mvneta_rx_swbm(pp, budget);

  if (rx_done < budget) {
    cause_rx_tx = 0;
    if (napi_complete_done(napi, rx_done)) writel(0, pp->base + GN_REG_INT_MASK);
  }
  pp->cause_rx_tx = cause_rx_tx;
  return rx_done;
}

/* Hard IRQ (the Armada 3700 mvneta_isr): masks every cause, schedules NAPI. */
static irqreturn_t mvneta_isr(int irq, void *dev_id) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  struct mvneta_port *pp = dev_id;
  (void)irq;
  writel(GN_INT_ALL, pp->base + GN_REG_INT_MASK);
  napi_schedule(&pp->napi);
  return IRQ_HANDLED;
}

/* ---- TX ---------------------------------------------------------------------------- */

/* ndo_start_xmit: one descriptor per (linear) skb: data_size, the mapped
 * address, then the command with first/last; one TXQ_UPDATE doorbell. Before
 * patch 3 data_size and buf_phys_addr are read back from the descriptor. */
static netdev_tx_t mvneta_tx(struct sk_buff *skb, struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct mvneta_port *pp = netdev_priv(dev);
  struct mvneta_tx_queue *txq = &pp->txq;
  if (txq->count >= txq->size - 1) {
    /* The queue should have been stopped at tx_stop_threshold. */
    netif_stop_queue(dev);
    pp->tx_stops++;
    return NETDEV_TX_BUSY;
  }
  u32 len = skb->len;
  if (len == 0 || len > 0xffff) {
    dev->stats.tx_dropped++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  struct mvneta_tx_desc *tx_desc = mvneta_tx_desc_at(pp, txq->txq_put_index); /* mvneta_txq_next_desc_get */
  u32 tx_cmd = MVNETA_TX_L4_CSUM_NOT; /* mvneta_skb_tx_csum: no offload */
  dma_addr_t dma_addr;
  if (pp->reuse_desc_reads) {
    u32 size = len; /* skb_headlen */
    nk_st16(&tx_desc->data_size, (u16)size);
    dma_addr = dma_map_single(dev, skb->data, size, DMA_TO_DEVICE);
    if (dma_mapping_error(dev, dma_addr)) goto drop; /* mvneta_txq_desc_put: nothing to undo */
    nk_st32(&tx_desc->buf_phys_addr, (u32)dma_addr);
  } else {
    nk_st16(&tx_desc->data_size, (u16)len);
    dma_addr = dma_map_single(dev, skb->data, nk_ld16(&tx_desc->data_size), DMA_TO_DEVICE);
    nk_st32(&tx_desc->buf_phys_addr, (u32)dma_addr);
    if (dma_mapping_error(dev, mvneta_dma32(nk_ld32(&tx_desc->buf_phys_addr)))) goto drop;
  }
  /* First and Last descriptor */
  tx_cmd |= MVNETA_TXD_FLZ_DESC;
  nk_st32(&tx_desc->command, tx_cmd);
  txq->tx_skb[txq->txq_put_index] = skb;
  txq->txq_put_index = nk_ring_next(txq->txq_put_index, txq->size); /* mvneta_txq_inc_put */

  netdev_tx_sent_queue(netdev_get_tx_queue(dev, 0), len);
  txq->count += 1;
  mvneta_txq_pend_desc_add(pp);
  if (txq->count >= txq->tx_stop_threshold) {
    netif_stop_queue(dev);
    pp->tx_stops++;
  }
  dev->stats.tx_packets++; /* Linux counts TX at xmit */
  dev->stats.tx_bytes += len;
  return NETDEV_TX_OK;

drop:
  dev->stats.tx_dropped++;
  dev_kfree_skb_any(skb);
  return NETDEV_TX_OK;
}

/* ---- probe / remove -------------------------------------------------------------------- */

/* mvneta_rxq_drop_pkts / mvneta_txq_done_force: gives every RX buffer back
 * (address from the shadow after patch 4, from the descriptor before) and
 * releases frames still on the TX ring (counted tx_dropped); then frees the
 * shadows, pool and rings. Also the probe error path. */
static void mvneta_cleanup_rings(struct mvneta_port *pp) {
  struct net_device *dev = pp->dev;
  struct mvneta_tx_queue *txq = &pp->txq;
  struct mvneta_rx_queue *rxq = &pp->rxq;
  if (txq->tx_skb) {
    if (txq->descs && txq->count) {
      dev->stats.tx_dropped += txq->count;
      dev->stats.tx_packets -= txq->count;
      mvneta_txq_bufs_free(pp, txq->count);
      txq->count = 0;
    }
    netdev_tx_reset_queue(netdev_get_tx_queue(dev, 0));
    free(txq->tx_skb);
    txq->tx_skb = NULL;
  }
  free(txq->tx_xdp);
  txq->tx_xdp = NULL;
  if (rxq->buf_virt_addr) {
    for (u32 i = 0; i < rxq->size; i++) {
      struct nk_page *page = rxq->buf_virt_addr[i];
      if (!page) continue;
      dma_addr_t phys = pp->shadow_dma_addr ? rxq->buf_dma_addr[i]
                                            : (dma_addr_t)nk_ld32(&mvneta_rx_desc_at(pp, i)->buf_phys_addr);
      if (phys != page->dma + pp->rx_offset) dev->stats.rx_errors++; /* the check hook names it */
      page_pool_recycle_direct(pp->pool, page);
      rxq->buf_virt_addr[i] = NULL;
    }
  }
  free(rxq->buf_virt_addr);
  free(rxq->buf_dma_addr);
  rxq->buf_virt_addr = NULL;
  rxq->buf_dma_addr = NULL;
  if (pp->pool) page_pool_destroy(pp->pool);
  pp->pool = NULL;
  if (txq->descs) dma_free_coherent(dev, txq->descs_bytes, txq->descs, txq->descs_phys);
  if (rxq->descs) dma_free_coherent(dev, rxq->descs_bytes, rxq->descs, rxq->descs_phys);
  txq->descs = rxq->descs = NULL;
}

/* Checks what the mvneta device and this driver can express. */
static int mvneta_check_config(const struct nicsim_config *cfg, struct nk_config_error *e) {
  char hint[256];
  if (nk_config_spacing8(cfg, MVNETA_DESC_SIZE, "mvneta", e) || nk_config_ring_min(cfg, 2, 3, "mvneta", e))
    return -1;
  for (int tx = 0; tx < 2; tx++) {
    const int64_t n = tx ? cfg->nic.tx_ring_size : cfg->nic.rx_ring_size;
    const int64_t max = tx ? MVNETA_MAX_TXD : MVNETA_MAX_RXD;
    const enum nc_key_id id = tx ? NC_KEY_nic_tx_ring_size : NC_KEY_nic_rx_ring_size;
    if (n <= max) continue;
    snprintf(hint, sizeof hint, "use at most %" PRId64 " (%s in mvneta.c)", max,
             tx ? "MVNETA_MAX_TXD" : "MVNETA_MAX_RXD");
    return nk_config_fail(e, &id, 1, hint, "%s = %" PRId64 " is more than an mvneta ring holds",
                          tx ? "nic.tx_ring_size" : "nic.rx_ring_size", n);
  }
  if (cfg->memory.size_mb > 4096)
    return nk_config_fail(e, NK_KEYS(NC_KEY_memory_size_mb), "use at most 4096",
                          "memory.size_mb = %" PRId64
                          ": mvneta descriptors hold 32-bit buffer addresses (at most 4096 MiB)",
                          cfg->memory.size_mb);
  /* driver.page_pool: false is the seed-era driver, true v5.5's page_pool
   * driver (which XDP and rx_sync used belong to). */
  if (cfg->driver.page_pool == NC_PAGE_POOL_FALSE && cfg->driver.xdp != NC_XDP_OFF)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_page_pool, NC_KEY_driver_xdp),
                          "set driver.page_pool: true (or auto), or driver.xdp: off",
                          "driver.page_pool = false with driver.xdp: mvneta's XDP path (v5.5) runs on page_pool "
                          "buffers");
  if (cfg->driver.page_pool == NC_PAGE_POOL_FALSE && cfg->driver.rx_sync == NC_RX_SYNC_USED)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_page_pool, NC_KEY_driver_rx_sync),
                          "set driver.page_pool: true (or auto), or driver.rx_sync: full",
                          "driver.rx_sync = used with driver.page_pool = false: syncing only the received length "
                          "for the device is the page_pool's dma_sync_size (v5.5); the seed-era driver unmaps and "
                          "maps the whole buffer");
  if (cfg->driver.page_pool == NC_PAGE_POOL_TRUE && cfg->driver.rx_sync == NC_RX_SYNC_FULL &&
      cfg->origin[NC_KEY_driver_rx_sync].layer != NC_LAYER_DEFAULT)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_sync, NC_KEY_driver_page_pool),
                          "remove driver.rx_sync (page_pool true implies used), or set driver.page_pool: auto",
                          "driver.rx_sync = full with driver.page_pool = true: v5.5's page_pool driver syncs only "
                          "the received length (dma_sync_size)");
  if (cfg->driver.page_pool == NC_PAGE_POOL_TRUE && cfg->driver.copybreak_bytes > 0)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_copybreak_bytes, NC_KEY_driver_page_pool),
                          "leave driver.copybreak_bytes at -1 (or 0), or set driver.page_pool: auto",
                          "driver.copybreak_bytes = %" PRId64 " with driver.page_pool = true: v5.5's page_pool "
                          "driver builds every skb on its page and has no copybreak",
                          cfg->driver.copybreak_bytes);
  if (cfg->driver.xdp != NC_XDP_OFF && cfg->driver.copybreak_bytes > 0)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_copybreak_bytes, NC_KEY_driver_xdp),
                          "leave driver.copybreak_bytes at -1 (or 0), or set driver.xdp: off",
                          "driver.copybreak_bytes = %" PRId64 " with driver.xdp: the XDP driver (v5.5) builds "
                          "every skb on its page and has no copybreak",
                          cfg->driver.copybreak_bytes);
  const int64_t headroom = cfg->driver.xdp != NC_XDP_OFF ? XDP_PACKET_HEADROOM : NET_SKB_PAD;
  const int64_t over = headroom + (int64_t)MVNETA_MH_SIZE;
  const int64_t need = over + (int64_t)nf_dma_len((uint32_t)cfg->traffic.frame_bytes);
  if (cfg->traffic.mode != NC_MODE_TX && need > cfg->driver.rx_buf_bytes) {
    snprintf(hint, sizeof hint,
             "set driver.rx_buf_bytes to at least %" PRId64 ", or traffic.frame_bytes to at most %" PRId64
             ", or traffic.mode: tx",
             need, cfg->driver.rx_buf_bytes - over + NF_FCS_LEN);
    return nk_config_fail(e, NK_KEYS(NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes), hint,
                          "traffic.frame_bytes = %" PRId64 " needs driver.rx_buf_bytes >= %" PRId64
                          " for mvneta (%s %" PRId64 " + Marvell header %u + frame without FCS); it is %" PRId64,
                          cfg->traffic.frame_bytes, need,
                          cfg->driver.xdp != NC_XDP_OFF ? "XDP_PACKET_HEADROOM" : "NET_SKB_PAD", headroom,
                          MVNETA_MH_SIZE, cfg->driver.rx_buf_bytes);
  }
  return 0;
}

/* mvneta_init + mvneta_rxq_init / mvneta_txq_init: rings, shadows, the pool
 * and a buffer in every RX slot (mvneta_rxq_fill). */
static int mvneta_alloc_rings(struct mvneta_port *pp, char *err, size_t errlen) {
  struct net_device *dev = pp->dev;
  struct mvneta_rx_queue *rxq = &pp->rxq;
  struct mvneta_tx_queue *txq = &pp->txq;
  rxq->descs_bytes = (size_t)rxq->size * pp->spacing;
  txq->descs_bytes = (size_t)txq->size * pp->spacing;
  rxq->descs = dma_alloc_coherent(dev, rxq->descs_bytes, &rxq->descs_phys);
  if (!rxq->descs) goto fail;
  txq->descs = dma_alloc_coherent(dev, txq->descs_bytes, &txq->descs_phys);
  if (!txq->descs) goto fail;
  /* XDP_TX frames hold their buffers until TX completion: Linux's pool then
   * takes fresh pages from the page allocator; here the pool has one more
   * buffer per TX descriptor (mvneta_create_page_pool: DMA_BIDIRECTIONAL
   * with a program, as XDP_TX has the device read the buffer). */
  const u32 pool_n = rxq->size + 1 + (pp->xdp_prog ? txq->size : 0);
  pp->pool = page_pool_create(dev, pool_n, pp->rx_buf_size, pp->dma_dir);
  if (pp->pool && pp->sync_used) page_pool_set_dma_sync_dev(pp->pool, pp->rx_offset, pp->rx_buf_size - pp->rx_offset);
  if (!pp->pool) goto fail;
  rxq->buf_virt_addr = calloc(rxq->size, sizeof *rxq->buf_virt_addr);
  rxq->buf_dma_addr = calloc(rxq->size, sizeof *rxq->buf_dma_addr);
  txq->tx_skb = calloc(txq->size, sizeof *txq->tx_skb);
  txq->tx_xdp = calloc(txq->size, sizeof *txq->tx_xdp);
  if (!rxq->buf_virt_addr || !rxq->buf_dma_addr || !txq->tx_skb || !txq->tx_xdp) {
    snprintf(err, errlen, "mvneta: out of host memory for ring shadows");
    return -1;
  }
  for (u32 i = 0; i < rxq->size; i++) { /* mvneta_rxq_fill */
    struct nk_page *page = page_pool_dev_alloc_pages(pp->pool);
    mvneta_rx_desc_fill(pp, i, page->dma + pp->rx_offset, page);
  }
  rxq->next_desc_to_proc = 0;
  rxq->tail = rxq->size - 1; /* all but one: tail == head would read as empty */
  txq->txq_put_index = txq->txq_get_index = txq->count = 0;
  return 0;
fail:
  snprintf(err, errlen, "mvneta: %s", nk_kernel_last_error(dev->k));
  return -1;
}

/* Programs rings, buffer size, coalescing and the interrupt, then enables RX and TX. */
static void mvneta_program(struct mvneta_port *pp) {
  const struct nicsim_config *cfg = pp->dev->cfg;
  void __iomem *io = pp->base;
  u64 msi = nk_msi_addr(pp->dev);
  writel(pp->spacing, io + GN_REG_DESC_SPACING);
  writel((u32)pp->rxq.descs_phys, io + GN_REG_RX_RING_LO); /* MVNETA_RXQ_BASE_ADDR_REG */
  writel((u32)(pp->rxq.descs_phys >> 32), io + GN_REG_RX_RING_HI);
  writel(pp->rxq.size, io + GN_REG_RX_RING_SIZE);
  writel(pp->rx_buf_size - pp->rx_offset, io + GN_REG_RX_BUF_SIZE); /* from buf_phys_addr on */
  writel((u32)pp->txq.descs_phys, io + GN_REG_TX_RING_LO);
  writel((u32)(pp->txq.descs_phys >> 32), io + GN_REG_TX_RING_HI);
  writel(pp->txq.size, io + GN_REG_TX_RING_SIZE);
  writel((u32)cfg->nic.irq_coal_frames, io + GN_REG_COAL_FRAMES);   /* mvneta_rx_pkts_coal_set */
  writel((u32)(cfg->nic.irq_coal_usecs + 0.5), io + GN_REG_COAL_USECS); /* mvneta_rx_time_coal_set */
  gn_coal_dir_program(io, 0, cfg); /* mvneta_rx_*_coal_set and mvneta_tx_done_pkts_coal_set apart */
  writel((u32)msi, io + GN_REG_MSI_ADDR_LO);
  writel((u32)(msi >> 32), io + GN_REG_MSI_ADDR_HI);
  writel(nk_msi_data(pp->dev, MVNETA_IRQ_VEC), io + GN_REG_MSI_DATA);
  writel(pp->rxq.tail, io + GN_REG_RX_TAIL); /* mvneta_rxq_non_occup_desc_add */
  writel(pp->txq.txq_put_index, io + GN_REG_TX_TAIL);
  writel(GN_CTRL_RX_EN | GN_CTRL_TX_EN, io + GN_REG_CTRL); /* mvneta_port_up */
}

/* probe (mvneta_probe + mvneta_open): rings and buffers, registers, IRQ, NAPI, then unmask. */
static int mvneta_probe(struct net_device *dev, char *err, size_t errlen) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  const struct nicsim_config *cfg = dev->cfg;
  if (nk_driver_probe_check(&nk_driver_mvneta, cfg, err, errlen) != 0) return -EINVAL;
  struct mvneta_port *pp = calloc(1, sizeof *pp);
  if (!pp) {
    snprintf(err, errlen, "mvneta: out of host memory");
    return -ENOMEM;
  }
  dev->priv = pp;
  pp->dev = dev;
  pp->base = nk_ioremap(dev);
  pp->spacing = (u32)cfg->nic.desc_spacing;
  pp->rx_buf_size = (u32)cfg->driver.rx_buf_bytes;
  /* driver.xdp: the program ndo_bpf would attach (mvneta_xdp_setup). v5.5
   * leaves XDP_PACKET_HEADROOM before the frame (rx_offset_correction) and
   * has no copybreak any more (build_skb on the page). */
  pp->xdp_prog = nk_xdp_prog(dev);
  pp->dma_dir = pp->xdp_prog ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;
  pp->rx_offset = pp->xdp_prog ? XDP_PACKET_HEADROOM : NET_SKB_PAD;
  pp->copybreak = cfg->driver.copybreak_bytes < 0 ? MVNETA_RX_COPYBREAK : (u32)cfg->driver.copybreak_bytes;
  /* driver.page_pool true: v5.5's page_pool driver (mvneta_rx_swbm rebuilt
   * on build_skb: no copybreak; the pool syncs dma_sync_size for the device). */
  const bool v55 = cfg->driver.page_pool == NC_PAGE_POOL_TRUE;
  if (pp->xdp_prog || v55) pp->copybreak = 0;
  pp->sync_used = cfg->driver.rx_sync == NC_RX_SYNC_USED || v55;
  pp->reuse_desc_reads = cfg->driver.reuse_desc_reads;
  pp->shadow_dma_addr = cfg->driver.shadow_dma_addr;
  pp->rxq.size = (u32)cfg->nic.rx_ring_size;
  pp->txq.size = (u32)cfg->nic.tx_ring_size;
  /* Linux stops at size - MVNETA_MAX_SKB_DESCS (room for a worst-case TSO
   * skb); here an skb takes one descriptor and the ring holds size - 1. */
  pp->txq.tx_stop_threshold = pp->txq.size - 1;
  pp->txq.tx_wake_threshold = pp->txq.tx_stop_threshold / 2;

  writel(GN_INT_ALL, pp->base + GN_REG_INT_MASK); /* quiet until NAPI is ready */
  int rc = -ENOMEM;
  if (mvneta_alloc_rings(pp, err, errlen) != 0) goto err_free;
  mvneta_program(pp);
  rc = request_irq(dev, MVNETA_IRQ_VEC, mvneta_isr, pp);
  if (rc != 0) {
    snprintf(err, errlen, "mvneta: request_irq(%d) failed (%d)", MVNETA_IRQ_VEC, rc);
    goto err_disable;
  }
  pp->irq_requested = true;
  netif_napi_add(dev, &pp->napi, mvneta_poll, (int)cfg->driver.napi_budget);
  napi_enable(&pp->napi);
  writel(0, pp->base + GN_REG_INT_MASK);
  return 0;

err_disable:
  writel(0, pp->base + GN_REG_CTRL);
err_free:
  mvneta_cleanup_rings(pp);
  free(pp);
  dev->priv = NULL;
  return rc;
}

/* remove (mvneta_stop): stops the device, then frees what probe allocated. */
static void mvneta_remove(struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  struct mvneta_port *pp = netdev_priv(dev);
  if (!pp) return;
  writel(0, pp->base + GN_REG_CTRL);
  writel(GN_INT_ALL, pp->base + GN_REG_INT_MASK);
  napi_disable(&pp->napi);
  netif_napi_del(&pp->napi);
  if (pp->irq_requested) free_irq(dev, MVNETA_IRQ_VEC);
  mvneta_cleanup_rings(pp);
  free(pp);
  dev->priv = NULL;
}

/* ---- invariants ----------------------------------------------------------------------- */

/* Ring indices and buffer accounting. Reads descriptors with plain loads
 * (not through the platform): a check is not driver work and costs nothing. */
static int mvneta_check(struct net_device *dev, char *err, size_t errlen) {
  const struct mvneta_port *pp = netdev_priv(dev);
  if (!pp) {
    snprintf(err, errlen, "mvneta: no driver state (probe failed or remove ran)");
    return -1;
  }
  const struct mvneta_rx_queue *rxq = &pp->rxq;
  const struct mvneta_tx_queue *txq = &pp->txq;
  const u32 rs = rxq->size, ts = txq->size;
  if (rxq->next_desc_to_proc >= rs || rxq->tail >= rs || txq->txq_put_index >= ts || txq->txq_get_index >= ts) {
    snprintf(err, errlen, "mvneta: ring index out of range (rx %u/%u, tx %u/%u, sizes %u/%u)",
             rxq->next_desc_to_proc, rxq->tail, txq->txq_put_index, txq->txq_get_index, rs, ts);
    return -1;
  }
  if (rxq->tail != nk_ring_prev(rxq->next_desc_to_proc, rs)) {
    snprintf(err, errlen, "mvneta: RX tail %u is not one behind the next descriptor to process %u "
             "(processed descriptors not handed back)", rxq->tail, rxq->next_desc_to_proc);
    return -1;
  }
  for (u32 i = 0; i < rs; i++) {
    const struct nk_page *page = rxq->buf_virt_addr[i];
    if (!page) {
      snprintf(err, errlen, "mvneta: RX slot %u has no buffer", i);
      return -1;
    }
    u32 addr;
    memcpy(&addr, &mvneta_rx_desc_at(pp, i)->buf_phys_addr, sizeof addr);
    if (addr != page->dma + pp->rx_offset || rxq->buf_dma_addr[i] != page->dma + pp->rx_offset) {
      snprintf(err, errlen, "mvneta: RX slot %u: descriptor %#x, shadow %#" PRIx64 ", buffer at %#" PRIx64
               " + %u", i, addr, (u64)rxq->buf_dma_addr[i], (u64)page->dma, pp->rx_offset);
      return -1;
    }
  }
  if (page_pool_in_use(pp->pool) != rs + pp->xdp_tx_pending) {
    snprintf(err, errlen, "mvneta: %u RX buffers out of the pool, expected %u (one per slot) + %u (XDP_TX in flight)",
             page_pool_in_use(pp->pool), rs, pp->xdp_tx_pending);
    return -1;
  }
  if (txq->count != nk_ring_used(txq->txq_put_index, txq->txq_get_index, ts)) {
    snprintf(err, errlen, "mvneta: TX count %u but %u descriptors between get %u and put %u", txq->count,
             nk_ring_used(txq->txq_put_index, txq->txq_get_index, ts), txq->txq_get_index, txq->txq_put_index);
    return -1;
  }
  u32 ring_bytes = 0, skbs = 0, xdp = 0;
  for (u32 i = 0; i < ts; i++) {
    bool busy = nk_ring_in_flight(i, txq->txq_put_index, txq->txq_get_index, ts);
    const bool held = txq->tx_skb[i] != NULL || txq->tx_xdp[i] != NULL;
    if (held != busy || (txq->tx_skb[i] && txq->tx_xdp[i])) {
      snprintf(err, errlen, "mvneta: TX slot %u %s but is %s (get %u, put %u)", i,
               !held ? "holds no skb or XDP buffer" : txq->tx_xdp[i] && txq->tx_skb[i] ? "holds an skb and an XDP buffer"
                                                                                   : "holds a frame",
               busy ? "in flight" : "free", txq->txq_get_index, txq->txq_put_index);
      return -1;
    }
    if (txq->tx_skb[i]) ring_bytes += txq->tx_skb[i]->len, skbs++;
    if (txq->tx_xdp[i]) xdp++;
  }
  if (xdp != pp->xdp_tx_pending) {
    snprintf(err, errlen, "mvneta: %u XDP_TX buffers on the TX ring but %u counted in flight", xdp,
             pp->xdp_tx_pending);
    return -1;
  }
  if (nk_netdev_bql_check(dev, 0, ring_bytes, "mvneta", err, errlen) != 0) return -1;
  if (nk_kernel_skbs_in_use(dev->k) != skbs) {
    snprintf(err, errlen, "mvneta: %u skbs allocated but %u skbs on the TX ring (leak or double free)",
             nk_kernel_skbs_in_use(dev->k), skbs);
    return -1;
  }
  if (netif_queue_stopped(dev) && txq->count <= txq->tx_wake_threshold) {
    snprintf(err, errlen, "mvneta: TX queue stopped with %u descriptors in flight (wake at %u): missed wake",
             txq->count, txq->tx_wake_threshold);
    return -1;
  }
  return 0;
}

const struct nk_driver nk_driver_mvneta = {
    .name = "mvneta",
    .probe = mvneta_probe,
    .remove = mvneta_remove,
    .ndo_start_xmit = mvneta_tx,
    .check = mvneta_check,
    .check_config = mvneta_check_config,
    .has_xdp = true,
    .has_copybreak = true,
    .has_rx_sync = true,
    .page_pool_choice = true, /* false: the seed era; true: v5.5's page_pool driver */
};
