/* cli.h: private declarations of the nicsim command: the option parser, the
 * commands, and the helpers they share (loading, --set, output paths). */
#ifndef NICSIM_CLI_CLI_H
#define NICSIM_CLI_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "config/config.h"
#include "results/output.h"
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
/* fprintf(stderr, ...) for every message of the CLI: the text is printed
 * with control characters (but the format's line breaks) escaped as \xNN
 * (nicsim_put_term), whatever the arguments quote. */
void cli_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_veprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The same to stdout (tables and lines that quote input), and to any f. */
void cli_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
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

/* Loads a scenario (NULL: the built-in default); on error prints it and
 * returns CLI_EXIT_USAGE, else 0. */
int cli_load(const char *path, struct nc_scenario **out);
/* cli_load, then nc_scenario_add_overlay of every file of overlays (NULL:
 * none) in order; errors are printed (as command cmd) and give CLI_EXIT_USAGE.
 * An overlay that sets a key the sweep varies gets a warning. */
int cli_load_overlaid(const char *cmd, const char *path, const struct cli_sets *overlays,
                      struct nc_scenario **out);
/* Resolves one point and checks it against its driver's config rules
 * (nk_driver_check_config); on error prints it and returns CLI_EXIT_USAGE, else 0. */
int cli_resolve(const struct nc_scenario *s, long point, const struct cli_sets *sets,
                struct nicsim_config *out);

/* Checks the metrics named by the scenario's plots (shared by validate and
 * sweep); 0, or CLI_EXIT_USAGE after printing file:line:col and a hint. */
int cli_check_plots(const struct nc_scenario *s);

/* Checks, before a long simulation, that an output file can go at path as
 * nicsim_write_atomic will write it: a new or regular file (through any
 * symlink) needs a directory that exists and is writable; a character device
 * or FIFO must be writable; a directory or another type is refused. 0 or
 * CLI_EXIT_USAGE (reported as coming from command cmd). */
int cli_check_output_path(const char *cmd, const char *what, const char *path);
/* Refuses two outputs (what1 at path1, what2 at path2; either may be NULL)
 * that name the same file, through symlinks too (the same character device
 * is fine). 0 or CLI_EXIT_USAGE (a usage error of command cmd). */
int cli_check_distinct_outputs(const char *cmd, const char *what1, const char *path1,
                               const char *what2, const char *path2);
/* mkdir -p; 0 or -errno. */
/* Refuses (exit 2, naming both) an output path that is, by file identity
 * (st_dev, st_ino, through symlinks and hard links), one of the files the
 * scenario was read from (nc_scenario_input): `run v.yaml --json v.yaml`.
 * 0 or CLI_EXIT_USAGE. what names the option ("--json"). */
int cli_check_not_input(const char *cmd, const char *what, const char *out,
                        const struct nc_scenario *s);
/* The same for one input file identified by dev and ino; role and name say
 * what it is ("the baseline", its path). */
int cli_check_not_file(const char *cmd, const char *what, const char *out, uint64_t dev,
                       uint64_t ino, const char *role, const char *name);
int cli_mkdir_p(const char *path);
/* Copies s to buf keeping [A-Za-z0-9._+-] and replacing anything else by
 * '_'; "point" if s is empty. The result is at most n-1 bytes. */
void cli_sanitise(const char *s, char *buf, size_t n);
/* "top.nic.dma at 1234.5 ns: message": a simulation error for a human. */
void cli_format_sim_error(const struct nicsim_sim_error *e, char *buf, size_t n);

/* ---- sweeps (cmd_sweep.c) and sweep directories (sweepdir.c) ------------------ */

/* What one `nicsim sweep` does. */
struct cli_sweep_opts {
  const char *path;      /* scenario file, or a built-in name when builtin is set */
  bool builtin;
  const char *outdir;    /* NULL: nicsim-out/<name> */
  size_t jobs;           /* 0: online CPUs */
  struct cli_sets sets;
  struct cli_sets overlays; /* --overlay files, in order */
  bool quiet, dry_run, resume, force;
  bool one_point; /* a scenario without a sweep runs as one point (its base, label "") */
  bool no_table;  /* no table on stdout (the caller prints its own) */
  size_t shard_k, shard_n; /* 1-based slice K of N; N 0: no sharding */
  const char *regress_entry; /* written by this regress entry (noted in sweep.json), or NULL */
  const size_t *only;     /* run only these point indices (nonly of them; NULL: every point),
                           * as a shard runs its slice: `nicsim calibrate`'s evaluations */
  size_t nonly;
};
/* Runs a sweep; the directory used goes into dirout. Returns an exit status. */
int cli_sweep_exec(const struct cli_sweep_opts *o, char *dirout, size_t n);

/* A sweep directory: DIR/sweep.json (the manifest) and DIR/points/. */
struct cli_sweepdir {
  char dir[NC_PATH_MAX];
  json_t *manifest;
  size_t n;               /* points in the whole sweep */
  int digits;             /* width of the index in point file names */
  const char *keys[NC_KEY__COUNT + 1]; /* swept keys (into manifest) */
  size_t nkeys;
  long baseline;          /* declared baseline point, or -1 */
  /* A point loaded by cli_sweepdir_get (scratch). */
  struct nicsim_config *cfg;
  struct nicsim_results *res;
  bool *have;             /* point file present and readable, per point */
  json_t *point_hashes;   /* the manifest's per-point config hashes, or NULL */
};
/* True if name is a point file's name, <index>-<sanitised label>.json:
 * --force and the owner check touch only such files in points/. */
