/*
 * study.h: the study library (libnicsim_study, CMake target nicsim::study):
 * what nicsim does with many simulations. It runs a scenario's sweep, each
 * point in a forked child process, -j at a time, resumable and sharded, into
 * a sweep directory; merges the directories of shards; renders a sweep's
 * plots with gnuplot; writes its design-review report (Markdown, HTML); runs
 * the regression suite against stored baselines; and measures simulation
 * speed. The nicsim command is a thin layer of option parsing over it
 * (docs/cli.md says what each call does, as the command of the same name).
 *
 * Conventions:
 * - Every call returns a nicsim_study_status, which is the nicsim command's
 *   exit status: 0 done, 1 something simulated failed (a point, a regression,
 *   gnuplot), 2 bad input (scenario, suite, directory, output path).
 * - Diagnostics go to stderr as lines "nicsim CMD: ..." (with hints), and
 *   progress too unless quiet; the tables go to stdout (the sweep's unless
 *   no_table, merge's, regress's and bench's), as the command prints them.
 * - Simulations run in forked children (SystemC elaborates once per process),
 *   so call these from a process that has not started SystemC itself.
 *   A child's stdout goes to stderr.
 * - Option structs are zero-initialised for the defaults: memset or
 *   `struct nicsim_sweep_opts o = {0};`, then set what you need.
 */
#ifndef NICSIM_STUDY_STUDY_H
#define NICSIM_STUDY_STUDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call returns: the nicsim command's exit status. */
enum nicsim_study_status {
  NICSIM_STUDY_OK = 0,       /* done */
  NICSIM_STUDY_FAILED = 1,   /* a point failed to simulate, a regression, gnuplot failed */
  NICSIM_STUDY_BAD_INPUT = 2 /* usage, scenario or suite file, directory, output path */
};

/* ---- sweeps ----------------------------------------------------------------- */

/* What one sweep does (`nicsim sweep`; docs/sweeps.md). */
struct nicsim_sweep_opts {
  const char *path;       /* scenario file, or a built-in name ("scenarios/demo-sweep.yaml")
                           * when builtin is set */
  bool builtin;
  const char *outdir;     /* NULL: nicsim-out/<scenario name> */
  size_t jobs;            /* points simulated at a time; 0: online CPUs */
  const char *const *sets; /* "KEY=VALUE" overrides of every point (--set) */
  size_t nsets;
  const char *const *overlays; /* overlay files applied to every point, in order (--overlay) */
  size_t noverlays;
  bool quiet;             /* no progress on stderr */
  bool dry_run;           /* list the points on stdout, simulate nothing */
  bool resume;            /* keep the points whose files hold the same config */
  bool force;             /* replace another sweep's results found in outdir */
  bool one_point;         /* a scenario without a sweep runs as one point (label "") */
  bool no_table;          /* no table on stdout */
  size_t shard_k, shard_n; /* only slice K of N (1 <= K <= N); N 0: every point */
  const char *regress_entry; /* written by this regress entry (noted in sweep.json), or NULL */
  const size_t *only;      /* run only these point indices (nonly of them; NULL: every point),
                            * as a shard runs its slice: `nicsim calibrate`'s evaluations */
  size_t nonly;
};
/* Runs a sweep into DIR/sweep.json, DIR/points/<index>-<label>.json and
 * DIR/results.csv, and prints its table. The directory used goes into dir
 * (n bytes; NULL: not wanted). A failing point is reported and the others
 * go on: NICSIM_STUDY_FAILED. */
int nicsim_study_sweep(const struct nicsim_sweep_opts *o, char *dir, size_t n);

/* Combines the sweep directories dirs[0..ndirs) of one sweep (the shards of
 * --shard K/N) into out (NULL: dirs[0]) as a single run writes it, and prints
 * the table. NICSIM_STUDY_FAILED if some points have no results. */
int nicsim_study_merge(const char *const *dirs, size_t ndirs, const char *out, bool quiet);

/* ---- plots and reports ------------------------------------------------------- */

/* Renders the plots of sweep directory dir with gnuplot into dir/plots/
 * (NAME.dat, NAME.gp, NAME.png, NAME.svg): those the scenario declares, else
 * the headline metrics. Swept keys a plot does not show as x or series
 * split it into panels (at most 12, else NICSIM_STUDY_BAD_INPUT); only
 * repeats are averaged (docs/sweeps.md, Plots). cmd names the command in
 * messages ("nicsim CMD: "; NULL: "plot"). */
int nicsim_study_plot(const char *cmd, const char *dir, bool quiet);

/* Writes dir/report.md and dir/report.html, rendering the plots first if
 * plots is set. baseline: the label of the point deltas are relative to
 * (NULL: the scenario's sweep.baseline, else the first point). cmd as for
 * nicsim_study_plot (NULL: "report"). */
int nicsim_study_report(const char *cmd, const char *dir, const char *baseline, bool plots,
                        bool quiet);

/* ---- regression suite ---------------------------------------------------------- */

/* The suite `nicsim regress` runs without one, looked up from the current
 * directory upwards. */
#define NICSIM_REGRESS_DEFAULT_SUITE "tests/regress/suite.yaml"

/* What one regression run does (`nicsim regress`; docs/regress.md). */
struct nicsim_regress_opts {
  const char *suite;  /* suite file; NULL: NICSIM_REGRESS_DEFAULT_SUITE, found upwards */
  const char *junit;  /* also write a JUnit XML report here, or NULL */
  const char *outdir; /* where the entries' sweep directories go; NULL: nicsim-out/regress */
  size_t jobs;        /* points simulated at a time; 0: online CPUs */
  bool update;        /* record the baselines from this run (prints what changed) */
  bool determinism;   /* run every point twice, fail unless bit-identical */
  bool quiet, force;  /* force: replace results another sweep wrote in outdir/<entry> */
  const char *const *only; /* run only these entries (none: all) */
  size_t nonly;
};
/* Runs the suite's entries as sweeps and compares their metrics with the
 * stored baselines (or, with update, rewrites them); prints the table. */
int nicsim_study_regress(const struct nicsim_regress_opts *o);

/* ---- simulation speed ------------------------------------------------------------ */

/* The standard workloads of `nicsim bench`, by index (NULL past the last):
 * "rx64-10g", "bidir1500", "lan743x", "i40e". */
const char *nicsim_study_bench_workload(size_t i);

/* What one speed measurement does (`nicsim bench`; docs/performance.md). */
struct nicsim_bench_opts {
  const char *const *workloads; /* names (nicsim_study_bench_workload); none: all */
  size_t nworkloads;
  unsigned long long packets;   /* frames offered per workload (nicsim bench: 1000000) */
  uint64_t kernel_activations;  /* per SystemC kernel variant (nicsim bench: 2000000) */
  unsigned repeat;              /* runs of each, the fastest kept; 0 or 1: once */
  bool scaling;                 /* instead: rx64-10g at packets and 10 x packets, the ratios */
  const char *json;             /* also write the figures as JSON here, or NULL */
  bool quiet;
};
/* Runs each workload (and the SystemC kernel micro-benchmarks) in a child
 * process and prints the tables. NICSIM_STUDY_FAILED if no workload ran. */
int nicsim_study_bench(const struct nicsim_bench_opts *o);

#ifdef __cplusplus
}
#endif
#endif
