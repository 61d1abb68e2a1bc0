/* regress_suite.c: the regression suite of `nicsim regress`: loading the
 * suite file (through the config loader's YAML tree, so every mistake has
 * file:line:col), tolerances, baseline documents and XML escaping. The run
 * and the comparison are regress.c. */
#define _XOPEN_SOURCE 700

#include "study/regress_suite.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"
#include "results/input.h"
#include "results/metrics.h"
#include "results/output.h"

/* ---- the suite file ------------------------------------------------------ */

/* The loader's state: the file and where errors go. */
struct rg__loader {
  const char *file;
  struct nc_error *err;
  const struct nc__node *root; /* the suite's top level */
};

/* Fills the error at node n. */
#define RG__FAIL(L, n, hint, ...) \
  (nc__error_set((L)->err, (L)->file, (n)->line, (n)->col, hint, __VA_ARGS__), -1)

/* The value of key in mapping m, or NULL. */
static struct nc__node *rg__get(const struct nc__node *m, const char *key) {
  for (size_t i = 0; i < m->n; i++)
    if (strcmp(m->items[2 * i]->text, key) == 0) return m->items[2 * i + 1];
  return NULL;
}

/* Checks that mapping m (named what) has only the given keys; a misspelt one
 * gets a suggestion. */
static int rg__only(struct rg__loader *L, const struct nc__node *m, const char *what,
                    const char *const *words, size_t nwords) {
  for (size_t i = 0; i < m->n; i++) {
    const struct nc__node *k = m->items[2 * i];
    size_t j, best = nwords, bestd = 3;
    char list[256] = "";
    for (j = 0; j < nwords && strcmp(k->text, words[j]) != 0; j++) {
      size_t d = nc__edit_distance(k->text, words[j]);
      if (d < bestd) {
        bestd = d;
        best = j;
      }
    }
    if (j < nwords) continue;
    for (j = 0; j < nwords; j++)
      nc__fmt(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", words[j]);
    char hint[400];
    if (best < nwords)
      nc__fmt(hint, sizeof hint, "did you mean '%s'? %s takes: %s", words[best], what, list);
    else
      nc__fmt(hint, sizeof hint, "%s takes: %s", what, list);
    /* At the top level, before the file is known to be a suite, the key is
     * not shown: the file may hold anything (docs/robustness.md). */
    if (m == L->root)
      return RG__FAIL(L, k, hint, "not a nicsim regression suite: unknown top-level key");
    return RG__FAIL(L, k, hint, "unknown key '%s' in %s", k->text, what);
  }
  return 0;
}

/* A scalar's text into buf (at most n-1 bytes, non-empty). */
static int rg__text(struct rg__loader *L, const struct nc__node *v, const char *key, char *buf,
                    size_t n) {
  if (v->kind != NC__SCALAR || v->text[0] == '\0')
    return RG__FAIL(L, v, NULL, "'%s' must be a single non-empty value, not %s", key,
                    nc__node_kind_name(v));
  if (strlen(v->text) >= n)
    return RG__FAIL(L, v, NULL, "'%s' is longer than %zu characters", key, n - 1);
  if (nc__find_ctrl(v->text)) return RG__FAIL(L, v, NULL, "'%s' holds a control character", key);
  snprintf(buf, n, "%s", v->text);
  return 0;
}

/* A tolerance: `exact`, or a mapping with one of abs: X or rel: X (X >= 0). */
static int rg__tol(struct rg__loader *L, const struct nc__node *v, const char *metric,
                   struct nicsim_tol *t) {
  static const char hint[] =
      "write exact, {abs: X} (|now - baseline| <= X) or {rel: X} (a fraction of the baseline)";
  if (v->kind == NC__SCALAR) {
    if (strcmp(v->text, "exact") != 0)
      return RG__FAIL(L, v, hint, "tolerance of '%s': '%s' is not a tolerance", metric, v->text);
    t->kind = NICSIM_TOL_EXACT;
    t->x = 0;
    return 0;
  }
  if (v->kind != NC__MAP || v->n != 1)
    return RG__FAIL(L, v, hint, "tolerance of '%s' must be exact or a mapping with one key", metric);
  const struct nc__node *k = v->items[0], *x = v->items[1];
  if (strcmp(k->text, "abs") == 0)
    t->kind = NICSIM_TOL_ABS;
  else if (strcmp(k->text, "rel") == 0)
    t->kind = NICSIM_TOL_REL;
  else
    return RG__FAIL(L, k, hint, "tolerance of '%s': unknown kind '%s'", metric, k->text);
  char *end = NULL;
  errno = 0;
  t->x = x->kind == NC__SCALAR && !x->quoted ? strtod(x->text, &end) : NAN;
  if (end == NULL || end == x->text || *end != '\0' || errno != 0 || !isfinite(t->x) || t->x < 0)
    return RG__FAIL(L, x, "e.g. {rel: 0.001} for 0.1 %, {abs: 5}",
                    "tolerance of '%s': %s needs a number >= 0", metric, k->text);
  return 0;
}

/* The metrics: mapping of an entry. */
static int rg__metrics(struct rg__loader *L, const struct nc__node *m,
                       struct nicsim_regress_entry *e) {
  if (m->kind != NC__MAP || m->n == 0)
    return RG__FAIL(L, m, "e.g. metrics: {rx.gbps: {rel: 0.001}, rx.pkts: exact}",
                    "entry '%s': 'metrics' must be a mapping of metric names to tolerances",
                    e->name);
  e->metrics = calloc(m->n, sizeof *e->metrics);
  if (!e->metrics) return RG__FAIL(L, m, NULL, "out of memory");
  for (size_t i = 0; i < m->n; i++) {
    const struct nc__node *k = m->items[2 * i], *v = m->items[2 * i + 1];
    struct nicsim_regress_metric *x = &e->metrics[e->nmetrics];
    long id = nicsim_metric_find(k->text);
    if (id < 0 && !nicsim_metric_is_extra_name(k->text)) {
      const char *near = nicsim_metric_suggest(k->text);
      char hint[300];
      if (near != NULL)
        nc__fmt(hint, sizeof hint, "did you mean '%s'? The metrics are listed in docs/metrics.md",
                near);
      else
        nc__fmt(hint, sizeof hint, "the metrics are listed in docs/metrics.md");
      return RG__FAIL(L, k, hint, "entry '%s': unknown metric '%s'", e->name, k->text);
    }
    if (id >= 0 && nicsim_metric_defs()[id].kind == NM_KIND_WALL)
      return RG__FAIL(L, k, "compare simulated figures, e.g. sim.events",
                      "entry '%s': '%s' is wall-clock time, which no two runs share", e->name,
                      k->text);
    snprintf(x->name, sizeof x->name, "%s", k->text);
    snprintf(x->at.file, sizeof x->at.file, "%s", L->file);
    x->at.line = k->line;
    x->at.col = k->col;
    if (rg__tol(L, v, k->text, &x->tol) != 0) return -1;
    e->nmetrics++;
  }
  return 0;
}

/* The set: mapping of an entry: KEY: VALUE overrides, checked as --set. */
static int rg__sets(struct rg__loader *L, const struct nc__node *m,
                    struct nicsim_regress_entry *e) {
  char what[128];
  nc__fmt(what, sizeof what, "entry '%s': set", e->name);
  return nc__map_sets(L->file, L->err, m, what, &e->sets, &e->nsets);
}

/* True if name is a usable entry name (it names a file): [A-Za-z0-9._-]+,
 * not starting with '.'. */
static bool rg__name_ok(const char *name) {
  if (!name[0] || name[0] == '.') return false;
  for (const char *p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '.' || *p == '_' || *p == '-'))
      return false;
  return true;
}

