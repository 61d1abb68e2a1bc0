/*
 * kernel_priv.h: the private state of nicsim's kernel-like layer (struct
 * nk_kernel) and the helpers its .c files share. Drivers never include it.
 */
#ifndef NICSIM_KERNEL_KERNEL_PRIV_H
#define NICSIM_KERNEL_KERNEL_PRIV_H

#include <stdarg.h>

#include "kernel/driver_ops.h"
#include "kernel/kernel.h"

/* On a function of the kernel layer that is the simulator's, not the
 * kernel's (the DMA API's tracking, invariant checks, the models' queries):
 * its code is not counted (docs/host.md, "The code's own instructions").
 * The counted files are compiled by clang (cmake/icount.cmake). */
#if defined(__clang__)
#define NK_NOCOUNT __attribute__((no_sanitize("coverage")))
#else
#define NK_NOCOUNT
#endif

#define NK_PAGE_SIZE 4096u
#define NK_ALLOC_MAX 1024 /* live allocations of simulated memory (rings, pools) */
#define NK_FREE_MAX 1024  /* free ranges below the bump pointer */
#define NK_NAPI_MAX 16
#define NK_IRQ_MAX 64
#define NK_POOL_MAX 64
#define NK_SKB_SLACK 64 /* skbs beyond TX ring + NAPI budgets (nk__polling_cpus + 1) (driver-held, in flight) */
#define NK_SKB_MIN_FRAME 1518u /* skb data room covers at least a standard Ethernet frame */
/* CPUs whose NAPI polls may hold skbs at once: every core with
 * cpu.irq_affinity spread, else one. The skb pool and the mapping table
 * hold one NAPI budget per such CPU plus one. */
static inline u64 nk__polling_cpus(const struct nicsim_config *c) {
  return c->cpu.cores >= 2 && c->cpu.irq_affinity == NC_IRQ_AFFINITY_SPREAD ? (u64)c->cpu.cores : 1;
}

/* What an allocation of simulated memory is for (leak messages, free checks). */
enum nk_alloc_kind { NK_ALLOC_COHERENT, NK_ALLOC_SKB_POOL, NK_ALLOC_PAGE_POOL };

struct nk_alloc {
  u64 pa, len;
  enum nk_alloc_kind kind;
  bool live;
};

struct nk_range {
  u64 pa, len;
};

/* One live DMA mapping (dma_map_single_attrs) or coherent allocation. */
struct nk_dma_map {
  u64 pa, len;
  unsigned long attrs;
  enum dma_data_direction dir;
  bool coherent;
  bool live;
  u32 next_free; /* index + 1 of the next free record; 0 ends the list */
  u32 shares;    /* further DMA_TO_DEVICE mappings of the same range (dma-debug allows them: the device only reads) */
  /* A DMA_TO_DEVICE mapping inside a live streaming mapping of the other
   * direction (i40e's XDP_TX maps the frame in its DMA_FROM_DEVICE RX page;
   * dma-debug leaves TO_DEVICE mappings out of its overlap check, and the
   * IOMMU gives the two their own IOVAs): an alias owns no lines; its parent
   * (index + 1) lists its aliases through alias_next (index + 1, 0 ends). */
  u32 parent;
  u32 aliases;
  u32 alias_next;
};

struct page_pool {
  struct net_device *dev;
  unsigned int n, size, stride;
  enum dma_data_direction dir;
  unsigned long attrs;
  u64 pa;                /* the chunk holding all n buffers */
  struct nk_page *pages; /* C array of n */
  struct nk_page *free;
  unsigned int in_use;
  bool live;
  bool sync_dev;               /* PP_FLAG_DMA_SYNC_DEV */
  unsigned int sync_offset;    /* page_pool_params.offset */
  unsigned int sync_max_len;   /* page_pool_params.max_len */
};

struct nk_irq {
  irq_handler_t handler;
  void *dev_id;
};

/* GRO (traffic.protocol tcp): Linux holds up to MAX_GRO_SKBS = 8 packets per
 * NAPI (include/net/gro.h, formerly netdevice.h) and flushes the oldest when
 * a ninth flow arrives; a packet grows to less than 64 KiB
 * (GRO_LEGACY_MAX_SIZE / gso_max_size, net/core/gro.c skb_gro_receive). */
