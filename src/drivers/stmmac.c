/* stmmac.c: the stmmac (Synopsys DWMAC 4.x) driver's hot paths, after Linux
 * drivers/net/ethernet/stmicro/stmmac (stmmac_main.c, dwmac4_descs.c,
 * dwmac4_dma.c, dwmac4_core.c); docs/drivers/stmmac.md maps it function by
 * function and counts its accesses. */

/* Traffic on one RX and one TX queue (channel 0) of nicsim's common register
 * block. RX copies each frame from a page-pool buffer (at rx_buf_offset) into
 * a napi_alloc_skb, refills the ring after the loop with the IOC bit chosen
 * by the rx_coal_frames arithmetic, and relies on the RX watchdog (RIWT)
 * otherwise. TX sets IOC on every tx_coal_frames-th frame and arms a software
 * timer (hrtimer) for the rest. The ISR reads the safety, MAC, MTL and DMA
 * status registers as stmmac_interrupt does, for every queue the board sets
 * up (driver.stmmac_queues; the idle ones read as zero) and with the safety
 * package (nic.stmmac_asp). Each descriptor helper is a separate function,
 * as the dwmac4 callbacks are separate indirect calls in Linux: the compiler
 * cannot merge their loads and stores, so neither is merged here. */
#include "drivers/stmmac.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/ring.h"
#include "net/frame.h"

#define ETH_FCS_LEN 4
#define ETH_HLEN 14

enum { stmmac_good_frame = 0, stmmac_discard_frame = 1, stmmac_dma_own = 2, stmmac_rx_not_ls = 4 };
enum { stmmac_tx_done = 0, stmmac_tx_not_ls = 1, stmmac_tx_err = 2, stmmac_tx_dma_own = 4 };
enum { stmmac_handle_rx = 1, stmmac_handle_tx = 2 };

/* ---- dwmac4_descs.c: descriptor accessors -------------------------------- */

/* dwmac4_wrback_get_rx_status: one load of RDES3. */
static int dwmac4_wrback_get_rx_status(struct stmmac_dma_desc *p) {
  u32 rdes3 = nk_ld32(&p->des3);
  if (rdes3 & STMMAC_RDES3_OWN) return stmmac_dma_own;
  if (rdes3 & STMMAC_RDES3_CONTEXT_DESCRIPTOR) return stmmac_discard_frame;
  if (!(rdes3 & STMMAC_RDES3_LAST_DESCRIPTOR)) return stmmac_rx_not_ls;
  if (rdes3 & STMMAC_RDES3_ERROR_SUMMARY) return stmmac_discard_frame;
  return stmmac_good_frame;
}

/* dwmac4_wrback_get_rx_frame_len: RDES3 again (another call, another load). */
static u32 dwmac4_wrback_get_rx_frame_len(struct stmmac_dma_desc *p) {
  return nk_ld32(&p->des3) & STMMAC_RDES3_PACKET_SIZE_MASK;
}

/* dwmac4_set_addr: buffer 1 address in des0/des1. */
static void dwmac4_set_addr(struct stmmac_dma_desc *p, dma_addr_t addr) {
  nk_st32(&p->des0, (u32)addr);
  nk_st32(&p->des1, (u32)(addr >> 32));
}

/* dwmac4_set_sec_addr (v5.4): buffer 2 in des2/des3; 0 without split header. */
static void dwmac4_set_sec_addr(struct stmmac_dma_desc *p, dma_addr_t addr) {
  nk_st32(&p->des2, (u32)addr);
  nk_st32(&p->des3, (u32)(addr >> 32));
}

/* dwmac4_set_rx_owner: des3 |= OWN | BUF1V, and IOC unless disabled: a
 * read-modify-write of the uncached RDES3. */
static void dwmac4_set_rx_owner(struct stmmac_dma_desc *p, int disable_rx_ic) {
  u32 des3 = nk_ld32(&p->des3) | STMMAC_RDES3_OWN | STMMAC_RDES3_BUFFER1_VALID_ADDR;
  if (!disable_rx_ic) des3 |= STMMAC_RDES3_INT_ON_COMPLETION_EN;
  nk_st32(&p->des3, des3);
}

/* dwmac4_wrback_get_tx_status: one load of TDES3. */
static int dwmac4_wrback_get_tx_status(struct stmmac_dma_desc *p) {
  u32 tdes3 = nk_ld32(&p->des3);
  if (tdes3 & STMMAC_TDES3_OWN) return stmmac_tx_dma_own;
  if (!(tdes3 & STMMAC_TDES3_LAST_DESCRIPTOR)) return stmmac_tx_not_ls;
  if (tdes3 & STMMAC_TDES3_ERROR_SUMMARY) return stmmac_tx_err;
  return stmmac_tx_done;
}

/* dwmac4_set_tx_ic: des2 |= IOC (read-modify-write). */
static void dwmac4_set_tx_ic(struct stmmac_dma_desc *p) {
  nk_st32(&p->des2, nk_ld32(&p->des2) | STMMAC_TDES2_INTERRUPT_ON_COMPLETION);
}

/* dwmac4_rd_prepare_tx_desc: des2 |= len, then des3 with FD/LD/length and
 * OWN last, after a dma_wmb() on the first descriptor. */
static void dwmac4_rd_prepare_tx_desc(struct stmmac_dma_desc *p, int is_fs, u32 len, bool tx_own, bool ls,
                                      u32 tot_pkt_len) {
  u32 tdes3 = nk_ld32(&p->des3);
  nk_st32(&p->des2, nk_ld32(&p->des2) | (len & STMMAC_TDES2_BUFFER1_SIZE_MASK));
  tdes3 |= tot_pkt_len & STMMAC_TDES3_PACKET_SIZE_MASK;
  tdes3 = is_fs ? tdes3 | STMMAC_TDES3_FIRST_DESCRIPTOR : tdes3 & ~STMMAC_TDES3_FIRST_DESCRIPTOR;
  tdes3 = ls ? tdes3 | STMMAC_TDES3_LAST_DESCRIPTOR : tdes3 & ~STMMAC_TDES3_LAST_DESCRIPTOR;
  if (tx_own) tdes3 |= STMMAC_TDES3_OWN;
  if (is_fs && tx_own) dma_wmb(); /* every descriptor of the frame before the first one's OWN */
  nk_st32(&p->des3, tdes3);
}

