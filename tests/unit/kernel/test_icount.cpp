// The drivers' and kernel layer's own instructions (src/kernel/icount.h):
// what the running code counts per call is what the target ISA's object
// code executes, checked against a hand count of nk_dql_queued's
// disassembly (build/icount/dql.<isa>.o, clang-14 -O2 -fno-pic) on three ISAs.
#include <gtest/gtest.h>

#include <cstring>

extern "C" {
#include "kernel/dql.h"
#include "kernel/icount.h"
}

namespace {

constexpr int kCalls = 1000;

// Runs nk_dql_queued kCalls times with count and returns the instructions
// counted per call under isa.
double per_call(nk_isa isa, uint32_t count) {
  nk_dql dql;
  nk_dql_init(&dql, 0, NK_DQL_MAX_LIMIT, 1000000, 0);
  EXPECT_GT(nk_icount_select(isa), 0);
  nk_icount_take();
  for (int i = 0; i < kCalls; i++) nk_dql_queued(&dql, count);
  const double n = nk_icount_take();
  nk_icount_select(NK_ISA__COUNT);
  return n / kCalls;
}

// bool nk_dql_queued(struct nk_dql *dql, uint32_t count) {
//   if (count > NK_DQL_MAX_OBJECT) return false;
//   dql->last_obj_cnt = count; dql->num_queued += count; return true; }
//
// arm64, a count in range (llvm-objdump of dql.arm64.o, .text.nk_dql_queued):
//   0: lsr w8, w1, #28     4: cbz w8, 0xc               (taken)
//   c: ldr w9, [x0]       10: str w1, [x0, #8]    14: add w9, w9, w1
//  18: str w9, [x0]       1c: cmp w8, #0          20: cset w0, eq     24: ret
// = 9 instructions.
TEST(Icount, Arm64CountsWhatItsObjectCodeExecutes) { EXPECT_DOUBLE_EQ(per_call(NK_ISA_ARM64, 64), 9.0); }

// riscv64 (dql.riscv64.o): 0: srliw a2, a1, 28; 4: beqz a2, 0x8 (taken);
// 8: lw a3, 0(a0); a: sw a1, 8(a0); c: addw a1, a1, a3; e: sw a1, 0(a0);
// 10: seqz a0, a2; 14: ret = 8 instructions.
TEST(Icount, Riscv64CountsWhatItsObjectCodeExecutes) { EXPECT_DOUBLE_EQ(per_call(NK_ISA_RISCV64, 64), 8.0); }

// x86-64 (dql.x86_64.o): 0: cmpl $0x10000000, %esi; 6: jb 0xa (taken);
// a: movl %esi, 8(%rdi); d: addl %esi, (%rdi); f: cmpl $0x10000000, %esi;
// 15: setb %al; 18: retq = 7 instructions.
TEST(Icount, X86CountsWhatItsObjectCodeExecutes) { EXPECT_DOUBLE_EQ(per_call(NK_ISA_X86_64, 64), 7.0); }

// The other way through: the refused count skips the stores, and the code
// counts fewer instructions than the accepted count on every ISA.
TEST(Icount, APathThatSkipsBlocksCountsFewer) {
  for (int isa = 0; isa < NK_ISA__COUNT; isa++) {
    const double in = per_call(static_cast<nk_isa>(isa), 64);
    const double out = per_call(static_cast<nk_isa>(isa), NK_DQL_MAX_OBJECT + 1);
    EXPECT_GT(in, out) << nk_isa_name(static_cast<nk_isa>(isa));
    EXPECT_GT(out, 0) << nk_isa_name(static_cast<nk_isa>(isa));
  }
}

// Nothing is counted after the weights are cleared, and every unit has code
// on every ISA.
TEST(Icount, NothingIsCountedWithoutAnIsaAndEveryUnitHasItsTables) {
  nk_icount_select(NK_ISA__COUNT);
  nk_dql dql;
  nk_dql_init(&dql, 0, NK_DQL_MAX_LIMIT, 1000000, 0);
  nk_icount_take();
  for (int i = 0; i < kCalls; i++) nk_dql_queued(&dql, 64);
  EXPECT_EQ(nk_icount_take(), 0.0);
  int units = 0;
  bool dql_seen = false;
  for (const nk_icount_tu *u = nk_icount_units(); u; u = u->next, units++) {
    if (std::strcmp(u->name, "dql") == 0) dql_seen = true;
    uint64_t per_isa[NK_ISA__COUNT] = {};
    for (uint32_t f = 0; f < u->nfns; f++) {
      EXPECT_GT(u->fns[f].static_insns[NK_ISA_X86_64], 0u) << u->fns[f].name;
      for (int isa = 0; isa < NK_ISA__COUNT; isa++) per_isa[isa] += u->fns[f].static_insns[isa];
    }
    for (int isa = 0; isa < NK_ISA__COUNT; isa++) EXPECT_GT(per_isa[isa], 0u) << u->name;
  }
  EXPECT_TRUE(dql_seen);
  EXPECT_GT(units, 0);
  EXPECT_EQ(nk_isa_from_name("riscv64"), NK_ISA_RISCV64);
  EXPECT_EQ(nk_isa_from_name("vax"), -1);
}

}  // namespace
