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
#include "kernel/dql.h"
#include "kernel/platform.h"
#include "net/frame.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
/* The same types as <linux/types.h> (reached through system headers such as
 * <sys/stat.h>), so a file may include both. */
typedef unsigned short __le16;
typedef unsigned int __le32;
typedef unsigned long long __le64;
typedef uint64_t dma_addr_t;
#define __iomem

struct nk_kernel;
struct net_device;
struct sk_buff;
struct napi_struct;

/* ---- entry points for the simulated CPU (models/cpu) ------------------- */

struct nk_driver;
/* Creates a kernel on a platform for the resolved config, for the driver
 * table drv it will probe (its properties size the kernel's pools; NULL: a
 * driver with none, as in the kernel's unit tests). Returns NULL and fills
 * err on failure (e.g. memory too small for the rings). */
struct nk_kernel *nk_kernel_create(const struct nk_platform *p, const struct nicsim_config *cfg,
                                   const struct nk_driver *drv, char *err, size_t errlen);
/* Removes the driver if still bound and frees the kernel. */
void nk_kernel_destroy(struct nk_kernel *k);
/* Probes a driver table (kernel/driver_ops.h): rings, buffers, registers,
 * IRQ. The kernel layer knows drivers only through this table; the lookup by
 * name is nk_driver_probe's (src/drivers/driver.h). 0 or -errno. */
int nk_kernel_probe_driver(struct nk_kernel *k, const struct nk_driver *drv, char *err, size_t errlen);
/* Removes the driver: frees rings and buffers (end of run). */
void nk_kernel_remove(struct nk_kernel *k);
/* Delivers interrupt vector `vec`: charges cpu.irq_entry_cycles, runs the handler. */
void nk_kernel_irq(struct nk_kernel *k, int vec);
/* True if a NAPI context is scheduled on the current CPU (nk_kernel_set_cpu). */
bool nk_kernel_napi_pending(const struct nk_kernel *k);
/* Runs the current CPU's NET_RX softirq once (net_rx_action): charges
 * cpu.softirq_cycles and calls each NAPI poll scheduled on that CPU once with
 * its budget, until cpu.netdev_budget packets or 2 jiffies (cpu.hz, by the
 * platform's now_ns) are spent. Returns true if NAPI is still scheduled there
 * afterwards (a poll used its budget, or contexts were left: NET_RX raised). */
bool nk_kernel_softirq(struct nk_kernel *k);
/* CPUs with their own NET_RX state (poll list, GRO; Linux's softnet_data). */
#define NK_CPU_MAX 64
/* Makes cpu (0 .. NK_CPU_MAX - 1) the CPU the code run from now on is on: a
 * hard IRQ puts the NAPI it schedules on that CPU's poll list, and
 * nk_kernel_softirq polls that list. 0 until set; a multi-core platform sets
 * it with the current kernel whenever a core resumes. Out of range: 0. */
void nk_kernel_set_cpu(int cpu);
/* The current CPU (nk_kernel_set_cpu). */
int nk_kernel_get_cpu(void);
/* One CPU's NET_RX counts. */
struct nk_cpu_stats {
  uint64_t softirqs;   /* nk_kernel_softirq runs on it that polled something */
  uint64_t napi_polls; /* poll calls it made */
  uint64_t napi_work;  /* sum of those polls' return values */
  uint64_t rxq_mask;   /* bit q: its polls handed a frame of RX queue q to the stack */
  uint64_t time_squeeze; /* its runs that stopped at netdev_budget or 2 jiffies with contexts left */
};
/* The NET_RX counts of cpu (zeros out of range). */
struct nk_cpu_stats nk_kernel_cpu_stats(const struct nk_kernel *k, int cpu);
/* The host application sends one frame: allocates an skb, fills it with
 * test frame (flow, seq) (src/net/frame.h), charges the TX stack cost and
 * calls the driver's ndo_start_xmit holding the frame's TX queue lock
 * (HARD_TX_LOCK). Returns NETDEV_TX_OK, or NETDEV_TX_BUSY
 * if the queue is stopped (nothing was consumed; retry after a wake). */
int nk_kernel_xmit(struct nk_kernel *k, uint32_t frame_bytes, uint32_t flow, uint64_t seq);
/* The application's send of one data frame of frame_bytes through the stack
 * down to the driver (udp_sendmsg or tcp_sendmsg with its system call, the
 * copy from user space, ip_output), charged in the sending process before it
 * enters the driver, outside any lock (multi-core: cpu.cores >= 2). */
void nk_kernel_stack_tx(struct nk_kernel *k, uint32_t frame_bytes);
/* nk_kernel_xmit with the stack cost already charged by nk_kernel_stack_tx. */
int nk_kernel_xmit_prepared(struct nk_kernel *k, uint32_t frame_bytes, uint32_t flow, uint64_t seq);
/* traffic.sender pktgen: one pass of net/core/pktgen.c's pktgen_xmit for
 * a frame of frame_bytes, number seq of flow 0 on TX queue 0: builds a new
 * skb (alloc and fill_packet) unless the current one still has clones to
 * send (traffic.pktgen_clone_skb), bumps its users and calls the driver's
 * ndo_start_xmit under HARD_TX_LOCK, charging pktgen_xmit's loop. On
 * NETDEV_TX_BUSY (queue stopped or the driver's refusal) the skb is kept and
 * retried next time. *clone (if non-NULL) is true when a sent frame
 * re-used the skb (not built for it). Returns as nk_kernel_xmit. */
int nk_kernel_pktgen_xmit(struct nk_kernel *k, uint32_t frame_bytes, uint64_t seq, bool *clone);
/* Multi-core (cpu.cores >= 2): received bytes whose copy to user space the
 * reader has not made yet (the softirq leaves it to the reader's core). */
