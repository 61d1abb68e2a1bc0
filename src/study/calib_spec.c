/* calib_spec.c: loading a calibration spec (docs/calibration.md) through the
 * config loader's YAML tree, so every mistake has file:line:col, with the
 * refusals of dishonest specs; the spec's identity; quantised values. */
#define _XOPEN_SOURCE 700

#include "study/calib.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config_internal.h"
#include "drivers/driver.h"
#include "results/metrics.h"
#include "results/output.h"
#include "sim/sim.h"

/* The loader's state. */
struct cs__loader {
  struct nicsim_calib_spec *s;
  struct nc_error *err;
};

/* Fills the error at node n of the spec; evaluates to -1. */
#define CS__FAIL(L, n, hint, ...) \
  (nc__error_set((L)->err, (L)->s->file, (n)->line, (n)->col, hint, __VA_ARGS__), -1)

/* The value of key in mapping m, or NULL. */
#define cs__get nc__map_get

/* Checks that mapping m (named what) holds only the given words. */
static int cs__only(struct cs__loader *L, const struct nc__node *m, const char *what,
                    const char *const *words, size_t nwords) {
  return nc__map_only(L->s->file, L->err, m, what, words, nwords);
}

/* Text of scalar v (what names it) into buf: printable, at most n-1 bytes,
 * not empty. */
static int cs__text(struct cs__loader *L, const struct nc__node *v, const char *what, char *buf,
                    size_t n) {
  const char *c;
  if (v->kind != NC__SCALAR)
    return CS__FAIL(L, v, "write one line of text", "%s must be a single value, not %s", what,
                    nc__node_kind_name(v));
  if (v->text[0] == '\0') return CS__FAIL(L, v, NULL, "%s is empty", what);
  if (strlen(v->text) >= n)
    return CS__FAIL(L, v, NULL, "%s is longer than %zu bytes", what, n - 1);
  if ((c = nc__find_ctrl(v->text)) != NULL)
    return CS__FAIL(L, v, "use printable characters only; YAML escapes such as \\n are not "
                          "accepted here",
                    "%s contains a control character (byte %zu)", what,
                    (size_t)(c - v->text) + 1);
  snprintf(buf, n, "%s", v->text);
  return 0;
}

/* A finite number, written plain (unquoted). */
static int cs__number(struct cs__loader *L, const struct nc__node *v, const char *what,
                      double *out) {
  char *end = NULL;
  if (v->kind != NC__SCALAR || v->quoted)
    return CS__FAIL(L, v, "write a plain number such as 1000 or 2.5e-3",
                    "%s must be a number, not %s", what,
                    v->kind == NC__SCALAR ? "quoted text" : nc__node_kind_name(v));
  errno = 0;
  *out = strtod(v->text, &end);
  if (end == v->text || *end != '\0' || errno == ERANGE || !isfinite(*out))
    return CS__FAIL(L, v, "write a plain finite number such as 1000 or 2.5e-3",
                    "%s: '%s' is not a number", what, v->text);
  return 0;
}

/* A whole number in [lo, hi], parsed as the config's integer keys are
 * (nc_int_parse: never through a double, so 2.9999999999999999 and 3e0 are
 * no integers). */
static int cs__count(struct cs__loader *L, const struct nc__node *v, const char *what, size_t lo,
                     size_t hi, size_t *out) {
  int64_t i;
  int rc;
  char hint[128];
  nc__fmt(hint, sizeof hint, "a whole number from %zu to %zu, written plain (e.g. %zu)", lo, hi,
          lo);
  if (v->kind != NC__SCALAR || v->quoted)
    return CS__FAIL(L, v, hint, "%s must be a whole number, not %s", what,
                    v->kind == NC__SCALAR ? "quoted text" : nc__node_kind_name(v));
  rc = nc_int_parse(v->text, (int64_t)lo, (int64_t)hi, &i);
  if (rc == 1) return CS__FAIL(L, v, hint, "%s: '%s' is not a whole number", what, v->text);
  if (rc != 0) return CS__FAIL(L, v, hint, "%s: %s is out of range", what, v->text);
  *out = (size_t)i;
  return 0;
}

size_t nicsim_calib_estimate(const struct nicsim_calib_spec *s, bool cv) {
  size_t grid = 1, fit, total, k;
  for (k = 0; k < s->nfree; k++)
    grid = grid > SIZE_MAX / (s->grid ? s->grid : 1) ? SIZE_MAX : grid * s->grid;
  fit = grid > SIZE_MAX - s->max_evaluations - 2 ? SIZE_MAX : grid + s->max_evaluations + 2;
  total = fit;
  if (cv) total = fit > SIZE_MAX / (s->nmeas + 1) ? SIZE_MAX : fit * (s->nmeas + 1);
  k = 2 * s->nfree + s->nfree * (s->profile_points + 1);
  return total > SIZE_MAX - k ? SIZE_MAX : total + k;
}

/* The position of node n in the spec, into *o. */
static void cs__at(const struct cs__loader *L, const struct nc__node *n, struct nc_origin *o) {
  memset(o, 0, sizeof *o);
  nc__fmt(o->file, sizeof o->file, "%s", L->s->file);
  o->line = n->line;
  o->col = n->col;
}

