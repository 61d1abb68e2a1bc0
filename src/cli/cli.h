/* cli.h: private declarations of the nicsim command: the option parser, the
 * commands, and the helpers they share (usage errors, --set, output paths).
 * The commands parse options and call the study library (study/study.h) or,
 * for run and validate, its helpers (study/study_internal.h). */
#ifndef NICSIM_CLI_CLI_H
#define NICSIM_CLI_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "results/output.h"
#include "sim/sim.h"
#include "study/study.h"
#include "study/study_internal.h"

/* Exit statuses of every command: those the study library returns. */
enum {
  CLI_EXIT_OK = NICSIM_STUDY_OK,
  CLI_EXIT_SIM = NICSIM_STUDY_FAILED,
  CLI_EXIT_USAGE = NICSIM_STUDY_BAD_INPUT
};

/* ---- option parsing (getopt_long-like, all state in struct cli_args) ------ */

/* One option a command accepts. */
struct cli_opt {
  const char *name; /* long name without "--" */
  char short_name;  /* 0 if none */
  bool has_arg;     /* takes a value (--name VALUE, --name=VALUE, -x VALUE, -xVALUE) */
  int id;           /* returned by cli_next; must be > 0 */
};

enum { CLI_END = 0, CLI_POSITIONAL = -1, CLI_ERROR = -2 };

/* Parser state over argv[first..argc). */
struct cli_args {
  int argc;
  char **argv;
  int i;               /* next argv index */
  const char *cluster; /* the rest of a short-option cluster ("-qj4") */
  bool only_positional; /* after "--" */
  const char *arg;     /* value of the option just returned, or the positional */
  char err[256];
};

/* Starts parsing argv from index first. */
void cli_args_init(struct cli_args *a, int argc, char **argv, int first);
/* Next option id (with a->arg set if it takes a value), CLI_POSITIONAL (a->arg
 * is the argument), CLI_END, or CLI_ERROR (a->err says why). opts ends with
 * an entry whose name is NULL. Options and positionals may be interleaved. */
int cli_next(struct cli_args *a, const struct cli_opt *opts);

/* ---- commands ---------------------------------------------------------------- */

/* Each takes the arguments after the command name and returns an exit status. */
int cli_cmd_run(int argc, char **argv);
int cli_cmd_validate(int argc, char **argv);
int cli_cmd_sweep(int argc, char **argv);
int cli_cmd_merge(int argc, char **argv);
int cli_cmd_plot(int argc, char **argv);
int cli_cmd_report(int argc, char **argv);
int cli_cmd_demo(int argc, char **argv);
int cli_cmd_regress(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
int cli_cmd_calibrate(int argc, char **argv);
int cli_cmd_platforms(int argc, char **argv);
int cli_cmd_config(int argc, char **argv);

/* The --help text of a command, on f. */
void cli_help_run(FILE *f);
void cli_help_validate(FILE *f);
void cli_help_sweep(FILE *f);
void cli_help_merge(FILE *f);
void cli_help_plot(FILE *f);
void cli_help_report(FILE *f);
void cli_help_demo(FILE *f);
void cli_help_regress(FILE *f);
void cli_help_bench(FILE *f);
void cli_help_calibrate(FILE *f);
void cli_help_platforms(FILE *f);
void cli_help_config(FILE *f);

/* ---- shared helpers ----------------------------------------------------------- */

/* The usage synopsis of command cmd (NULL: of nicsim itself). */
const char *cli_synopsis(const char *cmd);
/* Reports a usage error of command cmd ("run", or NULL for nicsim itself):
 * "nicsim run: <msg>", the synopsis and where to find help, on stderr.
 * Returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The --set values given so far (pointers into argv). */
struct cli_sets {
  const char **v;
  size_t n, cap;
};
/* Adds one --set KEY=VALUE after checking its shape; returns 0, or
 * CLI_EXIT_USAGE after reporting the problem for command cmd. */
int cli_sets_add(struct cli_sets *s, const char *cmd, const char *arg);
void cli_sets_free(struct cli_sets *s);
/* Adds one --overlay FILE to a list (a struct cli_sets of file names); 0 or
 * CLI_EXIT_USAGE. */
int cli_overlays_add(struct cli_sets *s, const char *cmd, const char *arg);

/* Checks, before a long simulation, that an output file can go at path
 * (ns_check_output_path; an empty path is a usage error). 0 or
 * CLI_EXIT_USAGE (reported as coming from command cmd). */
int cli_check_output_path(const char *cmd, const char *what, const char *path);
/* Refuses two outputs (what1 at path1, what2 at path2; either may be NULL)
 * that name the same file, through symlinks too (the same character device
 * is fine). 0 or CLI_EXIT_USAGE (a usage error of command cmd). */
int cli_check_distinct_outputs(const char *cmd, const char *what1, const char *path1,
                               const char *what2, const char *path2);

#endif