/* dwmac4_release_tx_desc: zeroes the four words. */
static void dwmac4_release_tx_desc(struct stmmac_dma_desc *p) {
  nk_st32(&p->des0, 0);
  nk_st32(&p->des1, 0);
  nk_st32(&p->des2, 0);
  nk_st32(&p->des3, 0);
}

/* ---- DMA interrupt control (dwmac4_dma.c) ---------------------------------- */

/* dwmac4_enable_dma_irq (v5.4): every channel cause on. */
static void stmmac_enable_dma_irq(struct stmmac_priv *priv) {
  writel(0, priv->ioaddr + GN_REG_INT_MASK);
}

/* dwmac4_disable_dma_irq (v5.4): every channel cause off. */
static void stmmac_disable_dma_irq(struct stmmac_priv *priv) {
  writel(GN_INT_ALL, priv->ioaddr + GN_REG_INT_MASK);
}

/* ---- TX completion ------------------------------------------------------------ */

static void stmmac_tx_timer_arm(struct stmmac_priv *priv);

/* stmmac_tx_avail: free TX descriptors. */
static u32 stmmac_tx_avail(const struct stmmac_priv *priv) {
  return nk_ring_space(priv->cur_tx, priv->dirty_tx, priv->dma_tx_size);
}

/* stmmac_tx_clean: reclaims up to budget descriptors the DMA has handed
 * back, frees their skbs, wakes the queue, and re-arms the timer (10 us)
 * if frames are still in flight. Returns the descriptors cleaned. */
static int stmmac_tx_clean(struct stmmac_priv *priv, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *dev = priv->dev;
  /* Against the xmit on another CPU (HARD_TX_LOCK): the same queue lock. */
  __netif_tx_lock_bh(netdev_get_tx_queue(dev, 0));
  u32 entry = priv->dirty_tx;
  int count = 0;
  unsigned int bytes_compl = 0, pkts_compl = 0;
  while (entry != priv->cur_tx && count < budget) {
    struct stmmac_tx_info *ti = &priv->tx_info[entry];
    struct stmmac_dma_desc *p = stmmac_tx_desc(priv, entry);
    int status = dwmac4_wrback_get_tx_status(p);
    if (status & stmmac_tx_dma_own) break;
    count++;
    dma_rmb(); /* descriptor fields after the own bit */
    if (!(status & stmmac_tx_not_ls)) {
      if (status & stmmac_tx_err)
        dev->stats.tx_errors++;
      else
        dev->stats.tx_packets++;
    }
    if (ti->buf) {
      dma_unmap_single(dev, ti->buf, ti->len, DMA_TO_DEVICE);
      ti->buf = 0;
      ti->len = 0;
    }
    ti->last_segment = false;
    if (ti->skb) {
      pkts_compl++;
      bytes_compl += ti->skb->len;
      napi_consume_skb(ti->skb, budget);
      ti->skb = NULL;
    }
    dwmac4_release_tx_desc(p);
    entry = nk_ring_next(entry, priv->dma_tx_size);
  }
  priv->dirty_tx = entry;
  netdev_tx_completed_queue(netdev_get_tx_queue(dev, 0), pkts_compl, bytes_compl);
  if (netif_queue_stopped(dev) && stmmac_tx_avail(priv) > priv->dma_tx_size / 4) {
    netif_wake_queue(dev);
    priv->tx_wakes++;
  }
  /* We still have pending packets, let's call for a new scheduling. */
  if (priv->dirty_tx != priv->cur_tx) hrtimer_start(&priv->txtimer, us_to_ktime(STMMAC_TX_BUSY_RETRY_US), HRTIMER_MODE_REL);
  __netif_tx_unlock_bh(netdev_get_tx_queue(dev, 0));
  return count;
}

/* stmmac_tx_timer: the TX coalescing timer expired: schedule TX NAPI, or
 * retry in 10 us if it is already scheduled. */
static enum hrtimer_restart stmmac_tx_timer(struct hrtimer *t) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct stmmac_priv *priv = (struct stmmac_priv *)((char *)t - offsetof(struct stmmac_priv, txtimer));
  priv->tx_timer_fired++;
  if (napi_schedule_prep(&priv->tx_napi)) {
    __napi_schedule(&priv->tx_napi);
  } else {
    priv->tx_timer_busy++;
    hrtimer_start(&priv->txtimer, us_to_ktime(STMMAC_TX_BUSY_RETRY_US), HRTIMER_MODE_REL);
  }
  return HRTIMER_NORESTART;
}

/* stmmac_tx_timer_arm: (re)starts the TX coalescing timer. */
static void stmmac_tx_timer_arm(struct stmmac_priv *priv) {
  priv->tx_timer_arms++;
  hrtimer_start(&priv->txtimer, ns_to_ktime(priv->tx_coal_timer_ns), HRTIMER_MODE_REL);
}

/* ---- RX ------------------------------------------------------------------------ */

/* stmmac_rx_dirty: consumed slots waiting for a buffer (one slot stays empty). */
static u32 stmmac_rx_dirty(const struct stmmac_priv *priv) {
  return nk_ring_used(priv->cur_rx, priv->dirty_rx, priv->dma_rx_size) - 1;
}

/* The v4.14 to v5.3 refill of one slot (driver.page_pool false): a slot
 * whose skb went up gets a new one, __netdev_alloc_skb_ip_align of
 * dma_buf_sz (skb->data at NET_SKB_PAD + NET_IP_ALIGN), mapped for the
 * device over dma_buf_sz; a slot that kept its skb (an error frame) is
 * re-armed as it is. 0, or -ENOMEM (the refill stops there, as Linux's
 * "so for a while no zero-copy!" break). */
static int stmmac_rx_refill_skb(struct stmmac_priv *priv, struct stmmac_rx_buffer *buf) {
  struct net_device *dev = priv->dev;
  if (buf->skb) return 0;
  struct sk_buff *skb = netdev_alloc_skb(dev, priv->dma_buf_sz);
  if (!skb) return -ENOMEM;
  dma_addr_t addr = dma_map_single(dev, skb->data, priv->dma_buf_sz, DMA_FROM_DEVICE);
  if (dma_mapping_error(dev, addr)) {
    dev_kfree_skb_any(skb);
    return -ENOMEM;
  }
  buf->skb = skb;
  buf->addr = addr;
  return 0;
}

/* stmmac_rx_refill: gives every consumed slot a buffer again, with the IOC
 * bit decided by the rx_coal_frames arithmetic of the coalescing patch, then
 * moves the RX tail once. */
