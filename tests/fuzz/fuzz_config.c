/*
 * fuzz_config.c: fuzz target for the scenario loader (src/config).
 *
 * LLVMFuzzerTestOneInput takes arbitrary bytes, makes a NUL-terminated copy
 * (the loader's string API stops at the first NUL, as a C caller would) and
 * loads it with nc_scenario_load_string("fuzz.yaml", ...). It then checks
 * invariants the loader promises in src/config/config.h and docs/config.md,
 * and abort()s with a message when one is broken, so libFuzzer (or the
 * replay driver, replay_main.c) records a crash:
 *
 *  - a failed load returns -1 with *out NULL and a complete error: message
 *    non-empty, every string NUL-terminated inside its array, file named,
 *    line and column >= 0 (both 0, or line >= 1 and col >= 1), and a position
 *    in "fuzz.yaml" that lies inside the input (but see strict_checks);
 *  - loading is deterministic: a second load gives the same result and error;
 *  - a successful load has a sane sweep: at most 100000 points, labels
 *    non-empty, shorter than NC_STR_MAX and unique (find_point(label(i)) == i),
 *    swept keys are "platform" or schema keys, without repeats;
 *  - resolving the base point and up to MAX_RESOLVED sweep points (first,
 *    last and spread between: the work per input stays bounded) either fails
 *    with a complete error that never blames a schema default, or gives a
 *    config that passes nc_config_check, whose every value is in its key's
 *    range, formats (nc_value_format) to text that reads back (nc_config_set)
 *    to the identical value, and whose origins are valid positions;
 *  - out-of-range points (-2, npoints) are refused with a complete error;
 *  - the collecting loader (nc_scenario_load_all, `nicsim validate`) agrees
 *    on validity, and every error it collects (also while resolving what it
 *    kept despite errors) is complete and inside the input.
 *
 * Relative platform paths in "fuzz.yaml" are read from the current directory;
 * scripts/fuzz.sh and the ctest replay run in tests/fuzz/workdir, which holds
 * a few platform files. When the input mentions "platform" it is loaded a
 * second time as a built-in scenario ("<builtin>/scenarios/seeds/fuzz.yaml"),
 * which resolves relative platform paths inside the compiled-in table and so
 * exercises that code without touching the file system.
 *
 * Built with -fsanitize=fuzzer,address,undefined when NICSIM_FUZZ=ON (clang);
 * with any compiler as tests/fuzz/replay_main.c's callee otherwise.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

#define FUZZ_NAME "fuzz.yaml"
#define FUZZ_BUILTIN_NAME "<builtin>/scenarios/seeds/fuzz.yaml"
#define MAX_POINTS 100000 /* docs/config.md: a sweep has at most 100000 points */
#define MAX_RESOLVED 16   /* sweep points resolved per input, besides the base */

/* Facts about the input used to bound reported positions. */
struct input {
  const char *name; /* display name given to the loader */
  const char *text; /* NUL-terminated */
  size_t len;       /* strlen(text) */
  int max_line;     /* an upper bound of the 1-based line of any position */
  bool open_end;    /* the last line has no line break */
};

/* Findings 3 and 4 of docs/robustness.md, fixed in src/config, are checked
 * unless the environment sets NICSIM_FUZZ_STRICT=0 (to fuzz an older tree):
 *  - at the end of a file whose last line has no line break, libyaml moves
 *    its mark to the start of a line that does not exist; the loader used to
 *    report e.g. "t.yaml:2:1" for a one-line file (line max_line + 1, col 1);
 *  - error messages used to repeat keys, labels and platform names written
 *    with escapes ("\e[2J") as raw control characters, which a terminal obeys. */
static bool strict_checks(void) {
  static int strict = -1;
  if (strict < 0) {
    const char *e = getenv("NICSIM_FUZZ_STRICT");
    strict = !(e && strcmp(e, "0") == 0);
  }
  return strict;
}

/* Reports a broken invariant with the context and aborts (a libFuzzer crash). */
static void violated(const struct input *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
static void violated(const struct input *in, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "fuzz_config: invariant violated (loading as %s): ", in->name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  abort();
}

#define CHECK(in, cond, ...)        \
  do {                              \
    if (!(cond)) violated(in, __VA_ARGS__); \
  } while (0)

/* An upper bound of the number of lines libyaml sees: it breaks lines at LF,
 * CR, CR LF, NEL (U+0085), LS (U+2028) and PS (U+2029); counting each LF, CR
 * and those sequences separately can only overestimate. */
static int count_lines(const char *t, size_t len) {
  size_t n = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)t[i];
    if (c == '\n' || c == '\r') n++;
    else if (c == 0xC2 && i + 1 < len && (unsigned char)t[i + 1] == 0x85) n++;
    else if (c == 0xE2 && i + 2 < len && (unsigned char)t[i + 1] == 0x80 &&
             ((unsigned char)t[i + 2] == 0xA8 || (unsigned char)t[i + 2] == 0xA9))
      n++;
  }
  return n > INT32_MAX ? INT32_MAX : (int)n;
}