#define NK_GRO_MAX 8
#define NK_GRO_MAX_SIZE 65536u
#define NK_TCP_FLOWS 256  /* traffic.flows at most */
#define NK_ACK_QUEUE 1024 /* ACKs waiting for the driver (txqueuelen 1000 scale) */

/* One held GRO packet: consecutive segments of one flow, chained by skb->next. */
struct nk_gro_entry {
  bool live;
  u32 flow;
  u64 next_seq;  /* seq a segment must carry to be appended */
  u32 segs;
  u32 ip_bytes;  /* IP length of the merged packet (first IP packet + appended payloads) */
  u64 age;       /* order of creation: the smallest is the oldest */
  struct sk_buff *first, *last;
};

/* One CPU's NET_RX state, as Linux's per-CPU softnet_data: the NAPI
 * contexts its hard IRQs scheduled (its poll list), the one its softirq is
 * polling, and the GRO table of that poll (Linux keeps GRO per NAPI; here a
 * poll always ends with an empty table, so one per CPU is the same). */
struct nk_softnet {
  struct napi_struct *poll_list[NK_NAPI_MAX]; /* scheduled, FIFO */
  int npoll;
  struct napi_struct *polling; /* the NAPI whose poll is running on this CPU */
  int polling_budget;
  struct nk_gro_entry gro[NK_GRO_MAX];
  u64 gro_age;
  struct nk_cpu_stats stats;
};

/* Profile ids of the stack's parts (stack.c, NK_PROF_* names). */
struct nk_stack_prof {
  int gro, netif, ip_rcv, udp_rcv, tcp_rcv, tcp_ack, wakeup, udp_recvmsg, tcp_recvmsg;
  int udp_sendmsg, tcp_sendmsg, tcp_send_ack, ip_output, copy_from_user;
  int alloc_skb, free_skb, schedule;
  int pktgen_xmit, pktgen_fill;
  int xdp_prog;
  int ip_rcv_finish, fib_lookup, ip_forward, neigh_output, dev_queue_xmit; /* traffic.mode forward (forward.c) */
};

struct nk_ack {
  u32 flow;
  u64 seq;
  struct nf_sack sack;
};
/* Out-of-order segments the TCP receiver may hold at once, all flows (its
 * skbs are added to the pool; Linux bounds the ofo queue by socket memory). */
#define NK_OOO_MAX 2048u
/* Where the application's buffer starts: a 128 KiB malloc is mmap'd, so its
 * data is at least 16-byte aligned (glibc); only the alignment matters. */
#define NK_USER_BUF_BASE 0x10000ull

/* Lazy IOMMU mode (dma.c): one unmap waiting in a per-CPU flush queue, and
 * the queue, as Linux's struct iova_fq_entry / iova_fq (dma-iommu.c). */
struct nk_iova_fq_entry {
  u64 pa, len;
  u64 counter; /* fq_flush_start_cnt when it was queued */
};
struct nk_iova_fq {
  struct nk_iova_fq_entry *entries; /* iommu.fq_size, allocated at the CPU's first unmap */
  u32 head, tail;
};

struct nk_kernel {
  struct nk_platform plat;
  const struct nicsim_config *cfg;
  /* skbs (and their DMA mappings) the driver keeps in its RX slots
   * (struct nk_driver's rx_slot_skbs: one per RX descriptor, else 0); added
   * to the skb pool and the mapping table. */
  u64 rx_slot_skbs;
  u64 line; /* cache line bytes, a power of two */
  u32 line_shift; /* log2(line): a line index is pa >> line_shift */

  /* allocator over simulated memory [NK_PAGE_SIZE, mem_size) */
  u64 bump;
  struct nk_range free_ranges[NK_FREE_MAX]; /* sorted by pa, disjoint, not adjacent */
  int nfree;
  struct nk_alloc allocs[NK_ALLOC_MAX];
  int nallocs;
  u64 bytes_in_use;

  /* DMA mappings: records plus, per cache line of memory, index + 1 of the
   * record covering it (0: none). Mappings never share a line. */
  struct nk_dma_map *maps;
  u32 nmaps_cap;
  u32 maps_free; /* index + 1 of the first free record */
  u32 maps_live;
  u32 *line_owner;
  u64 nlines;