uint64_t nk_kernel_user_copy_pending(const struct nk_kernel *k);
/* The reader, woken for the data delivered since its last read, reads it all
 * and sleeps again: two context switches (__schedule), its recvmsg calls
 * (udp_recvmsg / tcp_recvmsg, each with a system call), the copy to user
 * space (copy_to_user) and the free of every skb it consumed (kfree_skb). */
void nk_kernel_user_copy(struct nk_kernel *k);
/* The sending socket's sk_wmem_alloc: the truesize (nk_skb_truesize) of the
 * application's data frames the driver has not freed yet (ACKs are not
 * charged). A UDP sender with traffic.sndbuf_bytes blocks on it. */
uint64_t nk_kernel_sk_wmem(const struct nk_kernel *k);
/* skb->truesize of a UDP send of one frame of frame_bytes (FCS included), as
 * Linux v5.4's ip_append_data and __alloc_skb size it on x86-64. */
uint32_t nk_skb_truesize(uint32_t frame_bytes);
/* True while the driver has stopped its TX queue: with several TX queues, the
 * queue of the latest frame nk_kernel_xmit refused (the one to retry). */
bool nk_kernel_tx_stopped(const struct nk_kernel *k);
/* The TX queue the stack puts a frame of flow on: flow mod
 * real_num_tx_queues (skb_tx_hash with one hash per flow; 0 with one queue). */
uint32_t nk_kernel_tx_queue_of_flow(const struct nk_kernel *k, uint32_t flow);
/* Per RX queue q (< 16): frames NAPIs of queue q handed to the stack, and
 * frames the driver dropped from it (nk_napi_rx_dropped). */
uint64_t nk_kernel_rxq_packets(const struct nk_kernel *k, uint32_t q);
uint64_t nk_kernel_rxq_dropped(const struct nk_kernel *k, uint32_t q);
/* Per TX queue q (< 16): frames the driver accepted on it (NETDEV_TX_OK). */
uint64_t nk_kernel_txq_packets(const struct nk_kernel *k, uint32_t q);
/* NAPI polls as they run: hook(ctx, napi index, its RX queue (-1: none),
 * false at the start / true at the end of the poll, work done (0 at the
 * start), budget). The CPU model records them on its timeline (trace
 * tracks cpu<core>.napi<index>). NULL turns it off. */
typedef void (*nk_napi_hook_fn)(void *ctx, int napi_index, int rx_queue, bool end, int work, int budget);
void nk_kernel_set_napi_hook(struct nk_kernel *k, nk_napi_hook_fn hook, void *ctx);
/* Platform timer id expired (platform.h timer_arm): charges cpu.softirq_cycles
 * (bucket hrtimer_interrupt, IRQ) and runs the callback of the hrtimer queued
 * on id, if any (a stale expiry is counted and ignored). */
void nk_kernel_timer(struct nk_kernel *k, int id);
/* End-of-run invariants: driver ring/buffer accounting (via the driver's
 * check hook), skbs and pages leaked. 0 if all hold, else -1 with err. */
int nk_kernel_check(struct nk_kernel *k, char *err, size_t errlen);

/* Counters of the kernel layer itself (cumulative; the driver's own figures
 * are in net_device.stats). */
struct nk_kernel_stats {
  uint64_t irqs;            /* nk_kernel_irq calls with a handler */
  uint64_t irqs_spurious;   /* vectors with no handler */
  uint64_t irqs_none;       /* handler returned IRQ_NONE */
  uint64_t softirqs;        /* nk_kernel_softirq runs that polled something */
  uint64_t time_squeeze;    /* of them, those that stopped at netdev_budget or 2 jiffies (softnet_stat's 3rd column) */
  uint64_t napi_polls;      /* poll calls */
  uint64_t napi_work;       /* sum of the polls' return values */
  uint64_t napi_full;       /* polls that used their whole budget */
  uint64_t xmit_ok;         /* frames the driver accepted */
  uint64_t xmit_busy;       /* returned NETDEV_TX_BUSY: queue was stopped */
  uint64_t xmit_busy_driver;/* returned NETDEV_TX_BUSY by the driver (queue awake: a driver bug in Linux) */
  uint64_t bql_stops;       /* times BQL stopped a TX queue (netdev_tx_sent_queue), all queues */
  uint64_t bql_limit_peak;  /* the largest BQL limit any TX queue reached, B */
  uint64_t sk_wmem_max;     /* largest sk_wmem_alloc of the sending socket (nk_kernel_sk_wmem), B */
  uint64_t xmit_nomem;      /* no skb for the frame (all in flight) */
  uint64_t rx_delivered;    /* frames handed to the host sink (ops->host_rx) */
  uint64_t rx_bytes;
  uint64_t skb_alloc_fail;  /* napi_alloc_skb/netdev_alloc_skb returned NULL */
  uint64_t dma_map_fail;    /* dma_map_single_attrs returned DMA_MAPPING_ERROR */
  uint64_t timers;          /* nk_kernel_timer calls that ran an hrtimer's callback */
  uint64_t timers_stale;    /* nk_kernel_timer calls for a timer no longer queued (ignored) */
  /* traffic.protocol tcp (skb.c, napi.c) */
  uint64_t gro_merged;      /* segments GRO appended to a held packet of their flow */
  uint64_t gro_flushes;     /* packets GRO handed up (each through the stack's receive parts once) */
  uint64_t tcp_discards;    /* segments the TCP receiver dropped: duplicate, out of window or no room to hold */
  uint64_t tcp_ooo_queued;  /* segments the TCP receiver held out of order (cumulative) */
  uint64_t tcp_ooo_held;    /* of those, held now (not yet delivered) */
  uint64_t tcp_ooo_purged;  /* held segments freed undelivered at remove (their hole never filled) */
  uint64_t tcp_acks_queued; /* ACKs the TCP receiver asked for (nk_kernel_ack_peek) */
  uint64_t tcp_acks_dropped;/* ACKs not queued: the ACK queue (NK_ACK_QUEUE) was full */
  /* driver.xdp (xdp.c, nk_xdp_account) */
  uint64_t xdp_pass;        /* frames the program passed on to the skb path */
  uint64_t xdp_drop;        /* frames it dropped (buffer straight back to the page_pool) */
  uint64_t xdp_tx;          /* XDP_TX frames placed on a TX ring (sent back out) */
  uint64_t xdp_tx_errors;   /* XDP_TX frames dropped: no room on the TX ring */
  /* traffic.mode forward (forward.c) */
  uint64_t fwd_packets;     /* packets the stack took into the forwarding path (ip_rcv) */
  uint64_t fwd_fib_lookups; /* fib_table_lookup calls */
  uint64_t fwd_xmit;        /* of them, those the driver accepted (ndo_start_xmit: NETDEV_TX_OK) */
  uint64_t fwd_drops_txq;   /* of them, dropped: TX queue stopped or the driver refused (no qdisc holds them) */
};
/* The kernel layer's counters. */
const struct nk_kernel_stats *nk_kernel_get_stats(const struct nk_kernel *k);
/* traffic.protocol tcp: the oldest ACK the stack's TCP receiver wants sent
 * (flow, cumulative seq = next segment expected); false if none. The caller
 * transmits it with nk_kernel_xmit(k, NF_ACK_FRAME, flow | NF_FLOW_ACK, seq)
 * and then removes it with nk_kernel_ack_pop. */
