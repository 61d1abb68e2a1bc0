/*
 * kernel.h: nicsim's kernel-like layer, the Linux API that the C drivers in
 * src/drivers call: the DMA API, readl/writel, barriers, NAPI, an skb with
 * headroom, a page pool and TX queue control. Names and semantics follow
 * Linux so a driver here reads like the driver it mirrors.
 *
 * Every call charges its cost through the platform ops (platform.h). The
 * driver never knows it is simulated. One difference from Linux is visible:
 * a load or store of DMA-visible memory (a descriptor field) is written as
 * nk_ld32(&desc->status) / nk_st32(&desc->status, v), where Linux writes a
 * plain C access. Each one stands for the one instruction the compiler
 * emits, and its cost depends on where the memory is (cached or uncached).
 *
 * One simulated CPU core runs one kernel at a time: the entry points below
 * set the current kernel, which readl(), wmb() etc. use as Linux uses the
 * current CPU.
 */
#ifndef NICSIM_KERNEL_KERNEL_H
#define NICSIM_KERNEL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "kernel/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;
typedef uint64_t dma_addr_t;
#define __iomem

struct nk_kernel;
struct net_device;
struct sk_buff;
struct napi_struct;

/* ---- entry points for the simulated CPU (models/cpu) ------------------- */

/* Creates a kernel on a platform for the resolved config. Returns NULL and
 * fills err on failure (e.g. memory too small for the rings). */
struct nk_kernel *nk_kernel_create(const struct nk_platform *p, const struct nicsim_config *cfg,
                                   char *err, size_t errlen);
void nk_kernel_destroy(struct nk_kernel *k);
/* Probes the driver named by cfg->driver.name: rings, buffers, registers, IRQ. 0 or -errno. */
int nk_kernel_probe(struct nk_kernel *k, char *err, size_t errlen);
/* Removes the driver: frees rings and buffers (end of run). */
void nk_kernel_remove(struct nk_kernel *k);
/* Delivers interrupt vector `vec`: charges cpu.irq_entry_cycles, runs the handler. */
void nk_kernel_irq(struct nk_kernel *k, int vec);
/* True if a NAPI context is scheduled. */
bool nk_kernel_napi_pending(const struct nk_kernel *k);
/* Runs the NET_RX softirq once: charges cpu.softirq_cycles and calls each
 * scheduled NAPI poll once with the budget. Returns true if NAPI is still
 * scheduled afterwards (the poll used its whole budget). */
bool nk_kernel_softirq(struct nk_kernel *k);
/* The host application sends one frame: allocates an skb, fills it with
 * test frame (flow, seq) (src/net/frame.h), charges the TX stack cost and
 * calls the driver's ndo_start_xmit. Returns NETDEV_TX_OK, or NETDEV_TX_BUSY
 * if the queue is stopped (nothing was consumed; retry after a wake). */
int nk_kernel_xmit(struct nk_kernel *k, uint32_t frame_bytes, uint32_t flow, uint64_t seq);
/* True while the driver has stopped its TX queue. */
bool nk_kernel_tx_stopped(const struct nk_kernel *k);
/* End-of-run invariants: driver ring/buffer accounting (via the driver's
 * check hook), skbs and pages leaked. 0 if all hold, else -1 with err. */
int nk_kernel_check(struct nk_kernel *k, char *err, size_t errlen);

/* ---- profiling: which function the CPU is in --------------------------- */

/* Class of work, for per-packet cycle figures. */
enum nk_class { NK_CLASS_RX, NK_CLASS_TX, NK_CLASS_IRQ, NK_CLASS_OTHER, NK_CLASS__COUNT };
#define NK_PROF_MAX 64
/* Registers (or finds) a profile bucket by function name; process-global. */
int nk_prof_id(const char *fn, enum nk_class cls);
const char *nk_prof_name(int id);
enum nk_class nk_prof_class(int id);
int nk_prof_count(void);
/* The bucket charged now; the platform reads it on every charge. */
int nk_prof_current(void);
/* Enters bucket id, returning the previous one for nk_prof_leave. */
int nk_prof_enter(int id);
void nk_prof_leave(int prev);
/* At the top of a hot-path function: charges made until it returns go to it. */
#define NK_PROFILE_FUNC(cls)                                                  \
  static int nk__prof_id = -1;                                                \
  if (nk__prof_id < 0) nk__prof_id = nk_prof_id(__func__, (cls));             \
  int nk__prof_prev __attribute__((cleanup(nk__prof_cleanup))) = nk_prof_enter(nk__prof_id)
static inline void nk__prof_cleanup(int *prev) { nk_prof_leave(*prev); }

/* ---- memory access (each is one CPU instruction) ------------------------ */

u8 nk_ld8(const void *p);
u16 nk_ld16(const void *p);
u32 nk_ld32(const void *p);
u64 nk_ld64(const void *p);
void nk_st8(void *p, u8 v);
void nk_st16(void *p, u16 v);
void nk_st32(void *p, u32 v);
void nk_st64(void *p, u64 v);
/* memcpy by the CPU; both sides in simulated memory. */
void nk_memcpy(void *dst, const void *src, size_t n);
/* Virtual address <-> physical address of simulated memory. */
u64 nk_virt_to_phys(const void *p);
void *nk_phys_to_virt(u64 pa);

/* ---- MMIO and barriers ---------------------------------------------------- */

/* The BAR0 mapping of the current device; readl(ioaddr + REG). */
void __iomem *nk_ioremap(struct net_device *dev);
u32 readl(const void __iomem *addr);
void writel(u32 val, void __iomem *addr);
void mb(void);
void rmb(void);
void wmb(void);
void dma_rmb(void);
void dma_wmb(void);

