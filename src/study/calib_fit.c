/* calib_fit.c: the calibration engine: the weighted least-squares fit (grid
 * scan, then NLopt's bound-constrained derivative-free local method),
 * identifiability (finite-difference Jacobian, its SVD with GSL, error
 * profiles) and leave-one-out cross-validation. Every vector is evaluated
 * once: a cache keyed by the exact (quantised) parameter values holds what
 * the evaluator returned, in evaluation order. */
#define _XOPEN_SOURCE 700

#include "study/calib.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <nlopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step of the finite differences, in the normalised range [0, 1]. */
#define CF__STEP 0.02
/* Convergence of the local method: a step under this in the normalised
 * range, or a change of chi2 under CF__FTOL_REL relative or CF__FTOL_ABS
 * (NLopt's xtol_abs, ftol_rel, ftol_abs). A method stopped by its evaluation budget has met the latter
 * too when the best chi2 gained less than that over its last CF__QUIET(n)
 * evaluations (a simplex's worth). */
#define CF__XTOL 1e-4
#define CF__FTOL_REL 1e-4
#define CF__FTOL_ABS 1e-9
#define CF__QUIET(n) (2 * (n) + 2)
/* A condition number of the scaled Jacobian above this is ill-conditioned. */
#define CF__COND_MAX 1e3

/* The engine's state. */
struct cf__ctx {
  const struct nicsim_calib_spec *s;
  const struct nicsim_calib_evaluator *ev;
  struct nicsim_calib_result *r; /* ev_x, ev_v: the cache */
  size_t cap;
  FILE *log;
  int status;        /* the first failure of the evaluator */
  /* The fit in progress (the NLopt objective's). */
  const bool *mask;
  double *best_x;
  double best_chi2;
  size_t calls;
  size_t last_gain; /* the call that last lowered best_chi2 by more than CF__FTOL_REL */
  /* The cache's index: a hash set of evaluation numbers + 1 (0: empty). */
  size_t *hslot, hcap;
};

/* ---- values, the normalised range and the cache ---------------------------------- */

/* x of a parameter at u in [0, 1] (not quantised). */
static double cf__to_x(const struct nicsim_calib_free *f, double u) {
  if (u <= 0) return f->min;
  if (u >= 1) return f->max;
  if (f->scale == NICSIM_CALIB_LOG) return exp(log(f->min) + u * (log(f->max) - log(f->min)));
  return f->min + u * (f->max - f->min);
}

/* u in [0, 1] of a parameter's value x. */
static double cf__to_u(const struct nicsim_calib_free *f, double x) {
  double u = f->scale == NICSIM_CALIB_LOG ? (log(x) - log(f->min)) / (log(f->max) - log(f->min))
                                          : (x - f->min) / (f->max - f->min);
  return u < 0 ? 0 : u > 1 ? 1 : u;
}

/* FNV-1a 64 over the bytes of x (nfree values): the cache's hash. */
static size_t cf__hash(const double *x, size_t n) {
  const unsigned char *p = (const unsigned char *)x;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n * sizeof *x; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return (size_t)(h ^ (h >> 32));
}

/* Index of x in the vectors base[0..), by the hash set slot/cap, or -1. */
static long cf__set_find(const size_t *slot, size_t cap, const double *base, size_t n,
                         const double *x) {
  if (cap == 0) return -1;
  for (size_t i = cf__hash(x, n) & (cap - 1); slot[i]; i = (i + 1) & (cap - 1))
    if (memcmp(&base[(slot[i] - 1) * n], x, n * sizeof *x) == 0) return (long)(slot[i] - 1);
  return -1;
}

/* Adds vector number idx of base to the set (cap a power of two, at most
 * half full: grown and rehashed as needed, over count vectors). 0 or -1. */
static int cf__set_add(size_t **slot, size_t *cap, const double *base, size_t n, size_t idx,
                       size_t count) {
  if ((count + 1) * 2 > *cap) {
    size_t ncap = *cap ? *cap : 64, *t;
    while ((count + 1) * 2 > ncap) ncap *= 2;
    if (!(t = calloc(ncap, sizeof *t))) return -1;
    for (size_t j = 0; j < *cap; j++)
      if ((*slot)[j]) {
        size_t i = cf__hash(&base[((*slot)[j] - 1) * n], n) & (ncap - 1);
        while (t[i]) i = (i + 1) & (ncap - 1);
        t[i] = (*slot)[j];
      }
    free(*slot);
    *slot = t;
    *cap = ncap;
  }
  size_t i = cf__hash(&base[idx * n], n) & (*cap - 1);
  while ((*slot)[i]) i = (i + 1) & (*cap - 1);
  (*slot)[i] = idx + 1;
  return 0;
}

