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

#include "results/safety.h"
#include "results/escape.h"
#include "study/study_internal.h"
#include "study/plot_internal.h"
#include "config/sweep.h"

#define NS__MAXCOLS 64
/* Most panels one plot is split into: beyond, a plot is too small to read
 * (and the sweep has too many values of keys the plot does not show). */
#define NS__MAXPANELS 12


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


/* Unit of metric name in the metrics catalogue (docs/metrics.md), or for an
 * extra (cpu.core<N>.util) as the point's results give it; "" if none. */
static const char *ns__catalogue_unit(const char *name, const struct nicsim_results *res) {
  long id = nicsim_metric_find(name);
  size_t i;
  if (id >= 0)
    return nicsim_metric_defs()[id].unit;
  for (i = 0; res != NULL && i < res->nextra; i++)
    if (strcmp(res->extra[i].name, name) == 0)
      return res->extra[i].unit;
  return "";
}

/* Which reference line a y metric gets. */
enum { NS__REF_NONE, NS__REF_LINE_RATE, NS__REF_FULL };
static int ns__ref_kind(const struct ns_plot *p, size_t q) {
  const char *y = p->y[q];
  const size_t n = strlen(y);
  /* A wire throughput (rx.*, tx.* in Gbit/s) is bounded by the line rate. */
  if (strcmp(p->unit[q], "Gbit/s") == 0 && (strncmp(y, "rx.", 3) == 0 || strncmp(y, "tx.", 3) == 0))
    return NS__REF_LINE_RATE;
  /* A utilisation (a busy fraction, drawn in %) by 100 %. */
  if (strcmp(p->unit[q], "%") == 0 && ((n >= 4 && strcmp(y + n - 4, "util") == 0) ||
                                       (n >= 9 && strcmp(y + n - 9, "busy_frac") == 0)))
    return NS__REF_FULL;
  return NS__REF_NONE;
}

/* Fills in the automatic title and axis labels: the key and the metrics
 * with their units (the schema's and the metrics catalogue's). */