/* "L:C" of an origin (the same file). */
static void cs__lc(const struct nc_origin *o, char *buf, size_t n) {
  nc__fmt(buf, n, "%d:%d", o->line, o->col);
}

/* ---- the scenario and set: ------------------------------------------------- */

/* Loads the scenario named by scalar v, relative to the spec's directory. */
static int cs__scenario(struct cs__loader *L, const struct nc__node *v) {
  struct nicsim_calib_spec *s = L->s;
  struct nc_error e;
  const char *slash;
  if (cs__text(L, v, "scenario", s->scenario, sizeof s->scenario)) return -1;
  memset(&e, 0, sizeof e);
  if (strncmp(s->scenario, "builtin:", 8) == 0) {
    s->scenario_builtin = true;
    nc__fmt(s->scenario_path, sizeof s->scenario_path, "%s", s->scenario + 8);
    if (nc_scenario_load_builtin(s->scenario_path, &s->scen, &e) == 0) return 0;
  } else {
    slash = strrchr(s->file, '/');
    if (slash != NULL && s->scenario[0] != '/' &&
        (size_t)(slash - s->file) + 1 + strlen(s->scenario) >= sizeof s->scenario_path)
      return CS__FAIL(L, v, "move the files to a shorter path",
                      "the scenario's path (the spec's directory and '%s') is longer than %zu "
                      "bytes",
                      s->scenario, sizeof s->scenario_path - 1);
    if (s->scenario[0] == '/' || slash == NULL)
      nc__fmt(s->scenario_path, sizeof s->scenario_path, "%s", s->scenario);
    else
      nc__fmt(s->scenario_path, sizeof s->scenario_path, "%.*s/%s", (int)(slash - s->file),
              s->file, s->scenario);
    if (nc_scenario_load(s->scenario_path, &s->scen, &e) == 0) return 0;
  }
  if (e.where.line > 0) { /* a mistake inside the scenario: report it there */
    char hint[sizeof e.hint];
    nc__fmt(hint, sizeof hint, "%s%s(scenario named at %s:%d:%d)", e.hint, e.hint[0] ? " " : "",
            s->file, v->line, v->col);
    nc__error_set(L->err, e.where.file, e.where.line, e.where.col, hint, "%s", e.msg);
    return -1;
  }
  return CS__FAIL(L, v,
                  "the path is relative to the spec's directory; builtin:NAME names a scenario "
                  "compiled into nicsim",
                  "cannot load scenario '%s': %s", s->scenario, e.msg);
}

/* set: KEY: VALUE overrides of every point, checked as --set. */
static int cs__sets(struct cs__loader *L, const struct nc__node *m) {
  return nc__map_sets(L->s->file, L->err, m, "set", &L->s->sets, &L->s->nsets);
}

/* ---- free: ------------------------------------------------------------------------ */

/* One entry of free:. */
static int cs__free_one(struct cs__loader *L, const struct nc__node *m,
                        struct nicsim_calib_free *f) {
  static const char *const words[] = {"key", "min", "max", "start", "scale", "why"};
  const struct nc__node *kv, *minv, *maxv, *startv, *scalev, *whyv;
  char hint[512], path[300];
  if (m->kind != NC__MAP)
    return CS__FAIL(L, m, "e.g. - {key: nic.reg_read_ns, min: 100, max: 5000, why: \"...\"}",
                    "an entry of free must be a mapping, not %s", nc__node_kind_name(m));
  if (cs__only(L, m, "a free parameter", words, sizeof words / sizeof *words)) return -1;
  if ((kv = cs__get(m, "key", NULL)) == NULL)
    return CS__FAIL(L, m, "name the config key to calibrate, e.g. key: nic.reg_read_ns",
                    "a free parameter needs key:");
  if (cs__text(L, kv, "key", path, sizeof path)) return -1;
  cs__at(L, kv, &f->at);
  if ((f->key = nc_key_find(path)) == NULL) {
    const struct nc_key *near = nc_key_suggest(path);
    if (near) nc__fmt(hint, sizeof hint, "did you mean '%s'?", near->path);
    else nc__fmt(hint, sizeof hint, "the keys are listed in docs/config.md");
    return CS__FAIL(L, kv, hint, "unknown key '%s'", path);
  }
  if (f->key->type != NC_INT && f->key->type != NC_REAL)
    return CS__FAIL(L, kv, "a free parameter is a number the fit can move: an int or real key",
                    "%s is not a number (it takes %s)", path,
                    f->key->type == NC_BOOL ? "true or false" : "one of a set of values");
  if ((minv = cs__get(m, "min", NULL)) == NULL || (maxv = cs__get(m, "max", NULL)) == NULL)
    return CS__FAIL(L, m, "give the range the fit may search: min: and max:",
                    "free parameter %s needs min: and max:", path);
  if (cs__number(L, minv, "min", &f->min) || cs__number(L, maxv, "max", &f->max)) return -1;
  nc__fmt(hint, sizeof hint, "%s takes values in [%.17g, %.17g]", path, f->key->min, f->key->max);
  if (f->min < f->key->min || f->min > f->key->max)
    return CS__FAIL(L, minv, hint, "min %s is outside the range of %s", minv->text, path);
  if (f->max < f->key->min || f->max > f->key->max)
    return CS__FAIL(L, maxv, hint, "max %s is outside the range of %s", maxv->text, path);
  if (f->min >= f->max)
    return CS__FAIL(L, maxv, "max must be above min", "max %s is not above min %s", maxv->text,
                    minv->text);
  if (f->key->type == NC_INT && ceil(f->min) > floor(f->max))
    return CS__FAIL(L, maxv, "an int key needs a whole number between min and max",
                    "no whole number lies in [%s, %s]", minv->text, maxv->text);
  f->scale = NICSIM_CALIB_LINEAR;
  if ((scalev = cs__get(m, "scale", NULL)) != NULL) {
    if (scalev->kind != NC__SCALAR ||
        (strcmp(scalev->text, "linear") != 0 && strcmp(scalev->text, "log") != 0))
      return CS__FAIL(L, scalev, "write linear or log", "scale must be linear or log");
    if (strcmp(scalev->text, "log") == 0) f->scale = NICSIM_CALIB_LOG;
  }
  if (f->scale == NICSIM_CALIB_LOG && f->min <= 0)
    return CS__FAIL(L, minv, "a log scale needs min > 0; use scale: linear, or a positive min",
                    "scale log with min %s", minv->text);
  if ((startv = cs__get(m, "start", NULL)) != NULL) {
    if (cs__number(L, startv, "start", &f->start)) return -1;
    if (f->start < f->min || f->start > f->max)
      return CS__FAIL(L, startv, "start must lie in [min, max]", "start %s is outside [%s, %s]",
                      startv->text, minv->text, maxv->text);
    f->start_given = true;
  }
  if ((whyv = cs__get(m, "why", NULL)) == NULL)
    return CS__FAIL(L, m, "say why the value is unknown, e.g. why: \"FPGA register read time: "
                          "not published\"",
                    "free parameter %s needs why:", path);
  return cs__text(L, whyv, "why", f->why, sizeof f->why);
}