/* Index of x (nfree values) in the cache, or -1. */
static long cf__find(const struct cf__ctx *c, const double *x) {
  return cf__set_find(c->hslot, c->hcap, c->r->ev_x, c->s->nfree, x);
}

/* Says that the engine ran out of memory (exit 2). */
static int cf__oom(struct cf__ctx *c, size_t nvec) {
  fprintf(stderr, "%s: error: out of memory for %zu parameter vectors\n", c->s->file, nvec);
  return c->status = 2;
}

/* Evaluates the nvec vectors xs (quantised) that the cache lacks, in order,
 * as one batch; idx (if not NULL) gets each vector's cache index. 0 or the
 * evaluator's status. */
static int cf__eval(struct cf__ctx *c, const double *xs, size_t nvec, long *idx) {
  size_t n = c->s->nfree, m = c->s->nmeas, nnew = 0, i;
  double *todo;
  int st;
  if (c->status) return c->status;
  size_t *bslot = NULL, bcap = 0;
  todo = malloc((nvec ? nvec : 1) * n * sizeof *todo);
  if (!todo) return cf__oom(c, nvec);
  /* New and distinct: by the cache's hash set, and one for the batch. */
  for (i = 0; i < nvec; i++) {
    if (cf__find(c, &xs[i * n]) >= 0 || cf__set_find(bslot, bcap, todo, n, &xs[i * n]) >= 0)
      continue;
    memcpy(&todo[nnew * n], &xs[i * n], n * sizeof *xs);
    if (cf__set_add(&bslot, &bcap, todo, n, nnew, nnew) != 0) {
      free(bslot);
      free(todo);
      return cf__oom(c, nvec);
    }
    nnew++;
  }
  free(bslot);
  if (nnew > 0) {
    size_t need = c->r->evaluations + nnew;
    if (need > c->cap) {
      size_t cap = c->cap ? c->cap : 64;
      double *ex, *evv;
      char (*why)[NICSIM_CALIB_WHY_MAX];
      while (cap < need) cap *= 2;
      ex = realloc(c->r->ev_x, cap * n * sizeof *ex);
      if (ex) c->r->ev_x = ex;
      evv = ex ? realloc(c->r->ev_v, cap * m * sizeof *evv) : NULL;
      if (evv) c->r->ev_v = evv;
      why = evv ? realloc(c->r->ev_why, cap * sizeof *why) : NULL;
      if (why) c->r->ev_why = why;
      if (!ex || !evv || !why) {
        free(todo);
        return cf__oom(c, need);
      }
      c->cap = cap;
    }
    memset(&c->r->ev_why[c->r->evaluations], 0, nnew * sizeof *c->r->ev_why);
    st = c->ev->eval(c->ev->ctx, c->s, todo, nnew, &c->r->ev_v[c->r->evaluations * m],
                     &c->r->ev_why[c->r->evaluations]);
    if (st != 0) {
      free(todo);
      return c->status = st;
    }
    /* A failed simulation is no match: every value NaN (chi2 +inf). */
    for (i = 0; i < nnew; i++)
      if (c->r->ev_why[c->r->evaluations + i][0])
        for (size_t j = 0; j < m; j++) c->r->ev_v[(c->r->evaluations + i) * m + j] = NAN;
    memcpy(&c->r->ev_x[c->r->evaluations * n], todo, nnew * n * sizeof *todo);
    for (i = 0; i < nnew; i++)
      if (cf__set_add(&c->hslot, &c->hcap, c->r->ev_x, n, c->r->evaluations + i,
                      c->r->evaluations + i) != 0) {
        free(todo);
        return cf__oom(c, need);
      }
    c->r->evaluations += nnew;
  }
  free(todo);
  for (i = 0; idx && i < nvec; i++) idx[i] = cf__find(c, &xs[i * n]);
  return 0;
}

/* The simulated values of cache entry i. */
static const double *cf__vals(const struct cf__ctx *c, long i) {
  return &c->r->ev_v[(size_t)i * c->s->nmeas];
}

