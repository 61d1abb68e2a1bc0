/*
 * platform.h: the hardware operations under nicsim's kernel-like layer.
 *
 * The kernel layer (kernel.h) implements the Linux API the drivers call; it
 * reaches the (simulated) hardware only through this table. The SystemC CPU
 * model (models/cpu) implements it, charging cycles and moving simulated time;
 * a unit test can implement it with plain counters and no SystemC at all
 * (tests/unit/kernel/counting_platform.h).
 *
 * Addresses are physical addresses in simulated host memory, [0, mem_size),
 * backed by the bytes at mem. CPU-visible and DMA-visible bytes are the same
 * bytes: the device writes them through the interconnect model.
 */
#ifndef NICSIM_KERNEL_PLATFORM_H
#define NICSIM_KERNEL_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Memory attribute of a region, as the CPU's page tables would map it. */
enum nk_mem_attr {
  NK_MEM_CACHED = 0,   /* normal cacheable memory */
  NK_MEM_UNCACHED = 1, /* Normal-NC or Device: every load goes to memory */
  NK_MEM_WC = 2,       /* write-combining */
};

/* Why the kernel invalidates the IOTLB (platform op iommu_inv). */
enum nk_iommu_inv {
  NK_IOMMU_INV_UNMAP = 0,    /* strict mode: the range of one dma_unmap_* */
  NK_IOMMU_INV_FQ_FULL = 1,  /* lazy mode: a CPU's flush queue was full (whole domain) */
  NK_IOMMU_INV_FQ_TIMER = 2, /* lazy mode: the flush queue's timer expired (whole domain) */
};

enum nk_barrier { NK_BARRIER_MB, NK_BARRIER_RMB, NK_BARRIER_WMB, NK_BARRIER_DMA_RMB, NK_BARRIER_DMA_WMB };

enum nk_cache_op {
  NK_CACHE_CLEAN,      /* write dirty lines back (dma_sync_*_for_device, DMA_TO_DEVICE) */
  NK_CACHE_INVALIDATE, /* drop lines (dma_sync_*_for_cpu, DMA_FROM_DEVICE) */
  NK_CACHE_CLEAN_INV,
};

