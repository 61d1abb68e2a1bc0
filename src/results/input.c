/* input.c: reads a point's results document back into a config and results,
 * so merge, resume, plot and report work from the files alone. */
#include "results/input.h"

#include <errno.h>
#include <stdlib.h>

#include "results/safety.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Index of name in a '|'-separated choice list, or -1. */
static int nicsim__enum_index(const char *choices, const char *name) {
  const char *p = choices;
  size_t len = strlen(name);
  int i = 0;

  while (p != NULL && *p) {
    size_t n = strcspn(p, "|");
    if (n == len && strncmp(p, name, n) == 0)
      return i;
    p = p[n] == '|' ? p + n + 1 : NULL;
    i++;
  }
  return -1;
}

/* Copies a JSON string member into buf; "" if absent. */
static void nicsim__str(json_t *obj, const char *key, char *buf, size_t n) {
  const char *v = json_string_value(json_object_get(obj, key));
  snprintf(buf, n, "%s", v ? v : "");
}

/* Fills cfg from a config object. */
int nicsim_config_from_json(json_t *config, struct nicsim_config *cfg, char *why, size_t n) {
  const struct nc_key *keys = nc_keys();
  size_t i;

  if (!json_is_object(config)) {
    snprintf(why, n, "no \"config\" object");
    return -1;
  }
  nc_config_defaults(cfg);
  nicsim__str(config, "name", cfg->name, sizeof(cfg->name));
  nicsim__str(config, "description", cfg->description, sizeof(cfg->description));
  nicsim__str(config, "platform", cfg->platform, sizeof(cfg->platform));
  nicsim__str(config, "label", cfg->label, sizeof(cfg->label));
  for (i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &keys[i];
    json_t *v = json_object_get(json_object_get(config, k->section), k->name);
    char *field = (char *)cfg + k->offset;
    bool b;
    int64_t iv;
    double d;
    int e;

    if (v == NULL) {
      snprintf(why, n, "config has no %s", k->path);
      return -1;
    }
    switch (k->type) {
    case NC_BOOL:
      if (!json_is_boolean(v))
        goto type;
      b = json_is_true(v);
      memcpy(field, &b, sizeof(b));
      break;
    case NC_INT:
      if (!json_is_integer(v))
        goto type;
      iv = (int64_t)json_integer_value(v);
      memcpy(field, &iv, sizeof(iv));
      break;
    case NC_REAL:
      if (!json_is_number(v) && !json_is_null(v))
        goto type;
      d = json_is_null(v) ? NAN : json_number_value(v);
      memcpy(field, &d, sizeof(d));
      break;
    case NC_ENUM:
      e = json_is_string(v) ? nicsim__enum_index(k->choices, json_string_value(v)) : -1;
      if (e < 0) {
        snprintf(why, n, "config %s is not one of %s", k->path, k->choices);
        return -1;
      }
      memcpy(field, &e, sizeof(e));
      break;
    case NC_STR:
      if (!json_is_string(v))
        goto type;
      snprintf(field, NC_STR_MAX, "%s", json_string_value(v));
      break;
    }
    snprintf(cfg->origin[i].file, sizeof(cfg->origin[i].file), "<json>");
    cfg->origin[i].line = cfg->origin[i].col = 0;
    continue;
  type:
    snprintf(why, n, "config %s has the wrong type", k->path);
    return -1;
  }
  return 0;
}

/* Fills res from a metrics object. */
int nicsim_results_from_json(json_t *metrics, struct nicsim_results *res, char *why, size_t n) {
  const char *name;
  json_t *v;

  nicsim_results_init(res);
  if (!json_is_object(metrics)) {
    snprintf(why, n, "no \"metrics\" object");
    return -1;
  }
  json_object_foreach(metrics, name, v) {
    long id = nicsim_metric_find(name);
    double d;

    if (!json_is_number(v) && !json_is_null(v)) {
      snprintf(why, n, "metric %s is not a number", name);
      return -1;
    }
    d = json_is_null(v) ? NAN : json_number_value(v);
    if (id >= 0) {
      nicsim_results_set(res, id, d);
    } else if (nicsim_results_set_extra(res, name, "",
                                        json_is_integer(v) ? NM_KIND_COUNT : NM_KIND_REAL, "",
                                        d) != 0) {
      snprintf(why, n, "metric %s does not fit (too many or a bad name)", name);
      return -1;
    }
  }
  return 0;
}