double nicsim_calib_chi2(const struct nicsim_calib_spec *s, const double *values, const bool *mask) {
  double sum = 0;
  for (size_t i = 0; i < s->nmeas; i++) {
    double d;
    if (mask ? !mask[i] : s->meas[i].validate) continue;
    if (isnan(values[i])) return INFINITY;
    d = (values[i] - s->meas[i].value) / s->meas[i].sigma;
    sum += d * d;
  }
  return sum;
}

/* ---- the fit ------------------------------------------------------------------------- */

/* Quantised parameter vector of u (nfree values in [0, 1]) into x. */
static void cf__x_of_u(const struct nicsim_calib_spec *s, const double *u, double *x) {
  for (size_t k = 0; k < s->nfree; k++) x[k] = nicsim_calib_quantise(&s->free[k], cf__to_x(&s->free[k], u[k]));
}

/* Notes x with its chi2 as the fit's best if it is better (the first of equals). */
static void cf__consider(struct cf__ctx *c, const double *x, double chi2) {
  if (chi2 < c->best_chi2) {
    if (!isfinite(c->best_chi2) || c->best_chi2 - chi2 > fmax(CF__FTOL_REL * c->best_chi2, CF__FTOL_ABS))
      c->last_gain = c->calls;
    c->best_chi2 = chi2;
    memcpy(c->best_x, x, c->s->nfree * sizeof *x);
  }
}

/* The NLopt objective: the chi2 of the quantised vector at u. */
static double cf__objective(unsigned n, const double *u, double *grad, void *data) {
  struct cf__ctx *c = data;
  double x[64], chi2;
  long i;
  (void)grad;
  (void)n;
  cf__x_of_u(c->s, u, x);
  c->calls++;
  if (cf__eval(c, x, 1, &i) != 0) return HUGE_VAL;
  chi2 = nicsim_calib_chi2(c->s, cf__vals(c, i), c->mask);
  cf__consider(c, x, chi2);
  return isfinite(chi2) ? chi2 : HUGE_VAL;
}

/* The NLopt algorithm of a method name. */
static nlopt_algorithm cf__algorithm(const char *method) {
  if (strcmp(method, "neldermead") == 0) return NLOPT_LN_NELDERMEAD;
  if (strcmp(method, "bobyqa") == 0) return NLOPT_LN_BOBYQA;
  if (strcmp(method, "cobyla") == 0) return NLOPT_LN_COBYLA;
  return NLOPT_LN_SBPLX;
}

/* Appends to xs the grid vectors (grid^nfree, the first parameter slowest). */
static size_t cf__grid(const struct nicsim_calib_spec *s, double *xs) {
  size_t n = s->nfree, g = s->grid, total = 1, v, k;
  for (k = 0; k < n; k++) total *= g;
  for (v = 0; v < total; v++) {
    size_t rest = v;
    double u[64];
    for (k = n; k-- > 0;) {
      u[k] = (double)(rest % g) / (double)(g - 1);
      rest /= g;
    }
    cf__x_of_u(s, u, &xs[v * n]);
  }
  return total;
}

/* Fits the parameters to the measurements in mask: the start and the grid,
 * then the local method from the best of them. x gets the optimum. */
