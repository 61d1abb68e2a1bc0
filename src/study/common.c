/* common.c: helpers the study library shares (and the nicsim command's run
 * and validate use): loading and resolving scenarios with their diagnostics,
 * output paths, directories, file-name-safe labels, simulation errors. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/sweep.h"
#include "drivers/driver.h"
#include "results/escape.h"
#include "results/safety.h"
#include "sim/sim.h"
#include "study/study_internal.h"
#include "results/safety.h"

/* A growing text (ns_vfprintf's). */
struct ns__text {
  char *p;
  size_t n, cap;
  bool oom;
};

static void ns__text_add(struct ns__text *t, const char *s, size_t n) {
  if (t->oom)
    return;
  if (t->n + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    char *np;
    while (cap < t->n + n + 1)
      cap *= 2;
    if ((np = realloc(t->p, cap)) == NULL) {
      t->oom = true;
      return;
    }
    t->p = np;
    t->cap = cap;
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  t->p[t->n] = '\0';
}

/* A string argument: its line breaks as the text \x0A, \x0D (a name in a
 * message never starts a line of its own); the rest as it is. */
static void ns__text_add_arg(struct ns__text *t, const char *s) {
  for (; *s; s++) {
    if (*s == '\n' || *s == '\r')
      ns__text_add(t, *s == '\n' ? "\\x0A" : "\\x0D", 4);
    else
      ns__text_add(t, s, 1);
  }
}

/* Formats one conversion spec (with its * width and precision) of value v. */
#define NS__FMT_ONE(t, spec, sw, sp, w, pr, v)                                        \
  do {                                                                              \
    char one_[512];                                                                 \
    int k_ = (sw) && (sp) ? snprintf(one_, sizeof(one_), spec, w, pr, v)           \
             : (sw)       ? snprintf(one_, sizeof(one_), spec, w, v)               \
             : (sp)       ? snprintf(one_, sizeof(one_), spec, pr, v)              \
                          : snprintf(one_, sizeof(one_), spec, v);                 \
    if (k_ > 0)                                                                     \
      ns__text_add(t, one_, (size_t)k_ < sizeof(one_) ? (size_t)k_ : sizeof(one_) - 1); \
  } while (0)

/* Prints to f: the format's line breaks are kept; a string argument's line
 * breaks are shown as \x0A (a path or label cannot make a line of its own,
 * such as a fake "FILE: OK"); and every control character is escaped
 * (nicsim_put_term): messages and tables quote input. */
void ns_vfprintf(FILE *f, const char *fmt, va_list ap) {
  struct ns__text t = {NULL, 0, 0, false};
  const char *p = fmt;
  char *line, *nl;

  while (*p) {
    const char *start = p;
    char spec[64], conv, l1 = 0, l2 = 0;
    int w = 0, pr = 0;
    bool sw = false, sp = false;
    if (*p != '%') {
      size_t n = strcspn(p, "%");
      ns__text_add(&t, p, n);
      p += n;
      continue;
    }
    p++;
    if (*p == '%') {
      ns__text_add(&t, "%", 1);
      p++;
      continue;
    }
    while (*p && strchr("-+ #0", *p))
      p++;
    if (*p == '*') {
      sw = true;
      w = va_arg(ap, int);
      p++;
    }
    while (*p >= '0' && *p <= '9')
      p++;
    if (*p == '.') {
      p++;
      if (*p == '*') {
        sp = true;
        pr = va_arg(ap, int);
        p++;
      }
      while (*p >= '0' && *p <= '9')
        p++;
    }
    if (*p == 'h' || *p == 'l') {
      l1 = *p++;
      if (*p == l1)
        l2 = *p++;
    } else if (*p && strchr("zjtL", *p)) {
      l1 = *p++;
    }
    conv = *p ? *p++ : '\0';
    if (conv == '\0' || (size_t)(p - start) >= sizeof(spec)) {
      ns__text_add(&t, start, strlen(start)); /* not a conversion this knows */
      break;
    }
    memcpy(spec, start, (size_t)(p - start));
    spec[p - start] = '\0';
    switch (conv) {
    case 'd':
    case 'i':
      if (l1 == 'l' && l2) NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, long long));
      else if (l1 == 'l') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, long));
      else if (l1 == 'z') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, ssize_t));
      else if (l1 == 'j') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, intmax_t));
      else if (l1 == 't') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, ptrdiff_t));
      else NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, int));
      break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      if (l1 == 'l' && l2) NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, unsigned long long));
      else if (l1 == 'l') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, unsigned long));
      else if (l1 == 'z') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, size_t));
      else if (l1 == 'j') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, uintmax_t));
      else if (l1 == 't') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, ptrdiff_t));
      else NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, unsigned));
      break;
    case 'c':
      NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, int));
      break;
    case 'p':
      NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, void *));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      if (l1 == 'L') NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, long double));
      else NS__FMT_ONE(&t, spec, sw, sp, w, pr, va_arg(ap, double));
      break;
    case 's': {
      /* Formatted whole (width, precision), then its line breaks escaped. */
      const char *v = va_arg(ap, const char *);
      int k = sw && sp ? snprintf(NULL, 0, spec, w, pr, v) : sw ? snprintf(NULL, 0, spec, w, v)
              : sp     ? snprintf(NULL, 0, spec, pr, v)
                       : snprintf(NULL, 0, spec, v);
      char *one = k >= 0 ? malloc((size_t)k + 1) : NULL;
      if (one == NULL) {
        t.oom = true;
        break;
      }
      if (sw && sp) snprintf(one, (size_t)k + 1, spec, w, pr, v);
      else if (sw) snprintf(one, (size_t)k + 1, spec, w, v);
      else if (sp) snprintf(one, (size_t)k + 1, spec, pr, v);
      else snprintf(one, (size_t)k + 1, spec, v);
      ns__text_add_arg(&t, one);
      free(one);
      break;
    }
    default:
      ns__text_add(&t, start, strlen(start)); /* %n and the unknown: printed as text */
      p = start + strlen(start);
      break;
    }
  }
  if (t.oom || t.p == NULL) {
    free(t.p);
    return;
  }
  for (line = t.p; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
    *nl = '\0';
    nicsim_put_term(f, line);
    fputc('\n', f);
  }
  nicsim_put_term(f, line);
  free(t.p);
}

