/* common.c: helpers the nicsim commands share: usage errors, --set, loading
 * and resolving scenarios with their diagnostics, output paths. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "results/escape.h"
#include "config/sweep.h"
#include "drivers/driver.h"

/* The usage synopsis of a command (NULL: of nicsim itself). */
const char *cli_synopsis(const char *cmd) {
  if (cmd == NULL)
    return "usage: nicsim [--help | --version] <command> [options]\n"
           "       commands: run, validate, sweep, merge, plot, report, demo, regress, bench, "
           "calibrate, platforms, config, help";
  if (strcmp(cmd, "run") == 0)
    return "usage: nicsim run [SCENARIO.yaml] [--set KEY=VALUE]... [--overlay FILE]...\n"
           "                  [--point LABEL] [--json FILE] [--csv FILE] [--trace FILE] [-q]";
  if (strcmp(cmd, "validate") == 0)
    return "usage: nicsim validate SCENARIO.yaml... [--set KEY=VALUE]... [--overlay FILE]...";
  if (strcmp(cmd, "sweep") == 0)
    return "usage: nicsim sweep SCENARIO.yaml [-o DIR] [-j N] [--set KEY=VALUE]...\n"
           "                    [--overlay FILE]... [-q] [--dry-run] [--resume] [--force]\n"
           "                    [--shard K/N]";
  if (strcmp(cmd, "merge") == 0)
    return "usage: nicsim merge DIR... [-o OUT] [-q]";
  if (strcmp(cmd, "plot") == 0)
    return "usage: nicsim plot DIR [-q]";
  if (strcmp(cmd, "report") == 0)
    return "usage: nicsim report DIR [--baseline LABEL] [--no-plots] [-q]";
  if (strcmp(cmd, "demo") == 0)
    return "usage: nicsim demo [-o DIR] [-j N] [-f] [-q]";
  if (strcmp(cmd, "regress") == 0)
    return "usage: nicsim regress [SUITE.yaml] [--update] [--junit FILE] [-j N] [-o DIR]\n"
           "                      [--entry NAME]... [--check-determinism] [--force] [-q]";
  if (strcmp(cmd, "calibrate") == 0)
    return "usage: nicsim calibrate SPEC.yaml [-o DIR] [-j N] [--cv] [--resume] [--force]\n"
           "                        [--no-plots] [-q]";
  if (strcmp(cmd, "platforms") == 0)
    return "usage: nicsim platforms";
  if (strcmp(cmd, "config") == 0)
    return "usage: nicsim config [SCENARIO.yaml] [--set KEY=VALUE]... [--overlay FILE]...\n"
           "                     [--point LABEL] [--changed]";
  return "usage: nicsim <command> [options]";
}

/* Reports a usage error with the synopsis; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;

  cli_eprintf("nicsim%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  cli_veprintf(fmt, ap);
  va_end(ap);
  cli_eprintf("\n%s\nRun 'nicsim%s%s --help' for all options.\n", cli_synopsis(cmd),
              cmd ? " " : "", cmd ? cmd : "");
  return CLI_EXIT_USAGE;
}

/* Prints to f with every control character but the line breaks of the
 * format escaped: messages and tables quote input (paths, labels, names). */
void cli_vfprintf(FILE *f, const char *fmt, va_list ap) {
  char small[1024], *buf = small, *line, *nl;
  va_list ap2;
  int n;

  va_copy(ap2, ap);
  n = vsnprintf(small, sizeof(small), fmt, ap);
  if (n >= (int)sizeof(small) && (buf = malloc((size_t)n + 1)) != NULL)
    vsnprintf(buf, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  if (n < 0 || buf == NULL)
    return;
  for (line = buf; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
    *nl = '\0';
    nicsim_put_term(f, line);
    fputc('\n', f);
  }
  nicsim_put_term(f, line);
  if (buf != small)
    free(buf);
}

void cli_veprintf(const char *fmt, va_list ap) { cli_vfprintf(stderr, fmt, ap); }

void cli_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cli_vfprintf(stdout, fmt, ap);
  va_end(ap);
}

