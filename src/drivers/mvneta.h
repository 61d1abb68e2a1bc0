/*
 * mvneta.h: private state of the Marvell NETA driver (src/drivers/mvneta.c),
 * named after Linux's struct mvneta_port / mvneta_rx_queue / mvneta_tx_queue
 * and exposed so unit tests can check ring indices and shadow arrays.
 */
#ifndef NICSIM_DRIVERS_MVNETA_H
#define NICSIM_DRIVERS_MVNETA_H

#include "drivers/driver.h"
#include "hw/generic_nic_regs.h"
#include "hw/mvneta_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MVNETA_IRQ_VEC 0       /* the one interrupt (a wired SPI on the SoC; an MSI here) */
#define MVNETA_RX_COPYBREAK 256 /* rx_copybreak: frames up to this are copied into a new skb */
#define MVNETA_MAX_RXD 512 /* the most RX descriptors (mvneta.c) */
#define MVNETA_MAX_TXD 1024 /* the most TX descriptors (mvneta.c) */
#define MVNETA_ETH_FCS_LEN 4
/* mvneta_run_xdp's results (v5.5) */
#define MVNETA_XDP_PASS (1u << 0)
#define MVNETA_XDP_DROPPED (1u << 1)
#define MVNETA_XDP_TX (1u << 2)

/* RX queue (Linux struct mvneta_rx_queue). The device owns [next_desc_to_proc,
 * tail); every slot always holds a buffer, as after mvneta_rxq_fill. */
struct mvneta_rx_queue {
  u8 *descs; /* dma_alloc_coherent: uncached on a non-coherent platform */
  dma_addr_t descs_phys;
  size_t descs_bytes;
  u32 size;
  u32 next_desc_to_proc; /* next descriptor mvneta_rx_swbm looks at */
  u32 tail;              /* RX_TAIL as last written: first slot not given to the device */
  struct nk_page **buf_virt_addr; /* cacheable shadow: the buffer in each slot */
  dma_addr_t *buf_dma_addr;       /* cacheable shadow of buf_phys_addr (patch 4) */
  u64 missed;                     /* refills that found no buffer */
};

/* TX queue (Linux struct mvneta_tx_queue). [txq_get_index, txq_put_index) is in flight. */
struct mvneta_tx_queue {
  u8 *descs;
  dma_addr_t descs_phys;
  size_t descs_bytes;
  u32 size;
  u32 count;         /* descriptors in flight */
  u32 txq_put_index; /* next descriptor mvneta_tx fills; the TX_TAIL value */
  u32 txq_get_index; /* next descriptor mvneta_txq_bufs_free releases */
  u32 tx_stop_threshold;
  u32 tx_wake_threshold;
  struct sk_buff **tx_skb; /* cacheable: the skb of each in-flight descriptor */
  struct nk_page **tx_xdp; /* cacheable: the page of an in-flight XDP_TX descriptor (buf->type MVNETA_TYPE_XDP_TX) */
  dma_addr_t tso_hdrs_phys; /* no TSO here: an empty range, so IS_TSO_HEADER is always false */
  u32 tso_hdrs_bytes;
};

/* Linux struct mvneta_port, one RX and one TX queue. */
struct mvneta_port {
  struct net_device *dev;
  void __iomem *base;
  u32 spacing;        /* bytes between descriptor starts (nic.desc_spacing; 32 in Linux) */
  u32 rx_buf_size;    /* MVNETA_RX_BUF_SIZE: bytes per RX buffer, mapped whole (driver.rx_buf_bytes) */
  u32 rx_offset;      /* NET_SKB_PAD: where buf_phys_addr points inside a buffer */
  bool reuse_desc_reads; /* driver.reuse_desc_reads: patches 1-3 */
  bool shadow_dma_addr;  /* driver.shadow_dma_addr: patch 4 */
  struct mvneta_rx_queue rxq;
  struct mvneta_tx_queue txq;
  struct page_pool *pool; /* rx_size + 1 buffers: one spare for mvneta_rx_refill */
  struct napi_struct napi;
  u32 cause_rx_tx; /* RX cause left for the next poll when the budget ran out */
  bool irq_requested;

  /* driver events (cumulative) */
  u64 rx_copybreak_pkts; /* frames copied into a new skb, descriptor untouched */
  u32 copybreak;         /* rx_copybreak (driver.copybreak_bytes): frames up to this are copied; 0: none */
  bool sync_used;        /* driver.rx_sync used: sync only the received length (page_pool syncs for the device) */
  u64 rx_refill_pkts;    /* frames handed up after mvneta_rx_refill swapped the buffer */
  u64 tx_stops;          /* netif_stop_queue */
  u64 tx_wakes;          /* netif_wake_queue */

  /* driver.xdp (the v5.5 XDP path) */
  const struct bpf_prog *xdp_prog; /* the attached program, NULL: none */
  enum dma_data_direction dma_dir; /* page_pool_get_dma_dir: BIDIRECTIONAL with a program (XDP_TX reads the buffer) */
  u32 xdp_tx_pending;              /* XDP_TX frames on the TX ring */
  u64 rx_xdp_consumed;             /* frames the program dropped or sent back (no skb) */
};

/* Descriptor i of the RX / TX ring (spacing bytes apart). */
static inline struct mvneta_rx_desc *mvneta_rx_desc_at(const struct mvneta_port *pp, u32 i) {
  return (struct mvneta_rx_desc *)(pp->rxq.descs + (size_t)i * pp->spacing);
}
static inline struct mvneta_tx_desc *mvneta_tx_desc_at(const struct mvneta_port *pp, u32 i) {
  return (struct mvneta_tx_desc *)(pp->txq.descs + (size_t)i * pp->spacing);
}

#ifdef __cplusplus
}
#endif
#endif
