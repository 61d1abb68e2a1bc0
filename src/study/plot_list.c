/* plot_list.c: which plots `nicsim plot` draws for a sweep directory: those
 * sweep.json declares (checked, as a hand-edited file may be anything), else
 * the default ones; and the helpers of key texts both halves of plot share. */
#define _XOPEN_SOURCE 700

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/sweep.h"
#include "study/plot_internal.h"
#include "study/study_internal.h"

/* Text of a swept key (or "label") in cfg. */
void ns_key_text(const struct nicsim_config *cfg, const char *key, char *buf, size_t n) {
  const struct nc_key *k = nc_key_find(key);
  if (k != NULL)
    nc_value_format(cfg, k, buf, n);
  else if (strcmp(key, "platform") == 0)
    snprintf(buf, n, "%s", cfg->platform);
  else
    snprintf(buf, n, "%s", cfg->label);
}

/* True if text is a finite number. */
bool ns_numeric(const char *text) {
  char *end;
  double v = strtod(text, &end);
  return end != text && *end == '\0' && isfinite(v);
}

/* True if metric name is present and finite (and, if nonzero, not 0) in any
 * point. */
static bool ns__any_has(struct ns_sweepdir *d, const char *name, bool nonzero) {
  char why[512];
  size_t i;
  double v;
  for (i = 0; i < d->n; i++)
    if (d->have[i] && ns_sweepdir_load(d, i, why, sizeof(why)) == 0 &&
        nicsim_results_get(d->res, name, &v) && isfinite(v) && (v != 0 || !nonzero))
      return true;
  return false;
}

/* Fills the default plots: headline metrics against the first swept key. */
static size_t ns__default_plots(struct ns_sweepdir *d, struct ns_plot *out, size_t max) {
  static const char *const headline[] = {"cpu.util", "irq.per_sec", "nic.desc_fetch_reqs_per_pkt",
                                         "pcie.up.util"};
  const char *x = d->nkeys > 0 ? d->keys[0] : "label";
  const char *series = "";
  size_t n = 0, i, j, npts = 0;
  bool numeric = true;
  char xt[NC_PATH_MAX], why[512];

  if (strcmp(x, "run.seed") == 0)
    x = "label";
  for (i = 1; i < d->nkeys && !series[0]; i++)
    if (strcmp(d->keys[i], "run.seed") != 0)
      series = d->keys[i];
  for (i = 0; i < d->n; i++)
    if (d->have[i] && ns_sweepdir_load(d, i, why, sizeof(why)) == 0) {
      ns_key_text(d->cfg, x, xt, sizeof(xt));
      numeric = numeric && ns_numeric(xt);
      npts++;
    }
  for (j = 0; j < 1 + sizeof(headline) / sizeof(*headline) && n < max; j++) {
    struct ns_plot *p = &out[n];
    memset(p, 0, sizeof(*p));
    snprintf(p->x, sizeof(p->x), "%s", x);
    snprintf(p->series, sizeof(p->series), "%s", series);
    p->bar = !numeric;
    p->automatic = true;
    if (j == 0) {
      snprintf(p->name, sizeof(p->name), "throughput");
      if (ns__any_has(d, "rx.gbps", true))
        p->y[p->ny++] = "rx.gbps";
      if (ns__any_has(d, "tx.gbps", true))
        p->y[p->ny++] = "tx.gbps";
      if (p->ny == 0)
        continue;
    } else {
      /* A metric the runs do not report (pcie.* on an on-chip bus) has no plot. */
      if (!ns__any_has(d, headline[j - 1], false))
        continue;
      p->y[p->ny++] = headline[j - 1];
      snprintf(p->name, sizeof(p->name), "%s", headline[j - 1]);
      for (char *c = p->name; *c; c++)
        if (*c == '.')
          *c = '_';
    }
    n++;
  }
  return npts > 0 ? n : 0;
}

/* Fills plots (up to max) with the plots of d: those sweep.json declares, in
 * their order, else the default ones. 0, or NICSIM_STUDY_BAD_INPUT after reporting a
 * declared plot that cannot be drawn. */
