/* report.c: `nicsim report` (nicsim_study_report): a design-review report of
 * a sweep directory, DIR/report.md and DIR/report.html: setup, plots, key
 * metrics with deltas against a baseline point, and the mechanisms behind
 * them. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/safety.h"
#include "results/analysis.h"
#include "results/escape.h"
#include "study/study_internal.h"

/* A column of the tables: a metric, or a ratio of metric sums. */
struct ns__col {
  const char *head;    /* column heading */
  const char *num[3];  /* metrics summed into the numerator */
  const char *den[3];  /* metrics summed into the denominator (none: 1) */
  double scale;
  int decimals;
};

/* Key metrics. */
static const struct ns__col ns__key_cols[] = {
    {"RX Gbit/s", {"rx.gbps"}, {NULL}, 1, 3},
    {"TX Gbit/s", {"tx.gbps"}, {NULL}, 1, 3},
    {"RX Mpkt/s", {"rx.mpps"}, {NULL}, 1, 3},
    {"RX drops", {"rx.drops"}, {NULL}, 1, 0},
    {"CPU %", {"cpu.util"}, {NULL}, 100, 1},
    {"PCIe up %", {"pcie.up.util"}, {NULL}, 100, 1},
};
/* Mechanisms, per frame (RX plus TX frames) or per second. */
static const struct ns__col ns__mech_cols[] = {
    {"TLPs/pkt", {"pcie.up.tlps", "pcie.down.tlps"}, {"rx.pkts", "tx.pkts"}, 1, 2},
    {"uncached loads/pkt", {"cpu.uncached_loads"}, {"rx.pkts", "tx.pkts"}, 1, 2},
    {"MMIO writes/pkt", {"cpu.mmio_writes"}, {"rx.pkts", "tx.pkts"}, 1, 3},
    {"desc fetches/pkt", {"nic.desc_fetch_reqs_per_pkt"}, {NULL}, 1, 3},
    {"IRQ/s", {"irq.per_sec"}, {NULL}, 1, 0},
    {"cycles/RX pkt", {"cpu.cycles_per_rx_pkt"}, {NULL}, 1, 0},
};
#define NS__NKEY (sizeof(ns__key_cols) / sizeof(ns__key_cols[0]))
#define NS__NMECH (sizeof(ns__mech_cols) / sizeof(ns__mech_cols[0]))
#define NS__NCOLS (NS__NKEY + NS__NMECH)

/* The setup keys summarised (those the schema has). */
static const char *const ns__setup_keys[] = {
    "cpu.kind",          "cpu.clock_mhz",      "memory.coherent_dma", "memory.ddio",
    "pcie.gen",          "pcie.lanes",         "pcie.mps",            "pcie.mrrs",
    "nic.family",        "nic.line_rate_gbps", "nic.desc_spacing",    "nic.rx_ring_size",
    "nic.irq_coal_usecs", "traffic.mode",      "traffic.frame_bytes", "traffic.rate_gbps",
    "run.duration_us",   "run.warmup_us",      "run.seed",
};

/* Column c's value for the loaded point; NaN if a metric is missing or the
 * denominator is zero. */
static double ns__col_value(const struct ns__col *c, const struct nicsim_results *r) {
  double num = 0, den = 0, v;
  size_t k;
  bool any = false;

  for (k = 0; k < 3 && c->num[k]; k++)
    if (nicsim_results_get(r, c->num[k], &v) && isfinite(v)) {
      num += v;
      any = true;
    }
  if (!any)
    return NAN;
  if (c->den[0] == NULL)
    return num * c->scale;
  for (k = 0; k < 3 && c->den[k]; k++)
    if (nicsim_results_get(r, c->den[k], &v) && isfinite(v))
      den += v;
  return den > 0 ? num / den * c->scale : NAN;
}

/* Writes text that came from the sweep's files (names, labels, descriptions,
 * sweep.json fields, file names) as inert HTML or Markdown (results/escape.h). */
static void ns__put(FILE *f, bool html, const char *s) {
  if (html)
    nicsim_put_html(f, s);
  else
    nicsim_put_md(f, s);
}

/* All loaded figures of a report. */
struct ns__report {
  struct ns_sweepdir *d;
  size_t *idx;   /* present points */
  size_t n;
  double *val;   /* n x NS__NCOLS */
  bool *used;    /* per column: some point has a value */
  char (*keyv)[NC_STR_MAX]; /* n x nkeys swept values */
  size_t base;   /* row of the baseline */
  char setup[sizeof(ns__setup_keys) / sizeof(*ns__setup_keys)][NC_STR_MAX];
  char platform[NC_PATH_MAX], description[NC_STR_MAX];
  char (*plots)[256];
  size_t nplots;
  char (*limit)[32];    /* per point: the bottleneck's name ("none") */
  char (*verdict)[256]; /* per point: the one-line verdict */
  bool html;
};

