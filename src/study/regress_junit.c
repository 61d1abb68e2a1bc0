/* regress_junit.c: `nicsim regress`'s verdicts, the line explaining each
 * failure, and the JUnit XML report (every text through nicsim_put_xml). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/escape.h"
#include "results/output.h"
#include "study/regress_internal.h"

/* Formats a value for the table: integers exactly, reals shortest-exact. */
void rg_value(double v, const char *metric, char *buf, size_t n) {
  long id = nicsim_metric_find(metric);
  nicsim_format_metric(v, id >= 0 ? nicsim_metric_defs()[id].kind : NM_KIND_REAL, buf, n);
}

/* "now - base" and, if base is not 0, its share: "+0.5 (+1.2%)". */
void rg_delta(double base, double now, char *buf, size_t n) {
  double d = now - base;
  if (isnan(base) || isnan(now) || isinf(d)) {
    snprintf(buf, n, "-");
    return;
  }
  if (d == 0) {
    snprintf(buf, n, "0");
    return;
  }
  if (base != 0)
    snprintf(buf, n, "%+.6g (%+.3g%%)", d, 100 * nicsim_rel_change(now, base));
  else
    snprintf(buf, n, "%+.6g", d);
}

/* The verdict of metric k of a point (compare mode), and a message for a failure. */
enum rg_verdict rg_verdict_of(const struct rg_entry *r, const struct rg_point *p, size_t k) {
  if (!p->ran)
    return RG_NORUN;
  if (!p->have_now[k])
    return RG_MISSING;
  return nicsim_tol_ok(&r->e->metrics[k].tol, p->base[k], p->now[k]) ? RG_OK : RG_FAIL;
}

/* One line explaining a failed check: "rx.gbps 9.87 -> 9.12 (-0.75, -7.6%), outside rel 0.1%". */
void rg_explain(const struct rg_entry *r, const struct rg_point *p, size_t k,
                        enum rg_verdict v, char *buf, size_t n) {
  const struct nicsim_regress_metric *m = &r->e->metrics[k];
  char b[40], now[40], delta[80], tol[40];

  rg_value(p->base[k], m->name, b, sizeof(b));
  nicsim_tol_format(&m->tol, tol, sizeof(tol));
  if (v == RG_NORUN) {
    if (p->error)
      snprintf(buf, n, "%s: the point failed to simulate: %s", m->name, p->error);
    else
      snprintf(buf, n, "%s: the point failed to simulate (its error is in the log above)", m->name);
  } else if (v == RG_MISSING) {
    snprintf(buf, n, "%s: the run no longer reports it (baseline %s)", m->name, b);
  } else {
    rg_value(p->now[k], m->name, now, sizeof(now));
    rg_delta(p->base[k], p->now[k], delta, sizeof(delta));
    snprintf(buf, n, "%s: %s -> %s (delta %s), outside tolerance %s", m->name, b, now, delta,
             tol);
  }
}

/* Writes one <testcase> of the JUnit report. */
static void rg__junit_case(FILE *f, const char *suite, const struct rg_entry *r,
                           const struct rg_point *p, const char *what, const char *kind,
                           const char *msg, const char *detail) {
  fprintf(f, "    <testcase classname=\"");
  nicsim_put_xml(f, suite);
  fputc('.', f);
  nicsim_put_xml(f, r->e->name);
  fprintf(f, "\" name=\"");
  if (p->label[0]) {
    nicsim_put_xml(f, p->label);
    fputs(": ", f);
  }
  nicsim_put_xml(f, what);
  fprintf(f, "\" time=\"0\"");
  if (kind == NULL) {
    fprintf(f, "/>\n");
    return;
  }
  fprintf(f, ">\n      <%s type=\"%s\" message=\"", kind,
          strcmp(kind, "error") == 0 ? "simulation" : "regression");
  nicsim_put_xml(f, msg);
  fprintf(f, "\">");
  nicsim_put_xml(f, detail);
  fprintf(f, "</%s>\n    </testcase>\n", kind);
}


/* Emits the JUnit XML of a run that could not compare (nicsim_emit_fn): an
 * entry whose baseline cannot be used has one testcase, "baseline", with
 * an <error> saying why and how to record it; the other selected entries
 * one skipped testcase. CI then shows why nothing was compared. */