int ns_plot_list(const char *cmd, struct ns_sweepdir *d, struct ns_plot *plots,
                         size_t max, size_t *n) {
  json_t *decl = json_object_get(d->manifest, "plots"), *e;
  const char *bad;
  size_t i, q;

  *n = 0;
  json_array_foreach(decl, i, e) {
    struct ns_plot *p = &plots[*n];
    json_t *y = json_object_get(e, "y");
    if (*n >= max) {
      /* Never dropped without a word. */
      ns_eprintf("nicsim %s: %s/sweep.json declares %zu plots; only the first %zu are drawn "
                 "(from '%s' on, %zu are not)\n",
                 cmd, d->dir, json_array_size(decl), max, ns_json_str(e, "name", "?"),
                 json_array_size(decl) - i);
      break;
    }
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", ns_json_str(e, "name", ""));
    snprintf(p->title, sizeof(p->title), "%s", ns_json_str(e, "title", ""));
    snprintf(p->x, sizeof(p->x), "%s", ns_json_str(e, "x", "label"));
    snprintf(p->series, sizeof(p->series), "%s",
             ns_json_str(e, "series", ""));
    snprintf(p->xlabel, sizeof(p->xlabel), "%s",
             ns_json_str(e, "xlabel", ""));
    snprintf(p->ylabel, sizeof(p->ylabel), "%s",
             ns_json_str(e, "ylabel", ""));
    const char *kind = ns_json_str(e, "kind", "line");
    p->bar = strcmp(kind, "bar") == 0;
    p->logx = json_is_true(json_object_get(e, "logx"));
    p->logy = json_is_true(json_object_get(e, "logy"));
    for (q = 0; q < json_array_size(y) && q < NC_PLOT_MAX_Y; q++)
      p->y[p->ny++] = ns_json_at(y, q, "");
    for (q = 0; q < json_array_size(json_object_get(e, "panels")) && q < NC_PLOT_MAX_PANEL_KEYS; q++)
      p->panels[p->npanels++] = ns_json_at(json_object_get(e, "panels"), q, "");
    /* sweep.json may have been edited: its name becomes a file name. */
    bad = nc_plot_name_bad_char(p->name);
    if (!p->name[0] || bad != NULL || p->ny == 0) {
      ns_eprintf(
              "nicsim %s: %s/sweep.json: plot %zu %s\n"
              "  hint: a plot needs a name of letters, digits, _ and - and at least one y "
              "metric; run 'nicsim sweep' again to rewrite sweep.json\n",
              cmd, d->dir, i + 1,
              !p->name[0] ? "has no name"
              : bad       ? "has a name that is not a file name"
                          : "has no y metric");
      return NICSIM_STUDY_BAD_INPUT;
    }
    /* The rest of a declared plot is checked as the loader checks plots:
     * sweep.json may have been edited (issue 23, #15). */
    if (!p->bar && strcmp(kind, "line") != 0) {
      ns_eprintf("nicsim %s: %s/sweep.json: plot '%s': unknown kind '%s'\n"
                  "  hint: kind is line or bar\n",
                  cmd, d->dir, p->name, kind);
      return NICSIM_STUDY_BAD_INPUT;
    }
    for (q = 0; q < p->ny; q++)
      if (nicsim_metric_find(p->y[q]) < 0 && !nicsim_metric_is_extra_name(p->y[q])) {
        const char *near = nicsim_metric_suggest(p->y[q]);
        ns_eprintf("nicsim %s: %s/sweep.json: plot '%s': unknown metric '%s'\n  hint: %s%s%s\n",
                    cmd, d->dir, p->name, p->y[q], near ? "did you mean '" : "",
                    near ? near : "y names metrics of docs/metrics.md", near ? "'?" : "");
        return NICSIM_STUDY_BAD_INPUT;
      }
    for (q = 0; q < 2; q++) {
      const char *k = q == 0 ? p->x : p->series;
      if (k[0] && strcmp(k, "label") != 0 && strcmp(k, "platform") != 0 && nc_key_find(k) == NULL) {
        ns_eprintf("nicsim %s: %s/sweep.json: plot '%s': %s '%s' is not a configuration key\n"
                    "  hint: x and series name swept keys (or label)\n",
                    cmd, d->dir, p->name, q == 0 ? "x" : "series", k);
        return NICSIM_STUDY_BAD_INPUT;
      }
    }
    for (q = 0; q < p->npanels; q++) {
      size_t k;
      bool swept = false;
      for (k = 0; k < d->nkeys; k++)
        swept = swept || strcmp(d->keys[k], p->panels[q]) == 0;
      if (!swept || strcmp(p->panels[q], p->x) == 0 || strcmp(p->panels[q], p->series) == 0) {
        ns_eprintf("nicsim %s: %s/sweep.json: plot '%s': panels key '%s' is %s\n"
                   "  hint: panels name swept keys other than x and series; run 'nicsim sweep' "
                   "again to rewrite sweep.json\n",
                   cmd, d->dir, p->name, p->panels[q], swept ? "x or the series" : "not a swept key");
        return NICSIM_STUDY_BAD_INPUT;
      }
    }
    (*n)++;
  }
  if (*n == 0)
    *n = ns__default_plots(d, plots, max);
  return 0;
}

/* The names of the plots `nicsim plot` draws for d, in drawing order. */
int ns_plot_names(const char *cmd, struct ns_sweepdir *d, char (*names)[64], size_t max,
                  size_t *n) {
  struct ns_plot *plots = calloc(max ? max : 1, sizeof(*plots));
  size_t i;
  int status;

  *n = 0;
  if (plots == NULL) {
    ns_eprintf("nicsim %s: out of memory\n", cmd);
    return NICSIM_STUDY_BAD_INPUT;
  }
  status = ns_plot_list(cmd, d, plots, max, n);
  for (i = 0; status == 0 && i < *n; i++)
    snprintf(names[i], 64, "%s", plots[i].name);
  free(plots);
  return status;
}

