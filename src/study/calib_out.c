/* calib_out.c: what `nicsim calibrate` writes: calibration.json,
 * calibrated.yaml (an overlay for run and sweep), evaluations.csv, the
 * gnuplot data and scripts, report.md and report.html. Every text of the
 * spec goes through the writer of its language: jansson, YAML double
 * quotes, nicsim_csv_field and results/escape.h's nicsim_put_dat_label,
 * nicsim_put_gp_string, nicsim_put_md and nicsim_put_html. */
#define _XOPEN_SOURCE 700

#include "results/safety.h"
#include "study/calib.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/escape.h"
#include "results/output.h"

/* ---- shared bits ------------------------------------------------------------------ */

/* A JSON number, or null when it is not finite. */
static json_t *co__num(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* A JSON value of a parameter: an integer for an int key. */
static json_t *co__param(const struct nicsim_calib_free *f, double v) {
  return f->key->type == NC_INT ? json_integer((json_int_t)v) : co__num(v);
}

/* Relative error of a simulated value (NaN when the measured one is 0). */
static double co__err(const struct nicsim_calib_meas *m, double sim) {
  return nicsim_rel_change(sim, m->value);
}

/* NLopt's name of a result code. */
static const char *co__nlopt(int st) {
  switch (st) {
  case 1: return "SUCCESS";
  case 2: return "STOPVAL_REACHED";
  case 3: return "FTOL_REACHED";
  case 4: return "XTOL_REACHED";
  case 5: return "MAXEVAL_REACHED";
  case 6: return "MAXTIME_REACHED";
  case -1: return "FAILURE";
  case -2: return "INVALID_ARGS";
  case -3: return "OUT_OF_MEMORY";
  case -4: return "ROUNDOFF_LIMITED";
  case -5: return "FORCED_STOP";
  default: return "UNKNOWN";
  }
}

/* True if no value of the unknowns matches: a calibration measurement is
 * more than 2 sigma off at the optimum. */
static bool co__no_match(const struct nicsim_calib_spec *s, const struct nicsim_calib_result *r) {
  for (size_t i = 0; i < s->ncal; i++)
    if (!(fabs(r->sim[i] - s->meas[i].value) <= 2 * s->meas[i].sigma)) return true;
  return false;
}

/* RMS of the relative errors of the measurements in [a, b) at values v. */
static double co__rms(const struct nicsim_calib_spec *s, const double *v, size_t a, size_t b) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = a; i < b; i++) {
    double e = co__err(&s->meas[i], v[i]);
    if (isfinite(e)) sum += e * e, n++;
  }
  return n ? sqrt(sum / (double)n) : NAN;
}

/* ---- calibration.json --------------------------------------------------------------- */

/* The {point, metric, measured, simulated, error, ...} of measurement i. */
static json_t *co__meas_json(const struct nicsim_calib_meas *m, double sim) {
  return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:s}", "point", m->point, "metric",
                   m->metric, "measured", co__num(m->value), "simulated", co__num(sim), "error",
                   co__num(co__err(m, sim)), "sigma", co__num(m->sigma), "pull",
                   co__num((sim - m->value) / m->sigma), "source", m->source);
}

/* An array of doubles. */
static json_t *co__array(const double *v, size_t n, size_t stride) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++) json_array_append_new(a, co__num(v[i * stride]));
  return a;
}

