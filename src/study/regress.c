/* regress.c: `nicsim regress` (nicsim_study_regress): runs every entry of a
 * regression suite as a sweep (nicsim_study_sweep: each point in its own
 * process, -j at a time), compares the chosen metrics with the stored
 * baselines under their tolerances, prints the table, writes JUnit XML, or
 * (--update) rewrites the baselines and prints what changed. docs/regress.md
 * describes it all; regress_suite.c reads the suite and the baselines. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results/escape.h"
#include "results/safety.h"
#include "study/regress_internal.h"
#include "study/regress_suite.h"
#include "study/study_internal.h"

/* Seconds since t0. */
static double rg__elapsed(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* "entry" or "entry/label". */
static void rg__where(const struct rg_entry *r, const struct rg_point *p, char *buf, size_t n) {
  snprintf(buf, n, "%s%s%s", r->e->name, p->label[0] ? "/" : "", p->label);
}

/* Finds the default suite: tests/regress/suite.yaml in the current
 * directory or its nearest parent that has one. */
static int rg__find_suite(char *buf, size_t n) {
  char dir[NC_PATH_MAX];
  struct stat st;

  if (getcwd(dir, sizeof(dir)) == NULL)
    return -1;
  for (;;) {
    snprintf(buf, n, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, NICSIM_REGRESS_DEFAULT_SUITE);
    if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
      return 0;
    char *slash = strrchr(dir, '/');
    if (slash == NULL || strcmp(dir, "/") == 0)
      return -1;
    if (slash == dir)
      slash[1] = '\0';
    else
      *slash = '\0';
  }
}

/* Loads an entry's scenario and resolves every point (as the sweep will),
 * filling the labels. 0 or NICSIM_STUDY_BAD_INPUT (reported). */
static int rg__prepare(struct rg_entry *r) {
  struct nc_scenario *scen = NULL;
  struct nicsim_config *cfg = calloc(1, sizeof(*cfg));
  struct nc_error err;
  int status = NICSIM_STUDY_BAD_INPUT;
  size_t i, np;

  memset(&err, 0, sizeof(err));
  if (cfg == NULL) {
    ns_eprintf("nicsim regress: out of memory\n");
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (r->e->builtin) {
    if (nc_scenario_load_builtin(r->e->path, &scen, &err) != 0) {
      nc_error_print(&err, stderr);
      goto out;
    }
  } else if (ns_load(r->e->path, &scen) != 0) {
    goto out;
  }
  np = nc_scenario_npoints(scen);
  r->npoints = np ? np : 1;
  r->pts = calloc(r->npoints, sizeof(*r->pts));
  if (r->pts == NULL)
    goto oom;
  for (i = 0; i < r->npoints; i++) {
    struct rg_point *p = &r->pts[i];
    const char *label = np ? nc_scenario_point_label(scen, i) : "";
    size_t m = r->e->nmetrics ? r->e->nmetrics : 1;
    p->label = strdup(label ? label : "");
    p->now = calloc(m, sizeof(*p->now));
    p->have_now = calloc(m, sizeof(*p->have_now));
    p->base = calloc(m, sizeof(*p->base));
    p->have_base = calloc(m, sizeof(*p->have_base));
    if (!p->label || !p->now || !p->have_now || !p->base || !p->have_base)
      goto oom;
    if (ns_resolve(scen, np ? (long)i : -1, (const char *const *)r->e->sets, r->e->nsets,
                   cfg) != 0) {
      ns_eprintf("  (in entry '%s' of the suite, %s:%d:%d)\n", r->e->name, r->e->at.file,
              r->e->at.line, r->e->at.col);
      goto out;
    }
  }
  status = 0;
  goto out;
oom:
  ns_eprintf("nicsim regress: out of memory\n");
out:
  if (scen)
    nc_scenario_free(scen);
  free(cfg);
  return status;
}

/* Loads an entry's baseline and checks it covers every point and metric.
 * 0 or NICSIM_STUDY_BAD_INPUT (reported, with the --update hint). */
static int rg__load_baseline(struct rg_entry *r) {
  char why[NC_PATH_MAX + 600];
  bool missing;
  size_t i, k, nlabels;
  json_t *points;

  r->baseline = nicsim_baseline_load(r->baseline_file, &missing, why, sizeof(why));
  nicsim_input_note(r->baseline_file, "a baseline"); /* not with --update, which rewrites it */
  if (r->baseline == NULL) {
    snprintf(r->input_error, sizeof(r->input_error), "%s: %s (record it with 'nicsim regress --update --entry %s')",
             missing ? "no baseline" : "bad baseline", why, r->e->name);
    if (missing)
      ns_eprintf(
              "nicsim regress: entry '%s' has no baseline: %s\n"
              "  hint: record it with 'nicsim regress --update --entry %s', review it and "
              "commit it\n",
              r->e->name, why, r->e->name);
    else
      ns_eprintf("nicsim regress: entry '%s': bad baseline: %s\n"
                      "  hint: 'nicsim regress --update --entry %s' rewrites it\n",
              r->e->name, why, r->e->name);
    return NICSIM_STUDY_BAD_INPUT;
  }
  for (i = 0; i < r->npoints; i++) {
    struct rg_point *p = &r->pts[i];
    json_t *m = nicsim_baseline_point(r->baseline, p->label);
    char where[300];
    rg__where(r, p, where, sizeof(where));
    for (k = 0; k < r->e->nmetrics; k++) {
      json_t *v = m ? json_object_get(m, r->e->metrics[k].name) : NULL;
      if (v == NULL) {
        snprintf(r->input_error, sizeof(r->input_error),
                 "%s: the baseline has no %s%s%s (the suite or the scenario changed since it was recorded; "
                 "run 'nicsim regress --update --entry %s')",
                 r->baseline_file, m ? r->e->metrics[k].name : "point ", m ? " for " : "", where, r->e->name);
        ns_eprintf(
                "nicsim regress: %s: the baseline has no %s%s%s\n"
                "  hint: the suite or the scenario changed since it was recorded; run "
                "'nicsim regress --update --entry %s'\n",
                r->baseline_file, m ? r->e->metrics[k].name : "point ", m ? " for " : "", where,
                r->e->name);
        return NICSIM_STUDY_BAD_INPUT;
      }
      p->base[k] = json_is_null(v) ? NAN : json_number_value(v);
      p->have_base[k] = true;
    }
  }
  points = json_object_get(r->baseline, "points");
  nlabels = json_array_size(points);
  for (i = 0; i < nlabels; i++) {
    const char *l = json_string_value(json_object_get(json_array_get(points, i), "label"));
    for (k = 0; k < r->npoints && strcmp(r->pts[k].label, l) != 0; k++)
      ;
    if (k == r->npoints)
      ns_eprintf(
              "nicsim regress: warning: %s holds point '%s', which entry '%s' no longer has "
              "(run --update to drop it)\n",
              r->baseline_file, l, r->e->name);
  }
  return 0;
}

/* Refuses (before anything runs) a directory for entry r that holds results
 * regress did not write for r. 0 or NICSIM_STUDY_BAD_INPUT (reported). */
static int rg__check_dir(const struct rg_entry *r, const char *dir) {
  char why[2 * NC_PATH_MAX + 512];

  if (ns_sweepdir_owner(dir, NULL, NULL, r->e->name, why, sizeof(why)) != NS_DIR_OTHER)
    return 0;
  ns_eprintf(
          "nicsim regress: %s\n  hint: use another -o DIR, or --force to replace them\n", why);
  return NICSIM_STUDY_BAD_INPUT;
}

/* Runs an entry's sweep into dir; returns the sweep's status (1: some
 * points failed, which the caller reads from the missing point files). */
static int rg__sweep(const struct rg_entry *r, const char *dir, size_t jobs, bool force) {
  struct nicsim_sweep_opts o;

  memset(&o, 0, sizeof(o));
  o.path = r->e->path;
  o.builtin = r->e->builtin;
  o.outdir = dir;
  o.jobs = jobs;
  o.sets = (const char *const *)r->e->sets;
  o.nsets = r->e->nsets;
  o.quiet = true; /* regress prints its own progress; errors still show */
  o.force = force;            /* another sweep's results only with --force */
  o.regress_entry = r->e->name; /* an earlier run of this entry is replaced */
  o.one_point = true;
  o.no_table = true;
  return nicsim_study_sweep(&o, NULL, 0);
}

/* Compares two runs' results of one point: every metric but wall-clock time,
 * bit for bit. Returns NULL if identical, else a malloc'd list of what
 * differed ("metric: A vs B; ..."). */
static char *rg__diff_results(const struct nicsim_results *a, const struct nicsim_results *b) {
  char buf[2048] = "", va[40], vb[40];
  size_t len = 0, i, ndiff = 0;
  struct nicsim_metric_view x, y;

  for (i = 0;; i++) {
    bool ha = nicsim_results_at(a, i, &x), hb = nicsim_results_at(b, i, &y);
    if (!ha && !hb)
      break;
    if (ha != hb || strcmp(x.name, y.name) != 0) {
      snprintf(buf + len, sizeof(buf) - len, "%sthe metrics reported differ (%s)",
               ndiff ? "; " : "", ha ? x.name : y.name);
      ndiff++;
      break;
    }
    if (x.kind == NM_KIND_WALL || memcmp(&x.value, &y.value, sizeof(x.value)) == 0)
      continue;
    nicsim_format_real(x.value, va, sizeof(va));
    nicsim_format_real(y.value, vb, sizeof(vb));
    if (len < sizeof(buf) - 1)
      snprintf(buf + len, sizeof(buf) - len, "%s%s: %s vs %s", ndiff ? "; " : "", x.name, va, vb);
    len = strlen(buf);
    ndiff++;
  }
  return ndiff ? strdup(buf) : NULL;
}

/* Reads an entry's results from its sweep directory (and, with
 * --check-determinism, compares them with the rerun's). 0 or an exit status. */
static int rg__collect(struct rg_entry *r, const char *again) {
  struct ns_sweepdir d, d2;
  char why[1024];
  size_t i, k;
  int status;

  memset(&d2, 0, sizeof(d2));
  if ((status = ns_sweepdir_open(&d, "regress", r->dir)) != 0)
    return status;
  snprintf(r->hash, sizeof(r->hash), "%s", ns_json_str(d.manifest, "hash", "?"));
  if (again && (status = ns_sweepdir_open(&d2, "regress", again)) != 0) {
    ns_sweepdir_close(&d);
    return status;
  }
  if (d.n != r->npoints) {
    ns_eprintf("nicsim regress: %s holds %zu points, the entry %zu\n", r->dir, d.n,
            r->npoints);
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  for (i = 0; i < r->npoints; i++) {
    struct rg_point *p = &r->pts[i];
    if (!d.have[i] || ns_sweepdir_load(&d, i, why, sizeof(why)) != 0) {
      r->failed_points = true;
      if (!d.have[i] && ns_sweepdir_point_error(&d, i, why, sizeof(why))) {
        free(p->error);
        p->error = strdup(why);
      }
      continue;
    }
    p->ran = true;
    for (k = 0; k < r->e->nmetrics; k++)
      p->have_now[k] = nicsim_results_get(d.res, r->e->metrics[k].name, &p->now[k]);
    if (again) {
      struct nicsim_results *first = malloc(sizeof(*first));
      if (first == NULL) {
        status = NICSIM_STUDY_BAD_INPUT;
        goto out;
      }
      memcpy(first, d.res, sizeof(*first));
      if (!d2.have[i] || ns_sweepdir_load(&d2, i, why, sizeof(why)) != 0)
        p->rerun_missing = true;
      else
        p->nondet = rg__diff_results(first, d2.res);
      free(first);
    }
  }
out:
  ns_sweepdir_close(&d);
  if (again)
    ns_sweepdir_close(&d2);
  return status;
}

/* Prints the comparison table and the regressions; returns the number of failures. */
static size_t rg__print_table(struct rg_entry *rs, size_t n, bool determinism, size_t *nchecks) {
  size_t i, j, k, w0 = 11, w1 = 6, w2 = 8, w3 = 3, w4 = 5, w5 = 9, nfail = 0, npts = 0;
  char where[300], b[40], now[40], delta[80], tol[40], why[600];
  static const char *const verdicts[] = {"ok", "FAIL", "MISSING", "ERROR"};

  *nchecks = 0;
  /* Column widths. */
  for (i = 0; i < n; i++) {
    if (!rs[i].selected)
      continue;
    for (j = 0; j < rs[i].npoints; j++) {
      struct rg_point *p = &rs[i].pts[j];
      rg__where(&rs[i], p, where, sizeof(where));
      w0 = strlen(where) > w0 ? strlen(where) : w0;
      for (k = 0; k < rs[i].e->nmetrics; k++) {
        const struct nicsim_regress_metric *m = &rs[i].e->metrics[k];
        rg_value(p->base[k], m->name, b, sizeof(b));
        rg_value(p->now[k], m->name, now, sizeof(now));
        rg_delta(p->base[k], p->now[k], delta, sizeof(delta));
        nicsim_tol_format(&m->tol, tol, sizeof(tol));
        w1 = strlen(m->name) > w1 ? strlen(m->name) : w1;
        w2 = strlen(b) > w2 ? strlen(b) : w2;
        w3 = strlen(now) > w3 ? strlen(now) : w3;
        w4 = strlen(delta) > w4 ? strlen(delta) : w4;
        w5 = strlen(tol) > w5 ? strlen(tol) : w5;
      }
    }
  }
  ns_printf("%-*s  %-*s  %*s  %*s  %*s  %-*s  %s\n", (int)w0, "entry/point", (int)w1, "metric",
         (int)w2, "baseline", (int)w3, "now", (int)w4, "delta", (int)w5, "tolerance", "verdict");
  for (i = 0; i < n; i++) {
    if (!rs[i].selected)
      continue;
    for (j = 0; j < rs[i].npoints; j++) {
      struct rg_point *p = &rs[i].pts[j];
      npts++;
      rg__where(&rs[i], p, where, sizeof(where));
      for (k = 0; k < rs[i].e->nmetrics; k++) {
        const struct nicsim_regress_metric *m = &rs[i].e->metrics[k];
        enum rg_verdict v = rg_verdict_of(&rs[i], p, k);
        rg_value(p->base[k], m->name, b, sizeof(b));
        if (v == RG_OK || v == RG_FAIL)
          rg_value(p->now[k], m->name, now, sizeof(now));
        else
          snprintf(now, sizeof(now), "-");
        if (v == RG_OK || v == RG_FAIL)
          rg_delta(p->base[k], p->now[k], delta, sizeof(delta));
        else
          snprintf(delta, sizeof(delta), "-");
        nicsim_tol_format(&m->tol, tol, sizeof(tol));
        ns_printf("%-*s  %-*s  %*s  %*s  %*s  %-*s  %s\n", (int)w0, where, (int)w1, m->name,
               (int)w2, b, (int)w3, now, (int)w4, delta, (int)w5, tol, verdicts[v]);
        (*nchecks)++;
        nfail += v != RG_OK;
      }
      if (determinism && p->ran) {
        bool bad = p->nondet != NULL || p->rerun_missing;
        ns_printf("%-*s  %-*s  %*s  %*s  %*s  %-*s  %s\n", (int)w0, where, (int)w1, "(rerun)",
               (int)w2, "-", (int)w3, "-", (int)w4, "-", (int)w5, "identical",
               bad ? "FAIL" : "ok");
        (*nchecks)++;
        nfail += bad;
      }
    }
  }
  if (nfail == 0)
    return 0;
  ns_printf("\nRegressions:\n");
  for (i = 0; i < n; i++) {
    if (!rs[i].selected)
      continue;
    for (j = 0; j < rs[i].npoints; j++) {
      struct rg_point *p = &rs[i].pts[j];
      rg__where(&rs[i], p, where, sizeof(where));
      for (k = 0; k < rs[i].e->nmetrics; k++) {
        enum rg_verdict v = rg_verdict_of(&rs[i], p, k);
        if (v == RG_OK)
          continue;
        rg_explain(&rs[i], p, k, v, why, sizeof(why));
        ns_printf("  %s: %s\n", where, why);
        if (v == RG_NORUN)
          break; /* one line per point that did not run */
      }
      if (determinism && p->rerun_missing)
        ns_printf("  %s: the rerun (--check-determinism) failed to simulate\n", where);
      else if (determinism && p->nondet)
        ns_printf("  %s: not deterministic: the rerun gave %s\n", where, p->nondet);
    }
  }
  (void)npts;
  return nfail;
}

/* --update for one entry: builds the new baseline, prints what changed
 * against the old one, writes it if it differs. 0 or an exit status. */
static int rg__update(const struct nicsim_regress_suite *suite, struct rg_entry *r,
                      size_t *nchanged) {
  const char **names = calloc(r->e->nmetrics, sizeof(*names));
  json_t *doc = NULL, *old = NULL;
  char why[NC_PATH_MAX + 600], where[300], b[40], now[40], delta[80];
  bool missing;
  size_t i, k, changed = 0, values = 0;
  int status = NICSIM_STUDY_BAD_INPUT, rc;

  if (names == NULL)
    goto oom;
  for (k = 0; k < r->e->nmetrics; k++)
    names[k] = r->e->metrics[k].name;
  for (i = 0; i < r->npoints; i++) {
    struct rg_point *p = &r->pts[i];
    rg__where(r, p, where, sizeof(where));
    if (!p->ran) {
      ns_eprintf("nicsim regress: %s failed to simulate: baseline %s not written\n", where,
              r->baseline_file);
      status = NICSIM_STUDY_FAILED;
      goto out;
    }
    if (p->nondet || p->rerun_missing) {
      ns_eprintf("nicsim regress: %s is not deterministic: baseline %s not written\n",
              where, r->baseline_file);
      status = NICSIM_STUDY_FAILED;
      goto out;
    }
    for (k = 0; k < r->e->nmetrics; k++)
      if (!p->have_now[k]) {
        ns_eprintf(
                "%s:%d:%d: error: entry '%s': %s does not report %s\n"
                "  hint: this scenario's workload has no such figure; remove it from the entry\n",
                r->e->metrics[k].at.file, r->e->metrics[k].at.line, r->e->metrics[k].at.col,
                r->e->name, where, names[k]);
        goto out;
      }
  }
  doc = nicsim_baseline_new(NICSIM_VERSION, suite->name, r->e, r->hash);
  if (doc == NULL)
    goto oom;
  for (i = 0; i < r->npoints; i++)
    if (nicsim_baseline_add_point(doc, r->pts[i].label, names, r->pts[i].now, r->e->nmetrics) != 0)
      goto oom;

  old = nicsim_baseline_load(r->baseline_file, &missing, why, sizeof(why));
  if (old == NULL && !missing)
    ns_eprintf("nicsim regress: replacing an unreadable baseline: %s\n", why);
  for (i = 0; i < r->npoints; i++) {
    struct rg_point *p = &r->pts[i];
    json_t *om = old ? nicsim_baseline_point(old, p->label) : NULL;
    rg__where(r, p, where, sizeof(where));
    for (k = 0; k < r->e->nmetrics; k++) {
      json_t *ov = om ? json_object_get(om, names[k]) : NULL;
      double o = ov == NULL || json_is_null(ov) ? NAN : json_number_value(ov);
      values++;
      rg_value(p->now[k], names[k], now, sizeof(now));
      if (ov == NULL) {
        ns_printf("  %s: %s: (new) %s\n", where, names[k], now);
        changed++;
      } else if (memcmp(&o, &p->now[k], sizeof(o)) != 0 && !(isnan(o) && isnan(p->now[k]))) {
        rg_value(o, names[k], b, sizeof(b));
        rg_delta(o, p->now[k], delta, sizeof(delta));
        ns_printf("  %s: %s: %s -> %s (%s)\n", where, names[k], b, now, delta);
        changed++;
      }
    }
  }
  if (old) {
    json_t *pts = json_object_get(old, "points");
    for (i = 0; i < json_array_size(pts); i++) {
      json_t *op = json_array_get(pts, i), *nm;
      const char *l = json_string_value(json_object_get(op, "label")), *key;
      json_t *v;
      snprintf(where, sizeof(where), "%s%s%s", r->e->name, l[0] ? "/" : "", l);
      nm = nicsim_baseline_point(doc, l);
      if (nm == NULL) {
        ns_printf("  %s: (removed: no longer a point of the entry)\n", where);
        changed++;
        continue;
      }
      json_object_foreach(json_object_get(op, "metrics"), key, v) {
        if (json_object_get(nm, key) == NULL) {
          ns_printf("  %s: %s: (removed from the suite)\n", where, key);
          changed++;
        }
      }
    }
    if (strcmp(ns_json_str(old, "hash", ""), r->hash) != 0)
      ns_printf("  %s: config hash %s -> %s\n", r->e->name, ns_json_str(old, "hash", "?"), r->hash);
  }
  if (old && json_equal(old, doc)) {
    ns_printf("%s: unchanged (%zu values)\n", r->baseline_file, values);
  } else {
    if ((rc = nicsim_baseline_write(r->baseline_file, doc)) < 0) {
      ns_eprintf("nicsim regress: cannot write %s: %s\n", r->baseline_file, nicsim_strerror(-rc));
      goto out;
    }
    ns_printf("%s: %s (%zu of %zu values changed)\n", r->baseline_file,
           old ? "updated" : "written", changed, values);
  }
  *nchanged += changed;
  status = 0;
  goto out;
oom:
  ns_eprintf("nicsim regress: out of memory\n");
out:
  json_decref(doc);
  json_decref(old);
  free(names);
  return status;
}

/* Notes on stdout when the configuration or the version moved since the baseline. */
static void rg__notes(struct rg_entry *rs, size_t n) {
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    const char *h, *v;
    if (!rs[i].selected || rs[i].baseline == NULL || !rs[i].hash[0])
      continue;
    h = ns_json_str(rs[i].baseline, "hash", "?");
    v = ns_json_str(rs[i].baseline, "nicsim", "?");
    if (strcmp(h, rs[i].hash) == 0 && strcmp(v, NICSIM_VERSION) == 0)
      continue;
    if (!any)
      ns_printf("\nNotes:\n");
    any = true;
    if (strcmp(h, rs[i].hash) != 0)
      ns_printf("  %s: the configuration differs from the baseline's (config hash %s -> %s): the "
             "scenario, its platform, the entry's set: or the nicsim version changed\n",
             rs[i].e->name, h, rs[i].hash);
    if (strcmp(v, NICSIM_VERSION) != 0)
      ns_printf("  %s: baseline recorded by nicsim %s, this is %s\n", rs[i].e->name, v,
             NICSIM_VERSION);
  }
}

/* Runs a regression suite (see struct nicsim_regress_opts). */
int nicsim_study_regress(const struct nicsim_regress_opts *o) {
  struct nicsim_regress_suite *suite = NULL;
  struct rg_entry *rs = NULL;
  struct nc_error err;
  struct timespec t0, te;
  char suitebuf[NC_PATH_MAX + 64], again[NC_PATH_MAX + 96];
  const char *suite_path = o->suite, *outdir = o->outdir ? o->outdir : "nicsim-out/regress";
  size_t i, j, k, jobs = o->jobs, jobs2, nsel = 0, npts = 0, nchecks = 0, nfail = 0, nchanged = 0;
  int status = NICSIM_STUDY_OK, rc;
  bool bad = false, simfail = false;
  long ncpu;

  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (jobs == 0) {
    ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = ncpu > 0 ? (size_t)ncpu : 1;
  }
  jobs2 = jobs > 1 ? 1 : 2;
  if (suite_path == NULL) {
    if (rg__find_suite(suitebuf, sizeof(suitebuf)) != 0) {
      ns_eprintf(
              "nicsim regress: no suite given and no %s in the current directory or above\n"
              "  hint: run it from the source tree, or give the suite: nicsim regress "
              "PATH/TO/suite.yaml\n",
              NICSIM_REGRESS_DEFAULT_SUITE);
      return NICSIM_STUDY_BAD_INPUT;
    }
    suite_path = suitebuf;
  }
  memset(&err, 0, sizeof(err));
  if (nicsim_regress_suite_load(suite_path, &suite, &err) != 0) {
    nc_error_print(&err, stderr);
    return NICSIM_STUDY_BAD_INPUT;
  }
  nicsim_input_note(suite_path, "the suite");
  rs = calloc(suite->n, sizeof(*rs));
  if (rs == NULL) {
    ns_eprintf("nicsim regress: out of memory\n");
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  for (i = 0; i < o->nonly; i++) {
    for (k = 0; k < suite->n && strcmp(suite->entries[k].name, o->only[i]) != 0; k++)
      ;
    if (k == suite->n) {
      ns_eprintf("nicsim regress: %s has no entry '%s'; its entries:", suite_path,
              o->only[i]);
      for (k = 0; k < suite->n; k++)
        ns_eprintf(" %s", suite->entries[k].name);
      ns_eprintf("\n");
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  }
  if (o->junit && (status = ns_check_output_path("regress", "the JUnit report", o->junit)) != 0)
    goto out;
  /* Entry directories DIR/<entry>(.again) must fit their buffers whole. */
  if (strlen(outdir) >= NC_PATH_MAX - 100) {
    status = ns_bad_input("regress", "-o DIR is %zu bytes long; the limit is %d", strlen(outdir),
                             NC_PATH_MAX - 101);
    goto out;
  }
  /* The report may not replace an input: the suite or a baseline. */
  {
    struct stat st;
    if (o->junit && stat(suite_path, &st) == 0 &&
        (status = ns_check_not_file("regress", "--junit", o->junit, (uint64_t)st.st_dev,
                                     (uint64_t)st.st_ino, "the suite", suite_path)) != 0)
      goto out;
  }

  /* Every input is checked before anything is simulated. */
  for (i = 0; i < suite->n; i++) {
    struct rg_entry *r = &rs[i];
    r->e = &suite->entries[i];
    r->selected = o->nonly == 0;
    for (k = 0; k < o->nonly; k++)
      r->selected |= strcmp(o->only[k], r->e->name) == 0;
    if (!r->selected)
      continue;
    nsel++;
    snprintf(r->baseline_file, sizeof(r->baseline_file), "%s/%s.json", suite->baselines,
             r->e->name);
    {
      struct stat st;
      if (o->junit && stat(r->baseline_file, &st) == 0 &&
          (status = ns_check_not_file("regress", "--junit", o->junit, (uint64_t)st.st_dev,
                                       (uint64_t)st.st_ino, "a baseline", r->baseline_file)) != 0)
        goto out;
    }
    snprintf(r->dir, sizeof(r->dir), "%s/%s", outdir, r->e->name);
    snprintf(again, sizeof(again), "%s.again", r->dir);
    if (!o->force && (rg__check_dir(r, r->dir) != 0 ||
                      (o->determinism && rg__check_dir(r, again) != 0))) {
      bad = true;
      continue;
    }
    if (rg__prepare(r) != 0) {
      bad = true;
      continue;
    }
    npts += r->npoints;
    if (!o->update && rg__load_baseline(r) != 0)
      bad = true;
  }
  /* The entries' scenarios and platform files are noted inputs now (ns_load):
   * the report may be none of them either. */
  if (o->junit && nicsim_input_clash(o->junit) < 0) {
    ns_eprintf("nicsim regress: --junit %s: cannot write the JUnit report: %s\n", o->junit,
               nicsim_strerror(NICSIM_E_INPUT));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  if (bad) {
    status = NICSIM_STUDY_BAD_INPUT;
    bool baseline_errors = false;
    for (i = 0; i < suite->n; i++)
      baseline_errors |= rs[i].selected && rs[i].input_error[0];
    if (o->junit && baseline_errors) {
      struct rg_junit J = {suite, rs, suite->n, o->determinism, rg__elapsed(&t0)};
      if ((rc = nicsim_write_atomic(o->junit, rg_junit_emit_bad, &J)) < 0)
        ns_eprintf("nicsim regress: cannot write %s: %s\n", o->junit, nicsim_strerror(-rc));
      else if (!o->quiet)
        ns_eprintf("nicsim regress: JUnit report (nothing compared) in %s\n", o->junit);
    }
    goto out;
  }
  if (o->update) {
    struct stat st;
    char rb[PATH_MAX], rs_[PATH_MAX], sd[NC_PATH_MAX];
    const char *sb;
    /* A baselines directory that is a link out of the suite's directory is refused. */
    if (nicsim_path_split(suite_path, sd, sizeof sd, &sb) == 0 && realpath(sd, rs_) != NULL &&
        realpath(suite->baselines, rb) != NULL &&
        !(strncmp(rb, rs_, strlen(rs_)) == 0 &&
          (rb[strlen(rs_)] == '/' || rb[strlen(rs_)] == '\0' || strcmp(rs_, "/") == 0))) {
      ns_eprintf("nicsim regress: %s: the baselines directory %s is %s, outside the suite's "
                 "directory %s\n  hint: baselines stay beside the suite or below it\n",
                 suite_path, suite->baselines, rb, rs_);
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    if (stat(suite->baselines, &st) != 0 && (rc = ns_mkdir_p(suite->baselines)) < 0) {
      ns_eprintf("nicsim regress: cannot create %s: %s\n", suite->baselines, nicsim_strerror(-rc));
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  }
  if (!o->quiet)
    ns_eprintf("nicsim regress: %s: %zu entr%s, %zu point%s, %zu at a time%s, into %s/\n",
            suite_path, nsel, nsel == 1 ? "y" : "ies", npts, npts == 1 ? "" : "s", jobs,
            o->determinism ? " (each run twice)" : "", outdir);

  /* Run. */
  for (i = 0; i < suite->n; i++) {
    struct rg_entry *r = &rs[i];
    struct timespec ts;
    if (!r->selected)
      continue;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    rc = rg__sweep(r, r->dir, jobs, o->force);
    if (rc == NICSIM_STUDY_OK || rc == NICSIM_STUDY_FAILED) {
      snprintf(again, sizeof(again), "%s.again", r->dir);
      if (o->determinism)
        rc = rg__sweep(r, again, jobs2, o->force) == NICSIM_STUDY_BAD_INPUT ? NICSIM_STUDY_BAD_INPUT : NICSIM_STUDY_OK;
      if (rc != NICSIM_STUDY_BAD_INPUT)
        rc = rg__collect(r, o->determinism ? again : NULL);
    }
    if (rc == NICSIM_STUDY_BAD_INPUT) {
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    r->secs = rg__elapsed(&ts);
    simfail |= r->failed_points;
    if (!o->quiet) {
      size_t nran = 0;
      for (j = 0; j < r->npoints; j++)
        nran += r->pts[j].ran;
      ns_eprintf("nicsim regress: %s: %zu of %zu point%s simulated (%.1f s)\n", r->e->name,
              nran, r->npoints, r->npoints == 1 ? "" : "s", r->secs);
    }
  }

  if (o->update) {
    for (i = 0; i < suite->n; i++) {
      if (!rs[i].selected)
        continue;
      rc = rg__update(suite, &rs[i], &nchanged);
      if (rc > status)
        status = rc;
    }
    if (!o->quiet)
      ns_eprintf("nicsim regress: %zu value%s changed; review the baselines (git diff) and "
                      "commit them\n",
              nchanged, nchanged == 1 ? "" : "s");
    goto out;
  }

  nfail = rg__print_table(rs, suite->n, o->determinism, &nchecks);
  rg__notes(rs, suite->n);
  clock_gettime(CLOCK_MONOTONIC, &te);
  ns_printf("\n%s: %zu checks in %zu point%s of %zu entr%s: %zu passed, %zu failed\n", suite->name,
         nchecks, npts, npts == 1 ? "" : "s", nsel, nsel == 1 ? "y" : "ies", nchecks - nfail,
         nfail);
  if (o->junit) {
    struct rg_junit J = {suite, rs, suite->n, o->determinism, rg__elapsed(&t0)};
    if ((rc = nicsim_write_atomic(o->junit, rg_junit_emit, &J)) < 0) {
      ns_eprintf("nicsim regress: cannot write %s: %s\n", o->junit, nicsim_strerror(-rc));
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
    if (!o->quiet)
      ns_eprintf("nicsim regress: JUnit report in %s\n", o->junit);
  }
  status = nfail > 0 || simfail ? NICSIM_STUDY_FAILED : NICSIM_STUDY_OK;

out:
  if (rs != NULL)
    for (i = 0; i < suite->n; i++) {
      for (j = 0; j < rs[i].npoints && rs[i].pts; j++) {
        struct rg_point *p = &rs[i].pts[j];
        free(p->label);
        free(p->now);
        free(p->have_now);
        free(p->base);
        free(p->have_base);
        free(p->nondet);
        free(p->error);
      }
      free(rs[i].pts);
      json_decref(rs[i].baseline);
    }
  free(rs);
  nicsim_regress_suite_free(suite);
  return status;
}
