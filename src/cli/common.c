/* common.c: helpers the nicsim commands share: usage errors, --set, output
 * paths. Loading and resolving scenarios are the study library's
 * (src/study/common.c). */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

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
           "                        [--no-plots] [-q]\n"
           "       nicsim calibrate --check-specs DIR...";
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

  ns_eprintf("nicsim%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_start(ap, fmt);
  ns_veprintf(fmt, ap);
  va_end(ap);
  /* The synopsis is nicsim's own text of several lines, not an argument. */
  ns_eprintf("\n");
  fputs(cli_synopsis(cmd), stderr);
  ns_eprintf("\nRun 'nicsim%s%s --help' for all options.\n", cmd ? " " : "", cmd ? cmd : "");
  return CLI_EXIT_USAGE;
}

/* Appends arg to the list; 0, or CLI_EXIT_USAGE (out of memory, for command cmd). */
static int cli__list_push(struct cli_sets *s, const char *cmd, const char *arg) {
  const char **v;

  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    v = realloc(s->v, cap * sizeof(*v));
    if (v == NULL) {
      ns_eprintf("nicsim %s: out of memory\n", cmd);
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

/* Checks, before simulating, that an output file can be written at path. */
int cli_check_output_path(const char *cmd, const char *what, const char *path) {
  if (path[0] == '\0')
    return cli_usage_error(cmd, "%s needs a file name", what);
  return ns_check_output_path(cmd, what, path);
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
