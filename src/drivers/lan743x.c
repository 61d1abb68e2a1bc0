/* lan743x.c: the Microchip LAN743x driver's hot paths, after Linux
 * drivers/net/ethernet/microchip/lan743x_main.c (function names as there);
 * docs/drivers/lan743x.md maps each function to Linux and counts its costs. */

/* One RX and one TX channel on one MSI vector, run with the flags Linux picks
 * for MSI on a B0 chip (SOURCE_STATUS_R2C | SOURCE_ENABLE_R2C |
 * VECTOR_ENABLE_ISR_CLEAR | VECTOR_ENABLE_ISR_SET). RX: an skb in every slot,
 * replaced on receive and passed up as is; the tail register moves once per 8
 * descriptors. TX: one descriptor per frame, no OWN bit, completion read from
 * the head write-back word; a frame that does not fit waits in overflow_skb.
 * Descriptors sit nic.desc_spacing bytes apart (DMAC_CFG MAX_DSPACE). The
 * registers are nicsim's common block (src/hw/generic_nic_regs.h): see
 * lan743x_intr_write_mask for how INT_EN / INT_VEC_EN map onto INT_MASK. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/gn_coal.h"
#include "drivers/lan743x.h"
#include "drivers/ring.h"
#include "hw/generic_nic_regs.h"
#include "net/frame.h"

/* ---- interrupt enables ------------------------------------------------------ */

/* Writes the device's INT_MASK from the enables Linux keeps in two registers:
 * with the vector enabled, a cause is masked when its source enable
 * (INT_EN_SET) is off; with the vector disabled (INT_VEC_EN_CLR), all are.
 * Each Linux write of INT_EN_SET / INT_EN_CLR / INT_VEC_EN_SET / INT_VEC_EN_CLR
 * on the hot path is one call: one MMIO write, as there. */
static void lan743x_intr_write_mask(struct lan743x_adapter *adapter) {
  u32 mask = adapter->vec_en ? (~adapter->int_en & GN_INT_ALL) : GN_INT_ALL;
  writel(mask, adapter->ioaddr + GN_REG_INT_MASK);
}

/* ---- TX ------------------------------------------------------------------------ */

/* The index after index. */
static u32 lan743x_tx_next_index(const struct lan743x_tx *tx, u32 index) { return nk_ring_next(index, tx->ring_size); }

/* Releases TX descriptor index: unmaps its buffer, frees the skb of the
 * frame it ends (counted sent, or dropped when cleanup), then zeroes the
 * descriptor (memset(descriptor, 0, 16): two 8-byte stores). */
static void lan743x_tx_release_desc(struct lan743x_tx *tx, u32 index, bool cleanup) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *netdev = tx->adapter->netdev;
  struct lan743x_tx_desc *descriptor = lan743x_tx_desc(tx, index);
  struct lan743x_tx_buffer_info *buffer_info = &tx->buffer_info[index];

  if (!(buffer_info->flags & LAN743X_TX_BUFFER_INFO_FLAG_ACTIVE)) goto done;
  if (!buffer_info->dma_ptr) goto done;
  dma_unmap_single(netdev, buffer_info->dma_ptr, buffer_info->buffer_length, DMA_TO_DEVICE);
  if (!buffer_info->skb) goto done;
  if (cleanup) {
    netdev->stats.tx_dropped++;
  } else {
    netdev->stats.tx_packets++;
    netdev->stats.tx_bytes += buffer_info->skb->len;
  }
  dev_kfree_skb_any(buffer_info->skb);
done:
  *buffer_info = (struct lan743x_tx_buffer_info){NULL, 0, 0, 0};
  nk_st64(&descriptor->data0, 0); /* data0, data1 */
  nk_st64(&descriptor->data2, 0); /* data2, data3 */
}

/* Releases every descriptor the device has passed: the head write-back word
 * is read (uncached on a non-coherent platform) once per descriptor and once
 * more to find nothing left, as Linux's while loop does. */
static void lan743x_tx_release_completed_descriptors(struct lan743x_tx *tx) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  for (;;) {
    u32 head = nk_ld32(tx->head_cpu_ptr); /* le32_to_cpu(*tx->head_cpu_ptr) */
    if (head == tx->last_head || head >= tx->ring_size) break;
    lan743x_tx_release_desc(tx, tx->last_head, false);
    tx->last_head = lan743x_tx_next_index(tx, tx->last_head);
  }
}

/* Descriptors a frame needs: one for the linear skb (no fragments, no LSO here). */
static int lan743x_tx_get_desc_cnt(const struct lan743x_tx *tx, const struct sk_buff *skb) {
  (void)tx;
  (void)skb;
  return 1;
}

/* Free descriptors (one stays empty). */
static int lan743x_tx_get_avail_desc(const struct lan743x_tx *tx) {
  int last_head = (int)tx->last_head, last_tail = (int)tx->last_tail;
  if (last_tail >= last_head) return (int)tx->ring_size - last_tail + last_head - 1;
  return last_head - last_tail - 1;
}

/* Maps the frame's first buffer and writes data1..data3 of the first
 * descriptor; data0 is kept in frame_data0 for lan743x_tx_frame_end. */
