/*
 * fuzz_results.c: a libFuzzer target for the readers of results files, which
 * merge, plot, report, regress and sweep --resume trust (docs/robustness.md):
 * the sweep manifest (DIR/sweep.json, nicsim_manifest_check) and the point
 * files (DIR/points/<index>-<label>.json, nicsim_config_from_json and
 * nicsim_results_from_json, as nicsim_point_json_read reads them).
 *
 * The first byte picks the reader (even: a point file, odd: a manifest); the
 * rest is the file. Aborts when an invariant does not hold:
 * - a parse error's text (nicsim_json_error_where) names the position and
 *   never quotes the input (no "near '");
 * - a rejected document leaves a non-empty reason;
 * - an accepted point reads back: its config, written again
 *   (nicsim_config_to_json) and read, gives the same JSON; its metrics,
 *   written again (nicsim_results_to_json), read and written, the same;
 * - an accepted manifest: "points" is the number of labels, the baseline -1
 *   or a point's index, point_hashes absent or one per point.
 * Loading twice gives the same outcome (determinism).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/input.h"
#include "results/output.h"

#define CHECK(c)                                                             \
  do {                                                                       \
    if (!(c)) {                                                              \
      fprintf(stderr, "fuzz_results: invariant failed: %s (%s:%d)\n", #c, __FILE__, \
              __LINE__);                                                     \
      abort();                                                               \
    }                                                                        \
  } while (0)

static struct nicsim_config g_cfg, g_cfg2;
static struct nicsim_results g_res, g_res2;

/* Dumps j compactly (malloc'd), or NULL. */
static char *dump(const json_t *j) {
  return j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
}

static void point_file(json_t *doc) {
  char why[512] = "";
  int rc = nicsim_config_from_json(json_object_get(doc, "config"), &g_cfg, why, sizeof why);
  if (rc != 0) {
    CHECK(why[0] != '\0');
    return;
  }
  /* The config written again reads back to the same JSON. */
  json_t *a = nicsim_config_to_json(&g_cfg);
  CHECK(a != NULL);
  CHECK(nicsim_config_from_json(a, &g_cfg2, why, sizeof why) == 0);
  json_t *b = nicsim_config_to_json(&g_cfg2);
  char *ta = dump(a), *tb = dump(b);
  CHECK(ta && tb && strcmp(ta, tb) == 0);
  free(ta);
  free(tb);
  json_decref(a);
  json_decref(b);

  why[0] = '\0';
  rc = nicsim_results_from_json(json_object_get(doc, "metrics"), &g_res, why, sizeof why);
  if (rc != 0) {
    CHECK(why[0] != '\0');
    return;
  }
  json_t *r1 = nicsim_results_to_json("fuzz", &g_cfg, &g_res);
  CHECK(r1 != NULL);
  CHECK(nicsim_results_from_json(json_object_get(r1, "metrics"), &g_res2, why, sizeof why) == 0);
  json_t *r2 = nicsim_results_to_json("fuzz", &g_cfg, &g_res2);
  char *t1 = dump(r1), *t2 = dump(r2);
  CHECK(t1 && t2 && strcmp(t1, t2) == 0);
  free(t1);
  free(t2);
  json_decref(r1);
  json_decref(r2);
}

static void manifest(json_t *doc) {
  char why[512] = "", why2[512] = "";
  size_t np = 12345, np2 = 0;
  long base = 12345, base2 = 0;
  int rc = nicsim_manifest_check(doc, &np, &base, why, sizeof why);
  CHECK(rc == nicsim_manifest_check(doc, &np2, &base2, why2, sizeof why2));
  if (rc != 0) {
    CHECK(why[0] != '\0' && strcmp(why, why2) == 0);
    return;
  }
  CHECK(np == np2 && base == base2);
  CHECK(np == json_array_size(json_object_get(doc, "labels")));
  CHECK((json_int_t)np == json_integer_value(json_object_get(doc, "points")));
  CHECK(base == -1 || (base >= 0 && (size_t)base < np));
  json_t *ph = json_object_get(doc, "point_hashes");
  CHECK(ph == NULL || json_array_size(ph) == np);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int kind = data[0] & 1;
  json_error_t err;
  json_t *doc = json_loadb((const char *)data + 1, size - 1, 0, &err);
  if (doc == NULL) {
    char where[512];
    nicsim_json_error_where("f.json", &err, where, sizeof where);
    CHECK(strncmp(where, "f.json:", 7) == 0);
    CHECK(strstr(where, " near ") == NULL);
    return 0;
  }
  if (kind == 0)
    point_file(doc);
  else
    manifest(doc);
  json_decref(doc);
  return 0;
}
