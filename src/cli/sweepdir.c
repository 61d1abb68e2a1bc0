/* sweepdir.c: a sweep's output directory read back from its files alone:
 * the manifest DIR/sweep.json and the point files DIR/points/<id>.json. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    else {
      char where[NC_PATH_MAX + 256];
      nicsim_json_error_where(path, &err, where, sizeof(where));
      fprintf(stderr, "nicsim %s: %s\n", cmd, where);
    }
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
  /* "points" says how many labels there are: a cross-check of a hand-edited file. */
  if (!json_is_integer(json_object_get(d->manifest, "points")) ||
      json_integer_value(json_object_get(d->manifest, "points")) != (json_int_t)d->n) {
    fprintf(stderr, "nicsim %s: %s: \"points\" must be the number of labels (%zu)\n", cmd,
            path, d->n);
    return CLI_EXIT_USAGE;
  }
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

/* Loads point i, checking that its file holds that point. */
int cli_sweepdir_load(struct cli_sweepdir *d, size_t i, char *why, size_t n) {
  char path[NC_PATH_MAX + 300];
  const char *label = cli_sweepdir_label(d, i);

  cli_point_file(d->dir, i, d->digits, label, path, sizeof(path));
  if (nicsim_point_json_read(path, d->cfg, d->res, NULL, why, n) != 0)
    return -1;
  return cli_point_label_check(path, d->cfg, label, why, n);
}

/* Checks that a point file's config is the point of the manifest's label. */
int cli_point_label_check(const char *path, const struct nicsim_config *cfg, const char *label,
                          char *why, size_t n) {
  if (strcmp(cfg->label, label) == 0)
    return 0;
  snprintf(why, n, "%s holds point '%s', not '%s' (the point its name and sweep.json give)",
           path, cfg->label, label);
  return -1;
}

/* True if DIR holds sweep results (results.csv or any point file). */
static bool cli__dir_has_results(const char *dir) {
  char path[NC_PATH_MAX + 16];
  DIR *d;
  struct dirent *e;
  bool found = false;

  snprintf(path, sizeof(path), "%s/results.csv", dir);
  if (access(path, F_OK) == 0)
    return true;
  snprintf(path, sizeof(path), "%s/points", dir);
  if ((d = opendir(path)) == NULL)
    return false;
  while (!found && (e = readdir(d)) != NULL)
    found = strlen(e->d_name) > 5 && strcmp(e->d_name + strlen(e->d_name) - 5, ".json") == 0;
  closedir(d);
  return found;
}

/* Says whose results DIR holds, for a sweep about to write there. */
int cli_sweepdir_owner(const char *dir, const char *hash, const char *name, const char *entry,
                       char *why, size_t n) {
  char path[NC_PATH_MAX + 16], where[NC_PATH_MAX + 256];
  json_error_t err;
  struct stat st;
  json_t *m;
  const char *mhash, *mentry;
  int rc;

  snprintf(path, sizeof(path), "%s/sweep.json", dir);
  m = json_load_file(path, 0, &err);
  if (m == NULL) {
    if (stat(path, &st) == 0) {
      nicsim_json_error_where(path, &err, where, sizeof(where));
      snprintf(why, n, "%s\n  %s does not parse, so which sweep %s holds is unknown", where, path,
               dir);
      return CLI_DIR_OTHER;
    }
    if (!cli__dir_has_results(dir))
      return CLI_DIR_FREE;
    snprintf(why, n, "%s holds results without a sweep.json", dir);
    return CLI_DIR_OTHER;
  }
  mhash = cli_json_str(m, "hash", "?");
  mentry = cli_json_str(m, "regress", NULL);
  if (hash != NULL && strcmp(mhash, hash) == 0)
    rc = CLI_DIR_FREE;
  else if (entry != NULL && mentry != NULL && strcmp(entry, mentry) == 0)
    rc = CLI_DIR_OWN;
  else {
    rc = CLI_DIR_OTHER;
    if (hash != NULL)
      snprintf(why, n,
               "%s holds the results of another sweep (scenario '%s', config hash %s; this one "
               "is '%s', %s)",
               dir, cli_json_str(m, "scenario", "?"), mhash, name, hash);
    else
      snprintf(why, n,
               "%s holds the results of a sweep that is not regress entry '%s' (scenario '%s', "
               "config hash %s)",
               dir, entry, cli_json_str(m, "scenario", "?"), mhash);
  }
  json_decref(m);
  return rc;
}

/* Removes another sweep's results from DIR: results.csv and the point files. */
void cli_sweepdir_clear(const char *dir) {
  char path[NC_PATH_MAX + 300];
  DIR *d;
  struct dirent *e;

  snprintf(path, sizeof(path), "%s/results.csv", dir);
  unlink(path);
  snprintf(path, sizeof(path), "%s/points", dir);
  if ((d = opendir(path)) == NULL)
    return;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
      snprintf(path, sizeof(path), "%s/points/%s", dir, e->d_name);
      unlink(path);
    }
  }
  closedir(d);
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