/* "What limits throughput": for each bottleneck, the points it limits (in
 * order of first appearance), then the verdict of every point. */
static void ns__limits(FILE *f, const struct ns__report *r) {
  const bool h = r->html;
  size_t i, j, k;
  fputs(h ? "<h2>What limits throughput</h2>\n<ul>\n" : "\n## What limits throughput\n\n", f);
  for (i = 0; i < r->n; i++) {
    bool seen = false;
    size_t count = 0;
    for (j = 0; j < i && !seen; j++)
      seen = strcmp(r->limit[j], r->limit[i]) == 0;
    if (seen)
      continue;
    for (j = i; j < r->n; j++)
      count += strcmp(r->limit[j], r->limit[i]) == 0;
    fputs(h ? "<li>" : "- ", f);
    ns__put(f, h, r->limit[i]);
    fprintf(f, ": %zu of %zu point%s (#", count, r->n, r->n == 1 ? "" : "s");
    for (j = i, k = 0; j < r->n; j++)
      if (strcmp(r->limit[j], r->limit[i]) == 0)
        fprintf(f, "%s%zu", k++ ? ", " : "", r->idx[j]);
    fputs(h ? ")</li>\n" : ")\n", f);
  }
  fputs(h ? "</ul>\n<p>" : "\n", f);
  fputs("Each point's verdict (docs/analysis.md): the resource that limits throughput, what its time is "
        "made of, and the one that trails it.",
        f);
  fputs(h ? "</p>\n<table>\n<tr><th>#</th><th>label</th><th>bottleneck</th></tr>\n"
          : "\n\n| # | label | bottleneck |\n|---|---|---|\n",
        f);
  for (i = 0; i < r->n; i++) {
    const char *label = ns_sweepdir_label(r->d, r->idx[i]);
    fprintf(f, h ? "<tr><td>%zu</td><td>" : "| %zu | ", r->idx[i]);
    ns__put(f, h, label[0] ? label : "(unlabelled)");
    fputs(h ? "</td><td>" : " | ", f);
    ns__put(f, h, r->verdict[i]);
    fputs(h ? "</td></tr>\n" : " |\n", f);
  }
  if (h)
    fputs("</table>\n", f);
}

/* The column definition of column c. */
static const struct ns__col *ns__col(size_t c) {
  return c < NS__NKEY ? &ns__key_cols[c] : &ns__mech_cols[c - NS__NKEY];
}

/* Writes one table (key metrics or mechanisms). */
static void ns__table(FILE *f, struct ns__report *r, size_t c0, size_t c1) {
  bool h = r->html;
  size_t i, c, k;
  char num[64];

  fputs(h ? "<table>\n<tr><th>#</th><th>label</th>" : "| # | label |", f);
  for (k = 0; k < r->d->nkeys; k++) {
    fputs(h ? "<th>" : " ", f);
    ns__put(f, h, r->d->keys[k]);
    fputs(h ? "</th>" : " |", f);
  }
  for (c = c0; c < c1; c++)
    if (r->used[c]) {
      fputs(h ? "<th>" : " ", f);
      ns__put(f, h, ns__col(c)->head);
      fputs(h ? "</th>" : " |", f);
    }
  fputs(h ? "</tr>\n" : "\n|---|---|", f);
  if (!h) {
    for (k = 0; k < r->d->nkeys; k++)
      fputs("---:|", f);
    for (c = c0; c < c1; c++)
      if (r->used[c])
        fputs("---:|", f);
    fputc('\n', f);
  }
  for (i = 0; i < r->n; i++) {
    const char *label = ns_sweepdir_label(r->d, r->idx[i]);
    fprintf(f, h ? "<tr%s><td>%zu</td><td>" : "| %s%zu | ", h && i == r->base ? " class=\"base\"" : "",
            r->idx[i]);
    ns__put(f, h, label[0] ? label : "(unlabelled)");
    fputs(h ? "</td>" : (i == r->base ? " (baseline) |" : " |"), f);
    for (k = 0; k < r->d->nkeys; k++) {
      fputs(h ? "<td>" : " ", f);
      ns__put(f, h, r->keyv[i * r->d->nkeys + k]);
      fputs(h ? "</td>" : " |", f);
    }
    for (c = c0; c < c1; c++) {
      double v = r->val[i * NS__NCOLS + c], b = r->val[r->base * NS__NCOLS + c];
      if (!r->used[c])
        continue;
      if (isnan(v))
        snprintf(num, sizeof(num), "-");
      else
        snprintf(num, sizeof(num), "%.*f", ns__col(c)->decimals, v);
      fprintf(f, h ? "<td>%s" : " %s", num);
      if (i != r->base && !isnan(v) && !isnan(b)) {
        if (b != 0)
          fprintf(f, " (%+.1f%%)", 100.0 * (v - b) / fabs(b));
        else if (v != b)
          fprintf(f, " (%+.*f)", ns__col(c)->decimals, v - b);
      }
      fputs(h ? "</td>" : " |", f);
    }
    fputs(h ? "</tr>\n" : "\n", f);
  }
  if (h)
    fputs("</table>\n", f);
}