/* free: a non-empty list of distinct keys. */
static int cs__free(struct cs__loader *L, const struct nc__node *v) {
  struct nicsim_calib_spec *s = L->s;
  if (v->kind != NC__SEQ || v->n == 0)
    return CS__FAIL(L, v, "list the unknowns: free: [{key: ..., min: ..., max: ..., why: ...}]",
                    "free must be a non-empty list");
  if (v->n > NICSIM_CALIB_MAX_FREE)
    return CS__FAIL(L, v->items[NICSIM_CALIB_MAX_FREE],
                    "calibrate a few unknowns at a time (each free key multiplies the grid)",
                    "a spec may free at most %d keys; this one frees %zu", NICSIM_CALIB_MAX_FREE,
                    v->n);
  if ((s->free = calloc(v->n, sizeof *s->free)) == NULL) return CS__FAIL(L, v, NULL, "out of memory");
  for (size_t i = 0; i < v->n; i++) {
    if (cs__free_one(L, v->items[i], &s->free[i])) return -1;
    for (size_t j = 0; j < i; j++)
      if (s->free[j].key == s->free[i].key) {
        char at[32];
        cs__lc(&s->free[j].at, at, sizeof at);
        return CS__FAIL(L, cs__get(v->items[i], "key", NULL), "declare each unknown once",
                        "%s is free twice (first at %s)", s->free[i].key->path, at);
      }
    s->nfree++;
  }
  return 0;
}

/* ---- measurements: ---------------------------------------------------------------- */

/* Hint for an unknown point label: the nearest label, or some of them. */
static void cs__label_hint(const struct nc_scenario *scen, const char *label, char *hint,
                           size_t n) {
  size_t np = nc_scenario_npoints(scen), best = np, bestd = (size_t)-1, i;
  size_t len = strlen(label), limit = len <= 6 ? 2 : len / 3;
  char list[300] = "";
  for (i = 0; i < np; i++) {
    size_t d = nc__edit_distance(label, nc_scenario_point_label(scen, i));
    if (d < bestd) bestd = d, best = i;
  }
  if (best < np && bestd <= limit) {
    nc__fmt(hint, n, "did you mean '%s'?", nc_scenario_point_label(scen, best));
    return;
  }
  for (i = 0; i < np && i < 6; i++)
    nc__fmt(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
            nc_scenario_point_label(scen, i));
  nc__fmt(hint, n, "the scenario's points are %s%s ('nicsim sweep SCENARIO --dry-run' lists them)",
          list, np > 6 ? ", ..." : "");
}