bool nk_kernel_ack_peek(const struct nk_kernel *k, uint32_t *flow, uint64_t *seq);
/* Removes the ACK nk_kernel_ack_peek returned (no-op if none). */
void nk_kernel_ack_pop(struct nk_kernel *k);
/* The SACK blocks of the ACK nk_kernel_ack_peek returns (n = 0 if none or no ACK). */
void nk_kernel_ack_sack(const struct nk_kernel *k, struct nf_sack *sack);
/* Transmits the oldest queued ACK as an NF_ACK_FRAME with its SACK blocks and
 * pops it on NETDEV_TX_OK; returns as nk_kernel_xmit, or 1 if none is queued. */
int nk_kernel_xmit_ack(struct nk_kernel *k);
/* The first driver bug the layer caught (bad pointer, bad unmap, skb
 * overflow, NAPI misuse...), or NULL. After a fault the kernel stops running
 * driver code: irq/softirq do nothing and xmit drops. The glue should stop
 * the run and report it; nk_kernel_check reports it too. */
const char *nk_kernel_fault(const struct nk_kernel *k);
/* The last non-fatal error (e.g. an allocation that failed), or "". */
const char *nk_kernel_last_error(const struct nk_kernel *k);
/* The kernel's one net_device (for harnesses and tests). */
struct net_device *nk_kernel_netdev(struct nk_kernel *k);
/* Makes k the current kernel without running anything (tests, harnesses
 * that call kernel.h functions directly). Entry points do this themselves. */
void nk_kernel_set_current(struct nk_kernel *k);
/* The current kernel (NULL if none): a multi-core platform saves it with
 * the rest of a core's state while the core is suspended. */
struct nk_kernel *nk_kernel_get_current(void);
/* skbs currently allocated from the kernel's pool. */
unsigned int nk_kernel_skbs_in_use(const struct nk_kernel *k);

/* ---- for the device model: what the driver mapped ----------------------- */

/* A live DMA mapping, or a dma_alloc_coherent region (coherent = true). */
struct nk_dma_mapping {
  uint64_t pa, len;
  unsigned long attrs; /* DMA_ATTR_* passed to dma_map_single_attrs */
  int dir;             /* enum dma_data_direction */
  bool coherent;
};
/* Attributes of the live mapping covering pa (e.g. DMA_ATTR_WEAK_ORDERING,
 * which a platform may turn into relaxed-ordering TLPs), or 0 if none. O(1). */
unsigned long nk_dma_attrs(const struct nk_kernel *k, uint64_t pa);
/* Fills *m with the live mapping or coherent region covering pa. Returns
 * true if there is one (the device may DMA there), false otherwise. O(1). */
bool nk_dma_lookup(const struct nk_kernel *k, uint64_t pa, struct nk_dma_mapping *m);
/* IOMMU-style permission of a device access: true if [pa, pa + len) lies in
 * one live mapping or coherent region and a write (read) is not into a
 * DMA_TO_DEVICE (DMA_FROM_DEVICE) mapping. Otherwise false, with why filled. */
bool nk_dma_device_may_access(const struct nk_kernel *k, uint64_t pa, uint32_t len, bool write,
                              char *why, size_t whylen);

/* ---- profiling: which function the CPU is in --------------------------- */

/* Class of work, for per-packet cycle figures. */
enum nk_class { NK_CLASS_RX, NK_CLASS_TX, NK_CLASS_IRQ, NK_CLASS_OTHER, NK_CLASS__COUNT };
#define NK_PROF_MAX 96
/* Bucket 0, "(other)", class NK_CLASS_OTHER: charges made outside any
 * profiled function. The kernel layer's own modelled work goes to buckets
 * named after the Linux functions that do it, as perf shows them: the
 * stack's parts (NK_PROF_* below, docs/host.md "The stack"), IRQ entry
 * (IRQ) and the NET_RX softirq (IRQ). */