/* ---- Summary ------------------------------------------------------------------
 * The opening section, every sentence of it computed from the points' figures
 * (docs/sweeps.md, "Report"): the best and worst points by the headline
 * throughput metric with their change against the baseline, where throughput
 * stops scaling along each numeric swept key, where the bottleneck moves,
 * and the points that failed. */

/* A step along a numeric swept key that gains less than this (per cent of
 * the value before the step) is where throughput stops scaling. */
#define NS__SCALING_PCT 5.0
/* Along a key, contexts (values of the other swept keys) listed one by one
 * up to this many; beyond it only the baseline's. */
#define NS__MAX_CONTEXTS 8
/* Failed points named one by one up to this many. */
#define NS__MAX_FAILED 20

/* The headline column: 0 (rx.gbps) or 1 (tx.gbps), whichever the sweep moves
 * more (greater spread over the points, then greater maximum; rx on a tie);
 * -1 if no point reports either. */
static int ns__headline(const struct ns__report *r) {
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  size_t i, c, cnt[2] = {0, 0};
  for (i = 0; i < r->n; i++)
    for (c = 0; c < 2; c++) {
      double v = r->val[i * NS__NCOLS + c];
      if (!isfinite(v))
        continue;
      cnt[c]++;
      lo[c] = v < lo[c] ? v : lo[c];
      hi[c] = v > hi[c] ? v : hi[c];
    }
  if (cnt[0] == 0 || cnt[1] == 0)
    return cnt[0] ? 0 : cnt[1] ? 1 : -1;
  if (hi[1] - lo[1] != hi[0] - lo[0])
    return hi[1] - lo[1] > hi[0] - lo[0] ? 1 : 0;
  return hi[1] > hi[0] ? 1 : 0;
}

/* Row i's value of swept key k (as the tables show it). */
static const char *ns__kv(const struct ns__report *r, size_t i, size_t k) {
  return r->keyv[i * r->d->nkeys + k];
}

/* first[k * n + i]: the first row with row i's value of key k. */
static size_t *ns__first_rows(const struct ns__report *r) {
  size_t nk = r->d->nkeys, i, j, k;
  size_t *first = malloc((nk ? nk : 1) * (r->n ? r->n : 1) * sizeof(*first));
  if (first == NULL)
    return NULL;
  for (k = 0; k < nk; k++)
    for (i = 0; i < r->n; i++) {
      for (j = 0; j < i && strcmp(ns__kv(r, j, k), ns__kv(r, i, k)) != 0; j++)
        ;
      first[k * r->n + i] = j;
    }
  return first;
}

/* True if key a's value determines key b's over the rows (first: ns__first_rows). */
static bool ns__determines(const struct ns__report *r, const size_t *first, size_t a, size_t b) {
  for (size_t i = 0; i < r->n; i++)
    if (first[b * r->n + first[a * r->n + i]] != first[b * r->n + i])
      return false;
  return true;
}

/* True if swept key k is run.seed (repeats: averaged, never an axis). */
static bool ns__is_seed(const struct ns__report *r, size_t k) {
  return strcmp(r->d->keys[k], "run.seed") == 0;
}

/* Writes "KEY = VALUE" of row i for key k. */
static void ns__put_kv(FILE *f, const struct ns__report *r, size_t i, size_t k) {
  ns__put(f, r->html, r->d->keys[k]);
  fputs(" = ", f);
  ns__put(f, r->html, ns__kv(r, i, k));
}

/* A value of a numeric key along one context: the mean headline figure of
 * its rows. */
struct ns__step {
  double x, sum;
  size_t n, row; /* rows averaged; the first of them */
};

static int ns__by_x(const void *a, const void *b) {
  const struct ns__step *p = a, *q = b;
  return p->x < q->x ? -1 : p->x > q->x;
}

/* One list item: "- " or "<li>", closed by ns__item_end. */
static void ns__item(FILE *f, bool h, int depth) {
  if (h)
    fputs("<li>", f);
  else
    fprintf(f, "%*s- ", 2 * depth, "");
}
static void ns__item_end(FILE *f, bool h) {
  fputs(h ? "</li>\n" : "\n", f);
}

/* The scaling lines of numeric key k (partners: keys that vary with it, a
 * zip group) at every context, or the baseline's when there are many.
 * first: ns__first_rows; hc: the headline column. Returns lines written. */
