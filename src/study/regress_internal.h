/* regress_internal.h: what regress.c (running and comparing a suite) and
 * regress_junit.c (verdicts, their explanations, the JUnit XML) share.
 * Private to src/study. */
#ifndef NICSIM_STUDY_REGRESS_INTERNAL_H
#define NICSIM_STUDY_REGRESS_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "study/regress_suite.h"
#include "study/study_internal.h"

/* One point of an entry, after the run. */
struct rg_point {
  char *label;
  bool ran;          /* simulated and read back */
  double *now;       /* per metric of the entry */
  bool *have_now;
  double *base;      /* per metric, from the baseline (compare mode) */
  bool *have_base;
  char *nondet;      /* with --check-determinism: what differed on the rerun, or NULL */
  char *error;       /* !ran: why the sweep could not simulate it (its record), or NULL */
  bool rerun_missing; /* the rerun of this point failed */
};

/* One entry: its inputs and results. */
struct rg_entry {
  const struct nicsim_regress_entry *e;
  bool selected;
  char baseline_file[NC_PATH_MAX + 80];
  json_t *baseline;  /* compare mode; NULL otherwise or if unreadable */
  char dir[NC_PATH_MAX + 80], hash[64];
  size_t npoints;
  struct rg_point *pts;
  double secs;
  bool failed_points;
  char input_error[2 * NC_PATH_MAX + 1400]; /* why its baseline cannot be used ("": it can) */
};

/* The verdict of metric k of a point (compare mode). */
enum rg_verdict { RG_OK, RG_FAIL, RG_MISSING, RG_NORUN };
enum rg_verdict rg_verdict_of(const struct rg_entry *r, const struct rg_point *p, size_t k);
/* One line explaining a failed check (v): "rx.gbps 9.87 -> 9.12 (...), outside ...". */
void rg_explain(const struct rg_entry *r, const struct rg_point *p, size_t k, enum rg_verdict v,
                char *buf, size_t n);
/* A value for the table: integers exactly, reals shortest-exact. */
void rg_value(double v, const char *metric, char *buf, size_t n);
/* "now - base" and, if base is not 0, its share: "+0.5 (+1.2%)". */
void rg_delta(double base, double now, char *buf, size_t n);

/* What the JUnit report is written from. */
struct rg_junit {
  const struct nicsim_regress_suite *suite;
  struct rg_entry *rs;
  size_t n;
  bool determinism;
  double secs;
};
/* The JUnit report (nicsim_emit_fn over a struct rg_junit): every check,
 * or (_bad) the entries whose inputs could not be used, nothing compared. */
int rg_junit_emit(FILE *f, void *arg);
int rg_junit_emit_bad(FILE *f, void *arg);

#endif
