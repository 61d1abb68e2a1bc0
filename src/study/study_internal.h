/* study_internal.h: the study library's own declarations, shared by its
 * files and by the nicsim command (src/cli), which runs one simulation
 * (`nicsim run`) and validates scenarios with the same helpers. Not
 * installed: the API is study.h. */
#ifndef NICSIM_STUDY_STUDY_INTERNAL_H
#define NICSIM_STUDY_STUDY_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "config/config.h"
#include "results/output.h"
#include "sim/sim.h"
#include "study/study.h"

#ifndef NICSIM_VERSION
#define NICSIM_VERSION "unknown"
#endif

/* ---- helpers (common.c) ------------------------------------------------------ */

/* fprintf(stderr, ...) for every message of nicsim: the text is printed with
 * control characters (but the format's own line breaks) escaped as \xNN
 * (nicsim_put_term), whatever the arguments quote; a line break inside a
 * string argument (a path, a label) is shown as \x0A, never ending a line. */
void ns_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ns_veprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The same to stdout (tables and lines that quote input), and to any f. */
void ns_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ns_vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* "nicsim CMD: <message>" on stderr; returns NICSIM_STUDY_BAD_INPUT. */
int ns_bad_input(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Notes every file scenario s was read from (nc_scenario_input) as an input
 * no output of the command may be (nicsim_input_note); ns_load and
 * ns_load_overlaid do it for what they load. */
void ns_note_inputs(const struct nc_scenario *s);
/* Loads a scenario (NULL: the built-in default); on error prints it and
 * returns NICSIM_STUDY_BAD_INPUT, else 0. */
int ns_load(const char *path, struct nc_scenario **out);
/* Loads a scenario (NULL: the built-in default) and adds the overlay files
 * overlays[0..noverlays) in order. Every error is printed (as
 * nc_scenario_load_all finds them; if the scenario still loads, with the
 * base point's rule errors under the overrides sets[0..nsets)), with the
 * count line, and gives NICSIM_STUDY_BAD_INPUT. An overlay that sets a key
 * the sweep varies gets a warning (as command cmd). */
int ns_load_overlaid(const char *cmd, const char *path, const char *const *overlays,
                     size_t noverlays, const char *const *sets, size_t nsets,
                     struct nc_scenario **out);
/* Resolves one point with the overrides sets[0..nsets) ("KEY=VALUE") and
 * checks it against the models' and its driver's rules (nicsim_check_config); on
 * error prints it and returns NICSIM_STUDY_BAD_INPUT, else 0. */
int ns_resolve(const struct nc_scenario *s, long point, const char *const *sets, size_t nsets,
               struct nicsim_config *out);
/* Checks a scenario file whole, as `nicsim validate` does, collecting every
 * error into *errs (struct nc_errors): the file, its platforms and the
 * overlays (nc_scenario_load_all), the plots' metrics, and the base point
 * and every sweep point with the overrides sets[0..nsets): the cross-key
 * rules and the driver's and models' (nicsim_check_config_all). cfg is
 * scratch; *npoints gets the sweep points (0 without a sweep). Overlay
 * warnings are printed as ns_load_overlaid does (as command cmd). 0 if the
 * file is valid, else NICSIM_STUDY_BAD_INPUT. */
int ns_check_all(const char *cmd, const char *path, const char *const *overlays, size_t noverlays,
                 const char *const *sets, size_t nsets, struct nicsim_config *cfg,
                 struct nc_errors *errs, size_t *npoints);
/* Prints errs on stderr in file order, at most NC_ERRORS_SHOWN of them and
 * "... and N more errors", the notes, and "N errors in FILE". */
void ns_print_errors(const char *file, struct nc_errors *errs);
/* Checks the metrics named by the scenario's plots (shared by validate and
 * sweep); 0, or NICSIM_STUDY_BAD_INPUT after printing each unknown one (file:line:col and a hint). */
int ns_check_plots(const struct nc_scenario *s);
/* Checks, before a long simulation, that an output file can go at path as
 * nicsim_write_atomic will write it: a new or regular file (through any
 * symlink) needs a directory that exists and is writable; a character device
 * or FIFO must be writable; a directory or another type is refused. 0 or
 * NICSIM_STUDY_BAD_INPUT (reported as coming from command cmd). */
int ns_check_output_path(const char *cmd, const char *what, const char *path);
/* Refuses (exit 2, naming both) an output path that is, by file identity
 * (st_dev, st_ino, through symlinks and hard links), one of the files the
 * scenario was read from (nc_scenario_input): `run v.yaml --json v.yaml`.
 * 0 or NICSIM_STUDY_BAD_INPUT. what names the option ("--json"). */
int ns_check_not_input(const char *cmd, const char *what, const char *out,
                        const struct nc_scenario *s);
/* The same for one input file identified by dev and ino; role and name say
 * what it is ("the baseline", its path). */
int ns_check_not_file(const char *cmd, const char *what, const char *out, uint64_t dev,
                       uint64_t ino, const char *role, const char *name);
/* In a process just forked by parent (a sweep's worker, calibrate's sweep):
 * default signal dispositions, none of the parent's temporary files, and
 * signal sig when the parent dies (PR_SET_PDEATHSIG); exits at once if the
 * parent is already gone. (sweep.c) */
void ns_worker_tie_to_parent(pid_t parent, int sig);
/* mkdir -p; 0 or -errno. */
int ns_mkdir_p(const char *path);
/* The same for a directory a command writes inside a results directory
 * (points/, plots/, evals/): one that is a symbolic link is
 * -NICSIM_E_LINK, never written through. */
int ns_mkdir_sub(const char *path);
/* Copies s to buf keeping [A-Za-z0-9._+-] and replacing anything else by
 * '_'; "point" if s is empty. The result is at most n-1 bytes. */
void ns_sanitise(const char *s, char *buf, size_t n);
/* "top.nic.dma at 1234.5 ns: message": a simulation error for a human. */
void ns_format_sim_error(const struct nicsim_sim_error *e, char *buf, size_t n);

/* ---- sweep directories (sweepdir.c) -------------------------------------------- */

/* A sweep directory: DIR/sweep.json (the manifest) and DIR/points/. */
struct ns_sweepdir {
  char dir[NC_PATH_MAX];
  json_t *manifest;
  size_t n;               /* points in the whole sweep */
  int digits;             /* width of the index in point file names */
  const char *keys[NC_KEY__COUNT + 1]; /* swept keys (into manifest) */
  size_t nkeys;
  long baseline;          /* declared baseline point, or -1 */
  /* A point loaded by ns_sweepdir_get (scratch). */
  struct nicsim_config *cfg;
  struct nicsim_results *res;
  bool *have;             /* point file present and readable, per point */
  json_t *point_hashes;   /* the manifest's per-point config hashes, or NULL */
};
/* True if name is a point file's name, <index>-<sanitised label>.json:
 * --force and the owner check touch only such files in points/. */
bool ns_is_point_file_name(const char *name);
/* The sweep's hashes: FNV-1a 64 from NS_HASH_BASIS, folding the version
 * then each point's resolved config (as compact JSON) for the config hash,
 * or one config alone for a point's hash ("point_hashes" of sweep.json). */
#define NS_HASH_BASIS 0xcbf29ce484222325ull
uint64_t ns_hash_text(uint64_t h, const char *text);
int ns_hash_config(const struct nicsim_config *cfg, uint64_t *h);
/* A running sweep owns its directory: takes an exclusive flock on
 * DIR/.nicsim.lock (creating DIR), writes the pid into it and keeps it in
 * *fd until ns_sweepdir_unlock or exit. Held by another process: prints
 * "DIR is in use by a running sweep (pid N)" and returns NICSIM_STUDY_BAD_INPUT. */
int ns_sweepdir_lock(const char *cmd, const char *dir, int *fd);
void ns_sweepdir_unlock(int fd);
/* A point file missing a metric every run of its config reports
 * (nicsim_metric_expected): -1 with why filled, else 0. */
int ns_point_metrics_check(const char *path, const struct nicsim_config *cfg,
                            const struct nicsim_results *res, char *why, size_t n);
/* Path of point i's JSON file (label as in the manifest) in buf. */
void ns_point_file(const char *dir, size_t i, int digits, const char *label, char *buf, size_t n);
/* The failure record of the point file point_file ("<...>.json" ->
 * "<...>.error"): the one-line reason a sweep could not simulate the
 * point, which `regress` writes into its JUnit report; "" if it would not
 * fit. A point that succeeds removes it. */
void ns_point_error_file(const char *point_file, char *buf, size_t n);
/* Width of the index of n points' file names. */
int ns_point_digits(size_t n);
/* Opens DIR: reads sweep.json and notes which point files exist. Prints
 * errors as command cmd; returns 0 or NICSIM_STUDY_BAD_INPUT. */
int ns_sweepdir_open(struct ns_sweepdir *d, const char *cmd, const char *dir);
void ns_sweepdir_close(struct ns_sweepdir *d);
/* String member key of obj (or element i of an array), or def if absent. */
const char *ns_json_str(json_t *obj, const char *key, const char *def);
const char *ns_json_at(json_t *arr, size_t i, const char *def);
/* Label of point i from the manifest. */
const char *ns_sweepdir_label(const struct ns_sweepdir *d, size_t i);
/* Point i's failure record (ns_point_error_file), its first line in buf;
 * false if the point has none. */
bool ns_sweepdir_point_error(const struct ns_sweepdir *d, size_t i, char *buf, size_t n);
/* Loads point i into d->cfg/d->res; 0, or -1 with why (naming the file: a
 * parse error with its line and column, a bad config or metric, or a file
 * that holds another point than its label says). */
int ns_sweepdir_load(struct ns_sweepdir *d, size_t i, char *why, size_t n);
/* 0 if cfg (read from point file path) is the point labelled label, else -1
 * with why naming the file and both labels. */
int ns_point_label_check(const char *path, const struct nicsim_config *cfg, const char *label,
                          char *why, size_t n);
/* Whose results a directory holds, for a sweep about to write there. */
enum {
  NS_DIR_FREE = 0, /* no results, or those of the same sweep (same config hash) */
  NS_DIR_OWN = 1,  /* an earlier run of the same regress entry (another config) */
  NS_DIR_OTHER = 2 /* another sweep's, results without sweep.json, or a sweep.json
                       that does not parse: why says which */
};
/* Classifies DIR for the sweep with config hash `hash` (NULL: not known yet;
 * then only entry's own directories are free) and scenario name `name`,
 * written by regress entry `entry` (NULL: by nicsim sweep or merge). Returns
 * a NS_DIR_* value; for NS_DIR_OTHER, why (size n) says what DIR holds. */
int ns_sweepdir_owner(const char *dir, const char *hash, const char *name, const char *entry,
                       char *why, size_t n);
/* Removes the results in DIR (results.csv, points/<*>.json) before another
 * sweep takes it. */
void ns_sweepdir_clear(const char *dir);
/* nicsim_point_fn over the present points of a sweepdir (arg: the sweepdir;
 * index i is the i-th present point). */
int ns_sweepdir_get(void *arg, size_t i, struct nicsim_point *out);
/* Number of present points. */
size_t ns_sweepdir_count(const struct ns_sweepdir *d);
/* Index of the i-th present point. */
size_t ns_sweepdir_nth(const struct ns_sweepdir *d, size_t i);


/* ---- plots (plot.c) ------------------------------------------------------------- */

/* Runs gnuplot on NAME.gp in directory dir; 0, or an exit status after
 * reporting (as command cmd). Quiet: what gnuplot prints (warnings such as
 * "empty y range") is shown only if it fails. */
int ns_gnuplot(const char *cmd, const char *dir, const char *name, bool quiet);
/* The names of the plots nicsim_study_plot draws for d (at most max), in
 * drawing order: the declared ones as declared, else the defaults in their
 * fixed order. 0, or an exit status after reporting an unusable sweep.json
 * plot. */
int ns_plot_names(const char *cmd, struct ns_sweepdir *d, char (*names)[64], size_t max,
                  size_t *n);

#endif