json_t *nicsim_calib_to_json(const struct nicsim_calib_spec *s, const struct nicsim_calib_result *r,
                             const char *version) {
  json_t *doc = json_object(), *params = json_object(), *ident = json_object(),
         *freea = json_array(), *cal = json_array(), *val = json_array(), *names = json_array(),
         *keys = json_array(), *dsim = json_array(), *sens = json_array(), *prof = json_object();
  char id[32], name[NC_STR_MAX + 100];
  size_t n = s->nfree, m = s->nmeas;
  if (!doc || !params || !ident || !freea || !cal || !val || !names || !keys || !dsim || !sens ||
      !prof)
    goto oom;
  nicsim_calib_spec_identity(s, version, id, sizeof id);
  for (size_t k = 0; k < n; k++) {
    const struct nicsim_calib_free *f = &s->free[k];
    const struct nicsim_calib_profile *p = &r->prof[k];
    json_object_set_new(params, f->key->path, co__param(f, r->x[k]));
    json_object_set_new(ident, f->key->path, json_boolean(r->identifiable[k]));
    json_array_append_new(keys, json_string(f->key->path));
    json_array_append_new(
        freea,
        json_pack("{s:s, s:s, s:o, s:o, s:o, s:s, s:s, s:o, s:o, s:b, s:s, s:{s:o, s:o, s:b, "
                  "s:b}, s:o, s:b}",
                  "key", f->key->path, "unit", f->key->unit, "min", co__param(f, f->min), "max",
                  co__param(f, f->max), "start", co__param(f, nicsim_calib_quantise(f, f->start)),
                  "scale", f->scale == NICSIM_CALIB_LOG ? "log" : "linear", "why", f->why, "value",
                  co__param(f, r->x[k]), "at_bound",
                  r->at_bound[k] < 0   ? json_string("min")
                  : r->at_bound[k] > 0 ? json_string("max")
                                       : json_null(),
                  "identifiable", r->identifiable[k], "reason", r->reason[k], "interval", "lo",
                  co__num(p->lo), "hi", co__num(p->hi), "lo_at_bound", p->lo_bound, "hi_at_bound",
                  p->hi_bound, "max_move_sigma", co__num(p->max_move), "cliff", r->cliff[k]));
  }
  for (size_t i = 0; i < m; i++) {
    json_t *row = json_array(), *srow = json_array();
    nicsim_calib_meas_name(&s->meas[i], name, sizeof name);
    json_array_append_new(names, json_string(name));
    json_t *mj = co__meas_json(&s->meas[i], r->sim[i]);
    /* a prediction depends on its point, which no spec fits (--check-specs) */
    if (i >= s->ncal) json_object_set_new(mj, "depends_on", json_pack("[s]", s->meas[i].point));
    json_array_append_new(i < s->ncal ? cal : val, mj);
    for (size_t k = 0; row && srow && k < n; k++) {
      json_array_append_new(row, co__num(r->jac[i * n + k]));
      json_array_append_new(srow, co__num(r->sens[i * n + k]));
    }
    json_array_append_new(dsim, row);
    json_array_append_new(sens, srow);
  }
  for (size_t k = 0; k < n; k++) {
    const struct nicsim_calib_profile *p = &r->prof[k];
    json_t *sims = json_object();
    for (size_t i = 0; sims && i < m; i++) {
      nicsim_calib_meas_name(&s->meas[i], name, sizeof name);
      json_object_set_new(sims, name, co__array(&p->sim[i], p->n, m));
    }
    json_object_set_new(prof, s->free[k].key->path,
                        json_pack("{s:o, s:o, s:o}", "x", co__array(p->x, p->n, 1), "chi2",
                                  co__array(p->chi2, p->n, 1), "simulated",
                                  sims ? sims : json_null()));
  }
  json_object_set_new(doc, "nicsim", json_string(version));
  bool escaped = false;
  json_object_set_new(doc, "spec", nicsim_json_file_name(s->file, &escaped));
  if (escaped) json_object_set_new(doc, "names_escaped", json_true());
  json_object_set_new(doc, "name", json_string(s->name));
  json_object_set_new(doc, "description", json_string(s->description));
  json_object_set_new(doc, "scenario", json_string(s->scenario));
  json_object_set_new(doc, "identity", json_string(id));
  json_object_set_new(doc, "params", params);
  json_object_set_new(doc, "converged", json_boolean(r->converged));
  json_object_set_new(doc, "at_eval_limit", json_boolean(r->at_eval_limit));
  json_object_set_new(doc, "identifiable", ident);
  json_object_set_new(doc, "ill_conditioned", json_boolean(r->ill_conditioned));
  json_object_set_new(doc, "condition_number", co__num(r->cond));
  json_object_set_new(doc, "rank", json_integer((json_int_t)r->rank));
  json_object_set_new(doc, "singular_values", co__array(r->sv, n, 1));
  json_object_set_new(doc, "matches", json_boolean(!co__no_match(s, r)));
  {
    size_t good = 0;
    for (size_t i = s->ncal; i < m; i++)
      good += fabs(r->sim[i] - s->meas[i].value) <= 2 * s->meas[i].sigma;
    json_object_set_new(doc, "predictions_within_2_sigma",
                        json_pack("{s:I, s:I}", "within", (json_int_t)good, "of",
                                  (json_int_t)(m - s->ncal)));
  }
  json_object_set_new(doc, "residual",
                      json_pack("{s:o, s:I, s:I, s:o, s:o}", "chi2", co__num(r->chi2),
                                "measurements", (json_int_t)s->ncal, "dof",
                                (json_int_t)(s->ncal - n), "rms_error",
                                co__num(co__rms(s, r->sim, 0, s->ncal)), "validate_rms_error",
                                co__num(co__rms(s, r->sim, s->ncal, m))));
  json_object_set_new(doc, "evaluations", json_integer((json_int_t)r->evaluations));
  json_object_set_new(doc, "fit",
                      json_pack("{s:s, s:s, s:I, s:I, s:I, s:I}", "method", s->method,
                                "nlopt_status", co__nlopt(r->nlopt_status), "local_evaluations",
                                (json_int_t)r->local_evaluations, "grid", (json_int_t)s->grid,
                                "profile_points", (json_int_t)s->profile_points,
                                "max_evaluations", (json_int_t)s->max_evaluations));
  json_object_set_new(doc, "free", freea);
  json_object_set_new(doc, "calibrate", cal);
  json_object_set_new(doc, "validate", val);
  json_object_set_new(doc, "jacobian",
                      json_pack("{s:o, s:o, s:o, s:o}", "measurements", names, "params", keys,
                                "d_simulated_d_param", dsim, "sigma_per_range", sens));
  json_object_set_new(doc, "profiles", prof);
  if (r->cv) {
    json_t *folds = json_array();
    double sum = 0;
    size_t np = 0, nskip = 0;
    for (size_t j = 0; folds && j < m; j++) {
      const struct nicsim_calib_fold *f = &r->folds[j];
      json_t *px = json_object();
      double e = co__err(&s->meas[j], f->predicted);
      for (size_t k = 0; px && f->x && k < n; k++)
        json_object_set_new(px, s->free[k].key->path, co__param(&s->free[k], f->x[k]));
      if (f->skipped) nskip++;
      else if (isfinite(e)) sum += e * e, np++;
      json_array_append_new(
          folds, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:b}", "point",
                           s->meas[j].point, "metric", s->meas[j].metric, "list",
                           s->meas[j].validate ? "validate" : "calibrate", "measured",
                           co__num(s->meas[j].value), "predicted", co__num(f->predicted), "error",
                           co__num(e), "params", f->skipped || !px ? json_null() : px,
                           "converged", f->converged, "skipped", f->skipped));
      if (f->skipped) json_decref(px);
    }
    json_object_set_new(doc, "cv",
                        json_pack("{s:o, s:I, s:I, s:o}", "folds", folds ? folds : json_null(),
                                  "predicted", (json_int_t)np, "skipped", (json_int_t)nskip,
                                  "rms_error", co__num(np ? sqrt(sum / (double)np) : NAN)));
  }
  return doc;