static int lan743x_tx_frame_start(struct lan743x_tx *tx, unsigned char *first_buffer, unsigned int first_buffer_length,
                                  unsigned int frame_length) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct net_device *netdev = tx->adapter->netdev;
  tx->frame_first = tx->last_tail;
  tx->frame_tail = tx->frame_first;
  struct lan743x_tx_desc *tx_descriptor = lan743x_tx_desc(tx, tx->frame_tail);
  struct lan743x_tx_buffer_info *buffer_info = &tx->buffer_info[tx->frame_tail];
  dma_addr_t dma_ptr = dma_map_single(netdev, first_buffer, first_buffer_length, DMA_TO_DEVICE);
  if (dma_mapping_error(netdev, dma_ptr)) return -ENOMEM;

  nk_st32(&tx_descriptor->data1, (u32)dma_ptr);
  nk_st32(&tx_descriptor->data2, (u32)(dma_ptr >> 32));
  nk_st32(&tx_descriptor->data3, (frame_length << 16) & LAN743X_TX_DESC_DATA3_FRAME_LENGTH_MSS_MASK);

  buffer_info->skb = NULL;
  buffer_info->dma_ptr = dma_ptr;
  buffer_info->buffer_length = first_buffer_length;
  buffer_info->flags |= LAN743X_TX_BUFFER_INFO_FLAG_ACTIVE;

  tx->frame_data0 = (first_buffer_length & LAN743X_TX_DESC_DATA0_BUF_LENGTH_MASK) | LAN743X_TX_DESC_DATA0_DTYPE_DATA |
                    LAN743X_TX_DESC_DATA0_FS | LAN743X_TX_DESC_DATA0_FCS;
  return 0;
}

/* Closes the frame: LS | IOC into data0 (written last), dma_wmb(), then the
 * TX_TAIL doorbell: one per frame. */
static void lan743x_tx_frame_end(struct lan743x_tx *tx, struct sk_buff *skb) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct lan743x_adapter *adapter = tx->adapter;
  if ((tx->frame_data0 & LAN743X_TX_DESC_DATA0_DTYPE_MASK) == LAN743X_TX_DESC_DATA0_DTYPE_DATA)
    tx->frame_data0 |= LAN743X_TX_DESC_DATA0_LS | LAN743X_TX_DESC_DATA0_IOC;
  struct lan743x_tx_desc *tx_descriptor = lan743x_tx_desc(tx, tx->frame_tail);
  struct lan743x_tx_buffer_info *buffer_info = &tx->buffer_info[tx->frame_tail];
  buffer_info->skb = skb;
  nk_st32(&tx_descriptor->data0, tx->frame_data0);
  tx->frame_tail = lan743x_tx_next_index(tx, tx->frame_tail);
  tx->last_tail = tx->frame_tail;
  dma_wmb();
  /* No TX_TAIL_SET_* flags: the MSI vector has no AUTO_SET flags. */
  writel(tx->frame_tail, adapter->ioaddr + GN_REG_TX_TAIL);
}

/* Puts one frame on the TX ring. If it does not fit it becomes overflow_skb
 * and the queue stops (NETDEV_TX_OK all the same: the TX poll sends it). */
static netdev_tx_t lan743x_tx_xmit_frame(struct lan743x_tx *tx, struct sk_buff *skb) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  struct lan743x_adapter *adapter = tx->adapter;
  struct net_device *netdev = adapter->netdev;
  unsigned long irq_flags;
  spin_lock_irqsave(&tx->ring_lock, irq_flags);
  int required_number_of_descriptors = lan743x_tx_get_desc_cnt(tx, skb);
  if (required_number_of_descriptors > lan743x_tx_get_avail_desc(tx)) {
    if (required_number_of_descriptors > (int)tx->ring_size - 1) {
      netdev->stats.tx_dropped++;
      dev_kfree_skb_any(skb);
    } else {
      tx->overflow_skb = skb; /* save to overflow buffer */
      netif_stop_queue(netdev);
      adapter->tx_stops++;
    }
    goto unlock;
  }
  unsigned int head_length = skb->len, frame_length = skb->len;
  if (lan743x_tx_frame_start(tx, skb->data, head_length, frame_length)) {
    netdev->stats.tx_dropped++;
    dev_kfree_skb_any(skb);
    goto unlock;
  }
  tx->frame_count++;
  lan743x_tx_frame_end(tx, skb);
unlock:
  spin_unlock_irqrestore(&tx->ring_lock, irq_flags);
  return NETDEV_TX_OK;
}

/* ndo_start_xmit (lan743x_netdev_xmit_frame): channel 0. */
static netdev_tx_t lan743x_netdev_xmit_frame(struct sk_buff *skb, struct net_device *netdev) {
  struct lan743x_adapter *adapter = netdev_priv(netdev);
  return lan743x_tx_xmit_frame(&adapter->tx, skb);
}

/* TX NAPI poll: releases what the device has sent, sends the overflow frame
 * or wakes the queue, then re-enables the TX source. Not budgeted; returns 0.
 * Its two register reads return values Linux does not use (DMAC_INT_STS, and
 * INT_STS as a flush); the common block's INT_STATUS clears on read, so both
 * read INT_MASK: the same round trip, no side effect. */