void cli_eprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cli_veprintf(fmt, ap);
  va_end(ap);
}

/* Appends arg to the list; 0, or CLI_EXIT_USAGE (out of memory, for command cmd). */
static int cli__list_push(struct cli_sets *s, const char *cmd, const char *arg) {
  const char **v;

  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    v = realloc(s->v, cap * sizeof(*v));
    if (v == NULL) {
      cli_eprintf("nicsim %s: out of memory\n", cmd);
      return CLI_EXIT_USAGE;
    }
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = arg;
  return 0;
}

/* Adds one --set KEY=VALUE after checking its shape. */
int cli_sets_add(struct cli_sets *s, const char *cmd, const char *arg) {
  const char *eq = strchr(arg, '=');

  if (eq == NULL || eq == arg)
    return cli_usage_error(cmd, "--set expects KEY=VALUE (e.g. nic.desc_spacing=32), got '%s'",
                           arg);
  return cli__list_push(s, cmd, arg);
}

/* Adds one --overlay FILE. */
int cli_overlays_add(struct cli_sets *s, const char *cmd, const char *arg) {
  if (arg[0] == '\0')
    return cli_usage_error(cmd, "--overlay needs a file name");
  return cli__list_push(s, cmd, arg);
}

/* Frees the --set list. */
void cli_sets_free(struct cli_sets *s) {
  free(s->v);
  memset(s, 0, sizeof(*s));
}

/* Loads a scenario, printing any error. */
int cli_load(const char *path, struct nc_scenario **out) {
  struct nc_error err;

  memset(&err, 0, sizeof(err));
  if (nc_scenario_load(path, out, &err) != 0) {
    nc_error_print(&err, stderr);
    return CLI_EXIT_USAGE;
  }
  return 0;
}

/* Loads a scenario and adds the overlay files, printing any error; warns of
 * an overlay that sets a swept key. */
int cli_load_overlaid(const char *cmd, const char *path, const struct cli_sets *overlays,
                      struct nc_scenario **out) {
  struct nc_error err;
  size_t i, k;
  int status;

  if ((status = cli_load(path, out)) != 0)
    return status;
  for (i = 0; overlays != NULL && i < overlays->n; i++) {
    memset(&err, 0, sizeof(err));
    if (nc_scenario_add_overlay(*out, overlays->v[i], &err) != 0) {
      nc_error_print(&err, stderr);
      nc_scenario_free(*out);
      *out = NULL;
      return CLI_EXIT_USAGE;
    }
    for (k = 0; k < nc_scenario_nswept(*out); k++) {
      const struct nc_key *key = nc_key_find(nc_scenario_swept_key(*out, k));
      if (key != NULL && nc_scenario_overlay_sets(*out, i, key))
        cli_eprintf("nicsim %s: warning: overlay %s sets the swept key %s in every point\n", cmd,
                    overlays->v[i], key->path);
    }
  }
  return 0;
}

/* Resolves one point and checks it against its driver's rules, printing any error. */
int cli_resolve(const struct nc_scenario *s, long point, const struct cli_sets *sets,
                struct nicsim_config *out) {
  struct nc_error err;

  memset(&err, 0, sizeof(err));
  if (nc_scenario_resolve(s, point, sets->v, sets->n, out, &err) != 0 ||
      nk_driver_check_config(out, &err) != 0) {
    nc_error_print(&err, stderr);
    return CLI_EXIT_USAGE;
  }
  return 0;
}

/* Checks that every metric the scenario's plots name exists (the loader
 * cannot: metrics are not config), printing the first unknown one. */
