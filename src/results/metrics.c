/* metrics.c: the metric registry (static definitions from metrics.h) and the
 * per-run value table: static metrics by id, extras kept sorted by name. */
#include "results/metrics.h"

#include <string.h>

#include "config/config_internal.h"

#define NICSIM_METRIC_KIND_COUNT NM_KIND_COUNT
#define NICSIM_METRIC_KIND_REAL NM_KIND_REAL
#define NICSIM_METRIC_KIND_WALL NM_KIND_WALL
#define NICSIM_DEFINE_METRIC(id, name, unit, kind, desc) \
  [NM_##id] = {name, unit, desc, NICSIM_METRIC_KIND_##kind},

static const struct nicsim_metric_def nicsim__metric_defs[NM__COUNT] = {
    NICSIM_METRICS(NICSIM_DEFINE_METRIC)};

/* The static definitions, NM__COUNT entries. */
const struct nicsim_metric_def *nicsim_metric_defs(void) { return nicsim__metric_defs; }

/* Empties a result table: no metric present, no extras. */
void nicsim_results_init(struct nicsim_results *r) { memset(r, 0, sizeof(*r)); }

/* Sets static metric id (ignored if id is out of range). */
void nicsim_results_set(struct nicsim_results *r, enum nicsim_metric_id id, double v) {
  if ((unsigned)id >= NM__COUNT)
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
  /* An extra never shadows a static metric: get() and the writers would
   * otherwise disagree about which value a name means. */
  for (i = 0; i < NM__COUNT; i++)
    if (strcmp(nicsim__metric_defs[i].name, name) == 0)
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

/* The i-th present metric: static ones in declaration order, then extras. */
bool nicsim_results_at(const struct nicsim_results *r, size_t i, struct nicsim_metric_view *out) {
  size_t id;

  for (id = 0; id < NM__COUNT; id++) {
    if (!r->present[id])
      continue;
    if (i == 0) {
      out->name = nicsim__metric_defs[id].name;
      out->unit = nicsim__metric_defs[id].unit;
      out->desc = nicsim__metric_defs[id].desc;
      out->kind = nicsim__metric_defs[id].kind;
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

  for (i = 0; i < NM__COUNT; i++) {
    if (strcmp(nicsim__metric_defs[i].name, name) == 0) {
      if (!r->present[i])
        return false;
      *v = r->value[i];
      return true;
    }
  }
  i = nicsim__extra_find(r, name, &found);
  if (!found)
    return false;
  *v = r->extra[i].value;
  return true;
}

/* Id of the static metric with this name, or -1. */
long nicsim_metric_find(const char *name) {
  size_t i;
  for (i = 0; i < NM__COUNT; i++)
    if (strcmp(nicsim__metric_defs[i].name, name) == 0)
      return (long)i;
  return -1;
}

/* The static metric whose name is nearest to a misspelt one (edit distance
 * at most 3), or NULL if none is that close: a "did you mean" hint. */
const char *nicsim_metric_suggest(const char *name) {
  size_t i, best = NM__COUNT, bestd = 4;
  for (i = 0; i < NM__COUNT; i++) {
    size_t d = nc__edit_distance(name, nicsim__metric_defs[i].name);
    if (d < bestd) {
      bestd = d;
      best = i;
    }
  }
  return best < NM__COUNT ? nicsim__metric_defs[best].name : NULL;
}

/* The extra-metric families (docs/metrics.md, "Extra metrics"): a prefix,
 * then one identifier, then an optional fixed suffix. */
static const struct {
  const char *prefix, *suffix[2];
} nicsim__extra_families[] = {
    {"cpu.profile.", {"", NULL}},
    {"cpu.ns_per_gb.", {"", NULL}},
    {"pcie.up.", {".tlps", ".bytes"}},
    {"pcie.down.", {".tlps", ".bytes"}},
    {"bus.", {".bursts", ".bytes"}},
    /* several queues (nic.rx_queues / tx_queues > 1): per queue and vector */
    {"nic.rxq", {".pkts", ".occupancy"}},
    {"nic.txq", {".pkts", ".occupancy"}},
    {"irq.vec", {".count", ".suppressed"}},
};

/* True if c may appear in a metric identifier. */
static bool nicsim__ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* True if name is cpu.core<N>.util or cpu.core<N>.profile.<ident> (cpu.cores >= 2). */
static bool nicsim__core_extra(const char *name) {
  if (strncmp(name, "cpu.core", 8) != 0) return false;
  const char *p = name + 8;
  size_t n = 0;
  while (p[n] >= '0' && p[n] <= '9') n++;
  if (n == 0) return false;
  p += n;
  if (strcmp(p, ".util") == 0) return true;
  if (strncmp(p, ".profile.", 9) != 0) return false;
  p += 9;
  for (n = 0; nicsim__ident_char(p[n]); n++) {
  }
  return n > 0 && p[n] == '\0';
}

bool nicsim_metric_is_extra_name(const char *name) {
  if (!name) return false;
  if (strcmp(name, "cpu.lock_wait_cycles") == 0 || strcmp(name, "sim.drain_extended_us") == 0 ||
      nicsim__core_extra(name))
    return true;
  for (size_t f = 0; f < sizeof nicsim__extra_families / sizeof nicsim__extra_families[0]; f++) {
    const char *pre = nicsim__extra_families[f].prefix;
    size_t pl = strlen(pre);
    if (strncmp(name, pre, pl) != 0) continue;
    const char *id = name + pl;
    size_t n = 0;
    while (nicsim__ident_char(id[n])) n++;
    if (n == 0) continue;
    for (int s = 0; s < 2; s++) {
      const char *suf = nicsim__extra_families[f].suffix[s];
      if (suf && strcmp(id + n, suf) == 0) return true;
    }
  }
  return false;
}

/* True if every run of cfg reports static metric id; see metrics.h. */
bool nicsim_metric_expected(const struct nicsim_config *cfg, enum nicsim_metric_id id) {
  const char *name = nicsim_metric_defs()[id].name;
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
