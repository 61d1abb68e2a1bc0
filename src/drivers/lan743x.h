/*
 * lan743x.h: private state of the Microchip LAN743x driver
 * (src/drivers/lan743x.c), after struct lan743x_adapter / lan743x_rx /
 * lan743x_tx of Linux drivers/net/ethernet/microchip/lan743x_main.h,
 * exposed so unit tests can check ring indices and buffer bookkeeping.
 */
#ifndef NICSIM_DRIVERS_LAN743X_H
#define NICSIM_DRIVERS_LAN743X_H

#include "drivers/driver.h"
#include "hw/lan743x_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LAN743X_IRQ_VEC 0 /* the one MSI vector (vector_list[0]) */
/* RX_HEAD_PADDING is NET_IP_ALIGN in Linux (0 on x86, 2 on arm64, with
 * RX_CFG_B_RX_PAD_2_). nicsim's LAN743x model inserts no pad, so 0. */
#define LAN743X_RX_HEAD_PADDING 0
#define LAN743X_ETH_HLEN 14
#define LAN743X_ETH_FCS_LEN 4

/* lan743x_rx_process_buffer results (RX_PROCESS_RESULT_*). */
#define LAN743X_RX_NOTHING_TO_DO 0
#define LAN743X_RX_BUFFER_RECEIVED 1

#define LAN743X_TX_BUFFER_INFO_FLAG_ACTIVE (1u << 0)

/* Per TX descriptor, cacheable (struct lan743x_tx_buffer_info). */
struct lan743x_tx_buffer_info {
  struct sk_buff *skb; /* on the frame's last descriptor */
  dma_addr_t dma_ptr;
  unsigned int buffer_length;
  unsigned int flags;
};

/* Per RX descriptor, cacheable (struct lan743x_rx_buffer_info): the skb the
 * device writes into, which goes up the stack as is (no copy). */
struct lan743x_rx_buffer_info {
  struct sk_buff *skb;
  dma_addr_t dma_ptr;
  unsigned int buffer_length;
};

struct lan743x_adapter;

/* TX channel 0 (struct lan743x_tx). The device owns [last_head, last_tail)
 * and reports its head by writing it to *head_cpu_ptr. */
struct lan743x_tx {
  struct lan743x_adapter *adapter;
  u8 *ring_cpu_ptr; /* descriptors desc_spacing bytes apart */
  dma_addr_t ring_dma_ptr;
  size_t ring_allocation_size;
  u32 ring_size;
  u32 desc_spacing;
  struct lan743x_tx_buffer_info *buffer_info;
  __le32 *head_cpu_ptr; /* head write-back word (coherent memory) */
  dma_addr_t head_dma_ptr;
  u32 last_head; /* next descriptor to release */
  u32 last_tail; /* next descriptor to use; the TX_TAIL value */
  u32 frame_first, frame_tail, frame_data0; /* frame assembly (frame_start/end) */
  struct sk_buff *overflow_skb; /* the frame that did not fit: sent by the TX poll */
  spinlock_t ring_lock;         /* the ring against xmit and the TX poll on two CPUs */
  struct napi_struct napi;
  u64 frame_count;
};

/* RX channel 0 (struct lan743x_rx). Every slot always holds a mapped skb;
 * the device owns [its head, RX_TAIL). */
struct lan743x_rx {
  struct lan743x_adapter *adapter;
  u8 *ring_cpu_ptr;
  dma_addr_t ring_dma_ptr;
  size_t ring_allocation_size;
  u32 ring_size;
  u32 desc_spacing;
  u32 buffer_length; /* driver.rx_buf_bytes: MTU + ETH_HLEN + ETH_FCS_LEN + RX_HEAD_PADDING (v5.12 on) */
  struct lan743x_rx_buffer_info *buffer_info;
  u32 last_head; /* next descriptor to process */
  u32 last_tail; /* last descriptor processed */
  struct napi_struct napi;
  u64 frame_count;
};

struct lan743x_adapter {
  struct net_device *netdev;
  void __iomem *ioaddr;
  struct lan743x_rx rx;
  struct lan743x_tx tx;
  /* Interrupt enables as Linux sees them: the source enables (INT_EN_SET,
   * GN_INT_RX / GN_INT_TX bits) and the vector enable (INT_VEC_EN). The
   * common register block folds both into INT_MASK (lan743x_intr_write_mask). */
  u32 int_en;
  bool vec_en;
  bool irq_requested;
  bool rx_napi_added, tx_napi_added;

  /* driver events (cumulative) */
  u64 tx_stops;  /* netif_stop_queue: a frame went to overflow_skb */
  u64 tx_wakes;  /* netif_wake_queue in the TX poll */
  u64 irqs_none; /* ISR found no status bit (IRQ_NONE) */
};

/* Descriptor i of the RX / TX ring (desc_spacing bytes apart, as Linux's
 * struct is __aligned(DEFAULT_DMA_DESCRIPTOR_SPACING)). */
static inline struct lan743x_rx_desc *lan743x_rx_desc(const struct lan743x_rx *rx, u32 i) {
  return (struct lan743x_rx_desc *)(rx->ring_cpu_ptr + (size_t)i * rx->desc_spacing);
}
static inline struct lan743x_tx_desc *lan743x_tx_desc(const struct lan743x_tx *tx, u32 i) {
  return (struct lan743x_tx_desc *)(tx->ring_cpu_ptr + (size_t)i * tx->desc_spacing);
}

#ifdef __cplusplus
}
#endif
#endif