int cli_check_plots(const struct nc_scenario *s) {
  size_t i, q;

  for (i = 0; i < nc_scenario_nplots(s); i++) {
    const struct nc_plot *pl = nc_scenario_plot(s, i);
    for (q = 0; q < pl->ny; q++) {
      const char *near;
      if (nicsim_metric_find(pl->y[q]) >= 0 || nicsim_metric_is_extra_name(pl->y[q]))
        continue;
      cli_eprintf("%s:%d:%d: error: plot '%s': unknown metric '%s'\n", pl->y_at[q].file,
              pl->y_at[q].line, pl->y_at[q].col, pl->name, pl->y[q]);
      if ((near = nicsim_metric_suggest(pl->y[q])) != NULL)
        cli_eprintf("  hint: did you mean '%s'? y names metrics of docs/metrics.md\n", near);
      else
        cli_eprintf("  hint: y names metrics of docs/metrics.md, e.g. rx.gbps, cpu.util, "
                        "irq.per_sec\n");
      return CLI_EXIT_USAGE;
    }
  }
  return 0;
}

/* Checks, before simulating, that an output file can be written at path. */
int cli_check_output_path(const char *cmd, const char *what, const char *path) {
  char real[NC_PATH_MAX], dir[NC_PATH_MAX];
  const char *base;
  struct stat st;
  int mode;

  if (path[0] == '\0')
    return cli_usage_error(cmd, "%s needs a file name", what);
  mode = nicsim_output_target(path, real, sizeof(real));
  if (mode >= 0 && path[strlen(path) - 1] == '/') {
    cli_eprintf("nicsim %s: %s: cannot write %s: a file name cannot end in '/'\n", cmd, path,
            what);
    return CLI_EXIT_USAGE;
  }
  if (mode == -EISDIR) {
    cli_eprintf("nicsim %s: %s: cannot write %s: Is a directory\n", cmd, path, what);
    return CLI_EXIT_USAGE;
  }
  if (mode == -EINVAL) {
    cli_eprintf(
            "nicsim %s: %s: cannot write %s: %s is neither a regular file, a FIFO nor a "
            "character device\n  hint: give a file name (or /dev/stdout)\n",
            cmd, path, what, real);
    return CLI_EXIT_USAGE;
  }
  if (mode < 0) {
    cli_eprintf("nicsim %s: %s: cannot write %s: %s\n", cmd, path, what, strerror(-mode));
    return CLI_EXIT_USAGE;
  }
  if (mode == NICSIM_OUT_STREAM) {
    /* Written in place: it must open for writing (checked without opening,
     * which would end a FIFO reader's input). */
    if (access(real, W_OK) != 0) {
      cli_eprintf("nicsim %s: %s: cannot write %s: %s: %s\n", cmd, path, what, real,
              strerror(errno));
      return CLI_EXIT_USAGE;
    }
    return 0;
  }
  /* Replaced via a temporary beside it: its directory must take new files. */
  if (nicsim_path_split(real, dir, sizeof(dir), &base) != 0) {
    cli_eprintf("nicsim %s: %s: path too long\n", cmd, path);
    return CLI_EXIT_USAGE;
  }
  if (stat(dir, &st) != 0) {
    cli_eprintf("nicsim %s: %s: cannot write %s: directory %s: %s\n", cmd, path, what, dir,
            strerror(errno));
    return CLI_EXIT_USAGE;
  }
  if (!S_ISDIR(st.st_mode)) {
    cli_eprintf("nicsim %s: %s: cannot write %s: %s is not a directory\n", cmd, path, what,
            dir);
    return CLI_EXIT_USAGE;
  }
  if (access(dir, W_OK | X_OK) != 0) {
    cli_eprintf(
            "nicsim %s: %s: cannot write %s: directory %s: %s\n"
            "  hint: write it somewhere you may create files, or fix the permissions of %s\n",
            cmd, path, what, dir, strerror(errno), dir);
    return CLI_EXIT_USAGE;
  }
  return 0;
}

/* Splits a resolved output path into the stat of its directory and its name. */
static int cli__dir_and_name(const char *real, struct stat *dir, const char **name) {
  char d[NC_PATH_MAX];

  if (nicsim_path_split(real, d, sizeof(d), name) != 0)
    return -1;
  return stat(d, dir);
}

