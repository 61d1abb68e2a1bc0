/* cli.h: private declarations of the nicsim command: the option parser, the
 * commands, and the helpers they share (loading, --set, output paths). */
#ifndef NICSIM_CLI_CLI_H
#define NICSIM_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "sim/sim.h"

#ifndef NICSIM_VERSION
#define NICSIM_VERSION "unknown"
#endif

/* Exit statuses of every command. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_SIM = 1, CLI_EXIT_USAGE = 2 };

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

/* The --help text of a command, on f. */
void cli_help_run(FILE *f);
void cli_help_validate(FILE *f);
void cli_help_sweep(FILE *f);

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

/* Loads a scenario (NULL: the built-in default); on error prints it and
 * returns CLI_EXIT_USAGE, else 0. */
int cli_load(const char *path, struct nc_scenario **out);
/* Resolves one point; on error prints it and returns CLI_EXIT_USAGE, else 0. */
int cli_resolve(const struct nc_scenario *s, long point, const struct cli_sets *sets,
                struct nicsim_config *out);

/* Checks, before a long simulation, that an output file can go at path:
 * its directory exists and path is not a directory. 0 or CLI_EXIT_USAGE
 * (reported as coming from command cmd). */
int cli_check_output_path(const char *cmd, const char *what, const char *path);
/* mkdir -p; 0 or -errno. */
int cli_mkdir_p(const char *path);
/* Copies s to buf keeping [A-Za-z0-9._+-] and replacing anything else by
 * '_'; "point" if s is empty. The result is at most n-1 bytes. */
void cli_sanitise(const char *s, char *buf, size_t n);
/* "top.nic.dma at 1234.5 ns: message": a simulation error for a human. */
void cli_format_sim_error(const struct nicsim_sim_error *e, char *buf, size_t n);

#endif