static int cf__fit(struct cf__ctx *c, const bool *mask, double *x, double *chi2, bool *converged,
                   bool *at_limit, int *nlopt_status, size_t *calls) {
  const struct nicsim_calib_spec *s = c->s;
  size_t n = s->nfree, total = 1, i;
  double *xs, u[64], lb[64], ub[64], dx[64], tol[64], fmin = 0;
  long *idx;
  nlopt_opt opt;
  nlopt_result res;
  for (i = 0; i < n; i++) total *= s->grid;
  xs = malloc((total + 1) * n * sizeof *xs);
  idx = malloc((total + 1) * sizeof *idx);
  if (!xs || !idx) {
    free(xs);
    free(idx);
    return c->status = 2;
  }
  for (i = 0; i < n; i++) xs[i] = nicsim_calib_quantise(&s->free[i], s->free[i].start);
  cf__grid(s, &xs[n]);
  if (cf__eval(c, xs, total + 1, idx) != 0) {
    free(xs);
    free(idx);
    return c->status;
  }
  c->mask = mask;
  c->best_x = x;
  c->best_chi2 = INFINITY;
  c->calls = 0;
  c->last_gain = 0;
  memcpy(x, xs, n * sizeof *x);
  for (i = 0; i <= total; i++) cf__consider(c, &xs[i * n], nicsim_calib_chi2(s, cf__vals(c, idx[i]), mask));
  free(xs);
  free(idx);

  /* The local method from the best point so far. */
  for (i = 0; i < n; i++) {
    u[i] = cf__to_u(&s->free[i], x[i]);
    lb[i] = 0;
    ub[i] = 1;
    dx[i] = 0.5 / (double)(s->grid - 1);
    tol[i] = CF__XTOL;
  }
  opt = nlopt_create(cf__algorithm(s->method), (unsigned)n);
  if (!opt) return c->status = 2;
  nlopt_set_lower_bounds(opt, lb);
  nlopt_set_upper_bounds(opt, ub);
  nlopt_set_min_objective(opt, cf__objective, c);
  nlopt_set_xtol_abs(opt, tol);
  nlopt_set_ftol_abs(opt, CF__FTOL_ABS);
  nlopt_set_ftol_rel(opt, CF__FTOL_REL);
  nlopt_set_maxeval(opt, (int)s->max_evaluations);
  nlopt_set_initial_step(opt, dx);
  nlopt_srand(1); /* no method used here draws random numbers; be sure */
  res = nlopt_optimize(opt, u, &fmin);
  nlopt_destroy(opt);
  if (c->status) return c->status;
  *nlopt_status = (int)res;
  *converged = res == NLOPT_SUCCESS || res == NLOPT_STOPVAL_REACHED || res == NLOPT_FTOL_REACHED ||
               res == NLOPT_XTOL_REACHED || res == NLOPT_ROUNDOFF_LIMITED ||
               (res == NLOPT_MAXEVAL_REACHED && c->calls >= c->last_gain + CF__QUIET(n));
  if (at_limit) *at_limit = res == NLOPT_MAXEVAL_REACHED && !*converged;
  *chi2 = c->best_chi2;
  *calls = c->calls;
  return 0;
}

/* ---- identifiability ----------------------------------------------------------------- */

/* The Jacobian at the optimum, its SVD, the kinks. */
static int cf__jacobian(struct cf__ctx *c) {
  const struct nicsim_calib_spec *s = c->s;
  struct nicsim_calib_result *r = c->r;
  size_t n = s->nfree, m = s->nmeas, k, i;
  double *xs = malloc(2 * n * n * sizeof *xs);
  long *idx = malloc(2 * n * sizeof *idx), i0;
  gsl_matrix *A = NULL, *V = NULL;
  gsl_vector *S = NULL, *w = NULL;
  if (!xs || !idx) goto oom;
  for (k = 0; k < n; k++) {
    double u0 = cf__to_u(&s->free[k], r->x[k]);
    memcpy(&xs[2 * k * n], r->x, n * sizeof *xs);
    memcpy(&xs[(2 * k + 1) * n], r->x, n * sizeof *xs);
    xs[2 * k * n + k] = nicsim_calib_quantise(&s->free[k], cf__to_x(&s->free[k], u0 + CF__STEP));
    xs[(2 * k + 1) * n + k] = nicsim_calib_quantise(&s->free[k], cf__to_x(&s->free[k], u0 - CF__STEP));
  }
  if (cf__eval(c, xs, 2 * n, idx) != 0 || cf__eval(c, r->x, 1, &i0) != 0) {
    free(xs);
    free(idx);
    return c->status;
  }
  for (k = 0; k < n; k++) {
    const struct nicsim_calib_free *f = &s->free[k];
    double xp = xs[2 * k * n + k], xm = xs[(2 * k + 1) * n + k], x0 = r->x[k];
    double up = cf__to_u(f, xp), um = cf__to_u(f, xm), u0 = cf__to_u(f, x0);
    const double *fp = cf__vals(c, idx[2 * k]), *fm = cf__vals(c, idx[2 * k + 1]), *f0 = cf__vals(c, i0);
    r->at_bound[k] = x0 <= f->min ? -1 : x0 >= f->max ? 1 : 0;
    for (i = 0; i < m; i++) {
      double sg = s->meas[i].sigma;
      r->jac[i * n + k] = xp != xm ? (fp[i] - fm[i]) / (xp - xm) : 0;
      r->sens[i * n + k] = up != um ? (fp[i] - fm[i]) / sg / (up - um) : 0;
      if (!s->meas[i].validate && up > u0 && u0 > um) {
        double sf = (fp[i] - f0[i]) / sg / (up - u0), sb = (f0[i] - fm[i]) / sg / (u0 - um);
        double big = fmax(fabs(sf), fabs(sb));
        if (big * CF__STEP >= 1 && fabs(sf - sb) > 0.5 * big) r->cliff[k] = true;
      }
    }
  }
  free(xs);
  free(idx);
  xs = NULL;
  idx = NULL;

  /* Singular values of the calibration rows (ncal >= nfree). */
  A = gsl_matrix_alloc(s->ncal, n);
  V = gsl_matrix_alloc(n, n);
  S = gsl_vector_alloc(n);
  w = gsl_vector_alloc(n);
  if (!A || !V || !S || !w) goto oom;
  for (i = 0; i < s->ncal; i++)
    for (k = 0; k < n; k++) {
      double v = r->sens[i * n + k];
      gsl_matrix_set(A, i, k, isfinite(v) ? v : 0);
    }
  if (s->ncal == 1 && n == 1) { /* GSL's SVD wants M >= N >= 1; 1x1 is its own */
    gsl_vector_set(S, 0, fabs(gsl_matrix_get(A, 0, 0)));
    gsl_matrix_set(V, 0, 0, 1);
  } else {
    gsl_linalg_SV_decomp(A, V, S, w);
  }
  r->rank = 0;
  for (k = 0; k < n; k++) {
    r->sv[k] = gsl_vector_get(S, k);
    if (r->sv[k] > 0 && r->sv[k] > 1e-9 * r->sv[0]) r->rank++;
  }
  r->cond = r->rank == n ? r->sv[0] / r->sv[n - 1] : INFINITY;
  r->ill_conditioned = r->rank < n || r->cond > CF__COND_MAX;
  for (k = 0; k < n; k++) {
    if (r->cliff[k]) r->ill_conditioned = true;
    /* A direction the measurements do not see: the parameters in it trade off. */
    for (size_t j = r->rank; j < n && n > 1; j++)
      if (fabs(gsl_matrix_get(V, k, j)) > 0.1 && r->reason[k][0] == '\0' && r->sv[0] > 0)
        snprintf(r->reason[k], sizeof r->reason[k],
                 "trades off with the other free parameters: only a combination is determined "
                 "(rank %zu of %zu)",
                 r->rank, n);
  }
  gsl_matrix_free(A);
  gsl_matrix_free(V);
  gsl_vector_free(S);
  gsl_vector_free(w);
  return 0;
oom:
  free(xs);
  free(idx);
  gsl_matrix_free(A);
  gsl_matrix_free(V);
  gsl_vector_free(S);
  gsl_vector_free(w);
  return c->status = 2;
}

