/*
 * i40e.h: private state of the i40e driver (src/drivers/i40e.c), named as in
 * Linux drivers/net/ethernet/intel/i40e/i40e_txrx.h (struct i40e_ring,
 * i40e_rx_buffer, i40e_tx_buffer), exposed so unit tests can check ring
 * indices and buffers.
 */
#ifndef NICSIM_DRIVERS_I40E_H
#define NICSIM_DRIVERS_I40E_H

#include "drivers/driver.h"
#include "hw/generic_nic_regs.h"
#include "hw/i40e_regs.h"
#include "net/rss.h"

#ifdef __cplusplus
extern "C" {
#endif

#define I40E_IRQ_VEC 0              /* queue pair 0's MSI-X vector; pair q uses vector q */
#define I40E_RX_BUFFER_WRITE 32     /* refill (and bump the tail) every 32 cleaned buffers */
#define I40E_RX_HDR_SIZE 256        /* i40e_construct_skb's header buffer */
#define I40E_DEFAULT_IRQ_WORK 256   /* vsi->work_limit: TX descriptors cleaned per call */
#define I40E_MAX_SKB_FRAGS 17       /* MAX_SKB_FRAGS with 4 KiB pages */
#define I40E_DESC_NEEDED (I40E_MAX_SKB_FRAGS + 6) /* DESC_NEEDED: room for the largest skb */
#define I40E_TX_WAKE_THRESHOLD (I40E_DESC_NEEDED * 2)
#define I40E_MIN_NUM_DESCRIPTORS 64
#define I40E_MAX_NUM_DESCRIPTORS 4096
#define I40E_REQ_DESCRIPTOR_MULTIPLE 32
#define I40E_RXQ_CTX_DBUFF_UNIT 128 /* the queue context's buffer size is in 128 B units */
#define I40E_RXD_QW1_ERROR_RXE (1ULL << 19) /* I40E_RXD_QW1_ERROR_SHIFT: receive error */
/* i40e_txrx_common.h (v5.4): i40e_run_xdp's results, or-ed into the poll's xdp_xmit */
#define I40E_XDP_PASS 0
#define I40E_XDP_CONSUMED (1u << 0)
#define I40E_XDP_TX (1u << 1)
/* I40E_SKB_PAD: the headroom before the frame in build_skb mode, which XDP
 * needs (convert_to_xdp_frame keeps struct xdp_frame there). */
#define I40E_SKB_PAD (NET_SKB_PAD + NET_IP_ALIGN)

/* RX buffer mapping attributes (Linux I40E_RX_DMA_ATTR without the weak-ordering bit). */
#define I40E_RX_DMA_ATTR_BASE DMA_ATTR_SKIP_CPU_SYNC

/* What the driver remembers about a TX descriptor (cacheable memory). */
struct i40e_tx_buffer {
  struct i40e_tx_desc *next_to_watch; /* EOP descriptor of the frame (NULL: slot idle) */
  struct sk_buff *skb;
  struct nk_page *xdpf; /* XDP ring: the RX buffer the frame is sent from (tx_bi->xdpf) */
  unsigned int bytecount;
  dma_addr_t dma;
  u32 len; /* dma_unmap_len: 0 when nothing is mapped */
};

/* The buffer in an RX slot (cacheable memory). */
struct i40e_rx_buffer {
  struct nk_page *page; /* NULL: the slot has no buffer */
  dma_addr_t dma;
  u32 page_offset; /* 0: legacy-rx (no build_skb headroom) */
};

/* One descriptor ring, RX or TX. */
struct i40e_ring {
  u16 queue_index; /* the queue it is (Linux ring->queue_index) */
  u8 *desc;        /* descriptor memory (dma_alloc_coherent) */
  dma_addr_t dma;  /* its bus address */
  size_t size;     /* bytes allocated (TX: plus the head write-back word), 4 KiB aligned */
  u32 count;       /* descriptors */
  u32 desc_bytes;  /* 16 or 32 (RX), 16 (TX) */
  u32 next_to_use;
  u32 next_to_clean;
  u32 next_to_alloc; /* RX: where the next reused buffer goes */
  void __iomem *tail;
  struct i40e_tx_buffer *tx_bi;
  struct i40e_rx_buffer *rx_bi;
  u32 rx_buf_len;
  unsigned long dma_attrs; /* RX buffer mapping attributes */
  struct page_pool *pool;  /* RX: this ring's buffers */
  struct i40e_q_vector *q_vector; /* TX and XDP rings: the vector that cleans it */
  const struct bpf_prog *xdp_prog; /* RX: the attached program (driver.xdp), NULL: none */
  struct i40e_ring *xdp_ring;      /* RX with a program: its queue pair's XDP ring (vsi->xdp_rings[q]) */
  bool is_xdp;                     /* an XDP ring (ring_is_xdp): TX queue after nic.tx_queues, no BQL */
  u32 xdp_tx_active;               /* XDP ring: frames on it (their RX buffers are out of the pool) */
  bool rx_discard;         /* RX: dropping the rest of a frame that spanned buffers */
  /* ring stats (Linux rx_stats / tx_stats) */
  u64 page_reuse_count;
  u64 alloc_page_failed;
  u64 alloc_buff_failed;
  u64 non_eop_descs;
  u64 restart_queue;
  u64 tx_busy;
};

/* i40e_latency_range: the adaptive ITR's traffic classes. */
enum i40e_latency_range {
  I40E_LOWEST_LATENCY = 0,
  I40E_LOW_LATENCY = 1,
  I40E_BULK_LATENCY = 2,
  I40E_ULTRA_LATENCY = 3,
};

/* i40e_ring_container: one direction of a vector, its traffic since the
 * last adaptive ITR decision and its ITR (driver.rx_coal_adaptive itr). */
struct i40e_ring_container {
  unsigned int total_bytes;   /* frame bytes (no FCS) cleaned */
  unsigned int total_packets; /* frames cleaned */
  u16 itr;                    /* the ITR register value: 2 us units */
  enum i40e_latency_range latency_range;
};

/* One MSI-X vector and its NAPI (Linux struct i40e_q_vector): vector v
 * serves RX ring v and TX ring v (one queue pair per vector). */
struct i40e_q_vector {
  struct i40e_priv *priv;
  u16 v_idx;
  struct napi_struct napi;
  bool irq_requested;
  struct i40e_ring_container rx, tx;
  u8 itr_countdown; /* completed polls until the next adaptive ITR decision */
};

struct i40e_priv {
  struct net_device *dev;
  void __iomem *hw_addr;
  u32 num_rx, num_tx, num_q_vectors; /* nic.rx_queues, nic.tx_queues, the larger */
  struct i40e_ring rx_rings[GN_MAX_QUEUES];
  struct i40e_ring tx_rings[GN_MAX_QUEUES];
  /* driver.xdp: one XDP TX ring per RX ring (vsi->xdp_rings), device TX
   * queue num_tx + q, cleaned by vector q */
  struct i40e_ring xdp_rings[GN_MAX_QUEUES];
  struct i40e_q_vector q_vectors[GN_MAX_QUEUES];
  bool head_wb;        /* TX completion by head write-back (nic.wb_mode head), else DESC_DONE */
  u32 work_limit;      /* vsi->work_limit */
  bool adaptive_itr;   /* driver.rx_coal_adaptive itr: ITR_IS_DYNAMIC for RX and TX */
  const struct bpf_prog *xdp_prog; /* driver.xdp: vsi->xdp_prog (NULL: off, no XDP rings) */
  /* RSS (num_rx > 1): the PF's key and lookup table (i40e_config_rss_reg) */
  u8 rss_key[NF_RSS_KEY_LEN];
  u8 rss_lut[GN_RSS_LUT_MAX];
  u32 rss_size;        /* LUT entries (nic.rss_table_size) */
};

/* Descriptor i of a ring (packed: desc_bytes apart). */
static inline struct i40e_32byte_rx_desc *i40e_rx_desc(const struct i40e_ring *r, u32 i) {
  return (struct i40e_32byte_rx_desc *)(r->desc + (size_t)i * r->desc_bytes);
}
static inline struct i40e_tx_desc *i40e_tx_desc_at(const struct i40e_ring *r, u32 i) {
  return (struct i40e_tx_desc *)(r->desc + (size_t)i * sizeof(struct i40e_tx_desc));
}
/* I40E_DESC_UNUSED: descriptors the driver may still fill (count - 1 usable). */
static inline u32 i40e_desc_unused(const struct i40e_ring *r) {
  return (r->next_to_clean > r->next_to_use ? 0 : r->count) + r->next_to_clean - r->next_to_use - 1;
}

#ifdef __cplusplus
}
#endif
#endif