/* True if a char array of size n holds a NUL-terminated string. */
static bool terminated(const char *a, size_t n) { return memchr(a, 0, n) != NULL; }

/* Checks a position (an error's or a value's origin). what names it in reports. */
static void check_position(const struct input *in, const struct nc_origin *o, const char *what) {
  CHECK(in, terminated(o->file, sizeof o->file), "%s: file name not terminated", what);
  CHECK(in, o->file[0] != 0, "%s: no file name", what);
  CHECK(in, o->line >= 0 && o->col >= 0, "%s: negative position %d:%d", what, o->line, o->col);
  CHECK(in, (o->line == 0) == (o->col == 0), "%s: half a position %d:%d", what, o->line, o->col);
  if (strcmp(o->file, in->name) == 0) {
    bool eof_quirk = !strict_checks() && in->open_end && o->line == in->max_line + 1 &&
                     o->col == 1;
    CHECK(in, o->line <= in->max_line || eof_quirk, "%s: line %d beyond the input's %d lines",
          what, o->line, in->max_line);
    CHECK(in, (size_t)o->col <= in->len + 1, "%s: column %d beyond the input's %zu bytes", what,
          o->col, in->len);
  }
}

/* Checks a filled error: complete, terminated, positioned; also prints it. */
static void check_error(const struct input *in, const struct nc_error *e, const char *what) {
  CHECK(in, terminated(e->msg, sizeof e->msg), "%s: message not terminated", what);
  CHECK(in, terminated(e->hint, sizeof e->hint), "%s: hint not terminated", what);
  CHECK(in, e->msg[0] != 0, "%s: empty error message", what);
  check_position(in, &e->where, what);
  if (strict_checks()) {
    for (const char *p = e->msg; *p; p++)
      CHECK(in, (unsigned char)*p >= 0x20 && *p != 0x7f,
            "%s: control character 0x%02X in the message", what, (unsigned char)*p);
    for (const char *p = e->hint; *p; p++)
      CHECK(in, (unsigned char)*p >= 0x20 && *p != 0x7f,
            "%s: control character 0x%02X in the hint", what, (unsigned char)*p);
  }
  /* nc_error_print must produce "FILE...error: MSG\n" for any error. */
  char *buf = NULL;
  size_t blen = 0;
  FILE *f = open_memstream(&buf, &blen);
  if (f) {
    nc_error_print(e, f);
    fclose(f);
    CHECK(in, buf && strncmp(buf, e->where.file, strlen(e->where.file)) == 0 &&
                  strstr(buf, "error: ") != NULL,
          "%s: nc_error_print wrote '%s'", what, buf ? buf : "(null)");
    free(buf);
  }
}

/* Number of '|'-separated choices of an enum key. */
static int nchoices(const struct nc_key *k) {
  int n = 1;
  for (const char *c = k->choices; *c; c++) n += *c == '|';
  return n;
}

/* Size of key k's field in struct nicsim_config. */
static size_t field_size(const struct nc_key *k) {
  switch (k->type) {
  case NC_BOOL: return sizeof(bool);
  case NC_INT: return sizeof(int64_t);
  case NC_REAL: return sizeof(double);
  case NC_ENUM: return sizeof(int);
  case NC_STR: return NC_STR_MAX;
  }
  return 0;
}

/* Checks a resolved config: semantic rules, every value in range, text that
 * reads back to the same value, origins. */
