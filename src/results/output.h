/* output.h: writing a run's results: JSON (jansson), CSV, the human tables,
 * the metric reference (docs/metrics.md), and atomic file writes. */
#ifndef NICSIM_RESULTS_OUTPUT_H
#define NICSIM_RESULTS_OUTPUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "results/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One simulated point: its resolved config and its results (res NULL: the
 * point failed; CSV omits it, the sweep table marks it FAILED). */
struct nicsim_point {
  const struct nicsim_config *cfg;
  const struct nicsim_results *res;
};

/* Supplies point i of a set (for writers that go through many points
 * without holding them all): out->cfg and out->res stay valid until the next
 * call. Returns 0 or -errno. */
typedef int (*nicsim_point_fn)(void *arg, size_t i, struct nicsim_point *out);
/* A nicsim_point_fn over an array: arg is a const struct nicsim_point *. */
int nicsim_point_array_get(void *arg, size_t i, struct nicsim_point *out);

/* ---- files ---------------------------------------------------------------- */

/* Produces a file's contents on f; returns 0 or -errno. */
typedef int (*nicsim_emit_fn)(FILE *f, void *arg);

/* How an output path is written (nicsim_output_target). */
enum nicsim_out_mode {
  NICSIM_OUT_REPLACE = 0, /* absent or a regular file: temporary + rename */
  NICSIM_OUT_STREAM = 1   /* a character device or FIFO: written in place */
};
/* Where and how path gets written (nothing is written). A symlink is never
 * written through: one that ends at a regular file or nowhere is replaced
 * by the new file (real gets path itself), so a link planted in an output
 * directory cannot carry a write onto another file. Returns
 * NICSIM_OUT_REPLACE for an absent or regular file (or such a link),
 * NICSIM_OUT_STREAM for a character device or FIFO, also through links
 * (e.g. /dev/null, /dev/stdout; real gets the end of the links; names under
 * /dev/ and /proc/ are followed whatever they end at), -EISDIR for a
 * directory, -EINVAL for another type (socket, block device), or -errno
 * (-ELOOP, -ENAMETOOLONG, -EACCES, ...). */
int nicsim_output_target(const char *path, char *real, size_t n);
/* Splits path into its directory (".", "/" or the part before the last '/')
 * written to dir, and its last component, returned through *base (a pointer
 * into path). 0, or -ENAMETOOLONG if the directory does not fit in n bytes. */
int nicsim_path_split(const char *path, char *dir, size_t n, const char **base);

/* Writes what emit produces to path. A regular file (or a new one) is
 * replaced atomically: the bytes go to a temporary file in the same
 * directory, are fsync'd, then renamed over it; on any failure the temporary
 * file is removed and a previous file is left intact. A symlink is replaced,
 * never written through (nicsim_output_target); a character device or FIFO
 * is written in place, never replaced (a FIFO without a reader is -ENXIO, no
 * wait); a directory is -EISDIR, another type -EINVAL. A path that is an
 * input of the command (nicsim_input_note, results/safety.h) is
 * -NICSIM_E_INPUT. Returns 0 or -errno (-ENOSPC, -EACCES, -ENOENT, ...):
 * print it with nicsim_strerror. */
int nicsim_write_atomic(const char *path, nicsim_emit_fn emit, void *arg);

/* A file being written through nicsim_atomic_open, for output too large to
 * build in memory first (the --trace timeline): write to f, then commit (the
 * temporary file is fsync'd and renamed over the target) or abort (it is
 * removed; a previous file is left intact). A device or FIFO is written in
 * place. A writer killed by SIGTERM, SIGINT or SIGHUP removes its temporary
 * file; one killed otherwise leaves a hidden '.NAME.tmp.XXXXXX', removed by
 * the next atomic write in that directory (nicsim_tmp_clean_dir). */
#define NICSIM_OUT_PATH_MAX 4096 /* Linux's PATH_MAX: longer paths are -ENAMETOOLONG */
struct nicsim_atomic {
  FILE *f;
  int fd;
  int mode;             /* enum nicsim_out_mode */
  char path[NICSIM_OUT_PATH_MAX]; /* the file written: path, or the end of its symlinks */
  char dir[NICSIM_OUT_PATH_MAX];  /* its directory */
  char tmp[NICSIM_OUT_PATH_MAX];  /* the temporary file ("" once renamed or removed) */
};
/* 0, or -errno with nothing left behind (as nicsim_write_atomic). */
int nicsim_atomic_open(const char *path, struct nicsim_atomic *a);
/* 0, or -errno (-ENOSPC, ...): the temporary file is then removed. */
int nicsim_atomic_commit(struct nicsim_atomic *a);
void nicsim_atomic_abort(struct nicsim_atomic *a);

/* ---- numbers -------------------------------------------------------------- */

/* Formats v with the fewest significant digits (%.Ng) that read back as
 * exactly v: the same double always gives the same text. "nan", "inf",
 * "-inf" for non-finite values. n should be at least 32. */
void nicsim_format_real(double v, char *buf, size_t n);
/* The relative change from base to now, (now - base) / |base|, computed
 * without overflow (against a baseline of 1e308, 9.7 is -1, not -inf); NaN
 * if base is 0 or either is NaN. Times 100 for a percentage. */
