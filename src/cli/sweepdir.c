/* sweepdir.c: a sweep's output directory read back from its files alone:
 * the manifest DIR/sweep.json and the point files DIR/points/<id>.json. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "results/input.h"

/* Width of the index in the file names of n points. */
int cli_point_digits(size_t n) {
  int d = 1;
  size_t i;
  for (i = n > 0 ? n - 1 : 0; i >= 10; i /= 10)
    d++;
  return d;
}

/* DIR/points/<index>-<label>.json. */
void cli_point_file(const char *dir, size_t i, int digits, const char *label, char *buf,
                    size_t n) {
  char safe[128];
  cli_sanitise(label ? label : "", safe, sizeof(safe));
  snprintf(buf, n, "%s/points/%0*zu-%s.json", dir, digits, i, safe);
}

/* String member key of obj, or def. */
const char *cli_json_str(json_t *obj, const char *key, const char *def) {
  const char *v = json_string_value(json_object_get(obj, key));
  return v ? v : def;
}

/* String element i of arr, or def. */
const char *cli_json_at(json_t *arr, size_t i, const char *def) {
  const char *v = json_string_value(json_array_get(arr, i));
  return v ? v : def;
}

/* Label of point i from the manifest. */
const char *cli_sweepdir_label(const struct cli_sweepdir *d, size_t i) {
  const char *l = json_string_value(json_array_get(json_object_get(d->manifest, "labels"), i));
  return l ? l : "";
}

/* Opens a sweep directory. */
int cli_sweepdir_open(struct cli_sweepdir *d, const char *cmd, const char *dir) {
  char path[NC_PATH_MAX + 32];
  json_error_t err;
  json_t *labels, *keys;
  struct stat st;
  size_t i;

  memset(d, 0, sizeof(*d));
  d->baseline = -1;
  snprintf(d->dir, sizeof(d->dir), "%s", dir);
  snprintf(path, sizeof(path), "%s/sweep.json", dir);
  d->manifest = json_load_file(path, 0, &err);
  if (d->manifest == NULL) {
    if (stat(path, &st) != 0)
      fprintf(stderr, "nicsim %s: %s is not a sweep directory: %s: %s\n", cmd, dir, path,
              strerror(errno));
    else
      fprintf(stderr, "nicsim %s: %s:%d:%d: %s\n", cmd, path, err.line, err.column, err.text);
    return CLI_EXIT_USAGE;
  }
  labels = json_object_get(d->manifest, "labels");
  keys = json_object_get(d->manifest, "swept");
  if (!json_is_array(labels) || !json_is_array(keys) ||
      !json_is_string(json_object_get(d->manifest, "hash")) ||
      json_array_size(keys) > NC_KEY__COUNT + 1) {
    fprintf(stderr, "nicsim %s: %s: not a nicsim sweep manifest (labels, swept, hash)\n", cmd,
            path);
    return CLI_EXIT_USAGE;
  }
  d->n = json_array_size(labels);
  d->digits = cli_point_digits(d->n);
  for (i = 0; i < json_array_size(keys); i++) {
    d->keys[i] = json_string_value(json_array_get(keys, i));
    if (d->keys[i] == NULL) {
      fprintf(stderr, "nicsim %s: %s: swept key %zu is not a string\n", cmd, path, i + 1);
      return CLI_EXIT_USAGE;
    }
  }
  d->nkeys = i;
  if (json_is_integer(json_object_get(d->manifest, "baseline")))
    d->baseline = (long)json_integer_value(json_object_get(d->manifest, "baseline"));
  if (d->baseline >= (long)d->n)
    d->baseline = -1;
  d->cfg = calloc(1, sizeof(*d->cfg));
  d->res = calloc(1, sizeof(*d->res));
  d->have = calloc(d->n ? d->n : 1, sizeof(*d->have));
  if (d->cfg == NULL || d->res == NULL || d->have == NULL) {
    fprintf(stderr, "nicsim %s: out of memory\n", cmd);
    return CLI_EXIT_USAGE;
  }
  for (i = 0; i < d->n; i++) {
    cli_point_file(dir, i, d->digits, cli_sweepdir_label(d, i), path, sizeof(path));
    d->have[i] = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  }
  return 0;
}

/* Frees what open allocated. */
void cli_sweepdir_close(struct cli_sweepdir *d) {
  json_decref(d->manifest);
  free(d->cfg);
  free(d->res);
  free(d->have);
  memset(d, 0, sizeof(*d));
}

/* Loads point i. */
int cli_sweepdir_load(struct cli_sweepdir *d, size_t i, char *why, size_t n) {
  char path[NC_PATH_MAX + 300];
  cli_point_file(d->dir, i, d->digits, cli_sweepdir_label(d, i), path, sizeof(path));
  return nicsim_point_json_read(path, d->cfg, d->res, NULL, why, n);
}

/* Number of present points. */
size_t cli_sweepdir_count(const struct cli_sweepdir *d) {
  size_t i, c = 0;
  for (i = 0; i < d->n; i++)
    c += d->have[i];
  return c;
}

/* Index of the i-th present point (d->n if none). */
size_t cli_sweepdir_nth(const struct cli_sweepdir *d, size_t i) {
  size_t k;
  for (k = 0; k < d->n; k++)
    if (d->have[k] && i-- == 0)
      return k;
  return d->n;
}

/* nicsim_point_fn over the present points. */
int cli_sweepdir_get(void *arg, size_t i, struct nicsim_point *out) {
  struct cli_sweepdir *d = arg;
  size_t k = cli_sweepdir_nth(d, i);
  char why[512];

  if (k >= d->n)
    return -EINVAL;
  if (cli_sweepdir_load(d, k, why, sizeof(why)) != 0) {
    fprintf(stderr, "nicsim: %s\n", why);
    return -EINVAL;
  }
  out->cfg = d->cfg;
  out->res = d->res;
  return 0;
}