static void check_config(const struct input *in, const struct nicsim_config *c,
                         const char *label) {
  struct nc_error e;
  memset(&e, 0, sizeof e);
  CHECK(in, nc_config_check(c, &e) == 0,
        "point '%s' resolved but nc_config_check fails: %s:%d:%d: %s", label, e.where.file,
        e.where.line, e.where.col, e.msg);
  CHECK(in, terminated(c->name, sizeof c->name) && terminated(c->description, sizeof c->description)
                && terminated(c->platform, sizeof c->platform) &&
                terminated(c->label, sizeof c->label),
        "point '%s': a string field is not terminated", label);
  CHECK(in, strcmp(c->label, label) == 0, "point '%s' resolved with label '%s'", label, c->label);
  /* nc_config_set writes into a scratch config (large: static, copied once
   * per point rather than once per key). */
  static struct nicsim_config scratch;
  scratch = *c;
  const struct nc_key *keys = nc_keys();
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &keys[i];
    char text[NC_STR_MAX + 8], what[200];
    snprintf(what, sizeof what, "point '%.60s' key %s", label, k->path);
    memset(text, 0x55, sizeof text);
    nc_value_format(c, k, text, sizeof text);
    CHECK(in, terminated(text, sizeof text), "%s: formatted value not terminated", what);
    CHECK(in, text[0] || k->type == NC_STR, "%s: formats as empty text", what);
    double v = nc_value_number(c, k);
    switch (k->type) {
    case NC_INT:
    case NC_REAL:
      CHECK(in, isfinite(v) && v >= k->min && v <= k->max, "%s = %s is outside [%g, %g]", what,
            text, k->min, k->max);
      break;
    case NC_ENUM:
      CHECK(in, v >= 0 && v < nchoices(k), "%s: enum index %g out of range", what, v);
      break;
    case NC_BOOL: CHECK(in, v == 0 || v == 1, "%s: bool is %g", what, v); break;
    case NC_STR: break;
    }
    /* The formatted text must read back exactly (the CSV/JSON output and
     * `nicsim validate` rely on it). */
    if (k->type != NC_STR) {
      char assign[NC_STR_MAX + 200];
      snprintf(assign, sizeof assign, "%s=%s", k->path, text);
      CHECK(in, nc_config_set(&scratch, assign, &e) == 0, "%s: '%s' does not read back: %s",
            what, assign, e.msg);
      CHECK(in, memcmp((const char *)&scratch + k->offset, (const char *)c + k->offset,
                       field_size(k)) == 0,
            "%s: '%s' reads back to a different value", what, assign);
    }
    const struct nc_origin *o = &c->origin[i];
    check_position(in, o, what);
    if (strcmp(o->file, "<default>") == 0)
      CHECK(in, o->line == 0, "%s: a default with a line number", what);
  }
}

/* Resolves one point (-1: the base) and checks the outcome. */
static void check_point(const struct input *in, const struct nc_scenario *s, long point) {
  static struct nicsim_config c; /* large: keep it off the fuzzer's stack */
  struct nc_error e;
  char what[64];
  snprintf(what, sizeof what, "resolving point %ld", point);
  memset(&e, 0, sizeof e);
  if (nc_scenario_resolve(s, point, NULL, 0, &c, &e) != 0) {
    check_error(in, &e, what);
    /* docs/config.md: a semantic error lands on what was set, never on a default. */
    CHECK(in, strcmp(e.where.file, "<default>") != 0, "%s: error blames a default: %s", what,
          e.msg);
    return;
  }
  const char *label = point < 0 ? "" : nc_scenario_point_label(s, (size_t)point);
  check_config(in, &c, label);
}

/* Checks a loaded scenario's sweep and resolves a bounded sample of points. */
static void check_scenario(const struct input *in, const struct nc_scenario *s) {
  size_t np = nc_scenario_npoints(s);
  CHECK(in, np <= MAX_POINTS, "%zu sweep points", np);
  for (size_t i = 0; i < np; i++) {
    const char *l = nc_scenario_point_label(s, i);
    CHECK(in, l != NULL, "point %zu has no label", i);
    size_t n = strlen(l);
    CHECK(in, n > 0 && n < NC_STR_MAX, "point %zu label is %zu bytes", i, n);
  }
  CHECK(in, nc_scenario_point_label(s, np) == NULL, "a label past the last point");
  size_t ns = nc_scenario_nswept(s);
  CHECK(in, ns <= NC_KEY__COUNT + 1, "%zu swept keys", ns);
  for (size_t i = 0; i < ns; i++) {
    const char *k = nc_scenario_swept_key(s, i);
    CHECK(in, k && (strcmp(k, "platform") == 0 || nc_key_find(k)), "swept key %zu is '%s'", i,
          k ? k : "(null)");
    for (size_t j = 0; j < i; j++)
      CHECK(in, strcmp(k, nc_scenario_swept_key(s, j)) != 0, "swept key '%s' repeats", k);
  }
  CHECK(in, nc_scenario_swept_key(s, ns) == NULL, "a swept key past the last");

  check_point(in, s, -1);
  size_t step = np > MAX_RESOLVED ? np / MAX_RESOLVED : 1;
  for (size_t i = 0; i < np; i += step) {
    CHECK(in, nc_scenario_find_point(s, nc_scenario_point_label(s, i)) == (long)i,
          "label '%s' of point %zu is not unique", nc_scenario_point_label(s, i), i);
    check_point(in, s, (long)i);
  }
  if (np > 1) check_point(in, s, (long)np - 1);

  /* Points that do not exist are refused. */
  static struct nicsim_config c;
  struct nc_error e;
  memset(&e, 0, sizeof e);
  CHECK(in, nc_scenario_resolve(s, (long)np, NULL, 0, &c, &e) == -1, "point %zu resolved", np);
  check_error(in, &e, "resolving a point past the end");
  memset(&e, 0, sizeof e);
  CHECK(in, nc_scenario_resolve(s, -2, NULL, 0, &c, &e) == -1, "point -2 resolved");
  check_error(in, &e, "resolving point -2");
}

