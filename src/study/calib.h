/* calib.h: the engine of `nicsim calibrate` (docs/calibration.md).
 *
 * A calibration spec declares the unknowns of a platform (free config keys,
 * each with bounds, a scale and why it is unknown) and measurements of a
 * board at points of a scenario's sweep: some to fit the unknowns to
 * (calibrate), the others never used to fit and reported as predictions
 * (validate). The engine minimises the weighted squared error over the
 * calibration measurements within the bounds: a coarse grid (with the start
 * value), then NLopt's bound-constrained derivative-free local method from
 * the best grid point. It then reports identifiability: the
 * finite-difference Jacobian at the optimum, its singular values and
 * condition number (GSL), and each parameter's error profile over its
 * range; and, when asked, leave-one-out cross-validation over every
 * measurement.
 *
 * Simulation is behind an evaluator: `nicsim calibrate` runs the spec's
 * sweep points through the sweep runner, the unit tests an analytic
 * function. Everything the engine computes is a function of the spec and
 * the simulated values, so a calibration is as deterministic as the
 * simulator.
 */
#ifndef NICSIM_STUDY_CALIB_H
#define NICSIM_STUDY_CALIB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NICSIM_CALIB_TEXT_MAX 512 /* why:, source:, description: */
#define NICSIM_CALIB_MAX_FREE 64  /* free: keys of a spec */
/* Parameter vectors a spec may need (nicsim_calib_estimate), as a sweep may
 * have at most 100000 points; each is a sweep of the spec's points. */
#define NICSIM_CALIB_MAX_EVALUATIONS 100000
/* The largest measured value or sigma (in magnitude) a spec may give. */
#define NICSIM_CALIB_VALUE_MAX 1e300

enum nicsim_calib_scale { NICSIM_CALIB_LINEAR, NICSIM_CALIB_LOG };

/* One declared unknown (an entry of free:). */
struct nicsim_calib_free {
  const struct nc_key *key;       /* an int or real config key */
  double min, max;                /* the bounds, min < max */
  double start;                   /* start:, or the value the scenario's points resolve to */
  bool start_given;
  enum nicsim_calib_scale scale;  /* log: the fit and the profiles move in log(value) */
  char why[NICSIM_CALIB_TEXT_MAX];
  struct nc_origin at;            /* the entry's key: value */
};

/* One measurement (an entry of measurements.calibrate or .validate). */
struct nicsim_calib_meas {
  char point[NC_STR_MAX];         /* a point label of the scenario ("": its one point) */
  size_t upoint;                  /* index into nicsim_calib_spec.points */
  char metric[96];                /* a metric of docs/metrics.md */
  double value;                   /* measured */
  double sigma;                   /* absolute uncertainty (sigma:, default 2 % of value) */
  bool sigma_given;
  char source[NICSIM_CALIB_TEXT_MAX];
  bool validate;                  /* never used to fit */
  struct nc_origin at;            /* the entry */
  struct nc_origin metric_at;
};

/* A loaded spec. Measurements: the calibrate ones first (ncal), then the
 * validate ones, each list in file order. */
struct nicsim_calib_spec {
  char file[NC_PATH_MAX];
  unsigned long long file_dev, file_ino; /* the spec's identity (st_dev, st_ino): an input */
  char name[NC_STR_MAX];
  char description[NICSIM_CALIB_TEXT_MAX];
  char scenario[NC_PATH_MAX];      /* as written */
  char scenario_path[NC_PATH_MAX]; /* the file loaded (or the built-in name) */
  bool scenario_builtin;           /* scenario: builtin:NAME */
  struct nc_scenario *scen;
  char **sets;                     /* set: as "KEY=VALUE", before the free values */
  size_t nsets;
  struct nicsim_calib_free *free;
  size_t nfree;
  struct nicsim_calib_meas *meas;
  size_t nmeas, ncal;
  long *points;                    /* the distinct scenario points the measurements name,
                                    * ascending (-1: the one point of a scenario without a
                                    * sweep) */
  size_t npoints;
  char (*point_platform)[NC_PATH_MAX]; /* per entry of points: the platform it resolves to
                                        * (its file name without directory and .yaml) */
  /* fit: options */
  size_t grid;                     /* grid points per free parameter (0: 9, 5, 3 for 1, 2, 3+) */
  size_t profile_points;           /* points of each error profile */
  size_t max_evaluations;          /* of the local method, per fit */
  char method[16];                 /* sbplx, neldermead, bobyqa, cobyla */
};

