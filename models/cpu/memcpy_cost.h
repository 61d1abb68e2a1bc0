/*
 * memcpy_cost.h: the cycles one kernel memcpy costs, by length, the relative
 * alignment of source and destination, and the CPU kind's memcpy algorithm.
 */
#ifndef NICSIM_MODELS_CPU_MEMCPY_COST_H
#define NICSIM_MODELS_CPU_MEMCPY_COST_H

#include <cstdint>

#include "common/params.h"

namespace nicsim {

/* The CPU's instruction set (cpu.kind): which memcpy algorithm it runs. */
enum class CpuKind : uint8_t { X86, Arm64, Riscv, Sparc, Mips };

/* The parameters the cost depends on (cpu.kind, cpu.memcpy_* keys), in cycles. */
struct MemcpyParams {
  CpuKind kind = CpuKind::X86;
  double call_cycles = 20;                   /* fixed cost per call */
  double cycles_per_byte = 0.125;            /* bulk copy, (dst ^ src) & 7 == 0 */
  double misaligned_cycles_per_byte = 0.125; /* bulk copy otherwise (x86, arm64, sparc) */
  double byte_loop_cycles_per_byte = 6;      /* riscv lb/sb loop */

  /* cpu.kind and the cpu.memcpy_* keys. */
  void bind(ParamBinder &b);
};

/* How one copy splits into the paths its algorithm takes, in bytes. */
struct MemcpyPlan {
  uint64_t bulk_bytes = 0;      /* word or block copy at the aligned rate */
  uint64_t misaligned_bytes = 0; /* bulk copy at the misaligned rate */
  uint64_t byte_loop_bytes = 0; /* byte-at-a-time loop */
};

/* How memcpy(dst, src, len) runs on kind. */
MemcpyPlan memcpy_plan(CpuKind kind, uint64_t dst, uint64_t src, uint64_t len);
/* Cycles of memcpy(dst, src, len): call + each path's bytes at its rate. */
double memcpy_cycles(const MemcpyParams &p, uint64_t dst, uint64_t src, uint64_t len);

/* How copy_to_user(dst, src, len) runs on kind: riscv's __asm_copy_to_user
 * (uaccess.S before v5.14) copies words only when (dst ^ src) & 7 == 0 (bytes
 * up to alignment, words, then the tail in bytes) and everything byte by
 * byte otherwise; the other kinds' routines (x86 rep movsb, arm64
 * copy_template.S, sparc's block copies) follow their memcpy. */
MemcpyPlan usercopy_plan(CpuKind kind, uint64_t dst, uint64_t src, uint64_t len);
/* Cycles of copy_to_user(dst, src, len): call + each path's bytes at its rate. */
double usercopy_cycles(const MemcpyParams &p, uint64_t dst, uint64_t src, uint64_t len);

/* riscv memcpy.S (Linux v5.13) copies anything shorter than this, in bytes,
 * with its byte/word tail loop, never with the 16-register block loop. */
constexpr uint64_t kRiscvMemcpyBlockMin = 128;
/* Bytes per iteration of that block loop: 16 registers of 8 bytes. */
constexpr uint64_t kRiscvMemcpyBlock = 128;

}  // namespace nicsim
#endif