  /* skb pool: metadata in C memory, data in one chunk of simulated memory */
  struct sk_buff *skbs;
  unsigned int nskbs, skb_buf_bytes, skbs_in_use;
  struct sk_buff *skb_free;
  /* The sending socket's sk_wmem_alloc: truesize of the application's data
   * skbs not yet freed (TX completion frees them); its peak is in stats. */
  u64 sk_wmem_alloc;
  u64 skb_chunk_pa;
  /* traffic.sender pktgen (pktgen.c): its pkt_dev's skb (one reference held
   * by pktgen), the sends of it so far and whether the last send was taken. */
  struct sk_buff *pktgen_skb;
  u64 pktgen_clone_count;
  u64 pktgen_sent; /* sends of pktgen_skb the driver took */
  bool pktgen_last_ok;

  struct page_pool pools[NK_POOL_MAX];

  struct napi_struct *napis[NK_NAPI_MAX]; /* registered with netif_napi_add */
  struct nk_softnet softnet[NK_CPU_MAX];  /* per-CPU NET_RX state, by nk__cpu */
  int nsoftnet;                /* CPUs whose poll list was ever used (1 + the highest) */
  int napi_next_index;         /* index the next netif_napi_add gives */
  nk_napi_hook_fn napi_hook;   /* NAPI poll observer (trace), or NULL */
  void *napi_hook_ctx;
  u64 rxq_packets[NK_NAPI_MAX]; /* per RX queue: frames handed to the stack by its NAPI */
  u64 rxq_dropped[NK_NAPI_MAX]; /* per RX queue: frames its driver dropped */
  u64 rxq_xdp[NK_NAPI_MAX];     /* per RX queue: frames XDP consumed (dropped or sent back) */
  struct bpf_prog xdp_prog;     /* driver.xdp's built-in program */
  u32 busy_txq;                 /* TX queue of the latest frame refused because it was stopped */
  u64 txq_packets[NK_NAPI_MAX]; /* per TX queue: frames the driver accepted (NETDEV_TX_OK) */

  struct nk_irq irqs[NK_IRQ_MAX];
  unsigned int nspin; /* spinlock ids handed out (1 .. nspin): the TX queues' first */

  /* The IOMMU (dma.c): nc_iommu_mode(cfg); lazy mode's flush queues, their
   * flush counters and timer (Linux's iommu_dma_cookie fq_*). */
  int iommu_mode;
  u32 fq_size;
  struct nk_iova_fq fq[NK_CPU_MAX];
  u64 fq_flush_start_cnt, fq_flush_finish_cnt;
  struct hrtimer fq_timer;
  bool fq_timer_on;

  struct hrtimer *timers[NK_TIMER_MAX]; /* by platform timer id (timer.c) */
  bool timer_queued[NK_TIMER_MAX];      /* the kernel's copy of each timer's queued state */
  bool timer_leak;                      /* a timer was still queued at remove */
  int prof_hrtimer;

  struct net_device dev;
  const struct nk_driver *drv;
  bool probed;
  bool removed;
  int remove_check_rc; /* driver check hook result captured by nk_kernel_remove */
  char remove_check_err[256];

  struct nk_kernel_stats stats;
  int prof_irq_entry, prof_softirq, prof_copy_to_user;
  struct nk_stack_prof prof; /* the stack's parts (stack.c) */
  u32 net_ip_align;          /* cpu.net_ip_align_bytes */
  /* The reader (stack.c): what the softirq delivered since its last read. */
  u64 user_copy_bytes; /* data frames' bytes whose copy to user space is not yet charged */
  /* cpu.user_copy memcpy: the pending copies' cycles (ops->user_copy_cycles), and
   * the payload bytes they put into the reader's buffer in this read() */
  double user_copy_cycles;
  u64 user_copy_payload;
  u64 user_skbs;     /* entries of its socket queue: datagrams, or TCP packets (a GRO packet is one) */
  u64 user_frees;    /* skbs it frees after copying (every delivered data frame) */
  u64 user_payload;  /* payload bytes pending (TCP: its read() calls) */
  bool reader_awake; /* woken (sock_def_readable) since it last went to sleep */
  u64 tx_payload;    /* payload bytes the application has sent (its buffer offsets) */
  /* traffic.mode forward (forward.c): received packets go out again */
  bool forward;
  u64 neigh_pa; /* the next hop's neighbour entry: its cached hardware header (hh_data), one line */

