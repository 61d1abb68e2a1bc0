/*
 * systemc_kernel_bench.h: micro-benchmarks of the bare SystemC kernel (the
 * simulation kernel, not nicsim's Linux-like src/kernel) for `nicsim bench`
 * (docs/performance.md): how many delta cycles (and process activations)
 * per wall second the kernel runs on this machine when the processes do no
 * work, for the primitives nicsim's models use (event notify/wait between
 * two processes, timed waits; SC_THREAD and SC_METHOD).
 *
 * Like nicsim_simulate, a kernel benchmark elaborates SystemC: run at most
 * one in a process (the CLI forks a child per variant).
 */
#ifndef NICSIM_SIM_SYSTEMC_KERNEL_BENCH_H
#define NICSIM_SIM_SYSTEMC_KERNEL_BENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, in report order. */
enum nicsim_sc_bench_kind {
  NICSIM_SC_BENCH_EVENT_DELTA_THREADS, /* 2 SC_THREADs: ev.notify(SC_ZERO_TIME); wait(own ev) */
  NICSIM_SC_BENCH_EVENT_TIMED_THREADS, /* 2 SC_THREADs: ev.notify(1 ns); wait(own ev) */
  NICSIM_SC_BENCH_TIMED_WAIT_THREAD,   /* 1 SC_THREAD: wait(1 ns) */
  NICSIM_SC_BENCH_EVENT_DELTA_METHODS, /* 2 SC_METHODs, static sensitivity: ev.notify(SC_ZERO_TIME) */
  NICSIM_SC_BENCH_TIMED_METHOD,        /* 1 SC_METHOD: next_trigger(1 ns) */
  NICSIM_SC_BENCH__COUNT
};

/* The variant whose rate `nicsim bench` divides by (bound_ratio): event
 * notify/wait between two SC_THREADs with a timed notification, the shape of
 * most of nicsim's model processes (see docs/performance.md). */
#define NICSIM_SC_BENCH_REFERENCE NICSIM_SC_BENCH_EVENT_TIMED_THREADS

/* What one variant measured. */
struct nicsim_sc_bench_result {
  uint64_t activations; /* activations that did work, counted by the processes (the one
                         * more that finds the budget spent and stops is not counted) */
  uint64_t deltas;      /* sc_delta_count() over the run */
  double sim_ns;        /* simulated time at the end */
  double wall_s;        /* wall time of sc_start (elaboration excluded) */
};

/* Short name of a variant ("event_delta_threads"), or NULL if out of range. */
const char *nicsim_sc_bench_name(int kind);
/* One line saying what a variant does, or NULL if out of range. */
const char *nicsim_sc_bench_desc(int kind);

/* Elaborates variant kind, runs it for `activations` process activations
 * and fills *out. Returns 0, or -1 with a message in err (n bytes). Call at
 * most once per process. */
int nicsim_sc_bench_run(int kind, uint64_t activations, struct nicsim_sc_bench_result *out, char *err,
                        size_t n);

#ifdef __cplusplus
}
#endif
#endif