static int lan743x_tx_napi_poll(struct napi_struct *napi, int weight) {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  (void)weight;
  struct lan743x_tx *tx = (struct lan743x_tx *)((char *)napi - offsetof(struct lan743x_tx, napi));
  struct lan743x_adapter *adapter = tx->adapter;
  struct net_device *netdev = adapter->netdev;
  bool start_transmitter = false;
  unsigned long irq_flags;

  (void)readl(adapter->ioaddr + GN_REG_INT_MASK); /* lan743x_csr_read(adapter, DMAC_INT_STS) */
  /* No SOURCE_STATUS_W2C: no DMAC_INT_STS write. */
  spin_lock_irqsave(&tx->ring_lock, irq_flags);
  lan743x_tx_release_completed_descriptors(tx);
  if (netif_queue_stopped(netdev)) {
    if (tx->overflow_skb) {
      if (lan743x_tx_get_desc_cnt(tx, tx->overflow_skb) <= lan743x_tx_get_avail_desc(tx)) start_transmitter = true;
    } else {
      netif_wake_queue(netdev);
      adapter->tx_wakes++;
    }
  }
  spin_unlock_irqrestore(&tx->ring_lock, irq_flags);
  if (start_transmitter) {
    /* space is now available, transmit overflow skb */
    struct sk_buff *skb = tx->overflow_skb;
    tx->overflow_skb = NULL;
    lan743x_tx_xmit_frame(tx, skb);
    netif_wake_queue(netdev);
    adapter->tx_wakes++;
  }
  if (!napi_complete_done(napi, 0)) return 0;
  /* enable isr: INT_EN_SET(DMA_TX_0) */
  adapter->int_en |= GN_INT_TX;
  lan743x_intr_write_mask(adapter);
  (void)readl(adapter->ioaddr + GN_REG_INT_MASK); /* lan743x_csr_read(adapter, INT_STS) */
  return 0;
}

/* ---- RX ------------------------------------------------------------------------ */

/* The index after index. */
static u32 lan743x_rx_next_index(const struct lan743x_rx *rx, u32 index) { return nk_ring_next(index, rx->ring_size); }

/* Moves RX_TAIL to index once per 8 descriptors (index & 7 == 7). */
static void lan743x_rx_update_tail(struct lan743x_rx *rx, u32 index) {
  if ((index & 7) == 7) writel(index, rx->adapter->ioaddr + GN_REG_RX_TAIL);
}

/* Arms slot index with a new skb: allocate, map (FROM_DEVICE), then sync the
 * old buffer's used part for the CPU and unmap it without another sync, then
 * write data1..data3 and data0 = OWN | length (4 stores, no barrier, as
 * Linux), and maybe the tail. 0 or -ENOMEM (the slot is left as it was). */
static int lan743x_rx_init_ring_element(struct lan743x_rx *rx, u32 index) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *netdev = rx->adapter->netdev;
  unsigned int buffer_length = rx->buffer_length;
  struct lan743x_rx_desc *descriptor = lan743x_rx_desc(rx, index);
  struct lan743x_rx_buffer_info *buffer_info = &rx->buffer_info[index];

  struct sk_buff *skb = netdev_alloc_skb(netdev, buffer_length);
  if (!skb) return -ENOMEM;
  dma_addr_t dma_ptr = dma_map_single(netdev, skb->data, buffer_length, DMA_FROM_DEVICE);
  if (dma_mapping_error(netdev, dma_ptr)) {
    dev_kfree_skb_any(skb);
    return -ENOMEM;
  }
  if (buffer_info->dma_ptr) {
    /* sync used area of buffer only: data0 is loaded again (the calls above
     * may have changed memory, so the compiler cannot reuse the caller's load) */
    u32 data0 = nk_ld32(&descriptor->data0);
    unsigned int used_length = buffer_info->buffer_length;
    if (data0 & LAN743X_RX_DESC_DATA0_LS) {
      unsigned int frame_length =
          (data0 & LAN743X_RX_DESC_DATA0_FRAME_LENGTH_MASK) >> LAN743X_RX_DESC_DATA0_FRAME_LENGTH_SHIFT;
      if (frame_length < used_length) used_length = frame_length;
    }
    if (used_length) dma_sync_single_for_cpu(netdev, buffer_info->dma_ptr, used_length, DMA_FROM_DEVICE);
    dma_unmap_single_attrs(netdev, buffer_info->dma_ptr, buffer_info->buffer_length, DMA_FROM_DEVICE,
                           DMA_ATTR_SKIP_CPU_SYNC);
  }
  buffer_info->skb = skb;
  buffer_info->dma_ptr = dma_ptr;
  buffer_info->buffer_length = buffer_length;
  nk_st32(&descriptor->data1, (u32)dma_ptr);
  nk_st32(&descriptor->data2, (u32)(dma_ptr >> 32));
  nk_st32(&descriptor->data3, 0);
  nk_st32(&descriptor->data0, LAN743X_RX_DESC_DATA0_OWN | (buffer_length & LAN743X_RX_DESC_DATA0_BUF_LENGTH_MASK));
  lan743x_rx_update_tail(rx, index);
  return 0;
}

/* Gives slot index back to the device with the buffer it already had
 * (allocation failed: the frame is dropped). */
static void lan743x_rx_reuse_ring_element(struct lan743x_rx *rx, u32 index) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct lan743x_rx_desc *descriptor = lan743x_rx_desc(rx, index);
  struct lan743x_rx_buffer_info *buffer_info = &rx->buffer_info[index];
  nk_st32(&descriptor->data1, (u32)buffer_info->dma_ptr);
  nk_st32(&descriptor->data2, (u32)(buffer_info->dma_ptr >> 32));
  nk_st32(&descriptor->data3, 0);
  nk_st32(&descriptor->data0,
          LAN743X_RX_DESC_DATA0_OWN | (buffer_info->buffer_length & LAN743X_RX_DESC_DATA0_BUF_LENGTH_MASK));
  lan743x_rx_update_tail(rx, index);
}

/* Processes the descriptor at last_head if the device has released it: the
 * slot gets a new skb and the old one, trimmed to the frame, goes to
 * napi_gro_receive. One data0 load serves OWN, LS, FS, EXT and the frame
 * length (Linux reads them with no call in between). */
