/* i40e.c: the Intel 700-series (i40e) driver's hot paths, after Linux
 * drivers/net/ethernet/intel/i40e/i40e_txrx.c; docs/drivers/i40e.md walks
 * them and lists what is simplified. With driver.xdp the RX loop runs the
 * XDP path of v5.4 (i40e_run_xdp on the raw buffer, XDP_TX on the queue
 * pair's own XDP ring by i40e_xmit_xdp_tx_ring -> i40e_xmit_xdp_ring with a
 * dma_map_single per frame, one XDP tail write per poll in
 * i40e_finalize_xdp_rx, the XDP ring cleaned by the same NAPI poll). */

/* One MSI-X vector per queue pair (nic.rx_queues / tx_queues, RSS through the
 * PF's lookup table with more than one RX queue). RX: 16 or 32 B descriptors (no OWN bit, the
 * device writes DD), buffers from a page pool mapped DMA_FROM_DEVICE with
 * DMA_ATTR_SKIP_CPU_SYNC and, with driver.dma_weak_ordering, DMA_ATTR_WEAK_ORDERING
 * (I40E_RX_DMA_ATTR), reused in place (i40e_reuse_rx_page), refilled 32 at a
 * time. TX: 16 B data descriptors with EOP|RS, completion by head write-back
 * (i40e_get_head) or by DTYPE DESC_DONE. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/gn_coal.h"
#include "drivers/i40e.h"
#include "drivers/gn_rss.h"
#include "drivers/ring.h"
#include "hw/generic_nic_regs.h"
#include "net/frame.h"

#define I40E_ETH_HLEN 14
#define I40E_RXD_DD (1ULL << I40E_RX_DESC_STATUS_DD_SHIFT)
#define I40E_RXD_EOF (1ULL << I40E_RX_DESC_STATUS_EOF_SHIFT)
#define I40E_TXD_CMD (I40E_TX_DESC_CMD_EOP | I40E_TX_DESC_CMD_RS)

/* A queue pair's interrupt cause set on nicsim's common register block. */
#define I40E_INT_ALL GN_INT_ALL
/* i40e_txrx.h (v4.10): ITR register values, 2 us units, and the polls
 * between two adaptive decisions. */
#define I40E_ITR_50K 0x000A
#define I40E_ITR_20K 0x0019
#define I40E_ITR_18K 0x001B
#define I40E_ITR_8K 0x003E
#define I40E_MAX_ITR 0x0FF0
#define ITR_COUNTDOWN_START 100
/* i40e_set_new_dynamic_itr: beyond this many RX packets per second the RX
 * ITR goes to 8K (ULTRA). */
#define RX_ULTRA_PACKET_RATE 40000

/* build_ctob: qword1 of a TX data descriptor. */
static inline u64 i40e_build_ctob(u64 td_cmd, u64 td_offset, unsigned int size) {
  return I40E_TX_DESC_DTYPE_DATA | (td_cmd << I40E_TXD_QW1_CMD_SHIFT) | (td_offset << I40E_TXD_QW1_OFFSET_SHIFT) |
         ((u64)size << I40E_TXD_QW1_TX_BUF_SZ_SHIFT);
}

/* i40e_test_staterr: one load of qword1 (status_error_len), as Linux reads it each time. */
static inline bool i40e_test_staterr(const struct i40e_32byte_rx_desc *rx_desc, u64 bits) {
  return (nk_ld64(&rx_desc->hdr_addr) & bits) != 0;
}

/* ---- TX completion --------------------------------------------------------- */

/* i40e_get_head: the head index the device last wrote after the ring. */
static inline u32 i40e_get_head(const struct i40e_ring *tx_ring) {
  const void *head = tx_ring->desc + (size_t)tx_ring->count * sizeof(struct i40e_tx_desc);
  return nk_ld32(head);
}

/* i40e_clean_xdp_tx_buffer (v5.4's i40e_xsk.c; i40e_clean_tx_irq does the
 * same inline for an XDP ring): xdp_return_frame gives the RX buffer back
 * (the page_frag_free of the page half XDP_TX sent; here its pool buffer),
 * then the frame's mapping ends. */
static void i40e_clean_xdp_tx_buffer(struct i40e_priv *priv, struct i40e_ring *tx_ring,
                                     struct i40e_tx_buffer *tx_bi) {
  struct nk_page *page = tx_bi->xdpf;
  page_pool_recycle_direct(page->pool, page); /* xdp_return_frame(tx_bi->xdpf) */
  tx_bi->xdpf = NULL;
  tx_ring->xdp_tx_active--;
  dma_unmap_single(priv->dev, tx_bi->dma, tx_bi->len, DMA_TO_DEVICE);
  tx_bi->len = 0;
}

/* Reclaims the frames the device has sent: up to work_limit, stopping at the
 * head it wrote back (one load per call), or, without head write-back, at the
 * first EOP descriptor whose DTYPE is not DESC_DONE (one load per frame).
 * Wakes the queue when TX_WAKE_THRESHOLD descriptors are free. Returns true
 * if it finished under its budget. */
static bool i40e_clean_tx_irq(struct i40e_priv *priv, struct i40e_ring *tx_ring, int napi_budget) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *dev = priv->dev;
  u32 i = tx_ring->next_to_clean;
  unsigned int total_bytes = 0, total_packets = 0;
  unsigned int budget = priv->work_limit;
  const struct i40e_tx_desc *tx_head = NULL;
  if (priv->head_wb) tx_head = i40e_tx_desc_at(tx_ring, i40e_get_head(tx_ring) % tx_ring->count);
  do {
    struct i40e_tx_buffer *tx_buf = &tx_ring->tx_bi[i];
    struct i40e_tx_desc *tx_desc = i40e_tx_desc_at(tx_ring, i);
    struct i40e_tx_desc *eop_desc = tx_buf->next_to_watch;
    /* if next_to_watch is not set then there is no work pending */
    if (!eop_desc) break;
    if (priv->head_wb) {
      /* we have caught up to head, no work left to do */
      if (tx_head == tx_desc) break;
    } else if (((nk_ld64(&eop_desc->cmd_type_offset_bsz) & I40E_TXD_QW1_DTYPE_MASK) >> I40E_TXD_QW1_DTYPE_SHIFT) !=
               I40E_TX_DESC_DTYPE_DESC_DONE) {
      break; /* the descriptor isn't done (iavf_clean_tx_irq) */
    }
    tx_buf->next_to_watch = NULL;
    total_bytes += tx_buf->bytecount;
    total_packets++;
    if (tx_ring->is_xdp) {
      i40e_clean_xdp_tx_buffer(priv, tx_ring, tx_buf); /* free the XDP data */
    } else {
      napi_consume_skb(tx_buf->skb, napi_budget);
      dma_unmap_single(dev, tx_buf->dma, tx_buf->len, DMA_TO_DEVICE);
      tx_buf->skb = NULL;
      tx_buf->len = 0;
    }
    /* One data descriptor per frame: eop_desc == tx_desc, no fragments to unmap. */
    i = nk_ring_next(i, tx_ring->count);
    budget--;
  } while (budget);
  tx_ring->next_to_clean = i;
  /* i40e_update_tx_stats (the netdev's stats sum the XDP rings too) */
  dev->stats.tx_packets += total_packets;
  dev->stats.tx_bytes += total_bytes;
  tx_ring->q_vector->tx.total_bytes += total_bytes;
  tx_ring->q_vector->tx.total_packets += total_packets;
  if (tx_ring->is_xdp) return budget != 0; /* no BQL, no netdev queue to wake */
  netdev_tx_completed_queue(netdev_get_tx_queue(dev, tx_ring->queue_index), total_packets, total_bytes);
  if (total_packets && i40e_desc_unused(tx_ring) >= I40E_TX_WAKE_THRESHOLD &&
      __netif_subqueue_stopped(dev, tx_ring->queue_index)) {
    netif_wake_subqueue(dev, tx_ring->queue_index);
    tx_ring->restart_queue++;
  }
  return budget != 0;
}

/* ---- RX --------------------------------------------------------------------- */

/* i40e_release_rx_desc: wmb() so the descriptors are in memory, then the tail. */
static void i40e_release_rx_desc(struct i40e_ring *rx_ring, u32 val) {
  rx_ring->next_to_use = val;
  rx_ring->next_to_alloc = val; /* update next to alloc since we have filled the ring */
  wmb();
  writel(val, rx_ring->tail);
}