static size_t ns__scaling_key(FILE *f, const struct ns__report *r, const size_t *first, size_t k,
                              int hc, const char *unit) {
  const bool h = r->html;
  const size_t nk = r->d->nkeys, n = r->n;
  bool *ctx_key = calloc(nk ? nk : 1, sizeof(*ctx_key));
  size_t *ctx = malloc(n * sizeof(*ctx)), nctx = 0, i, j, c, written = 0;
  struct ns__step *st = malloc(n * sizeof(*st));

  if (ctx_key == NULL || ctx == NULL || st == NULL)
    goto out;
  /* The context of a row: its values of the keys that do not vary with k. */
  for (c = 0; c < nk; c++) {
    bool varies = false;
    for (i = 0; i < n && !varies; i++)
      varies = first[c * n + i] != 0;
    ctx_key[c] = varies && c != k && !ns__is_seed(r, c) &&
                 !(ns__determines(r, first, k, c) && ns__determines(r, first, c, k));
  }
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (c = 0; c < nk && (!ctx_key[c] || first[c * n + i] == first[c * n + j]); c++)
        ;
      if (c == nk)
        break;
    }
    ctx[i] = j; /* the first row of the same context */
    nctx += j == i;
  }
  for (size_t c0 = 0; c0 < n; c0++) {
    size_t ns = 0, s;
    double x;
    char *end;
    if (ctx[c0] != c0 || (nctx > NS__MAX_CONTEXTS && ctx[r->base] != c0))
      continue;
    for (i = c0; i < n; i++) {
      double v = r->val[i * NS__NCOLS + hc];
      if (ctx[i] != c0 || !isfinite(v))
        continue;
      x = strtod(ns__kv(r, i, k), &end);
      if (end == ns__kv(r, i, k) || *end != '\0' || !isfinite(x))
        goto out; /* not a number after all: no line for this key */
      for (s = 0; s < ns && st[s].x != x; s++)
        ;
      if (s == ns)
        st[ns++] = (struct ns__step){x, 0, 0, i};
      st[s].sum += v;
      st[s].n++;
    }
    if (ns < 2)
      continue;
    qsort(st, ns, sizeof(*st), ns__by_x);
    ns__item(f, h, 1);
    for (s = 0; s + 1 < ns; s++) {
      double a = st[s].sum / (double)st[s].n, b = st[s + 1].sum / (double)st[s + 1].n;
      double gain = a > 0 ? 100.0 * (b - a) / a : b > a ? INFINITY : 0;
      if (gain < NS__SCALING_PCT)
        break;
    }
    fputs("throughput ", f);
    if (s + 1 < ns) {
      double a = st[s].sum / (double)st[s].n, b = st[s + 1].sum / (double)st[s + 1].n;
      fputs("stops scaling at ", f);
      ns__put_kv(f, r, st[s].row, k);
      fputs(" (", f);
      if (a > 0)
        fprintf(f, "%+.1f %%", 100.0 * (b - a) / a);
      else
        fprintf(f, "%+.3f %s", b - a, unit);
      fputs(" from ", f);
      ns__put(f, h, ns__kv(r, st[s].row, k));
      fputs(" to ", f);
      ns__put(f, h, ns__kv(r, st[s + 1].row, k));
      fputc(')', f);
    } else {
      fputs("keeps scaling up to ", f);
      ns__put_kv(f, r, st[ns - 1].row, k);
      fprintf(f, " (every step gains %.0f %% or more)", NS__SCALING_PCT);
    }
    for (c = 0, j = 0; c < nk; c++)
      if (c != k && !ctx_key[c] && !ns__is_seed(r, c) && ns__determines(r, first, k, c) &&
          ns__determines(r, first, c, k)) {
        fputs(j++ ? ", " : ", with ", f);
        ns__put(f, h, r->d->keys[c]);
      }
    for (c = 0, j = 0; c < nk; c++)
      if (ctx_key[c]) {
        fputs(j++ ? ", " : ", at ", f);
        ns__put_kv(f, r, c0, c);
      }
    if (nctx > NS__MAX_CONTEXTS)
      fputs(" (the baseline's values)", f);
    ns__item_end(f, h);
    written++;
  }
out:
  free(ctx_key);
  free(ctx);
  free(st);
  return written;
}

/* The bottleneck and where it moves: by the first swept key whose value
 * decides it, else by point index. */
static void ns__summary_limits(FILE *f, const struct ns__report *r, const size_t *first) {
  const bool h = r->html;
  const size_t n = r->n, nk = r->d->nkeys;
  size_t i, j, k, q, by = nk;
  bool one = true;

  for (i = 1; i < n; i++)
    one = one && strcmp(r->limit[i], r->limit[0]) == 0;
  ns__item(f, h, 0);
  fputs("Bottleneck: ", f);
  if (one) {
    ns__put(f, h, r->limit[0]);
    fputs(" at every point with results", f);
    ns__item_end(f, h);
    return;
  }
  for (k = 0; k < nk && by == nk; k++) {
    bool decides = !ns__is_seed(r, k);
    for (i = 0; i < n && decides; i++)
      decides = strcmp(r->limit[i], r->limit[first[k * n + i]]) == 0;
    if (decides)
      by = k;
  }
  for (i = 0, q = 0; i < n; i++) {
    bool seen = false;
    for (j = 0; j < i && !seen; j++)
      seen = strcmp(r->limit[j], r->limit[i]) == 0;
    if (seen)
      continue;
    fputs(q++ ? "; " : "", f);
    ns__put(f, h, r->limit[i]);
    if (by < nk) {
      fputs(" at ", f);
      ns__put(f, h, r->d->keys[by]);
      fputs(" = ", f);
      for (j = i, k = 0; j < n; j++)
        if (strcmp(r->limit[j], r->limit[i]) == 0 && first[by * n + j] == j) {
          fputs(k++ ? ", " : "", f);
          ns__put(f, h, ns__kv(r, j, by));
        }
    } else {
      fputs(" at #", f);
      for (j = i, k = 0; j < n; j++)
        if (strcmp(r->limit[j], r->limit[i]) == 0)
          fprintf(f, "%s%zu", k++ ? ", #" : "", r->idx[j]);
    }
  }
  ns__item_end(f, h);
}