static int lan743x_rx_process_buffer(struct lan743x_rx *rx) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct net_device *netdev = rx->adapter->netdev;
  /* Linux first loads its RX head write-back word; nicsim's device has no
   * RX head write-back, so OWN alone says whether the slot is done. */
  if (rx->last_head >= rx->ring_size) return LAN743X_RX_NOTHING_TO_DO;
  struct lan743x_rx_desc *descriptor = lan743x_rx_desc(rx, rx->last_head);
  u32 data0 = nk_ld32(&descriptor->data0);
  if (data0 & LAN743X_RX_DESC_DATA0_OWN) return LAN743X_RX_NOTHING_TO_DO;
  struct lan743x_rx_buffer_info *buffer_info = &rx->buffer_info[rx->last_head];
  bool is_last = (data0 & LAN743X_RX_DESC_DATA0_LS) != 0;
  bool is_first = (data0 & LAN743X_RX_DESC_DATA0_FS) != 0;
  unsigned int frame_length =
      (data0 & LAN743X_RX_DESC_DATA0_FRAME_LENGTH_MASK) >> LAN743X_RX_DESC_DATA0_FRAME_LENGTH_SHIFT;
  unsigned int buffer_length = buffer_info->buffer_length;

  /* save existing skb, allocate new skb and map to dma */
  struct sk_buff *skb = buffer_info->skb;
  if (lan743x_rx_init_ring_element(rx, rx->last_head)) {
    /* Memory is very low: drop this frame and reuse the buffer. */
    lan743x_rx_reuse_ring_element(rx, rx->last_head);
    netdev->stats.rx_dropped++;
    goto move_forward;
  }
  /* One buffer per frame (the config check sizes buffers for the largest
   * frame): a frame split over buffers (no frag_list here), a timestamp
   * extension, or a length the buffer cannot hold is an error. */
  if (!is_first || !is_last || (data0 & LAN743X_RX_DESC_DATA0_EXT) ||
      frame_length < LAN743X_ETH_HLEN + LAN743X_ETH_FCS_LEN ||
      frame_length > buffer_length - LAN743X_RX_HEAD_PADDING) {
    netdev->stats.rx_errors++;
    dev_kfree_skb_any(skb);
    goto move_forward;
  }
  skb_reserve(skb, LAN743X_RX_HEAD_PADDING);
  /* skb_put(buffer_length - RX_HEAD_PADDING), then lan743x_rx_trim_skb to
   * frame_length - ETH_FCS_LEN: the same bytes. */
  skb_put(skb, frame_length - LAN743X_ETH_FCS_LEN);
  napi_gro_receive(&rx->napi, skb);

move_forward:
  /* push tail and head forward */
  rx->last_tail = rx->last_head;
  rx->last_head = lan743x_rx_next_index(rx, rx->last_head);
  return LAN743X_RX_BUFFER_RECEIVED;
}

/* RX NAPI poll: up to weight buffers; under budget it completes and
 * re-enables the RX source (INT_EN_SET). */
static int lan743x_rx_napi_poll(struct napi_struct *napi, int weight) {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  struct lan743x_rx *rx = (struct lan743x_rx *)((char *)napi - offsetof(struct lan743x_rx, napi));
  struct lan743x_adapter *adapter = rx->adapter;
  int result = LAN743X_RX_NOTHING_TO_DO;
  int count;
  /* No SOURCE_STATUS_W2C: no DMAC_INT_STS write before reading. */
  for (count = 0; count < weight; count++) {
    result = lan743x_rx_process_buffer(rx);
    if (result == LAN743X_RX_NOTHING_TO_DO) break;
  }
  rx->frame_count += (u64)count;
  if (count == weight || result == LAN743X_RX_BUFFER_RECEIVED) return weight;
  if (!napi_complete_done(napi, count)) return count;
  /* re-arm interrupts: no AUTO_SET flags, so INT_EN_SET, no RX_TAIL write */
  adapter->int_en |= GN_INT_RX;
  lan743x_intr_write_mask(adapter);
  return count;
}

/* ---- interrupts ------------------------------------------------------------------ */

/* RX source: schedules RX NAPI (status and enable implied: no reads). */
static void lan743x_rx_isr(struct lan743x_rx *rx, u32 int_sts) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  bool enable_flag = true;
  /* No SOURCE_ENABLE_CLEAR: the R2C status read already cleared the enable. */
  if (int_sts & GN_INT_RX) {
    napi_schedule(&rx->napi);
    enable_flag = false; /* poll function will enable later */
  }
  if (enable_flag) {
    rx->adapter->int_en |= GN_INT_RX;
    lan743x_intr_write_mask(rx->adapter);
  }
}

/* TX source: one INT_EN_SET read whose value Linux ignores (read here from
 * INT_MASK, the same round trip), then schedules TX NAPI. */
static void lan743x_tx_isr(struct lan743x_tx *tx, u32 int_sts) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  bool enable_flag = true;
  (void)readl(tx->adapter->ioaddr + GN_REG_INT_MASK); /* lan743x_csr_read(adapter, INT_EN_SET) */
  if (int_sts & GN_INT_TX) {
    napi_schedule(&tx->napi);
    enable_flag = false; /* poll func will enable later */
  }
  if (enable_flag) {
    tx->adapter->int_en |= GN_INT_TX;
    lan743x_intr_write_mask(tx->adapter);
  }
}

/* Vector 0's handler: RX first, then TX. */
static void lan743x_intr_shared_isr(struct lan743x_adapter *adapter, u32 int_sts) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  if (int_sts & GN_INT_RX) {
    lan743x_rx_isr(&adapter->rx, GN_INT_RX);
    int_sts &= ~GN_INT_RX;
  }
  if (int_sts & GN_INT_TX) {
    lan743x_tx_isr(&adapter->tx, GN_INT_TX);
    int_sts &= ~GN_INT_TX;
  }
}