/* One entry of a measurement list. */
static int cs__meas_one(struct cs__loader *L, const struct nc__node *m, bool validate,
                        struct nicsim_calib_meas *x) {
  static const char *const words[] = {"point", "metric", "value", "sigma", "source"};
  const struct nicsim_calib_spec *s = L->s;
  const struct nc__node *pv, *mv, *vv, *sv, *srcv;
  char hint[512];
  if (m->kind != NC__MAP)
    return CS__FAIL(L, m, "e.g. - {point: before, metric: tx.gbps, value: 0.143, source: \"...\"}",
                    "a measurement must be a mapping, not %s", nc__node_kind_name(m));
  if (cs__only(L, m, "a measurement", words, sizeof words / sizeof *words)) return -1;
  x->validate = validate;
  cs__at(L, m, &x->at);
  pv = cs__get(m, "point", NULL);
  if (nc_scenario_npoints(s->scen) == 0) {
    if (pv != NULL && !(pv->kind == NC__SCALAR && pv->text[0] == '\0'))
      return CS__FAIL(L, pv, "leave point: out: the scenario has no sweep, so it is one point",
                      "the scenario has no sweep points");
    x->point[0] = '\0';
  } else {
    if (pv == NULL)
      return CS__FAIL(L, m, "name a point label of the scenario's sweep",
                      "a measurement needs point:");
    if (cs__text(L, pv, "point", x->point, sizeof x->point)) return -1;
    if (nc_scenario_find_point(s->scen, x->point) < 0) {
      cs__label_hint(s->scen, x->point, hint, sizeof hint);
      return CS__FAIL(L, pv, hint, "the scenario has no point '%s'", x->point);
    }
  }
  if ((mv = cs__get(m, "metric", NULL)) == NULL)
    return CS__FAIL(L, m, "name a metric of docs/metrics.md, e.g. metric: tx.gbps",
                    "a measurement needs metric:");
  if (cs__text(L, mv, "metric", x->metric, sizeof x->metric)) return -1;
  cs__at(L, mv, &x->metric_at);
  if (nicsim_metric_find(x->metric) < 0 && !nicsim_metric_is_extra_name(x->metric)) {
    const char *near = nicsim_metric_suggest(x->metric);
    if (near) nc__fmt(hint, sizeof hint, "did you mean '%s'? The metrics are in docs/metrics.md", near);
    else nc__fmt(hint, sizeof hint, "the metrics are listed in docs/metrics.md");
    return CS__FAIL(L, mv, hint, "unknown metric '%s'", x->metric);
  }
  if (nicsim_metric_find(x->metric) >= 0 &&
      nicsim_metric_defs()[nicsim_metric_find(x->metric)].kind == NM_KIND_WALL)
    return CS__FAIL(L, mv, "measure a simulated figure", "'%s' is the simulator's wall-clock time",
                    x->metric);
  if ((vv = cs__get(m, "value", NULL)) == NULL)
    return CS__FAIL(L, m, "give the measured value, in the metric's unit (docs/metrics.md)",
                    "a measurement needs value:");
  if (cs__number(L, vv, "value", &x->value)) return -1;
  /* The outputs compute with it (residuals, percentages, plot ranges): a
   * value near the largest double would overflow them. */
  if (fabs(x->value) > NICSIM_CALIB_VALUE_MAX)
    return CS__FAIL(L, vv, "give the value in the metric's unit (docs/metrics.md); a typo?",
                    "value %s is beyond %g in magnitude, so no fit to it means anything",
                    vv->text, NICSIM_CALIB_VALUE_MAX);
  if ((sv = cs__get(m, "sigma", NULL)) != NULL) {
    if (cs__number(L, sv, "sigma", &x->sigma)) return -1;
    if (x->sigma > NICSIM_CALIB_VALUE_MAX)
      return CS__FAIL(L, sv, "sigma is an absolute uncertainty in the metric's unit",
                      "sigma %s is beyond %g", sv->text, NICSIM_CALIB_VALUE_MAX);
    if (x->sigma <= 0)
      return CS__FAIL(L, sv, "sigma is an absolute uncertainty, above 0", "sigma %s is not above 0",
                      sv->text);
    x->sigma_given = true;
  } else {
    x->sigma = 0.02 * fabs(x->value);
    if (x->sigma == 0)
      return CS__FAIL(L, vv, "a value of 0 has no 2 % default uncertainty: give sigma:",
                      "value 0 needs sigma:");
  }
  if ((srcv = cs__get(m, "source", NULL)) == NULL)
    return CS__FAIL(L, m, "say where the number comes from, e.g. source: \"seed 001, iperf3 "
                          "sender line\"",
                    "a measurement needs source:");
  return cs__text(L, srcv, "source", x->source, sizeof x->source);
}

/* A list of measurements into s->meas (appending). */
static int cs__meas_list(struct cs__loader *L, const struct nc__node *v, bool validate) {
  struct nicsim_calib_spec *s = L->s;
  if (v->kind != NC__SEQ || (!validate && v->n == 0))
    return CS__FAIL(L, v, "a list of {point, metric, value, sigma, source}",
                    "measurements.%s must be a %slist", validate ? "validate" : "calibrate",
                    validate ? "" : "non-empty ");
  for (size_t i = 0; i < v->n; i++) {
    struct nicsim_calib_meas *x = &s->meas[s->nmeas];
    if (cs__meas_one(L, v->items[i], validate, x)) return -1;
    for (size_t j = 0; j < s->nmeas; j++) {
      const struct nicsim_calib_meas *y = &s->meas[j];
      char at[32];
      if (strcmp(x->point, y->point) != 0 || strcmp(x->metric, y->metric) != 0) continue;
      cs__lc(&y->at, at, sizeof at);
      if (y->validate == validate)
        return CS__FAIL(L, v->items[i], "measure each (point, metric) once; combine repeated "
                                        "measurements into one value and sigma",
                        "%s %s is measured twice (first at %s)", x->point, x->metric, at);
      return CS__FAIL(L, v->items[i],
                      "a prediction is judged only on measurements the fit never saw: keep it "
                      "under one list",
                      "%s %s is both calibrated (at %s) and validated", x->point, x->metric, at);
    }
    s->nmeas++;
  }
  return 0;
}