static void ns__plot_labels(struct ns_plot *p) {
  const struct nc_key *k = nc_key_find(p->x);
  char ys[512] = "";
  size_t q, used = 0;
  bool same = true;

  for (q = 0; q < p->ny; q++)
    same = same && strcmp(p->unit[q], p->unit[0]) == 0;
  for (q = 0; q < p->ny; q++) {
    /* Metrics of different units each carry theirs. */
    if (!same && p->unit[q][0])
      used += (size_t)snprintf(ys + used, used < sizeof(ys) ? sizeof(ys) - used : 0, "%s%s (%s)",
                               q ? ", " : "", p->y[q], p->unit[q]);
    else
      used += (size_t)snprintf(ys + used, used < sizeof(ys) ? sizeof(ys) - used : 0, "%s%s",
                               q ? ", " : "", p->y[q]);
    if (used >= sizeof(ys))
      used = sizeof(ys) - 1;
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
    if (same && p->unit[0][0])
      snprintf(p->ylabel, sizeof(p->ylabel), "%.200s (%s)", ys, p->unit[0]);
    else
      snprintf(p->ylabel, sizeof(p->ylabel), "%.200s", ys);
  }
  if (!p->title[0]) {
    /* The title names the metrics without their units (the y axis has them). */
    used = 0;
    for (q = 0; q < p->ny; q++) {
      used += (size_t)snprintf(ys + used, used < sizeof(ys) ? sizeof(ys) - used : 0, "%s%s",
                               q ? ", " : "", p->y[q]);
      if (used >= sizeof(ys))
        used = sizeof(ys) - 1;
    }
    snprintf(p->title, sizeof(p->title), "%.120s vs %.120s", ys, p->x);
  }
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

/* One point of a plot, as loaded: where it goes and its values. */
struct ns__pt {
  size_t xi, si, pi;            /* its x value, line (series and keys drawn as lines), panel */
  double v[NC_PLOT_MAX_Y];      /* each y's value as stored (not yet scaled) */
  bool has[NC_PLOT_MAX_Y];      /* the point reports y and it is finite */
  double line_rate;             /* nic.line_rate_gbps of its config: the wire's rate */
};

/* What one plot's data file needs: per (panel, x, column) the sum, count,
 * least and greatest of its points' values. Columns are line x metric. */
struct ns__grid {
  struct ns__vals xs, ss, ps;   /* x values, line texts, panel texts */
  struct ns__pt *pts;
  size_t npts;
  double *sum, *lo, *hi;
  size_t *cnt;
  size_t cap;
  bool repeats;                 /* some cell averages more than one point (repeats only) */
};

/* Emits the data file or script of a plot (nicsim_emit_fn). */
struct ns__emit_ctx {
  const struct ns_plot *p;
  struct ns__grid *g;
};

/* True if the x values are numbers plotted on a numeric axis (not bars). */
static bool ns__xs_numeric(const struct ns__emit_ctx *c) {
  size_t xi;
  bool numeric = !c->p->bar;
  for (xi = 0; xi < c->g->xs.n && numeric; xi++)
    numeric = ns_numeric(c->g->xs.v[xi]);
  return numeric;
}

/* The header text of column col ("<line> <metric>", or the metric alone). */
static void ns__put_col_head(FILE *f, const struct ns__emit_ctx *c, size_t col) {
  const char *line = c->g->ss.v[col / c->p->ny];
  nicsim_put_term(f, line);
  fputs(line[0] ? " " : "", f);
  nicsim_put_term(f, c->p->y[col % c->p->ny]);
}

static int ns__emit_dat(FILE *f, void *arg) {
  struct ns__emit_ctx *c = arg;
  size_t xi, col, pi, ncol = c->g->ss.n * c->p->ny;
  char num[40];
  bool numeric = ns__xs_numeric(c);

  /* One block per panel (gnuplot's "index N"), two blank lines apart. The
   * headers are comments: their texts (from sweep.json) have their control
   * characters escaped, so none can end the comment line. */
  for (pi = 0; pi < c->g->ps.n; pi++) {
    if (pi > 0)
      fputs("\n\n", f);
    if (c->g->ps.n > 1) {
      fprintf(f, "# panel %zu: ", pi);
      nicsim_put_term(f, c->g->ps.v[pi]);
      fputc('\n', f);
    }
    fputs("# ", f);
    nicsim_put_term(f, c->p->x);
    for (col = 0; col < ncol; col++) {
      fputc('\t', f);
      ns__put_col_head(f, c, col);
    }
    /* Then, per column, the least and the greatest value the mean is of (the
     * error bars of repeats). */
    for (int b = 0; b < 2; b++)
      for (col = 0; col < ncol; col++) {
        fputs(b ? "\tmax " : "\tmin ", f);
        ns__put_col_head(f, c, col);
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
          size_t at = (pi * c->g->xs.n + xi) * ncol + col;
          const double scale = c->p->scale[col % c->p->ny];
          const double v = b == 0 ? c->g->sum[at] / (double)c->g->cnt[at] : b == 1 ? c->g->lo[at] : c->g->hi[at];
          if (c->g->cnt[at] == 0)
            snprintf(num, sizeof(num), "NaN");
          else
            nicsim_format_real(v * scale, num, sizeof(num));
          fprintf(f, "\t%s", num);
        }
      fputc('\n', f);
    }
  }
  return ferror(f) ? -EIO : 0;
}

/* The reference lines of panel pi: their plotted values and texts (at most
 * max); the wire's line rate on a wire throughput, 100 % on a utilisation.
 * Each comes from the points' recorded configuration. */