/* A point's index and label: "#3 LABEL". */
static void ns__put_point(FILE *f, const struct ns__report *r, size_t index) {
  const char *label = ns_sweepdir_label(r->d, index);
  fprintf(f, "#%zu ", index);
  ns__put(f, r->html, label[0] ? label : "(unlabelled)");
}

/* Best or worst row: its value and change against the baseline. */
static void ns__summary_extreme(FILE *f, const struct ns__report *r, const char *what, size_t row,
                                int hc, const char *unit) {
  const bool h = r->html;
  double v = r->val[row * NS__NCOLS + hc], b = r->val[r->base * NS__NCOLS + hc];
  ns__item(f, h, 0);
  fprintf(f, "%s: %.3f %s at ", what, v, unit);
  ns__put_point(f, r, r->idx[row]);
  if (row == r->base)
    fputs(" (the baseline)", f);
  else if (isfinite(b)) {
    fputs(" (", f);
    if (b != 0)
      fprintf(f, "%+.1f %%, ", 100.0 * (v - b) / fabs(b));
    fprintf(f, "%+.3f %s against the baseline)", v - b, unit);
  }
  ns__item_end(f, h);
}

/* Writes the Summary section. */
static void ns__summary(FILE *f, const struct ns__report *r) {
  const bool h = r->html;
  const int hc = ns__headline(r);
  const char *metric = hc == 1 ? "tx.gbps" : "rx.gbps", *unit = "Gbit/s";
  size_t *first = ns__first_rows(r);
  size_t i, k, best = 0, worst = 0, nfailed = 0, lines = 0;
  char why[512];

  fputs(h ? "<h2>Summary</h2>\n<ul>\n" : "\n## Summary\n\n", f);
  if (hc < 0) {
    ns__item(f, h, 0);
    fputs("No point reports rx.gbps or tx.gbps: no throughput to compare.", f);
    ns__item_end(f, h);
  } else {
    bool found = false;
    for (i = 0; i < r->n; i++) {
      double v = r->val[i * NS__NCOLS + hc];
      if (!isfinite(v))
        continue;
      if (!found || v > r->val[best * NS__NCOLS + hc])
        best = i;
      if (!found || v < r->val[worst * NS__NCOLS + hc])
        worst = i;
      found = true;
    }
    ns__item(f, h, 0);
    fprintf(f, "Headline metric: %s (%s), the throughput the sweep moves most; baseline ", metric,
            hc == 1 ? "TX" : "RX");
    ns__put_point(f, r, r->idx[r->base]);
    if (isfinite(r->val[r->base * NS__NCOLS + hc]))
      fprintf(f, " at %.3f %s", r->val[r->base * NS__NCOLS + hc], unit);
    fputc('.', f);
    ns__item_end(f, h);
    ns__summary_extreme(f, r, "Best", best, hc, unit);
    ns__summary_extreme(f, r, "Worst", worst, hc, unit);
    ns__item(f, h, 0);
    fprintf(f, "Scaling along each numeric swept key (where a step to the next value gains less "
               "than %.0f %% of %s, averaged over repeats):",
            NS__SCALING_PCT, metric);
    fputs(h ? "\n<ul>\n" : "\n", f);
    for (k = 0; first != NULL && k < r->d->nkeys; k++) {
      const struct nc_key *key = nc_key_find(r->d->keys[k]);
      size_t j;
      bool earlier_partner = false;
      if (key == NULL || (key->type != NC_INT && key->type != NC_REAL) || ns__is_seed(r, k))
        continue;
      /* A zip group gets one line, under its first key. */
      for (j = 0; j < k && !earlier_partner; j++)
        earlier_partner = ns__determines(r, first, k, j) && ns__determines(r, first, j, k);
      if (!earlier_partner)
        lines += ns__scaling_key(f, r, first, k, hc, unit);
    }
    if (lines == 0) {
      ns__item(f, h, 1);
      fputs("no numeric swept key with two or more values that have results", f);
      ns__item_end(f, h);
    }
    fputs(h ? "</ul></li>\n" : "", f); /* (the nested list ended the item's line) */
  }
  if (first != NULL)
    ns__summary_limits(f, r, first);
  ns__item(f, h, 0);
  fprintf(f, "%zu of %zu points have results", r->n, r->d->n);
  for (i = 0; i < r->d->n; i++)
    nfailed += !r->d->have[i];
  if (nfailed == 0) {
    fputc('.', f);
    ns__item_end(f, h);
  } else {
    fprintf(f, "; %zu without:", nfailed);
    fputs(h ? "\n<ul>\n" : "\n", f);
    for (i = 0, k = 0; i < r->d->n && k < NS__MAX_FAILED; i++) {
      if (r->d->have[i])
        continue;
      k++;
      ns__item(f, h, 1);
      ns__put_point(f, r, i);
      fputs(": ", f);
      if (ns_sweepdir_point_error(r->d, i, why, sizeof(why)))
        ns__put(f, h, why);
      else
        fputs("no result and no error record (not run yet, or another shard's)", f);
      ns__item_end(f, h);
    }
    if (nfailed > k) {
      ns__item(f, h, 1);
      fprintf(f, "and %zu more", nfailed - k);
      ns__item_end(f, h);
    }
    fputs(h ? "</ul></li>\n" : "", f);
  }
  fputs(h ? "</ul>\n" : "", f);
  free(first);
}