/* Hard IRQ (lan743x_intr_entry_isr with the MSI flags): one read of the
 * read-to-clear status (INT_STS_R2C, which also clears the enables of the
 * sources it reports: SOURCE_ENABLE_R2C), vector off, the handler, vector on. */
static irqreturn_t lan743x_intr_entry_isr(int irq, void *ptr) {
  NK_PROFILE_FUNC(NK_CLASS_IRQ);
  struct lan743x_adapter *adapter = ptr;
  irqreturn_t result = IRQ_NONE;
  (void)irq;
  u32 int_sts = readl(adapter->ioaddr + GN_REG_INT_STATUS); /* lan743x_csr_read(adapter, INT_STS_R2C) */
  if (!(int_sts & GN_INT_ALL)) { /* Linux: !(int_sts & INT_BIT_MAS_) */
    adapter->irqs_none++;
    return IRQ_NONE;
  }
  adapter->int_en &= ~int_sts; /* the R2C side effect, on the driver's copy of the enables */
  adapter->vec_en = false;     /* VECTOR_ENABLE_ISR_CLEAR: INT_VEC_EN_CLR */
  lan743x_intr_write_mask(adapter);
  int_sts &= GN_INT_ALL; /* no SOURCE_ENABLE_CHECK: the vector's int_mask is the implied enable mask */
  if (int_sts) {
    lan743x_intr_shared_isr(adapter, int_sts);
    result = IRQ_HANDLED;
  }
  adapter->vec_en = true; /* VECTOR_ENABLE_ISR_SET: INT_VEC_EN_SET */
  lan743x_intr_write_mask(adapter);
  return result;
}

/* ---- open / close (probe / remove) --------------------------------------------------- */

/* The largest frame of the run, FCS included (a 1500-byte MTU at least). */

/* Checks the config against what this driver and the LAN743x can do. */
static int lan743x_check_config(const struct nicsim_config *cfg, struct nk_config_error *e) {
  const int64_t sp = cfg->nic.desc_spacing, rs = cfg->nic.rx_ring_size;
  if (sp != LAN743X_DESC_SPACING_16 && sp != LAN743X_DESC_SPACING_32 && sp != LAN743X_DESC_SPACING_64 &&
      sp != LAN743X_DESC_SPACING_128)
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_desc_spacing), "use 16, 32, 64 or 128 (DMAC_CFG MAX_DSPACE)",
                          "nic.desc_spacing = %" PRId64 ": lan743x DSPACE is 16, 32, 64 or 128 bytes", sp);
  if (rs < 8 || rs % 8) {
    char hint[128];
    snprintf(hint, sizeof hint, "use a multiple of 8, e.g. %" PRId64, rs < 8 ? 8 : (rs + 7) / 8 * 8);
    return nk_config_fail(e, NK_KEYS(NC_KEY_nic_rx_ring_size), hint,
                          "nic.rx_ring_size = %" PRId64 ": lan743x needs a multiple of 8 (it moves RX_TAIL only at "
                          "indices with index & 7 == 7)",
                          rs);
  }
  /* driver.rx_buf_bytes is rx->buffer_length: MTU + ETH_HLEN + ETH_FCS_LEN
   * + RX_HEAD_PADDING since v5.12 ("lan743x: boost performance on cpu archs
   * w/o dma cache snooping", 2021), LAN743X_MAX_FRAME_SIZE (9216) + 14 + 4 +
   * RX_HEAD_PADDING before it. The whole frame, FCS included, lands in one
   * buffer after the padding; the descriptor holds 14 bits of length. */
  const int64_t buf = cfg->driver.rx_buf_bytes;
  const int64_t need = cfg->traffic.frame_bytes + LAN743X_RX_HEAD_PADDING;
  if (buf > LAN743X_RX_DESC_DATA0_BUF_LENGTH_MASK)
    return nk_config_fail(e, NK_KEYS(NC_KEY_driver_rx_buf_bytes), "use at most 16383",
                          "driver.rx_buf_bytes = %" PRId64 ": the lan743x RX descriptor's buffer length has 14 bits",
                          buf);
  if (cfg->traffic.mode != NC_MODE_TX && need > buf) {
    char hint[160];
    snprintf(hint, sizeof hint,
             "set driver.rx_buf_bytes to at least %" PRId64 " (the MTU + 18, as Linux sizes it), or "
             "traffic.frame_bytes to at most %" PRId64,
             need, buf - LAN743X_RX_HEAD_PADDING);
    return nk_config_fail(e, NK_KEYS(NC_KEY_traffic_frame_bytes, NC_KEY_driver_rx_buf_bytes), hint,
                          "traffic.frame_bytes = %" PRId64 " does not fit a lan743x RX buffer of driver.rx_buf_bytes "
                          "= %" PRId64 " (the frame lands whole, with its FCS)",
                          cfg->traffic.frame_bytes, buf);
  }
  return nk_config_ring_min(cfg, 8, 2, "lan743x", e);
}

/* Frees every RX slot's skb (unmapping it) and the RX ring. */
static void lan743x_rx_ring_cleanup(struct lan743x_rx *rx) {
  struct net_device *netdev = rx->adapter->netdev;
  if (rx->buffer_info) {
    for (u32 i = 0; i < rx->ring_size; i++) {
      struct lan743x_rx_buffer_info *bi = &rx->buffer_info[i];
      if (bi->dma_ptr) dma_unmap_single(netdev, bi->dma_ptr, bi->buffer_length, DMA_FROM_DEVICE);
      if (bi->skb) dev_kfree_skb_any(bi->skb);
      *bi = (struct lan743x_rx_buffer_info){NULL, 0, 0};
    }
    free(rx->buffer_info);
    rx->buffer_info = NULL;
  }
  if (rx->ring_cpu_ptr) dma_free_coherent(netdev, rx->ring_allocation_size, rx->ring_cpu_ptr, rx->ring_dma_ptr);
  rx->ring_cpu_ptr = NULL;
}