bool cli_is_point_file_name(const char *name);
/* The sweep's hashes: FNV-1a 64 from CLI_HASH_BASIS, folding the version
 * then each point's resolved config (as compact JSON) for the config hash,
 * or one config alone for a point's hash ("point_hashes" of sweep.json). */
#define CLI_HASH_BASIS 0xcbf29ce484222325ull
uint64_t cli_hash_text(uint64_t h, const char *text);
int cli_hash_config(const struct nicsim_config *cfg, uint64_t *h);
/* A running sweep owns its directory: takes an exclusive flock on
 * DIR/.nicsim.lock (creating DIR), writes the pid into it and keeps it in
 * *fd until cli_sweepdir_unlock or exit. Held by another process: prints
 * "DIR is in use by a running sweep (pid N)" and returns CLI_EXIT_USAGE. */
int cli_sweepdir_lock(const char *cmd, const char *dir, int *fd);
void cli_sweepdir_unlock(int fd);
/* A point file missing a metric every run of its config reports
 * (nicsim_metric_expected): -1 with why filled, else 0. */
int cli_point_metrics_check(const char *path, const struct nicsim_config *cfg,
                            const struct nicsim_results *res, char *why, size_t n);
/* Path of point i's JSON file (label as in the manifest) in buf. */
void cli_point_file(const char *dir, size_t i, int digits, const char *label, char *buf, size_t n);
/* Width of the index of n points' file names. */
int cli_point_digits(size_t n);
/* Opens DIR: reads sweep.json and notes which point files exist. Prints
 * errors as command cmd; returns 0 or CLI_EXIT_USAGE. */
int cli_sweepdir_open(struct cli_sweepdir *d, const char *cmd, const char *dir);
void cli_sweepdir_close(struct cli_sweepdir *d);
/* String member key of obj (or element i of an array), or def if absent. */
const char *cli_json_str(json_t *obj, const char *key, const char *def);
const char *cli_json_at(json_t *arr, size_t i, const char *def);
/* Label of point i from the manifest. */
const char *cli_sweepdir_label(const struct cli_sweepdir *d, size_t i);
/* Loads point i into d->cfg/d->res; 0, or -1 with why (naming the file: a
 * parse error with its line and column, a bad config or metric, or a file
 * that holds another point than its label says). */
int cli_sweepdir_load(struct cli_sweepdir *d, size_t i, char *why, size_t n);
/* 0 if cfg (read from point file path) is the point labelled label, else -1
 * with why naming the file and both labels. */
int cli_point_label_check(const char *path, const struct nicsim_config *cfg, const char *label,
                          char *why, size_t n);
/* Whose results a directory holds, for a sweep about to write there. */
enum {
  CLI_DIR_FREE = 0, /* no results, or those of the same sweep (same config hash) */
  CLI_DIR_OWN = 1,  /* an earlier run of the same regress entry (another config) */
  CLI_DIR_OTHER = 2 /* another sweep's, results without sweep.json, or a sweep.json
                       that does not parse: why says which */
};
/* Classifies DIR for the sweep with config hash `hash` (NULL: not known yet;
 * then only entry's own directories are free) and scenario name `name`,
 * written by regress entry `entry` (NULL: by nicsim sweep or merge). Returns
 * a CLI_DIR_* value; for CLI_DIR_OTHER, why (size n) says what DIR holds. */
int cli_sweepdir_owner(const char *dir, const char *hash, const char *name, const char *entry,
                       char *why, size_t n);
/* Removes the results in DIR (results.csv, points/<*>.json) before another
 * sweep takes it. */
void cli_sweepdir_clear(const char *dir);
/* nicsim_point_fn over the present points of a sweepdir (arg: the sweepdir;
 * index i is the i-th present point). */
int cli_sweepdir_get(void *arg, size_t i, struct nicsim_point *out);
/* Number of present points. */
size_t cli_sweepdir_count(const struct cli_sweepdir *d);
/* Index of the i-th present point. */
size_t cli_sweepdir_nth(const struct cli_sweepdir *d, size_t i);

/* Runs gnuplot on NAME.gp in directory dir; 0, or an exit status after
 * reporting (as command cmd). Quiet: what gnuplot prints (warnings such as
 * "empty y range") is shown only if it fails. */
int cli_gnuplot(const char *cmd, const char *dir, const char *name, bool quiet);
/* Renders DIR's plots with gnuplot into DIR/plots/; 0 or an exit status. */
int cli_plot_dir(const char *cmd, const char *dir, bool quiet);
/* The names of the plots cli_plot_dir draws for d (at most max), in drawing
 * order: the declared ones as declared, else the defaults in their fixed
 * order. 0, or an exit status after reporting an unusable sweep.json plot. */
int cli_plot_names(const char *cmd, struct cli_sweepdir *d, char (*names)[64], size_t max,
                   size_t *n);
/* Writes DIR/report.md and DIR/report.html, rendering the plots first if
 * plots is set (after the baseline is checked); baseline NULL: declared or
 * first. */
int cli_report_dir(const char *cmd, const char *dir, const char *baseline, bool plots,
                   bool quiet);

#endif