/* ---- DMA API -------------------------------------------------------------- */

enum dma_data_direction { DMA_BIDIRECTIONAL = 0, DMA_TO_DEVICE = 1, DMA_FROM_DEVICE = 2, DMA_NONE = 3 };
#define DMA_ATTR_WEAK_ORDERING (1ul << 1)
#define DMA_ATTR_SKIP_CPU_SYNC (1ul << 5)
#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

/* Allocates zeroed DMA memory; uncached when the platform's DMA is not coherent. */
void *dma_alloc_coherent(struct net_device *dev, size_t size, dma_addr_t *handle);
void dma_free_coherent(struct net_device *dev, size_t size, void *cpu_addr, dma_addr_t handle);
dma_addr_t dma_map_single_attrs(struct net_device *dev, void *ptr, size_t size,
                                enum dma_data_direction dir, unsigned long attrs);
void dma_unmap_single_attrs(struct net_device *dev, dma_addr_t addr, size_t size,
                            enum dma_data_direction dir, unsigned long attrs);
static inline dma_addr_t dma_map_single(struct net_device *dev, void *ptr, size_t size,
                                        enum dma_data_direction dir) {
  return dma_map_single_attrs(dev, ptr, size, dir, 0);
}
static inline void dma_unmap_single(struct net_device *dev, dma_addr_t addr, size_t size,
                                    enum dma_data_direction dir) {
  dma_unmap_single_attrs(dev, addr, size, dir, 0);
}
int dma_mapping_error(struct net_device *dev, dma_addr_t addr);
/* On a non-coherent platform these clean/invalidate each cache line; else free. */
void dma_sync_single_for_cpu(struct net_device *dev, dma_addr_t addr, size_t size,
                             enum dma_data_direction dir);
void dma_sync_single_for_device(struct net_device *dev, dma_addr_t addr, size_t size,
                                enum dma_data_direction dir);

/* ---- net_device, skb, NAPI ------------------------------------------------ */

typedef enum { IRQ_NONE = 0, IRQ_HANDLED = 1 } irqreturn_t;
typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);
typedef enum { NETDEV_TX_OK = 0, NETDEV_TX_BUSY = 0x10 } netdev_tx_t;

#define NET_SKB_PAD 64
#define NET_IP_ALIGN 2

struct net_device_stats {
  u64 rx_packets, rx_bytes, rx_dropped, rx_errors;
  u64 tx_packets, tx_bytes, tx_dropped, tx_errors;
};

struct net_device {
  char name[16];
  struct nk_kernel *k;
  const struct nicsim_config *cfg; /* the resolved config: ring sizes, knobs */
  void *priv;                      /* the driver's private struct */
  struct net_device_stats stats;
  bool tx_stopped;
};
static inline void *netdev_priv(const struct net_device *dev) { return dev->priv; }

/* An skb: metadata in C memory, data in simulated (cacheable) memory. */
struct sk_buff {
  u8 *head;      /* start of the buffer */
  u8 *data;      /* start of the frame */
  u32 len;       /* bytes from data */
  u32 size;      /* bytes from head */
  struct net_device *dev;
  struct sk_buff *next; /* free-list link */
};
/* An skb for RX with NET_SKB_PAD + NET_IP_ALIGN headroom, as napi_alloc_skb. */
struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len);
struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int len);
void skb_reserve(struct sk_buff *skb, int len);
u8 *skb_put(struct sk_buff *skb, unsigned int len);
void dev_kfree_skb_any(struct sk_buff *skb);
void napi_consume_skb(struct sk_buff *skb, int budget);
/* Hands a received frame to the stack: charges the RX stack cost, then the host sink. */
void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);
void netif_receive_skb(struct sk_buff *skb);

struct napi_struct {
  int (*poll)(struct napi_struct *napi, int budget);
  struct net_device *dev;
  int weight;
  bool enabled;
  bool scheduled;
};
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
                    int (*poll)(struct napi_struct *, int), int weight);
void napi_enable(struct napi_struct *napi);
void napi_disable(struct napi_struct *napi);
bool napi_schedule_prep(struct napi_struct *napi);
void __napi_schedule(struct napi_struct *napi);
void napi_schedule(struct napi_struct *napi);
/* Ends polling if work_done < budget; returns true if the driver may re-enable IRQs. */
bool napi_complete_done(struct napi_struct *napi, int work_done);

int request_irq(struct net_device *dev, int vec, irq_handler_t handler, void *dev_id);
void free_irq(struct net_device *dev, int vec);
/* MSI target the driver programs into the device. */
u64 nk_msi_addr(struct net_device *dev);
u32 nk_msi_data(struct net_device *dev, int vec);

void netif_stop_queue(struct net_device *dev);
void netif_wake_queue(struct net_device *dev);
bool netif_queue_stopped(const struct net_device *dev);

/* ---- page pool: fixed-size DMA buffers, recycled (no allocation per packet) */

struct page_pool;
struct nk_page {
  void *addr;      /* virtual address of the buffer */
  dma_addr_t dma;  /* mapped DMA address */
  struct nk_page *next;
};
/* A pool of n buffers of size bytes, mapped for dir. NULL if memory is short. */
struct page_pool *page_pool_create(struct net_device *dev, unsigned int n, unsigned int size,
                                   enum dma_data_direction dir);
void page_pool_destroy(struct page_pool *pool);
struct nk_page *page_pool_dev_alloc_pages(struct page_pool *pool);
void page_pool_recycle_direct(struct page_pool *pool, struct nk_page *page);
unsigned int page_pool_in_use(const struct page_pool *pool);

#ifdef __cplusplus
}
#endif
#endif
