/* common.c: helpers the nicsim commands share: usage errors, --set, loading
 * and resolving scenarios with their diagnostics, output paths. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

/* The usage synopsis of a command (NULL: of nicsim itself). */
const char *cli_synopsis(const char *cmd) {
  if (cmd == NULL)
    return "usage: nicsim [--help | --version] <command> [options]\n"
           "       commands: run, validate, sweep, merge, plot, report, demo, regress";
  if (strcmp(cmd, "run") == 0)
    return "usage: nicsim run [SCENARIO.yaml] [--set KEY=VALUE]... [--point LABEL]\n"
           "                  [--json FILE] [--csv FILE] [--trace FILE] [-q]";
  if (strcmp(cmd, "validate") == 0)
    return "usage: nicsim validate SCENARIO.yaml... [--set KEY=VALUE]...";
  if (strcmp(cmd, "sweep") == 0)
    return "usage: nicsim sweep SCENARIO.yaml [-o DIR] [-j N] [--set KEY=VALUE]... [-q]\n"
           "                    [--dry-run] [--resume] [--force] [--shard K/N]";
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
           "                      [--entry NAME]... [--check-determinism] [-q]";
  return "usage: nicsim <command> [options]";
}

/* Reports a usage error with the synopsis; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;

  fprintf(stderr, "nicsim%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s\nRun 'nicsim%s%s --help' for all options.\n", cli_synopsis(cmd),
          cmd ? " " : "", cmd ? cmd : "");
  return CLI_EXIT_USAGE;
}

/* Adds one --set KEY=VALUE after checking its shape. */
int cli_sets_add(struct cli_sets *s, const char *cmd, const char *arg) {
  const char *eq = strchr(arg, '=');
  const char **v;

  if (eq == NULL || eq == arg)
    return cli_usage_error(cmd, "--set expects KEY=VALUE (e.g. nic.desc_spacing=32), got '%s'",
                           arg);
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    v = realloc(s->v, cap * sizeof(*v));
    if (v == NULL) {
      fprintf(stderr, "nicsim %s: out of memory\n", cmd);
      return CLI_EXIT_USAGE;
    }
    s->v = v;
    s->cap = cap;
  }
  s->v[s->n++] = arg;
  return 0;
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

/* Resolves one point, printing any error. */
int cli_resolve(const struct nc_scenario *s, long point, const struct cli_sets *sets,
                struct nicsim_config *out) {
  struct nc_error err;

  memset(&err, 0, sizeof(err));
  if (nc_scenario_resolve(s, point, sets->v, sets->n, out, &err) != 0) {
    nc_error_print(&err, stderr);
    return CLI_EXIT_USAGE;
  }
  return 0;
}

/* Checks an output file can be created at path. */
int cli_check_output_path(const char *cmd, const char *what, const char *path) {
  char dir[NC_PATH_MAX];
  const char *slash = strrchr(path, '/');
  struct stat st;

  if (path[0] == '\0')
    return cli_usage_error(cmd, "%s needs a file name", what);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "nicsim %s: %s: cannot write %s: Is a directory\n", cmd, path, what);
    return CLI_EXIT_USAGE;
  }
  if (slash == NULL)
    return 0;
  if ((size_t)(slash - path) >= sizeof(dir)) {
    fprintf(stderr, "nicsim %s: %s: path too long\n", cmd, path);
    return CLI_EXIT_USAGE;
  }
  if (slash == path)
    return 0; /* "/name": the root directory */
  memcpy(dir, path, (size_t)(slash - path));
  dir[slash - path] = '\0';
  if (stat(dir, &st) != 0) {
    fprintf(stderr, "nicsim %s: %s: cannot write %s: directory %s: %s\n", cmd, path, what, dir,
            strerror(errno));
    return CLI_EXIT_USAGE;
  }
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "nicsim %s: %s: cannot write %s: %s is not a directory\n", cmd, path, what,
            dir);
    return CLI_EXIT_USAGE;
  }
  return 0;
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