oom:
  json_decref(doc);
  json_decref(params);
  json_decref(ident);
  json_decref(freea);
  json_decref(cal);
  json_decref(val);
  json_decref(names);
  json_decref(keys);
  json_decref(dsim);
  json_decref(sens);
  json_decref(prof);
  return NULL;
}

/* ---- the files --------------------------------------------------------------------- */

/* What the emitters need. */
struct co__ctx {
  const struct nicsim_calib_spec *s;
  const struct nicsim_calib_result *r;
  const char *version;
  json_t *doc;
  size_t k;          /* the profile being written */
  bool html;
  bool plots[66];    /* [0] fit, [1] sensitivity, [2 + k] profile k: an SVG exists */
};

static int co__emit_json(FILE *f, void *arg) { return nicsim_json_dump(((struct co__ctx *)arg)->doc, f); }

/* A parameter's value as config text. */
static void co__value_text(const struct nicsim_calib_free *f, double v, char *buf, size_t n) {
  char a[NC_STR_MAX + 64];
  nicsim_calib_assignment(f, v, a, sizeof a);
  snprintf(buf, n, "%s", strchr(a, '=') + 1);
}

/* calibrated.yaml: an overlay with the fitted keys. */
static int co__emit_yaml(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  const struct nicsim_calib_spec *s = c->s;
  const struct nicsim_calib_result *r = c->r;
  char v[64], name[NC_STR_MAX + 100];
  fprintf(f, "# calibrated.yaml: written by nicsim calibrate %s from ", c->version);
  nicsim_put_yaml_comment(f, s->file);
  fprintf(f, "\n# (scenario ");
  nicsim_put_yaml_comment(f, s->scenario);
  fprintf(f, ").\n# An overlay of the fitted keys: give it to run, sweep or validate with\n"
             "#   --overlay calibrated.yaml\n"
             "# It applies to every point after the sweep point and before --set\n"
             "# (docs/config.md, Overlays). A calibrated value stands for one physical thing:\n"
             "# use it on this platform's scenarios, never to score the measurements it was\n"
             "# fitted to (docs/calibration.md).\n");
  fprintf(f, "# Fit: chi2 %.6g over %zu calibration measurement%s, %s, %s%s.\n", r->chi2, s->ncal,
          s->ncal == 1 ? "" : "s", nicsim_calib_convergence(r),
          r->ill_conditioned ? "ill-conditioned" : "well-conditioned",
          co__no_match(s, r) ? "; no value matches every calibration measurement within 2 sigma"
                             : "");
  fprintf(f, "name: ");
  snprintf(name, sizeof name, "%s (calibrated)", s->name);
  nicsim_put_yaml_str(f, name);
  fputc('\n', f);
  for (size_t k = 0; k < s->nfree; k++) {
    const struct nicsim_calib_free *x = &s->free[k];
    const struct nicsim_calib_profile *p = &r->prof[k];
    co__value_text(x, r->x[k], v, sizeof v);
    fprintf(f, "# C: calibrated, %s: ", r->identifiable[k] ? "identifiable" : "NOT identifiable");
    nicsim_put_yaml_comment(f, r->identifiable[k] ? x->why : r->reason[k]);
    fprintf(f, "\n#   range searched [%.6g, %.6g] (%s); chi2 within 1 of its minimum from %s%.6g to %s%.6g\n",
            x->min, x->max, x->scale == NICSIM_CALIB_LOG ? "log" : "linear",
            p->lo_bound ? "<= " : "", p->lo, p->hi_bound ? ">= " : "", p->hi);
    if (r->identifiable[k] && !r->reason[k][0]) {
      fprintf(f, "#   why unknown: ");
      nicsim_put_yaml_comment(f, x->why);
      fputc('\n', f);
    }
    for (size_t i = 0; i < s->ncal; i++) {
      const struct nicsim_calib_meas *m = &s->meas[i];
      bool moves = r->sens[i * s->nfree + k] != 0; /* fitted to only what the key moves */
      for (size_t q = 0; q < p->n && !moves; q++) moves = p->sim[q * s->nmeas + i] != r->sim[i];
      if (!moves) continue;
      nicsim_calib_meas_name(m, name, sizeof name);
      fprintf(f, "#   C: fitted to ");
      nicsim_put_yaml_comment(f, name);
      fprintf(f, " = %.6g (", m->value);
      nicsim_put_yaml_comment(f, m->source);
      fprintf(f, "): simulated %.6g, residual %+.2f %%\n", r->sim[i], 100 * co__err(m, r->sim[i]));
    }
    fprintf(f, "%s: %s\n", x->key->path, v);
  }
  return ferror(f) ? -EIO : 0;
}

