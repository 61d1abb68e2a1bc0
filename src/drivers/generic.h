/*
 * generic.h: private state of the generic NIC driver (src/drivers/generic.c),
 * exposed so unit tests can check ring indices and shadow arrays. One RX
 * ring per RX queue, one TX ring per TX queue, one interrupt vector and NAPI
 * context per queue pair (nic.rx_queues, nic.tx_queues).
 */
#ifndef NICSIM_DRIVERS_GENERIC_H
#define NICSIM_DRIVERS_GENERIC_H

#include "drivers/driver.h"
#include "kernel/dim.h"
#include "hw/generic_nic_regs.h"
#include "net/rss.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GENERIC_IRQ_VEC 0 /* queue pair 0's MSI vector; pair q uses vector q */

/* What the driver remembers about a frame on the TX ring (cacheable memory). */
struct generic_tx_buf {
  struct sk_buff *skb;
  dma_addr_t dma;
  u32 len;
};

struct generic_priv;

/* One RX queue. The device owns [cur, dirty); dirty is the one empty slot
 * and the value of the queue's RX tail register. */
struct generic_rx_ring {
  struct generic_priv *priv;
  u32 index; /* queue number */
  u8 *ring;
  dma_addr_t ring_dma;
  size_t ring_bytes;
  u32 size;
  u32 cur;   /* next descriptor to clean */
  u32 dirty; /* next descriptor to refill */
  struct page_pool *pool;
  struct nk_page **buf; /* shadow: the buffer in each slot (NULL: none) */
  u64 dropped;          /* frames dropped (errors, no skb) */
};

/* One TX queue: descriptors [dirty, cur) are in flight; cur is its TX tail. */
struct generic_tx_ring {
  struct generic_priv *priv;
  u32 index;
  u8 *ring;
  dma_addr_t ring_dma;
  size_t ring_bytes;
  u32 size;
  u32 cur;   /* next descriptor to use */
  u32 dirty; /* next descriptor to clean */
  struct generic_tx_buf *buf; /* shadow: one per TX descriptor */
  /* nic.wb_mode head: the device writes this queue's TX head index here
   * (coherent memory) instead of clearing OWN in each descriptor. NULL otherwise. */
  u32 *head_wb;
  dma_addr_t head_wb_dma;
};

/* One interrupt vector and the NAPI context it schedules (Linux's q_vector):
 * vector v serves RX queue v and TX queue v, where they exist. */
struct generic_q_vector {
  struct generic_priv *priv;
  u32 index;
  struct napi_struct napi;
  bool irq_requested;
  /* driver.rx_coal_adaptive dim: net_dim's state and its counters (the
   * interrupts taken, the RX frames and bytes handed up), as the drivers
   * that use it keep per ring (bcmgenet's ring->dim). */
  struct nk_dim dim;
  u16 dim_events;
  u64 dim_packets, dim_bytes;
  u64 dim_changes; /* profiles applied */
};

struct generic_priv {
  struct net_device *dev;
  void __iomem *ioaddr;
  u32 spacing; /* bytes between descriptor starts (all rings) */
  u32 rx_buf_len;
  u32 tx_wake_thresh;
  u32 num_rx, num_tx, num_vec; /* queues and vectors (num_vec = max of the two) */
  bool use_dim;                /* driver.rx_coal_adaptive dim */

  struct generic_rx_ring rx[GN_MAX_QUEUES];
  struct generic_tx_ring tx[GN_MAX_QUEUES];
  struct generic_q_vector qv[GN_MAX_QUEUES];

  /* RSS (num_rx > 1): the key and indirection table programmed into the device */
  u8 rss_key[NF_RSS_KEY_LEN];
  u8 rss_lut[GN_RSS_LUT_MAX];
  u32 rss_size;

  /* driver events (cumulative, all TX queues) */
  u64 tx_stops; /* netif_stop_subqueue: a ring full */
  u64 tx_wakes; /* netif_wake_subqueue after a clean */
};

/* Descriptor i of an RX / TX ring (spacing bytes apart). */
static inline struct gn_rx_desc *generic_rx_desc(const struct generic_rx_ring *r, u32 i) {
  return (struct gn_rx_desc *)(r->ring + (size_t)i * r->priv->spacing);
}
static inline struct gn_tx_desc *generic_tx_desc(const struct generic_tx_ring *r, u32 i) {
  return (struct gn_tx_desc *)(r->ring + (size_t)i * r->priv->spacing);
}

#ifdef __cplusplus
}
#endif
#endif