static void stmmac_rx_refill(struct stmmac_priv *priv) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *dev = priv->dev;
  u32 dirty = stmmac_rx_dirty(priv);
  u32 entry = priv->dirty_rx;
  while (dirty-- > 0) {
    struct stmmac_rx_buffer *buf = &priv->buf_pool[entry];
    struct stmmac_dma_desc *p = stmmac_rx_desc(priv, entry);
    if (!priv->use_page_pool) {
      if (stmmac_rx_refill_skb(priv, buf) != 0) break;
    } else {
      if (!buf->page) {
        buf->page = page_pool_dev_alloc_pages(priv->page_pool);
        if (!buf->page) break;
      }
      buf->addr = buf->page->dma + priv->rx_offset;
      /* Sync whole allocation to device. This will invalidate old data. */
      dma_sync_single_for_device(dev, buf->page->dma, priv->rx_alloc_bytes, DMA_FROM_DEVICE);
    }
    dwmac4_set_addr(p, buf->addr);
    dwmac4_set_sec_addr(p, 0);

    priv->rx_count_frames++;
    priv->rx_count_frames += priv->rx_coal_frames;
    if (priv->rx_count_frames > priv->rx_coal_frames) priv->rx_count_frames = 0;
    bool use_rx_wd = !priv->rx_coal_frames;
    use_rx_wd |= priv->use_riwt && priv->rx_count_frames;
    if (!use_rx_wd) priv->rx_set_ic_bit++;

    dma_wmb();
    dwmac4_set_rx_owner(p, use_rx_wd);
    entry = nk_ring_next(entry, priv->dma_rx_size);
  }
  priv->dirty_rx = entry;
  writel(priv->dirty_rx, priv->ioaddr + GN_REG_RX_TAIL); /* stmmac_set_rx_tail_ptr */
}

/* The v4.14 to v5.3 receive of a good frame of len bytes (FCS stripped)
 * with driver.page_pool false. On dwmac4 ("The zero-copy is always used for
 * all the sizes in case of GMAC4 because it needs to refill the used
 * descriptors, always": rx_copybreak is never tested) the slot's own skb
 * goes up: skb_put, then dma_unmap_single over the whole dma_buf_sz, which
 * on non-coherent DMA invalidates the buffer for the CPU. */
/* A frame that is not passed up: its page back to the pool (v5.4 on), or
 * its skb left in the slot for the refill to re-arm (v4.14 to v5.3). */
static void stmmac_rx_drop_buf(struct stmmac_priv *priv, struct stmmac_rx_buffer *buf) {
  if (!priv->use_page_pool) return;
  page_pool_recycle_direct(priv->page_pool, buf->page);
  buf->page = NULL;
}

static void stmmac_rx_skb(struct stmmac_priv *priv, struct stmmac_rx_buffer *buf, u32 len) {
  struct sk_buff *skb = buf->skb;
  buf->skb = NULL;
  priv->rx_zeroc++; /* rx_q->rx_zeroc_thresh++ */
  skb_put(skb, len);
  dma_unmap_single(priv->dev, buf->addr, priv->dma_buf_sz, DMA_FROM_DEVICE);
  buf->addr = 0;
  napi_gro_receive(&priv->rx_napi, skb);
}

/* stmmac_rx: up to limit frames: each copied from its buffer (at
 * rx_buf_offset) into a new skb, the page recycled, the skb passed up (or,
 * with driver.page_pool false, the slot's own skb passed up); then one
 * refill. Returns the frames consumed. */
static int stmmac_rx(struct stmmac_priv *priv, int limit) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *dev = priv->dev;
  int count = 0;
  while (count < limit) {
    u32 entry = priv->cur_rx;
    struct stmmac_rx_buffer *buf = &priv->buf_pool[entry];
    struct stmmac_dma_desc *p = stmmac_rx_desc(priv, entry);
    int status = dwmac4_wrback_get_rx_status(p);
    if (status & stmmac_dma_own) break;
    priv->cur_rx = nk_ring_next(entry, priv->dma_rx_size);
    count++;
    if (status != stmmac_good_frame) {
      /* Errors and frames spanning buffers (not produced with one buffer per
       * frame) are dropped: the page goes back to the pool (the skb stays
       * in its slot). */
      stmmac_rx_drop_buf(priv, buf);
      dev->stats.rx_errors++;
      continue;
    }
    /* stmmac_rx_buf1_len: first and last descriptor: min(dma_buf_sz, frame length). */
    u32 len = dwmac4_wrback_get_rx_frame_len(p);
    if (len > priv->dma_buf_sz) len = priv->dma_buf_sz;
    /* ACS is disabled; strip the FCS manually. */
    if (len < ETH_HLEN + ETH_FCS_LEN) {
      stmmac_rx_drop_buf(priv, buf);
      dev->stats.rx_errors++;
      continue;
    }
    len -= ETH_FCS_LEN;
    if (!priv->use_page_pool) {
      stmmac_rx_skb(priv, buf, len);
      continue;
    }
    dma_sync_single_for_cpu(dev, buf->addr, len, DMA_FROM_DEVICE);
    struct sk_buff *skb = napi_alloc_skb(&priv->rx_napi, len);
    if (!skb) {
      dev->stats.rx_dropped++;
      page_pool_recycle_direct(priv->page_pool, buf->page);
      buf->page = NULL;
      continue;
    }
    /* skb_copy_to_linear_data from page_address(page) + page_offset: this
     * copy's relative alignment is what the RX alignment patch changes. */
    nk_memcpy(skb_put(skb, len), (u8 *)buf->page->addr + priv->rx_offset, len);
    /* Data payload copied into skb, page ready for recycle. */
    page_pool_recycle_direct(priv->page_pool, buf->page);
    buf->page = NULL;
    napi_gro_receive(&priv->rx_napi, skb);
  }
  stmmac_rx_refill(priv);
  return count;
}

/* ---- NAPI and IRQ ------------------------------------------------------------------ */

/* stmmac_napi_poll_rx: RX, and the DMA interrupts back on when done. */
static int stmmac_napi_poll_rx(struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct stmmac_priv *priv = netdev_priv(napi->dev);
  int work_done = stmmac_rx(priv, budget);
  if (work_done < budget && napi_complete_done(napi, work_done)) stmmac_enable_dma_irq(priv);
  return work_done;
}

/* stmmac_napi_poll_tx: TX completions (the whole ring), then the tail
 * again if frames are still pending ("force transmission restart"). */