/* measurements: calibrate and validate. */
static int cs__measurements(struct cs__loader *L, const struct nc__node *v) {
  static const char *const words[] = {"calibrate", "validate"};
  struct nicsim_calib_spec *s = L->s;
  const struct nc__node *cal, *val;
  size_t n;
  if (v->kind != NC__MAP)
    return CS__FAIL(L, v, "measurements: {calibrate: [...], validate: [...]}",
                    "measurements must be a mapping");
  if (cs__only(L, v, "measurements", words, 2)) return -1;
  if ((cal = cs__get(v, "calibrate", NULL)) == NULL)
    return CS__FAIL(L, v, "list the measurements to fit to under calibrate:",
                    "measurements needs calibrate:");
  val = cs__get(v, "validate", NULL);
  n = (cal->kind == NC__SEQ ? cal->n : 0) + (val && val->kind == NC__SEQ ? val->n : 0);
  if ((s->meas = calloc(n ? n : 1, sizeof *s->meas)) == NULL)
    return CS__FAIL(L, v, NULL, "out of memory");
  if (cs__meas_list(L, cal, false)) return -1;
  s->ncal = s->nmeas;
  return val ? cs__meas_list(L, val, true) : 0;
}

/* fit: options. */
static int cs__fit(struct cs__loader *L, const struct nc__node *v) {
  static const char *const words[] = {"grid", "profile_points", "max_evaluations", "method"};
  static const char *const methods[] = {"sbplx", "neldermead", "bobyqa", "cobyla"};
  struct nicsim_calib_spec *s = L->s;
  const struct nc__node *x;
  if (v->kind != NC__MAP)
    return CS__FAIL(L, v, "fit: {grid: 9, profile_points: 9, max_evaluations: 60, method: sbplx}",
                    "fit must be a mapping");
  if (cs__only(L, v, "fit", words, 4)) return -1;
  if ((x = cs__get(v, "grid", NULL)) && cs__count(L, x, "fit.grid", 2, 50, &s->grid)) return -1;
  if ((x = cs__get(v, "profile_points", NULL)) &&
      cs__count(L, x, "fit.profile_points", 3, 200, &s->profile_points))
    return -1;
  if ((x = cs__get(v, "max_evaluations", NULL)) &&
      cs__count(L, x, "fit.max_evaluations", 1, 100000, &s->max_evaluations))
    return -1;
  if ((x = cs__get(v, "method", NULL)) != NULL) {
    size_t i;
    for (i = 0; i < 4 && !(x->kind == NC__SCALAR && strcmp(x->text, methods[i]) == 0); i++)
      ;
    if (i == 4)
      return CS__FAIL(L, x, "NLopt's bound-constrained derivative-free methods: sbplx (default), "
                            "neldermead, bobyqa, cobyla",
                      "unknown fit.method");
    nc__fmt(s->method, sizeof s->method, "%s", methods[i]);
  }
  return 0;
}

/* ---- checks across the spec and its scenario --------------------------------------- */

/* Index of the distinct point of label (adding it), ascending in s->points. */
static void cs__points(struct nicsim_calib_spec *s) {
  size_t i, j;
  for (i = 0; i < s->nmeas; i++) {
    long p = s->meas[i].point[0] ? nc_scenario_find_point(s->scen, s->meas[i].point) : -1;
    for (j = 0; j < s->npoints && s->points[j] != p; j++)
      ;
    if (j == s->npoints) s->points[s->npoints++] = p;
  }
  for (i = 1; i < s->npoints; i++) /* insertion sort: a handful of points */
    for (j = i; j > 0 && s->points[j - 1] > s->points[j]; j--) {
      long t = s->points[j];
      s->points[j] = s->points[j - 1];
      s->points[j - 1] = t;
    }
  for (i = 0; i < s->nmeas; i++) {
    long p = s->meas[i].point[0] ? nc_scenario_find_point(s->scen, s->meas[i].point) : -1;
    for (j = 0; s->points[j] != p; j++)
      ;
    s->meas[i].upoint = j;
  }
}

/* Resolves point p with set: and, if f is not NULL, f's key at x; checks the
 * models' and the driver's rules (nicsim_check_config). 0 or -1 with e filled. */
