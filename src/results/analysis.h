/*
 * analysis.h: what limits a run's throughput. From a point's resolved config
 * and metrics (nothing else, so a point read back from its JSON gives the
 * same answer), the utilisation of each resource on the packet's path over
 * the measurement window, and the verdict: the resource that limits
 * throughput and the one that trails it (docs/analysis.md).
 */
#ifndef NICSIM_RESULTS_ANALYSIS_H
#define NICSIM_RESULTS_ANALYSIS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "results/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A resource at or above this utilisation is saturated. */
#define NICSIM_SATURATED 0.95
#define NICSIM_ANALYSIS_MAX 80

struct nicsim_resource {
  char name[32];    /* "pcie.up", "cpu.core0": the documented list */
  double util;      /* fraction of the window, 0..1 */
  char detail[96];  /* what the figure is made of, for people; "" if nothing */
};

struct nicsim_analysis {
  size_t n;                                   /* resources measured in this run */
  struct nicsim_resource res[NICSIM_ANALYSIS_MAX]; /* in the documented order */
  int bottleneck; /* index into res, or -1: nothing saturated ("none") */
  int next;       /* the highest other resource, or -1 */
  double rx_drop_frac;          /* RX frames dropped / offered in the window */
  double rx_backlog_frac;       /* share of the window's received frame bits the host stack had not taken by its
                                 * end (1 - rx.delivered_gbps / rx.gbps): a backlog growing in the RX ring */
  double rx_drops_fifo, rx_drops_nodesc; /* the drops by cause */
};

/* Analyses one point. Never fails: a resource whose metrics the run lacks
 * (no PCIe on a bus platform, one core) is left out. */
void nicsim_analyse(const struct nicsim_config *cfg, const struct nicsim_results *res,
                    struct nicsim_analysis *a);
/* The bottleneck's name, or "none". */
const char *nicsim_analysis_bottleneck(const struct nicsim_analysis *a);
/* A resource's name for people: "core 0", "PCIe up", "wire RX". */
void nicsim_resource_title(const char *name, char *buf, size_t n);
/* The one-line verdict, e.g. "core 0 100 % (softirq 71 %, lock wait 22 %);
 * next: PCIe up 38 %", or "none saturated; highest: PCIe up 38 %". */
void nicsim_analysis_line(const struct nicsim_analysis *a, char *buf, size_t n);
/* {"bottleneck": name, "next": name|null, "utilisation": {name: fraction}}.
 * NULL on ENOMEM. */
json_t *nicsim_analysis_to_json(const struct nicsim_analysis *a);
/* The resource names the analysis can report, in order, NULL-terminated
 * ("cpu.core<N>" stands for every core). */
const char *const *nicsim_resource_names(void);

#ifdef __cplusplus
}
#endif
#endif
