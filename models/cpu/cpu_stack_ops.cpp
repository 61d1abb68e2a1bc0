// cpu_stack_ops.cpp: the CPU core's charges for code: the network stack's parts (exec), the C
// code's own instructions (code_sink), header reads and copy streams (docs/host.md).
#include "cpu/cpu_core.h"

#include <cmath>

namespace nicsim {

/* ---- the network stack's own work (docs/host.md, "The stack") ----------------- */

void CpuCore::exec(double instructions, double cycles, int bucket) {
  /* Instruction counts are the kernel's code; the core's IPC on it makes
   * them cycles (its hits included: misses are read_headers'). */
  const double c = (instructions > 0 ? instructions / m_p.kernel_ipc : 0) + (cycles > 0 ? cycles : 0);
  if (instructions > 0 && in_window(local_time_ps())) m_instr_window[prof_class_now()] += instructions;
  if (c > 0) spend(c, bucket);
}

void CpuCore::code_sink(void *ctx, double instructions) {
  CpuCore *core = static_cast<CpuCore *>(ctx);
  if (core->in_window(core->local_time_ps())) core->m_code_instr_window += instructions;
  core->exec(instructions, 0, -1);
}

void CpuCore::read_headers(uint64_t pa, uint32_t len, unsigned misaligned) {
  if (len > 0 && check_range(pa, len, "header read")) {
    /* Lines not in the data cache (the device wrote them and the driver
     * invalidated them for DMA) come from DRAM. An in-order core stalls on
     * each miss for the whole latency; an out-of-order one overlaps up to
     * cpu.mlp_lines of them behind the first. */
    uint64_t misses = 0, queue_ps = 0;
    for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += m_cache.line_bytes()) {
      if (m_mem.attr(a) != NK_MEM_CACHED) {
        misses++; /* every read of uncached memory goes to memory */
        queue_ps += m_mem.cpu_dram_access(local_time_ps(), m_cache.line_bytes());
        continue;
      }
      Cache::Line *l = m_cache.find(a);
      if (l) {
        m_cache.touch(l);
        if (l->llc) { /* DDIO placed it in the LLC: the first touch brings it to the core */
          count([](CpuCounters &c) { c.llc_hits++; });
          spend(m_p.llc_hit_cycles);
          l->llc = false;
        }
        continue;
      }
      count([](CpuCounters &c) { c.cache_misses++; });
      misses++;
      queue_ps += m_mem.cpu_dram_access(local_time_ps(), m_cache.line_bytes());
      m_cache.fill(a, m_bytes);
    }
    if (misses) {
      const double rounds =
          m_p.out_of_order ? std::ceil(static_cast<double>(misses) / m_p.mlp_lines) : static_cast<double>(misses);
      spend_ps(static_cast<uint64_t>(rounds * static_cast<double>(m_dram_ps)) + queue_ps);
    }
  }
  /* A load the core cannot do unaligned traps, and firmware or the kernel
   * emulates it (RISC-V: OpenSBI's misaligned load handler; MIPS: do_ade). */
  if (misaligned && m_p.unaligned_trap_cycles > 0) {
    count([misaligned](CpuCounters &c) { c.unaligned_traps += misaligned; });
    spend(static_cast<double>(misaligned) * m_p.unaligned_trap_cycles);
  }
}

double CpuCore::stream_read_cycles(uint64_t pa, uint64_t len) {
  if (len == 0 || !check_range(pa, len, "copy source")) return 0;
  uint64_t misses = 0;
  for (uint64_t a = m_cache.line_base(pa); a < pa + len; a += m_cache.line_bytes()) {
    if (m_mem.attr(a) != NK_MEM_CACHED) {
      misses++;
      continue;
    }
    if (Cache::Line *l = m_cache.find(a)) {
      m_cache.touch(l);
      continue;
    }
    count([](CpuCounters &c) { c.cache_misses++; });
    misses++;
    m_cache.fill(a, m_bytes);
  }
  /* A stream keeps cpu.mlp_lines misses in flight: each line costs at least
   * the DRAM latency over that (in cycles). */
  return static_cast<double>(misses) * static_cast<double>(m_dram_ps) / m_p.mlp_lines / m_ps_per_cycle;
}

}  // namespace nicsim