/* Frees frames still on the TX ring (tx_dropped), the overflow frame, the
 * ring and the head write-back word. */
static void lan743x_tx_ring_cleanup(struct lan743x_tx *tx) {
  struct net_device *netdev = tx->adapter->netdev;
  if (tx->buffer_info && tx->ring_cpu_ptr) {
    for (u32 i = 0; i < tx->ring_size; i++) lan743x_tx_release_desc(tx, i, true);
  }
  if (tx->overflow_skb) {
    netdev->stats.tx_dropped++;
    dev_kfree_skb_any(tx->overflow_skb);
    tx->overflow_skb = NULL;
  }
  free(tx->buffer_info);
  tx->buffer_info = NULL;
  if (tx->head_cpu_ptr) dma_free_coherent(netdev, sizeof *tx->head_cpu_ptr, tx->head_cpu_ptr, tx->head_dma_ptr);
  tx->head_cpu_ptr = NULL;
  if (tx->ring_cpu_ptr) dma_free_coherent(netdev, tx->ring_allocation_size, tx->ring_cpu_ptr, tx->ring_dma_ptr);
  tx->ring_cpu_ptr = NULL;
}

/* DMAC setup (lan743x_dmac_init and the INT_MOD / DMAC_COAL_CFG writes):
 * descriptor spacing, coalescing, MSI target. */
static void lan743x_dmac_init(struct lan743x_adapter *adapter, u32 desc_spacing) {
  const struct nicsim_config *cfg = adapter->netdev->cfg;
  void __iomem *io = adapter->ioaddr;
  u64 msi = nk_msi_addr(adapter->netdev);
  writel(desc_spacing, io + GN_REG_DESC_SPACING); /* DMAC_CFG MAX_DSPACE */
  writel((u32)cfg->nic.irq_coal_frames, io + GN_REG_COAL_FRAMES);
  writel((u32)(cfg->nic.irq_coal_usecs + 0.5), io + GN_REG_COAL_USECS);
  gn_coal_dir_program(io, 0, cfg);
  writel((u32)msi, io + GN_REG_MSI_ADDR_LO);
  writel((u32)(msi >> 32), io + GN_REG_MSI_ADDR_HI);
  writel(nk_msi_data(adapter->netdev, LAN743X_IRQ_VEC), io + GN_REG_MSI_DATA);
}

/* RX ring: allocation, ring registers, then an skb in every slot. The ring
 * is programmed before the fill (Linux programs it after) because the
 * model checks each RX_TAIL write of the fill against the ring size. */
static int lan743x_rx_ring_init(struct lan743x_rx *rx, char *err, size_t errlen) {
  struct net_device *netdev = rx->adapter->netdev;
  void __iomem *io = rx->adapter->ioaddr;
  rx->ring_allocation_size = (size_t)rx->ring_size * rx->desc_spacing;
  rx->ring_cpu_ptr = dma_alloc_coherent(netdev, rx->ring_allocation_size, &rx->ring_dma_ptr);
  if (!rx->ring_cpu_ptr) {
    snprintf(err, errlen, "lan743x: RX ring: %s", nk_kernel_last_error(netdev->k));
    return -ENOMEM;
  }
  rx->buffer_info = calloc(rx->ring_size, sizeof *rx->buffer_info);
  if (!rx->buffer_info) {
    snprintf(err, errlen, "lan743x: out of host memory for RX buffer_info");
    return -ENOMEM;
  }
  writel((u32)rx->ring_dma_ptr, io + GN_REG_RX_RING_LO);
  writel((u32)(rx->ring_dma_ptr >> 32), io + GN_REG_RX_RING_HI);
  writel(rx->ring_size, io + GN_REG_RX_RING_SIZE);
  rx->last_head = 0;
  for (u32 index = 0; index < rx->ring_size; index++) {
    if (lan743x_rx_init_ring_element(rx, index) != 0) {
      snprintf(err, errlen, "lan743x: RX buffer %u of %u: %s", index, rx->ring_size,
               nk_kernel_last_error(netdev->k));
      return -ENOMEM;
    }
  }
  return 0;
}

/* lan743x_rx_open: ring and buffers, RX_TAIL = size - 1, the head must be 0,
 * NAPI, RX source enabled, channel started. */
static int lan743x_rx_open(struct lan743x_rx *rx, char *err, size_t errlen) {
  struct lan743x_adapter *adapter = rx->adapter;
  const struct nicsim_config *cfg = adapter->netdev->cfg;
  void __iomem *io = adapter->ioaddr;
  int ret = lan743x_rx_ring_init(rx, err, errlen);
  if (ret) return ret;
  netif_napi_add(adapter->netdev, &rx->napi, lan743x_rx_napi_poll, (int)cfg->driver.napi_budget);
  adapter->rx_napi_added = true;
  rx->last_tail = rx->ring_size - 1;
  writel(rx->last_tail, io + GN_REG_RX_TAIL);
  rx->last_head = readl(io + GN_REG_RX_HEAD);
  if (rx->last_head) {
    snprintf(err, errlen, "lan743x: RX_HEAD reads %u after reset, not 0", rx->last_head);
    return -EIO;
  }
  napi_enable(&rx->napi);
  adapter->int_en |= GN_INT_RX; /* INT_EN_SET(DMA_RX_0): reaches INT_MASK when the vector is enabled */
  writel(GN_CTRL_RX_EN, io + GN_REG_CTRL); /* DMAC_CMD START_R */
  return 0;
}

