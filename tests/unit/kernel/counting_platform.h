/* counting_platform.h: an nk_platform for unit tests without SystemC: counters
 * of every operation over real memory, plus a fake register file. */

/* Loads and stores are counted by memory attribute, MMIO by register, barriers
 * by kind, cache maintenance by op and line, copies by alignment, charged
 * cycles, exec'd instructions and operations by profile bucket, header reads
 * and their misaligned loads, spinlock acquires and releases
 * by lock id (and misuses). A test's fake device reads and
 * writes the registers and memory directly. */
#ifndef NICSIM_TESTS_COUNTING_PLATFORM_H
#define NICSIM_TESTS_COUNTING_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/generic_nic_regs.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CP_NREGS (GN_BAR0_SIZE / 4)
#define CP_NATTR 3    /* enum nk_mem_attr values */
#define CP_NBARRIER 5 /* enum nk_barrier values */
#define CP_NCACHE 3   /* enum nk_cache_op values */

struct cp_counts {
  uint64_t loads[CP_NATTR];  /* CPU loads, by attribute of the address */
  uint64_t stores[CP_NATTR]; /* CPU stores, by attribute */
  uint64_t mmio_reads, mmio_writes;
  uint64_t mmio_reads_reg[CP_NREGS];  /* by register (offset / 4) */
  uint64_t mmio_writes_reg[CP_NREGS];
  uint64_t barriers[CP_NBARRIER];     /* by enum nk_barrier */
  uint64_t cache_calls[CP_NCACHE];    /* cache_maint calls, by op */
  uint64_t cache_lines[CP_NCACHE];    /* lines covered, by op */
  uint64_t copies, copy_bytes;
  uint64_t copies_aligned;            /* (dst ^ src) % 8 == 0 */
  uint64_t copies_misaligned;
  uint64_t charges;                   /* charge() calls */
  double cycles;                      /* sum of charged cycles (charge and exec's cycles) */
  uint64_t execs;                     /* exec() calls */
  double instructions;                /* sum of exec's instructions */
  double bucket_instructions[NK_PROF_MAX]; /* exec's instructions by bucket (its own, or the current one) */
  uint64_t bucket_execs[NK_PROF_MAX];      /* exec calls by bucket */
  uint64_t header_reads;              /* read_headers calls */
  uint64_t header_bytes;              /* bytes they read */
  uint64_t misaligned_loads;          /* header loads not aligned to their size */
  uint64_t bucket_misaligned[NK_PROF_MAX]; /* by the current bucket */
  double bucket_cycles[NK_PROF_MAX];  /* charged cycles by profile bucket */
  uint64_t bucket_ops[NK_PROF_MAX];   /* any operation, by profile bucket */
  uint64_t set_attr_calls[CP_NATTR];  /* by the attribute set */
  uint64_t host_rx;                   /* frames the stack handed up */
  uint64_t host_rx_bytes;
  uint64_t timer_arms;                /* timer_arm calls that armed (or re-armed) a timer */
  uint64_t timer_cancels;             /* timer_arm calls with NK_TIMER_CANCEL */
  uint64_t spin_acquires[NK_SPIN_MAX + 1]; /* spin(id, true) calls, by lock id */
  uint64_t spin_releases[NK_SPIN_MAX + 1]; /* spin(id, false) calls, by lock id */
  uint64_t spin_misuse;                    /* a held lock taken again, or a free one released */
};

struct counting_platform {
  struct nk_platform plat; /* hand &plat to nk_kernel_create */
  struct nk_platform_ops ops;
  uint8_t *mem;
  uint64_t mem_size;
  uint32_t line;      /* cache line bytes (counts lines for cache_maint) */
  uint8_t *attr;      /* enum nk_mem_attr per line */
  uint32_t regs[CP_NREGS]; /* the device's register file as the CPU wrote it */
  struct cp_counts c;
  /* Platform timers as the kernel armed them; a test fires one with cp_fire_timer. */
  bool timer_armed[NK_TIMER_MAX];
  uint64_t timer_delay_ns[NK_TIMER_MAX]; /* delay of the latest arm */
  /* Spinlocks as the kernel took them (one CPU: a held lock taken again would
   * deadlock, so it counts as misuse, as does releasing a free one). */
  bool spin_held[NK_SPIN_MAX + 1];
  /* The clock now_ns returns; a test advances it by hand. */
  uint64_t now_ns;
  /* Optional hooks for a fake device / sink. */
  void *user;
  void (*on_host_rx)(void *user, uint64_t pa, const uint8_t *buf, uint32_t len);
  void (*on_mmio_write)(void *user, uint32_t off, uint32_t val);
  uint32_t (*on_mmio_read)(void *user, uint32_t off); /* NULL: return regs[off / 4] */
};

/* Sets up cp with mem_size bytes of memory (filled with 0xA5, so zeroing is
 * visible), a coherent or non-coherent platform and the given cache line.
 * Returns 0, or -1 if host memory is short. */
int cp_init(struct counting_platform *cp, uint64_t mem_size, bool coherent, uint32_t line);
void cp_fini(struct counting_platform *cp);
/* Zeroes every counter (not the memory, registers or attributes). */
void cp_reset_counts(struct counting_platform *cp);
/* The attribute of the line holding pa. */
enum nk_mem_attr cp_attr(const struct counting_platform *cp, uint64_t pa);
/* Fires platform timer id as if it expired now: disarms it and calls
 * nk_kernel_timer(k, id). Returns false (and does nothing) if it was not armed. */
bool cp_fire_timer(struct counting_platform *cp, struct nk_kernel *k, int id);
/* The lowest armed timer id, or -1. */
int cp_armed_timer(const struct counting_platform *cp);
/* Spinlocks held now (0 between kernel entry points of a correct driver). */
int cp_spins_held(const struct counting_platform *cp);

#ifdef __cplusplus
}
#endif
#endif
