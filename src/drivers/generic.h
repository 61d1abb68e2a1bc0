/*
 * generic.h: private state of the generic NIC driver (src/drivers/generic.c),
 * exposed so unit tests can check ring indices and shadow arrays.
 */
#ifndef NICSIM_DRIVERS_GENERIC_H
#define NICSIM_DRIVERS_GENERIC_H

#include "drivers/driver.h"
#include "hw/generic_nic.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GENERIC_IRQ_VEC 0 /* the one MSI vector */

/* What the driver remembers about a frame on the TX ring (cacheable memory). */
struct generic_tx_buf {
  struct sk_buff *skb;
  dma_addr_t dma;
  u32 len;
};

struct generic_priv {
  struct net_device *dev;
  void __iomem *ioaddr;
  u32 spacing; /* bytes between descriptor starts (both rings) */

  /* RX: the device owns [rx_cur, rx_dirty); rx_dirty is the one empty slot
   * and the value of the RX tail register. */
  u8 *rx_ring;
  dma_addr_t rx_ring_dma;
  size_t rx_ring_bytes;
  u32 rx_size;
  u32 rx_cur;   /* next descriptor to clean */
  u32 rx_dirty; /* next descriptor to refill */
  u32 rx_buf_len;
  struct page_pool *rx_pool;
  struct nk_page **rx_buf; /* shadow: the buffer in each slot (NULL: none) */

  /* TX: descriptors [tx_dirty, tx_cur) are in flight; tx_cur is the TX tail. */
  u8 *tx_ring;
  dma_addr_t tx_ring_dma;
  size_t tx_ring_bytes;
  u32 tx_size;
  u32 tx_cur;   /* next descriptor to use */
  u32 tx_dirty; /* next descriptor to clean */
  u32 tx_wake_thresh;
  struct generic_tx_buf *tx_buf; /* shadow: one per TX descriptor */
  /* nic.wb_mode head: the device writes its TX head index here (coherent
   * memory) instead of clearing OWN in each descriptor. NULL otherwise. */
  u32 *tx_head_wb;
  dma_addr_t tx_head_wb_dma;

  struct napi_struct napi;
  bool irq_requested;

  /* driver events (cumulative) */
  u64 tx_stops; /* netif_stop_queue: ring full */
  u64 tx_wakes; /* netif_wake_queue after a clean */
};

/* Descriptor i of the RX / TX ring (spacing bytes apart). */
static inline struct gn_rx_desc *generic_rx_desc(const struct generic_priv *p, u32 i) {
  return (struct gn_rx_desc *)(p->rx_ring + (size_t)i * p->spacing);
}
static inline struct gn_tx_desc *generic_tx_desc(const struct generic_priv *p, u32 i) {
  return (struct gn_tx_desc *)(p->tx_ring + (size_t)i * p->spacing);
}

#ifdef __cplusplus
}
#endif
#endif