struct nk_platform_ops {
  /* One CPU load or store of size 1, 2, 4 or 8 bytes (little-endian) at pa.
   * The cost depends on the region's attribute. A load from memory the device
   * can write first synchronises simulated time, so it sees exactly the DMA
   * writes completed by the CPU's current local time. */
  uint64_t (*load)(void *ctx, uint64_t pa, unsigned size);
  void (*store)(void *ctx, uint64_t pa, uint64_t val, unsigned size);
  /* memcpy by the CPU inside simulated memory; cost by length and alignment. */
  void (*copy)(void *ctx, uint64_t dst, uint64_t src, uint64_t len);
  /* Cache maintenance over [pa, pa+len), a cost per line (non-coherent DMA). */
  void (*cache_maint)(void *ctx, uint64_t pa, uint64_t len, enum nk_cache_op op);
  /* Device register access (BAR0 offset). A read stalls the CPU for the round trip. */
  uint32_t (*mmio_read32)(void *ctx, uint32_t off);
  void (*mmio_write32)(void *ctx, uint32_t off, uint32_t val);
  void (*barrier)(void *ctx, enum nk_barrier b);
  /* Modelled software work that runs no driver code (IRQ entry, softirq), in CPU cycles. */
  void (*charge)(void *ctx, double cycles);
  /* Sets the attribute of [pa, pa+len): used by dma_alloc_coherent. */
  void (*set_attr)(void *ctx, uint64_t pa, uint64_t len, enum nk_mem_attr attr);
  /* The stack hands a received frame (DMA'd bytes, no FCS) to the host sink. */
  void (*host_rx)(void *ctx, uint64_t pa, uint32_t len);
  /* (Re)arms platform timer id (0 .. NK_TIMER_MAX - 1) to expire delay_ns
   * after the CPU's current (local) time, replacing any earlier expiry of id;
   * NK_TIMER_CANCEL cancels it. On expiry the platform calls
   * nk_kernel_timer(k, id) on the CPU, between work items as it takes an
   * interrupt. Optional: NULL means the platform has no timers (hrtimer_start
   * is then a fault). */
  void (*timer_arm)(void *ctx, int id, uint64_t delay_ns);
  /* Cycles the CPU's copy-to-user routine takes for len bytes from src to
   * dst (by length and relative alignment), without moving bytes or charging
   * them: cpu.user_copy memcpy prices the reader's copies with it (its
   * buffer is outside simulated memory). Optional: NULL means cpu.user_copy
   * memcpy falls back to per_byte. */
  double (*user_copy_cycles)(void *ctx, uint64_t dst, uint64_t src, uint64_t len);
  /* The DMA API created (map true) or removed (false) the IOMMU mapping of
   * [pa, pa+len): dma_map_*, dma_unmap_*, coherent and WC allocations. The
   * platform charges the page-table work (the IOTLB invalidation of an
   * unmap is iommu_inv's). Optional: NULL means the platform has no IOMMU. */
  void (*iommu_map)(void *ctx, uint64_t pa, uint64_t len, bool map);
  /* A spinlock (id 1 .. NK_SPIN_MAX, from spin_lock_init or a TX queue's
   * lock) is acquired (acquire true) or released by the CPU running the
   * caller. A multi-core platform makes a CPU that finds the lock held spin
   * until the holder releases it, and reports a CPU taking a lock it holds or
   * releasing one it does not hold. Optional: NULL means one CPU (or one big
   * lock around the kernel): spinlocks cost nothing. */
  void (*spin)(void *ctx, unsigned id, bool acquire);
  /* The CPU's current (local) time in ns, as the kernel's clock (jiffies,
   * ktime_get) reads it: byte queue limits time their hold with it.
   * Optional: NULL means a clock that stays at 0. */
  uint64_t (*now_ns)(void *ctx);
  /* The network stack's own code runs: `instructions` of it, which the core
   * model turns into cycles by its IPC on kernel code (cpu.kernel_ipc), plus
   * `cycles` of work whose cost is the core's, not the code's (a system
   * call's entry and exit, a context switch). Charged as self time of
   * profile bucket `bucket` (an nk_prof_id; -1: the current one), in the
   * class of the current bucket (the caller's). */
  void (*exec)(void *ctx, double instructions, double cycles, int bucket);
  /* The stack reads packet headers in [pa, pa + len) (the current bucket's
   * loads): a line not in the core's data cache misses (the first read of a
   * packet the device wrote), stalling the core as its kind does
   * (cpu.out_of_order, cpu.mlp_lines, memory.dram_latency_ns); `misaligned`
   * of the loads are not aligned to their size, and a core that cannot load
   * unaligned in hardware traps on each (cpu.unaligned_trap_cycles).
   * Optional: NULL means header reads cost nothing beyond the instructions. */
  void (*read_headers)(void *ctx, uint64_t pa, uint32_t len, unsigned misaligned);
  /* Cycles the core needs to stream-read [pa, pa + len) for a copy, from the
   * lines that miss its cache (their latency over its memory-level
   * parallelism); the lines become resident, nothing is charged. The copy to
   * user space is priced with it (the longer of this and the copy routine).
   * Optional: NULL means 0. */
  double (*stream_read_cycles)(void *ctx, uint64_t pa, uint64_t len);
  /* The kernel invalidates the IOTLB and waits for it: the CPU queues the
   * invalidation command(s) of [pa, pa + len) (len 0: the whole domain) and
   * a sync on the IOMMU's invalidation queue, rings its doorbell and spins
   * until the sync completes (VT-d qi_submit_sync, SMMUv3
   * arm_smmu_cmdq_issue_cmdlist). why says which path asked. Called after
   * iommu_map(.., false) in strict mode, by the flush queue in lazy mode.
   * Optional: NULL means no invalidation queue (nothing to wait for). */
  void (*iommu_inv)(void *ctx, uint64_t pa, uint64_t len, enum nk_iommu_inv why);
};

#define NK_SPIN_MAX 64 /* spinlock ids the kernel hands out: 1 .. NK_SPIN_MAX */

#define NK_TIMER_MAX 16            /* platform timers (kernel hrtimers) */
#define NK_TIMER_CANCEL UINT64_MAX /* timer_arm delay that cancels */

struct nk_platform {
  const struct nk_platform_ops *ops;
  void *ctx;
  uint8_t *mem;       /* simulated physical memory, pa 0 .. mem_size-1 */
  uint64_t mem_size;
  bool coherent_dma;  /* false: dma_alloc_coherent returns uncached memory */
  uint64_t msi_addr;  /* where the interrupt controller takes MSI writes */
};

#ifdef __cplusplus
}
#endif
#endif