void ns_veprintf(const char *fmt, va_list ap) { ns_vfprintf(stderr, fmt, ap); }

void ns_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ns_vfprintf(stdout, fmt, ap);
  va_end(ap);
}

void ns_eprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ns_veprintf(fmt, ap);
  va_end(ap);
}

/* "nicsim CMD: message" on stderr; returns NICSIM_STUDY_BAD_INPUT. */
int ns_bad_input(const char *cmd, const char *fmt, ...) {
  va_list ap;

  ns_eprintf("nicsim %s: ", cmd);
  va_start(ap, fmt);
  ns_veprintf(fmt, ap);
  va_end(ap);
  ns_eprintf("\n");
  return NICSIM_STUDY_BAD_INPUT;
}

/* Prints an error list and its count line; see study_internal.h. */
void ns_print_errors(const char *file, struct nc_errors *errs) {
  size_t n = nc_errors_count(errs);

  nc_errors_sort(errs);
  nc_errors_print(errs, NC_ERRORS_SHOWN, stderr);
  if (n > 0) {
    char shown[4 * NC_PATH_MAX];
    ns_eprintf("%zu error%s in %s\n", n, n == 1 ? "" : "s",
               nicsim_term_text(file, shown, sizeof shown));
  }
}

/* What input i (named in) of s is: "the scenario", "a platform file", "an overlay". */
static const char *ns__input_role(const struct nc_scenario *s, size_t i, const char *in) {
  size_t k;
  for (k = 0; k < nc_scenario_noverlays(s); k++)
    if (nc_scenario_overlay_file(s, k) == in)
      return "an overlay";
  return i == 0 ? "the scenario" : "a platform file";
}

/* Notes every file s was read from as an input no output may be (safety.h). */
void ns_note_inputs(const struct nc_scenario *s) {
  const char *p;
  uint64_t dev, ino;
  size_t i;
  for (i = 0; s != NULL && nc_scenario_input(s, i, &p, &dev, &ino); i++)
    nicsim_input_note_id(dev, ino, ns__input_role(s, i, p), p);
}

/* Loads a scenario, printing every error it holds (nc_scenario_load_all). */
int ns_load(const char *path, struct nc_scenario **out) {
  struct nc_errors errs;

  memset(&errs, 0, sizeof(errs));
  if (nc_scenario_load_all(path, out, &errs) != 0) {
    nc_scenario_free(*out); /* loaded with errors: only for resolve_all */
    *out = NULL;
    ns_print_errors(path ? path : "the built-in default scenario", &errs);
    nc_errors_free(&errs);
    return NICSIM_STUDY_BAD_INPUT;
  }
  nc_errors_free(&errs);
  ns_note_inputs(*out);
  return 0;
}