/* One entry of entries:. */
static int rg__entry(struct rg__loader *L, const struct nc__node *m, const char *dir,
                     struct nicsim_regress_suite *s) {
  static const char *const words[] = {"name", "scenario", "set", "metrics"};
  struct nicsim_regress_entry *e = &s->entries[s->n];
  const struct nc__node *v;
  if (m->kind != NC__MAP)
    return RG__FAIL(L, m, "e.g. - {name: default, scenario: ../../scenarios/default.yaml, ...}",
                    "an entry must be a mapping, not %s", nc__node_kind_name(m));
  s->n++; /* owned from here on, freed with the suite */
  snprintf(e->at.file, sizeof e->at.file, "%s", L->file);
  e->at.line = m->line;
  e->at.col = m->col;
  if (rg__only(L, m, "an entry", words, 4) != 0) return -1;
  if (!(v = rg__get(m, "name")))
    return RG__FAIL(L, m, "every entry has a name: it names its baseline file",
                    "entry %zu has no 'name'", s->n);
  if (rg__text(L, v, "name", e->name, sizeof e->name) != 0) return -1;
  if (!rg__name_ok(e->name))
    return RG__FAIL(L, v, "use letters, digits, '.', '_' and '-'",
                    "entry name '%s' cannot be a file name", e->name);
  for (size_t i = 0; i + 1 < s->n; i++)
    if (strcmp(s->entries[i].name, e->name) == 0)
      return RG__FAIL(L, v, "entry names are unique: each has its own baseline file",
                      "duplicate entry name '%s' (first at %s:%d:%d)", e->name, L->file,
                      s->entries[i].at.line, s->entries[i].at.col);
  if (!(v = rg__get(m, "scenario")))
    return RG__FAIL(L, m, "e.g. scenario: ../../scenarios/default.yaml (relative to this file)",
                    "entry '%s' has no 'scenario'", e->name);
  if (rg__text(L, v, "scenario", e->scenario, sizeof e->scenario) != 0) return -1;
  if (strncmp(e->scenario, "builtin:", 8) == 0) {
    e->builtin = true;
    snprintf(e->path, sizeof e->path, "%s", e->scenario + 8);
  } else if (e->scenario[0] == '/' || strcmp(dir, ".") == 0) {
    snprintf(e->path, sizeof e->path, "%s", e->scenario);
  } else if ((size_t)snprintf(e->path, sizeof e->path, "%s/%s", dir, e->scenario) >=
             sizeof e->path) {
    return RG__FAIL(L, v, NULL, "the scenario path is too long");
  }
  if ((v = rg__get(m, "set")) && rg__sets(L, v, e) != 0) return -1;
  if (!(v = rg__get(m, "metrics")))
    return RG__FAIL(L, m, "e.g. metrics: {rx.gbps: {rel: 0.001}, rx.pkts: exact}",
                    "entry '%s' has no 'metrics'", e->name);
  return rg__metrics(L, v, e);
}