/* evaluations.csv: every parameter vector evaluated, in order. */
static int co__emit_csv(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  const struct nicsim_calib_spec *s = c->s;
  const struct nicsim_calib_result *r = c->r;
  char name[NC_STR_MAX + 100], num[40];
  fputs("evaluation", f);
  for (size_t k = 0; k < s->nfree; k++) {
    fputc(',', f);
    nicsim_csv_field(f, s->free[k].key->path);
  }
  fputs(",chi2", f);
  for (size_t i = 0; i < s->nmeas; i++) {
    nicsim_calib_meas_name(&s->meas[i], name, sizeof name);
    fputc(',', f);
    nicsim_csv_field(f, name);
  }
  fputs(",failure\n", f);
  for (size_t e = 0; e < r->evaluations; e++) {
    const double *v = &r->ev_v[e * s->nmeas];
    fprintf(f, "%zu", e);
    for (size_t k = 0; k < s->nfree; k++) {
      nicsim_format_real(r->ev_x[e * s->nfree + k], num, sizeof num);
      fprintf(f, ",%s", num);
    }
    const char *why = r->ev_why ? r->ev_why[e] : "";
    nicsim_format_real(why[0] ? NICSIM_CALIB_PENALTY : nicsim_calib_chi2(s, v, NULL), num,
                       sizeof num);
    fprintf(f, ",%s", num);
    for (size_t i = 0; i < s->nmeas; i++) {
      nicsim_format_real(v[i], num, sizeof num);
      fprintf(f, ",%s", isnan(v[i]) ? "" : num);
    }
    fputc(',', f);
    nicsim_csv_field(f, why);
    fputc('\n', f);
  }
  return ferror(f) ? -EIO : 0;
}

/* ---- plots ----------------------------------------------------------------------------- */

/* A number for a .dat file (NaN as gnuplot's missing value). */
static void co__dat_num(FILE *f, double v) {
  char num[40];
  nicsim_format_real(v, num, sizeof num);
  fprintf(f, "\t%s", isfinite(v) ? num : "NaN");
}

/* The terminal lines of a script; then `plot ` follows. */
static void co__gp_head(FILE *f, const char *name, const char *title, const char *xlabel,
                        const char *ylabel) {
  fprintf(f, "# %s.gp: generated by nicsim calibrate; edit and run 'gnuplot %s.gp' to restyle.\n",
          name, name);
  fputs("set datafile separator \"\\t\"\nset datafile missing \"NaN\"\nset title ", f);
  nicsim_put_gp_string(f, title);
  fputs("\nset xlabel ", f);
  nicsim_put_gp_string(f, xlabel);
  fputs("\nset ylabel ", f);
  nicsim_put_gp_string(f, ylabel);
  fputs("\nset key below\nset grid\n", f);
}

/* The two outputs (PNG, SVG) around a plot command written by body. */
static void co__gp_outputs(FILE *f, const char *name, void (*body)(FILE *, const struct co__ctx *),
                           const struct co__ctx *c) {
  char out[200];
  for (int t = 0; t < 2; t++) {
    snprintf(out, sizeof out, "%s.%s", name, t == 0 ? "png" : "svg");
    fprintf(f, "\nset terminal %s noenhanced size 960,600\nset output ", t == 0 ? "pngcairo" : "svg");
    nicsim_put_gp_string(f, out);
    fputs("\nplot ", f);
    body(f, c);
    fputs("\nunset output\n", f);
  }
}

/* fit.dat: per measurement, measured = 1 with sigma, simulated / measured. */
static int co__emit_fit_dat(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  char name[NC_STR_MAX + 100];
  fputs("# index\tmeasurement\tmeasured\tsigma/measured\tcalibrate sim/measured\tvalidate sim/measured\n", f);
  for (size_t i = 0; i < c->s->nmeas; i++) {
    const struct nicsim_calib_meas *m = &c->s->meas[i];
    double q = m->value != 0 ? c->r->sim[i] / m->value : NAN;
    nicsim_calib_meas_name(m, name, sizeof name);
    fprintf(f, "%zu\t", i);
    nicsim_put_dat_label(f, name);
    co__dat_num(f, m->value != 0 ? 1 : NAN);
    co__dat_num(f, m->value != 0 ? m->sigma / fabs(m->value) : NAN);
    co__dat_num(f, m->validate ? NAN : q);
    co__dat_num(f, m->validate ? q : NAN);
    fputc('\n', f);
  }
  return ferror(f) ? -EIO : 0;
}

static void co__fit_body(FILE *f, const struct co__ctx *c) {
  (void)c;
  fputs("\"fit.dat\" using 1:3:4:xtic(2) with yerrorbars pt 6 title \"measured (1, +-sigma)\", \\\n"
        "     \"fit.dat\" using 1:5 with points pt 7 ps 1.5 title \"simulated: calibrate\", \\\n"
        "     \"fit.dat\" using 1:6 with points pt 9 ps 1.5 title \"simulated: validate (predictions)\"",
        f);
}

static int co__emit_fit_gp(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  char title[NC_STR_MAX + 64];
  snprintf(title, sizeof title, "%s: simulated against measured", c->s->name);
  co__gp_head(f, "fit", title, "measurement", "simulated / measured");
  fprintf(f, "set xtics rotate by -30\nset offsets 0.5, 0.5, 0, 0\n");
  co__gp_outputs(f, "fit", co__fit_body, c);
  return ferror(f) ? -EIO : 0;
}

/* sensitivity.dat: sigmas per unit of each parameter's normalised range. */
static int co__emit_sens_dat(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  char name[NC_STR_MAX + 100];
  fputs("# measurement", f);
  for (size_t k = 0; k < c->s->nfree; k++) fprintf(f, "\t%s", c->s->free[k].key->path);
  fputc('\n', f);
  for (size_t i = 0; i < c->s->nmeas; i++) {
    nicsim_calib_meas_name(&c->s->meas[i], name, sizeof name);
    nicsim_put_dat_label(f, name);
    for (size_t k = 0; k < c->s->nfree; k++) co__dat_num(f, c->r->sens[i * c->s->nfree + k]);
    fputc('\n', f);
  }
  return ferror(f) ? -EIO : 0;
}