/* Warns of overlay i of s setting a swept key (as command cmd). */
static void ns__warn_overlay_swept(const char *cmd, const struct nc_scenario *s, size_t i,
                                   const char *overlay) {
  size_t k;

  for (k = 0; k < nc_scenario_nswept(s); k++) {
    const struct nc_key *key = nc_key_find(nc_scenario_swept_key(s, k));
    if (key != NULL && nc_scenario_overlay_sets(s, i, key))
      ns_eprintf("nicsim %s: warning: overlay %s sets the swept key %s in every point\n", cmd,
                 overlay, key->path);
  }
}

/* Loads a scenario and adds the overlay files, printing any error; warns of
 * an overlay that sets a swept key. */
static int ns__check_point(const struct nc_scenario *s, long point, const char *const *sets,
                           size_t nsets, struct nicsim_config *cfg, struct nc_errors *errs);

int ns_load_overlaid(const char *cmd, const char *path, const char *const *overlays,
                     size_t noverlays, const char *const *sets, size_t nsets,
                     struct nc_scenario **out) {
  struct nc_errors errs;
  struct nicsim_config *cfg;
  size_t i;
  int bad;

  memset(&errs, 0, sizeof(errs));
  bad = nc_scenario_load_all(path, out, &errs) != 0;
  for (i = 0; *out != NULL && i < noverlays; i++) {
    size_t nov = nc_scenario_noverlays(*out);
    if (nc_scenario_add_overlay_all(*out, overlays[i], &errs) != 0)
      bad = 1;
    if (!bad && nc_scenario_noverlays(*out) > nov)
      ns__warn_overlay_swept(cmd, *out, nov, overlays[i]);
  }
  if (bad) {
    /* What loaded despite the errors: the base point's rules too, so that
     * the list is validate's (but for the sweep's points). */
    if (*out != NULL && (cfg = malloc(sizeof(*cfg))) != NULL) {
      ns__check_point(*out, -1, sets, nsets, cfg, &errs);
      free(cfg);
    }
    nc_scenario_free(*out); /* loaded with errors: only for resolve_all */
    *out = NULL;
    ns_print_errors(path ? path : "the built-in default scenario", &errs);
    nc_errors_free(&errs);
    return NICSIM_STUDY_BAD_INPUT;
  }
  nc_errors_free(&errs);
  ns_note_inputs(*out);
  return 0;
}

/* Checks the plots' metrics, adding each unknown one to errs. */
static int ns__check_plots_all(const struct nc_scenario *s, struct nc_errors *errs) {
  struct nc_error e;
  size_t i, q;
  int bad = 0;

  for (i = 0; i < nc_scenario_nplots(s); i++) {
    const struct nc_plot *pl = nc_scenario_plot(s, i);
    for (q = 0; q < pl->ny; q++) {
      const char *near;
      if (nicsim_metric_find(pl->y[q]) >= 0 || nicsim_metric_is_extra_name(pl->y[q]))
        continue;
      memset(&e, 0, sizeof(e));
      e.where = pl->y_at[q];
      snprintf(e.msg, sizeof(e.msg), "plot '%s': unknown metric '%s'", pl->name, pl->y[q]);
      if ((near = nicsim_metric_suggest(pl->y[q])) != NULL)
        snprintf(e.hint, sizeof(e.hint), "did you mean '%s'? y names metrics of docs/metrics.md",
                 near);
      else
        snprintf(e.hint, sizeof(e.hint),
                 "y names metrics of docs/metrics.md, e.g. rx.gbps, cpu.util, irq.per_sec");
      nc_errors_add(errs, &e);
      bad = -1;
    }
  }
  return bad;
}

/* Resolves point (-1: the base) collecting every error; 0 or -1. */
static int ns__check_point(const struct nc_scenario *s, long point, const char *const *sets,
                           size_t nsets, struct nicsim_config *cfg, struct nc_errors *errs) {
  int bad;

  if (s == NULL || point < -1 || (point >= 0 && (size_t)point >= nc_scenario_npoints(s)))
    return nc_scenario_resolve_all(s, point, sets, nsets, cfg, errs); /* the error, nothing to check */
  bad = nc_scenario_resolve_all(s, point, sets, nsets, cfg, errs);
  if (!errs->no_rules && nicsim_check_config_all(cfg, errs) != 0)
    bad = -1;
  return bad;
}