#define NK_PROF_OTHER "(other)"
#define NK_PROF_IRQ_ENTRY "irq_entry"
#define NK_PROF_NET_RX_ACTION "net_rx_action"
#define NK_PROF_HRTIMER "hrtimer_interrupt" /* timer expiry (IRQ): cpu.softirq_cycles */
/* The stack's parts (stack.*_instructions): receive (RX class) */
#define NK_PROF_GRO "napi_gro_receive"            /* per frame: GRO attempt or merge */
#define NK_PROF_NETIF_RECEIVE "__netif_receive_skb_core" /* per packet handed up */
#define NK_PROF_IP_RCV "ip_rcv"
#define NK_PROF_UDP_RCV "udp_rcv"
#define NK_PROF_TCP_RCV "tcp_v4_rcv"
#define NK_PROF_TCP_ACK "tcp_ack"                 /* a pure ACK to the host's TCP sender */
#define NK_PROF_SOCK_WAKEUP "sock_def_readable"   /* waking the sleeping reader */
#define NK_PROF_UDP_RECVMSG "udp_recvmsg"         /* the reader's system call and dequeue */
#define NK_PROF_TCP_RECVMSG "tcp_recvmsg"
/* send (TX class) */
#define NK_PROF_UDP_SENDMSG "udp_sendmsg"
#define NK_PROF_TCP_SENDMSG "tcp_sendmsg"
#define NK_PROF_TCP_SEND_ACK "tcp_send_ack"
#define NK_PROF_IP_OUTPUT "ip_output"
#define NK_PROF_COPY_FROM_USER "copy_from_user"
#define NK_PROF_PKTGEN_XMIT "pktgen_xmit"           /* traffic.sender pktgen: its loop per packet */
#define NK_PROF_PKTGEN_FILL "fill_packet_ipv4"      /* pktgen: building a new skb's packet */
#define NK_PROF_XDP_PROG "bpf_prog_run_xdp"         /* driver.xdp: the built-in program (RX class) */
/* traffic.mode forward (RX class, then TX from ip_output; ip_output is the TX path's bucket) */
#define NK_PROF_IP_RCV_FINISH "ip_rcv_finish"
#define NK_PROF_FIB_LOOKUP "fib_table_lookup"
#define NK_PROF_IP_FORWARD "ip_forward"
#define NK_PROF_NEIGH_OUTPUT "neigh_output"
#define NK_PROF_DEV_QUEUE_XMIT "dev_queue_xmit"
/* either direction (self time, in the caller's class) */
#define NK_PROF_ALLOC_SKB "__alloc_skb"
#define NK_PROF_FREE_SKB "kfree_skb"
#define NK_PROF_SCHEDULE "__schedule"             /* a context switch (cpu.context_switch_cycles) */
/* The received bytes' copy to user space (the reader's recvmsg, in process
 * context): charged after the NAPI poll, outside the driver's functions. */
#define NK_PROF_COPY_TO_USER "copy_to_user"
/* Registers (or finds) a profile bucket by function name; process-global. */
int nk_prof_id(const char *fn, enum nk_class cls);
/* The id of an existing bucket, or -1 (registers nothing). */
int nk_prof_find(const char *fn);
/* Name of bucket id, or NULL. */
const char *nk_prof_name(int id);
/* Class of bucket id (NK_CLASS_OTHER if unknown). */
enum nk_class nk_prof_class(int id);
/* Buckets registered, ids [0, count). */
int nk_prof_count(void);
/* The bucket charged now; the platform reads it on every charge. */
int nk_prof_current(void);
/* Enters bucket id, returning the previous one for nk_prof_leave. */
int nk_prof_enter(int id);
/* Returns to the bucket nk_prof_enter returned. */
void nk_prof_leave(int prev);
/* Deepest nesting of profiled functions tracked for inclusive time. */
#define NK_PROF_DEPTH 16
/* The buckets entered and not yet left, outermost first: their count, and
 * *ids points at them (valid until the next enter/leave). A charge is
 * inclusive time of each of them. */
int nk_prof_active(const int **ids);
/* The profiler's "current CPU" state (bucket and stack of entered buckets):
 * a multi-core platform saves it when a core's thread is suspended and
 * restores it when the core resumes, as a context switch does. */
struct nk_prof_state {
  int cur, depth;
  int stack[NK_PROF_DEPTH];
};
/* Copies the current profiler state into *s. */
void nk_prof_save(struct nk_prof_state *s);
/* Makes *s the current profiler state. */
void nk_prof_restore(const struct nk_prof_state *s);
/* At the top of a hot-path function: charges made until it returns go to it. */
#define NK_PROFILE_FUNC(cls)                                                  \
  static int nk__prof_id = -1;                                                \
  if (nk__prof_id < 0) nk__prof_id = nk_prof_id(__func__, (cls));             \
  int nk__prof_prev __attribute__((cleanup(nk__prof_cleanup), unused)) = nk_prof_enter(nk__prof_id)
static inline void nk__prof_cleanup(int *prev) { nk_prof_leave(*prev); }

/* ---- memory access (each is one CPU instruction) ------------------------ */

/* One load of 1/2/4/8 bytes from simulated memory (a bad pointer is a fault, returns 0). */
u8 nk_ld8(const void *p);
u16 nk_ld16(const void *p);
u32 nk_ld32(const void *p);
u64 nk_ld64(const void *p);
/* One store of 1/2/4/8 bytes to simulated memory (a bad pointer is a fault, nothing stored). */
void nk_st8(void *p, u8 v);
void nk_st16(void *p, u16 v);
void nk_st32(void *p, u32 v);
void nk_st64(void *p, u64 v);
/* memcpy by the CPU; both sides in simulated memory. */
void nk_memcpy(void *dst, const void *src, size_t n);
/* Virtual address <-> physical address of simulated memory. */
u64 nk_virt_to_phys(const void *p);
/* The pointer for pa (NULL and a fault if pa is beyond memory). */
void *nk_phys_to_virt(u64 pa);

/* ---- MMIO and barriers ---------------------------------------------------- */

/* The BAR0 mapping of the current device; readl(ioaddr + REG). */
void __iomem *nk_ioremap(struct net_device *dev);
/* 32-bit register read (a round trip to the device). */
u32 readl(const void __iomem *addr);
/* 32-bit posted register write (orders earlier memory writes before it, as in Linux). */
void writel(u32 val, void __iomem *addr);
/* Full, read and write barriers. */
void mb(void);
void rmb(void);
void wmb(void);
/* Barriers ordering accesses to DMA memory only (descriptor fields vs OWN). */
void dma_rmb(void);
void dma_wmb(void);