/* i40e_rx_offset: the headroom before the frame: 0 in nicsim's legacy-rx
 * (construct_skb), I40E_SKB_PAD with an XDP program (upstream's build_skb
 * layout, the default there: XDP_TX keeps struct xdp_frame in it). */
static inline u32 i40e_rx_offset(const struct i40e_ring *rx_ring) { return rx_ring->xdp_prog ? I40E_SKB_PAD : 0; }

/* i40e_alloc_mapped_page: keeps the reused buffer already in the slot (the
 * usual case), else takes one from the pool (mapped at pool creation with
 * the ring's attributes). */
static bool i40e_alloc_mapped_page(struct i40e_ring *rx_ring, struct i40e_rx_buffer *bi) {
  if (bi->page) {
    rx_ring->page_reuse_count++;
    return true;
  }
  struct nk_page *page = page_pool_dev_alloc_pages(rx_ring->pool);
  if (!page) {
    rx_ring->alloc_page_failed++;
    return false;
  }
  bi->page = page;
  bi->dma = page->dma;
  bi->page_offset = i40e_rx_offset(rx_ring);
  return true;
}

/* Gives cleaned_count buffers to the device from next_to_use: sync each for
 * the device, write pkt_addr and hdr_addr = 0 (which clears DD), then one
 * wmb() and one tail write. Returns true if a buffer was missing (retry). */
static bool i40e_alloc_rx_buffers(struct i40e_priv *priv, struct i40e_ring *rx_ring, u32 cleaned_count) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *dev = priv->dev;
  u32 ntu = rx_ring->next_to_use;
  if (!cleaned_count) return false;
  bool failed = false;
  do {
    struct i40e_rx_buffer *bi = &rx_ring->rx_bi[ntu];
    if (!i40e_alloc_mapped_page(rx_ring, bi)) {
      failed = true;
      break;
    }
    /* sync the buffer for use by the device (mapped with SKIP_CPU_SYNC) */
    dma_sync_single_for_device(dev, bi->dma + bi->page_offset, rx_ring->rx_buf_len, DMA_FROM_DEVICE);
    /* Refresh the desc even if buffer_addrs didn't change
     * because each write-back erases this info. */
    struct i40e_32byte_rx_desc *rx_desc = i40e_rx_desc(rx_ring, ntu);
    nk_st64(&rx_desc->pkt_addr, bi->dma + bi->page_offset);
    nk_st64(&rx_desc->hdr_addr, 0);
    ntu = nk_ring_next(ntu, rx_ring->count);
    cleaned_count--;
  } while (cleaned_count);
  if (rx_ring->next_to_use != ntu) i40e_release_rx_desc(rx_ring, ntu);
  return failed;
}

/* i40e_reuse_rx_page: moves the buffer of the slot just cleaned to
 * next_to_alloc, where the next refill finds it. */
static void i40e_reuse_rx_page(struct i40e_ring *rx_ring, struct i40e_rx_buffer *old_buff) {
  u32 nta = rx_ring->next_to_alloc;
  struct i40e_rx_buffer *new_buff = &rx_ring->rx_bi[nta];
  rx_ring->next_to_alloc = nk_ring_next(nta, rx_ring->count);
  *new_buff = *old_buff;
  old_buff->page = NULL;
}

/* i40e_construct_skb (legacy-rx): an skb with the frame copied in. The
 * kernel layer's skb is linear, so the whole frame is copied, as Linux does
 * for frames up to I40E_RX_HDR_SIZE (larger ones: headers copied, the rest
 * attached as a page fragment). The buffer stays with the driver. */
static struct sk_buff *i40e_construct_skb(struct napi_struct *napi, const struct i40e_rx_buffer *rx_buffer,
                                          unsigned int size) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct sk_buff *skb = napi_alloc_skb(napi, size);
  if (!skb) return NULL;
  nk_memcpy(skb_put(skb, size), (u8 *)rx_buffer->page->addr + rx_buffer->page_offset, size);
  return skb;
}

/* i40e_is_non_eop: advances next_to_clean; false if the descriptor ends the
 * frame (a second load of qword1, for EOF). */
static bool i40e_is_non_eop(struct i40e_ring *rx_ring, const struct i40e_32byte_rx_desc *rx_desc) {
  rx_ring->next_to_clean = nk_ring_next(rx_ring->next_to_clean, rx_ring->count);
  if (i40e_test_staterr(rx_desc, I40E_RXD_EOF)) return false;
  rx_ring->non_eop_descs++;
  return true;
}

/* ---- XDP (driver.xdp; v5.4) ---------------------------------------------------- */

/* i40e_xmit_xdp_ring: one data descriptor on the XDP ring for the frame
 * where it lies in its RX buffer, mapped for the device on its own
 * (dma_map_single, DMA_TO_DEVICE: the RX page stays mapped DMA_FROM_DEVICE),
 * no tail write (i40e_finalize_xdp_rx does one per poll). page goes with
 * the frame until TX completion. I40E_XDP_CONSUMED if the ring is full. */
static unsigned int i40e_xmit_xdp_ring(struct i40e_priv *priv, const struct xdp_buff *xdp, struct nk_page *page,
                                       struct i40e_ring *xdp_ring) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  u32 i = xdp_ring->next_to_use;
  const u32 size = (u32)((u8 *)xdp->data_end - (u8 *)xdp->data);
  if (!i40e_desc_unused(xdp_ring)) {
    xdp_ring->tx_busy++;
    return I40E_XDP_CONSUMED;
  }
  dma_addr_t dma = dma_map_single(priv->dev, xdp->data, size, DMA_TO_DEVICE);
  if (dma_mapping_error(priv->dev, dma)) return I40E_XDP_CONSUMED;
  struct i40e_tx_buffer *tx_bi = &xdp_ring->tx_bi[i];
  tx_bi->bytecount = size;
  tx_bi->xdpf = page;
  /* record length, and DMA address */
  tx_bi->len = size;
  tx_bi->dma = dma;
  struct i40e_tx_desc *tx_desc = i40e_tx_desc_at(xdp_ring, i);
  nk_st64(&tx_desc->buffer_addr, dma);
  nk_st64(&tx_desc->cmd_type_offset_bsz, i40e_build_ctob(I40E_TX_DESC_CMD_ICRC | I40E_TXD_CMD, 0, size));
  /* smp_wmb() before next_to_watch: orders it for a clean on another CPU;
   * the XDP ring is cleaned only by this vector's NAPI, here, on this core
   * (a compiler barrier on x86): not modelled. */
  xdp_ring->xdp_tx_active++; /* v5.6's count of frames on the ring */
  i = nk_ring_next(i, xdp_ring->count);
  tx_bi->next_to_watch = tx_desc;
  xdp_ring->next_to_use = i;
  nk_xdp_tx_queued(priv->dev, xdp_ring->queue_index);
  return I40E_XDP_TX;
}

/* i40e_xmit_xdp_tx_ring: the frame's struct xdp_frame into its headroom
 * (convert_to_xdp_frame), then onto the XDP ring. */
static unsigned int i40e_xmit_xdp_tx_ring(struct i40e_priv *priv, const struct xdp_buff *xdp, struct nk_page *page,
                                          struct i40e_ring *xdp_ring) {
  if (!convert_to_xdp_frame(xdp)) return I40E_XDP_CONSUMED;
  return i40e_xmit_xdp_ring(priv, xdp, page, xdp_ring);
}

/* i40e_run_xdp: the program on the frame in its buffer, before any skb:
 * pass goes on to the skb path, tx onto the queue pair's XDP ring (a full
 * ring: consumed, counted as a TX error), drop (and aborted) consumed. */
static unsigned int i40e_run_xdp(struct i40e_priv *priv, struct i40e_ring *rx_ring, struct nk_page *page,
                                 struct xdp_buff *xdp) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  unsigned int result = I40E_XDP_PASS;
  /* prefetchw(xdp->data_hard_start): a hint, not modelled */
  const u32 act = bpf_prog_run_xdp(rx_ring->xdp_prog, xdp);
  switch (act) {
    case XDP_PASS:
      nk_xdp_account(xdp->rxq, NK_XDP_PASS);
      break;
    case XDP_TX:
      result = i40e_xmit_xdp_tx_ring(priv, xdp, page, rx_ring->xdp_ring);
      nk_xdp_account(xdp->rxq, result == I40E_XDP_TX ? NK_XDP_TX : NK_XDP_TX_ERROR);
      break;
    default: /* XDP_ABORTED, XDP_DROP (nicsim's program never redirects) */
      result = I40E_XDP_CONSUMED;
      nk_xdp_account(xdp->rxq, NK_XDP_DROP);
      break;
  }
  return result;
}