/* "path:LINE:COL: text" for a jansson parse error, both counted from 1. */
void nicsim_json_error_where(const char *path, const json_error_t *err, char *buf, size_t n) {
  /* jansson's text quotes the file ("invalid token near 'root:$y$...'", "unable
   * to decode byte 0xc3"): the file may be no results file at all (any file
   * can be named), so only the kind of error is kept; the position says where. */
  char text[sizeof err->text];
  const char *near = strstr(err->text, " near ");
  int keep = near ? (int)(near - err->text) : (int)strlen(err->text);

  if (strncmp(err->text, "unable to decode byte", 21) == 0)
    snprintf(text, sizeof(text), "not valid UTF-8");
  else
    snprintf(text, sizeof(text), "%.*s", keep, err->text);
  /* jansson says column 0 before the first character of a line (an empty file). */
  snprintf(buf, n, "%s:%d:%d: %s", path, err->line > 0 ? err->line : 1,
           err->column > 0 ? err->column : 1, text);
}

/* Loads a JSON file of a results directory; see input.h. */
json_t *nicsim_results_json_load(const char *path, int *rc, char *why, size_t n) {
  json_error_t err;
  char *buf;
  size_t len;
  json_t *j;
  int r = nicsim_read_results_file(path, NICSIM_RESULTS_FILE_MAX, &buf, &len);

  if (rc != NULL)
    *rc = r;
  if (r < 0) {
    snprintf(why, n, "%s %s", path, nicsim_read_strerror(r));
    return NULL;
  }
  j = json_loadb(buf, len, 0, &err);
  free(buf);
  if (j == NULL) {
    if (rc != NULL)
      *rc = -EINVAL;
    nicsim_json_error_where(path, &err, why, n);
  }
  return j;
}

/* Loads a point file into cfg and res. */
int nicsim_point_json_read(const char *path, struct nicsim_config *cfg,
                           struct nicsim_results *res, json_t **doc, char *why, size_t n) {
  json_t *j = nicsim_results_json_load(path, NULL, why, n);
  char what[512];

  if (doc != NULL)
    *doc = NULL;
  if (j == NULL)
    return -1;
  if (nicsim_config_from_json(json_object_get(j, "config"), cfg, what, sizeof(what)) != 0 ||
      nicsim_results_from_json(json_object_get(j, "metrics"), res, what, sizeof(what)) != 0) {
    snprintf(why, n, "%s: %s", path, what);
    json_decref(j);
    return -1;
  }
  if (doc != NULL)
    *doc = j;
  else
    json_decref(j);
  return 0;
}

/* Checks a sweep manifest (sweep.json); see input.h. */
int nicsim_manifest_check(json_t *m, size_t *npoints, long *baseline, char *why, size_t n) {
  json_t *labels = json_object_get(m, "labels"), *keys = json_object_get(m, "swept");
  json_t *b = json_object_get(m, "baseline"), *ph = json_object_get(m, "point_hashes");
  size_t i, np;

  if (!json_is_object(m) || !json_is_array(labels) || !json_is_array(keys) ||
      !json_is_string(json_object_get(m, "hash")) || json_array_size(keys) > NC_KEY__COUNT + 1) {
    snprintf(why, n, "not a nicsim sweep manifest (labels, swept, hash)");
    return -1;
  }
  np = json_array_size(labels);
  /* "points" says how many labels there are: a cross-check of a hand-edited file. */
  if (!json_is_integer(json_object_get(m, "points")) ||
      json_integer_value(json_object_get(m, "points")) != (json_int_t)np) {
    snprintf(why, n, "\"points\" must be the number of labels (%zu)", np);
    return -1;
  }
  for (i = 0; i < np; i++)
    if (!json_is_string(json_array_get(labels, i))) {
      snprintf(why, n, "label %zu is not a string", i + 1);
      return -1;
    }
  for (i = 0; i < json_array_size(keys); i++)
    if (!json_is_string(json_array_get(keys, i))) {
      snprintf(why, n, "swept key %zu is not a string", i + 1);
      return -1;
    }
  /* The baseline is null (none declared) or a point's index: anything else
   * is an error, never a silent fall back to the first point. */
  *baseline = -1;
  if (b != NULL && !json_is_null(b)) {
    if (!json_is_integer(b) || json_integer_value(b) < 0 || json_integer_value(b) >= (json_int_t)np) {
      snprintf(why, n, "\"baseline\" must be null or a point index from 0 to %zu",
               np ? np - 1 : 0);
      return -1;
    }
    *baseline = (long)json_integer_value(b);
  }
  /* Per-point config hashes (written since issue 23), one string per point. */
  if (ph != NULL) {
    bool ok = json_is_array(ph) && json_array_size(ph) == np;
    for (i = 0; ok && i < np; i++)
      ok = json_is_string(json_array_get(ph, i));
    if (!ok) {
      snprintf(why, n, "\"point_hashes\" must list one hash (a string) per point");
      return -1;
    }
  }
  *npoints = np;
  return 0;
}
