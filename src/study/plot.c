/* plot.c: `nicsim plot` (nicsim_study_plot): renders a sweep's declared plots
 * (or the default ones) with gnuplot into DIR/plots/: a data file, a .gp
 * script, PNG and SVG. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/escape.h"
#include "study/study_internal.h"
#include "config/sweep.h"

#define NS__MAXCOLS 64

/* One plot being drawn. */
struct ns__plot {
  char name[64], title[NC_STR_MAX], x[NC_STR_MAX], series[NC_STR_MAX];
  char xlabel[NC_STR_MAX], ylabel[NC_STR_MAX];
  const char *y[NC_PLOT_MAX_Y];
  size_t ny;
  bool bar, logx, logy;
};

/* The distinct values of x or series, in first-seen order. */
struct ns__vals {
  char **v;
  size_t n;
};

/* Index of text in vals, adding it; -1 on ENOMEM. */
static long ns__vals_add(struct ns__vals *vals, const char *text) {
  size_t i;
  char **v;
  for (i = 0; i < vals->n; i++)
    if (strcmp(vals->v[i], text) == 0)
      return (long)i;
  v = realloc(vals->v, (vals->n + 1) * sizeof(*v));
  if (v == NULL)
    return -1;
  vals->v = v;
  v[vals->n] = strdup(text);
  return v[vals->n] ? (long)vals->n++ : -1;
}

static void ns__vals_free(struct ns__vals *vals) {
  size_t i;
  for (i = 0; i < vals->n; i++)
    free(vals->v[i]);
  free(vals->v);
  memset(vals, 0, sizeof(*vals));
}

/* Text of a swept key (or "label") in cfg. */
static void ns__key_text(const struct nicsim_config *cfg, const char *key, char *buf, size_t n) {
  const struct nc_key *k = nc_key_find(key);
  if (k != NULL)
    nc_value_format(cfg, k, buf, n);
  else if (strcmp(key, "platform") == 0)
    snprintf(buf, n, "%s", cfg->platform);
  else
    snprintf(buf, n, "%s", cfg->label);
}

/* True if text is a finite number. */
static bool ns__numeric(const char *text) {
  char *end;
  double v = strtod(text, &end);
  return end != text && *end == '\0' && isfinite(v);
}

/* Unit of a metric as plotted ("" if unknown): a fraction is drawn in
 * per cent, as the tables show it. */
static const char *ns__metric_unit(const char *name) {
  long id = nicsim_metric_find(name);
  const char *u = id >= 0 ? nicsim_metric_defs()[id].unit : "";
  return strcmp(u, "fraction") == 0 ? "%" : u;
}

/* The factor from a metric's value to its plotted value (100 for a fraction). */
static double ns__metric_scale(const char *name) {
  return strcmp(ns__metric_unit(name), "%") == 0 ? 100.0 : 1.0;
}

/* Fills in the automatic title and axis labels (with units). */
static void ns__plot_labels(struct ns__plot *p) {
  const struct nc_key *k = nc_key_find(p->x);
  char ys[512] = "";
  size_t q, used = 0;
  bool same = true;

  for (q = 0; q < p->ny; q++) {
    used += (size_t)snprintf(ys + used, used < sizeof(ys) ? sizeof(ys) - used : 0, "%s%s",
                             q ? ", " : "", p->y[q]);
    if (used >= sizeof(ys))
      used = sizeof(ys) - 1;
    same = same && strcmp(ns__metric_unit(p->y[q]), ns__metric_unit(p->y[0])) == 0;
  }
  if (!p->xlabel[0]) {
    /* A label longer than the field is cut short, which is fine for an axis
     * (the length is taken only to say the truncation is intended). */
    int len;
    if (k != NULL && k->unit[0])
      len = snprintf(p->xlabel, sizeof(p->xlabel), "%s (%s)", p->x, k->unit);
    else
      len = snprintf(p->xlabel, sizeof(p->xlabel), "%s", p->x);
    (void)len;
  }
  if (!p->ylabel[0]) {
    if (same && ns__metric_unit(p->y[0])[0])
      snprintf(p->ylabel, sizeof(p->ylabel), "%.200s (%s)", ys, ns__metric_unit(p->y[0]));
    else
      snprintf(p->ylabel, sizeof(p->ylabel), "%.200s", ys);
  }
  if (!p->title[0])
    snprintf(p->title, sizeof(p->title), "%.120s vs %.120s", ys, p->x);
}