static void co__sens_body(FILE *f, const struct co__ctx *c) {
  for (size_t k = 0; k < c->s->nfree; k++) {
    fprintf(f, "%s\"sensitivity.dat\" using %zu%s title ", k ? ", \\\n     " : "", k + 2,
            k == 0 ? ":xtic(1)" : "");
    nicsim_put_gp_string(f, c->s->free[k].key->path);
  }
}

static int co__emit_sens_gp(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  char title[NC_STR_MAX + 64];
  snprintf(title, sizeof title, "%s: sensitivities at the optimum", c->s->name);
  co__gp_head(f, "sensitivity", title, "measurement",
              "change over the parameter's range, in sigmas (log: over log range)");
  fputs("set style data histograms\nset style histogram clustered gap 1\n"
        "set style fill solid 0.8 border -1\nset xtics rotate by -30\n",
        f);
  co__gp_outputs(f, "sensitivity", co__sens_body, c);
  return ferror(f) ? -EIO : 0;
}

/* profile-KEY.dat: the parameter, sqrt(chi2), and every measurement's simulated / measured. */
static int co__emit_prof_dat(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  const struct nicsim_calib_profile *p = &c->r->prof[c->k];
  char name[NC_STR_MAX + 100];
  fprintf(f, "# %s\tsqrt(chi2)", c->s->free[c->k].key->path);
  for (size_t i = 0; i < c->s->nmeas; i++) {
    nicsim_calib_meas_name(&c->s->meas[i], name, sizeof name);
    fprintf(f, "\t%s", name);
  }
  fputc('\n', f);
  for (size_t q = 0; q < p->n; q++) {
    char num[40];
    nicsim_format_real(p->x[q], num, sizeof num);
    fputs(num, f);
    co__dat_num(f, sqrt(p->chi2[q]));
    for (size_t i = 0; i < c->s->nmeas; i++) {
      double v = c->s->meas[i].value;
      co__dat_num(f, v != 0 ? p->sim[q * c->s->nmeas + i] / v : NAN);
    }
    fputc('\n', f);
  }
  return ferror(f) ? -EIO : 0;
}

static void co__prof_body(FILE *f, const struct co__ctx *c) {
  char dat[128], name[NC_STR_MAX + 120];
  snprintf(dat, sizeof dat, "profile-%s.dat", c->s->free[c->k].key->path);
  nicsim_put_gp_string(f, dat);
  fputs(" using 1:2 axes x1y1 with linespoints lw 2 pt 7 title \"sqrt(chi2), calibration\"", f);
  for (size_t i = 0; i < c->s->nmeas; i++) {
    nicsim_calib_meas_name(&c->s->meas[i], name, sizeof name);
    snprintf(name + strlen(name), sizeof name - strlen(name), ", sim/measured (%s)",
             c->s->meas[i].validate ? "validate" : "calibrate");
    fputs(", \\\n     ", f);
    nicsim_put_gp_string(f, dat);
    fprintf(f, " using 1:%zu axes x1y2 with linespoints dt %d title ", i + 3,
            c->s->meas[i].validate ? 2 : 1);
    nicsim_put_gp_string(f, name);
  }
}

static int co__emit_prof_gp(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  const struct nicsim_calib_free *x = &c->s->free[c->k];
  const struct nicsim_calib_profile *p = &c->r->prof[c->k];
  char title[NC_STR_MAX + 128], xl[NC_STR_MAX], name[160], num[40];
  size_t at = 0;
  for (size_t q = 0; q < p->n; q++)
    if (p->x[q] == c->r->x[c->k]) at = q;
  snprintf(title, sizeof title, "%s: error profile of %s", c->s->name, x->key->path);
  snprintf(xl, sizeof xl, "%s%s%s%s", x->key->path, x->key->unit[0] ? " (" : "", x->key->unit,
           x->key->unit[0] ? ")" : "");
  snprintf(name, sizeof name, "profile-%s", x->key->path);
  co__gp_head(f, name, title, xl, "sqrt(chi2): calibration error in sigmas");
  fputs("set y2label \"simulated / measured\"\nset y2tics\nset ytics nomirror\n", f);
  if (x->scale == NICSIM_CALIB_LOG) fputs("set logscale x\n", f);
  nicsim_format_real(c->r->x[c->k], num, sizeof num);
  fprintf(f, "set arrow from %s, graph 0 to %s, graph 1 nohead dt 3\n", num, num);
  nicsim_format_real(sqrt(p->chi2[at] + 1), num, sizeof num);
  fprintf(f, "set arrow from graph 0, first %s to graph 1, first %s nohead dt 3\n", num, num);
  fputs("set arrow from graph 0, second 1 to graph 1, second 1 nohead lc rgb \"gray\"\n", f);
  co__gp_outputs(f, name, co__prof_body, c);
  return ferror(f) ? -EIO : 0;
}

/* ---- report.md and report.html ----------------------------------------------------------- */

/* Text of the spec or the scenario, escaped for the report's language. */
static void co__put(FILE *f, const struct co__ctx *c, const char *s) {
  if (c->html) nicsim_put_html(f, s);
  else nicsim_put_md(f, s);
}

/* A section heading. */
static void co__h2(FILE *f, const struct co__ctx *c, const char *title) {
  fprintf(f, c->html ? "<h2>%s</h2>\n" : "\n## %s\n\n", title);
}

/* A paragraph of fixed (trusted) text. */
static void co__p(FILE *f, const struct co__ctx *c, const char *text) {
  fprintf(f, c->html ? "<p>%s</p>\n" : "%s\n\n", text);
}