/* True for a key a suite's top level may hold (nc__yaml_parse_ex: a file that
 * is not a suite is never quoted in an error). */
static bool rg__suite_key(const char *k) {
  return strcmp(k, "name") == 0 || strcmp(k, "baselines") == 0 || strcmp(k, "entries") == 0;
}

/* Loads a suite file. */
int nicsim_regress_suite_load(const char *path, struct nicsim_regress_suite **out,
                              struct nc_error *err) {
  static const char *const words[] = {"name", "baselines", "entries"};
  struct rg__loader L = {path, err, NULL};
  struct nicsim_regress_suite *s = NULL;
  struct nc__node *root = NULL;
  const struct nc__node *v;
  char dir[NC_PATH_MAX], base[NC_PATH_MAX] = "baselines";
  size_t len;
  char *text;
  int rc = -1;

  *out = NULL;
  if (strlen(path) >= sizeof dir) { /* never cut: the directory would name another */
    nc__error_set(err, path, 0, 0, "run from nearer the suite, with a shorter path",
                  "the suite's path is %zu bytes long; the limit is %zu", strlen(path),
                  sizeof dir - 1);
    return -1;
  }
  text = nc__read_file(path, &len, err);
  if (!text) return -1;
  root = nc__yaml_parse_ex(path, text, len, rg__suite_key, err);
  free(text);
  if (!root) return -1;
  L.root = root;
  s = calloc(1, sizeof *s);
  if (!s) {
    nc__error_set(err, path, 0, 0, NULL, "out of memory");
    goto out;
  }
  snprintf(s->file, sizeof s->file, "%s", path);
  snprintf(s->name, sizeof s->name, "regress");
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  if (rg__only(&L, root, "a suite", words, 3) != 0) goto out;
  if ((v = rg__get(root, "name")) && rg__text(&L, v, "name", s->name, sizeof s->name) != 0)
    goto out;
  if ((v = rg__get(root, "baselines")) && rg__text(&L, v, "baselines", base, sizeof base) != 0)
    goto out;
  /* Baselines stay inside the suite's directory: --update replaces files there. */
  {
    bool up = base[0] == '/' || base[0] == '\0';
    for (const char *c = base; !up && *c; c += strcspn(c, "/"), c += *c == '/')
      up = strncmp(c, "..", 2) == 0 && (c[2] == '/' || c[2] == '\0');
    if (up) {
      nc__error_set(err, path, v ? v->line : 1, v ? v->col : 1,
                    "name a directory beside the suite or below it, e.g. 'baselines'",
                    "baselines must stay inside the suite's directory (no absolute path, no '..')");
      goto out;
    }
  }
  if (strcmp(dir, ".") == 0)
    snprintf(s->baselines, sizeof s->baselines, "%s", base);
  else if ((size_t)snprintf(s->baselines, sizeof s->baselines, "%s/%s", dir, base) >=
           sizeof s->baselines) {
    nc__error_set(err, path, v ? v->line : 1, v ? v->col : 1, NULL, "the path is too long");
    goto out;
  }
  if (!(v = rg__get(root, "entries"))) {
    nc__error_set(err, path, root->line, root->col,
                  "entries: is a list of {name, scenario, metrics} (docs/regress.md)",
                  "the suite has no 'entries'");
    goto out;
  }
  if (v->kind != NC__SEQ || v->n == 0) {
    (void)RG__FAIL(&L, v, "entries: is a list of {name, scenario, metrics} (docs/regress.md)",
                   "'entries' must be a non-empty list");
    goto out;
  }
  s->entries = calloc(v->n, sizeof *s->entries);
  if (!s->entries) {
    (void)RG__FAIL(&L, v, NULL, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < v->n; i++)
    if (rg__entry(&L, v->items[i], dir, s) != 0) goto out;
  *out = s;
  s = NULL;
  rc = 0;
out:
  nicsim_regress_suite_free(s);
  nc__node_free(root);
  return rc;
}

/* Frees a suite. */
void nicsim_regress_suite_free(struct nicsim_regress_suite *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    for (size_t k = 0; k < s->entries[i].nsets; k++) free(s->entries[i].sets[k]);
    free(s->entries[i].sets);
    free(s->entries[i].metrics);
  }
  free(s->entries);
  free(s);
}