static int stmmac_napi_poll_tx(struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct stmmac_priv *priv = netdev_priv(napi->dev);
  int work_done = stmmac_tx_clean(priv, (int)priv->dma_tx_size);
  if (work_done > budget) work_done = budget;
  if (work_done < budget) napi_complete_done(napi, work_done);
  /* The tail the last xmit published (tx_q->tx_tail_addr), not cur_tx: an
   * xmit on another CPU may have taken the next entry and not set its OWN yet. */
  if (priv->cur_tx != priv->dirty_tx) writel(priv->tx_tail, priv->ioaddr + GN_REG_TX_TAIL);
  return work_done;
}

/* dwmac4_irq_status: the MAC's interrupt status and enable (two reads). */
static void dwmac4_irq_status(struct stmmac_priv *priv) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  u32 intr_status = readl(priv->ioaddr + STMMAC_GMAC_INT_STATUS);
  u32 intr_enable = readl(priv->ioaddr + STMMAC_GMAC_INT_EN);
  (void)(intr_status & intr_enable); /* no MAC event (PMT, LPI, PCS) is modelled */
}

/* dwmac4_irq_mtl_status: the MTL interrupt status, read once per queue
 * (MTL_INT_STATUS; the queue's own status only if its bit is set, which no
 * modelled event does). */
static void dwmac4_irq_mtl_status(struct stmmac_priv *priv, u32 queue) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  (void)queue;
  (void)readl(priv->ioaddr + STMMAC_MTL_INT_STATUS);
}

/* dwmac5_safety_feat_irq_status: with the safety package (dma_cap.asp), the
 * MTL and DMA safety interrupt status (two reads); none is ever set here. */
static void stmmac_safety_feat_interrupt(struct stmmac_priv *priv) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  if (!priv->asp) return; /* -EINVAL: no safety package */
  (void)readl(priv->ioaddr + STMMAC_MTL_SAFETY_INT_STATUS);
  (void)readl(priv->ioaddr + STMMAC_DMA_SAFETY_INT_STATUS);
}

/* dwmac4_dma_interrupt: channel chan's DMA status and enable (two reads),
 * the handled causes written back to clear them. Returns handle_rx /
 * handle_tx. */
static int dwmac4_dma_interrupt(struct stmmac_priv *priv, u32 chan) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  u32 intr_status = readl(priv->ioaddr + STMMAC_DMA_CHAN_STATUS(chan));
  u32 intr_en = ~readl(priv->ioaddr + STMMAC_DMA_CHAN_INTR_ENA(chan)) & GN_INT_ALL;
  int ret = 0;
  if (intr_status) {
    priv->normal_irq_n++;
    if (intr_status & GN_INT_RX) {
      priv->rx_normal_irq_n++;
      ret |= stmmac_handle_rx;
    }
    if (intr_status & GN_INT_TX) {
      priv->tx_normal_irq_n++;
      ret |= stmmac_handle_tx;
    }
  }
  writel(intr_status & intr_en, priv->ioaddr + STMMAC_DMA_CHAN_STATUS(chan));
  return ret;
}

/* stmmac_napi_check: RX work masks the channel's interrupts and schedules
 * RX NAPI (and TX with it); TX work schedules TX NAPI. Only channel 0
 * carries traffic (and has NAPI contexts); the others are read and found
 * idle. */
static int stmmac_napi_check(struct stmmac_priv *priv, u32 chan) {
  int status = dwmac4_dma_interrupt(priv, chan);
  if (chan != 0) return status;
  if ((status & stmmac_handle_rx) && napi_schedule_prep(&priv->rx_napi)) {
    stmmac_disable_dma_irq(priv);
    __napi_schedule(&priv->rx_napi);
    status |= stmmac_handle_tx;
  }
  if (status & stmmac_handle_tx) napi_schedule(&priv->tx_napi);
  return status;
}

/* stmmac_dma_interrupt: every DMA channel set up (plat->rx/tx_queues_to_use). */
static void stmmac_dma_interrupt(struct stmmac_priv *priv) {
  for (u32 chan = 0; chan < priv->queues; chan++) stmmac_napi_check(priv, chan);
}

/* stmmac_interrupt (v5.4): the safety package's status, the MAC's own
 * interrupt status, the MTL status once per queue, then every DMA channel:
 * 2 + queues + 2 x queues MMIO reads, plus 2 with the safety package. */
static irqreturn_t stmmac_interrupt(int irq, void *dev_id) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  struct stmmac_priv *priv = dev_id;
  (void)irq;
  stmmac_safety_feat_interrupt(priv);
  dwmac4_irq_status(priv);
  for (u32 queue = 0; queue < priv->queues; queue++) dwmac4_irq_mtl_status(priv, queue);
  stmmac_dma_interrupt(priv);
  return IRQ_HANDLED;
}

/* ---- TX ---------------------------------------------------------------------------- */

/* stmmac_xmit (linear skb, no TSO): IOC per tx_coal_frames, else the TX
 * timer; the descriptor filled with OWN last; the TX tail moved. */
