/*
 * metrics.h: the metrics of a run and their values. Every metric is declared
 * once, where it is counted (the models' statistics tables,
 * models/common/stats.h); the catalogue of them all is the C view below.
 * Writers (JSON, CSV, the human table, docs/metrics.md) walk it, so no
 * metric is listed twice. Kinds: COUNT an exact integer, REAL a derived or
 * fractional figure, WALL the one figure that is not a function of config
 * and seed (sim.wall_s); everything else is bit-identical across runs.
 */
#ifndef NICSIM_RESULTS_METRICS_H
#define NICSIM_RESULTS_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nicsim_metric_kind { NM_KIND_COUNT, NM_KIND_REAL, NM_KIND_WALL };

struct nicsim_metric_def {
  const char *name, *unit, *desc;
  enum nicsim_metric_kind kind;
};

/* The catalogue, from the statistics the models and the top declare
 * (src/sim/stats_catalog.cpp; plain data, no simulation needed). */
/* The metrics with a CSV column of their own, in column order: index i of
 * nicsim_results.value[] is nicsim_metric_defs()[i]. */
size_t nicsim_metric_count(void);
const struct nicsim_metric_def *nicsim_metric_defs(void);
/* The extras: metrics a run reports only when it has them, after the
 * columns, sorted by name. Fixed names (bus.rd_util) and families, whose
 * name is a pattern ("nic.rxq<q>.pkts", "pcie.<up|down>.<purpose>.tlps"). */
size_t nicsim_metric_extra_count(void);
const struct nicsim_metric_def *nicsim_metric_extra_defs(void);
/* True if name is an extra of the catalogue, or an instance of a family:
 * plots and regression suites may name them. */
bool nicsim_metric_is_extra_name(const char *name);

/* Most columns a catalogue may have (the value table below is this long). */
#define NICSIM_MAX_METRICS 192

/* Most extras a run may report: a many-core run reports each core's profile
 * (cpu.core<N>.profile.<fn>) and each queue's and vector's figures. A run
 * with more fails (nicsim_simulate) rather than drop any. */
#define NICSIM_MAX_EXTRA_METRICS 1024

/* The values of one run: the static metrics by id, plus extra metrics with
 * names made at run time (per-function profiles, per-queue counters). */
struct nicsim_results {
  double value[NICSIM_MAX_METRICS];
  bool present[NICSIM_MAX_METRICS];
  size_t nextra;
  struct {
    char name[96];
    char unit[24];
    char desc[160];
    enum nicsim_metric_kind kind;
    double value;
  } extra[NICSIM_MAX_EXTRA_METRICS];
};

void nicsim_results_init(struct nicsim_results *r);
/* Sets column id (an index of nicsim_metric_defs(); ignored if out of range). */
void nicsim_results_set(struct nicsim_results *r, long id, double v);
/* Adds or replaces an extra metric; returns 0, or -1 when the table is full
 * (or the name is empty, longer than 95 bytes or that of a static metric). */
int nicsim_results_set_extra(struct nicsim_results *r, const char *name, const char *unit,
                             enum nicsim_metric_kind kind, const char *desc, double v);

/* Iteration over every present metric in stable order: columns in
 * catalogue order, then extras sorted by name. Returns false past the end. */
struct nicsim_metric_view {
  const char *name, *unit, *desc;
  enum nicsim_metric_kind kind;
  double value;
};
bool nicsim_results_at(const struct nicsim_results *r, size_t i, struct nicsim_metric_view *out);
/* Value by name; returns false if absent. */
bool nicsim_results_get(const struct nicsim_results *r, const char *name, double *v);
/* Id (column index) of the metric with this name, or -1. */
long nicsim_metric_find(const char *name);
/* The column metric whose name is nearest to a misspelt one (edit distance
 * at most 3), or NULL if none is that close: a "did you mean" hint. */
const char *nicsim_metric_suggest(const char *name);
/* True if every run of cfg reports column id (an index of
 * nicsim_metric_defs()): a NIC workload reports them all but dma.* and, by
 * its interconnect, pcie.* (PCIe link) or bus.* (on-chip bus); a dma-bench
 * run its own set (sim.* always). A point file without such a metric is
 * incomplete (resume reruns it, merge refuses it). */
struct nicsim_config;
bool nicsim_metric_expected(const struct nicsim_config *cfg, size_t id);
/* "count", "real" or "wall". */
const char *nicsim_metric_kind_name(enum nicsim_metric_kind kind);

#ifdef __cplusplus
}
#endif
#endif