/* Sorts profile entries (x with its cache index) by x. */
struct cf__pe {
  double x;
  long i;
};
static int cf__cmp_pe(const void *a, const void *b) {
  double x = ((const struct cf__pe *)a)->x, y = ((const struct cf__pe *)b)->x;
  return x < y ? -1 : x > y;
}

/* Where chi2 crosses level between profile points a (inside) and b (outside), in x. */
static double cf__cross(const struct nicsim_calib_free *f, double xa, double ca, double xb,
                        double cb, double level) {
  double ua = cf__to_u(f, xa), ub = cf__to_u(f, xb), t = isfinite(cb) ? (level - ca) / (cb - ca) : 0;
  return cf__to_x(f, ua + t * (ub - ua));
}

/* Parameter k's error profile and identifiability. */
static int cf__profile(struct cf__ctx *c, size_t k) {
  const struct nicsim_calib_spec *s = c->s;
  struct nicsim_calib_result *r = c->r;
  struct nicsim_calib_profile *p = &r->prof[k];
  const struct nicsim_calib_free *f = &s->free[k];
  size_t n = s->nfree, m = s->nmeas, np = s->profile_points + 1, q, j = 0, at = 0;
  double *xs = malloc(np * n * sizeof *xs), cmin, level;
  long *idx = malloc(np * sizeof *idx), i0;
  struct cf__pe *pe = malloc(np * sizeof *pe);
  if (!xs || !idx || !pe) {
    free(xs);
    free(idx);
    free(pe);
    return c->status = 2;
  }
  for (q = 0; q < np; q++) {
    memcpy(&xs[q * n], r->x, n * sizeof *xs);
    if (q + 1 < np)
      xs[q * n + k] = nicsim_calib_quantise(f, cf__to_x(f, (double)q / (double)(np - 2)));
  }
  if (cf__eval(c, xs, np, idx) != 0) {
    free(xs);
    free(idx);
    free(pe);
    return c->status;
  }
  /* Every vector evaluated on this slice (the grid above, and what the fit
   * and the Jacobian evaluated there): distinct values, ascending. */
  free(pe);
  pe = malloc(r->evaluations * sizeof *pe);
  if (!pe) {
    free(xs);
    free(idx);
    return c->status = 2;
  }
  for (size_t e = 0, j2 = 0; e < r->evaluations; e++) {
    const double *ex = &r->ev_x[e * n];
    bool on = true;
    for (size_t t = 0; t < n && on; t++) on = t == k || ex[t] == r->x[t];
    for (j2 = 0; on && j2 < j && pe[j2].x != ex[k]; j2++)
      ;
    if (on && j2 == j) {
      pe[j].x = ex[k];
      pe[j++].i = (long)e;
    }
  }
  qsort(pe, j, sizeof *pe, cf__cmp_pe);
  p->n = j;
  p->x = malloc(j * sizeof *p->x);
  p->chi2 = malloc(j * sizeof *p->chi2);
  p->sim = malloc(j * m * sizeof *p->sim);
  if (!p->x || !p->chi2 || !p->sim) {
    free(xs);
    free(idx);
    free(pe);
    return c->status = 2;
  }
  i0 = cf__find(c, r->x);
  p->max_move = 0;
  for (q = 0; q < j; q++) {
    const double *v = cf__vals(c, pe[q].i), *v0 = cf__vals(c, i0);
    p->x[q] = pe[q].x;
    p->chi2[q] = nicsim_calib_chi2(s, v, NULL);
    memcpy(&p->sim[q * m], v, m * sizeof *v);
    if (p->x[q] == r->x[k]) at = q;
    for (size_t i = 0; i < s->ncal; i++) {
      double d = fabs(v[i] - v0[i]) / s->meas[i].sigma;
      if (isfinite(d) && d > p->max_move) p->max_move = d;
      else if (!isfinite(d) && isnan(v[i]) != isnan(v0[i])) p->max_move = INFINITY;
    }
  }
  cmin = p->chi2[at];
  level = cmin + 1;
  p->lo_bound = true;
  p->lo = p->x[0];
  for (q = at; q-- > 0;)
    if (!(p->chi2[q] <= level)) {
      p->lo = cf__cross(f, p->x[q + 1], p->chi2[q + 1], p->x[q], p->chi2[q], level);
      p->lo_bound = false;
      break;
    }
  p->hi_bound = true;
  p->hi = p->x[j - 1];
  for (q = at + 1; q < j; q++)
    if (!(p->chi2[q] <= level)) {
      p->hi = cf__cross(f, p->x[q - 1], p->chi2[q - 1], p->x[q], p->chi2[q], level);
      p->hi_bound = false;
      break;
    }
  if (p->max_move < 1) {
    r->identifiable[k] = false;
    snprintf(r->reason[k], sizeof r->reason[k],
             "moves no calibration measurement by 1 sigma over [%.6g, %.6g] (at most %.3g sigma)",
             f->min, f->max, p->max_move);
  } else if (p->lo_bound && p->hi_bound) {
    r->identifiable[k] = false;
    snprintf(r->reason[k], sizeof r->reason[k],
             "its error profile stays within 1 of its minimum over the whole range [%.6g, %.6g]",
             f->min, f->max);
  } else {
    r->identifiable[k] = r->reason[k][0] == '\0'; /* not in a trade-off (the SVD's) */
  }
  free(xs);
  free(idx);
  free(pe);
  return 0;
}