/* i40e_xdp_ring_update_tail: wmb() so the descriptors are in memory, then
 * the XDP ring's tail (writel_relaxed upstream: the wmb() orders it). */
static void i40e_xdp_ring_update_tail(struct i40e_ring *xdp_ring) {
  wmb();
  writel(xdp_ring->next_to_use, xdp_ring->tail);
}

/* i40e_finalize_xdp_rx: at the end of the RX poll, one tail write for
 * every XDP_TX frame of the poll. */
static void i40e_finalize_xdp_rx(struct i40e_ring *rx_ring, unsigned int xdp_res) {
  if (xdp_res & I40E_XDP_TX) i40e_xdp_ring_update_tail(rx_ring->xdp_ring);
}

/* Receives up to budget frames. Per descriptor: load qword1, stop without
 * DD, dma_rmb(), length; sync the bytes for the CPU, copy into a new skb,
 * reuse the buffer; EOF, RXE and the skb fields re-read qword1 as Linux does.
 * Buffers go back to the device 32 at a time. Returns frames received, or
 * budget after a refill failure (poll again). */
static int i40e_clean_rx_irq(struct i40e_priv *priv, struct i40e_ring *rx_ring, struct napi_struct *napi,
                             int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *dev = priv->dev;
  unsigned int total_rx_packets = 0, total_rx_bytes = 0;
  u32 cleaned_count = i40e_desc_unused(rx_ring);
  unsigned int xdp_xmit = 0;
  bool failure = false;
  while (total_rx_packets < (unsigned int)budget) {
    /* return some buffers to hardware, one at a time is too slow */
    if (cleaned_count >= I40E_RX_BUFFER_WRITE) {
      failure = i40e_alloc_rx_buffers(priv, rx_ring, cleaned_count) || failure;
      cleaned_count = 0;
    }
    struct i40e_32byte_rx_desc *rx_desc = i40e_rx_desc(rx_ring, rx_ring->next_to_clean);
    /* status_error_len is zero for unused descriptors (hdr_addr = 0 at refill) */
    u64 qword = nk_ld64(&rx_desc->hdr_addr);
    if (!(qword & I40E_RXD_DD)) break;
    /* no other field is read until DD was seen */
    dma_rmb();
    unsigned int size = (unsigned int)((qword & I40E_RXD_QW1_LENGTH_PBUF_MASK) >> I40E_RXD_QW1_LENGTH_PBUF_SHIFT);
    struct i40e_rx_buffer *rx_buffer = &rx_ring->rx_bi[rx_ring->next_to_clean];
    if (!rx_buffer->page || size > rx_ring->rx_buf_len) {
      /* The device completed a slot the driver never filled, or overran it. */
      dev->stats.rx_errors++;
      nk_napi_rx_dropped(napi);
      break;
    }
    /* i40e_get_rx_buffer: we are reusing so sync this buffer for CPU use */
    dma_sync_single_for_cpu(dev, rx_buffer->dma + rx_buffer->page_offset, size, DMA_FROM_DEVICE);
    struct sk_buff *skb = NULL;
    unsigned int xdp_res = I40E_XDP_PASS;
    if (rx_ring->xdp_prog && !rx_ring->rx_discard && size) {
      /* the xdp_buff over the frame in its buffer, I40E_SKB_PAD of headroom */
      u8 *data = (u8 *)rx_buffer->page->addr + rx_buffer->page_offset;
      struct xdp_buff xdp = {
          .data = data,
          .data_end = data + size,
          .data_hard_start = data - i40e_rx_offset(rx_ring),
          .rxq = napi,
          .frame_sz = i40e_rx_offset(rx_ring) + rx_ring->rx_buf_len,
          .mem_type = MEM_TYPE_PAGE_SHARED,
      };
      xdp_res = i40e_run_xdp(priv, rx_ring, rx_buffer->page, &xdp);
    }
    if (xdp_res != I40E_XDP_PASS) {
      if (xdp_res & I40E_XDP_TX) {
        xdp_xmit |= xdp_res;
        /* i40e_rx_buffer_flip: the frame's half of the page went to the
         * XDP ring; here the whole buffer, the slot refilled from the pool */
        rx_buffer->page = NULL;
      }
      /* else pagecnt_bias++: the buffer is reused as it is */
      total_rx_bytes += size;
      total_rx_packets++;
    } else if (!rx_ring->rx_discard && size) {
      skb = i40e_construct_skb(napi, rx_buffer, size);
      if (!skb) {
        /* exit if we failed to retrieve a buffer: the descriptor stays for the next poll */
        rx_ring->alloc_buff_failed++;
        break;
      }
    }
    /* i40e_put_rx_buffer: the frame was copied (or dropped by XDP), so the
     * buffer is reusable; one XDP_TX took is not in the slot any more */
    if (rx_buffer->page) i40e_reuse_rx_page(rx_ring, rx_buffer);
    cleaned_count++;
    if (i40e_is_non_eop(rx_ring, rx_desc)) {
      /* A frame spanning buffers: the linear skb cannot take fragments; drop it whole. */
      if (skb) dev_kfree_skb_any(skb);
      if (!rx_ring->rx_discard) {
        dev->stats.rx_errors++;
        nk_napi_rx_dropped(napi);
      }
      rx_ring->rx_discard = true;
      continue;
    }
    if (rx_ring->rx_discard) {
      /* the last buffer of a dropped frame */
      rx_ring->rx_discard = false;
      if (skb) dev_kfree_skb_any(skb);
      continue;
    }
    /* i40e_cleanup_headers: XDP packets use error pointer so abort at this point */
    if (xdp_res != I40E_XDP_PASS) continue;
    /* i40e_cleanup_headers: the receive error bit (a third load of qword1) */
    if (i40e_test_staterr(rx_desc, I40E_RXD_QW1_ERROR_RXE) || size < I40E_ETH_HLEN) {
      dev_kfree_skb_any(skb);
      dev->stats.rx_errors++;
      nk_napi_rx_dropped(napi);
      continue;
    }
    /* (rx_packets / rx_bytes are counted by napi_gro_receive in the kernel layer) */
    /* i40e_process_skb_fields: qword1 once more (ptype, TSYN, L2TAG1P) */
    (void)nk_ld64(&rx_desc->hdr_addr);
    total_rx_bytes += skb->len;
    napi_gro_receive(napi, skb);
    total_rx_packets++;
  }
  i40e_finalize_xdp_rx(rx_ring, xdp_xmit);
  priv->q_vectors[rx_ring->queue_index].rx.total_packets += total_rx_packets;
  priv->q_vectors[rx_ring->queue_index].rx.total_bytes += total_rx_bytes;
  /* guarantee a trip back through this routine if there was a failure */
  return failure ? budget : (int)total_rx_packets;
}

/* ---- NAPI and IRQ ------------------------------------------------------------------ */

/* i40e_set_new_dynamic_itr (v4.10): the ITR for one direction from its
 * bytes per microsecond since the last decision, in latency classes with
 * hysteresis; RX beyond 40000 packets per second goes to 8K interrupts per
 * second. True if the ITR changed. */
static bool i40e_set_new_dynamic_itr(struct i40e_ring_container *rc, bool is_rx) {
  enum i40e_latency_range new_latency_range = rc->latency_range;
  u32 new_itr = rc->itr;
  if (rc->total_packets == 0 || !rc->itr) return false;
  /* simple throttlerate management: 0-10 MB/s lowest (50000 ints/s),
   * 10-20 MB/s low (20000 ints/s), 20-1249 MB/s bulk (18000 ints/s); the
   * interval is the ITR (in 2 us units) times the polls counted down. */
  const unsigned int usecs = ((unsigned int)rc->itr << 1) * ITR_COUNTDOWN_START;
  const unsigned int bytes_per_int = rc->total_bytes / usecs;
  switch (new_latency_range) {
    case I40E_LOWEST_LATENCY:
      if (bytes_per_int > 10) new_latency_range = I40E_LOW_LATENCY;
      break;
    case I40E_LOW_LATENCY:
      if (bytes_per_int > 20)
        new_latency_range = I40E_BULK_LATENCY;
      else if (bytes_per_int <= 10)
        new_latency_range = I40E_LOWEST_LATENCY;
      break;
    case I40E_BULK_LATENCY:
    case I40E_ULTRA_LATENCY:
    default:
      if (bytes_per_int <= 20) new_latency_range = I40E_LOW_LATENCY;
      break;
  }
  /* adjust RX more aggressively when streaming small packets */
  if (is_rx && (u64)rc->total_packets * 1000000u / usecs > RX_ULTRA_PACKET_RATE)
    new_latency_range = I40E_ULTRA_LATENCY;
  rc->latency_range = new_latency_range;
  switch (new_latency_range) {
    case I40E_LOWEST_LATENCY: new_itr = I40E_ITR_50K; break;
    case I40E_LOW_LATENCY: new_itr = I40E_ITR_20K; break;
    case I40E_BULK_LATENCY: new_itr = I40E_ITR_18K; break;
    case I40E_ULTRA_LATENCY: new_itr = I40E_ITR_8K; break;
    default: break;
  }
  rc->total_bytes = 0;
  rc->total_packets = 0;
  if (new_itr != rc->itr) {
    rc->itr = (u16)new_itr;
    return true;
  }
  return false;
}