/* The parameter vectors a fit of s evaluates at most (saturating at
 * SIZE_MAX): the start, grid^nfree grid vectors, max_evaluations of the
 * local method and its optimum, 2 * nfree for the Jacobian and
 * nfree * (profile_points + 1) for the profiles; cross-validation (--cv)
 * repeats the fit once per measurement. */
size_t nicsim_calib_estimate(const struct nicsim_calib_spec *s, bool cv);

/* Loads a spec and its scenario. Every mistake, and every dishonest spec
 * (more free parameters than calibration measurements; a (point, metric)
 * both calibrated and validated; a free key the scenario's sweep varies, or
 * whose value differs between the points), fills *err with file:line:col
 * and a hint. Returns 0, or -1. */
int nicsim_calib_spec_load(const char *path, struct nicsim_calib_spec **out, struct nc_error *err);
void nicsim_calib_spec_free(struct nicsim_calib_spec *s);

/* One value per physical thing, across specs (docs/calibration.md, "Across
 * specs"): two specs that free the same key on a common platform (of the
 * points their measurements name), or a prediction (validate:) of one spec
 * at a (scenario, point) where another calibrates any metric, conflict. Checks specs[only]
 * against every other spec (only < n), or every pair (only == n). The first
 * conflict fills *err at the later spec's entry, naming the other spec's
 * file:line:col; returns 0, or -1. */
int nicsim_calib_specs_check(struct nicsim_calib_spec *const *specs, size_t n, size_t only,
                             struct nc_error *err);
/* Loads every *.yaml file of dir, in name order, that parses as a
 * calibration spec (a file whose top-level keys are no spec's is skipped;
 * one that is a spec but does not load is an error in *err). *out holds *n
 * specs (free each and the array). Returns 0, or -1. */
int nicsim_calib_specs_load_dir(const char *dir, struct nicsim_calib_spec ***out, size_t *n,
                                struct nc_error *err);

/* Identity of the evaluations a spec makes (16 hex digits into buf): the
 * nicsim version, the resolved configuration of every point it names (with
 * set:) and its free keys. Two specs with the same identity simulate the
 * same thing at the same parameter values. */
void nicsim_calib_spec_identity(const struct nicsim_calib_spec *s, const char *version, char *buf,
                                size_t n);

/* The value the fit evaluates for x: an int key's nearest integer, a real
 * key's x to 6 significant digits, within [min, max]. */
double nicsim_calib_quantise(const struct nicsim_calib_free *f, double x);
/* "KEY=VALUE" for x (already quantised), as --set reads it. */
void nicsim_calib_assignment(const struct nicsim_calib_free *f, double x, char *buf, size_t n);
/* "point metric" of a measurement, for tables and plots (point "" omitted). */
void nicsim_calib_meas_name(const struct nicsim_calib_meas *m, char *buf, size_t n);

/* ---- the engine ---------------------------------------------------------- */

/* Why an evaluation failed (evaluations.csv's "failure" column). */
#define NICSIM_CALIB_WHY_MAX 256
/* chi2 recorded for a parameter vector whose simulation failed: no match. */
#define NICSIM_CALIB_PENALTY 1e30

/* Simulates the spec's points at each of nvec parameter vectors (xs: nvec
 * rows of spec->nfree values, quantised, in the order of spec->free) and
 * writes every measurement's simulated value to values (nvec rows of
 * spec->nmeas; NaN where the point does not report the metric). A vector
 * whose simulation fails (as a point can at some parameter values) is no
 * match, not the end of the calibration: its why (nvec rows, "" before the
 * call) says why, and its values are NaN. Returns 0, or an exit status (2:
 * bad input, or a failure that is not the simulation's) after saying why on
 * stderr. */
struct nicsim_calib_evaluator {
  int (*eval)(void *ctx, const struct nicsim_calib_spec *spec, const double *xs, size_t nvec,
              double *values, char (*why)[NICSIM_CALIB_WHY_MAX]);
  void *ctx;
};

struct nicsim_calib_opts {
  bool cv;    /* leave-one-out cross-validation */
  FILE *log;  /* progress (NULL: none) */
};

/* A parameter's error profile: the spec's calibration error along its
 * range with the other parameters at the optimum. */
struct nicsim_calib_profile {
  size_t n;
  double *x;         /* n values, ascending, the optimum among them */
  double *chi2;      /* n */
  double *sim;       /* n rows of nmeas simulated values */
  double lo, hi;     /* the range around the optimum where chi2 <= min + 1 (interpolated) */
  bool lo_bound, hi_bound; /* that range reaches min / max */
  double max_move;   /* largest change of a calibration measurement along the range, in sigmas */
};