/* Loads text under a name and checks everything above. */
/* The collecting loader (nc_scenario_load_all) on the same input: valid
 * exactly when the one-error loader is, each error complete and inside the
 * input, and a scenario it keeps despite errors resolves (base, first and
 * last point) without crashing, adding only complete errors. */
static void run_all(const struct input *in, int rc) {
  struct nc_errors errs;
  struct nc_scenario *s = NULL;
  memset(&errs, 0, sizeof errs);
  int rca = nc_scenario_load_string_all(in->name, in->text, &s, &errs);
  CHECK(in, rca == rc, "collecting load returned %d, the one-error load %d", rca, rc);
  CHECK(in, (rca == 0) == (nc_errors_count(&errs) == 0), "collecting load returned %d with %zu errors",
        rca, nc_errors_count(&errs));
  if (s) {
    struct nicsim_config *c = malloc(sizeof *c);
    size_t np = nc_scenario_npoints(s);
    long pts[3] = {-1, 0, (long)np - 1};
    for (size_t i = 0; c && i < (np ? 3u : 1u); i++) nc_scenario_resolve_all(s, pts[i], NULL, 0, c, &errs);
    free(c);
  }
  for (size_t i = 0; i < errs.n; i++) check_error(in, &errs.v[i], "collecting errors");
  nc_scenario_free(s);
  nc_errors_free(&errs);
}

static void run_one(const char *name, const char *text, size_t len) {
  struct input in = {name, text, len, count_lines(text, len),
                     len == 0 || (text[len - 1] != '\n' && text[len - 1] != '\r')};
  struct nc_scenario *s = (struct nc_scenario *)(uintptr_t)1; /* must be overwritten */
  struct nc_error e;
  memset(&e, 0x55, sizeof e); /* a loader that forgets a field leaves garbage */
  int rc = nc_scenario_load_string(name, text, &s, &e);
  CHECK(&in, rc == 0 || rc == -1, "load returned %d", rc);

  /* Determinism: a second load gives the same outcome. */
  struct nc_scenario *s2 = NULL;
  struct nc_error e2;
  memset(&e2, 0, sizeof e2);
  int rc2 = nc_scenario_load_string(name, text, &s2, &e2);
  CHECK(&in, rc2 == rc, "second load returned %d, first %d", rc2, rc);
  run_all(&in, rc);

  if (rc != 0) {
    CHECK(&in, s == NULL, "failed load left *out set");
    check_error(&in, &e, "loading");
    CHECK(&in, strcmp(e.msg, e2.msg) == 0 && strcmp(e.hint, e2.hint) == 0 &&
                   strcmp(e.where.file, e2.where.file) == 0 && e.where.line == e2.where.line &&
                   e.where.col == e2.where.col,
          "second load gave another error: '%s' vs '%s'", e.msg, e2.msg);
    return;
  }
  CHECK(&in, s != NULL, "successful load without a scenario");
  CHECK(&in, nc_scenario_npoints(s) == nc_scenario_npoints(s2) &&
                 nc_scenario_nswept(s) == nc_scenario_nswept(s2),
        "second load gave another sweep");
  nc_scenario_free(s2);
  check_scenario(&in, s);
  nc_scenario_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  if (size) memcpy(text, data, size);
  text[size] = 0;
  size_t len = strlen(text);
  run_one(FUZZ_NAME, text, len);
  if (strstr(text, "platform")) run_one(FUZZ_BUILTIN_NAME, text, len);
  free(text);
  return 0;
}