  /* traffic.protocol tcp (skb.c): GRO table, receiver state, ACK queue */
  bool tcp;
  u64 tcp_rcv_nxt[NK_TCP_FLOWS];  /* next segment expected, per flow */
  u32 tcp_unacked[NK_TCP_FLOWS];  /* segments received since the last ACK */
  u8 tcp_cpu[NK_TCP_FLOWS];       /* CPU that received the flow's latest segment (its end-of-poll ACK) */
  /* out-of-order queue per flow: skbs sorted by seq, chained by skb->next */
  struct sk_buff *ooo_head[NK_TCP_FLOWS], *ooo_tail[NK_TCP_FLOWS];
  u64 ooo_last_seq[NK_TCP_FLOWS]; /* the latest segment held (its block is SACKed first) */
  u32 ooo_cap;                    /* NK_OOO_MAX or less: segments held at most */
  u64 tcp_win_segs;               /* segments the window holds: the receiver holds no more ahead */
  struct nk_ack acks[NK_ACK_QUEUE]; /* ring */
  u32 ack_head, ack_count;

  char fault[512]; /* first driver bug seen; "" if none */
  u64 nfaults;
  char last_error[256];
};

/* The kernel whose entry point is running (the "current CPU"). */
extern struct nk_kernel *nk__current;
/* The CPU the running code is on (nk_kernel_set_cpu): picks the softnet. */
extern int nk__cpu;
/* The running CPU's NET_RX state. */
static inline struct nk_softnet *nk__sd(struct nk_kernel *k) { return &k->softnet[nk__cpu]; }

/* Aborts with a message: what was called with no current kernel. */
void nk__no_current(const char *what) __attribute__((noreturn));
/* The current kernel; aborts with a message if no entry point set one
 * (a harness bug: the driver cannot run without a kernel). Inline: every
 * nk_ld / nk_st asks for it. */