/* ---- the run ----------------------------------------------------------------------- */

/* A new result with its arrays, or NULL. */
static struct nicsim_calib_result *cf__result_new(const struct nicsim_calib_spec *s) {
  struct nicsim_calib_result *r = calloc(1, sizeof *r);
  size_t n = s->nfree, m = s->nmeas;
  if (!r) return NULL;
  r->nfree = n;
  r->nmeas = m;
  r->x = calloc(n, sizeof *r->x);
  r->sim = calloc(m, sizeof *r->sim);
  r->jac = calloc(m * n, sizeof *r->jac);
  r->sens = calloc(m * n, sizeof *r->sens);
  r->sv = calloc(n, sizeof *r->sv);
  r->identifiable = calloc(n, sizeof *r->identifiable);
  r->reason = calloc(n, sizeof *r->reason);
  r->cliff = calloc(n, sizeof *r->cliff);
  r->at_bound = calloc(n, sizeof *r->at_bound);
  r->prof = calloc(n, sizeof *r->prof);
  if (!r->x || !r->sim || !r->jac || !r->sens || !r->sv || !r->identifiable || !r->reason ||
      !r->cliff || !r->at_bound || !r->prof) {
    nicsim_calib_result_free(r);
    return NULL;
  }
  return r;
}

void nicsim_calib_result_free(struct nicsim_calib_result *r) {
  if (!r) return;
  for (size_t k = 0; r->prof && k < r->nfree; k++) {
    free(r->prof[k].x);
    free(r->prof[k].chi2);
    free(r->prof[k].sim);
  }
  for (size_t i = 0; r->folds && i < r->nmeas; i++) free(r->folds[i].x);
  free(r->folds);
  free(r->prof);
  free(r->x);
  free(r->sim);
  free(r->jac);
  free(r->sens);
  free(r->sv);
  free(r->identifiable);
  free(r->reason);
  free(r->cliff);
  free(r->at_bound);
  free(r->ev_x);
  free(r->ev_v);
  free(r->ev_why);
  free(r);
}