double nicsim_rel_change(double now, double base);
/* Formats a metric value: an exact integer for COUNT metrics, else as above. */
void nicsim_format_metric(double v, enum nicsim_metric_kind kind, char *buf, size_t n);

/* ---- JSON ----------------------------------------------------------------- */

/* {"name", "description", "platform", "label", "<section>": {"<key>": value}}
 * with typed values (enums by name), in schema order. NULL on ENOMEM. */
json_t *nicsim_config_to_json(const struct nicsim_config *cfg);
/* {"nicsim": version, "config": {...}, "metrics": {"rx.gbps": 9.87, ...}}:
 * COUNT metrics as integers, REAL/WALL as reals, NaN/inf as null; static
 * metrics in declaration order, then extras by name. NULL on ENOMEM. */
json_t *nicsim_results_to_json(const char *version, const struct nicsim_config *cfg,
                               const struct nicsim_results *res);
/* Writes a JSON document (2-space indent, trailing newline) to f, reals with
 * the fewest digits that make every real in the document read back exactly. */
int nicsim_json_dump(json_t *doc, FILE *f);
/* A file name as a JSON string (JSON holds only UTF-8): the name itself if
 * it is UTF-8, else escaped reversibly (nicsim_name_escape: bytes that are
 * not UTF-8 as \xNN, backslashes doubled) with *escaped set (if not NULL),
 * for the document to say so ("names_escaped": true). NULL on ENOMEM. */
json_t *nicsim_json_file_name(const char *name, bool *escaped);
/* nicsim_results_to_json + nicsim_json_dump into path, atomically. */
int nicsim_json_write(const char *path, const char *version, const struct nicsim_config *cfg,
                      const struct nicsim_results *res);

/* ---- CSV ------------------------------------------------------------------ */

/* Writes one CSV field, quoted per RFC 4180 when it holds a comma, a double
 * quote, CR or LF (quotes doubled); a text a spreadsheet would run as a
 * formula gets a leading ' (nicsim_csv_needs_guard, results/escape.h). */
void nicsim_csv_field(FILE *f, const char *s);
/* Header plus one row per successful point: `label`, then each of keys (config
 * paths, e.g. the swept keys, formatted by nc_value_format), then every
 * static metric in declaration order and the union of the points' extras by
 * name. An absent metric is an empty field. Lines end in LF. 0 or -errno. */
int nicsim_csv_dump(FILE *f, const char *const *keys, size_t nkeys,
                    const struct nicsim_point *points, size_t npoints);
/* nicsim_csv_dump into path, atomically. */
int nicsim_csv_write(const char *path, const char *const *keys, size_t nkeys,
                     const struct nicsim_point *points, size_t npoints);
/* The same over npoints points supplied one at a time by get (which is
 * called twice per point: the header needs every point's extras). */
int nicsim_csv_dump_each(FILE *f, const char *const *keys, size_t nkeys, size_t npoints,
                         nicsim_point_fn get, void *arg);
int nicsim_csv_write_each(const char *path, const char *const *keys, size_t nkeys,
                          size_t npoints, nicsim_point_fn get, void *arg);

/* ---- human tables (stdout) ------------------------------------------------ */

/* The summary of one run: a header describing the setup, then aligned
 * sections (Throughput, CPU, PCIe, NIC, Interrupts, Checks, Simulation) and
 * the per-function CPU profile (cpu.profile.* extras) by share. */
void nicsim_summary_print(FILE *f, const struct nicsim_config *cfg,
                          const struct nicsim_results *res);
/* One line per sweep point: index, label, swept keys, headline figures
 * (RX/TX Gbit/s, RX drops, CPU %), and a status column if a point failed. */
void nicsim_sweep_table_print(FILE *f, const char *const *keys, size_t nkeys,
                              const struct nicsim_point *points, size_t npoints);
/* The same over points supplied by get (called twice per point). 0 or the
 * first error of get (the table is then incomplete). */
int nicsim_sweep_table_print_each(FILE *f, const char *const *keys, size_t nkeys,
                                  size_t npoints, nicsim_point_fn get, void *arg);

/* ---- docs/metrics.md ------------------------------------------------------ */

/* The Markdown table of every column metric: name, unit, kind, meaning. */
int nicsim_write_metrics_doc(FILE *f);
/* The Markdown table of the extras: fixed names and family patterns. */
int nicsim_write_extra_metrics_doc(FILE *f);
/* Checks (update false) or rewrites (update true, atomically) the regions
 * of the Markdown file at path between <!-- BEGIN METRICS --> and
 * <!-- END METRICS --> (nicsim_write_metrics_doc), then
 * <!-- BEGIN EXTRA METRICS --> and <!-- END EXTRA METRICS -->
 * (nicsim_write_extra_metrics_doc). *stale tells whether either differed.
 * Returns 0, -EINVAL if a marker is missing, or -errno. */
int nicsim_metrics_doc_sync(const char *path, bool update, bool *stale);

#ifdef __cplusplus
}
#endif
#endif