/* Copies what gnuplot printed (held in log) to stderr. */
static void ns__show_log(FILE *log) {
  char buf[4096];
  size_t n;
  rewind(log);
  while ((n = fread(buf, 1, sizeof(buf), log)) > 0)
    fwrite(buf, 1, n, stderr);
}

/* Runs gnuplot on NAME.gp in directory dir (cli.h). */
int ns_gnuplot(const char *cmd, const char *dir, const char *name, bool quiet) {
  FILE *log = quiet ? tmpfile() : NULL;
  char arg[80];
  pid_t pid;
  int st = 0, status = 0;

  /* "./" keeps a script named like an option ("-e.gp") a file name. */
  snprintf(arg, sizeof(arg), "./%.63s.gp", name);
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    ns_eprintf("nicsim %s: cannot start gnuplot: %s\n", cmd, strerror(errno));
    if (log != NULL)
      fclose(log);
    return NICSIM_STUDY_FAILED;
  }
  if (pid == 0) {
    if (chdir(dir) != 0)
      _exit(126);
    if (log != NULL)
      dup2(fileno(log), STDERR_FILENO);
    dup2(STDERR_FILENO, STDOUT_FILENO);
    execlp("gnuplot", "gnuplot", arg, (char *)NULL);
    _exit(127);
  }
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
    ns_eprintf("nicsim %s: gnuplot is not installed (Debian: apt-get install gnuplot-nox)\n",
            cmd);
    status = NICSIM_STUDY_BAD_INPUT;
  } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    if (log != NULL)
      ns__show_log(log);
    ns_eprintf("nicsim %s: gnuplot failed on %s/%s.gp (status %d)\n", cmd, dir, name,
            WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    status = NICSIM_STUDY_FAILED;
  }
  if (log != NULL)
    fclose(log);
  return status;
}

/* What one plot's data file needs: per (x, column) the sum and count. */
struct ns__grid {
  struct ns__vals xs, ss;
  double *sum, *lo, *hi; /* per cell: the sum, least and greatest of its points' values */
  size_t *cnt;
  size_t cap;
  bool repeats;          /* some cell averages more than one point */
};

/* Emits the data file of a plot (nicsim_emit_fn). */
struct ns__emit_ctx {
  const struct ns__plot *p;
  struct ns__grid *g;
};
/* True if the x values are numbers plotted on a numeric axis (not bars). */
static bool ns__xs_numeric(const struct ns__emit_ctx *c) {
  size_t xi;
  bool numeric = !c->p->bar;
  for (xi = 0; xi < c->g->xs.n && numeric; xi++)
    numeric = ns__numeric(c->g->xs.v[xi]);
  return numeric;
}

static int ns__emit_dat(FILE *f, void *arg) {
  struct ns__emit_ctx *c = arg;
  size_t xi, col, ncol = c->g->ss.n * c->p->ny;
  char num[40];

  bool numeric = ns__xs_numeric(c);

  /* The header is a comment: its texts (from sweep.json) have their control
   * characters escaped, so none can end the comment line. */
  fputs("# ", f);
  nicsim_put_term(f, c->p->x);
  for (col = 0; col < ncol; col++) {
    fputc('\t', f);
    nicsim_put_term(f, c->g->ss.v[col / c->p->ny]);
    fputs(c->g->ss.v[col / c->p->ny][0] ? " " : "", f);
    nicsim_put_term(f, c->p->y[col % c->p->ny]);
  }
  /* Then, per column, the least and the greatest value the mean is of (the
   * error bars of repeats). */
  for (int b = 0; b < 2; b++)
    for (col = 0; col < ncol; col++) {
      fputs(b ? "\tmax " : "\tmin ", f);
      nicsim_put_term(f, c->g->ss.v[col / c->p->ny]);
      fputs(c->g->ss.v[col / c->p->ny][0] ? " " : "", f);
      nicsim_put_term(f, c->p->y[col % c->p->ny]);
    }
  fputc('\n', f);
  for (xi = 0; xi < c->g->xs.n; xi++) {
    /* A label is a quoted string, so that one starting with '#' is no
     * comment and one holding '"' is read whole (nicsim_put_dat_label). */
    if (numeric)
      fputs(c->g->xs.v[xi], f);
    else
      nicsim_put_dat_label(f, c->g->xs.v[xi]);
    for (int b = 0; b < 3; b++)
      for (col = 0; col < ncol; col++) {
        size_t at = xi * ncol + col;
        const double scale = ns__metric_scale(c->p->y[col % c->p->ny]);
        const double v = b == 0 ? c->g->sum[at] / (double)c->g->cnt[at] : b == 1 ? c->g->lo[at] : c->g->hi[at];
        if (c->g->cnt[at] == 0)
          snprintf(num, sizeof(num), "NaN");
        else
          nicsim_format_real(v * scale, num, sizeof(num));
        fprintf(f, "\t%s", num);
      }
    fputc('\n', f);
  }
  return ferror(f) ? -EIO : 0;
}