/* ---- DMA API -------------------------------------------------------------- */

enum dma_data_direction { DMA_BIDIRECTIONAL = 0, DMA_TO_DEVICE = 1, DMA_FROM_DEVICE = 2, DMA_NONE = 3 };
#define DMA_ATTR_WEAK_ORDERING (1ul << 1)
#define DMA_ATTR_SKIP_CPU_SYNC (1ul << 5)
#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

/* Allocates zeroed DMA memory; uncached when the platform's DMA is not coherent. */
void *dma_alloc_coherent(struct net_device *dev, size_t size, dma_addr_t *handle);
/* Frees dma_alloc_coherent memory (size as allocated). */
void dma_free_coherent(struct net_device *dev, size_t size, void *cpu_addr, dma_addr_t handle);
/* Allocates zeroed DMA memory mapped write-combining for the CPU when the
 * platform's DMA is not coherent (as Linux's dma_pgprot), cacheable otherwise. */
void *dma_alloc_wc(struct net_device *dev, size_t size, dma_addr_t *handle);
/* Frees dma_alloc_wc memory (size as allocated). */
void dma_free_wc(struct net_device *dev, size_t size, void *cpu_addr, dma_addr_t handle);
/* Maps a buffer for the device (identity: returns its pa), with the initial cache
 * maintenance on a non-coherent platform unless DMA_ATTR_SKIP_CPU_SYNC. */
dma_addr_t dma_map_single_attrs(struct net_device *dev, void *ptr, size_t size,
                                enum dma_data_direction dir, unsigned long attrs);
/* Ends a mapping (same addr, size, dir), syncing for the CPU unless DMA_ATTR_SKIP_CPU_SYNC. */
void dma_unmap_single_attrs(struct net_device *dev, dma_addr_t addr, size_t size,
                            enum dma_data_direction dir, unsigned long attrs);
/* dma_map_single_attrs with no attrs. */
static inline dma_addr_t dma_map_single(struct net_device *dev, void *ptr, size_t size,
                                        enum dma_data_direction dir) {
  return dma_map_single_attrs(dev, ptr, size, dir, 0);
}
/* dma_unmap_single_attrs with no attrs. */
static inline void dma_unmap_single(struct net_device *dev, dma_addr_t addr, size_t size,
                                    enum dma_data_direction dir) {
  dma_unmap_single_attrs(dev, addr, size, dir, 0);
}
/* Nonzero if a map call failed. */
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
/* NET_IP_ALIGN: the architecture's constant in Linux (2, and 0 on x86 and
 * ppc64), here the current kernel's cpu.net_ip_align_bytes. */
#define NET_IP_ALIGN ((int)nk_net_ip_align())
unsigned int nk_net_ip_align(void);

struct net_device_stats {
  u64 rx_packets, rx_bytes, rx_dropped, rx_errors;
  u64 tx_packets, tx_bytes, tx_dropped, tx_errors;
};

/* ---- spinlocks ------------------------------------------------------------ */

/* A spinlock: an id the platform's spin op knows it by (0: not initialised).
 * With one CPU (or cpu.locking big) taking one costs nothing; with
 * cpu.locking txq a CPU that finds it held spins (docs/kernel.md). IRQs are
 * taken only between kernel entry points, so the _irqsave and _bh variants
 * are the plain lock. */
typedef struct {
  unsigned int id;
} spinlock_t;
/* Gives the lock the current kernel's next id (NK_SPIN_MAX at most: more is a fault). */
void spin_lock_init(spinlock_t *lock);
/* Takes (releases) the lock; an uninitialised lock is a fault. */
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
/* spin_lock with bottom halves off: the same here. */
static inline void spin_lock_bh(spinlock_t *lock) { spin_lock(lock); }
static inline void spin_unlock_bh(spinlock_t *lock) { spin_unlock(lock); }
/* spin_lock with local IRQs off (flags: the saved state, unused here). */
#define spin_lock_irqsave(lock, flags) \
  do {                                 \
    (flags) = 0;                       \
    spin_lock(lock);                   \
  } while (0)
#define spin_unlock_irqrestore(lock, flags) \
  do {                                      \
    (void)(flags);                          \
    spin_unlock(lock);                      \
  } while (0)

#define NK_TXQ_MAX 16 /* TX queues of a net_device (nic.tx_queues at most) */
/* A TX queue's stack-side state: its xmit lock (Linux's _xmit_lock, taken by
 * HARD_TX_LOCK around ndo_start_xmit and by drivers' TX clean paths) and its
 * byte queue limit (dql, with the stack's stop bit __QUEUE_STATE_STACK_XOFF). */
struct netdev_queue {
  spinlock_t _xmit_lock;
  struct net_device *dev;
  struct nk_dql dql;
  bool stack_xoff; /* stopped by BQL (the driver's own stop is kept in net_device) */
};

struct net_device {
  char name[16];
  struct nk_kernel *k;
  const struct nicsim_config *cfg; /* the resolved config: ring sizes, knobs */
  void *priv;                      /* the driver's private struct */
  struct net_device_stats stats;
  bool tx_stopped;                 /* TX queue 0 stopped (netif_stop_queue) */
  u32 txq_stopped;                 /* bit q: TX queue q >= 1 stopped (netif_stop_subqueue) */
  u32 real_num_tx_queues;          /* TX queues the stack spreads flows over (0 or 1: one) */
  u32 real_num_rx_queues;
  /* RSS as the driver programmed it (nk_netdev_set_rss): the kernel checks
   * that every frame reaches the stack on the RX queue the table names. */
  const u8 *rss_key;               /* NF_RSS_KEY_LEN bytes, or NULL: no check */
  const u8 *rss_lut;               /* rss_lut_size entries (RX queue numbers) */
  u32 rss_lut_size;                /* a power of two */
  struct netdev_queue _tx[NK_TXQ_MAX]; /* TX queue locks, nic.tx_queues of them initialised */
  u32 num_tx_queues;                   /* TX queues allocated (nic.tx_queues) */
};
/* The driver's private struct. */
static inline void *netdev_priv(const struct net_device *dev) { return dev->priv; }

