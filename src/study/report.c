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
    fputs("</h1>\n<p>", f);
  } else {
    fprintf(f, "# Sweep report: ");
    ns__put(f, h, name);
    fputs("\n\n", f);
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
      ns_eprintf("nicsim %s: cannot write %s: %s\n", cmd, path, strerror(-rc));
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