/* Starts a table with the given headings. */
static void co__thead(FILE *f, const struct co__ctx *c, const char *const *h, size_t n) {
  fputs(c->html ? "<table>\n<tr>" : "|", f);
  for (size_t i = 0; i < n; i++) fprintf(f, c->html ? "<th>%s</th>" : " %s |", h[i]);
  fputs(c->html ? "</tr>\n" : "\n|", f);
  for (size_t i = 0; !c->html && i < n; i++) fputs(i ? "---:|" : "---|", f);
  if (!c->html) fputc('\n', f);
}

/* Cell boundaries. */
static void co__td(FILE *f, const struct co__ctx *c, size_t i) {
  if (c->html) fputs(i == 0 ? "<tr><td>" : "</td><td>", f);
  else fputs(i == 0 ? "| " : " | ", f);
}
static void co__tr_end(FILE *f, const struct co__ctx *c) { fputs(c->html ? "</td></tr>\n" : " |\n", f); }
static void co__tend(FILE *f, const struct co__ctx *c) { fputs(c->html ? "</table>\n" : "\n", f); }

/* A table of measurements [a, b) with simulated values v. */
static void co__meas_table(FILE *f, const struct co__ctx *c, size_t a, size_t b, const double *v,
                           const char *simhead) {
  const char *h[] = {"point", "metric", "measured", "sigma", simhead, "error", "pull", "source"};
  char num[64];
  co__thead(f, c, h, 8);
  for (size_t i = a; i < b; i++) {
    const struct nicsim_calib_meas *m = &c->s->meas[i];
    co__td(f, c, 0);
    co__put(f, c, m->point[0] ? m->point : "-");
    co__td(f, c, 1);
    co__put(f, c, m->metric);
    co__td(f, c, 2);
    fprintf(f, "%.6g", m->value);
    co__td(f, c, 3);
    fprintf(f, "%.3g", m->sigma);
    co__td(f, c, 4);
    fprintf(f, "%.6g", v[i]);
    co__td(f, c, 5);
    snprintf(num, sizeof num, "%+.1f %%", 100 * co__err(m, v[i]));
    fputs(num, f);
    co__td(f, c, 6);
    fprintf(f, "%+.2f", (v[i] - m->value) / m->sigma);
    co__td(f, c, 7);
    co__put(f, c, m->source);
    co__tr_end(f, c);
  }
  co__tend(f, c);
}

/* An image of the plots directory, if it was rendered. */
static void co__img(FILE *f, const struct co__ctx *c, bool have, const char *name) {
  if (!have) return;
  if (c->html) fprintf(f, "<p><img src=\"plots/%s.svg\" alt=\"%s\"></p>\n", name, name);
  else fprintf(f, "![%s](plots/%s.svg)\n\n", name, name);
}

