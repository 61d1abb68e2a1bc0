/* calib_specs.c: one value per physical thing across calibration specs
 * (docs/calibration.md, "Across specs"): the specs of a directory loaded
 * together, and the two conflicts between them refused: the same key freed
 * on a common platform by two specs (one unknown, two values), and a
 * prediction of one spec at a point another fits (any metric there). */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config_internal.h"
#include "study/calib.h"

/* "file:line:col" of an origin inside spec s. */
static void css__at(const struct nicsim_calib_spec *s, const struct nc_origin *o, char *buf, size_t n) {
  snprintf(buf, n, "%s:%d:%d", s->file, o->line, o->col);
}

/* The platform both specs' measured points share, or NULL. */
static const char *css__common_platform(const struct nicsim_calib_spec *a,
                                        const struct nicsim_calib_spec *b) {
  for (size_t i = 0; i < a->npoints; i++)
    for (size_t j = 0; j < b->npoints; j++)
      if (strcmp(a->point_platform[i], b->point_platform[j]) == 0) return a->point_platform[i];
  return NULL;
}

/* Does prediction x depend on y's point: the same scenario file and point
 * (a prediction depends on its point; a point with any measurement fitted
 * is fitted)? */
static bool css__same(const struct nicsim_calib_spec *a, const struct nicsim_calib_meas *x,
                      const struct nicsim_calib_spec *b, const struct nicsim_calib_meas *y) {
  char ra[PATH_MAX], rb[PATH_MAX];
  if (strcmp(x->point, y->point) != 0) return false;
  if (a->scenario_builtin || b->scenario_builtin)
    return a->scenario_builtin == b->scenario_builtin && strcmp(a->scenario_path, b->scenario_path) == 0;
  if (!realpath(a->scenario_path, ra) || !realpath(b->scenario_path, rb))
    return strcmp(a->scenario_path, b->scenario_path) == 0;
  return strcmp(ra, rb) == 0;
}

/* The first conflict of later spec b with earlier spec a, into err. */
static int css__pair(const struct nicsim_calib_spec *a, const struct nicsim_calib_spec *b, bool b_is_later,
                     struct nc_error *err) {
  char at[NC_PATH_MAX + 32];
  const struct nicsim_calib_spec *first = b_is_later ? a : b, *second = b_is_later ? b : a;
  const char *plat = css__common_platform(first, second);
  for (size_t i = 0; plat && i < second->nfree; i++)
    for (size_t j = 0; j < first->nfree; j++) {
      if (second->free[i].key != first->free[j].key) continue;
      css__at(first, &first->free[j].at, at, sizeof at);
      nc__error_set(err, second->file, second->free[i].at.line, second->free[i].at.col,
                    "a calibrated key has one value per platform: fit it jointly in one spec "
                    "(every measurement under one calibrate: list), or free it in one spec only",
                    "%s is also fitted by %s (%s), on platform %s: one unknown would get two values",
                    second->free[i].key->path, first->name, at, plat);
      return -1;
    }
  for (int dir = 0; dir < 2; dir++) {
    const struct nicsim_calib_spec *fit = dir ? second : first, *pred = dir ? first : second;
    for (size_t i = pred->ncal; i < pred->nmeas; i++)
      for (size_t j = 0; j < fit->ncal; j++) {
        char name[NC_STR_MAX + 128], fitted[NC_STR_MAX + 128];
        if (!css__same(pred, &pred->meas[i], fit, &fit->meas[j])) continue;
        css__at(dir ? pred : fit, dir ? &pred->meas[i].at : &fit->meas[j].at, at, sizeof at);
        nicsim_calib_meas_name(&pred->meas[i], name, sizeof name);
        nicsim_calib_meas_name(&fit->meas[j], fitted, sizeof fitted);
        /* reported at the later spec's entry, naming the earlier one */
        if (dir == 0)
          nc__error_set(err, second->file, pred->meas[i].at.line, pred->meas[i].at.col,
                        "a prediction is judged only on measurements no fit saw: drop it here, "
                        "or drop it from the other spec's calibrate: list",
                        "%s is predicted here but its point is fitted by %s (%s, %s)", name,
                        fit->name, fitted, at);
        else
          nc__error_set(err, second->file, fit->meas[j].at.line, fit->meas[j].at.col,
                        "a prediction is judged only on measurements no fit saw: drop it from "
                        "one of the two specs",
                        "%s is fitted here but its point is predicted by %s (%s, %s)", fitted,
                        pred->name, name, at);
        return -1;
      }
  }
  return 0;
}

int nicsim_calib_specs_check(struct nicsim_calib_spec *const *specs, size_t n, size_t only,
                             struct nc_error *err) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      if (only < n && i != only && j != only) continue;
      /* the spec being checked is "the second"; else the later file */
      bool j_later = only < n ? j == only : true;
      if (specs[i]->file_dev == specs[j]->file_dev && specs[i]->file_ino == specs[j]->file_ino) continue;
      if (css__pair(specs[i], specs[j], j_later, err) != 0) return -1;
    }
  return 0;
}

/* Does the file look like a calibration spec (a regular file of at most
 * 1 MiB with a top-level measurements: key)? A FIFO or device is never
 * opened. */
static bool css__is_spec(const char *path) {
  struct stat st;
  FILE *f;
  char line[256];
  bool yes = false;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 20)) return false;
  if ((f = fopen(path, "r")) == NULL) return false;
  for (int k = 0; k < 100000 && fgets(line, sizeof line, f); k++)
    if (strncmp(line, "measurements:", 13) == 0) {
      yes = true;
      break;
    }
  fclose(f);
  return yes;
}

static int css__cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int nicsim_calib_specs_load_dir(const char *dir, struct nicsim_calib_spec ***out, size_t *n,
                                struct nc_error *err) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  size_t nn = 0, cap = 0;
  int r = 0;
  *out = NULL;
  *n = 0;
  if (!d) {
    nc__error_set(err, dir, 0, 0, "name a directory of calibration specs", "cannot open the directory");
    return -1;
  }
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0 || e->d_name[0] == '.') continue;
    if (nn == cap) {
      char **t = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
      if (!t) break;
      names = t;
    }
    if ((names[nn] = malloc(strlen(dir) + len + 2)) == NULL) break;
    sprintf(names[nn++], "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (nn) qsort(names, nn, sizeof *names, css__cmp);
  if (nn && !(*out = calloc(nn, sizeof **out))) r = -1;
  for (size_t i = 0; r == 0 && i < nn; i++) {
    if (!css__is_spec(names[i])) continue;
    if (nicsim_calib_spec_load(names[i], &(*out)[*n], err) != 0) r = -1;
    else (*n)++;
  }
  for (size_t i = 0; i < nn; i++) free(names[i]);
  free(names);
  if (r != 0) {
    for (size_t i = 0; i < *n; i++) nicsim_calib_spec_free((*out)[i]);
    free(*out);
    *out = NULL;
    *n = 0;
    if (!err->msg[0]) nc__error_set(err, dir, 0, 0, NULL, "out of memory");
  }
  return r;
}