static netdev_tx_t stmmac_xmit(struct sk_buff *skb, struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct stmmac_priv *priv = netdev_priv(dev);
  const u32 nfrags = 0; /* nicsim's skbs are linear */
  if (stmmac_tx_avail(priv) < nfrags + 1) {
    if (!netif_queue_stopped(dev)) {
      netif_stop_queue(dev); /* "Tx Ring full when queue awake": a hard error in Linux */
      priv->tx_stops++;
    }
    return NETDEV_TX_BUSY;
  }
  u32 len = skb->len;
  if (len > STMMAC_TDES2_BUFFER1_SIZE_MASK) {
    dev->stats.tx_errors++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  u32 entry = priv->cur_tx;
  const u32 first_entry = entry;
  struct stmmac_dma_desc *desc = stmmac_tx_desc(priv, entry);
  struct stmmac_dma_desc *first = desc;

  /* Only the last descriptor gets to point to the skb. */
  priv->tx_info[entry].skb = skb;

  /* Manage tx mitigation: IOC on the frame's last descriptor every
   * tx_coal_frames, counted per packet (after the patch) or per descriptor. */
  priv->tx_count_frames += priv->tx_coal_per_packet ? 1 : nfrags + 1;
  if (priv->tx_coal_frames > priv->tx_count_frames) {
    stmmac_tx_timer_arm(priv);
  } else {
    priv->tx_count_frames = 0;
    dwmac4_set_tx_ic(desc);
    priv->tx_set_ic_bit++;
  }
  entry = nk_ring_next(entry, priv->dma_tx_size);
  priv->cur_tx = entry;
  if (stmmac_tx_avail(priv) <= STMMAC_MAX_SKB_FRAGS + 1) {
    netif_stop_queue(dev);
    priv->tx_stops++;
  }
  dev->stats.tx_bytes += len;

  dma_addr_t des = dma_map_single(dev, skb->data, len, DMA_TO_DEVICE);
  if (dma_mapping_error(dev, des)) {
    /* dma_map_err: the descriptor was never given to the device. */
    dev->stats.tx_dropped++;
    dev->stats.tx_bytes -= len;
    priv->tx_info[first_entry].skb = NULL;
    dwmac4_release_tx_desc(first);
    priv->cur_tx = first_entry;
    dev_kfree_skb_any(skb);
    if (netif_queue_stopped(dev) && stmmac_tx_avail(priv) > STMMAC_MAX_SKB_FRAGS + 1) netif_wake_queue(dev);
    return NETDEV_TX_OK;
  }
  priv->tx_info[first_entry].buf = des;
  priv->tx_info[first_entry].len = len;
  priv->tx_info[first_entry].last_segment = true;
  dwmac4_set_addr(first, des);
  /* Prepare the first descriptor setting the OWN bit too. */
  dwmac4_rd_prepare_tx_desc(first, 1, len, true, true, len);
  /* The own bit must be the latest setting done when preparing the
   * descriptor, and then a barrier before granting the DMA engine. */
  wmb();
  netdev_tx_sent_queue(netdev_get_tx_queue(dev, 0), len);
  priv->tx_tail = priv->cur_tx;
  writel(priv->tx_tail, priv->ioaddr + GN_REG_TX_TAIL); /* stmmac_set_tx_tail_ptr */
  return NETDEV_TX_OK;
}

/* ---- probe / remove -------------------------------------------------------------------- */

/* Frees whatever of rings, buffers and bookkeeping exists (remove and the
 * probe error path). Frames still on the TX ring count as tx_dropped. */
static void stmmac_free_rings(struct stmmac_priv *priv) {
  struct net_device *dev = priv->dev;
  if (priv->tx_info) {
    for (u32 i = 0; i < priv->dma_tx_size; i++) {
      struct stmmac_tx_info *ti = &priv->tx_info[i];
      if (ti->buf) dma_unmap_single(dev, ti->buf, ti->len, DMA_TO_DEVICE);
      if (ti->skb) {
        dev_kfree_skb_any(ti->skb);
        dev->stats.tx_dropped++;
      }
      *ti = (struct stmmac_tx_info){NULL, 0, 0, false};
    }
    free(priv->tx_info);
    priv->tx_info = NULL;
    netdev_tx_reset_queue(netdev_get_tx_queue(dev, 0));
  }
  if (priv->buf_pool) {
    for (u32 i = 0; i < priv->dma_rx_size; i++) {
      struct stmmac_rx_buffer *b = &priv->buf_pool[i];
      if (b->page) page_pool_recycle_direct(priv->page_pool, b->page);
      if (b->skb) { /* stmmac_free_rx_buffers (v4.14) */
        dma_unmap_single(dev, b->addr, priv->dma_buf_sz, DMA_FROM_DEVICE);
        dev_kfree_skb_any(b->skb);
      }
    }
    free(priv->buf_pool);
    priv->buf_pool = NULL;
  }
  if (priv->page_pool) page_pool_destroy(priv->page_pool);
  priv->page_pool = NULL;
  if (priv->dma_tx) dma_free_coherent(dev, priv->tx_ring_bytes, priv->dma_tx, priv->dma_tx_phy);
  if (priv->dma_rx) dma_free_coherent(dev, priv->rx_ring_bytes, priv->dma_rx, priv->dma_rx_phy);
  priv->dma_tx = priv->dma_rx = NULL;
}

/* Checks the config against what the driver and the dwmac4 descriptors express. */
static int stmmac_check_config(const struct nicsim_config *cfg, struct nk_config_error *e) {
  char hint[256];
  if (cfg->nic.desc_spacing != (int64_t)STMMAC_DESC_SIZE) {
    snprintf(hint, sizeof hint, "use %u: stmmac rings are packed (DMA_BUS_MODE descriptor skip length 0)",
             STMMAC_DESC_SIZE);
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_desc_spacing), hint,
                          "nic.desc_spacing = %" PRId64 ": stmmac's normal descriptors are packed, %u bytes apart",
                          cfg->nic.desc_spacing, STMMAC_DESC_SIZE);
  }
  /* stmmac_set_ringparam: a power of two from DMA_MIN_RX_SIZE to DMA_MAX_RX_SIZE. */
  for (int tx = 0; tx < 2; tx++) {
    const int64_t n = tx ? cfg->nic.tx_ring_size : cfg->nic.rx_ring_size;
    const enum nc_key_id id = tx ? NC_KEY_nic_tx_ring_size : NC_KEY_nic_rx_ring_size;
    if (n >= STMMAC_DMA_MIN_RING && n <= STMMAC_DMA_MAX_RING && (n & (n - 1)) == 0) continue;
    int64_t near = STMMAC_DMA_MIN_RING;
    while (near < n && near < STMMAC_DMA_MAX_RING) near <<= 1;
    if (near > n && near > STMMAC_DMA_MIN_RING && n - near / 2 < near - n) near /= 2; /* the nearer one */
    snprintf(hint, sizeof hint,
             "use a power of two from %d to %d (DMA_MIN/MAX_RX_SIZE in stmmac_ethtool.c), e.g. %" PRId64,
             STMMAC_DMA_MIN_RING, STMMAC_DMA_MAX_RING, near);
    return nk_config_fail(e, &id, 1, hint, "%s = %" PRId64 " is not an stmmac ring size",
                          tx ? "nic.tx_ring_size" : "nic.rx_ring_size", n);
  }
  if (!nk_driver_page_pool(&nk_driver_stmmac, cfg)) {
    /* v4.14 to v5.3: the frame starts at skb->data of an skb from
     * __netdev_alloc_skb_ip_align, NET_SKB_PAD + NET_IP_ALIGN into it. */
    const int64_t at = NET_SKB_PAD + cfg->cpu.net_ip_align_bytes;
    if (cfg->driver.rx_buf_offset != at && cfg->origin[NC_KEY_driver_rx_buf_offset].layer != NC_LAYER_DEFAULT) {
      snprintf(hint, sizeof hint, "set driver.rx_buf_offset: %" PRId64 ", or remove it, or set driver.page_pool: auto",
               at);
      return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_buf_offset, NC_KEY_driver_page_pool), hint,
                            "driver.rx_buf_offset = %" PRId64 " with driver.page_pool = false: each RX buffer is "
                            "an skb's data, NET_SKB_PAD + NET_IP_ALIGN = %" PRId64 " bytes into it (cpu.net_ip_align_bytes "
                            "= %" PRId64 ")",
                            cfg->driver.rx_buf_offset, at, cfg->cpu.net_ip_align_bytes);
    }
  }
  const int64_t rx_off = nk_driver_page_pool(&nk_driver_stmmac, cfg) ? cfg->driver.rx_buf_offset
                                                                     : NET_SKB_PAD + cfg->cpu.net_ip_align_bytes;
  const int64_t sz = cfg->driver.rx_buf_bytes - rx_off;
  if (sz < 256) {
    if (nk_driver_page_pool(&nk_driver_stmmac, cfg))
      snprintf(hint, sizeof hint,
               "set driver.rx_buf_bytes to at least %" PRId64 ", or driver.rx_buf_offset to at most %" PRId64,
               rx_off + 256, cfg->driver.rx_buf_bytes - 256);
    else /* the offset is the skb's headroom: only the buffer can grow */
      snprintf(hint, sizeof hint, "set driver.rx_buf_bytes to at least %" PRId64, rx_off + 256);
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_buf_bytes, NC_KEY_driver_rx_buf_offset), hint,
                          "driver.rx_buf_bytes = %" PRId64 " leaves %" PRId64
                          " bytes after driver.rx_buf_offset = %" PRId64 ": stmmac needs at least 256",
                          cfg->driver.rx_buf_bytes, sz, rx_off);
  }
  uint32_t dma_buf_sz = (uint32_t)(sz & ~(int64_t)7);
  if (dma_buf_sz > STMMAC_RDES3_PACKET_SIZE_MASK) dma_buf_sz = STMMAC_RDES3_PACKET_SIZE_MASK & ~7u;
  const uint32_t need = nf_dma_len((uint32_t)cfg->traffic.frame_bytes);
  if (cfg->traffic.mode != NC_MODE_TX && need > dma_buf_sz) {
    snprintf(hint, sizeof hint,
             "set driver.rx_buf_bytes to at least %" PRId64 " (%s + the frame, rounded up to 8), "
             "or traffic.frame_bytes to at most %u, or traffic.mode: tx",
             rx_off + (int64_t)((need + 7u) & ~7u),
             nk_driver_page_pool(&nk_driver_stmmac, cfg) ? "driver.rx_buf_offset" : "the skb's headroom",
             dma_buf_sz + NF_FCS_LEN);
    return nk_config_fail(e,
                          NK_KEYS(NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes, NC_KEY_driver_rx_buf_offset),
                          hint,
                          "traffic.frame_bytes = %" PRId64 " needs %u bytes of RX buffer but driver.rx_buf_bytes = "
                          "%" PRId64 " minus driver.rx_buf_offset = %" PRId64
                          " leaves %u: the stmmac model takes one buffer per frame",
                          cfg->traffic.frame_bytes, need, cfg->driver.rx_buf_bytes, rx_off,
                          dma_buf_sz);
  }
  if (cfg->traffic.mode != NC_MODE_RX && need > STMMAC_TDES2_BUFFER1_SIZE_MASK) {
    snprintf(hint, sizeof hint, "set traffic.frame_bytes to at most %u, or traffic.mode: rx",
             STMMAC_TDES2_BUFFER1_SIZE_MASK + NF_FCS_LEN);
    return nk_config_fail(e, NK_KEYS(NC_KEY_traffic_frame_bytes), hint,
                          "traffic.frame_bytes = %" PRId64 ": a TX buffer holds at most %u bytes (TDES2)",
                          cfg->traffic.frame_bytes, STMMAC_TDES2_BUFFER1_SIZE_MASK);
  }
  return 0;
}