/* True if two resolved output paths are one file (existing or not yet). */
static bool cli__same_file(const char *r1, const char *r2) {
  struct stat s1, s2;
  const char *n1, *n2;

  if (strcmp(r1, r2) == 0)
    return true;
  if (stat(r1, &s1) == 0 && stat(r2, &s2) == 0)
    return s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino;
  return cli__dir_and_name(r1, &s1, &n1) == 0 && cli__dir_and_name(r2, &s2, &n2) == 0 &&
         s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino && strcmp(n1, n2) == 0;
}

/* Checks that two output options do not name the same file. */
int cli_check_distinct_outputs(const char *cmd, const char *what1, const char *path1,
                               const char *what2, const char *path2) {
  char r1[NC_PATH_MAX], r2[NC_PATH_MAX];
  struct stat st;
  int m1, m2;

  if (path1 == NULL || path2 == NULL)
    return 0;
  m1 = nicsim_output_target(path1, r1, sizeof(r1));
  m2 = nicsim_output_target(path2, r2, sizeof(r2));
  if (m1 < 0 || m2 < 0)
    return 0; /* cli_check_output_path reports these */
  /* Two writes to one device (/dev/null) lose nothing; to one file, the first. */
  if (!cli__same_file(r1, r2) ||
      (m1 == NICSIM_OUT_STREAM && stat(r1, &st) == 0 && S_ISCHR(st.st_mode)))
    return 0;
  return cli_usage_error(cmd,
                         "%s and %s name the same file (%s%s%s): one would overwrite the other",
                         what1, what2, path1, strcmp(path1, path2) == 0 ? "" : " and ",
                         strcmp(path1, path2) == 0 ? "" : path2);
}

/* Refuses an output that is one of the files the scenario was read from. */
int cli_check_not_input(const char *cmd, const char *what, const char *out,
                        const struct nc_scenario *s) {
  const char *in;
  uint64_t dev, ino;
  size_t i;

  for (i = 0; nc_scenario_input(s, i, &in, &dev, &ino); i++) {
    const char *role = i == 0 ? "the scenario" : "a platform file";
    size_t k;
    for (k = 0; k < nc_scenario_noverlays(s); k++)
      if (nc_scenario_overlay_file(s, k) == in)
        role = "an overlay";
    if (cli_check_not_file(cmd, what, out, dev, ino, role, in) != 0)
      return CLI_EXIT_USAGE;
  }
  return 0;
}

/* Refuses an output that is the file (dev, ino), an input of the command. */
int cli_check_not_file(const char *cmd, const char *what, const char *out, uint64_t dev,
                       uint64_t ino, const char *role, const char *name) {
  char real[NICSIM_OUT_PATH_MAX];
  struct stat st;

  if (out == NULL || nicsim_output_target(out, real, sizeof(real)) < 0 || stat(real, &st) != 0)
    return 0; /* absent: not an input; a bad path is cli_check_output_path's to report */
  if ((uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino)
    return 0;
  cli_eprintf(
          "nicsim %s: %s %s is %s %s, an input of this command: it would be overwritten\n"
          "  hint: write the output to another file\n",
          cmd, what, out, role, name);
  return CLI_EXIT_USAGE;
}

/* Creates a directory and its missing parents. */
int cli_mkdir_p(const char *path) {
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
void cli_sanitise(const char *s, char *buf, size_t n) {
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
void cli_format_sim_error(const struct nicsim_sim_error *e, char *buf, size_t n) {
  char comp[sizeof(e->component) + 1], msg[sizeof(e->msg) + 1];

  /* The struct may come from a child process: never trust its terminators. */
  memcpy(comp, e->component, sizeof(e->component));
  comp[sizeof(e->component)] = '\0';
  memcpy(msg, e->msg, sizeof(e->msg));
  msg[sizeof(e->msg)] = '\0';
  snprintf(buf, n, "simulation error in %s at %.3f ns: %s", comp[0] ? comp : "(unknown component)",
           e->time_ns, msg[0] ? msg : "(no message)");
}