int rg_junit_emit_bad(FILE *f, void *arg) {
  const struct rg_junit *J = arg;
  size_t i, n = 0, errors = 0;
  for (i = 0; i < J->n; i++) {
    n += J->rs[i].selected;
    errors += J->rs[i].selected && J->rs[i].input_error[0];
  }
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
  nicsim_put_xml(f, J->suite->name);
  fprintf(f, "\" tests=\"%zu\" failures=\"0\" errors=\"%zu\" time=\"%.3f\">\n", n, errors, J->secs);
  for (i = 0; i < J->n; i++) {
    const struct rg_entry *r = &J->rs[i];
    const bool err = r->input_error[0] != '\0';
    if (!r->selected)
      continue;
    fprintf(f, "  <testsuite name=\"");
    nicsim_put_xml(f, J->suite->name);
    fputc('.', f);
    nicsim_put_xml(f, r->e->name);
    fprintf(f, "\" tests=\"1\" failures=\"0\" errors=\"%d\" skipped=\"%d\" time=\"0\">\n", err, !err);
    fprintf(f, "    <testcase classname=\"");
    nicsim_put_xml(f, J->suite->name);
    fputc('.', f);
    nicsim_put_xml(f, r->e->name);
    fprintf(f, "\" name=\"baseline\" time=\"0\">\n");
    if (err) {
      fprintf(f, "      <error type=\"input\" message=\"");
      nicsim_put_xml(f, r->input_error);
      fprintf(f, "\">");
      nicsim_put_xml(f, r->baseline_file);
      fprintf(f, "</error>\n");
    } else {
      fprintf(f, "      <skipped message=\"not compared: the input of another entry is bad\"/>\n");
    }
    fprintf(f, "    </testcase>\n  </testsuite>\n");
  }
  fprintf(f, "</testsuites>\n");
  return ferror(f) ? -EIO : 0;
}

/* Emits the JUnit XML (nicsim_emit_fn): a testsuite per entry, a testcase per
 * point and metric (and per point "determinism" with --check-determinism). */
int rg_junit_emit(FILE *f, void *arg) {
  const struct rg_junit *J = arg;
  size_t i, j, k, tests = 0, fails = 0, errors = 0;
  char why[600], detail[4096], tol[40], b[40], now[40];

  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
      nicsim_put_xml(f, J->suite->name);
      fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", tests,
              fails, errors, J->secs);
    }
    for (i = 0; i < J->n; i++) {
      const struct rg_entry *r = &J->rs[i];
      size_t et = 0, ef = 0, ee = 0;
      if (!r->selected)
        continue;
      for (j = 0; j < r->npoints; j++) {
        const struct rg_point *p = &r->pts[j];
        for (k = 0; k < r->e->nmetrics; k++) {
          enum rg_verdict v = rg_verdict_of(r, p, k);
          et++;
          ef += v == RG_FAIL || v == RG_MISSING;
          ee += v == RG_NORUN;
        }
        if (J->determinism && p->ran) {
          et++;
          ef += p->nondet != NULL || p->rerun_missing;
        }
      }
      if (pass == 0) {
        tests += et;
        fails += ef;
        errors += ee;
        continue;
      }
      fprintf(f, "  <testsuite name=\"");
      nicsim_put_xml(f, J->suite->name);
      fputc('.', f);
      nicsim_put_xml(f, r->e->name);
      fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"%.3f\">\n",
              et, ef, ee, r->secs);
      for (j = 0; j < r->npoints; j++) {
        const struct rg_point *p = &r->pts[j];
        for (k = 0; k < r->e->nmetrics; k++) {
          const struct nicsim_regress_metric *m = &r->e->metrics[k];
          enum rg_verdict v = rg_verdict_of(r, p, k);
          rg_explain(r, p, k, v, why, sizeof(why));
          rg_value(p->base[k], m->name, b, sizeof(b));
          if (p->ran && p->have_now[k])
            rg_value(p->now[k], m->name, now, sizeof(now));
          else
            snprintf(now, sizeof(now), "-");
          nicsim_tol_format(&m->tol, tol, sizeof(tol));
          snprintf(detail, sizeof(detail),
                   "metric:    %s\nbaseline:  %s\nnow:       %s\ntolerance: %s\n"
                   "scenario:  %s\nbaseline file: %s\nsuite:     %s:%d:%d\n",
                   m->name, b, now, tol, r->e->scenario, r->baseline_file, m->at.file,
                   m->at.line, m->at.col);
          rg__junit_case(f, J->suite->name, r, p, m->name,
                         v == RG_OK ? NULL : v == RG_NORUN ? "error" : "failure", why, detail);
        }
        if (J->determinism && p->ran) {
          const char *msg = p->rerun_missing ? "the rerun failed to simulate" : p->nondet;
          char m2[2100];
          snprintf(m2, sizeof(m2), "not deterministic: the rerun gave %s", msg ? msg : "");
          rg__junit_case(f, J->suite->name, r, p, "determinism", msg ? "failure" : NULL, m2,
                         m2);
        }
      }
      fprintf(f, "  </testsuite>\n");
    }
  }
  fprintf(f, "</testsuites>\n");
  return ferror(f) ? -EIO : 0;
}