/* init_dma_rx_desc_rings / alloc_dma_desc_resources: rings, page pool and
 * bookkeeping; every RX slot but one gets a buffer. */
static int stmmac_alloc_rings(struct stmmac_priv *priv, char *err, size_t errlen) {
  struct net_device *dev = priv->dev;
  priv->rx_ring_bytes = (size_t)priv->dma_rx_size * STMMAC_DESC_SIZE;
  priv->tx_ring_bytes = (size_t)priv->dma_tx_size * STMMAC_DESC_SIZE;
  priv->dma_rx = dma_alloc_coherent(dev, priv->rx_ring_bytes, &priv->dma_rx_phy);
  if (!priv->dma_rx) goto fail;
  priv->dma_tx = dma_alloc_coherent(dev, priv->tx_ring_bytes, &priv->dma_tx_phy);
  if (!priv->dma_tx) goto fail;
  /* pp_params.pool_size = DMA_RX_SIZE */
  if (priv->use_page_pool) {
    priv->page_pool = page_pool_create(dev, priv->dma_rx_size, priv->rx_alloc_bytes, DMA_FROM_DEVICE);
    if (!priv->page_pool) goto fail;
  }
  priv->buf_pool = calloc(priv->dma_rx_size, sizeof *priv->buf_pool);
  priv->tx_info = calloc(priv->dma_tx_size, sizeof *priv->tx_info);
  if (!priv->buf_pool || !priv->tx_info) {
    snprintf(err, errlen, "stmmac: out of host memory for ring bookkeeping");
    return -1;
  }
  /* stmmac_init_rx_buffers for slots 0 .. size-2; IOC as the refill decides. */
  priv->cur_rx = 0;
  priv->dirty_rx = priv->dma_rx_size - 1;
  for (u32 i = 0; i + 1 < priv->dma_rx_size; i++) {
    struct stmmac_rx_buffer *buf = &priv->buf_pool[i];
    struct stmmac_dma_desc *p = stmmac_rx_desc(priv, i);
    if (!priv->use_page_pool) {
      if (stmmac_rx_refill_skb(priv, buf) != 0) goto fail; /* stmmac_init_rx_buffers */
    } else {
      buf->page = page_pool_dev_alloc_pages(priv->page_pool);
      buf->addr = buf->page->dma + priv->rx_offset;
    }
    dwmac4_set_addr(p, buf->addr);
    dwmac4_set_sec_addr(p, 0);
    dwmac4_set_rx_owner(p, priv->use_riwt); /* stmmac_init_rx_desc: the watchdog if used */
  }
  priv->cur_tx = priv->dirty_tx = 0;
  dma_wmb(); /* descriptors are in memory before the device is told where they are */
  return 0;
fail:
  snprintf(err, errlen, "stmmac: %s", nk_kernel_last_error(dev->k));
  return -1;
}