static int co__emit_report(FILE *f, void *arg) {
  struct co__ctx *c = arg;
  const struct nicsim_calib_spec *s = c->s;
  const struct nicsim_calib_result *r = c->r;
  bool h = c->html;
  char num[64], a[40], b[40], name[160], wname[NC_STR_MAX + 128];
  long worst;
  double pull;
  size_t n = s->nfree;
  if (h) {
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>nicsim calibration: ", f);
    co__put(f, c, s->name);
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto}"
          "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #bbb;padding:3px "
          "6px}img{max-width:100%}.warn{color:#a00}</style></head><body>\n<h1>Calibration: ",
          f);
    co__put(f, c, s->name);
    fputs("</h1>\n<p>", f);
  } else {
    fputs("# Calibration: ", f);
    co__put(f, c, s->name);
    fputs("\n\n", f);
  }
  co__put(f, c, s->description);
  /* No code span around a file name in Markdown: escapes do not work inside one. */
  fputs(h ? "</p>\n<ul>\n<li>Spec: <code>" : "\n\n- Spec: ", f);
  co__put(f, c, s->file);
  fputs(h ? "</code></li>\n<li>Scenario: <code>" : "\n- Scenario: ", f);
  co__put(f, c, s->scenario);
  fprintf(f, h ? "</code>, %zu points simulated per evaluation</li>\n"
               : ", %zu points simulated per evaluation\n",
          s->npoints);
  fprintf(f, h ? "<li>%zu free parameter%s, %zu calibration and %zu validation measurements; "
                 "%zu parameter vectors evaluated (grid %zu per parameter, then NLopt %s: %s "
                 "after %zu calls)</li>\n"
               : "- %zu free parameter%s, %zu calibration and %zu validation measurements; "
                 "%zu parameter vectors evaluated (grid %zu per parameter, then NLopt %s: %s "
                 "after %zu calls)\n",
          n, n == 1 ? "" : "s", s->ncal, s->nmeas - s->ncal, r->evaluations, s->grid, s->method,
          co__nlopt(r->nlopt_status), r->local_evaluations);
  if (isfinite(r->cond)) snprintf(num, sizeof num, "%.3g", r->cond);
  else snprintf(num, sizeof num, "infinite (rank %zu of %zu)", r->rank, n);
  fprintf(f, h ? "<li>Converged: %s; chi2 %.4g over %zu measurement%s; condition number of the "
                 "scaled Jacobian %s: %s</li>\n"
               : "- Converged: %s; chi2 %.4g over %zu measurement%s; condition number of the "
                 "scaled Jacobian %s: %s\n",
          r->converged ? "yes" : r->at_eval_limit ? "NO (stopped at the evaluation limit)" : "NO",
          r->chi2, s->ncal, s->ncal == 1 ? "" : "s", num,
          r->ill_conditioned ? "ILL-CONDITIONED" : "well-conditioned");
  if ((worst = nicsim_calib_worst_pull(s, r, &pull)) >= 0) {
    nicsim_calib_meas_name(&s->meas[worst], wname, sizeof wname);
    fprintf(f, h ? "<li>Worst validation pull: %+.2f (" : "- Worst validation pull: %+.2f (", pull);
    co__put(f, c, wname);
    fprintf(f, h ? ")</li>\n" : ")\n");
  }
  if (h) fprintf(f, "</ul>\n");
  if (co__no_match(s, r))
    co__p(f, c, h ? "<strong class=\"warn\">No value of the declared unknowns matches every "
                    "calibration measurement within 2 sigma.</strong> The error profiles below "
                    "show how close each parameter can get: a mechanism is missing from the "
                    "model, which calibration must not paper over (docs/calibration.md)."
                  : "**No value of the declared unknowns matches every calibration measurement "
                    "within 2 sigma.** The error profiles below show how close each parameter can "
                    "get: a mechanism is missing from the model, which calibration must not paper "
                    "over (docs/calibration.md).");

  co__h2(f, c, "Parameters");
  {
    const char *hd[] = {"key", "fitted", "range (scale)", "start", "chi2 within 1 of min",
                        "identifiable", "why unknown"};
    co__thead(f, c, hd, 7);
    for (size_t k = 0; k < n; k++) {
      const struct nicsim_calib_free *x = &s->free[k];
      const struct nicsim_calib_profile *p = &r->prof[k];
      co__td(f, c, 0);
      co__put(f, c, x->key->path);
      co__td(f, c, 1);
      co__value_text(x, r->x[k], num, sizeof num);
      fprintf(f, "%s%s%s", num, x->key->unit[0] ? " " : "", x->key->unit);
      if (r->at_bound[k]) fprintf(f, " (at its %s)", r->at_bound[k] < 0 ? "min" : "max");
      co__td(f, c, 2);
      fprintf(f, "%.6g to %.6g (%s)", x->min, x->max, x->scale == NICSIM_CALIB_LOG ? "log" : "linear");
      co__td(f, c, 3);
      fprintf(f, "%.6g", nicsim_calib_quantise(x, x->start));
      co__td(f, c, 4);
      snprintf(a, sizeof a, "%.4g", p->lo);
      snprintf(b, sizeof b, "%.4g", p->hi);
      fprintf(f, "%s%s to %s%s", p->lo_bound ? "\u2264 " : "", a, p->hi_bound ? "\u2265 " : "", b);
      co__td(f, c, 5);
      fputs(r->identifiable[k] ? "yes" : "NO: ", f);
      if (!r->identifiable[k]) co__put(f, c, r->reason[k]);
      if (r->cliff[k]) fputs(" (kink or cliff at the optimum)", f);
      co__td(f, c, 6);
      co__put(f, c, x->why);
      co__tr_end(f, c);
    }
    co__tend(f, c);
  }
  co__h2(f, c, "Calibration measurements (fitted)");
  co__meas_table(f, c, 0, s->ncal, r->sim, "simulated");
  co__h2(f, c, "Validation measurements (predicted; never used to fit)");
  if (s->nmeas > s->ncal) co__meas_table(f, c, s->ncal, s->nmeas, r->sim, "predicted");
  else co__p(f, c, "None declared: nothing judges this calibration yet.");
  if (r->cv) {
    const char *hd[] = {"point", "metric", "list", "measured", "predicted by the others", "error"};
    co__h2(f, c, "Cross-validation (leave one out)");
    co__p(f, c, "Each measurement predicted by a calibration on all the others: the honest "
                "measure of the model.");
    co__thead(f, c, hd, 6);
    for (size_t j = 0; j < s->nmeas; j++) {
      const struct nicsim_calib_fold *fo = &r->folds[j];
      co__td(f, c, 0);
      co__put(f, c, s->meas[j].point[0] ? s->meas[j].point : "-");
      co__td(f, c, 1);
      co__put(f, c, s->meas[j].metric);
      co__td(f, c, 2);
      fputs(s->meas[j].validate ? "validate" : "calibrate", f);
      co__td(f, c, 3);
      fprintf(f, "%.6g", s->meas[j].value);
      co__td(f, c, 4);
      if (fo->skipped) fputs("skipped: fewer other measurements than free parameters", f);
      else fprintf(f, "%.6g%s", fo->predicted, fo->converged ? "" : " (not converged)");
      co__td(f, c, 5);
      if (!fo->skipped) fprintf(f, "%+.1f %%", 100 * co__err(&s->meas[j], fo->predicted));
      co__tr_end(f, c);
    }
    co__tend(f, c);
  }
  co__h2(f, c, "Plots");
  co__p(f, c, "Simulated against measured (each normalised to its measurement; the bars are 1 "
              "sigma), each parameter's error profile (the others at the optimum; dotted: the "
              "optimum and chi2 + 1; right axis: every measurement's simulated / measured) and "
              "the sensitivities at the optimum.");
  co__img(f, c, c->plots[0], "fit");
  for (size_t k = 0; k < n; k++) {
    snprintf(name, sizeof name, "profile-%s", s->free[k].key->path);
    co__img(f, c, c->plots[2 + k], name);
  }
  co__img(f, c, c->plots[1], "sensitivity");
  co__h2(f, c, "Sensitivities at the optimum");
  co__p(f, c, "Change of each measurement over each parameter's whole range (log scale: over "
              "its log range), in sigmas of that measurement, from central differences at 2 % "
              "of the range. A column of zeros is a parameter the measurements do not see.");
  {
    fputs(h ? "<table>\n<tr><th>measurement</th>" : "| measurement |", f);
    for (size_t k = 0; k < n; k++) {
      fputs(h ? "<th>" : " ", f);
      co__put(f, c, s->free[k].key->path);
      fputs(h ? "</th>" : " |", f);
    }
    fputs(h ? "</tr>\n" : "\n|---|", f);
    for (size_t k = 0; !h && k < n; k++) fputs("---:|", f);
    if (!h) fputc('\n', f);
    for (size_t i = 0; i < s->nmeas; i++) {
      nicsim_calib_meas_name(&s->meas[i], name, sizeof name);
      co__td(f, c, 0);
      co__put(f, c, name);
      for (size_t k = 0; k < n; k++) {
        co__td(f, c, k + 1);
        fprintf(f, "%.3g", r->sens[i * n + k]);
      }
      co__tr_end(f, c);
    }
    co__tend(f, c);
  }
  fputs(h ? "<p>Singular values of the calibration rows: " : "Singular values of the calibration rows: ", f);
  for (size_t k = 0; k < n; k++) fprintf(f, "%s%.3g", k ? ", " : "", r->sv[k]);
  fputs(h ? ".</p>\n<p>Generated by <code>nicsim calibrate</code>; the numbers are in "
            "calibration.json and evaluations.csv.</p>\n</body></html>\n"
          : ".\n\nGenerated by `nicsim calibrate`; the numbers are in calibration.json and "
            "evaluations.csv.\n",
        f);
  return ferror(f) ? -EIO : 0;
}

