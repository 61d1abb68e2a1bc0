/* metrics.c: the per-run value table (columns by catalogue index, extras
 * kept sorted by name) and lookups in the catalogue (src/sim/stats_catalog.cpp). */
#include "results/metrics.h"

#include <string.h>

#include "config/config_internal.h"

/* Empties a result table: no metric present, no extras. */
void nicsim_results_init(struct nicsim_results *r) { memset(r, 0, sizeof(*r)); }

/* Sets column id (ignored if id is out of range). */
void nicsim_results_set(struct nicsim_results *r, long id, double v) {
  if (id < 0 || (size_t)id >= nicsim_metric_count())
    return;
  r->value[id] = v;
  r->present[id] = true;
}

/* Binary search of the sorted extras: index of name, or where it would go
 * (then *found is false). */
static size_t nicsim__extra_find(const struct nicsim_results *r, const char *name, bool *found) {
  size_t lo = 0, hi = r->nextra;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(r->extra[mid].name, name);
    if (c == 0) {
      *found = true;
      return mid;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = false;
  return lo;
}

/* Copies src into a fixed field, truncating; returns -1 if it did not fit. */
static int nicsim__copy(char *dst, size_t n, const char *src) {
  size_t len = strlen(src);
  if (len >= n) {
    memcpy(dst, src, n - 1);
    dst[n - 1] = '\0';
    return -1;
  }
  memcpy(dst, src, len + 1);
  return 0;
}

/* Adds or replaces an extra metric, keeping the extras sorted by name. */
int nicsim_results_set_extra(struct nicsim_results *r, const char *name, const char *unit,
                             enum nicsim_metric_kind kind, const char *desc, double v) {
  bool found;
  size_t i;

  if (name == NULL || name[0] == '\0' || strlen(name) >= sizeof(r->extra[0].name))
    return -1;
  /* An extra never shadows a column: get() and the writers would
   * otherwise disagree about which value a name means. */
  if (nicsim_metric_find(name) >= 0)
    return -1;
  i = nicsim__extra_find(r, name, &found);
  if (!found) {
    if (r->nextra >= NICSIM_MAX_EXTRA_METRICS)
      return -1;
    memmove(&r->extra[i + 1], &r->extra[i], (r->nextra - i) * sizeof(r->extra[0]));
    r->nextra++;
    memset(&r->extra[i], 0, sizeof(r->extra[i]));
    memcpy(r->extra[i].name, name, strlen(name) + 1);
  }
  /* Unit and description are display text: truncation is harmless. */
  (void)nicsim__copy(r->extra[i].unit, sizeof(r->extra[i].unit), unit ? unit : "");
  (void)nicsim__copy(r->extra[i].desc, sizeof(r->extra[i].desc), desc ? desc : "");
  r->extra[i].kind = kind;
  r->extra[i].value = v;
  return 0;
}

/* The i-th present metric: columns in catalogue order, then extras. */
bool nicsim_results_at(const struct nicsim_results *r, size_t i, struct nicsim_metric_view *out) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  size_t id, n = nicsim_metric_count();

  for (id = 0; id < n; id++) {
    if (!r->present[id])
      continue;
    if (i == 0) {
      out->name = defs[id].name;
      out->unit = defs[id].unit;
      out->desc = defs[id].desc;
      out->kind = defs[id].kind;
      out->value = r->value[id];
      return true;
    }
    i--;
  }
  if (i >= r->nextra)
    return false;
  out->name = r->extra[i].name;
  out->unit = r->extra[i].unit;
  out->desc = r->extra[i].desc;
  out->kind = r->extra[i].kind;
  out->value = r->extra[i].value;
  return true;
}

/* Value of a present metric by name. */
bool nicsim_results_get(const struct nicsim_results *r, const char *name, double *v) {
  bool found;
  size_t i;
  long id = nicsim_metric_find(name);

  if (id >= 0) {
    if (!r->present[id])
      return false;
    *v = r->value[id];
    return true;
  }
  i = nicsim__extra_find(r, name, &found);
  if (!found)
    return false;
  *v = r->extra[i].value;
  return true;
}

/* Id of the column with this name, or -1. */
long nicsim_metric_find(const char *name) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  size_t i, n = nicsim_metric_count();
  for (i = 0; name && i < n; i++)
    if (strcmp(defs[i].name, name) == 0)
      return (long)i;
  return -1;
}

/* The column whose name is nearest to a misspelt one (edit distance at
 * most 3), or NULL if none is that close: a "did you mean" hint. */
const char *nicsim_metric_suggest(const char *name) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  size_t i, n = nicsim_metric_count(), best = n, bestd = 4;
  for (i = 0; i < n; i++) {
    size_t d = nc__edit_distance(name, defs[i].name);
    if (d < bestd) {
      bestd = d;
      best = i;
    }
  }
  return best < n ? defs[best].name : NULL;
}

/* True if every run of cfg reports column id; see metrics.h. */
bool nicsim_metric_expected(const struct nicsim_config *cfg, size_t id) {
  const char *name;
  if (id >= nicsim_metric_count())
    return false;
  name = nicsim_metric_defs()[id].name;
  if (cfg->workload.kind == NC_WORKLOAD_DMA_BENCH)
    return strncmp(name, "sim.", 4) == 0; /* the bench's own set varies with its knobs */
  if (strncmp(name, "dma.", 4) == 0)
    return false;
  if (strncmp(name, "pcie.", 5) == 0)
    return !cfg->bus.enabled;
  if (strncmp(name, "bus.", 4) == 0)
    return cfg->bus.enabled;
  return true;
}

/* "count", "real" or "wall". */
const char *nicsim_metric_kind_name(enum nicsim_metric_kind kind) {
  switch (kind) {
  case NM_KIND_COUNT:
    return "count";
  case NM_KIND_REAL:
    return "real";
  case NM_KIND_WALL:
    return "wall";
  }
  return "unknown";
}