/* stmmac_hw_setup: rings, buffer size, RX watchdog, MSI; then the DMA on. */
static void stmmac_hw_setup(struct stmmac_priv *priv) {
  void __iomem *io = priv->ioaddr;
  u64 msi = nk_msi_addr(priv->dev);
  writel(STMMAC_DESC_SIZE, io + GN_REG_DESC_SPACING);
  writel((u32)priv->dma_rx_phy, io + GN_REG_RX_RING_LO);
  writel((u32)(priv->dma_rx_phy >> 32), io + GN_REG_RX_RING_HI);
  writel(priv->dma_rx_size, io + GN_REG_RX_RING_SIZE);
  writel(priv->dma_buf_sz, io + GN_REG_RX_BUF_SIZE); /* dwmac4_set_bfsize: RBSZ */
  writel((u32)priv->dma_tx_phy, io + GN_REG_TX_RING_LO);
  writel((u32)(priv->dma_tx_phy >> 32), io + GN_REG_TX_RING_HI);
  writel(priv->dma_tx_size, io + GN_REG_TX_RING_SIZE);
  if (priv->use_riwt) writel(priv->rx_riwt, io + GN_REG_RX_WATCHDOG); /* stmmac_rx_watchdog */
  writel((u32)msi, io + GN_REG_MSI_ADDR_LO);
  writel((u32)(msi >> 32), io + GN_REG_MSI_ADDR_HI);
  writel(nk_msi_data(priv->dev, STMMAC_IRQ_VEC), io + GN_REG_MSI_DATA);
  writel(priv->dirty_rx, io + GN_REG_RX_TAIL);
  priv->tx_tail = priv->cur_tx;
  writel(priv->tx_tail, io + GN_REG_TX_TAIL);
  writel(GN_CTRL_RX_EN | GN_CTRL_TX_EN, io + GN_REG_CTRL); /* stmmac_start_all_dma */
}

/* probe (stmmac_dvr_probe + stmmac_open): rings and buffers, registers,
 * IRQ, NAPI and the TX timer, then the DMA interrupts on. */
static int stmmac_probe(struct net_device *dev, char *err, size_t errlen) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  const struct nicsim_config *cfg = dev->cfg;
  if (nk_driver_probe_check(&nk_driver_stmmac, cfg, err, errlen) != 0) return -EINVAL;
  struct stmmac_priv *priv = calloc(1, sizeof *priv);
  if (!priv) {
    snprintf(err, errlen, "stmmac: out of host memory");
    return -ENOMEM;
  }
  dev->priv = priv;
  priv->dev = dev;
  priv->ioaddr = nk_ioremap(dev);
  priv->rx_offset = (u32)cfg->driver.rx_buf_offset;
  priv->rx_coal_frames = (u32)cfg->driver.rx_coal_frames;
  priv->rx_riwt = (u32)cfg->driver.rx_riwt;
  priv->tx_coal_frames = (u32)cfg->driver.tx_coal_frames;
  priv->tx_coal_timer_ns = (u64)(cfg->driver.tx_coal_timer_us * 1000.0 + 0.5);
  priv->tx_coal_per_packet = cfg->driver.tx_coal_per_packet;
  priv->queues = (u32)cfg->driver.stmmac_queues;
  priv->asp = cfg->nic.stmmac_asp;
  priv->use_riwt = true; /* dwmac4 has the RX watchdog ("snps,riwt-off" not set) */
  priv->dma_rx_size = (u32)cfg->nic.rx_ring_size;
  priv->dma_tx_size = (u32)cfg->nic.tx_ring_size;
  priv->rx_alloc_bytes = (u32)cfg->driver.rx_buf_bytes;
  priv->use_page_pool = nk_driver_page_pool(&nk_driver_stmmac, cfg);
  /* Without a page_pool the frame lies where __netdev_alloc_skb_ip_align
   * puts skb->data (stmmac_check_config holds driver.rx_buf_offset to it). */
  if (!priv->use_page_pool) priv->rx_offset = NET_SKB_PAD + NET_IP_ALIGN;
  u32 sz = priv->rx_alloc_bytes - priv->rx_offset;
  priv->dma_buf_sz = sz & ~7u;
  if (priv->dma_buf_sz > STMMAC_RDES3_PACKET_SIZE_MASK) priv->dma_buf_sz = STMMAC_RDES3_PACKET_SIZE_MASK & ~7u;

  stmmac_disable_dma_irq(priv); /* quiet until NAPI is ready */
  int rc = -ENOMEM;
  if (stmmac_alloc_rings(priv, err, errlen) != 0) goto err_free;
  hrtimer_init(&priv->txtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
  priv->txtimer.function = stmmac_tx_timer;
  priv->timer_ready = true;
  stmmac_hw_setup(priv);
  rc = request_irq(dev, STMMAC_IRQ_VEC, stmmac_interrupt, priv);
  if (rc != 0) {
    snprintf(err, errlen, "stmmac: request_irq(%d) failed (%d)", STMMAC_IRQ_VEC, rc);
    goto err_disable;
  }
  priv->irq_requested = true;
  netif_napi_add(dev, &priv->rx_napi, stmmac_napi_poll_rx, (int)cfg->driver.napi_budget);
  netif_napi_add(dev, &priv->tx_napi, stmmac_napi_poll_tx, (int)cfg->driver.napi_budget);
  priv->napi_added = true;
  napi_enable(&priv->rx_napi);
  napi_enable(&priv->tx_napi);
  stmmac_enable_dma_irq(priv);
  return 0;

err_disable:
  writel(0, priv->ioaddr + GN_REG_CTRL);
err_free:
  if (priv->timer_ready) hrtimer_cancel(&priv->txtimer);
  stmmac_free_rings(priv);
  free(priv);
  dev->priv = NULL;
  return rc;
}

/* remove (stmmac_release): DMA off, interrupts off, NAPI and the timer
 * stopped, then everything probe allocated is freed. */