/* i40e_update_enable_itr (v4.10): every ITR_COUNTDOWN_START polls with
 * adaptive ITR, a new ITR per direction, and the larger for both; then the
 * vector re-enabled. The XL710 takes a new interval in the same
 * PFINT_DYN_CTLN write that re-enables (or, for RX, one write before it);
 * nicsim's vector programs its RX and TX intervals in VEC_COAL's usecs
 * registers (one write each) before the unmask. */
static void i40e_update_enable_itr(struct i40e_priv *priv, struct i40e_q_vector *q_vector) {
  void __iomem *io = priv->hw_addr;
  const u32 v = q_vector->v_idx;
  if (priv->adaptive_itr && q_vector->itr_countdown == 0) {
    const bool rx = i40e_set_new_dynamic_itr(&q_vector->rx, true);
    const bool tx = i40e_set_new_dynamic_itr(&q_vector->tx, false);
    if (rx || tx) {
      /* the higher of the two for both ITR registers */
      const u16 itr = q_vector->tx.itr > q_vector->rx.itr ? q_vector->tx.itr : q_vector->rx.itr;
      q_vector->tx.itr = q_vector->rx.itr = itr;
      writel((u32)itr << 1, io + GN_REG_VEC_COAL(v) + GN_VC_RX_USECS);
      writel((u32)itr << 1, io + GN_REG_VEC_COAL(v) + GN_VC_TX_USECS);
    }
  }
  writel(0, io + gn_qreg(v, GN_Q_INT_MASK));
  if (priv->adaptive_itr) {
    if (q_vector->itr_countdown)
      q_vector->itr_countdown--;
    else
      q_vector->itr_countdown = ITR_COUNTDOWN_START;
  }
}

/* i40e_napi_poll: TX cleaning (its own work limit), then RX with the whole
 * budget; done under budget: napi_complete_done and re-enable the vector
 * (i40e_update_enable_itr). */
static int i40e_napi_poll(struct napi_struct *napi, int budget) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct i40e_priv *priv = netdev_priv(napi->dev);
  struct i40e_q_vector *q_vector =
      (struct i40e_q_vector *)((char *)napi - offsetof(struct i40e_q_vector, napi)); /* container_of */
  const u32 v = q_vector->v_idx;
  bool clean_complete = true;
  /* i40e_for_each_ring(ring, q_vector->tx): the XDP ring first
   * (i40e_map_vector_to_qp puts it at the head of the vector's list) */
  if (priv->xdp_prog && v < priv->num_rx && !i40e_clean_tx_irq(priv, &priv->xdp_rings[v], budget))
    clean_complete = false;
  if (v < priv->num_tx && !i40e_clean_tx_irq(priv, &priv->tx_rings[v], budget)) clean_complete = false;
  int cleaned = v < priv->num_rx ? i40e_clean_rx_irq(priv, &priv->rx_rings[v], napi, budget) : 0;
  if (cleaned >= budget) clean_complete = false;
  if (!clean_complete) return budget;
  if (napi_complete_done(napi, cleaned)) i40e_update_enable_itr(priv, q_vector);
  return cleaned < budget - 1 ? cleaned : budget - 1;
}

/* i40e_msix_clean_rings: schedules NAPI. The XL710 masks the vector itself
 * when it fires (INTENA clears until i40e_update_enable_itr); nicsim's
 * common register block has no auto-mask, so the handler writes the mask,
 * one posted write standing in for the hardware's. */
static irqreturn_t i40e_msix_clean_rings(int irq, void *data) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  struct i40e_q_vector *q_vector = data;
  (void)irq;
  writel(I40E_INT_ALL, q_vector->priv->hw_addr + gn_qreg(q_vector->v_idx, GN_Q_INT_MASK));
  napi_schedule(&q_vector->napi);
  return IRQ_HANDLED;
}

/* ---- TX ---------------------------------------------------------------------------- */

/* __i40e_maybe_stop_tx / i40e_maybe_stop_tx: stops the queue unless size
 * descriptors are free; -EBUSY if they still are not after the stop. */
static int i40e_maybe_stop_tx(struct i40e_ring *tx_ring, struct net_device *dev, u32 size) {
  if (i40e_desc_unused(tx_ring) >= size) return 0;
  netif_stop_subqueue(dev, tx_ring->queue_index);
  /* smp_mb(): not modelled. The TX clean takes no lock (as Linux's
   * i40e_clean_tx_irq); it may run on another core (cpu.locking txq), but
   * cores interleave only at suspension points (loads, MMIO, lock waits) and
   * there is none between the stop and this re-check, nor between the
   * clean's next_to_clean update and its stopped check. */
  if (i40e_desc_unused(tx_ring) < size) return -EBUSY;
  netif_wake_subqueue(dev, tx_ring->queue_index);
  tx_ring->restart_queue++;
  return 0;
}

/* i40e_tx_map: maps the linear skb, writes buffer_addr and qword1 (EOP|RS,
 * size), wmb(), next_to_watch, and the tail. Returns false on a mapping error
 * (frame dropped). */
static bool i40e_tx_map(struct i40e_priv *priv, struct i40e_ring *tx_ring, struct sk_buff *skb,
                        struct i40e_tx_buffer *first) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *dev = priv->dev;
  unsigned int size = skb->len;
  u32 i = tx_ring->next_to_use;
  dma_addr_t dma = dma_map_single(dev, skb->data, size, DMA_TO_DEVICE);
  if (dma_mapping_error(dev, dma)) {
    first->skb = NULL;
    dev_kfree_skb_any(skb);
    dev->stats.tx_dropped++;
    return false;
  }
  struct i40e_tx_desc *tx_desc = i40e_tx_desc_at(tx_ring, i);
  first->len = size;
  first->dma = dma;
  nk_st64(&tx_desc->buffer_addr, dma);
  i = nk_ring_next(i, tx_ring->count);
  tx_ring->next_to_use = i;
  netdev_tx_sent_queue(netdev_get_tx_queue(dev, tx_ring->queue_index), first->bytecount);
  i40e_maybe_stop_tx(tx_ring, dev, I40E_DESC_NEEDED);
  /* write last descriptor with RS and EOP bits */
  nk_st64(&tx_desc->cmd_type_offset_bsz, i40e_build_ctob(I40E_TXD_CMD, 0, size));
  /* Force memory writes to complete before letting h/w know there are new
   * descriptors to fetch, and before next_to_watch is set. */
  wmb();
  first->next_to_watch = tx_desc;
  /* notify HW of packet (no xmit_more here: every frame) */
  writel(i, tx_ring->tail);
  return true;
}

/* i40e_xmit_frame (i40e_xmit_frame_ring): one data descriptor per linear
 * skb; NETDEV_TX_BUSY with the queue stopped when fewer than 1 + 4 + 1 are free. */