/* Writes the whole report (nicsim_emit_fn), Markdown or HTML. */
static int ns__emit_report(FILE *f, void *arg) {
  struct ns__report *r = arg;
  json_t *m = r->d->manifest;
  const char *name = ns_json_str(m, "scenario", "");
  const char *file = ns_json_str(m, "file", "");
  const char *hash = ns_json_str(m, "hash", "");
  const char *ver = ns_json_str(m, "nicsim", "");
  const char *base = ns_sweepdir_label(r->d, r->idx[r->base]);
  bool h = r->html;
  size_t k;

  if (h) {
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>nicsim report: ", f);
    ns__put(f, h, name);
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto}"
          "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #bbb;padding:"
          "3px 6px;text-align:right}td:nth-child(2),th:nth-child(2){text-align:left}"
          "tr.base{background:#eef}img{max-width:100%}</style></head><body>\n<h1>Sweep report: ",
          f);
    ns__put(f, h, name);
    fputs("</h1>\n", f);
    ns__summary(f, r);
    fputs("<p>", f);
  } else {
    fprintf(f, "# Sweep report: ");
    ns__put(f, h, name);
    fputs("\n", f);
    ns__summary(f, r);
    fputs("\n", f);
  }
  ns__put(f, h, r->description);
  /* (No Markdown code span: escapes are not read inside one.) */
  fputs(h ? "</p>\n<ul>\n<li>Scenario file: <code>" : "\n\n- Scenario file: ", f);
  ns__put(f, h, file);
  fprintf(f, h ? "</code></li>\n<li>Points: %zu of %zu with results; config hash "
               : "\n- Points: %zu of %zu with results; config hash ",
          r->n, r->d->n);
  ns__put(f, h, hash);
  fputs("; nicsim ", f);
  ns__put(f, h, ver);
  fputs(h ? "</li>\n" : "\n", f);
  fputs(h ? "<li>Swept: " : "- Swept: ", f);
  for (k = 0; k < r->d->nkeys; k++) {
    fputs(k ? ", " : "", f);
    ns__put(f, h, r->d->keys[k]);
  }
  /* The command line's additions to every point (sweep.json of nicsim 0.x
   * before they were recorded has neither list: nothing is said). */
  for (int list = 0; list < 2; list++) {
    const json_t *a = json_object_get(r->d->manifest, list ? "overlays" : "overrides");
    if (!json_is_array(a))
      continue;
    fputs(h ? "</li>\n<li>" : "\n- ", f);
    fputs(list ? "Overlay files (--overlay): " : "Overrides (--set): ", f);
    if (json_array_size(a) == 0)
      fputs("none", f);
    for (size_t q = 0; q < json_array_size(a); q++) {
      const char *v = json_string_value(json_array_get(a, q));
      fputs(q ? ", " : "", f);
      ns__put(f, h, v ? v : "?");
    }
  }
  fputs(h ? "</li>\n<li>Baseline for the deltas: " : "\n- Baseline for the deltas: ", f);
  ns__put(f, h, base[0] ? base : "(unlabelled)");
  fputs(h ? "</li>\n</ul>\n<h2>Setup</h2>\n<table>\n<tr><th>key</th><th>value</th></tr>\n"
          : "\n\n## Setup\n\n| key | value |\n|---|---:|\n",
        f);
  fputs(h ? "<tr><td>platform</td><td>" : "| platform | ", f);
  ns__put(f, h, r->platform[0] ? r->platform : "(defaults)");
  fputs(h ? "</td></tr>\n" : " |\n", f);
  for (k = 0; k < sizeof(ns__setup_keys) / sizeof(*ns__setup_keys); k++) {
    if (!r->setup[k][0])
      continue;
    fputs(h ? "<tr><td>" : "| ", f);
    ns__put(f, h, ns__setup_keys[k]);
    fputs(h ? "</td><td>" : " | ", f);
    ns__put(f, h, r->setup[k]);
    fputs(h ? "</td></tr>\n" : " |\n", f);
  }
  fputs(h ? "</table>\n" : "\nThe full resolved configuration of each point is in points/*.json.\n", f);
  if (r->nplots > 0) {
    fputs(h ? "<h2>Plots</h2>\n" : "\n## Plots\n\n", f);
    for (k = 0; k < r->nplots; k++) {
      /* A file name: percent-encoded in the link, escaped as text. */
      fputs(h ? "<p><img src=\"plots/" : "![", f);
      if (h)
        nicsim_put_url_path(f, r->plots[k]);
      else
        ns__put(f, h, r->plots[k]);
      fputs(h ? ".svg\" alt=\"" : "](plots/", f);
      if (h)
        ns__put(f, h, r->plots[k]);
      else
        nicsim_put_url_path(f, r->plots[k]);
      fputs(h ? "\"></p>\n" : ".svg)\n\n", f);
    }
  }
  ns__limits(f, r);
  fputs(h ? "<h2>Key metrics</h2>\n<p>" : "\n## Key metrics\n\n", f);
  fputs("Change against the baseline in parentheses (relative; absolute where the baseline is "
        "0). Counters cover the measurement window.",
        f);
  fputs(h ? "</p>\n" : "\n\n", f);
  ns__table(f, r, 0, NS__NKEY);
  fputs(h ? "<h2>Mechanisms</h2>\n<p>" : "\n## Mechanisms\n\n", f);
  fputs("Why the figures move: PCIe TLPs (both directions) and uncached CPU loads and MMIO "
        "writes per frame (RX plus TX frames), descriptor fetch requests per frame, interrupts "
        "per second of simulated time and CPU cycles per received frame.",
        f);
  fputs(h ? "</p>\n" : "\n\n", f);
  ns__table(f, r, NS__NKEY, NS__NCOLS);
  fputs(h ? "<p>Generated by <code>nicsim report</code>; the numbers are in results.csv.</p>\n"
            "</body></html>\n"
          : "\nGenerated by `nicsim report`; the numbers are in results.csv.\n",
        f);
  return ferror(f) ? -EIO : 0;
}