/* Checks the start's values: a metric its point does not report is the spec's mistake. */
static int cf__check_metrics(struct cf__ctx *c, const double *v) {
  for (size_t i = 0; i < c->s->nmeas; i++) {
    const struct nicsim_calib_meas *x = &c->s->meas[i];
    if (!isnan(v[i])) continue;
    fprintf(stderr,
            "%s:%d:%d: error: point %s does not report metric '%s'\n"
            "  hint: measure a metric this scenario's runs report (its points' JSON files list "
            "them; docs/metrics.md says when each is reported)\n",
            x->metric_at.file, x->metric_at.line, x->metric_at.col,
            x->point[0] ? x->point : "(the scenario's one point)", x->metric);
    return 2;
  }
  return 0;
}

/* An error (2) naming the first measurement whose chi2 term at values
 * (what: "the start", "the fit") is not a finite number though the point
 * simulated: a measured value or sigma so extreme that the fit means
 * nothing (1e308, or a sigma of 1e-300). 0 if every term is finite. */
static int cf__check_finite(const struct cf__ctx *c, const double *v, const char *what) {
  const struct nicsim_calib_spec *s = c->s;
  for (size_t i = 0; i < s->nmeas; i++) {
    const struct nicsim_calib_meas *x = &s->meas[i];
    double d = (v[i] - x->value) / x->sigma;
    char name[NC_STR_MAX + 100];
    if (isnan(v[i]) || isfinite(d * d)) continue;
    nicsim_calib_meas_name(x, name, sizeof name);
    fprintf(stderr,
            "%s:%d:%d: error: measurement %s: at %s, ((simulated %.6g - measured %.6g) / sigma "
            "%.6g)^2 is not a finite number, so chi2 is not either\n"
            "  hint: check value: and sigma: (a measured value the simulator cannot approach "
            "within 1e154 sigma is a typo or a wrong unit)\n",
            x->at.file, x->at.line, x->at.col, name, what, v[i], x->value, x->sigma);
    return 2;
  }
  return 0;
}