/* ---- tolerances ------------------------------------------------------------ */

/* True if now is within t of base. */
bool nicsim_tol_ok(const struct nicsim_tol *t, double base, double now) {
  if (isnan(base) || isnan(now)) return isnan(base) && isnan(now);
  if (t->kind == NICSIM_TOL_EXACT) return memcmp(&base, &now, sizeof base) == 0 || base == now;
  if (isinf(base) || isinf(now)) return base == now;
  double d = fabs(now - base);
  return t->kind == NICSIM_TOL_ABS ? d <= t->x : d <= t->x * fabs(base);
}

/* "exact", "abs X", "rel X%". */
void nicsim_tol_format(const struct nicsim_tol *t, char *buf, size_t n) {
  char x[40];
  switch (t->kind) {
  case NICSIM_TOL_EXACT: snprintf(buf, n, "exact"); return;
  case NICSIM_TOL_ABS:
    nicsim_format_real(t->x, x, sizeof x);
    snprintf(buf, n, "abs %s", x);
    return;
  case NICSIM_TOL_REL:
    snprintf(buf, n, "rel %.4g%%", 100 * t->x);
    return;
  }
}

/* ---- baselines --------------------------------------------------------------- */

/* A new baseline document. */
json_t *nicsim_baseline_new(const char *version, const char *suite,
                            const struct nicsim_regress_entry *e, const char *hash) {
  json_t *sets = json_array();
  for (size_t i = 0; sets && i < e->nsets; i++)
    if (json_array_append_new(sets, json_string(e->sets[i])) != 0) {
      json_decref(sets);
      return NULL;
    }
  if (!sets) return NULL;
  return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:[]}", "nicsim", version, "suite", suite,
                   "entry", e->name, "scenario", e->scenario, "set", sets, "hash", hash,
                   "points");
}

