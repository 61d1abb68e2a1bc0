/*
 * stats_results.h: a run's statistics into nicsim_results, and the
 * registrations only a top can make (the run's own figures, the system-level
 * ones over several models). nicsim's tops use them, and so can an
 * embedder's platform (examples/embed): register the models' tables
 * (NicDevice::add_stats, CpuCore::add_stats, PcieLink::add_stats, ...),
 * snapshot the registry at the window's edges and at the finish, then fill.
 */
#ifndef NICSIM_SIM_STATS_RESULTS_H
#define NICSIM_SIM_STATS_RESULTS_H

#include <cstddef>
#include <cstdint>

#include "common/stats.h"
#include "results/metrics.h"

namespace nicsim {

class NicDevice;
class CpuCore;

/* The run's facts for the formulas: the window [warmup_ps, duration_ps),
 * the end of the drain end_ps (ps), the SystemC kernel's delta cycles so
 * far and the wall-clock time wall_s (s). */
stats::Run run_facts(uint64_t warmup_ps, uint64_t duration_ps, uint64_t end_ps, double wall_s);
/* Registers the run's own statistics (sim.*: from stats::Run). */
void add_run_stats(stats::Registry &r);
/* Registers a NIC run's system-level statistics (top_stats.h), read from nic and cpu. */
void add_system_stats(stats::Registry &r, const NicDevice &nic, const CpuCore &cpu);
/* Evaluates every registered statistic into res (initialised first): the
 * columns by their catalogue index, the rest as extras. Returns how many
 * extras did not fit the table (NICSIM_MAX_EXTRA_METRICS): 0, or the run's
 * results are incomplete (nicsim_simulate then fails the run). */
size_t fill_results(const stats::Registry &r, const stats::Run &run, nicsim_results *res);

}  // namespace nicsim
#endif
