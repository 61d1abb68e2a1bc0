// memcpy_cost.cpp: the path a kernel memcpy takes per CPU kind, and its cycles.
#include "cpu/memcpy_cost.h"

namespace nicsim {

void MemcpyParams::bind(ParamBinder &b) {
  b.key("cpu.kind", kind,
        {{"x86", CpuKind::X86}, {"arm64", CpuKind::Arm64}, {"riscv", CpuKind::Riscv}, {"sparc", CpuKind::Sparc},
         {"mips", CpuKind::Mips}});
  b.key("cpu.memcpy_call_cycles", call_cycles);
  b.key("cpu.memcpy_cycles_per_byte", cycles_per_byte);
  b.key("cpu.memcpy_misaligned_cycles_per_byte", misaligned_cycles_per_byte);
  b.key("cpu.memcpy_byte_loop_cycles_per_byte", byte_loop_cycles_per_byte);
}

namespace {

/* The tail of riscv memcpy.S: a 4-byte word loop when source, destination and
 * end are all 4-byte aligned, else a byte loop. */
void riscv_tail(MemcpyPlan &plan, uint64_t dst, uint64_t src, uint64_t n) {
  if (n == 0) return;
  if (((dst | src | (src + n)) & 3) == 0)
    plan.bulk_bytes += n;
  else
    plan.byte_loop_bytes += n;
}

}  // namespace

MemcpyPlan memcpy_plan(CpuKind kind, uint64_t dst, uint64_t src, uint64_t len) {
  MemcpyPlan plan;
  const bool coaligned = ((dst ^ src) & 7) == 0;
  if (kind != CpuKind::Riscv) {
    /* x86 (rep movsb, ERMS), arm64 (ldp/stp; unaligned access in hardware),
     * sparc: one bulk path whose rate depends on the relative alignment. */
    (coaligned ? plan.bulk_bytes : plan.misaligned_bytes) = len;
    return plan;
  }
  /* arch/riscv/lib/memcpy.S (v5.13): short or not co-aligned copies go to
   * the tail loop; otherwise bytes up to 8-byte alignment, 128-byte blocks
   * of 16 ld/sd pairs, then the tail loop for the rest. */
  if (len < kRiscvMemcpyBlockMin || !coaligned) {
    riscv_tail(plan, dst, src, len);
    return plan;
  }
  const uint64_t head = (8 - (src & 7)) & 7;
  plan.byte_loop_bytes += head;
  const uint64_t rest = len - head;
  const uint64_t blocks = rest / kRiscvMemcpyBlock * kRiscvMemcpyBlock;
  plan.bulk_bytes += blocks;
  riscv_tail(plan, dst + head + blocks, src + head + blocks, rest - blocks);
  return plan;
}

MemcpyPlan usercopy_plan(CpuKind kind, uint64_t dst, uint64_t src, uint64_t len) {
  if (kind != CpuKind::Riscv) return memcpy_plan(kind, dst, src, len);
  MemcpyPlan plan;
  if (((dst ^ src) & 7) != 0) {
    plan.byte_loop_bytes = len; /* "word-oriented copy only if low-order bits match" */
    return plan;
  }
  /* Co-aligned: bytes up to the first 8-byte boundary of src, whole words,
   * then the bytes after the last boundary (all bytes if no word fits). */
  const uint64_t first = (src + 7) & ~uint64_t{7};
  const uint64_t last = (src + len) & ~uint64_t{7};
  if (first >= last) {
    plan.byte_loop_bytes = len;
    return plan;
  }
  plan.bulk_bytes = last - first;
  plan.byte_loop_bytes = len - plan.bulk_bytes;
  return plan;
}

namespace {

/* call + each path's bytes at its rate. */
double plan_cycles(const MemcpyParams &p, const MemcpyPlan &plan) {
  return p.call_cycles + static_cast<double>(plan.bulk_bytes) * p.cycles_per_byte +
         static_cast<double>(plan.misaligned_bytes) * p.misaligned_cycles_per_byte +
         static_cast<double>(plan.byte_loop_bytes) * p.byte_loop_cycles_per_byte;
}

}  // namespace

double memcpy_cycles(const MemcpyParams &p, uint64_t dst, uint64_t src, uint64_t len) {
  return plan_cycles(p, memcpy_plan(p.kind, dst, src, len));
}

double usercopy_cycles(const MemcpyParams &p, uint64_t dst, uint64_t src, uint64_t len) {
  return plan_cycles(p, usercopy_plan(p.kind, dst, src, len));
}

}  // namespace nicsim