static netdev_tx_t i40e_xmit_frame(struct sk_buff *skb, struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct i40e_priv *priv = netdev_priv(dev);
  const u16 q = skb_get_queue_mapping(skb);
  if (q >= priv->num_tx) { /* the stack never picks a queue beyond real_num_tx_queues */
    dev->stats.tx_errors++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  struct i40e_ring *tx_ring = &priv->tx_rings[q];
  const u32 count = 1; /* i40e_xmit_descriptor_count: a linear skb under 16 KiB */
  if (skb->len > I40E_TXD_QW1_TX_BUF_SZ_MASK >> I40E_TXD_QW1_TX_BUF_SZ_SHIFT) {
    dev->stats.tx_errors++;
    dev_kfree_skb_any(skb);
    return NETDEV_TX_OK;
  }
  /* need: 1 descriptor per buffer, + 4 desc gap to avoid the cache line where
   * head is, + 1 desc for context descriptor, otherwise try next time */
  if (i40e_maybe_stop_tx(tx_ring, dev, count + 4 + 1)) {
    tx_ring->tx_busy++;
    return NETDEV_TX_BUSY;
  }
  struct i40e_tx_buffer *first = &tx_ring->tx_bi[tx_ring->next_to_use];
  first->skb = skb;
  first->bytecount = skb->len;
  i40e_tx_map(priv, tx_ring, skb, first);
  return NETDEV_TX_OK;
}

/* ---- probe / remove -------------------------------------------------------------------- */

/* Frees whatever of the rings and buffers exists (remove and the probe error
 * path). Frames still on a TX ring count as tx_dropped. */
static void i40e_free_rings(struct i40e_priv *priv) {
  struct net_device *dev = priv->dev;
  /* i40e_clean_tx_ring of the XDP rings first: their frames' buffers go back
   * to the RX pools (i40e_unmap_and_free_tx_resource: xdp_return_frame). */
  for (u32 q = 0; priv->xdp_prog && q < priv->num_rx; q++) {
    struct i40e_ring *xr = &priv->xdp_rings[q];
    if (!xr->tx_bi) continue;
    for (u32 i = 0; i < xr->count; i++)
      if (xr->tx_bi[i].xdpf) i40e_clean_xdp_tx_buffer(priv, xr, &xr->tx_bi[i]);
    free(xr->tx_bi);
    xr->tx_bi = NULL;
  }
  for (u32 q = 0; q < priv->num_tx; q++) {
    struct i40e_ring *tx = &priv->tx_rings[q];
    if (!tx->tx_bi) continue;
    for (u32 i = 0; i < tx->count; i++) {
      struct i40e_tx_buffer *b = &tx->tx_bi[i];
      if (!b->skb) continue;
      if (b->len) dma_unmap_single(dev, b->dma, b->len, DMA_TO_DEVICE);
      dev_kfree_skb_any(b->skb);
      dev->stats.tx_dropped++;
      *b = (struct i40e_tx_buffer){0};
    }
    free(tx->tx_bi);
    tx->tx_bi = NULL;
    netdev_tx_reset_queue(netdev_get_tx_queue(dev, tx->queue_index)); /* i40e_clean_tx_ring */
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct i40e_ring *rx = &priv->rx_rings[q];
    if (rx->rx_bi) {
      for (u32 i = 0; i < rx->count; i++)
        if (rx->rx_bi[i].page) page_pool_recycle_direct(rx->pool, rx->rx_bi[i].page);
      free(rx->rx_bi);
      rx->rx_bi = NULL;
    }
    if (rx->pool) page_pool_destroy(rx->pool);
    rx->pool = NULL;
  }
  for (u32 q = 0; q < priv->num_tx; q++) {
    struct i40e_ring *tx = &priv->tx_rings[q];
    if (tx->desc) dma_free_coherent(dev, tx->size, tx->desc, tx->dma);
    tx->desc = NULL;
  }
  for (u32 q = 0; priv->xdp_prog && q < priv->num_rx; q++) {
    struct i40e_ring *xr = &priv->xdp_rings[q];
    if (xr->desc) dma_free_coherent(dev, xr->size, xr->desc, xr->dma);
    xr->desc = NULL;
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct i40e_ring *rx = &priv->rx_rings[q];
    if (rx->desc) dma_free_coherent(dev, rx->size, rx->desc, rx->dma);
    rx->desc = NULL;
  }
}

/* Checks the config against what the i40e queue context can express. */
static int i40e_check_config(const struct nicsim_config *cfg, struct nk_config_error *e) {
  char hint[256];
  for (int tx = 0; tx < 2; tx++) {
    const int64_t n = tx ? cfg->nic.tx_ring_size : cfg->nic.rx_ring_size;
    const enum nc_key_id id = tx ? NC_KEY_nic_tx_ring_size : NC_KEY_nic_rx_ring_size;
    if (n < I40E_MIN_NUM_DESCRIPTORS || n > I40E_MAX_NUM_DESCRIPTORS || n % I40E_REQ_DESCRIPTOR_MULTIPLE) {
      const int64_t m = I40E_REQ_DESCRIPTOR_MULTIPLE;
      snprintf(hint, sizeof hint, "use a multiple of %d from %d to %d, e.g. %" PRId64, I40E_REQ_DESCRIPTOR_MULTIPLE,
               I40E_MIN_NUM_DESCRIPTORS, I40E_MAX_NUM_DESCRIPTORS,
               n < I40E_MIN_NUM_DESCRIPTORS   ? I40E_MIN_NUM_DESCRIPTORS
               : n > I40E_MAX_NUM_DESCRIPTORS ? I40E_MAX_NUM_DESCRIPTORS
                                              : (n + m - 1) / m * m);
      return nk_config_fail(e, &id, 1, hint,
                            "i40e: %s = %" PRId64 ": ring sizes must be multiples of %d in [%d, %d] "
                            "(I40E_REQ_DESCRIPTOR_MULTIPLE, ethtool -G limits)",
                            tx ? "nic.tx_ring_size" : "nic.rx_ring_size", n, I40E_REQ_DESCRIPTOR_MULTIPLE,
                            I40E_MIN_NUM_DESCRIPTORS, I40E_MAX_NUM_DESCRIPTORS);
    }
  }
  if (cfg->nic.rx_desc_bytes != 16 && cfg->nic.rx_desc_bytes != 32)
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_rx_desc_bytes), "use 16 or 32",
                          "i40e: nic.rx_desc_bytes = %" PRId64 " is not an i40e RX descriptor size",
                          cfg->nic.rx_desc_bytes);
  if (cfg->nic.desc_spacing != 16 && cfg->nic.desc_spacing != cfg->nic.rx_desc_bytes) {
    if (cfg->nic.rx_desc_bytes == 16)
      snprintf(hint, sizeof hint, "use 16 (the TX and the 16-byte RX descriptors): i40e rings are packed");
    else
      snprintf(hint, sizeof hint, "use 16 or %" PRId64 " (nic.rx_desc_bytes): i40e rings are packed",
               cfg->nic.rx_desc_bytes);
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_desc_spacing, NC_KEY_nic_rx_desc_bytes), hint,
                          "i40e: nic.desc_spacing = %" PRId64 ": i40e descriptors are packed", cfg->nic.desc_spacing);
  }
  const int64_t buf = cfg->driver.rx_buf_bytes, unit = I40E_RXQ_CTX_DBUFF_UNIT;
  const int64_t max = (int64_t)(I40E_RXD_QW1_LENGTH_PBUF_MASK >> I40E_RXD_QW1_LENGTH_PBUF_SHIFT) / unit * unit;
  if (buf % unit || buf > max) {
    if (buf > max)
      snprintf(hint, sizeof hint, "use a multiple of %" PRId64 " of at most %" PRId64 ", e.g. %" PRId64, unit, max,
               max);
    else
      snprintf(hint, sizeof hint, "use a multiple of %" PRId64 " of at most %" PRId64 ", e.g. %" PRId64 " or %" PRId64,
               unit, max, buf / unit * unit, (buf / unit + 1) * unit);
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_buf_bytes), hint,
                          "i40e: driver.rx_buf_bytes = %" PRId64 " is not a receive buffer size the queue context "
                          "can express (it counts %" PRId64 "-byte DBUFF units; the write-back length is 14 bits)",
                          buf, unit);
  }
  if (cfg->driver.xdp == NC_XDP_OFF) return 0;
  /* driver.xdp: the XDP rings are device TX queues after nic.tx_queues, one per RX queue. */
  if (cfg->nic.tx_queues + cfg->nic.rx_queues > GN_MAX_QUEUES) {
    if (cfg->nic.rx_queues < GN_MAX_QUEUES)
      snprintf(hint, sizeof hint,
               "set nic.tx_queues + nic.rx_queues to at most %d (e.g. nic.tx_queues: %" PRId64 "), or driver.xdp: off",
               GN_MAX_QUEUES, GN_MAX_QUEUES - cfg->nic.rx_queues);
    else
      snprintf(hint, sizeof hint,
               "set nic.tx_queues + nic.rx_queues to at most %d (e.g. nic.rx_queues: %d, nic.tx_queues: %d), or "
               "driver.xdp: off",
               GN_MAX_QUEUES, GN_MAX_QUEUES / 2, GN_MAX_QUEUES / 2);
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_tx_queues, NC_KEY_nic_rx_queues, NC_KEY_driver_xdp), hint,
                          "i40e: driver.xdp adds an XDP TX ring per RX queue after the %" PRId64
                          " TX queues: %" PRId64 " + %" PRId64 " TX queues, but the device has %d",
                          cfg->nic.tx_queues, cfg->nic.tx_queues, cfg->nic.rx_queues, GN_MAX_QUEUES);
  }
  /* i40e_xdp_setup: "Don't allow frames that span over multiple buffers".
   * The largest frame the wire brings: traffic.frame_bytes, or with IMIX
   * its 1518-byte frames too. */
  const int64_t largest = cfg->traffic.frame_dist == NC_DIST_IMIX && cfg->traffic.frame_bytes < 1518
                              ? 1518
                              : cfg->traffic.frame_bytes;
  const int64_t len = (int64_t)nf_dma_len((uint32_t)largest);
  if (cfg->traffic.mode != NC_MODE_TX && len > buf) {
    snprintf(hint, sizeof hint,
             "set driver.rx_buf_bytes to at least %" PRId64 ", or traffic.frame_bytes to at most %" PRId64
             ", or driver.xdp: off",
             (len + unit - 1) / unit * unit, buf + NF_FCS_LEN);
    return nk_config_fail(e, NK_KEYS(NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes, NC_KEY_driver_xdp), hint,
                          "i40e: driver.xdp with %s%" PRId64 "-byte frames: their %" PRId64
                          " bytes (without FCS) span more than one receive buffer of driver.rx_buf_bytes = %" PRId64
                          " (i40e_xdp_setup refuses frames that span buffers)",
                          largest != cfg->traffic.frame_bytes ? "traffic.frame_dist imix's " : "", largest, len,
                          buf);
  }
  return 0;
}