/* Emits the gnuplot script of a plot (nicsim_emit_fn). */
static int ns__emit_gp(FILE *f, void *arg) {
  struct ns__emit_ctx *c = arg;
  const struct ns__plot *p = c->p;
  size_t col, ncol = c->g->ss.n * p->ny;
  bool numeric = ns__xs_numeric(c);
  char dat[sizeof(p->name) + 8], out[sizeof(p->name) + 8];
  int t;

  fprintf(f, "# %s.gp: generated by nicsim plot; edit and run 'gnuplot %s.gp' to restyle.\n",
          p->name, p->name);
  fprintf(f, "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n");
  fprintf(f, "set title ");
  nicsim_put_gp_string(f, p->title);
  fprintf(f, "\nset xlabel ");
  nicsim_put_gp_string(f, p->xlabel);
  fprintf(f, "\nset ylabel ");
  nicsim_put_gp_string(f, p->ylabel);
  fprintf(f, "\nset key below\nset grid ytics\n");
  /* Okabe and Ito's colour-blind-safe colours (their yellow left out: it
   * does not show on white), each line with its own point shape and dash
   * pattern, so series that coincide or print in grey stay apart. */
  {
    static const char *const colour[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                         "#E69F00", "#56B4E9", "#000000", "#777777"};
    static const int point[] = {7, 5, 9, 13, 6, 4, 8, 12};
    for (size_t l = 0; l < sizeof(colour) / sizeof(*colour); l++)
      fprintf(f, "set linetype %zu lc rgb \"%s\" lw 2 pt %d ps 1.2 dt %zu\n", l + 1, colour[l], point[l],
              l % 4 + 1);
    fprintf(f, "set linetype cycle %zu\n", sizeof(colour) / sizeof(*colour));
  }
  if (p->logx && numeric)
    fprintf(f, "set logscale x\n");
  if (p->logy)
    fprintf(f, "set logscale y\n");
  if (p->bar)
    fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.8 border -1\nset yrange [%s:*]\n",
            p->logy ? "*" : "0");
  else if (!numeric)
    fprintf(f, "set xtics rotate by -30\n");
  snprintf(dat, sizeof(dat), "%s.dat", p->name);
  for (t = 0; t < 2; t++) {
    snprintf(out, sizeof(out), "%s.%s", p->name, t == 0 ? "png" : "svg");
    fprintf(f, "\nset terminal %s noenhanced size 960,600\nset output ",
            t == 0 ? "pngcairo" : "svg");
    nicsim_put_gp_string(f, out);
    fprintf(f, "\nplot ");
    for (col = 0; col < ncol; col++) {
      char title[NC_STR_MAX + 100];
      const char *sv = c->g->ss.v[col / p->ny];
      if (p->series[0] && p->ny > 1)
        snprintf(title, sizeof(title), "%s=%s %s", p->series, sv, p->y[col % p->ny]);
      else if (p->series[0])
        snprintf(title, sizeof(title), "%s=%s", p->series, sv);
      else
        snprintf(title, sizeof(title), "%s", p->y[col % p->ny]);
      fputs(col ? ", \\\n     " : "", f);
      nicsim_put_gp_string(f, dat);
      fputc(' ', f);
      /* With repeats, a line's points carry error bars from the least to the
       * greatest repeat (columns after the means); bars show the mean. */
      if (p->bar)
        fprintf(f, "using %zu%s", col + 2, col == 0 ? ":xtic(1)" : "");
      else if (numeric && c->g->repeats)
        fprintf(f, "using 1:%zu:%zu:%zu with yerrorlines", col + 2, col + 2 + ncol, col + 2 + 2 * ncol);
      else if (numeric)
        fprintf(f, "using 1:%zu with linespoints", col + 2);
      else if (c->g->repeats)
        fprintf(f, "using 0:%zu:%zu:%zu:xtic(1) with yerrorlines", col + 2, col + 2 + ncol, col + 2 + 2 * ncol);
      else
        fprintf(f, "using 0:%zu:xtic(1) with linespoints", col + 2);
      fprintf(f, " title ");
      nicsim_put_gp_string(f, title);
    }
    fprintf(f, "\nunset output\n");
  }
  return ferror(f) ? -EIO : 0;
}