/* Checks a scenario file whole; see study_internal.h. */
int ns_check_all(const char *cmd, const char *path, const char *const *overlays, size_t noverlays,
                 const char *const *sets, size_t nsets, struct nicsim_config *cfg,
                 struct nc_errors *errs, size_t *npoints) {
  struct nc_scenario *s = NULL;
  size_t i, n;
  int bad;

  *npoints = 0;
  bad = nc_scenario_load_all(path, &s, errs) != 0;
  for (i = 0; s != NULL && i < noverlays; i++) {
    size_t nov = nc_scenario_noverlays(s);
    if (nc_scenario_add_overlay_all(s, overlays[i], errs) != 0)
      bad = 1;
    if (!bad && nc_scenario_noverlays(s) > nov)
      ns__warn_overlay_swept(cmd, s, nov, overlays[i]);
  }
  if (s == NULL)
    return NICSIM_STUDY_BAD_INPUT;
  if (ns__check_plots_all(s, errs) != 0)
    bad = 1;
  if (ns__check_point(s, -1, sets, nsets, cfg, errs) != 0)
    bad = 1;
  n = nc_scenario_npoints(s);
  for (i = 0; i < n && !errs->fatal; i++)
    if (ns__check_point(s, (long)i, sets, nsets, cfg, errs) != 0)
      bad = 1;
  *npoints = n;
  nc_scenario_free(s);
  return bad || nc_errors_count(errs) > 0 ? NICSIM_STUDY_BAD_INPUT : 0;
}

/* Resolves one point and checks it against its driver's rules, printing any error. */
int ns_resolve(const struct nc_scenario *s, long point, const char *const *sets, size_t nsets,
               struct nicsim_config *out) {
  struct nc_errors errs;

  memset(&errs, 0, sizeof(errs));
  if (ns__check_point(s, point, sets, nsets, out, &errs) != 0 || nc_errors_count(&errs) > 0) {
    ns_print_errors(nc_scenario_file(s), &errs);
    nc_errors_free(&errs);
    return NICSIM_STUDY_BAD_INPUT;
  }
  nc_errors_free(&errs);
  return 0;
}

/* Checks that every metric the scenario's plots name exists (the loader
 * cannot: metrics are not config), printing each unknown one. */
int ns_check_plots(const struct nc_scenario *s) {
  struct nc_errors errs;
  int bad;

  memset(&errs, 0, sizeof(errs));
  bad = ns__check_plots_all(s, &errs);
  nc_errors_print(&errs, NC_ERRORS_SHOWN, stderr);
  nc_errors_free(&errs);
  return bad ? NICSIM_STUDY_BAD_INPUT : 0;
}