/* i40e_setup_tx_descriptors / i40e_setup_rx_descriptors for every queue,
 * then the first i40e_alloc_rx_buffers(I40E_DESC_UNUSED) of
 * i40e_configure_rx_ring. Order: TX rings, RX rings, RX pools. */
static int i40e_setup_rings(struct i40e_priv *priv, char *err, size_t errlen) {
  struct net_device *dev = priv->dev;
  const struct nicsim_config *cfg = dev->cfg;
  /* i40e_vsi_setup_tx_resources: the TX rings, then (driver.xdp) the XDP
   * rings, device TX queues num_tx + q, each cleaned by vector q. */
  const u32 ntx = priv->num_tx + (priv->xdp_prog ? priv->num_rx : 0);
  for (u32 q = 0; q < ntx; q++) {
    const bool xdp = q >= priv->num_tx;
    struct i40e_ring *tx = xdp ? &priv->xdp_rings[q - priv->num_tx] : &priv->tx_rings[q];
    tx->queue_index = (u16)q;
    tx->is_xdp = xdp;
    tx->q_vector = &priv->q_vectors[xdp ? q - priv->num_tx : q];
    tx->count = (u32)cfg->nic.tx_ring_size;
    tx->desc_bytes = sizeof(struct i40e_tx_desc);
    /* add u32 for head writeback, align after this takes care of guaranteeing
     * this is at least one cache line in size */
    tx->size = (size_t)tx->count * sizeof(struct i40e_tx_desc) + sizeof(u32);
    tx->size = (tx->size + 4095) & ~(size_t)4095;
    tx->desc = dma_alloc_coherent(dev, tx->size, &tx->dma);
    if (!tx->desc) goto fail;
    tx->tx_bi = calloc(tx->count, sizeof *tx->tx_bi);
    if (!tx->tx_bi) goto oom;
    tx->tail = priv->hw_addr + gn_qreg(q, GN_Q_TX_TAIL);
    tx->next_to_use = tx->next_to_clean = 0;
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct i40e_ring *rx = &priv->rx_rings[q];
    rx->queue_index = (u16)q;
    rx->count = (u32)cfg->nic.rx_ring_size;
    rx->desc_bytes = (u32)cfg->nic.rx_desc_bytes;
    rx->size = ((size_t)rx->count * rx->desc_bytes + 4095) & ~(size_t)4095;
    rx->desc = dma_alloc_coherent(dev, rx->size, &rx->dma);
    if (!rx->desc) goto fail;
    rx->rx_bi = calloc(rx->count, sizeof *rx->rx_bi);
    if (!rx->rx_bi) goto oom;
    rx->rx_buf_len = (u32)cfg->driver.rx_buf_bytes;
    rx->dma_attrs = I40E_RX_DMA_ATTR_BASE | (cfg->driver.dma_weak_ordering ? DMA_ATTR_WEAK_ORDERING : 0);
    rx->tail = priv->hw_addr + gn_qreg(q, GN_Q_RX_TAIL);
    /* i40e_xdp_setup: WRITE_ONCE(vsi->rx_rings[i]->xdp_prog, vsi->xdp_prog) */
    rx->xdp_prog = priv->xdp_prog;
    rx->xdp_ring = priv->xdp_prog ? &priv->xdp_rings[q] : NULL;
  }
  for (u32 q = 0; q < priv->num_rx; q++) {
    struct i40e_ring *rx = &priv->rx_rings[q];
    /* Buffers of I40E_SKB_PAD + rx_buf_len with a program (upstream's
     * build_skb half page: pad, buffer, skb_shared_info), still mapped
     * DMA_FROM_DEVICE; one more per XDP ring slot, as XDP_TX frames hold
     * their buffer until TX completion (upstream: the other page half). */
    const u32 n = rx->count - 1 + (rx->xdp_ring ? rx->xdp_ring->count - 1 : 0);
    rx->pool = page_pool_create_attrs(dev, n, i40e_rx_offset(rx) + rx->rx_buf_len, DMA_FROM_DEVICE, rx->dma_attrs);
    if (!rx->pool) goto fail;
    /* Fill the ring without the tail write: the device learns the tail when
     * the queue is enabled (i40e_configure_rx_ring writes it after the context). */
    u32 ntu = 0;
    for (u32 n = rx->count - 1; n; n--) {
      struct i40e_rx_buffer *bi = &rx->rx_bi[ntu];
      if (!i40e_alloc_mapped_page(rx, bi)) break;
      dma_sync_single_for_device(dev, bi->dma + bi->page_offset, rx->rx_buf_len, DMA_FROM_DEVICE);
      struct i40e_32byte_rx_desc *d = i40e_rx_desc(rx, ntu);
      nk_st64(&d->pkt_addr, bi->dma + bi->page_offset);
      nk_st64(&d->hdr_addr, 0);
      ntu++;
    }
    rx->next_to_use = rx->next_to_alloc = ntu;
    rx->next_to_clean = 0;
    rx->page_reuse_count = rx->alloc_page_failed = 0;
  }
  wmb();
  return 0;
oom:
  snprintf(err, errlen, "i40e: out of host memory for ring buffers");
  return -1;
fail:
  snprintf(err, errlen, "i40e: %s", nk_kernel_last_error(dev->k));
  return -1;
}

/* i40e_config_rss_reg: the PF's hash key (nic.rss_key, or the Microsoft key)
 * and lookup table, filled as i40e_fill_rss_lut (entry i: queue i mod the
 * RX queues), then its size, which turns RSS on; the kernel gets the same
 * table to check every frame's queue. */
static void i40e_config_rss(struct i40e_priv *priv) {
  gn_program_rss(priv->dev, priv->hw_addr, priv->num_rx, priv->rss_key, priv->rss_lut, &priv->rss_size);
}

/* Programs the queue pairs on nicsim's common register block (the XL710's
 * queue contexts, QTX_TAIL/QRX_TAIL and PFINT_DYN_CTLN), RSS, then enables them. */
