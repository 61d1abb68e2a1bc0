// cpu_stats_read.cpp: the CPU core's statistics snapshot and its registration (the table: cpu_stats.cpp).
#include "cpu/cpu_core.h"
#include "cpu/cpu_stats.h"

namespace nicsim {

void CpuCore::stats_snapshot(CpuSnapshot &s) const {
  static_assert(CpuSnapshot::kUnattributed == kUnattributed, "one profile bucket layout");
  s.window = m_window;
  s.total = m_total;
  s.busy = busy_cycles(true);
  for (int c = 0; c < NK_CLASS__COUNT; c++) {
    s.class_cycles[c] = class_cycles(static_cast<nk_class>(c), true);
    s.instr[c] = instructions(static_cast<nk_class>(c));
  }
  s.code_instr = code_instructions();
  for (int id = 0; id <= kUnattributed; id++) {
    s.bucket[id] = bucket_cycles(id, true);
    s.incl[id] = bucket_incl_cycles(id, true);
    s.fn[id] = id < kUnattributed ? nk_prof_name(id) : nullptr;
    s.fn_class[id] = id < kUnattributed ? nk_prof_class(id) : NK_CLASS_OTHER;
  }
  s.cycles_per_ps = cycles_per_ps();
  s.clock_mhz = m_p.clock_mhz;
  s.cores = m_ncores;
  s.app_core = m_app_core;
  s.spread = m_spread;
  s.lock_wait_bucket = m_prof_lock_wait;
  s.core.resize(m_ncores >= 2 ? static_cast<size_t>(m_ncores) : 0);
  for (size_t c = 0; c < s.core.size(); c++) {
    CpuSnapshot::Core &k = s.core[c];
    const int ci = static_cast<int>(c);
    k.busy = core_busy_cycles(ci, true);
    k.bucket.resize(CpuSnapshot::kBuckets);
    for (int id = 0; id <= kUnattributed; id++) k.bucket[static_cast<size_t>(id)] = core_bucket_cycles(ci, id, true);
    k.softirqs = core_softirqs(ci);
    k.napi_polls = core_napi_polls(ci);
    k.rx_queue_mask = core_rx_queue_mask(ci);
  }
  if (m_kernel) s.kstats = *nk_kernel_get_stats(m_kernel);
  s.tcp_inflight_max = tcp_inflight_max();
}

uint64_t CpuCore::core_softirqs(int c) const {
  return c >= 0 && c < m_ncores ? m_cores[static_cast<size_t>(c)].softirqs_window : 0;
}

uint64_t CpuCore::core_napi_polls(int c) const {
  return c >= 0 && c < m_ncores ? m_cores[static_cast<size_t>(c)].napi_polls_window : 0;
}

uint64_t CpuCore::core_rx_queue_mask(int c) const {
  return m_spread && m_kernel ? nk_kernel_cpu_stats(m_kernel, c).rxq_mask : 0;
}

void CpuCore::add_stats(stats::Registry &r) const {
  r.add(kCpuStats, [this](CpuSnapshot &s, stats::Edge) { stats_snapshot(s); });
}

}  // namespace nicsim