/* lan743x_tx_open: ring, buffer_info and head word, ring and head write-back
 * registers, last_head from TX_HEAD, TX_TAIL = 0, NAPI, channel started. */
static int lan743x_tx_open(struct lan743x_tx *tx, char *err, size_t errlen) {
  struct lan743x_adapter *adapter = tx->adapter;
  struct net_device *netdev = adapter->netdev;
  void __iomem *io = adapter->ioaddr;
  spin_lock_init(&tx->ring_lock);
  tx->ring_allocation_size = (size_t)tx->ring_size * tx->desc_spacing;
  tx->ring_cpu_ptr = dma_alloc_coherent(netdev, tx->ring_allocation_size, &tx->ring_dma_ptr);
  tx->buffer_info = calloc(tx->ring_size, sizeof *tx->buffer_info);
  tx->head_cpu_ptr = dma_alloc_coherent(netdev, sizeof *tx->head_cpu_ptr, &tx->head_dma_ptr);
  if (!tx->ring_cpu_ptr || !tx->buffer_info || !tx->head_cpu_ptr) {
    snprintf(err, errlen, "lan743x: TX ring: %s",
             tx->buffer_info ? nk_kernel_last_error(netdev->k) : "out of host memory for TX buffer_info");
    return -ENOMEM;
  }
  writel((u32)tx->ring_dma_ptr, io + GN_REG_TX_RING_LO);
  writel((u32)(tx->ring_dma_ptr >> 32), io + GN_REG_TX_RING_HI);
  writel(tx->ring_size, io + GN_REG_TX_RING_SIZE);
  /* TX_CFG_A TX_HP_WB_EN: the device writes its head index here */
  writel((u32)tx->head_dma_ptr, io + GN_REG_TX_HEAD_WB_LO);
  writel((u32)(tx->head_dma_ptr >> 32), io + GN_REG_TX_HEAD_WB_HI);
  tx->last_head = readl(io + GN_REG_TX_HEAD);
  if (tx->last_head >= tx->ring_size) {
    snprintf(err, errlen, "lan743x: TX_HEAD reads %u, beyond the %u-entry ring", tx->last_head, tx->ring_size);
    return -EIO;
  }
  tx->last_tail = tx->last_head;
  writel(tx->last_tail, io + GN_REG_TX_TAIL);
  netif_napi_add(netdev, &tx->napi, lan743x_tx_napi_poll, (int)tx->ring_size - 1);
  adapter->tx_napi_added = true;
  napi_enable(&tx->napi);
  adapter->int_en |= GN_INT_TX;
  writel(GN_CTRL_RX_EN | GN_CTRL_TX_EN, io + GN_REG_CTRL); /* DMAC_CMD START_T */
  return 0;
}

/* Stops the device and frees whatever probe set up (remove and the probe error path). */
static void lan743x_netdev_close(struct lan743x_adapter *adapter) {
  struct net_device *netdev = adapter->netdev;
  writel(0, adapter->ioaddr + GN_REG_CTRL);
  adapter->vec_en = false;
  adapter->int_en = 0;
  lan743x_intr_write_mask(adapter);
  if (adapter->tx_napi_added) {
    napi_disable(&adapter->tx.napi);
    netif_napi_del(&adapter->tx.napi);
    adapter->tx_napi_added = false;
  }
  if (adapter->rx_napi_added) {
    napi_disable(&adapter->rx.napi);
    netif_napi_del(&adapter->rx.napi);
    adapter->rx_napi_added = false;
  }
  if (adapter->irq_requested) free_irq(netdev, LAN743X_IRQ_VEC);
  adapter->irq_requested = false;
  lan743x_tx_ring_cleanup(&adapter->tx);
  lan743x_rx_ring_cleanup(&adapter->rx);
}

/* probe (lan743x_pcidev_probe + lan743x_netdev_open): interrupts masked,
 * IRQ, DMAC, RX, TX, then the vector and both sources enabled. */
static int lan743x_pcidev_probe(struct net_device *netdev, char *err, size_t errlen) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  const struct nicsim_config *cfg = netdev->cfg;
  if (nk_driver_probe_check(&nk_driver_lan743x, cfg, err, errlen) != 0) return -EINVAL;
  struct lan743x_adapter *adapter = calloc(1, sizeof *adapter);
  if (!adapter) {
    snprintf(err, errlen, "lan743x: out of host memory");
    return -ENOMEM;
  }
  netdev->priv = adapter;
  adapter->netdev = netdev;
  adapter->ioaddr = nk_ioremap(netdev);
  const u32 spacing = (u32)cfg->nic.desc_spacing; /* DEFAULT_DMA_DESCRIPTOR_SPACING: the seed's knob */
  adapter->rx = (struct lan743x_rx){.adapter = adapter, .ring_size = (u32)cfg->nic.rx_ring_size,
                                    .desc_spacing = spacing};
  /* MTU + ETH_HLEN + ETH_FCS_LEN + RX_HEAD_PADDING (v5.12 on), or 9 KiB
   * before: the platform states which (lan743x_check_config). */
  adapter->rx.buffer_length = (u32)cfg->driver.rx_buf_bytes;
  adapter->tx = (struct lan743x_tx){.adapter = adapter, .ring_size = (u32)cfg->nic.tx_ring_size,
                                    .desc_spacing = spacing};

  /* lan743x_intr_open: everything off, then the vector-0 handler. */
  adapter->vec_en = false;
  adapter->int_en = 0;
  lan743x_intr_write_mask(adapter); /* INT_VEC_EN_CLR 0xFFFFFFFF */
  int rc = request_irq(netdev, LAN743X_IRQ_VEC, lan743x_intr_entry_isr, adapter);
  if (rc != 0) {
    snprintf(err, errlen, "lan743x: request_irq(%d) failed (%d)", LAN743X_IRQ_VEC, rc);
    goto fail;
  }
  adapter->irq_requested = true;
  lan743x_dmac_init(adapter, spacing);
  if ((rc = lan743x_rx_open(&adapter->rx, err, errlen)) != 0) goto fail;
  if ((rc = lan743x_tx_open(&adapter->tx, err, errlen)) != 0) goto fail;
  adapter->vec_en = true; /* INT_VEC_EN_SET(0) */
  lan743x_intr_write_mask(adapter);
  return 0;