static int cs__resolve(const struct nicsim_calib_spec *s, long p, const struct nicsim_calib_free *f,
                       double x, struct nicsim_config *c, struct nc_error *e) {
  char extra[NC_STR_MAX + 64];
  const char **sets = calloc(s->nsets + 1, sizeof *sets);
  int r;
  if (!sets) {
    nc__error_set(e, s->file, 0, 0, NULL, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < s->nsets; i++) sets[i] = s->sets[i];
  if (f) {
    nicsim_calib_assignment(f, x, extra, sizeof extra);
    sets[s->nsets] = extra;
  }
  memset(e, 0, sizeof *e);
  r = nc_scenario_resolve(s->scen, p, sets, s->nsets + (f ? 1 : 0), c, e);
  if (r == 0) r = nicsim_check_config(c, e);
  free(sets);
  return r;
}

/* The label of point p for messages. */
static const char *cs__plabel(const struct nicsim_calib_spec *s, long p) {
  return p >= 0 ? nc_scenario_point_label(s->scen, (size_t)p) : "(the scenario's one point)";
}

/* The cross checks: refusals, start values, bounds that resolve. */
static int cs__check(struct cs__loader *L, const struct nc__node *freekey) {
  struct nicsim_calib_spec *s = L->s;
  struct nicsim_config *c = malloc(sizeof *c);
  struct nc_error e;
  char hint[512];
  int r = -1;
  if (!c || !(s->points = calloc(s->nmeas, sizeof *s->points))) {
    free(c);
    nc__error_set(L->err, s->file, 0, 0, NULL, "out of memory");
    return -1;
  }
  if (s->nfree > s->ncal) {
    nc__fmt(hint, sizeof hint,
            "a fit needs at least as many calibration measurements as unknowns (docs/"
            "calibration.md, the honesty rules): add measurements under calibrate:, or free fewer "
            "keys");
    nc__error_set(L->err, s->file, freekey->line, freekey->col, hint,
                  "%zu free parameters but only %zu calibration measurement%s", s->nfree, s->ncal,
                  s->ncal == 1 ? "" : "s");
    goto out;
  }
  cs__points(s);
  if (!(s->point_platform = calloc(s->npoints ? s->npoints : 1, sizeof *s->point_platform))) {
    nc__error_set(L->err, s->file, 0, 0, NULL, "out of memory");
    goto out;
  }
  for (size_t j = 0; j < s->npoints; j++) {
    const char *base, *dot;
    if (cs__resolve(s, s->points[j], NULL, 0, c, &e) != 0) {
      *L->err = e;
      goto out;
    }
    base = strrchr(c->platform, '/') ? strrchr(c->platform, '/') + 1 : c->platform;
    dot = strstr(base, ".yaml");
    nc__fmt(s->point_platform[j], sizeof s->point_platform[j], "%.*s",
            (int)(dot && dot[5] == '\0' ? (size_t)(dot - base) : strlen(base)), base);
  }
  for (size_t k = 0; k < s->nfree; k++) {
    struct nicsim_calib_free *f = &s->free[k];
    double first = 0;
    long firstp = 0;
    for (size_t q = 0; q < nc_scenario_nswept(s->scen); q++)
      if (strcmp(nc_scenario_swept_key(s->scen, q), f->key->path) == 0) {
        nc__error_set(L->err, s->file, f->at.line, f->at.col,
                      "a calibrated value stands for one physical thing at every point; calibrate "
                      "a key the sweep does not vary, or measure at one value of it",
                      "%s is varied by the scenario's sweep, so it cannot be a free parameter",
                      f->key->path);
        goto out;
      }
    for (size_t i = 0; i < s->nsets; i++)
      if (strncmp(s->sets[i], f->key->path, strlen(f->key->path)) == 0 &&
          s->sets[i][strlen(f->key->path)] == '=') {
        nc__error_set(L->err, s->file, f->at.line, f->at.col, "remove it from set: or from free:",
                      "%s is both free and fixed by set:", f->key->path);
        goto out;
      }
    for (size_t j = 0; j < s->npoints; j++) {
      double v;
      if (cs__resolve(s, s->points[j], NULL, 0, c, &e) != 0) {
        *L->err = e;
        goto out;
      }
      v = nc_value_number(c, f->key);
      if (j == 0) {
        first = v;
        firstp = s->points[j];
      } else if (v != first) {
        char a[40], b[40];
        nicsim_format_real(first, a, sizeof a);
        nicsim_format_real(v, b, sizeof b);
        nc__error_set(L->err, s->file, f->at.line, f->at.col,
                      "a calibrated value stands for one physical thing: measure points where "
                      "the platform files agree on it, or calibrate each platform on its own",
                      "%s differs between the points: %s at %s, %s at %s (%s:%d:%d)",
                      f->key->path, a, cs__plabel(s, firstp), b, cs__plabel(s, s->points[j]),
                      c->origin[f->key - nc_keys()].file, c->origin[f->key - nc_keys()].line,
                      c->origin[f->key - nc_keys()].col);
        goto out;
      }
    }
    if (!f->start_given) {
      if (first < f->min || first > f->max) {
        char a[40];
        nicsim_format_real(first, a, sizeof a);
        nc__error_set(L->err, s->file, f->at.line, f->at.col,
                      "give start: inside [min, max], or widen the range",
                      "the scenario's value of %s, %s, is outside [%.17g, %.17g]", f->key->path,
                      a, f->min, f->max);
        goto out;
      }
      f->start = first;
    }
    /* Every point must resolve at both bounds and at the start. */
    for (size_t j = 0; j < s->npoints; j++) {
      const double xs[3] = {f->min, f->max, f->start};
      for (size_t q = 0; q < 3; q++)
        if (cs__resolve(s, s->points[j], f, nicsim_calib_quantise(f, xs[q]), c, &e) != 0) {
          nc__error_set(L->err, s->file, f->at.line, f->at.col, e.hint[0] ? e.hint : NULL,
                        "at %s = %.17g (its %s), point %s does not resolve: %s", f->key->path,
                        nicsim_calib_quantise(f, xs[q]), q == 0 ? "min" : q == 1 ? "max" : "start",
                        cs__plabel(s, s->points[j]), e.msg);
          goto out;
        }
    }
  }
  r = 0;
out:
  free(c);
  return r;
}

/* ---- loading ----------------------------------------------------------------------- */

static const char *const cs__top_words[] = {"name", "description", "scenario",    "set",
                                            "free", "fit",         "measurements"};
#define CS__NTOP (sizeof cs__top_words / sizeof *cs__top_words)

/* True if w may stand at the top level of a spec (nc__yaml_parse_ex). */
static bool cs__top_known(const char *w) {
  for (size_t i = 0; i < CS__NTOP; i++)
    if (strcmp(w, cs__top_words[i]) == 0) return true;
  return false;
}

/* The top-level mapping. Is it a spec at all? Checked before anything is
 * read, and an unknown top-level key is not shown: the file may be no spec
 * (say /etc/shadow named on the command line), and an error must not show
 * what it holds (issue 23, #1). The nearest word of ours is. */
static int cs__top(struct cs__loader *L, const struct nc__node *root) {
  struct nicsim_calib_spec *s = L->s;
  const struct nc__node *v, *kn = NULL, *freekey = NULL;
  if (root->kind != NC__MAP)
    return CS__FAIL(L, root, "a calibration spec is a mapping: name:, scenario:, free:, "
                             "measurements: ... (docs/calibration.md)",
                    "not a calibration spec: the top level is %s", nc__node_kind_name(root));
  for (size_t i = 0; i < root->n; i++) {
    const struct nc__node *k = root->items[2 * i];
    size_t best = CS__NTOP, bestd = 3;
    char hint[300];
    if (cs__top_known(k->text)) continue;
    for (size_t j = 0; j < CS__NTOP; j++) {
      size_t d = nc__edit_distance(k->text, cs__top_words[j]);
      if (d < bestd) bestd = d, best = j;
    }
    nc__fmt(hint, sizeof hint, "%s%s%sa calibration spec holds name, description, scenario, set, "
                               "free, measurements and fit",
            best < CS__NTOP ? "did you mean '" : "", best < CS__NTOP ? cs__top_words[best] : "",
            best < CS__NTOP ? "'? " : "");
    return CS__FAIL(L, k, hint,
                    "not a calibration spec: unknown top-level key (its text is not shown, the "
                    "file may hold anything)");
  }
  if ((v = cs__get(root, "name", NULL)) != NULL && cs__text(L, v, "name", s->name, sizeof s->name))
    return -1;
  if ((v = cs__get(root, "description", NULL)) != NULL &&
      cs__text(L, v, "description", s->description, sizeof s->description))
    return -1;
  if ((v = cs__get(root, "scenario", NULL)) == NULL)
    return CS__FAIL(L, root, "name the scenario whose sweep points the measurements name, "
                             "relative to this file",
                    "a calibration spec needs scenario:");
  if (cs__scenario(L, v)) return -1;
  if ((v = cs__get(root, "set", NULL)) != NULL && cs__sets(L, v)) return -1;
  if ((v = cs__get(root, "free", &freekey)) == NULL)
    return CS__FAIL(L, root, "declare the unknowns under free:", "a calibration spec needs free:");
  if (cs__free(L, v)) return -1;
  if ((v = cs__get(root, "measurements", &kn)) == NULL)
    return CS__FAIL(L, root, "list measurements: {calibrate: [...], validate: [...]}",
                    "a calibration spec needs measurements:");
  if (cs__measurements(L, v)) return -1;
  if ((v = cs__get(root, "fit", NULL)) != NULL && cs__fit(L, v)) return -1;
  if (!s->name[0]) { /* the file name without .yaml */
    const char *base = strrchr(s->file, '/');
    size_t n;
    base = base ? base + 1 : s->file;
    n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".yaml") == 0) n -= 5;
    nc__fmt(s->name, sizeof s->name, "%.*s", (int)n, base);
  }
  if (!s->grid) s->grid = s->nfree == 1 ? 9 : s->nfree == 2 ? 5 : 3;
  if (!s->profile_points) s->profile_points = 9;
  if (!s->max_evaluations) s->max_evaluations = 100 + 50 * s->nfree;
  if (!s->method[0]) nc__fmt(s->method, sizeof s->method, "sbplx");
  /* The work is bounded before anything is simulated or written. */
  {
    size_t est = nicsim_calib_estimate(s, false);
    if (est > NICSIM_CALIB_MAX_EVALUATIONS) {
      const struct nc__node *at = cs__get(root, "fit", NULL);
      char grid[64];
      if (est == SIZE_MAX) nc__fmt(grid, sizeof grid, "more than %zu", (size_t)SIZE_MAX / 2);
      else nc__fmt(grid, sizeof grid, "%zu", est);
      return CS__FAIL(L, at ? at : freekey,
                      "free fewer keys, or lower fit.grid (the grid alone is grid^keys vectors)",
                      "this spec needs about %s parameter vectors (fit.grid %zu ^ %zu free keys, "
                      "plus the local fit and the profiles), each a sweep of its points; the "
                      "limit is %d",
                      grid, s->grid, s->nfree, NICSIM_CALIB_MAX_EVALUATIONS);
    }
  }
  return cs__check(L, freekey);
}