/* Checks, before simulating, that an output file can be written at path. */
int ns_check_output_path(const char *cmd, const char *what, const char *path) {
  char real[NC_PATH_MAX], dir[NC_PATH_MAX];
  const char *base;
  struct stat st;
  int mode;

  if (path[0] == '\0') { /* the nicsim command reports this as a usage error first */
    ns_eprintf("nicsim %s: %s needs a file name\n", cmd, what);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (nicsim_input_clash(path) < 0) {
    ns_eprintf("nicsim %s: %s: cannot write %s: %s\n", cmd, path, what,
               nicsim_strerror(NICSIM_E_INPUT));
    return NICSIM_STUDY_BAD_INPUT;
  }
  mode = nicsim_output_target(path, real, sizeof(real));
  if (mode >= 0 && path[strlen(path) - 1] == '/') {
    ns_eprintf("nicsim %s: %s: cannot write %s: a file name cannot end in '/'\n", cmd, path,
            what);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (mode == -EISDIR) {
    ns_eprintf("nicsim %s: %s: cannot write %s: Is a directory\n", cmd, path, what);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (mode == -EINVAL) {
    ns_eprintf(
            "nicsim %s: %s: cannot write %s: %s is neither a regular file, a FIFO nor a "
            "character device\n  hint: give a file name (or /dev/stdout)\n",
            cmd, path, what, real);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (mode < 0) {
    ns_eprintf("nicsim %s: %s: cannot write %s: %s\n", cmd, path, what, strerror(-mode));
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (mode == NICSIM_OUT_STREAM) {
    /* Written in place: it must open for writing (checked without opening,
     * which would end a FIFO reader's input). */
    if (access(real, W_OK) != 0) {
      ns_eprintf("nicsim %s: %s: cannot write %s: %s: %s\n", cmd, path, what, real,
              strerror(errno));
      return NICSIM_STUDY_BAD_INPUT;
    }
    return 0;
  }
  /* Replaced via a temporary beside it: its directory must take new files. */
  if (nicsim_path_split(real, dir, sizeof(dir), &base) != 0) {
    ns_eprintf("nicsim %s: %s: path too long\n", cmd, path);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (stat(dir, &st) != 0) {
    ns_eprintf("nicsim %s: %s: cannot write %s: directory %s: %s\n", cmd, path, what, dir,
            strerror(errno));
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (!S_ISDIR(st.st_mode)) {
    ns_eprintf("nicsim %s: %s: cannot write %s: %s is not a directory\n", cmd, path, what,
            dir);
    return NICSIM_STUDY_BAD_INPUT;
  }
  if (access(dir, W_OK | X_OK) != 0) {
    ns_eprintf(
            "nicsim %s: %s: cannot write %s: directory %s: %s\n"
            "  hint: write it somewhere you may create files, or fix the permissions of %s\n",
            cmd, path, what, dir, strerror(errno), dir);
    return NICSIM_STUDY_BAD_INPUT;
  }
  return 0;
}

/* Refuses an output that is one of the files the scenario was read from. */
int ns_check_not_input(const char *cmd, const char *what, const char *out,
                        const struct nc_scenario *s) {
  const char *in;
  uint64_t dev, ino;
  size_t i;

  for (i = 0; nc_scenario_input(s, i, &in, &dev, &ino); i++) {
    if (ns_check_not_file(cmd, what, out, dev, ino, ns__input_role(s, i, in), in) != 0)
      return NICSIM_STUDY_BAD_INPUT;
  }
  return 0;
}

/* Refuses an output that is the file (dev, ino), an input of the command. */
int ns_check_not_file(const char *cmd, const char *what, const char *out, uint64_t dev,
                       uint64_t ino, const char *role, const char *name) {
  char real[NICSIM_OUT_PATH_MAX];
  struct stat st;

  if (out == NULL || nicsim_output_target(out, real, sizeof(real)) < 0 || stat(real, &st) != 0)
    return 0; /* absent: not an input; a bad path is ns_check_output_path's to report */
  if ((uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino)
    return 0;
  ns_eprintf(
          "nicsim %s: %s %s is %s %s, an input of this command: it would be overwritten\n"
          "  hint: write the output to another file\n",
          cmd, what, out, role, name);
  return NICSIM_STUDY_BAD_INPUT;
}

/* Creates a directory and its missing parents. */
/* mkdir -p of a directory inside a results directory; see study_internal.h. */
int ns_mkdir_sub(const char *path) {
  struct stat st;
  int rc = ns_mkdir_p(path);
  if (rc == 0 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
    return -NICSIM_E_LINK;
  return rc;
}

int ns_mkdir_p(const char *path) {
  char buf[NC_PATH_MAX];
  size_t len = strlen(path), i;
  struct stat st;

  if (len == 0)
    return -ENOENT;
  if (len >= sizeof(buf))
    return -ENAMETOOLONG;
  memcpy(buf, path, len + 1);
  for (i = 1; i <= len; i++) {
    if (buf[i] != '/' && buf[i] != '\0')
      continue;
    buf[i] = '\0';
    if (mkdir(buf, 0777) != 0) {
      int e = errno;
      if (e != EEXIST)
        return -e;
      if (stat(buf, &st) != 0)
        return -errno;
      if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    }
    if (i < len)
      buf[i] = '/';
  }
  return 0;
}

/* Makes a string safe as part of a file name. */
void ns_sanitise(const char *s, char *buf, size_t n) {
  size_t o = 0;

  if (n == 0)
    return;
  if (s[0] == '\0')
    s = "point";
  for (; *s && o + 1 < n; s++) {
    char c = *s;
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '_' || c == '+' || c == '-';
    buf[o++] = keep ? c : '_';
  }
  buf[o] = '\0';
  /* Never a hidden file or "..": a leading dot becomes '_'. */
  if (buf[0] == '.')
    buf[0] = '_';
}

/* Formats a simulation error for a human. */
void ns_format_sim_error(const struct nicsim_sim_error *e, char *buf, size_t n) {
  char comp[sizeof(e->component) + 1], msg[sizeof(e->msg) + 1];

  /* The struct may come from a child process: never trust its terminators. */
  memcpy(comp, e->component, sizeof(e->component));
  comp[sizeof(e->component)] = '\0';
  memcpy(msg, e->msg, sizeof(e->msg));
  msg[sizeof(e->msg)] = '\0';
  snprintf(buf, n, "simulation error in %s at %.3f ns: %s", comp[0] ? comp : "(unknown component)",
           e->time_ns, msg[0] ? msg : "(no message)");
}
