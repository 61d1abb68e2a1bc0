/*
 * sim.h: the C entry point to one SystemC simulation. The CLI (C) calls it;
 * sim.cpp builds the top (wire peer, NIC, interconnect, host memory, CPU
 * running the C driver) from the resolved config, runs it, checks the run's
 * invariants and fills the metrics.
 *
 * SystemC elaborates once per process: call nicsim_simulate at most once in
 * a process. A sweep runs each point in a child process.
 */
#ifndef NICSIM_SIM_SIM_H
#define NICSIM_SIM_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "results/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A simulation error: an invariant violated, or a model that cannot be built. */
struct nicsim_sim_error {
  char component[96]; /* SystemC name of the reporting module, e.g. "top.nic.dma" */
  double time_ns;     /* simulated time of the violation */
  char msg[512];
};

/* Checks a resolved config (nc_scenario_resolve has checked the rules that
 * span layers) against the rules of the run's own window, of every model
 * the run builds (their Params' validate()) and of its driver
 * (nk_driver_check_config). Returns 0, or -1 with *err at the blamed key's
 * file:line:col. The CLI calls it before simulating; so should a program
 * that calls nicsim_simulate on configs it did not check. */
int nicsim_check_config(const struct nicsim_config *cfg, struct nc_error *err);
/* The same, adding to *errs the first broken rule of each group instead of
 * stopping at the first of all: the driver's, the run's window, and each
 * model's validate() (a model reports one rule at a time). A rule that
 * blames a value refused while loading is skipped (nc_errors_add_blamed).
 * 0 if no rule is broken, else -1. */
int nicsim_check_config_all(const struct nicsim_config *cfg, struct nc_errors *errs);

/* Runs one simulation. Returns 0 with *res filled, or 1 with *err filled
 * (a config that breaks a rule of the configuration or of a model: component
 * "config"; the driver's rules fail its probe).
 * Writes nothing to stdout; progress (if verbose) goes to stderr. */
int nicsim_simulate(const struct nicsim_config *cfg, struct nicsim_results *res,
                    struct nicsim_sim_error *err, int verbose);

/* Timeline trace (`nicsim run --trace FILE`): call nicsim_trace_start before
 * nicsim_simulate and nicsim_trace_finish after it. The run then writes
 * Chrome/Perfetto trace-event JSON of its DMA, write-backs and interrupts
 * (docs/nic.md) to f: the events that overlap [from_us, to_us) of simulated
 * time (to_us <= 0: to the end), until the file would pass max_bytes (0: no
 * cap), then a note that the trace was cut there. finish completes the JSON
 * and flushes f (the caller closes it: the CLI writes a temporary file and
 * renames it, nicsim_atomic_open); it reports the bytes written and whether
 * (and at what simulated time) the cap cut the trace. nicsim_trace_open and
 * nicsim_trace_close write path in place, without limits (tests). All return
 * 0, or -1 with errno set. Defined in models/common/trace.cpp. */
int nicsim_trace_start(FILE *f, double from_us, double to_us, uint64_t max_bytes);
int nicsim_trace_finish(uint64_t *bytes, int *truncated, double *truncated_at_us);
int nicsim_trace_open(const char *path);
int nicsim_trace_close(void);
/* After start/open, before nicsim_simulate: tlp = 1 adds each TLP and DLLP
 * of the PCIe link (`--trace-detail tlp`); sample_us (> 0) is the interval
 * of the sampled counters, core busy and interrupt rate (`--trace-sample-us`).
 * 0, or -1 (errno EINVAL) with no trace open or sample_us not positive.
 * nicsim_simulate calls nicsim_trace_end_run (the sampled counters' last
 * intervals) itself. */
int nicsim_trace_set_detail(int tlp, double sample_us);
void nicsim_trace_end_run(uint64_t end_ps);

#ifdef __cplusplus
}
#endif
#endif
