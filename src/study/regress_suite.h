/* regress_suite.h: the regression suite of `nicsim regress` (docs/regress.md):
 * the suite file (entries, their metrics and tolerances), the stored
 * baselines (JSON), the tolerance test of one metric and the JUnit XML
 * writer. Internal to the study library (not installed). */
#ifndef NICSIM_STUDY_REGRESS_SUITE_H
#define NICSIM_STUDY_REGRESS_SUITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How far a metric may move from its baseline. */
enum nicsim_tol_kind {
  NICSIM_TOL_EXACT, /* the same double, bit for bit (counts, deterministic figures) */
  NICSIM_TOL_ABS,   /* |now - baseline| <= x */
  NICSIM_TOL_REL,   /* |now - baseline| <= x * |baseline| (x a fraction) */
};
struct nicsim_tol {
  enum nicsim_tol_kind kind;
  double x;
};

/* One metric an entry compares, with where the suite names it. */
struct nicsim_regress_metric {
  char name[96];
  struct nicsim_tol tol;
  struct nc_origin at;
};

/* One suite entry: a scenario (a sweep or a single run) and its checks. */
struct nicsim_regress_entry {
  char name[64];                /* unique; the baseline is <baselines>/<name>.json */
  char scenario[NC_PATH_MAX];   /* as written in the suite */
  char path[NC_PATH_MAX];       /* the file to load (relative to the suite's directory), or
                                 * the built-in name after "builtin:" */
  bool builtin;                 /* scenario: builtin:NAME */
  char **sets;                  /* "KEY=VALUE" overrides (set:), in file order */
  size_t nsets;
  struct nicsim_regress_metric *metrics;
  size_t nmetrics;
  struct nc_origin at;          /* the entry in the suite */
};

/* A loaded suite. */
struct nicsim_regress_suite {
  char file[NC_PATH_MAX];       /* the suite file */
  char name[NC_STR_MAX];        /* name: (default "regress") */
  char baselines[NC_PATH_MAX];  /* the baseline directory (relative to the suite's directory) */
  struct nicsim_regress_entry *entries;
  size_t n;
};

/* Loads a suite file; every mistake (unknown or missing key, duplicate key or
 * entry name, unknown metric, bad tolerance, bad set: value) fills *err with
 * file:line:col. Returns 0, or -1. */
int nicsim_regress_suite_load(const char *path, struct nicsim_regress_suite **out,
                              struct nc_error *err);
void nicsim_regress_suite_free(struct nicsim_regress_suite *s);

/* True if now is within tolerance t of base (NaN equals only NaN). */
bool nicsim_tol_ok(const struct nicsim_tol *t, double base, double now);
/* "exact", "abs 0.01", "rel 0.1%". */
void nicsim_tol_format(const struct nicsim_tol *t, char *buf, size_t n);

/* ---- baselines ------------------------------------------------------------ */

/* A new baseline document for entry e: {"nicsim", "suite", "entry",
 * "scenario", "set", "hash", "points": []}. NULL on ENOMEM. */
json_t *nicsim_baseline_new(const char *version, const char *suite,
                            const struct nicsim_regress_entry *e, const char *hash);
/* Appends a point {"label", "metrics": {name: value}} to a baseline; values
 * of COUNT metrics as integers. 0 or -ENOMEM. */
int nicsim_baseline_add_point(json_t *doc, const char *label, const char *const *names,
                              const double *values, size_t n);
/* Loads a baseline file and checks its shape. NULL with why filled (the
 * file is missing: *missing set; malformed: file:line:col or what is wrong). */
json_t *nicsim_baseline_load(const char *path, bool *missing, char *why, size_t n);
/* The metrics object of the point with this label, or NULL. */
json_t *nicsim_baseline_point(json_t *doc, const char *label);
/* Writes a baseline document atomically (as nicsim_json_dump). 0 or -errno. */
int nicsim_baseline_write(const char *path, json_t *doc);


#ifdef __cplusplus
}
#endif
#endif
