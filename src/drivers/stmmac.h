/*
 * stmmac.h: private state of the stmmac driver (src/drivers/stmmac.c), the
 * Synopsys DWMAC 4.x hot paths of Linux drivers/net/ethernet/stmicro/stmmac,
 * exposed so unit tests can check ring indices, IOC decisions and the timer.
 */
#ifndef NICSIM_DRIVERS_STMMAC_H
#define NICSIM_DRIVERS_STMMAC_H

#include "drivers/driver.h"
#include "hw/generic_nic_regs.h"
#include "hw/stmmac_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STMMAC_IRQ_VEC 0        /* the one MSI vector (stmmac_pci: one "macirq") */
#define STMMAC_MAX_SKB_FRAGS 17 /* MAX_SKB_FRAGS: xmit stops the queue below this + 1 free */
#define STMMAC_DMA_MIN_RING 64  /* DMA_MIN_RX_SIZE / DMA_MIN_TX_SIZE (stmmac_ethtool.c) */
#define STMMAC_DMA_MAX_RING 1024 /* DMA_MAX_RX_SIZE / DMA_MAX_TX_SIZE (stmmac_ethtool.c) */
#define STMMAC_TX_BUSY_RETRY_US 10 /* stmmac_tx_timer re-arms this soon when TX NAPI is busy */

/* MAC and MTL interrupt status registers that stmmac_interrupt reads before
 * the DMA channel's (dwmac4.h offsets). nicsim's common register block has
 * none of them: they read as zero, as on a quiet MAC, and each costs the
 * MMIO round trip that dominates the coalescing seed's profile. */
#define STMMAC_GMAC_INT_STATUS 0x00b0
#define STMMAC_GMAC_INT_EN 0x00b4
#define STMMAC_MTL_INT_STATUS 0x0c20
/* DMA channel c's registers map onto the common block's vector c: its
 * DMA_CHAN_STATUS is INT_STATUS, its DMA_CHAN_INTR_ENA the complement of
 * INT_MASK. Channels the device model lacks (nicsim's stmmac has one
 * traffic channel) read as zero, as idle channels do. */
#define STMMAC_DMA_CHAN_STATUS(c) gn_qreg((c), GN_Q_INT_STATUS)
#define STMMAC_DMA_CHAN_INTR_ENA(c) gn_qreg((c), GN_Q_INT_MASK)
/* The safety package's interrupt status (dwmac5.h MTL_SAFETY_INT_STATUS;
 * DMA_SAFETY_INT_STATUS, 0x1080, lies past nicsim's 4 KiB register block and
 * is read at a reserved word instead: the same MMIO read, reading zero). */
#define STMMAC_MTL_SAFETY_INT_STATUS 0x0cc4
#define STMMAC_DMA_SAFETY_INT_STATUS 0x0ffc

/* What stmmac_tx_clean needs of each TX descriptor (tx_skbuff, tx_skbuff_dma). */
struct stmmac_tx_info {
  struct sk_buff *skb; /* set on the frame's last descriptor */
  dma_addr_t buf;
  u32 len;
  bool last_segment;
};

/* struct stmmac_rx_buffer: the page in each RX slot (page_pool, v5.4 on),
 * or, with driver.page_pool false, the skb (rx_q->rx_skbuff[entry], v4.14
 * to v5.3). */
struct stmmac_rx_buffer {
  struct nk_page *page;
  struct sk_buff *skb;
  dma_addr_t addr; /* what the descriptor holds: page DMA address + rx_buf_offset, or rx_skbuff_dma[entry] */
};

struct stmmac_priv {
  struct net_device *dev;
  void __iomem *ioaddr;

  /* knobs (driver.*) */
  u32 rx_offset;       /* stmmac_rx_offset(): bytes before the frame in each RX buffer */
  u32 rx_coal_frames;  /* priv->rx_coal_frames */
  u32 rx_riwt;         /* priv->rx_riwt */
  u32 tx_coal_frames;  /* priv->tx_coal_frames */
  u64 tx_coal_timer_ns;/* priv->tx_coal_timer (us in Linux) */
  bool tx_coal_per_packet;
  u32 queues;          /* plat->rx/tx_queues_to_use: channels each interrupt checks */
  bool asp;            /* priv->dma_cap.asp: the safety package's status is read first */
  bool use_riwt;       /* priv->use_riwt: the RX watchdog is used */

  /* RX queue 0 (struct stmmac_rx_queue). The device owns [cur_rx, dirty_rx);
   * dirty_rx is the one empty slot and the RX tail. */
  struct stmmac_dma_desc *dma_rx;
  dma_addr_t dma_rx_phy;
  size_t rx_ring_bytes;
  u32 dma_rx_size;
  u32 cur_rx;
  u32 dirty_rx;
  u32 rx_count_frames;
  u32 dma_buf_sz;      /* what the device may write in a buffer (RBSZ) */
  u32 rx_alloc_bytes;  /* driver.rx_buf_bytes: each page pool buffer */
  bool use_page_pool;  /* driver.page_pool: pages recycled (v5.4 on), else an skb per slot (v4.14 to v5.3) */
  u64 rx_zeroc;        /* frames passed up in their own RX skb (rx_zeroc_thresh's increments) */
  struct page_pool *page_pool;
  struct stmmac_rx_buffer *buf_pool;

  /* TX queue 0 (struct stmmac_tx_queue): [dirty_tx, cur_tx) in flight. */
  struct stmmac_dma_desc *dma_tx;
  dma_addr_t dma_tx_phy;
  size_t tx_ring_bytes;
  u32 dma_tx_size;
  u32 cur_tx;
  u32 tx_tail; /* tx_q->tx_tail_addr: the TX tail the last xmit published (after its OWN) */
  u32 dirty_tx;
  u32 tx_count_frames;
  struct stmmac_tx_info *tx_info;
  struct hrtimer txtimer;

  /* struct stmmac_channel 0 */
  struct napi_struct rx_napi;
  struct napi_struct tx_napi;
  bool irq_requested;
  bool napi_added;
  bool timer_ready;

  /* priv->xstats (cumulative) */
  u64 tx_set_ic_bit;     /* TX descriptors given IOC */
  u64 rx_set_ic_bit;     /* RX descriptors given IOC (refill) */
  u64 tx_timer_arms;     /* stmmac_tx_timer_arm calls */
  u64 tx_timer_fired;    /* stmmac_tx_timer runs */
  u64 tx_timer_busy;     /* ... that found TX NAPI already scheduled and re-armed */
  u64 normal_irq_n;      /* stmmac_interrupt runs */
  u64 rx_normal_irq_n;   /* ... with RI */
  u64 tx_normal_irq_n;   /* ... with TI */
  u64 tx_stops, tx_wakes;
};

/* Descriptor i of each ring (16 B, packed: stmmac does not space them). */
static inline struct stmmac_dma_desc *stmmac_rx_desc(const struct stmmac_priv *p, u32 i) { return p->dma_rx + i; }
static inline struct stmmac_dma_desc *stmmac_tx_desc(const struct stmmac_priv *p, u32 i) { return p->dma_tx + i; }

#ifdef __cplusplus
}
#endif
#endif