static size_t ns__refs(const struct ns__emit_ctx *c, size_t pi, double *val, char (*text)[64],
                       size_t max) {
  const struct ns_plot *p = c->p;
  size_t n = 0, q, i, r;
  char num[40];

  for (q = 0; q < p->ny; q++) {
    const int kind = ns__ref_kind(p, q);
    for (i = 0; kind != NS__REF_NONE && i < c->g->npts; i++) {
      const double v = kind == NS__REF_FULL ? 100.0 : c->g->pts[i].line_rate;
      bool seen = false;
      if (c->g->pts[i].pi != pi || !(v > 0) || n >= max)
        continue;
      nicsim_format_real(v, num, sizeof(num));
      if (kind == NS__REF_FULL)
        snprintf(text[n], sizeof(text[n]), "100 %%");
      else
        snprintf(text[n], sizeof(text[n]), "line rate %s Gbit/s", num);
      for (r = 0; r < n; r++)
        seen = seen || strcmp(text[r], text[n]) == 0;
      if (!seen)
        val[n++] = v;
    }
  }
  return n;
}

/* The plot command of panel pi (data block pi of the .dat). */
static void ns__emit_plot_cmd(FILE *f, const struct ns__emit_ctx *c, size_t pi, bool numeric) {
  const struct ns_plot *p = c->p;
  size_t col, r, nref, ncol = c->g->ss.n * p->ny;
  char dat[sizeof(p->name) + 8], idx[32] = "", ref_text[8][64];
  double ref[8];

  snprintf(dat, sizeof(dat), "%s.dat", p->name);
  if (c->g->ps.n > 1)
    snprintf(idx, sizeof(idx), " index %zu", pi);
  fprintf(f, "plot ");
  for (col = 0; col < ncol; col++) {
    char title[NC_STR_MAX + 200];
    const char *line = c->g->ss.v[col / p->ny];
    if (line[0] && p->ny > 1)
      snprintf(title, sizeof(title), "%s %s", line, p->y[col % p->ny]);
    else if (line[0])
      snprintf(title, sizeof(title), "%s", line);
    else
      snprintf(title, sizeof(title), "%s", p->y[col % p->ny]);
    fputs(col ? ", \\\n     " : "", f);
    nicsim_put_gp_string(f, dat);
    fputs(idx, f);
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
  /* Reference lines: dashed grey, named in the key. */
  nref = ns__refs(c, pi, ref, ref_text, sizeof(ref) / sizeof(*ref));
  for (r = 0; r < nref; r++) {
    char num[40];
    nicsim_format_real(ref[r], num, sizeof(num));
    fprintf(f, ", \\\n     %s with lines lc rgb \"#777777\" lw 1.5 dt 2 title ", num);
    nicsim_put_gp_string(f, ref_text[r]);
  }
  fputc('\n', f);
}

/* The y range every panel shares, so that panels compare: the least and
 * greatest plotted value (error bars and reference lines included), with a
 * margin. False if there is none. */
static bool ns__shared_yrange(const struct ns__emit_ctx *c, double *lo, double *hi) {
  const struct ns_plot *p = c->p;
  size_t at, pi, r, nref, ncol = c->g->ss.n * p->ny;
  double ref[8];
  char ref_text[8][64];
  bool any = false;

  for (at = 0; at < c->g->cap; at++) {
    const double scale = p->scale[at % ncol % p->ny];
    const double v[2] = {c->g->lo[at] * scale, c->g->hi[at] * scale};
    for (int b = 0; b < 2 && c->g->cnt[at] > 0; b++) {
      if (p->logy && !(v[b] > 0))
        continue;
      *lo = any && *lo < v[b] ? *lo : v[b];
      *hi = any && *hi > v[b] ? *hi : v[b];
      any = true;
    }
  }
  for (pi = 0; pi < c->g->ps.n; pi++) {
    nref = ns__refs(c, pi, ref, ref_text, sizeof(ref) / sizeof(*ref));
    for (r = 0; r < nref && any; r++) {
      *lo = *lo < ref[r] ? *lo : ref[r];
      *hi = *hi > ref[r] ? *hi : ref[r];
    }
  }
  if (!any)
    return false;
  if (p->logy) {
    *lo /= 1.25;
    *hi *= 1.25;
  } else {
    double span = *hi - *lo > 0 ? *hi - *lo : fabs(*hi) > 0 ? fabs(*hi) : 1.0;
    if (p->bar && *lo > 0)
      *lo = 0;
    else
      *lo -= 0.05 * span;
    *hi += 0.05 * span;
  }
  return true;
}

/* Emits the gnuplot script of a plot (nicsim_emit_fn). */
static int ns__emit_gp(FILE *f, void *arg) {
  struct ns__emit_ctx *c = arg;
  const struct ns_plot *p = c->p;
  const size_t npan = c->g->ps.n;
  bool numeric = ns__xs_numeric(c);
  char out[sizeof(p->name) + 8];
  size_t cols = 1, rows = 1, pi;
  double ylo = 0, yhi = 0;
  bool shared = npan > 1 && ns__shared_yrange(c, &ylo, &yhi);
  int t;

  /* Panels in a grid about as wide as tall, each about half the size of a
   * lone plot. */
  while (cols * cols < npan)
    cols++;
  rows = (npan + cols - 1) / cols;
  fprintf(f, "# %s.gp: generated by nicsim plot; edit and run 'gnuplot %s.gp' to restyle.\n",
          p->name, p->name);
  fprintf(f, "set datafile separator \"\\t\"\nset datafile missing \"NaN\"\n");
  if (npan == 1) {
    fprintf(f, "set title ");
    nicsim_put_gp_string(f, p->title);
    fputc('\n', f);
  }
  fprintf(f, "set xlabel ");
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
  if (shared) {
    char a[40], b[40];
    nicsim_format_real(ylo, a, sizeof(a));
    nicsim_format_real(yhi, b, sizeof(b));
    fprintf(f, "# every panel on the same y range, so that they compare\nset yrange [%s:%s]\n", a, b);
  }
  for (t = 0; t < 2; t++) {
    snprintf(out, sizeof(out), "%s.%s", p->name, t == 0 ? "png" : "svg");
    fprintf(f, "\nset terminal %s noenhanced size %zu,%zu\nset output ", t == 0 ? "pngcairo" : "svg",
            npan == 1 ? (size_t)960 : cols * 560, npan == 1 ? (size_t)600 : rows * 420 + 40);
    nicsim_put_gp_string(f, out);
    fputc('\n', f);
    if (npan == 1) {
      ns__emit_plot_cmd(f, c, 0, numeric);
    } else {
      /* One panel per combination of the keys the plot does not show as x
       * or a line, titled with them. */
      fprintf(f, "set multiplot layout %zu,%zu title ", rows, cols);
      nicsim_put_gp_string(f, p->title);
      fputc('\n', f);
      for (pi = 0; pi < npan; pi++) {
        fprintf(f, "set title ");
        nicsim_put_gp_string(f, c->g->ps.v[pi]);
        fputc('\n', f);
        ns__emit_plot_cmd(f, c, pi, numeric);
      }
      fprintf(f, "unset multiplot\n");
    }
    fprintf(f, "unset output\n");
  }
  return ferror(f) ? -EIO : 0;
}

/* Appends "key=value" to buf (used bytes in *used), after ", " unless first. */
static void ns__append_kv(char *buf, size_t n, size_t *used, const char *key, const char *val) {
  int w = snprintf(buf + *used, *used < n ? n - *used : 0, "%s%s=%s", *used ? ", " : "", key, val);
  *used += w > 0 ? (size_t)w : 0;
  if (*used >= n)
    *used = n - 1;
}

/* Loads the plot's points into g: each point's x, its line and panel, its
 * values. The swept keys the plot does not show as x or series ("other
 * keys") never average: those that vary among points of the same x and
 * series split the plot into panels (or, with declared panels, the declared
 * ones do and the others become lines). Only points apart from run.seed
 * (repeats) share a cell. 0 or an exit status after reporting. */
static int ns__load_points(const char *cmd, struct ns_sweepdir *d, struct ns_plot *p,
                           struct ns__grid *g) {
  const char *other[NC_KEY__COUNT + 1];
  struct ns__vals kv[NC_KEY__COUNT + 1], sraw = {0};
  size_t nother = 0, k, i, q, *kidx = NULL, *sri = NULL, *first = NULL;
  bool varies[NC_KEY__COUNT + 1] = {false}, panel[NC_KEY__COUNT + 1] = {false};
  char xt[NC_PATH_MAX], st[NC_PATH_MAX], why[512];
  int status = 0;

  memset(kv, 0, sizeof(kv));
  for (k = 0; k < d->nkeys; k++)
    if (strcmp(d->keys[k], p->x) != 0 && strcmp(d->keys[k], p->series) != 0)
      other[nother++] = d->keys[k];
  g->pts = calloc(d->n ? d->n : 1, sizeof(*g->pts));
  kidx = calloc(d->n * nother + 1, sizeof(*kidx));
  sri = calloc(d->n + 1, sizeof(*sri));
  if (g->pts == NULL || kidx == NULL || sri == NULL)
    status = NICSIM_STUDY_BAD_INPUT;
  for (i = 0; i < d->n && status == 0; i++) {
    struct ns__pt *pt = &g->pts[g->npts];
    long xi, si;
    if (!d->have[i])
      continue;
    if (ns_sweepdir_load(d, i, why, sizeof(why)) != 0) {
      ns_eprintf("nicsim %s: %s\n", cmd, why);
      status = NICSIM_STUDY_BAD_INPUT;
      break;
    }
    ns_key_text(d->cfg, p->x, xt, sizeof(xt));
    if (p->series[0])
      ns_key_text(d->cfg, p->series, st, sizeof(st));
    else
      st[0] = '\0';
    xi = ns__vals_add(&g->xs, xt);
    si = ns__vals_add(&sraw, st);
    if (xi < 0 || si < 0) {
      status = NICSIM_STUDY_BAD_INPUT;
      break;
    }
    pt->xi = (size_t)xi;
    sri[g->npts] = (size_t)si;
    for (k = 0; k < nother; k++) {
      long vi;
      ns_key_text(d->cfg, other[k], st, sizeof(st));
      if ((vi = ns__vals_add(&kv[k], st)) < 0) {
        status = NICSIM_STUDY_BAD_INPUT;
        break;
      }
      kidx[g->npts * nother + k] = (size_t)vi;
    }
    for (q = 0; q < p->ny; q++) {
      const char *u = ns__catalogue_unit(p->y[q], d->res);
      pt->has[q] = nicsim_results_get(d->res, p->y[q], &pt->v[q]) && isfinite(pt->v[q]);
      if (!p->unit[q][0] && u[0]) {
        /* A fraction is drawn in per cent, as the tables show it. */
        snprintf(p->unit[q], sizeof(p->unit[q]), "%s", strcmp(u, "fraction") == 0 ? "%" : u);
        p->scale[q] = strcmp(u, "fraction") == 0 ? 100.0 : 1.0;
      }
    }
    pt->line_rate = d->cfg->nic.line_rate_gbps;
    g->npts++;
  }
  /* Which other keys vary among the points of one x and series (a key
   * zipped with x or the series does not). run.seed is the repeat. */
  if (status == 0 && (first = malloc((g->xs.n * sraw.n + 1) * sizeof(*first))) == NULL)
    status = NICSIM_STUDY_BAD_INPUT;
  for (k = 0; k < nother && status == 0; k++) {
    if (strcmp(other[k], "run.seed") == 0)
      continue;
    for (i = 0; i < g->xs.n * sraw.n; i++)
      first[i] = (size_t)-1;
    for (i = 0; i < g->npts && !varies[k]; i++) {
      size_t *f = &first[g->pts[i].xi * sraw.n + sri[i]];
      varies[k] = *f != (size_t)-1 && *f != kidx[i * nother + k];
      *f = kidx[i * nother + k];
    }
  }
assign:
  for (k = 0; k < nother; k++) {
    panel[k] = p->npanels == 0 && varies[k];
    for (q = 0; q < p->npanels; q++)
      panel[k] = panel[k] || strcmp(p->panels[q], other[k]) == 0;
  }
  /* Each point's line: the series, then the varying keys not in panels; its
   * panel: the panel keys. */
  for (i = 0; i < g->npts && status == 0; i++) {
    char line[NC_STR_MAX + 512], pan[NC_STR_MAX + 512];
    size_t ul = 0, up = 0;
    long si, pi;
    line[0] = pan[0] = '\0';
    if (p->series[0])
      ns__append_kv(line, sizeof(line), &ul, p->series, sraw.v[sri[i]]);
    for (k = 0; k < nother; k++)
      if (panel[k])
        ns__append_kv(pan, sizeof(pan), &up, other[k], kv[k].v[kidx[i * nother + k]]);
      else if (varies[k])
        ns__append_kv(line, sizeof(line), &ul, other[k], kv[k].v[kidx[i * nother + k]]);
    si = ns__vals_add(&g->ss, line);
    pi = ns__vals_add(&g->ps, pan);
    if (si < 0 || pi < 0)
      status = NICSIM_STUDY_BAD_INPUT;
    else {
      g->pts[i].si = (size_t)si;
      g->pts[i].pi = (size_t)pi;
    }
  }
  if (status == 0 && g->ps.n > NS__MAXPANELS && p->automatic && p->npanels == 0) {
    /* A default plot of a sweep with many keys: panels by the first varying
     * keys whose value combinations fit, the other varying keys as lines. */
    size_t combos = 1;
    for (k = 0; k < nother && p->npanels < NC_PLOT_MAX_PANEL_KEYS; k++)
      if (varies[k] && combos * kv[k].n <= NS__MAXPANELS) {
        p->panels[p->npanels++] = other[k];
        combos *= kv[k].n;
      }
    if (p->npanels > 0) {
      ns__vals_free(&g->ss);
      ns__vals_free(&g->ps);
      goto assign;
    }
  }
  if (status == 0 && g->ps.n > NS__MAXPANELS) {
    char keys[512];
    size_t used = 0;
    keys[0] = '\0';
    for (k = 0; k < nother; k++)
      if (panel[k]) {
        int w = snprintf(keys + used, sizeof(keys) - used, "%s%s", used ? ", " : "", other[k]);
        used += w > 0 && (size_t)w < sizeof(keys) - used ? (size_t)w : 0;
      }
    ns_eprintf("nicsim %s: plot '%s' would need %zu panels, one per combination of %s (swept keys "
               "it does not show as x or series, which are never averaged); the limit is %d\n"
               "  hint: declare the plot in the scenario with 'panels: KEY' (the key to split "
               "panels by; the other keys become lines) or 'series: KEY', or sweep fewer values "
               "of these keys (docs/sweeps.md, Plots)\n",
               cmd, p->name, g->ps.n, keys, NS__MAXPANELS);
    status = NICSIM_STUDY_BAD_INPUT;
  }
  if (status == 0 && g->ss.n * p->ny > NS__MAXCOLS) {
    ns_eprintf("nicsim %s: plot '%s' would have %zu lines; the limit is %d\n"
               "  hint: declare 'panels:' with the keys that make the lines, or fewer y metrics\n",
               cmd, p->name, g->ss.n * p->ny, NS__MAXCOLS);
    status = NICSIM_STUDY_BAD_INPUT;
  }
  for (k = 0; k < nother; k++)
    ns__vals_free(&kv[k]);
  ns__vals_free(&sraw);
  free(kidx);
  free(sri);
  free(first);
  return status;
}

/* Draws one plot from the sweep directory's points. */
static int ns__draw(const char *cmd, struct ns_sweepdir *d, struct ns_plot *p,
                    const char *pdir, bool quiet) {
  struct ns__grid g;
  struct ns__emit_ctx ctx = {p, &g};
  char path[NC_PATH_MAX + 128];
  size_t i, q, ncol;
  int status, rc;

  memset(&g, 0, sizeof(g));
  for (q = 0; q < p->ny; q++) {
    p->unit[q][0] = '\0';
    p->scale[q] = 1.0;
  }
  status = ns__load_points(cmd, d, p, &g);
  if (status == 0) {
    ns__plot_labels(p);
    ncol = g.ss.n * p->ny;
    g.cap = g.ps.n * g.xs.n * ncol;
    g.sum = calloc(g.cap ? g.cap : 1, sizeof(*g.sum));
    g.cnt = calloc(g.cap ? g.cap : 1, sizeof(*g.cnt));
    g.lo = calloc(g.cap ? g.cap : 1, sizeof(*g.lo));
    g.hi = calloc(g.cap ? g.cap : 1, sizeof(*g.hi));
    if (g.sum == NULL || g.cnt == NULL || g.lo == NULL || g.hi == NULL)
      status = NICSIM_STUDY_BAD_INPUT;
    for (i = 0; i < g.npts && status == 0; i++)
      for (q = 0; q < p->ny; q++) {
        const struct ns__pt *pt = &g.pts[i];
        const size_t at = (pt->pi * g.xs.n + pt->xi) * ncol + pt->si * p->ny + q;
        const double v = pt->v[q];
        if (!pt->has[q])
          continue;
        g.lo[at] = g.cnt[at] == 0 || v < g.lo[at] ? v : g.lo[at];
        g.hi[at] = g.cnt[at] == 0 || v > g.hi[at] ? v : g.hi[at];
        g.sum[at] += v;
        g.repeats |= ++g.cnt[at] > 1;
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
  if (status == 0) {
    snprintf(path, sizeof(path), "%s/%.63s.dat", pdir, p->name);
    if ((rc = nicsim_write_atomic(path, ns__emit_dat, &ctx)) == 0) {
      snprintf(path, sizeof(path), "%s/%.63s.gp", pdir, p->name);
      rc = nicsim_write_atomic(path, ns__emit_gp, &ctx);
    }
    if (rc < 0) {
      ns_eprintf("nicsim %s: cannot write %s: %s\n", cmd, path, nicsim_strerror(-rc));
      status = NICSIM_STUDY_BAD_INPUT;
    }
  }
  if (status == 0)
    status = ns_gnuplot(cmd, pdir, p->name, quiet);
  if (status == 0 && !quiet)
    ns_eprintf("nicsim: plot %s/%s.{png,svg}\n", pdir, p->name);
  ns__vals_free(&g.xs);
  ns__vals_free(&g.ss);
  ns__vals_free(&g.ps);
  free(g.pts);
  free(g.sum);
  free(g.lo);
  free(g.hi);
  free(g.cnt);
  return status;
}

/* Renders every plot of DIR. */
int nicsim_study_plot(const char *cmd, const char *dir, bool quiet) {
  struct ns_sweepdir d;
  struct ns_plot plots[100];
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
  /* A directory whose every point file is unreadable draws nothing: an error. */
  {
    char why[1024], first[1024] = "";
    size_t ok = 0, k;
    for (k = 0; k < d.n && ok == 0; k++)
      if (d.have[k]) {
        if (ns_sweepdir_load(&d, k, why, sizeof(why)) == 0)
          ok++;
        else if (!first[0])
          snprintf(first, sizeof(first), "%s", why);
      }
    if (ok == 0) {
      ns_eprintf("nicsim %s: none of the %zu point files in %s/points can be read, so there is "
                 "nothing to plot; the first: %s\n  hint: run the sweep again (--resume reruns "
                 "what is missing or broken)\n",
                 cmd, ns_sweepdir_count(&d), dir, first);
      status = NICSIM_STUDY_BAD_INPUT;
      goto out;
    }
  }
  if ((status = ns_plot_list(cmd, &d, plots, sizeof(plots) / sizeof(*plots), &n)) != 0)
    goto out;
  snprintf(pdir, sizeof(pdir), "%s/plots", dir);
  if ((rc = ns_mkdir_sub(pdir)) < 0) {
    ns_eprintf("nicsim %s: cannot create %s: %s\n", cmd, pdir, nicsim_strerror(-rc));
    status = NICSIM_STUDY_BAD_INPUT;
    goto out;
  }
  for (i = 0; i < n && status == 0; i++)
    status = ns__draw(cmd, &d, &plots[i], pdir, quiet);
out:
  ns_sweepdir_close(&d);
  return status;
}