/* Loads a spec. */
int nicsim_calib_spec_load(const char *path, struct nicsim_calib_spec **out, struct nc_error *err) {
  struct nc_error dummy;
  struct cs__loader L;
  struct nc__node *root;
  struct stat st;
  char *text;
  size_t len = 0;
  if (!err) err = &dummy;
  *out = NULL;
  L.err = err;
  L.s = calloc(1, sizeof *L.s);
  if (!L.s) {
    nc__error_set(err, path, 0, 0, NULL, "out of memory");
    return -1;
  }
  /* Read as a platform file is (issue 23, #1, #2): the path kept whole, a
   * regular file of at most NC__MAX_PLATFORM_BYTES, parsed without quoting a
   * file that is no spec, identified by device and inode (an input no output
   * may replace). */
  if (strlen(path) >= sizeof L.s->file) {
    nc__error_set(err, path, 0, 0, "move the spec to a shorter path, or run from nearer it",
                  "the spec's path is %zu bytes long; the limit is %zu", strlen(path),
                  sizeof L.s->file - 1);
    nicsim_calib_spec_free(L.s);
    return -1;
  }
  nc__fmt(L.s->file, sizeof L.s->file, "%s", path);
  if ((text = nc__read_file_ex(path, NC__MAX_PLATFORM_BYTES, &st, &len, err)) == NULL) {
    nicsim_calib_spec_free(L.s);
    return -1;
  }
  L.s->file_dev = (unsigned long long)st.st_dev;
  L.s->file_ino = (unsigned long long)st.st_ino;
  root = nc__yaml_parse_ex(path, text, len, cs__top_known, err);
  free(text);
  if (!root || cs__top(&L, root)) {
    nc__node_free(root);
    nicsim_calib_spec_free(L.s);
    return -1;
  }
  nc__node_free(root);
  *out = L.s;
  return 0;
}