/* Draws one plot from the sweep directory's points. */
static int ns__draw(const char *cmd, struct ns_sweepdir *d, struct ns__plot *p,
                    const char *pdir, bool quiet) {
  struct ns__grid g;
  struct ns__emit_ctx ctx = {p, &g};
  char xt[NC_PATH_MAX], st[NC_PATH_MAX], why[512], path[NC_PATH_MAX + 128];
  size_t i, q, ncol;
  int status = 0, rc;

  memset(&g, 0, sizeof(g));
  ns__plot_labels(p);
  /* First pass: the x and series values; second: the sums. */
  for (int pass = 0; pass < 2 && status == 0; pass++) {
    for (i = 0; i < d->n; i++) {
      long xi, si;
      if (!d->have[i])
        continue;
      if (ns_sweepdir_load(d, i, why, sizeof(why)) != 0) {
        ns_eprintf("nicsim %s: %s\n", cmd, why);
        status = NICSIM_STUDY_BAD_INPUT;
        break;
      }
      ns__key_text(d->cfg, p->x, xt, sizeof(xt));
      if (p->series[0])
        ns__key_text(d->cfg, p->series, st, sizeof(st));
      else
        st[0] = '\0';
      xi = ns__vals_add(&g.xs, xt);
      si = ns__vals_add(&g.ss, st);
      if (xi < 0 || si < 0) {
        status = NICSIM_STUDY_BAD_INPUT;
        break;
      }
      if (pass == 0)
        continue;
      ncol = g.ss.n * p->ny;
      for (q = 0; q < p->ny; q++) {
        double v;
        size_t at = (size_t)xi * ncol + (size_t)si * p->ny + q;
        if (nicsim_results_get(d->res, p->y[q], &v) && isfinite(v)) {
          g.lo[at] = g.cnt[at] == 0 || v < g.lo[at] ? v : g.lo[at];
          g.hi[at] = g.cnt[at] == 0 || v > g.hi[at] ? v : g.hi[at];
          g.sum[at] += v;
          g.repeats |= ++g.cnt[at] > 1;
        }
      }
    }
    if (pass == 0 && status == 0) {
      g.cap = g.xs.n * g.ss.n * p->ny;
      g.sum = calloc(g.cap ? g.cap : 1, sizeof(*g.sum));
      g.cnt = calloc(g.cap ? g.cap : 1, sizeof(*g.cnt));
      g.lo = calloc(g.cap ? g.cap : 1, sizeof(*g.lo));
      g.hi = calloc(g.cap ? g.cap : 1, sizeof(*g.hi));
      if (g.sum == NULL || g.cnt == NULL || g.lo == NULL || g.hi == NULL)
        status = NICSIM_STUDY_BAD_INPUT;
    }
  }
  if (status == 0) {
    size_t have = 0;
    for (i = 0; i < g.cap; i++)
      have += g.cnt[i] > 0;
    if (have == 0) {
      char ys[512] = "";
      for (q = 0, ncol = 0; q < p->ny; q++)
        ncol += (size_t)snprintf(ys + ncol, ncol < sizeof(ys) ? sizeof(ys) - ncol : 0, "%s%s", q ? ", " : "",
                                 p->y[q]);
      ns_eprintf("nicsim %s: plot '%s': no point of %s has a value of %s: nothing to draw\n"
                 "  hint: check that the points simulated ('nicsim merge' lists missing ones) and that the "
                 "metric applies to this workload (docs/metrics.md)\n",
                 cmd, p->name, d->dir, ys);
      status = NICSIM_STUDY_BAD_INPUT;
    }
  }
  if (status == 0 && g.ss.n * p->ny > NS__MAXCOLS) {
    ns_eprintf("nicsim %s: plot '%s' would have %zu lines; the limit is %d\n", cmd, p->name,
            g.ss.n * p->ny, NS__MAXCOLS);
    status = NICSIM_STUDY_BAD_INPUT;
  }
  if (status == 0) {
    snprintf(path, sizeof(path), "%s/%.63s.dat", pdir, p->name);
    if ((rc = nicsim_write_atomic(path, ns__emit_dat, &ctx)) == 0) {
      snprintf(path, sizeof(path), "%s/%.63s.gp", pdir, p->name);
      rc = nicsim_write_atomic(path, ns__emit_gp, &ctx);
    }
    if (rc < 0) {
      ns_eprintf("nicsim %s: cannot write %s: %s\n", cmd, path, strerror(-rc));
      status = NICSIM_STUDY_BAD_INPUT;
    }
  }
  if (status == 0)
    status = ns_gnuplot(cmd, pdir, p->name, quiet);
  if (status == 0 && !quiet)
    ns_eprintf("nicsim: plot %s/%s.{png,svg}\n", pdir, p->name);
  ns__vals_free(&g.xs);
  ns__vals_free(&g.ss);
  free(g.sum);
  free(g.lo);
  free(g.hi);
  free(g.cnt);
  return status;
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
static size_t ns__default_plots(struct ns_sweepdir *d, struct ns__plot *out, size_t max) {
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
      ns__key_text(d->cfg, x, xt, sizeof(xt));
      numeric = numeric && ns__numeric(xt);
      npts++;
    }
  for (j = 0; j < 1 + sizeof(headline) / sizeof(*headline) && n < max; j++) {
    struct ns__plot *p = &out[n];
    memset(p, 0, sizeof(*p));
    snprintf(p->x, sizeof(p->x), "%s", x);
    snprintf(p->series, sizeof(p->series), "%s", series);
    p->bar = !numeric;
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
static int ns__plot_list(const char *cmd, struct ns_sweepdir *d, struct ns__plot *plots,
                         size_t max, size_t *n) {
  json_t *decl = json_object_get(d->manifest, "plots"), *e;
  const char *bad;
  size_t i, q;

  *n = 0;
  json_array_foreach(decl, i, e) {
    struct ns__plot *p = &plots[*n];
    json_t *y = json_object_get(e, "y");
    if (*n >= max)
      break;
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
    (*n)++;
  }
  if (*n == 0)
    *n = ns__default_plots(d, plots, max);
  return 0;
}

/* The names of the plots `nicsim plot` draws for d, in drawing order. */
int ns_plot_names(const char *cmd, struct ns_sweepdir *d, char (*names)[64], size_t max,
                  size_t *n) {
  struct ns__plot *plots = calloc(max ? max : 1, sizeof(*plots));
  size_t i;
  int status;

  *n = 0;
  if (plots == NULL) {
    ns_eprintf("nicsim %s: out of memory\n", cmd);
    return NICSIM_STUDY_BAD_INPUT;
  }
  status = ns__plot_list(cmd, d, plots, max, n);
  for (i = 0; status == 0 && i < *n; i++)
    snprintf(names[i], 64, "%s", plots[i].name);
  free(plots);
  return status;
}

/* Renders every plot of DIR. */
int nicsim_study_plot(const char *cmd, const char *dir, bool quiet) {
  struct ns_sweepdir d;
  struct ns__plot plots[100];
  char pdir[NC_PATH_MAX + 16];
  size_t n = 0, i;
  int status, rc;

  if (cmd == NULL)
    cmd = "plot";
  if ((status = ns_sweepdir_open(&d, cmd, dir)) != 0)
    goto out;
  if (ns_sweepdir_count(&d) == 0) {
    ns_eprintf("nicsim %s: %s holds no point results to plot\n", cmd, dir);
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  if ((status = ns__plot_list(cmd, &d, plots, sizeof(plots) / sizeof(*plots), &n)) != 0)
    goto out;
  snprintf(pdir, sizeof(pdir), "%s/plots", dir);
  if ((rc = ns_mkdir_p(pdir)) < 0) {
    ns_eprintf("nicsim %s: cannot create %s: %s\n", cmd, pdir, strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  for (i = 0; i < n && status == 0; i++)
    status = ns__draw(cmd, &d, &plots[i], pdir, quiet);
out:
  ns_sweepdir_close(&d);
  return status;
}