/* An skb: metadata in C memory, data in simulated (cacheable) memory. */
struct sk_buff {
  u8 *head;      /* start of the buffer */
  u8 *data;      /* start of the frame */
  u32 len;       /* bytes from data */
  u32 size;      /* bytes from head */
  struct net_device *dev;
  struct sk_buff *next; /* free-list link */
  bool in_use;          /* allocated (double-free detection) */
  u16 queue_mapping;    /* TX: the queue the stack picked (skb_get_queue_mapping) */
  u32 wmem;             /* truesize charged to the sending socket; given back at free (sock_wfree) */
  u32 users;            /* extra references (skb->users - 1): a free drops one while any remain (pktgen's clones) */
};
/* The TX queue the stack chose for skb (netdev_pick_tx). */
static inline u16 skb_get_queue_mapping(const struct sk_buff *skb) { return skb->queue_mapping; }
/* An skb for RX with NET_SKB_PAD + NET_IP_ALIGN headroom, as napi_alloc_skb. */
struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len);
/* The same outside NAPI. */
struct sk_buff *netdev_alloc_skb(struct net_device *dev, unsigned int len);
/* Moves data forward by len on an empty skb (more headroom). */
void skb_reserve(struct sk_buff *skb, int len);
/* Extends the data by len bytes; returns where they start (overflow is a fault). */
u8 *skb_put(struct sk_buff *skb, unsigned int len);
/* Returns an skb to the pool (NULL: no-op; twice: a fault). */
void dev_kfree_skb_any(struct sk_buff *skb);
/* Frees an skb from NAPI context (TX completion). */
void napi_consume_skb(struct sk_buff *skb, int budget);
/* Hands a received frame to the stack: GRO (tcp: merged with the held packet
 * of its flow), then per packet the stack's receive parts and the host sink. */
void napi_gro_receive(struct napi_struct *napi, struct sk_buff *skb);
/* napi_gro_receive without NAPI (there is no GRO: the two are the same). */
void netif_receive_skb(struct sk_buff *skb);

struct napi_struct {
  int (*poll)(struct napi_struct *napi, int budget);
  struct net_device *dev;
  int weight;
  bool enabled;
  bool scheduled;
  bool missed;     /* scheduled again while scheduled (NAPI_STATE_MISSED): poll once more */
  bool registered; /* between netif_napi_add and netif_napi_del */
  int index;       /* registration order on its device: 0, 1, ... (trace track cpu<c>.napi<index>) */
  int rx_queue;    /* RX queue it polls (netif_queue_set_napi), -1 if none was set */
};
/* Registers a NAPI context, disabled, with its poll function and weight. */
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
                    int (*poll)(struct napi_struct *, int), int weight);
/* Allows the context to be scheduled. */
void napi_enable(struct napi_struct *napi);
/* Stops scheduling and drops a pending poll. */
void napi_disable(struct napi_struct *napi);
/* Claims the context for scheduling: false if disabled or already scheduled (then MISSED). */
bool napi_schedule_prep(struct napi_struct *napi);
/* Puts a claimed context on the poll list. */
void __napi_schedule(struct napi_struct *napi);
/* napi_schedule_prep + __napi_schedule (from the IRQ handler). */
void napi_schedule(struct napi_struct *napi);
/* Ends polling if work_done < budget; returns true if the driver may re-enable IRQs. */
bool napi_complete_done(struct napi_struct *napi, int work_done);
/* Unregisters a NAPI context (after napi_disable), as in remove. */
void netif_napi_del(struct napi_struct *napi);

/* Installs handler for vector vec in [0, 64): 0, -EINVAL or -EBUSY. */
int request_irq(struct net_device *dev, int vec, irq_handler_t handler, void *dev_id);
/* Removes the handler of vec (unrequested: a fault). */
void free_irq(struct net_device *dev, int vec);
/* MSI target the driver programs into the device. */
u64 nk_msi_addr(struct net_device *dev);
/* MSI data word for vector vec (the vector itself). */
u32 nk_msi_data(struct net_device *dev, int vec);

/* Multi-queue (nic.rx_queues / tx_queues > 1). The queue types of netif_queue_set_napi. */
enum netdev_queue_type { NETDEV_QUEUE_TYPE_RX, NETDEV_QUEUE_TYPE_TX };
/* Records that napi polls RX (or TX) queue q (Linux 6.8's netif_queue_set_napi);
 * with an RX queue the kernel counts the frames the NAPI hands up per queue. */
void netif_queue_set_napi(struct net_device *dev, unsigned int q, enum netdev_queue_type type,
                          struct napi_struct *napi);
/* Sets the TX (RX) queues in use: the stack spreads its flows over the TX ones. 0 or -EINVAL. */
int netif_set_real_num_tx_queues(struct net_device *dev, unsigned int n);
int netif_set_real_num_rx_queues(struct net_device *dev, unsigned int n);
/* Stops / wakes TX queue q (q < real_num_tx_queues; queue 0 is netif_stop_queue's). */
void netif_stop_subqueue(struct net_device *dev, u16 q);
void netif_wake_subqueue(struct net_device *dev, u16 q);
/* True while TX queue q is stopped. */
bool __netif_subqueue_stopped(const struct net_device *dev, u16 q);
/* TX queue q of dev (q below nic.tx_queues; beyond: a fault, queue 0). */
struct netdev_queue *netdev_get_tx_queue(struct net_device *dev, unsigned int q);
/* Takes (releases) the queue's xmit lock, as the kernel's xmit does around
 * ndo_start_xmit (HARD_TX_LOCK). Linux's __netif_tx_lock also records the
 * owning CPU (its cpu argument); here the platform knows the CPU, so there is
 * no such argument. */