/* Appends one point. */
int nicsim_baseline_add_point(json_t *doc, const char *label, const char *const *names,
                              const double *values, size_t n) {
  json_t *m = json_object(), *p;
  if (!m) return -ENOMEM;
  for (size_t i = 0; i < n; i++) {
    long id = nicsim_metric_find(names[i]);
    double v = values[i];
    json_t *j;
    if (id >= 0 && nicsim_metric_defs()[id].kind == NM_KIND_COUNT && isfinite(v) &&
        v == floor(v) && fabs(v) < 9007199254740992.0)
      j = json_integer((json_int_t)v);
    else
      j = isfinite(v) ? json_real(v) : json_null();
    if (json_object_set_new(m, names[i], j) != 0) {
      json_decref(m);
      return -ENOMEM;
    }
  }
  p = json_pack("{s:s, s:o}", "label", label, "metrics", m);
  if (!p || json_array_append_new(json_object_get(doc, "points"), p) != 0) return -ENOMEM;
  return 0;
}

/* Loads and checks a baseline file. */
json_t *nicsim_baseline_load(const char *path, bool *missing, char *why, size_t n) {
  json_t *doc, *points;
  int rc;

  *missing = false;
  /* As every results file: a link or FIFO is refused, never followed or waited on. */
  doc = nicsim_results_json_load(path, &rc, why, n);
  if (!doc) {
    *missing = rc == -ENOENT;
    if (rc == -ENOENT) snprintf(why, n, "%s: %s", path, strerror(ENOENT));
    return NULL;
  }
  points = json_object_get(doc, "points");
  if (!json_is_object(doc) || !json_is_array(points) ||
      !json_is_string(json_object_get(doc, "hash"))) {
    snprintf(why, n, "%s: not a nicsim baseline (it needs hash and points)", path);
    json_decref(doc);
    return NULL;
  }
  for (size_t i = 0; i < json_array_size(points); i++) {
    json_t *p = json_array_get(points, i), *m = json_object_get(p, "metrics"), *v;
    const char *k;
    if (!json_is_string(json_object_get(p, "label")) || !json_is_object(m)) {
      snprintf(why, n, "%s: point %zu needs a label and metrics", path, i + 1);
      json_decref(doc);
      return NULL;
    }
    json_object_foreach(m, k, v) {
      if (!json_is_number(v) && !json_is_null(v)) {
        snprintf(why, n, "%s: point '%s': metric %s is not a number", path,
                 json_string_value(json_object_get(p, "label")), k);
        json_decref(doc);
        return NULL;
      }
    }
  }
  return doc;
}

/* The metrics of the point with this label. */
json_t *nicsim_baseline_point(json_t *doc, const char *label) {
  json_t *points = json_object_get(doc, "points");
  for (size_t i = 0; i < json_array_size(points); i++) {
    json_t *p = json_array_get(points, i);
    if (strcmp(json_string_value(json_object_get(p, "label")), label) == 0)
      return json_object_get(p, "metrics");
  }
  return NULL;
}

/* Emits a JSON document (nicsim_emit_fn). */
static int rg__emit(FILE *f, void *arg) { return nicsim_json_dump(arg, f); }

/* Writes a baseline atomically. */
int nicsim_baseline_write(const char *path, json_t *doc) {
  return nicsim_write_atomic(path, rg__emit, doc);
}