/* Adds name to r->plots unless it is there; false on ENOMEM. */
static bool ns__add_plot(struct ns__report *r, const char *name) {
  size_t k;
  void *p;
  for (k = 0; k < r->nplots; k++)
    if (strcmp(r->plots[k], name) == 0)
      return true;
  p = realloc(r->plots, (r->nplots + 1) * sizeof(*r->plots));
  if (p == NULL)
    return false;
  r->plots = p;
  snprintf(r->plots[r->nplots++], 256, "%s", name);
  return true;
}

/* Lists the plots with an SVG in DIR/plots into r->plots: those `nicsim plot`
 * draws, in its order (declared, or the defaults'), then any others, sorted. */
static int ns__find_plots(const char *cmd, struct ns__report *r, const char *dir) {
  char path[NC_PATH_MAX + 16], names[100][64];
  size_t n, k, first;
  struct stat st;
  DIR *d;
  struct dirent *e;
  int status;

  if ((status = ns_plot_names(cmd, r->d, names, sizeof(names) / sizeof(*names), &n)) != 0)
    return status;
  for (k = 0; k < n; k++) {
    snprintf(path, sizeof(path), "%s/plots/%s.svg", dir, names[k]);
    if (stat(path, &st) == 0 && !ns__add_plot(r, names[k]))
      return 0;
  }
  first = r->nplots;
  snprintf(path, sizeof(path), "%s/plots", dir);
  if ((d = opendir(path)) == NULL)
    return 0;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 5 || len > 250 || strcmp(e->d_name + len - 4, ".svg") != 0)
      continue;
    e->d_name[len - 4] = '\0';
    if (!ns__add_plot(r, e->d_name))
      break;
  }
  closedir(d);
  qsort(r->plots + first, r->nplots - first, sizeof(*r->plots),
        (int (*)(const void *, const void *))strcmp);
  return 0;
}