static void i40e_configure(struct i40e_priv *priv) {
  const struct nicsim_config *cfg = priv->dev->cfg;
  void __iomem *io = priv->hw_addr;
  u64 msi = nk_msi_addr(priv->dev);
  writel(sizeof(struct i40e_tx_desc), io + GN_REG_DESC_SPACING); /* packed rings */
  for (u32 q = 0; q < priv->num_rx; q++) {
    const struct i40e_ring *rx = &priv->rx_rings[q];
    writel((u32)rx->dma, io + gn_qreg(q, GN_Q_RX_RING_LO));
    writel((u32)(rx->dma >> 32), io + gn_qreg(q, GN_Q_RX_RING_HI));
    writel(rx->count, io + gn_qreg(q, GN_Q_RX_RING_SIZE));
  }
  writel(priv->rx_rings[0].rx_buf_len, io + GN_REG_RX_BUF_SIZE);
  const u32 ntx = priv->num_tx + (priv->xdp_prog ? priv->num_rx : 0);
  for (u32 q = 0; q < ntx; q++) {
    const struct i40e_ring *tx = q < priv->num_tx ? &priv->tx_rings[q] : &priv->xdp_rings[q - priv->num_tx];
    writel((u32)tx->dma, io + gn_qreg(q, GN_Q_TX_RING_LO));
    writel((u32)(tx->dma >> 32), io + gn_qreg(q, GN_Q_TX_RING_HI));
    writel(tx->count, io + gn_qreg(q, GN_Q_TX_RING_SIZE));
    if (priv->head_wb) {
      /* tx_ctx.head_wb_ena = 1; head_wb_addr = ring->dma + count * desc size */
      u64 head = tx->dma + (u64)tx->count * sizeof(struct i40e_tx_desc);
      writel((u32)head, io + (q ? GN_REG_TXQ_HEAD_WB_LO(q) : GN_REG_TX_HEAD_WB_LO));
      writel((u32)(head >> 32), io + (q ? GN_REG_TXQ_HEAD_WB_HI(q) : GN_REG_TX_HEAD_WB_HI));
    }
    /* i40e_vsi_configure_msix: an XDP queue in its queue pair's vector's
     * list (QINT_TQCTL's MSIX_INDX) */
    if (tx->is_xdp) writel(tx->q_vector->v_idx, io + GN_REG_TXQ_VEC(q));
  }
  for (u32 v = 0; v < priv->num_q_vectors; v++) {
    writel((u32)cfg->nic.irq_coal_frames, io + gn_qreg(v, GN_Q_COAL_FRAMES));
    writel((u32)(cfg->nic.irq_coal_usecs + 0.5), io + gn_qreg(v, GN_Q_COAL_USECS));
    gn_coal_dir_program(io, v, cfg); /* the RX and TX ITR of the vector */
    writel((u32)msi, io + gn_qreg(v, GN_Q_MSI_ADDR_LO));
    writel((u32)(msi >> 32), io + gn_qreg(v, GN_Q_MSI_ADDR_HI));
    writel(nk_msi_data(priv->dev, I40E_IRQ_VEC + (int)v), io + (v ? GN_REG_MSIX_DATA(v) : GN_REG_MSI_DATA));
  }
  if (priv->num_rx > 1) i40e_config_rss(priv);
  for (u32 q = 0; q < priv->num_rx; q++) writel(priv->rx_rings[q].next_to_use, priv->rx_rings[q].tail);
  for (u32 q = 0; q < priv->num_tx; q++) writel(priv->tx_rings[q].next_to_use, priv->tx_rings[q].tail);
  for (u32 q = 0; priv->xdp_prog && q < priv->num_rx; q++)
    writel(priv->xdp_rings[q].next_to_use, priv->xdp_rings[q].tail);
  writel(GN_CTRL_RX_EN | GN_CTRL_TX_EN, io + GN_REG_CTRL);
}

/* probe: rings and buffers, queue programming, one IRQ and NAPI per queue
 * pair (i40e_vsi_request_irq, netif_napi_add per q_vector), then the vectors enabled. */
static int i40e_probe(struct net_device *dev, char *err, size_t errlen) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  const struct nicsim_config *cfg = dev->cfg;
  if (nk_driver_probe_check(&nk_driver_i40e, cfg, err, errlen) != 0) return -EINVAL;
  struct i40e_priv *priv = calloc(1, sizeof *priv);
  if (!priv) {
    snprintf(err, errlen, "i40e: out of host memory");
    return -ENOMEM;
  }
  dev->priv = priv;
  priv->dev = dev;
  priv->hw_addr = nk_ioremap(dev);
  priv->head_wb = cfg->nic.wb_mode == NC_WB_HEAD;
  priv->work_limit = I40E_DEFAULT_IRQ_WORK;
  priv->num_rx = (u32)cfg->nic.rx_queues;
  priv->num_tx = (u32)cfg->nic.tx_queues;
  priv->num_q_vectors = priv->num_rx > priv->num_tx ? priv->num_rx : priv->num_tx;
  /* driver.xdp: the program ndo_bpf would attach (i40e_xdp_setup, which
   * rebuilds the rings with the XDP rings and the headroom). */
  priv->xdp_prog = nk_xdp_prog(dev);
  /* i40e_vsi_alloc_q_vector: each direction starts in LOW_LATENCY at the
   * configured ITR (nic.rx_/tx_irq_coal_usecs, as rx-usecs and tx-usecs);
   * the countdown starts at zero (kzalloc). */
  priv->adaptive_itr = cfg->driver.rx_coal_adaptive == NC_ADAPTIVE_ITR;
  for (u32 v = 0; v < priv->num_q_vectors; v++) {
    priv->q_vectors[v] = (struct i40e_q_vector){.priv = priv, .v_idx = (u16)v};
    for (int tx = 0; tx < 2; tx++) {
      struct i40e_ring_container *rc = tx ? &priv->q_vectors[v].tx : &priv->q_vectors[v].rx;
      const double reg = nc_coal_usecs(cfg, tx) / 2 + 0.5;
      rc->itr = (u16)(reg > I40E_MAX_ITR ? I40E_MAX_ITR : reg); /* 0: no timer, never adapted */
      rc->latency_range = I40E_LOW_LATENCY;
    }
  }
  netif_set_real_num_tx_queues(dev, priv->num_tx);
  netif_set_real_num_rx_queues(dev, priv->num_rx);

  for (u32 v = 0; v < priv->num_q_vectors; v++)
    writel(I40E_INT_ALL, priv->hw_addr + gn_qreg(v, GN_Q_INT_MASK)); /* quiet until NAPI is ready */
  int rc = -ENOMEM;
  if (i40e_setup_rings(priv, err, errlen) != 0) goto err_free;
  i40e_configure(priv);
  for (u32 v = 0; v < priv->num_q_vectors; v++) {
    struct i40e_q_vector *q_vector = &priv->q_vectors[v];
    rc = request_irq(dev, I40E_IRQ_VEC + (int)v, i40e_msix_clean_rings, q_vector);
    if (rc != 0) {
      snprintf(err, errlen, "i40e: request_irq(%u) failed (%d)", I40E_IRQ_VEC + v, rc);
      goto err_disable;
    }
    q_vector->irq_requested = true;
    netif_napi_add(dev, &q_vector->napi, i40e_napi_poll, (int)cfg->driver.napi_budget);
    if (v < priv->num_rx) netif_queue_set_napi(dev, v, NETDEV_QUEUE_TYPE_RX, &q_vector->napi);
    if (v < priv->num_tx) netif_queue_set_napi(dev, v, NETDEV_QUEUE_TYPE_TX, &q_vector->napi);
    napi_enable(&q_vector->napi);
  }
  for (u32 v = 0; v < priv->num_q_vectors; v++)
    writel(0, priv->hw_addr + gn_qreg(v, GN_Q_INT_MASK)); /* i40e_irq_dynamic_enable */
  return 0;

err_disable:
  writel(0, priv->hw_addr + GN_REG_CTRL);
  for (u32 v = 0; v < priv->num_q_vectors; v++) {
    struct i40e_q_vector *q_vector = &priv->q_vectors[v];
    if (q_vector->napi.registered) {
      napi_disable(&q_vector->napi);
      netif_napi_del(&q_vector->napi);
    }
    if (q_vector->irq_requested) free_irq(dev, I40E_IRQ_VEC + (int)v);
    q_vector->irq_requested = false;
  }
err_free:
  i40e_free_rings(priv);
  free(priv);
  dev->priv = NULL;
  return rc;
}

/* remove: stops the queue pairs, then frees what probe allocated. */
static void i40e_remove(struct net_device *dev) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  struct i40e_priv *priv = netdev_priv(dev);
  if (!priv) return;
  writel(0, priv->hw_addr + GN_REG_CTRL);
  for (u32 v = 0; v < priv->num_q_vectors; v++) writel(I40E_INT_ALL, priv->hw_addr + gn_qreg(v, GN_Q_INT_MASK));
  for (u32 v = 0; v < priv->num_q_vectors; v++) {
    struct i40e_q_vector *q_vector = &priv->q_vectors[v];
    napi_disable(&q_vector->napi);
    netif_napi_del(&q_vector->napi);
    if (q_vector->irq_requested) free_irq(dev, I40E_IRQ_VEC + (int)v);
  }
  nk_netdev_set_rss(dev, NULL, NULL, 0);
  i40e_free_rings(priv);
  free(priv);
  dev->priv = NULL;
}