/* Writes dir/name with emit; reports a failure. */
static int co__write(const char *dir, const char *name, nicsim_emit_fn emit, void *arg) {
  char path[NC_PATH_MAX + 200];
  int rc;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  rc = nicsim_write_atomic(path, emit, arg);
  if (rc < 0) fprintf(stderr, "nicsim calibrate: cannot write %s: %s\n", path, nicsim_strerror(-rc));
  return rc;
}

/* summary.md: the row of docs/calibration.md's table (calib_row.c). */
static int co__emit_row(FILE *f, void *arg) {
  const struct co__ctx *c = arg;
  return nicsim_calib_emit_row(f, c->s, c->r) == 0 ? 0 : -EIO;
}

/* True if dir/plots/name.svg exists. */
static bool co__have_svg(const char *dir, const char *name) {
  char path[NC_PATH_MAX + 200];
  struct stat st;
  snprintf(path, sizeof path, "%s/plots/%s.svg", dir, name);
  return stat(path, &st) == 0;
}

int nicsim_calib_write(const char *dir, const struct nicsim_calib_spec *s,
                       const struct nicsim_calib_result *r, const char *version,
                       nicsim_calib_render_fn render, void *render_ctx) {
  struct co__ctx c;
  char pdir[NC_PATH_MAX + 16], name[160], file[200];
  int rc;
  memset(&c, 0, sizeof c);
  c.s = s;
  c.r = r;
  c.version = version;
  if ((c.doc = nicsim_calib_to_json(s, r, version)) == NULL) return -ENOMEM;
  rc = co__write(dir, "calibration.json", co__emit_json, &c);
  json_decref(c.doc);
  if (rc < 0 || (rc = co__write(dir, "calibrated.yaml", co__emit_yaml, &c)) < 0 ||
      (rc = co__write(dir, "summary.md", co__emit_row, &c)) < 0 ||
      (rc = co__write(dir, "evaluations.csv", co__emit_csv, &c)) < 0)
    return rc;
  snprintf(pdir, sizeof pdir, "%s/plots", dir);
  if (mkdir(pdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "nicsim calibrate: cannot create %s: %s\n", pdir, strerror(errno));
    return -errno;
  }
  if ((rc = co__write(pdir, "fit.dat", co__emit_fit_dat, &c)) < 0 ||
      (rc = co__write(pdir, "fit.gp", co__emit_fit_gp, &c)) < 0 ||
      (rc = co__write(pdir, "sensitivity.dat", co__emit_sens_dat, &c)) < 0 ||
      (rc = co__write(pdir, "sensitivity.gp", co__emit_sens_gp, &c)) < 0)
    return rc;
  for (c.k = 0; c.k < s->nfree; c.k++) {
    snprintf(file, sizeof file, "profile-%s.dat", s->free[c.k].key->path);
    if ((rc = co__write(pdir, file, co__emit_prof_dat, &c)) < 0) return rc;
    snprintf(file, sizeof file, "profile-%s.gp", s->free[c.k].key->path);
    if ((rc = co__write(pdir, file, co__emit_prof_gp, &c)) < 0) return rc;
  }
  if (render) {
    render(render_ctx, pdir, "fit");
    render(render_ctx, pdir, "sensitivity");
    for (size_t k = 0; k < s->nfree; k++) {
      snprintf(name, sizeof name, "profile-%s", s->free[k].key->path);
      render(render_ctx, pdir, name);
    }
  }
  c.plots[0] = co__have_svg(dir, "fit");
  c.plots[1] = co__have_svg(dir, "sensitivity");
  for (size_t k = 0; k < s->nfree && k < 64; k++) {
    snprintf(name, sizeof name, "profile-%s", s->free[k].key->path);
    c.plots[2 + k] = co__have_svg(dir, name);
  }
  c.html = false;
  if ((rc = co__write(dir, "report.md", co__emit_report, &c)) < 0) return rc;
  c.html = true;
  return co__write(dir, "report.html", co__emit_report, &c);
}