void __netif_tx_lock(struct netdev_queue *txq);
void __netif_tx_unlock(struct netdev_queue *txq);
/* The same with bottom halves off (stmmac_tx_clean): identical here. */
static inline void __netif_tx_lock_bh(struct netdev_queue *txq) { __netif_tx_lock(txq); }
static inline void __netif_tx_unlock_bh(struct netdev_queue *txq) { __netif_tx_unlock(txq); }
/* Tells the kernel the RSS key (NF_RSS_KEY_LEN bytes) and indirection table
 * (size entries, a power of two) the driver programmed; both must outlive the
 * driver's binding. Every frame handed to the stack from a NAPI with an RX
 * queue is then checked against it: arriving on another queue than the table
 * names for its hash is a fault (nicsim's check, not a Linux API). */
void nk_netdev_set_rss(struct net_device *dev, const u8 *key, const u8 *lut, u32 size);
/* The driver dropped a frame it took from napi's RX queue (Linux drivers
 * count it in their ring's rx_stats): counted for per-queue conservation. */
void nk_napi_rx_dropped(struct napi_struct *napi);

/* ---- byte queue limits (BQL; driver.bql) ---------------------------------- */

/* The driver handed bytes of one frame to the device on txq: BQL adds them to
 * the queue's bytes in flight and stops the queue (stack side) once they
 * reach the limit. A no-op with driver.bql false (as without CONFIG_BQL). */
void netdev_tx_sent_queue(struct netdev_queue *txq, unsigned int bytes);
/* TX clean freed pkts frames of bytes on txq: BQL recomputes the limit and
 * restarts the queue (stack side) if the bytes in flight are below it again.
 * Completing more bytes than are in flight is a fault (Linux: BUG_ON). */
void netdev_tx_completed_queue(struct netdev_queue *txq, unsigned int pkts, unsigned int bytes);
/* Forgets txq's bytes in flight (ring reset, interface down): limit back to limit_min, queue restarted. */
void netdev_tx_reset_queue(struct netdev_queue *txq);
/* The same three on TX queue 0 (Linux's netdev_sent_queue etc.). */
void netdev_sent_queue(struct net_device *dev, unsigned int bytes);
void netdev_completed_queue(struct net_device *dev, unsigned int pkts, unsigned int bytes);
void netdev_reset_queue(struct net_device *dev);
/* Bytes BQL counts in flight on TX queue q: sent and not yet completed (0
 * with driver.bql false, or q beyond the device's queues). nicsim's, for
 * drivers' check hooks: it must equal the lengths of the frames on the ring. */
u32 nk_netdev_bql_inflight(const struct net_device *dev, unsigned int q);
/* The drivers' check of that: with driver.bql, 0 if BQL's bytes in flight on
 * TX queue q equal ring_bytes (the frames on the ring), else -1 with err
 * ("<who>: TX queue q: BQL counts ..."). Always 0 with driver.bql false. */
int nk_netdev_bql_check(const struct net_device *dev, unsigned int q, u32 ring_bytes, const char *who, char *err,
                        size_t errlen);
/* True while TX queue q is stopped by its driver or by BQL: the stack does
 * not call ndo_start_xmit then (Linux's netif_xmit_stopped). Drivers test
 * their own stop with netif_queue_stopped / __netif_subqueue_stopped. */
bool netif_xmit_stopped(const struct net_device *dev, u16 q);

/* Stops the TX queue: nk_kernel_xmit returns NETDEV_TX_BUSY until the wake. */
void netif_stop_queue(struct net_device *dev);
/* Restarts the TX queue. */
void netif_wake_queue(struct net_device *dev);
/* True while the TX queue is stopped. */
bool netif_queue_stopped(const struct net_device *dev);

/* ---- timers: hrtimer-like, one-shot, relative, in ns ----------------------- */

typedef int64_t ktime_t; /* nanoseconds */
/* ktime_get: the CPU's current (local) time, ns (dev names the kernel). */
ktime_t nk_ktime_get(struct net_device *dev);
#define CLOCK_MONOTONIC 1
enum hrtimer_mode { HRTIMER_MODE_REL = 1 };                 /* the only mode: expiry relative to now */
enum hrtimer_restart { HRTIMER_NORESTART = 0, HRTIMER_RESTART = 1 };

struct hrtimer {
  enum hrtimer_restart (*function)(struct hrtimer *); /* set after hrtimer_init, as in Linux */
  int id;          /* platform timer id + 1 (0: not initialised) */
  bool queued;     /* armed and not yet expired or cancelled */
  ktime_t forward; /* interval from hrtimer_forward_now, for HRTIMER_RESTART */
};
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline ktime_t us_to_ktime(u64 us) { return (ktime_t)(us * 1000u); }
/* Registers the timer with the current kernel (one of NK_TIMER_MAX platform
 * timers; a full table is a fault). clock_id and mode as Linux (REL only). */
void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode);
/* (Re)arms the timer to expire tim ns from now (a queued one is moved, as
 * Linux's hrtimer_start / mod_timer do). */
void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode);
/* Cancels the timer; 1 if it was queued, else 0. */
int hrtimer_cancel(struct hrtimer *timer);
/* True while the timer is armed. */
bool hrtimer_is_queued(const struct hrtimer *timer);
/* From the callback: the next expiry is interval after this one; return
 * HRTIMER_RESTART to re-arm. Returns 1 (overruns, as Linux counts them). */
u64 hrtimer_forward_now(struct hrtimer *timer, ktime_t interval);

/* ---- page pool: fixed-size DMA buffers, recycled (no allocation per packet) */

struct page_pool;
struct nk_page {
  void *addr;      /* virtual address of the buffer */
  dma_addr_t dma;  /* mapped DMA address */
  struct nk_page *next;
  struct page_pool *pool; /* owner */
  bool in_use;            /* allocated from the pool */
  bool dev_synced;        /* PP_FLAG_DMA_SYNC_DEV: synced for the device since the pool mapped it */
};
/* A pool of n buffers of size bytes, mapped for dir. NULL if memory is short. */
struct page_pool *page_pool_create(struct net_device *dev, unsigned int n, unsigned int size,
                                   enum dma_data_direction dir);