void nicsim_calib_spec_free(struct nicsim_calib_spec *s) {
  if (!s) return;
  free(s->point_platform);
  if (s->scen) nc_scenario_free(s->scen);
  for (size_t i = 0; i < s->nsets; i++) free(s->sets[i]);
  free(s->sets);
  free(s->free);
  free(s->meas);
  free(s->points);
  free(s);
}

/* ---- identity and values ----------------------------------------------------------- */

/* FNV-1a 64 over len bytes, continuing from h. */
static uint64_t cs__fnv(uint64_t h, const char *p, size_t len) {
  while (len-- > 0) {
    h ^= (unsigned char)*p++;
    h *= 0x100000001b3ull;
  }
  return h;
}

void nicsim_calib_spec_identity(const struct nicsim_calib_spec *s, const char *version, char *buf,
                                size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  struct nicsim_config *c = malloc(sizeof *c);
  struct nc_error e;
  h = cs__fnv(h, version, strlen(version) + 1);
  for (size_t j = 0; c && j < s->npoints; j++) {
    json_t *js;
    char *t = NULL;
    if (cs__resolve(s, s->points[j], NULL, 0, c, &e) != 0) continue;
    js = nicsim_config_to_json(c);
    if (js) t = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(js);
    if (t) h = cs__fnv(h, t, strlen(t) + 1);
    free(t);
  }
  for (size_t k = 0; k < s->nfree; k++) h = cs__fnv(h, s->free[k].key->path, strlen(s->free[k].key->path) + 1);
  free(c);
  snprintf(buf, n, "%016llx", (unsigned long long)h);
}

double nicsim_calib_quantise(const struct nicsim_calib_free *f, double x) {
  char t[40];
  if (x < f->min) x = f->min;
  if (x > f->max) x = f->max;
  if (f->key->type == NC_INT) {
    x = nearbyint(x);
    if (x < f->min) x += 1; /* min and max may be fractions */
    if (x > f->max) x -= 1;
    return x;
  }
  snprintf(t, sizeof t, "%.6g", x);
  x = strtod(t, NULL);
  return x < f->min ? f->min : x > f->max ? f->max : x;
}

void nicsim_calib_assignment(const struct nicsim_calib_free *f, double x, char *buf, size_t n) {
  char v[40];
  if (f->key->type == NC_INT) snprintf(v, sizeof v, "%lld", (long long)x);
  else nicsim_format_real(x, v, sizeof v);
  snprintf(buf, n, "%s=%s", f->key->path, v);
}

void nicsim_calib_meas_name(const struct nicsim_calib_meas *m, char *buf, size_t n) {
  snprintf(buf, n, "%s%s%s", m->point, m->point[0] ? " " : "", m->metric);
}