int nicsim_calib_run(const struct nicsim_calib_spec *s, const struct nicsim_calib_evaluator *ev,
                     const struct nicsim_calib_opts *o, struct nicsim_calib_result **out) {
  struct cf__ctx c;
  struct nicsim_calib_result *r = cf__result_new(s);
  double x0[64];
  bool *mask = NULL;
  long i0;
  int st;
  *out = NULL;
  if (!r) return 2;
  if (s->nfree > NICSIM_CALIB_MAX_FREE) { /* the spec loader refuses such a spec first */
    fprintf(stderr, "%s: error: at most %d free parameters\n", s->file, NICSIM_CALIB_MAX_FREE);
    nicsim_calib_result_free(r);
    return 2;
  }
  memset(&c, 0, sizeof c);
  c.s = s;
  c.ev = ev;
  c.r = r;
  c.log = o ? o->log : NULL;

  /* The start first: it shows a metric the points do not report before any grid. */
  for (size_t k = 0; k < s->nfree; k++) x0[k] = nicsim_calib_quantise(&s->free[k], s->free[k].start);
  if (c.log) fprintf(c.log, "nicsim calibrate: %s: the start\n", s->name);
  if ((st = cf__eval(&c, x0, 1, &i0)) != 0) goto fail;
  if (r->ev_why[i0][0]) { /* no values to check the metrics with */
    if (c.log) fprintf(c.log, "nicsim calibrate: the start is no match: %s\n", r->ev_why[i0]);
  } else if ((st = cf__check_metrics(&c, cf__vals(&c, i0))) != 0 ||
             (st = cf__check_finite(&c, cf__vals(&c, i0), "the start")) != 0) {
    goto fail;
  }
  if (c.log) fprintf(c.log, "nicsim calibrate: fitting %zu parameter%s to %zu measurement%s\n",
                     s->nfree, s->nfree == 1 ? "" : "s", s->ncal, s->ncal == 1 ? "" : "s");
  if ((st = cf__fit(&c, NULL, r->x, &r->chi2, &r->converged, &r->at_eval_limit, &r->nlopt_status,
                    &r->local_evaluations)) != 0)
    goto fail;
  if ((st = cf__eval(&c, r->x, 1, &i0)) != 0) goto fail;
  memcpy(r->sim, cf__vals(&c, i0), s->nmeas * sizeof *r->sim);
  if ((st = cf__check_finite(&c, r->sim, "the fit's optimum")) != 0) goto fail;
  for (size_t k = 0; k < s->nfree; k++)
    if (!isfinite(r->x[k])) {
      fprintf(stderr, "%s:%d:%d: error: the fit of %s ended at a value that is not a number\n",
              s->free[k].at.file, s->free[k].at.line, s->free[k].at.col, s->free[k].key->path);
      st = 2;
      goto fail;
    }
  if (c.log) fprintf(c.log, "nicsim calibrate: chi2 %.6g after %zu evaluations; Jacobian and profiles\n",
                     r->chi2, r->evaluations);
  if ((st = cf__jacobian(&c)) != 0) goto fail;
  for (size_t k = 0; k < s->nfree; k++)
    if ((st = cf__profile(&c, k)) != 0) goto fail;

  if (o && o->cv) {
    r->cv = true;
    r->folds = calloc(s->nmeas, sizeof *r->folds);
    mask = calloc(s->nmeas, sizeof *mask);
    if (!r->folds || !mask) {
      st = 2;
      goto fail;
    }
    for (size_t j = 0; j < s->nmeas; j++) {
      struct nicsim_calib_fold *f = &r->folds[j];
      int nst;
      size_t calls;
      for (size_t i = 0; i < s->nmeas; i++) mask[i] = i != j;
      f->predicted = NAN;
      f->chi2 = NAN;
      if (s->nmeas - 1 < s->nfree) {
        f->skipped = true;
        continue;
      }
      if (!(f->x = calloc(s->nfree, sizeof *f->x))) {
        st = 2;
        goto fail;
      }
      if (c.log) {
        char name[NC_STR_MAX + 100];
        nicsim_calib_meas_name(&s->meas[j], name, sizeof name);
        fprintf(c.log, "nicsim calibrate: cross-validation %zu/%zu: predicting %s\n", j + 1,
                s->nmeas, name);
      }
      if ((st = cf__fit(&c, mask, f->x, &f->chi2, &f->converged, NULL, &nst, &calls)) != 0 ||
          (st = cf__eval(&c, f->x, 1, &i0)) != 0)
        goto fail;
      f->predicted = cf__vals(&c, i0)[j];
    }
  }
  free(mask);
  free(c.hslot);
  if (c.log) fprintf(c.log, "nicsim calibrate: %zu parameter vectors evaluated\n", r->evaluations);
  *out = r;
  return 0;
fail:
  free(mask);
  free(c.hslot);
  nicsim_calib_result_free(r);
  return st;
}

long nicsim_calib_worst_pull(const struct nicsim_calib_spec *spec, const struct nicsim_calib_result *r,
                             double *pull) {
  long w = -1;
  *pull = 0;
  for (size_t i = spec->ncal; i < spec->nmeas; i++) {
    double p = (r->sim[i] - spec->meas[i].value) / spec->meas[i].sigma;
    if (isfinite(p) && (w < 0 || fabs(p) > fabs(*pull))) {
      w = (long)i;
      *pull = p;
    }
  }
  return w;
}

const char *nicsim_calib_convergence(const struct nicsim_calib_result *r) {
  if (r->converged) return "converged";
  if (r->at_eval_limit) return "NOT converged: stopped at the evaluation limit before the tolerance was met";
  return "NOT converged: the local method failed";
}