/* ---- invariants ----------------------------------------------------------------------- */

/* Ring indices and buffer accounting of one RX and one TX ring (either may
 * be NULL); adds the TX ring's frames in flight to *in_flight. */
static int i40e_check_rings(const struct net_device *dev, const struct i40e_ring *rx, const struct i40e_ring *tx,
                            u32 *in_flight, char *err, size_t errlen) {
  const u32 rs = rx ? rx->count : 1, ts = tx ? tx->count : 1;
  if ((rx && (rx->next_to_clean >= rs || rx->next_to_use >= rs || rx->next_to_alloc >= rs)) ||
      (tx && (tx->next_to_clean >= ts || tx->next_to_use >= ts))) {
    snprintf(err, errlen, "i40e: ring index out of range (rx %u/%u/%u, tx %u/%u, sizes %u/%u)",
             rx ? rx->next_to_clean : 0, rx ? rx->next_to_use : 0, rx ? rx->next_to_alloc : 0,
             tx ? tx->next_to_clean : 0, tx ? tx->next_to_use : 0, rs, ts);
    return -1;
  }
  if (rx) {
    /* RX: slots [next_to_clean, next_to_alloc) hold buffers (the device's up
     * to next_to_use, then reused ones waiting for the refill); the rest are empty. */
    if (nk_ring_used(rx->next_to_alloc, rx->next_to_clean, rs) <
        nk_ring_used(rx->next_to_use, rx->next_to_clean, rs)) {
      snprintf(err, errlen, "i40e: RX next_to_alloc %u is behind next_to_use %u (clean %u)", rx->next_to_alloc,
               rx->next_to_use, rx->next_to_clean);
      return -1;
    }
    u32 held = 0;
    for (u32 i = 0; i < rs; i++) {
      const struct i40e_rx_buffer *b = &rx->rx_bi[i];
      bool want = nk_ring_in_flight(i, rx->next_to_alloc, rx->next_to_clean, rs);
      if ((b->page != NULL) != want) {
        snprintf(err, errlen, "i40e: RX slot %u %s a buffer (clean %u, use %u, alloc %u)", i,
                 b->page ? "holds" : "lacks", rx->next_to_clean, rx->next_to_use, rx->next_to_alloc);
        return -1;
      }
      if (!b->page) continue;
      held++;
      if (!nk_ring_in_flight(i, rx->next_to_use, rx->next_to_clean, rs)) continue;
      u64 q0, q1;
      memcpy(&q0, &i40e_rx_desc(rx, i)->pkt_addr, sizeof q0);
      memcpy(&q1, &i40e_rx_desc(rx, i)->hdr_addr, sizeof q1);
      if (!(q1 & I40E_RXD_DD) && q0 != b->dma + b->page_offset) {
        snprintf(err, errlen, "i40e: RX descriptor %u points at %#" PRIx64 " but its buffer is at %#" PRIx64, i, q0,
                 (u64)(b->dma + b->page_offset));
        return -1;
      }
    }
    const u32 xdp_out = rx->xdp_ring ? rx->xdp_ring->xdp_tx_active : 0;
    if (page_pool_in_use(rx->pool) != held + xdp_out) {
      snprintf(err, errlen, "i40e: %u RX buffers out of the pool but %u in the ring and %u on its XDP ring (leak)",
               page_pool_in_use(rx->pool), held, xdp_out);
      return -1;
    }
  }
  if (tx) {
    *in_flight += nk_ring_used(tx->next_to_use, tx->next_to_clean, ts);
    u32 ring_bytes = 0;
    for (u32 i = 0; i < ts; i++) {
      bool busy = nk_ring_in_flight(i, tx->next_to_use, tx->next_to_clean, ts);
      if ((tx->tx_bi[i].skb != NULL) != busy || (tx->tx_bi[i].next_to_watch != NULL) != busy) {
        snprintf(err, errlen, "i40e: TX slot %u %s an skb but is %s (clean %u, use %u)", i,
                 tx->tx_bi[i].skb ? "holds" : "lacks", busy ? "in flight" : "free", tx->next_to_clean,
                 tx->next_to_use);
        return -1;
      }
      if (tx->tx_bi[i].skb) ring_bytes += tx->tx_bi[i].bytecount;
    }
    if (nk_netdev_bql_check(dev, tx->queue_index, ring_bytes, "i40e", err, errlen) != 0) return -1;
    if (__netif_subqueue_stopped(dev, tx->queue_index) && i40e_desc_unused(tx) >= I40E_TX_WAKE_THRESHOLD) {
      snprintf(err, errlen, "i40e: TX queue stopped with %u free descriptors (wake threshold %d): missed wake",
               i40e_desc_unused(tx), I40E_TX_WAKE_THRESHOLD);
      return -1;
    }
  }
  return 0;
}

/* An XDP ring: indices, an RX buffer in exactly the slots in flight, and
 * xdp_tx_active counting them. */
static int i40e_check_xdp_ring(const struct i40e_ring *xr, char *err, size_t errlen) {
  const u32 n = xr->count;
  if (xr->next_to_clean >= n || xr->next_to_use >= n) {
    snprintf(err, errlen, "i40e: XDP ring index out of range (clean %u, use %u, size %u)", xr->next_to_clean,
             xr->next_to_use, n);
    return -1;
  }
  for (u32 i = 0; i < n; i++) {
    const bool busy = nk_ring_in_flight(i, xr->next_to_use, xr->next_to_clean, n);
    const struct i40e_tx_buffer *b = &xr->tx_bi[i];
    if ((b->xdpf != NULL) != busy || (b->next_to_watch != NULL) != busy || b->skb) {
      snprintf(err, errlen, "i40e: XDP ring slot %u %s an RX buffer%s but is %s (clean %u, use %u)", i,
               b->xdpf ? "holds" : "lacks", b->skb ? " and an skb" : "", busy ? "in flight" : "free",
               xr->next_to_clean, xr->next_to_use);
      return -1;
    }
  }
  if (xr->xdp_tx_active != nk_ring_used(xr->next_to_use, xr->next_to_clean, n)) {
    snprintf(err, errlen, "i40e: XDP ring counts %u frames in flight but holds %u", xr->xdp_tx_active,
             nk_ring_used(xr->next_to_use, xr->next_to_clean, n));
    return -1;
  }
  return 0;
}

/* Ring indices and buffer accounting of every queue pair. Reads descriptors
 * with plain loads: a check is not driver work and costs nothing. */
static int i40e_check(struct net_device *dev, char *err, size_t errlen) {
  const struct i40e_priv *priv = netdev_priv(dev);
  if (!priv) {
    snprintf(err, errlen, "i40e: no driver state (probe failed or remove ran)");
    return -1;
  }
  u32 in_flight = 0;
  for (u32 q = 0; q < priv->num_q_vectors; q++) {
    char msg[384];
    if (i40e_check_rings(dev, q < priv->num_rx ? &priv->rx_rings[q] : NULL,
                         q < priv->num_tx ? &priv->tx_rings[q] : NULL, &in_flight, msg, sizeof msg) != 0 ||
        (priv->xdp_prog && q < priv->num_rx && i40e_check_xdp_ring(&priv->xdp_rings[q], msg, sizeof msg) != 0)) {
      if (priv->num_q_vectors > 1)
        snprintf(err, errlen, "queue pair %u: %s", q, msg);
      else
        snprintf(err, errlen, "%s", msg);
      return -1;
    }
  }
  if (nk_kernel_skbs_in_use(dev->k) != in_flight) {
    snprintf(err, errlen, "i40e: %u skbs allocated but %u frames on the TX rings (leak or double free)",
             nk_kernel_skbs_in_use(dev->k), in_flight);
    return -1;
  }
  return 0;
}

const struct nk_driver nk_driver_i40e = {
    .name = "i40e",
    .probe = i40e_probe,
    .remove = i40e_remove,
    .ndo_start_xmit = i40e_xmit_frame,
    .check = i40e_check,
    .check_config = i40e_check_config,
    .has_itr = true,
    .has_xdp = true,
    .xdp_tx_rings = true,
};