/* The same, mapping each buffer with DMA_ATTR_* attrs (e.g. WEAK_ORDERING).
 * (Linux's page_pool always maps with SKIP_CPU_SYNC | WEAK_ORDERING; here the
 * driver's choice is explicit.) */
struct page_pool *page_pool_create_attrs(struct net_device *dev, unsigned int n, unsigned int size,
                                         enum dma_data_direction dir, unsigned long attrs);
/* Unmaps and frees the pool (buffers still out: a fault). */
void page_pool_destroy(struct page_pool *pool);
/* A buffer from the pool in O(1), or NULL if all are out. */
struct nk_page *page_pool_dev_alloc_pages(struct page_pool *pool);
/* Returns a buffer to its pool in O(1) (twice, or to another pool: a fault). */
void page_pool_recycle_direct(struct page_pool *pool, struct nk_page *page);
/* page_pool_params' PP_FLAG_DMA_SYNC_DEV with its offset and max_len: the
 * pool syncs a buffer for the device itself, max_len bytes from offset when
 * it first hands it out, and then dma_sync_size bytes (at most max_len; -1:
 * max_len) when a driver gives it back with page_pool_put_page; drivers then
 * sync only for the CPU (Linux's page_pool_dma_sync_for_device). */
void page_pool_set_dma_sync_dev(struct page_pool *pool, unsigned int offset, unsigned int max_len);
/* Returns a buffer whose first dma_sync_size bytes (from the pool's offset)
 * the CPU may have touched: synced for the device over them if the pool has
 * PP_FLAG_DMA_SYNC_DEV, then recycled (allow_direct: NAPI context; the only
 * case here). */
void page_pool_put_page(struct page_pool *pool, struct nk_page *page, int dma_sync_size, bool allow_direct);
/* Buffers currently out of the pool (leak checks). */
unsigned int page_pool_in_use(const struct page_pool *pool);

/* ---- XDP (driver.xdp): a built-in program on the raw RX buffer ----------- */

/* The program's verdicts (include/uapi/linux/bpf.h). */
enum xdp_action { XDP_ABORTED = 0, XDP_DROP, XDP_PASS, XDP_TX, XDP_REDIRECT };
/* Headroom a driver leaves before the frame for XDP (xdp_frame, adjust_head). */
#define XDP_PACKET_HEADROOM 256
/* The frame as the program sees it (struct xdp_buff): in the driver's
 * page_pool buffer, before any skb exists. */
struct xdp_buff {
  void *data;            /* first byte of the frame */
  void *data_end;        /* one past its last byte */
  void *data_hard_start; /* start of the buffer (headroom before data) */
  struct napi_struct *rxq; /* the RX queue's NAPI (xdp_rxq_info) */
  u32 frame_sz;          /* the buffer's size */
  u32 mem_type;          /* xdp_rxq_info's mem.type: MEM_TYPE_* */
};
/* enum xdp_mem_type (include/net/xdp.h): who owns the buffer's memory. */
#define MEM_TYPE_PAGE_SHARED 0 /* the driver's own pages (i40e: split pages, page_frag_free) */
#define MEM_TYPE_PAGE_POOL 2   /* a page_pool (mvneta from v5.5) */
/* convert_to_xdp_frame (include/net/xdp.h, v5.4-v5.7): the frame's struct
 * xdp_frame (data, len, headroom, metasize, mem.type, mem.id, dev_rx),
 * written at the start of its headroom: 7 stores to cacheable memory.
 * Returns where it lies, or NULL if the headroom cannot hold it (32 B). */
void *convert_to_xdp_frame(const struct xdp_buff *xdp);
/* An attached XDP program: nicsim has one, built in, returning the verdict
 * driver.xdp names (a JITed "return XDP_<verdict>;"). */
struct bpf_prog {
  enum xdp_action act;
};
/* The program attached to dev (driver.xdp), or NULL with driver.xdp off:
 * the driver reads it once at probe, where Linux's ndo_bpf(XDP_SETUP_PROG)
 * would store it (pp->xdp_prog, ring->xdp_prog). */
const struct bpf_prog *nk_xdp_prog(struct net_device *dev);
/* Runs prog on xdp (bpf_prog_run_xdp): charges stack.xdp_prog_instructions
 * under bpf_prog_run_xdp and returns the verdict. */
u32 bpf_prog_run_xdp(const struct bpf_prog *prog, struct xdp_buff *xdp);
/* What became of a frame the program saw, as the driver counts it in its
 * XDP stats (mvneta's rx_xdp_pass / _drop / _tx / _tx_errors): nicsim's
 * accounting for the xdp.* metrics and the conservation checks. */
enum nk_xdp_outcome {
  NK_XDP_PASS,     /* on to the skb path (then delivered or counted like any frame) */
  NK_XDP_DROP,     /* dropped by the program (XDP_DROP, XDP_ABORTED): buffer recycled */
  NK_XDP_TX,       /* XDP_TX placed on a TX ring: it goes back out on the wire */
  NK_XDP_TX_ERROR, /* XDP_TX with no room on the TX ring: dropped, buffer recycled */
};
void nk_xdp_account(struct napi_struct *napi, enum nk_xdp_outcome o);
/* An XDP_TX frame the driver placed on device TX queue txq, a dedicated
 * XDP ring after the stack's queues (i40e): counted with the frames
 * accepted on that queue, for per-queue conservation. */
void nk_xdp_tx_queued(struct net_device *dev, u32 txq);
/* Per RX queue q: frames XDP consumed there (all outcomes but PASS), for
 * per-queue conservation. */
uint64_t nk_kernel_rxq_xdp(const struct nk_kernel *k, uint32_t q);

#ifdef __cplusplus
}
#endif
#endif
