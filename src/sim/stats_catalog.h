/*
 * stats_catalog.h: every statistic nicsim declares, in one list: the
 * tables of the models (models/<model>/<name>_stats.h) and the top's
 * (top_stats.h). Plain data: a process that never starts SystemC (the CLI
 * checking a plot's metric names, a sweep's parent) has it all. The C view
 * for src/results is nicsim_metric_defs() and friends (results/metrics.h).
 */
#ifndef NICSIM_SIM_STATS_CATALOG_H
#define NICSIM_SIM_STATS_CATALOG_H

#include <cstddef>

#include "common/stats.h"

namespace nicsim {

/* The tables, in the order a NIC run registers them. */
const stats::TableView *stats_tables(size_t *n);

}  // namespace nicsim
#endif
