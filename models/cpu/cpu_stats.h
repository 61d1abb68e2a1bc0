/* cpu_stats.h: the host CPU's statistics (rx.* as the host stack saw it,
 * cpu.*, the kernel layer's counters, the profile), over snapshots of what
 * the core counts. The CPU counts its measurement window itself (by its
 * local time, CpuCore::set_window), so most of them are its window counters
 * at the finish. */
#ifndef NICSIM_MODELS_CPU_CPU_STATS_H
#define NICSIM_MODELS_CPU_CPU_STATS_H

#include <cstdint>
#include <vector>

#include "common/stats.h"
#include "cpu/cpu_counters.h"
#include "kernel/kernel.h"

namespace nicsim {

/* The CPU at one instant (CpuCore::stats_snapshot). Cycles are those
 * charged in the window; profile buckets are the kernel layer's profile
 * ids (nk_prof_id), then kUnattributed. */
struct CpuSnapshot {
  static constexpr int kUnattributed = NK_PROF_MAX;   /* bucket of charges outside any profiled function */
  static constexpr int kBuckets = NK_PROF_MAX + 1;
  CpuCounters window;                                 /* counted in the window */
  CpuCounters total;                                  /* counted over the whole run */
  double busy = 0;                                    /* busy cycles, all cores */
  double class_cycles[NK_CLASS__COUNT] = {};          /* by the class of the bucket charged */
  double instr[NK_CLASS__COUNT] = {};                 /* instructions charged (exec), by class */
  double code_instr = 0;                              /* of which the C code's own (cpu.isa) */
  double bucket[kBuckets] = {};                       /* self cycles per bucket */
  double incl[kBuckets] = {};                         /* inclusive cycles per bucket (self and callees) */
  const char *fn[kBuckets] = {};                      /* function of each bucket (nullptr: none registered) */
  nk_class fn_class[kBuckets] = {};                   /* its class */
  double cycles_per_ps = 0;                           /* the core clock, cycles per ps */
  double clock_mhz = 0;                               /* the core clock, MHz (cpu.clock_mhz) */
  int cores = 1;                                      /* cpu.cores */
  int app_core = 0;                                   /* the application's core (0 with one core) */
  bool spread = false;                                /* cpu.irq_affinity spread on several cores */
  int lock_wait_bucket = -1;                          /* the lock spin's bucket (several cores) */
  struct Core {
    double busy = 0;                                  /* busy cycles of the core */
    std::vector<double> bucket;                       /* its self cycles per bucket */
    uint64_t softirqs = 0, napi_polls = 0;            /* its NET_RX softirqs that polled, and polls (spread) */
    uint64_t rx_queue_mask = 0;                       /* bit q: it handed frames of RX queue q up (whole run) */
  };
  std::vector<Core> core;                             /* per core, with several cores */
  nk_kernel_stats kstats{};                           /* the kernel layer's counters (zero before the probe) */
  uint64_t tcp_inflight_max = 0;                      /* most payload bytes the host's TX flow had unacknowledged */
};

extern const stats::Table<CpuSnapshot> kCpuStats;

}  // namespace nicsim
#endif