fail:
  lan743x_netdev_close(adapter);
  free(adapter);
  netdev->priv = NULL;
  return rc;
}

/* remove (lan743x_netdev_close + lan743x_pcidev_remove). */
static void lan743x_pcidev_remove(struct net_device *netdev) {
  NK_PROFILE_FUNC(NK_CLASS_OTHER);
  struct lan743x_adapter *adapter = netdev_priv(netdev);
  if (!adapter) return;
  lan743x_netdev_close(adapter);
  free(adapter);
  netdev->priv = NULL;
}

/* ---- invariants ------------------------------------------------------------------------ */

/* Ring indices and buffer accounting. Descriptors are read with plain loads
 * (not through the platform): a check is not driver work and costs nothing. */
static int lan743x_check(struct net_device *netdev, char *err, size_t errlen) {
  const struct lan743x_adapter *adapter = netdev_priv(netdev);
  if (!adapter) {
    snprintf(err, errlen, "lan743x: no driver state (probe failed or remove ran)");
    return -1;
  }
  const struct lan743x_rx *rx = &adapter->rx;
  const struct lan743x_tx *tx = &adapter->tx;
  if (rx->last_head >= rx->ring_size || rx->last_tail >= rx->ring_size || tx->last_head >= tx->ring_size ||
      tx->last_tail >= tx->ring_size) {
    snprintf(err, errlen, "lan743x: ring index out of range (rx %u/%u, tx %u/%u, sizes %u/%u)", rx->last_head,
             rx->last_tail, tx->last_head, tx->last_tail, rx->ring_size, tx->ring_size);
    return -1;
  }
  for (u32 i = 0; i < rx->ring_size; i++) {
    const struct lan743x_rx_buffer_info *bi = &rx->buffer_info[i];
    if (!bi->skb || !bi->dma_ptr) {
      snprintf(err, errlen, "lan743x: RX slot %u has no %s", i, bi->skb ? "DMA mapping" : "skb");
      return -1;
    }
    const struct lan743x_rx_desc *d = lan743x_rx_desc(rx, i);
    u32 lo, hi;
    memcpy(&lo, &d->data1, sizeof lo);
    memcpy(&hi, &d->data2, sizeof hi);
    u64 addr = lo | (u64)hi << 32;
    if (addr != bi->dma_ptr) {
      snprintf(err, errlen, "lan743x: RX descriptor %u points at %#" PRIx64 " but its skb is mapped at %#" PRIx64, i,
               addr, (u64)bi->dma_ptr);
      return -1;
    }
  }
  u32 in_flight = nk_ring_used(tx->last_tail, tx->last_head, tx->ring_size);
  for (u32 i = 0; i < tx->ring_size; i++) {
    bool busy = nk_ring_in_flight(i, tx->last_tail, tx->last_head, tx->ring_size);
    if ((tx->buffer_info[i].skb != NULL) != busy) {
      snprintf(err, errlen, "lan743x: TX slot %u %s an skb but is %s (head %u, tail %u)", i,
               tx->buffer_info[i].skb ? "holds" : "lacks", busy ? "in flight" : "free", tx->last_head,
               tx->last_tail);
      return -1;
    }
  }
  u32 expect = rx->ring_size + in_flight + (tx->overflow_skb ? 1u : 0u);
  if (nk_kernel_skbs_in_use(netdev->k) != expect) {
    snprintf(err, errlen,
             "lan743x: %u skbs allocated but %u expected (%u RX slots + %u TX in flight + %u overflow): leak or "
             "double free",
             nk_kernel_skbs_in_use(netdev->k), expect, rx->ring_size, in_flight, tx->overflow_skb ? 1u : 0u);
    return -1;
  }
  if (netif_queue_stopped(netdev)) {
    if (!tx->overflow_skb) {
      snprintf(err, errlen, "lan743x: TX queue stopped without an overflow frame");
      return -1;
    }
    if (lan743x_tx_get_avail_desc(tx) > 0) {
      snprintf(err, errlen, "lan743x: TX queue stopped with %d free descriptors: missed wake",
               lan743x_tx_get_avail_desc(tx));
      return -1;
    }
  } else if (tx->overflow_skb) {
    snprintf(err, errlen, "lan743x: an overflow frame waits but the TX queue is awake");
    return -1;
  }
  return 0;
}

const struct nk_driver nk_driver_lan743x = {
    .name = "lan743x",
    .probe = lan743x_pcidev_probe,
    .remove = lan743x_pcidev_remove,
    .ndo_start_xmit = lan743x_netdev_xmit_frame,
    .check = lan743x_check,
    .check_config = lan743x_check_config,
    .rx_slot_skbs = true,
};