static inline struct nk_kernel *nk__cur(const char *what) {
  if (!nk__current) nk__no_current(what);
  return nk__current;
}
/* Records a driver bug (first one kept, all counted) with the profile bucket. */
void nk__fault(struct nk_kernel *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* With one core, the reader runs right after the softirq: nk_kernel_user_copy
 * (with several cores the application core calls it). */
void nk__flush_user_copy(struct nk_kernel *k);
/* Records a non-fatal error message (allocation failure) for nk_kernel_last_error. */
void nk__error(struct nk_kernel *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The kernel of a net_device, checked. */
struct nk_kernel *nk__dev_kernel(const struct net_device *dev, const char *what);

/* True if [p, p+n) lies inside simulated memory. */
static inline bool nk__in_mem(const struct nk_kernel *k, const void *p, u64 n) {
  const u8 *b = (const u8 *)p;
  if (b < k->plat.mem || b >= k->plat.mem + k->plat.mem_size) return false;
  return n <= (u64)(k->plat.mem + k->plat.mem_size - b);
}
static inline u64 nk__pa(const struct nk_kernel *k, const void *p) {
  return (u64)((const u8 *)p - k->plat.mem);
}
static inline u64 nk__round_up(u64 v, u64 a) { return (v + a - 1) & ~(a - 1); }
static inline u64 nk__round_down(u64 v, u64 a) { return v & ~(a - 1); }

/* Allocator (mem.c): simulated memory, aligned and rounded to whole cache lines. */
int nk__mem_init(struct nk_kernel *k, char *err, size_t errlen);
void nk__mem_fini(struct nk_kernel *k);
/* 0 on failure (pa 0 is never handed out), message in last_error. */
u64 nk__mem_alloc(struct nk_kernel *k, u64 size, u64 align, enum nk_alloc_kind kind, const char *what);
/* Frees an allocation made by nk__mem_alloc; a mismatch is a fault. */
void nk__mem_free(struct nk_kernel *k, u64 pa, u64 size, enum nk_alloc_kind kind, const char *what);

/* DMA mappings (dma.c). */
int nk__dma_init(struct nk_kernel *k, u32 cap, char *err, size_t errlen);
void nk__dma_fini(struct nk_kernel *k);
/* At remove, after the driver's: stops the IOMMU flush queue's timer and
 * drops what the queues hold, unflushed (Linux's iommu_dma_free_fq). */
void nk__iommu_fq_release(struct nk_kernel *k);
/* Makes room for n more live mappings (probe time; may move the records). */
int nk__dma_reserve(struct nk_kernel *k, u32 n);
/* Registers [pa, pa+len) as a mapping; returns false (fault recorded) on overlap. */
bool nk__dma_track(struct nk_kernel *k, u64 pa, u64 len, enum dma_data_direction dir,
                   unsigned long attrs, bool coherent, const char *what);
/* Ends the mapping that starts at pa, checking len/dir/kind like dma-debug. */
bool nk__dma_untrack(struct nk_kernel *k, u64 pa, u64 len, enum dma_data_direction dir,
                     bool coherent, const char *what);

/* Multi-queue (napi.c): napi handed skb to the stack; counts it for the
 * NAPI's RX queue and checks that RSS chose that queue for the frame. */
void nk__napi_rx(struct nk_kernel *k, const struct napi_struct *napi, const struct sk_buff *skb);

/* Timers (timer.c): cancels every queued timer and forgets all of them
 * (driver remove); a queued one is recorded as a leak. */
void nk__timers_release(struct nk_kernel *k);

/* The stack's parts (stack.c), each charged under its Linux function name as
 * perf shows it. Registers the buckets (kernel create). */
void nk__stack_init(struct nk_kernel *k);
/* Runs `instructions` of stack code plus `cycles` of fixed-cost work as self
 * time of bucket (-1: the current one). */
void nk__exec(struct nk_kernel *k, double instructions, double cycles, int bucket);
/* napi_gro_receive's own part for one frame (GRO attempt or merge, the first
 * read of its headers); held: a packet of the same flow is held (its header
 * words are compared too). */
void nk__stack_gro(struct nk_kernel *k, const struct sk_buff *skb, bool held);
/* A packet the stack received (GRO's or a single frame), before it is
 * delivered: __netif_receive_skb_core, ip_rcv and the transport's receive
 * (udp_rcv, tcp_v4_rcv, or tcp_ack for a pure ACK), entered in that nesting;
 * returns the bucket to restore with nk__stack_rx_leave. */
int nk__stack_rx_enter(struct nk_kernel *k, const struct sk_buff *skb, bool ack);
void nk__stack_rx_leave(int prev);
/* sock_def_readable after data was queued for the reader: wakes it if it sleeps. */
void nk__stack_wakeup(struct nk_kernel *k);
/* The ACK the TCP receiver sends: tcp_send_ack and ip_output (TX class). */
void nk__stack_tx_ack(struct nk_kernel *k);
/* skb alloc and free (__alloc_skb, kfree_skb), in the caller's class. */
void nk__stack_alloc_skb(struct nk_kernel *k);
/* pktgen_stop_device: pktgen drops its reference to its current skb. */
void nk__pktgen_stop(struct nk_kernel *k);
void nk__stack_free_skb(struct nk_kernel *k);

/* Forwarding (forward.c): the profile buckets and k->forward (kernel
 * create); the neighbour's cached header in its line (after the skb pool). */
void nk__fwd_init(struct nk_kernel *k);
void nk__fwd_neigh_init(struct nk_kernel *k);
/* traffic.mode forward: the stack's part for one received packet, from
 * __netif_receive_skb_core to the driver's ndo_start_xmit of the same skb
 * (or its drop, freed, if the TX queue is stopped or the driver refuses it). */
void nk__stack_forward(struct nk_kernel *k, struct sk_buff *skb);

/* skb pool (skb.c). */
int nk__skb_init(struct nk_kernel *k, char *err, size_t errlen);
void nk__skb_fini(struct nk_kernel *k);
/* Returns skb to the pool without charging its free (the reader's frees are
 * charged when it reads, nk_kernel_user_copy). */
void nk__skb_release(struct nk_kernel *k, struct sk_buff *skb);
/* GRO (skb.c): hands every held packet up, oldest first; then, at the end of
 * a poll (end_of_poll), asks for an ACK of every flow with unacknowledged
 * segments. */
void nk__gro_flush(struct nk_kernel *k, bool end_of_poll);
/* TCP receiver (skb.c): frees the segments still held out of order (the
 * socket closes), counting them in stats.tcp_ooo_purged. */
void nk__tcp_ooo_purge(struct nk_kernel *k);

#endif