static void stmmac_remove(struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  struct stmmac_priv *priv = netdev_priv(dev);
  if (!priv) return;
  writel(0, priv->ioaddr + GN_REG_CTRL);
  stmmac_disable_dma_irq(priv);
  if (priv->napi_added) {
    napi_disable(&priv->rx_napi);
    napi_disable(&priv->tx_napi);
    netif_napi_del(&priv->rx_napi);
    netif_napi_del(&priv->tx_napi);
  }
  if (priv->timer_ready) hrtimer_cancel(&priv->txtimer);
  if (priv->irq_requested) free_irq(dev, STMMAC_IRQ_VEC);
  stmmac_free_rings(priv);
  free(priv);
  dev->priv = NULL;
}

/* ---- invariants ----------------------------------------------------------------------- */

/* Ring indices and buffer accounting, with plain loads (a check costs nothing). */
static int stmmac_check(struct net_device *dev, char *err, size_t errlen) {
  const struct stmmac_priv *priv = netdev_priv(dev);
  if (!priv) {
    snprintf(err, errlen, "stmmac: no driver state (probe failed or remove ran)");
    return -1;
  }
  const u32 rs = priv->dma_rx_size, ts = priv->dma_tx_size;
  if (priv->cur_rx >= rs || priv->dirty_rx >= rs || priv->cur_tx >= ts || priv->dirty_tx >= ts) {
    snprintf(err, errlen, "stmmac: ring index out of range (rx %u/%u, tx %u/%u, sizes %u/%u)", priv->cur_rx,
             priv->dirty_rx, priv->cur_tx, priv->dirty_tx, rs, ts);
    return -1;
  }
  if (priv->dirty_rx != nk_ring_prev(priv->cur_rx, rs)) {
    snprintf(err, errlen, "stmmac: RX refill index %u is not one behind the clean index %u", priv->dirty_rx,
             priv->cur_rx);
    return -1;
  }
  for (u32 i = 0; i < rs; i++) {
    const struct stmmac_rx_buffer *b = &priv->buf_pool[i];
    const bool holds = priv->use_page_pool ? b->page != NULL : b->skb != NULL;
    if (holds != (i != priv->dirty_rx) || (priv->use_page_pool ? b->skb != NULL : b->page != NULL)) {
      snprintf(err, errlen, "stmmac: RX slot %u %s %s (empty slot is %u)", i, holds ? "holds" : "lacks",
               priv->use_page_pool ? "a page" : "an skb", priv->dirty_rx);
      return -1;
    }
    if (!holds) continue;
    struct stmmac_dma_desc d;
    memcpy(&d, stmmac_rx_desc(priv, i), sizeof d);
    if (!(d.des3 & STMMAC_RDES3_OWN)) continue; /* written back, waiting for stmmac_rx */
    u64 addr = d.des0 | ((u64)d.des1 << 32);
    if (addr != b->addr || (b->page && addr != b->page->dma + priv->rx_offset)) {
      snprintf(err, errlen, "stmmac: RX descriptor %u points at %#" PRIx64 " but its buffer is at %#" PRIx64, i, addr,
               (u64)b->addr);
      return -1;
    }
  }
  if (priv->use_page_pool && page_pool_in_use(priv->page_pool) != rs - 1) {
    snprintf(err, errlen, "stmmac: %u RX buffers out of the pool, expected %u (one per filled slot)",
             page_pool_in_use(priv->page_pool), rs - 1);
    return -1;
  }
  u32 in_flight = nk_ring_used(priv->cur_tx, priv->dirty_tx, ts);
  u32 ring_bytes = 0;
  for (u32 i = 0; i < ts; i++) {
    bool busy = nk_ring_in_flight(i, priv->cur_tx, priv->dirty_tx, ts);
    if ((priv->tx_info[i].skb != NULL) != busy) {
      snprintf(err, errlen, "stmmac: TX slot %u %s an skb but is %s (clean %u, next %u)", i,
               priv->tx_info[i].skb ? "holds" : "lacks", busy ? "in flight" : "free", priv->dirty_tx, priv->cur_tx);
      return -1;
    }
    if (priv->tx_info[i].skb) ring_bytes += priv->tx_info[i].skb->len;
  }
  if (nk_netdev_bql_check(dev, 0, ring_bytes, "stmmac", err, errlen) != 0) return -1;
  const u32 rx_skbs = priv->use_page_pool ? 0 : rs - 1;
  if (nk_kernel_skbs_in_use(dev->k) != in_flight + rx_skbs) {
    snprintf(err, errlen,
             "stmmac: %u skbs allocated but %u frames on the TX ring and %u in RX slots (leak or double free)",
             nk_kernel_skbs_in_use(dev->k), in_flight, rx_skbs);
    return -1;
  }
  if (in_flight && !hrtimer_is_queued(&priv->txtimer) && !priv->tx_napi.scheduled) {
    /* Not an error at the end of a run (the DMA may still own them), but a
     * frame without IOC must have the timer or NAPI coming for it. */
    u32 last = nk_ring_prev(priv->cur_tx, ts);
    struct stmmac_dma_desc d;
    memcpy(&d, stmmac_tx_desc(priv, last), sizeof d);
    if (!(d.des2 & STMMAC_TDES2_INTERRUPT_ON_COMPLETION) && !(d.des3 & STMMAC_TDES3_OWN)) {
      snprintf(err, errlen,
               "stmmac: %u TX frames in flight, the last one done without IOC, and neither the TX timer nor "
               "TX NAPI is pending: they would never be cleaned",
               in_flight);
      return -1;
    }
  }
  /* Stopped at <= MAX_SKB_FRAGS + 1 free, woken above dma_tx_size / 4
   * (STMMAC_TX_THRESH): free space above both is a missed wake. */
  u32 wake = priv->dma_tx_size / 4 > STMMAC_MAX_SKB_FRAGS + 1 ? priv->dma_tx_size / 4 : STMMAC_MAX_SKB_FRAGS + 1;
  if (netif_queue_stopped(dev) && stmmac_tx_avail(priv) > wake) {
    snprintf(err, errlen, "stmmac: TX queue stopped with %u free descriptors (wake threshold %u): missed wake",
             stmmac_tx_avail(priv), wake);
    return -1;
  }
  return 0;
}

const struct nk_driver nk_driver_stmmac = {
    .name = "stmmac",
    .probe = stmmac_probe,
    .remove = stmmac_remove,
    .ndo_start_xmit = stmmac_xmit,
    .check = stmmac_check,
    .check_config = stmmac_check_config,
    .rx_slot_skbs = true, /* with driver.page_pool false (v4.14 to v5.3) */
    .page_pool_default = true,
    .page_pool_choice = true,
};