/* One leave-one-out fold: measurement `meas` predicted by a fit to all the others. */
struct nicsim_calib_fold {
  bool skipped;      /* fewer other measurements than free parameters */
  double *x;         /* the fold's fit (nfree) */
  double predicted;
  double chi2;
  bool converged;
};

struct nicsim_calib_result {
  size_t nfree, nmeas;
  /* The fit. */
  double *x;             /* nfree: the optimum */
  double *sim;           /* nmeas: simulated at the optimum */
  double chi2;           /* sum over calibration measurements of ((sim - measured) / sigma)^2 */
  bool converged;         /* the local method met its tolerance (calib_fit.c, CF__FTOL_REL) */
  bool at_eval_limit;     /* it stopped on fit.max_evaluations before meeting it */
  int nlopt_status;
  size_t local_evaluations; /* calls of the local method */
  /* Identifiability at the optimum. */
  double *jac;           /* nmeas x nfree: d simulated / d parameter, in their units */
  double *sens;          /* nmeas x nfree: sigmas per unit of the normalised range (log: of
                          * log(value)), central difference; the matrix of the SVD */
  double *sv;            /* nfree singular values of the calibration rows of sens, descending */
  size_t rank;
  double cond;           /* sv[0] / sv[n-1]; INFINITY when rank-deficient */
  bool ill_conditioned;
  bool *identifiable;    /* nfree */
  char (*reason)[256];   /* nfree: why not identifiable, or "" */
  bool *cliff;           /* nfree: one-sided slopes differ: a kink or cliff at the optimum */
  int *at_bound;         /* nfree: -1 at min, +1 at max, 0 inside */
  struct nicsim_calib_profile *prof; /* nfree */
  /* Cross-validation (opts.cv). */
  bool cv;
  struct nicsim_calib_fold *folds; /* nmeas */
  /* Every distinct vector evaluated, in order. */
  size_t evaluations;
  double *ev_x;          /* evaluations x nfree */
  double *ev_v;          /* evaluations x nmeas */
  char (*ev_why)[NICSIM_CALIB_WHY_MAX]; /* evaluations: why its simulation failed, or "" */
};

/* Runs the calibration. Returns 0 with *out set, or an exit status (that of
 * the evaluator, or 2 when the first evaluation lacks a measured metric,
 * after printing the measurement's file:line:col). */
int nicsim_calib_run(const struct nicsim_calib_spec *spec, const struct nicsim_calib_evaluator *ev,
                     const struct nicsim_calib_opts *opts, struct nicsim_calib_result **out);
void nicsim_calib_result_free(struct nicsim_calib_result *r);

/* The validation measurement with the largest |pull| ((simulated -
 * measured) / sigma) at the optimum: its index into spec->meas, or -1 when
 * there is none (no validate: list, or none simulated); *pull gets it. */
long nicsim_calib_worst_pull(const struct nicsim_calib_spec *spec, const struct nicsim_calib_result *r,
                             double *pull);
/* "converged", or why not: "NOT converged: stopped at the evaluation limit
 * before the tolerance was met", or the NLopt status. */
const char *nicsim_calib_convergence(const struct nicsim_calib_result *r);

/* The calibration as one Markdown table row (DIR/summary.md; the row of
 * docs/calibration.md's seed-spec table): 0, or -1 on a write error. */
int nicsim_calib_emit_row(FILE *f, const struct nicsim_calib_spec *spec, const struct nicsim_calib_result *r);

/* Weighted squared error of values (nmeas) over the measurements in mask
 * (NULL: the calibration ones); NaN values make it +inf. */
double nicsim_calib_chi2(const struct nicsim_calib_spec *spec, const double *values,
                         const bool *mask);

/* ---- outputs ------------------------------------------------------------- */

/* calibration.json's document. NULL on ENOMEM. */
json_t *nicsim_calib_to_json(const struct nicsim_calib_spec *spec,
                             const struct nicsim_calib_result *r, const char *version);

/* Renders DIR/plots/NAME.gp (writing NAME.svg and NAME.png); 0 or an exit status. */
typedef int (*nicsim_calib_render_fn)(void *ctx, const char *plotdir, const char *name);

/* Writes DIR/calibration.json, DIR/calibrated.yaml, DIR/evaluations.csv,
 * DIR/plots/{fit,sensitivity,profile-<key>}.{dat,gp} (rendered by render
 * when it is not NULL), DIR/report.md and DIR/report.html. 0, or -errno of
 * the first file that could not be written (named on stderr). */
int nicsim_calib_write(const char *dir, const struct nicsim_calib_spec *spec,
                       const struct nicsim_calib_result *r, const char *version,
                       nicsim_calib_render_fn render, void *render_ctx);

#ifdef __cplusplus
}
#endif
#endif
