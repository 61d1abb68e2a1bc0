/*
 * icount.h: the drivers' and the kernel layer's own instructions, counted as
 * they run and weighed by the target ISA's compiled code (docs/host.md,
 * "The code's own instructions").
 *
 * At build time every basic block of src/kernel and src/drivers is given its
 * instruction count in each ISA's object code (scripts/icount: clang
 * --target for each ISA, SanitizerCoverage's block boundaries). The native
 * code adds its block's weight for the selected ISA to nk_ic_acc[] as it runs
 * (four accumulators, so consecutive blocks do not wait on one store). The
 * CPU model takes what accumulated at each profile-bucket change and before
 * each synchronisation, and charges it at cpu.kernel_ipc.
 *
 * Until nk_icount_select() is called the weights are zero: code run without
 * a platform that charges it (unit tests with counting platforms) counts
 * nothing.
 */
#ifndef NICSIM_KERNEL_ICOUNT_H
#define NICSIM_KERNEL_ICOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ISAs weighed at build time (cpu.isa). */
enum nk_isa {
  NK_ISA_X86_64, /* x86-64 */
  NK_ISA_ARM64,  /* AArch64 */
  NK_ISA_ARMV7,  /* ARMv7-A, Thumb-2 (as Debian's armhf kernels) */
  NK_ISA_RISCV64, /* RV64GC */
  NK_ISA_SPARC64, /* SPARC V9 */
  NK_ISA_MIPS32, /* MIPS32r2, little-endian */
  NK_ISA__COUNT
};

/* One function of a translation unit: its blocks and its static size. */
struct nk_icount_fn {
  const char *name;
  uint32_t first, blocks;               /* its blocks in the unit's table */
  uint32_t static_insns[NK_ISA__COUNT]; /* its instructions in each ISA's object */
};

/* One counted translation unit (generated: build/icount/<tu>.weights.c). */
struct nk_icount_tu {
  const char *name;
  uint32_t *weights;     /* the selected ISA's, read by the running code */
  const uint32_t *table; /* [NK_ISA__COUNT][blocks], sixteenths of an instruction */
  uint32_t blocks;
  const struct nk_icount_fn *fns;
  uint32_t nfns;
  uint32_t unmatched; /* functions whose blocks differ in some ISA (weights.py's fallback) */
  struct nk_icount_tu *next;
};

/* Sixteenths of instructions counted so far, in four parts. */
extern uint64_t nk_ic_acc[4];

/* Called by each generated table's constructor. */
void nk_icount_register(struct nk_icount_tu *tu);
/* The registered units (a list, most recently registered first). */
const struct nk_icount_tu *nk_icount_units(void);
/* Loads isa's weights into every unit (NK_ISA__COUNT: zeros, nothing is
 * counted) and restarts the count; returns the number of units. */
int nk_icount_select(enum nk_isa isa);
/* The ISA selected (NK_ISA__COUNT: none, nothing is counted). */
enum nk_isa nk_icount_selected(void);
/* Instructions counted since the last call (or since nk_icount_select). */
double nk_icount_take(void);
/* All instructions counted since nk_icount_select. */
double nk_icount_total(void);
/* Where nk_icount_flush() sends what it takes: the platform's charge for the
 * code that ran (NULL: nothing is charged). */
void nk_icount_set_sink(void (*sink)(void *ctx, double instructions), void *ctx);
/* Takes what was counted and hands it to the sink: the profiler calls it
 * before each bucket change, so each function's code is charged to it. */
void nk_icount_flush(void);
/* While held, what the code counts is discarded, not charged (a driver's
 * probe and remove: they run before and after the traffic). */
void nk_icount_hold(bool hold);
/* ISA by name (x86-64, arm64, armv7, riscv64, sparc64, mips32); -1 if none. */
int nk_isa_from_name(const char *name);
const char *nk_isa_name(enum nk_isa isa);

#ifdef __cplusplus
}
#endif
#endif