/* Writes DIR/report.md and DIR/report.html. */
int nicsim_study_report(const char *cmd, const char *dir, const char *baseline, bool plots,
                        bool quiet) {
  struct ns_sweepdir d;
  struct ns__report r;
  char why[512], path[NC_PATH_MAX + 16];
  size_t i, c, k;
  long want = -1;
  int status, rc;

  if (cmd == NULL)
    cmd = "report";
  memset(&r, 0, sizeof(r));
  if ((status = ns_sweepdir_open(&d, cmd, dir)) != 0)
    goto out;
  r.d = &d;
  r.n = ns_sweepdir_count(&d);
  if (r.n == 0) {
    ns_eprintf("nicsim %s: %s holds no point results\n", cmd, dir);
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  if (baseline != NULL) {
    for (i = 0; i < d.n && want < 0; i++)
      if (strcmp(ns_sweepdir_label(&d, i), baseline) == 0)
        want = (long)i;
    if (want < 0) {
      ns_eprintf("nicsim %s: no point labelled '%s' in %s\n  hint: e.g. '%s'\n", cmd,
              baseline, dir, ns_sweepdir_label(&d, 0));
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  } else {
    want = d.baseline;
  }
  /* Rendered only once the input is known to be good. */
  if (plots && (status = nicsim_study_plot(cmd, dir, quiet)) != 0)
    goto out;
  r.idx = calloc(r.n, sizeof(*r.idx));
  r.val = calloc(r.n * NS__NCOLS, sizeof(*r.val));
  r.keyv = calloc(r.n * (d.nkeys ? d.nkeys : 1), sizeof(*r.keyv));
  r.used = calloc(NS__NCOLS, sizeof(*r.used));
  r.limit = calloc(r.n ? r.n : 1, sizeof(*r.limit));
  r.verdict = calloc(r.n ? r.n : 1, sizeof(*r.verdict));
  if (r.idx == NULL || r.val == NULL || r.keyv == NULL || r.used == NULL || r.limit == NULL || r.verdict == NULL) {
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  for (i = 0; i < r.n; i++) {
    r.idx[i] = ns_sweepdir_nth(&d, i);
    if ((long)r.idx[i] == want)
      r.base = i;
    if (ns_sweepdir_load(&d, r.idx[i], why, sizeof(why)) != 0) {
      ns_eprintf("nicsim %s: %s\n", cmd, why);
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    {
      /* The verdict from the point's config and metrics, as its run printed it. */
      struct nicsim_analysis *a = malloc(sizeof(*a));
      if (a == NULL) {
        status = NICSIM_STUDY_BAD_INPUT;
        goto out;
      }
      nicsim_analyse(d.cfg, d.res, a);
      snprintf(r.limit[i], sizeof(r.limit[i]), "%s", nicsim_analysis_bottleneck(a));
      nicsim_analysis_line(a, r.verdict[i], sizeof(r.verdict[i]));
      free(a);
    }
    for (c = 0; c < NS__NCOLS; c++) {
      r.val[i * NS__NCOLS + c] = ns__col_value(ns__col(c), d.res);
      r.used[c] = r.used[c] || (!isnan(r.val[i * NS__NCOLS + c]) &&
                                (r.val[i * NS__NCOLS + c] != 0 || c >= NS__NKEY ||
                                 strstr(ns__col(c)->head, "drops") != NULL));
    }
    for (k = 0; k < d.nkeys; k++) {
      const struct nc_key *key = nc_key_find(d.keys[k]);
      if (key)
        nc_value_format(d.cfg, key, r.keyv[i * d.nkeys + k], NC_STR_MAX);
      else
        snprintf(r.keyv[i * d.nkeys + k], NC_STR_MAX, "%.255s", d.cfg->platform);
    }
    for (k = 0; k < sizeof(ns__setup_keys) / sizeof(*ns__setup_keys); k++) {
      const struct nc_key *key = nc_key_find(ns__setup_keys[k]);
      char v[NC_STR_MAX];
      if (key == NULL)
        continue;
      nc_value_format(d.cfg, key, v, sizeof(v));
      if (i == 0)
        snprintf(r.setup[k], NC_STR_MAX, "%s", v);
      else if (strcmp(r.setup[k], v) != 0)
        snprintf(r.setup[k], NC_STR_MAX, "(varies)");
    }
    if (i == 0) {
      snprintf(r.platform, sizeof(r.platform), "%s", d.cfg->platform);
      snprintf(r.description, sizeof(r.description), "%s", d.cfg->description);
    } else if (strcmp(r.platform, d.cfg->platform) != 0) {
      snprintf(r.platform, sizeof(r.platform), "(varies)");
    }
  }
  if ((status = ns__find_plots(cmd, &r, dir)) != 0)
    goto out;
  for (int html = 0; html < 2; html++) {
    r.html = html;
    snprintf(path, sizeof(path), "%s/report.%s", dir, html ? "html" : "md");
    if ((rc = nicsim_write_atomic(path, ns__emit_report, &r)) < 0) {
      ns_eprintf("nicsim %s: cannot write %s: %s\n", cmd, path, nicsim_strerror(-rc));
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  }
  if (!quiet)
    ns_eprintf("nicsim: report in %s/report.md and %s/report.html\n", dir, dir);
out:
  free(r.idx);
  free(r.val);
  free(r.keyv);
  free(r.used);
  free(r.limit);
  free(r.verdict);
  free(r.plots);
  ns_sweepdir_close(&d);
  return status;
}
