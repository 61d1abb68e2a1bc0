/* input.h: reading results back: a point's JSON document (as written by
 * nicsim_json_write) into a resolved config and results, exactly. */
#ifndef NICSIM_RESULTS_INPUT_H
#define NICSIM_RESULTS_INPUT_H

#include <jansson.h>

#include "config/config.h"
#include "results/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Formats a jansson parse error of file path as "path:LINE:COL: text", line
 * and column counted from 1 (jansson gives column 0 at a line's start). */
void nicsim_json_error_where(const char *path, const json_error_t *err, char *buf, size_t n);
/* The largest JSON file a results directory may hold (point files, sweep.json,
 * baselines). */
#define NICSIM_RESULTS_FILE_MAX ((size_t)256 << 20)
/* Reads a JSON file of a results directory (nicsim_read_results_file: a
 * symlink, FIFO, device or socket is refused without blocking) and parses
 * it. NULL with why filled (the file's name, and the reason or the parse
 * error's line and column, never its bytes) and *rc (if not NULL) set to
 * -ENOENT, -ELOOP, -NICSIM_E_NOTREG, -EINVAL (does not parse), ... */
json_t *nicsim_results_json_load(const char *path, int *rc, char *why, size_t n);
/* Fills cfg from the "config" object of a results document (every schema
 * key, name, description, platform, label; origins are "<json>"). Returns 0,
 * or -1 with why filled (a missing key, a wrong type, an unknown enum name). */
int nicsim_config_from_json(json_t *config, struct nicsim_config *cfg, char *why, size_t n);
/* Fills res from the "metrics" object: static metrics by name, anything else
 * as an extra (integers COUNT, reals REAL; null is NaN). 0 or -1 with why. */
int nicsim_results_from_json(json_t *metrics, struct nicsim_results *res, char *why, size_t n);
/* Loads a point file written by nicsim_json_write: both of the above. The
 * document is returned in *doc (NULL to drop it). 0 or -1 with why, which
 * names the file (and the line and column of a parse error). */
int nicsim_point_json_read(const char *path, struct nicsim_config *cfg,
                           struct nicsim_results *res, json_t **doc, char *why, size_t n);

/* Checks a sweep manifest (DIR/sweep.json, as a sweep writes it): labels
 * (strings), swept keys (strings, at most one per schema key and
 * "platform"), hash, "points" equal to the number of labels, "baseline" null
 * or a point index, "point_hashes" absent or one string per point. 0 with
 * *npoints and *baseline (-1: none) set, or -1 with why filled (never
 * quoting the file). */
int nicsim_manifest_check(json_t *m, size_t *npoints, long *baseline, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
