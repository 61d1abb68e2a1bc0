/* scenario.c: loads scenario, platform and overlay files, expands sweeps into labelled
 * points, and resolves a point: defaults < platform < scenario < sweep point < overlays
 * < --set. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/builtin.h"
#include "config/config_internal.h"
#include "config/sweep.h"

#define BUILTIN_PREFIX "<builtin>/"

/* ---- the parsed scenario ---------------------------------------------------- */

/* A position: file index into nc_scenario.files, 1-based line and column. */
struct nc__pos {
  int file, line, col;
};

/* One key set by a file or a sweep point. */
struct nc__assign {
  const struct nc_key *key;
  struct nc__pos at;
  union nc__v v;
  bool refused; /* collecting errors: the value was refused (v is unset) */
};

/* The keys set by one file or one sweep point, in the order written. */
struct nc__layer {
  struct nc__assign *a;
  size_t n, cap;
};

/* A loaded platform file; path is its display name. A file on disk is
 * identified by its device and inode (so one file named several ways is read
 * once), a built-in one by its path. */
struct nc__platform {
  char *path;
  bool disk;
  uint64_t dev, ino;
  struct nc__layer layer;
};

/* A file read from disk while loading: its identity (nc_scenario_input). */
struct nc__fid {
  bool disk;
  uint64_t dev, ino;
};

/* A use of a platform: which one, as written, and where. plat -1: none. */
struct nc__platref {
  int plat;
  char *text;
  struct nc__pos at;
};

/* One value of a sweep axis. text is its canonical form, used in labels. */
struct nc__axval {
  union nc__v v;
  struct nc__pos at;
  struct nc__platref plat; /* platform axis only */
  char *text;
};

/* A sweep axis: a key (NULL for "platform") and its values. */
struct nc__axis {
  const struct nc_key *key;
  const char *path;
  struct nc__pos at;
  size_t dim; /* the dimension it varies along (zipped axes share one) */
  struct nc__axval *vals;
  size_t n;
};

/* A labelled sweep point. */
struct nc__point {
  char *label;
  struct nc__pos at;
  struct nc__platref plat;
  struct nc__layer layer;
};

struct nc_scenario {
  char **files; /* display names; [0] is the scenario itself */
  struct nc__fid *fids; /* [i]: the identity of files[i] if read from disk */
  size_t nfiles;
  char *name, *description;
  struct nc__platref base_plat;
  struct nc__platform *plats;
  size_t nplats;
  struct nc__layer base;
  struct nc__axis *axes;
  size_t naxes;
  struct nc__point *pts;
  size_t npts;
  size_t *dimn; /* values per dimension: an axis, or a zip group */
  size_t ndims;
  size_t repeats; /* 0 or 1: none */
  struct nc__pos repeats_at;
  char *baseline;
  struct nc__pos baseline_at;
  long baseline_idx;
  struct nc_plot *plots;
  size_t nplots;
  size_t npoints;
  char **labels;
  const char **swept;
  size_t nswept;
  struct nc__layer *overlays; /* overlay files, in the order added */
  int *overlay_file;          /* index into files of each overlay */
  size_t noverlays;
  bool no_rules;  /* loaded with errors that make the rules meaningless (a platform) */
  bool no_points; /* loaded with sweep errors: no points */
};

/* Loading context. */
struct loader {
  struct nc_scenario *s;
  struct nc_error *err;
  struct nc_errors *all;    /* collecting: every error goes here too, loading goes on */
  size_t nerr;              /* errors reported so far */
  bool fatal;               /* out of memory: stop */
  bool not_ours;            /* the file last read by load_top is no nicsim file */
  bool plots_bad;           /* `plots:` has an error (collecting) */
  bool builtin;             /* relative platform paths resolve in the built-in table */
  char dir[NC_PATH_MAX];    /* directory of the scenario file ("" for the current one) */
};

enum file_kind { KIND_SCENARIO, KIND_PLATFORM, KIND_POINT, KIND_OVERLAY };

static bool top_key_known(const char *w);

/* ---- small helpers -------------------------------------------------------------- */

/* malloc'd copy of s, or NULL. */
static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* True if s ends with suffix. */
static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Reports an error at node n of file `file`; returns -1. */
static int fail(struct loader *L, int file, const struct nc__node *n, const char *hint,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(struct loader *L, int file, const struct nc__node *n, const char *hint,
                const char *fmt, ...) {
  char msg[sizeof L->err->msg];
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (r < 0) msg[0] = 0;
  nc__error_set(L->err, L->s->files[file], n ? n->line : 0, n ? n->col : 0, hint, "%s", msg);
  L->nerr++;
  if (L->all) nc_errors_add(L->all, L->err);
  return -1;
}

/* Adds *L->err, filled by a callee rather than fail(), to the collected
 * errors; returns -1. */
static int failed_elsewhere(struct loader *L) {
  L->nerr++;
  if (L->all) nc_errors_add(L->all, L->err);
  return -1;
}

/* True if loading goes on past an error: errors are being collected and
 * nothing fatal happened. */
static bool go_on(const struct loader *L) { return L->all && !L->fatal; }

/* Reports out of memory; returns -1. */
static int oom(struct loader *L) {
  nc__error_set(L->err, L->s->files[0], 0, 0, NULL, "out of memory");
  L->fatal = true;
  return failed_elsewhere(L);
}

/* The position of node n in file `file`. */
static struct nc__pos pos_of(int file, const struct nc__node *n) {
  struct nc__pos p = {file, n->line, n->col};
  return p;
}

/* Adds a file display name (and its identity, st NULL: not read from disk);
 * returns its index or -1. */
static int add_file(struct nc_scenario *s, const char *name, const struct stat *st) {
  char **f = realloc(s->files, (s->nfiles + 1) * sizeof *f);
  if (!f) return -1;
  s->files = f;
  struct nc__fid *id = realloc(s->fids, (s->nfiles + 1) * sizeof *id);
  if (!id) return -1;
  s->fids = id;
  id[s->nfiles].disk = st != NULL;
  id[s->nfiles].dev = st ? (uint64_t)st->st_dev : 0;
  id[s->nfiles].ino = st ? (uint64_t)st->st_ino : 0;
  f[s->nfiles] = dup_str(name);
  if (!f[s->nfiles]) return -1;
  return (int)s->nfiles++;
}

/* Frees a value's heap part (STR keys only). */
static void free_value(const struct nc_key *k, union nc__v *v) {
  if (k && k->type == NC_STR) {
    free(v->s);
    v->s = NULL;
  }
}

/* Frees a layer's values and array. */
static void layer_free(struct nc__layer *l) {
  for (size_t i = 0; i < l->n; i++) free_value(l->a[i].key, &l->a[i].v);
  free(l->a);
  memset(l, 0, sizeof *l);
}

/* The assignment of key k in l, or NULL. */
static const struct nc__assign *layer_find(const struct nc__layer *l, const struct nc_key *k) {
  for (size_t i = 0; i < l->n; i++)
    if (l->a[i].key == k) return &l->a[i];
  return NULL;
}

/* Appends an assignment (taking ownership of v); -1 if out of memory. */
static int layer_push(struct nc__layer *l, const struct nc_key *k, struct nc__pos at,
                      union nc__v v) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    struct nc__assign *a = realloc(l->a, cap * sizeof *a);
    if (!a) return -1;
    l->a = a;
    l->cap = cap;
  }
  l->a[l->n].key = k;
  l->a[l->n].at = at;
  l->a[l->n].v = v;
  l->a[l->n].refused = false;
  l->n++;
  return 0;
}

/* Writes "F:L:C" of a position. */
static void pos_text(const struct nc_scenario *s, struct nc__pos p, char *buf, size_t n) {
  nc__fmt(buf, n, "%s:%d:%d", s->files[p.file], p.line, p.col);
}

/* ---- values and sections ------------------------------------------------------- */

/* Reads a string scalar (name, description, label) into a malloc'd *out. */
static int get_string(struct loader *L, int file, const struct nc__node *v, const char *what,
                      char **out) {
  if (v->kind != NC__SCALAR)
    return fail(L, file, v, "write a single line of text", "%s must be a single value, but it is %s",
                what, nc__node_kind_name(v));
  if (strlen(v->text) >= NC_STR_MAX)
    return fail(L, file, v, NULL, "%s is %zu bytes long; the limit is %d", what, strlen(v->text),
                NC_STR_MAX - 1);
  free(*out);
  *out = dup_str(v->text);
  return *out ? 0 : oom(L);
}

/* Rejects text (what: "the point label") holding a control character; errors at v. */
static int no_ctrl(struct loader *L, int file, const struct nc__node *v, const char *what,
                   const char *text) {
  const char *c = nc__find_ctrl(text);
  if (!c) return 0;
  return fail(L, file, v, "use printable characters only; YAML escapes such as \\e or \\n "
                          "are not accepted here",
              "%s '%.200s' contains a control character (byte %zu)", what, text,
              (size_t)(c - text) + 1);
}

/* Parses value node v for key k into *out; errors at v. */
static int parse_value(struct loader *L, int file, const struct nc_key *k,
                       const struct nc__node *v, union nc__v *out, const char *seq_hint) {
  char expect[300], hint[512];
  nc__expect_text(k, expect, sizeof expect);
  if (v->kind != NC__SCALAR) {
    nc__fmt(hint, sizeof hint, "expected %s", expect);
    return fail(L, file, v, v->kind == NC__SEQ && seq_hint ? seq_hint : hint,
                "%s takes a single value, but it is %s", k->path, nc__node_kind_name(v));
  }
  char msg[512];
  memset(out, 0, sizeof *out);
  if (nc__value_parse(k, v->text, strlen(v->text), v->quoted, out, msg, sizeof msg, hint,
                      sizeof hint))
    return fail(L, file, v, hint[0] ? hint : NULL, "%s", msg);
  return 0;
}

/* Sets key k from value node v in layer l; keynode is where the key is written. */
static int assign(struct loader *L, int file, struct nc__layer *l, const struct nc_key *k,
                  const struct nc__node *keynode, const struct nc__node *v, enum file_kind kind) {
  const struct nc__assign *prev = layer_find(l, k);
  if (prev) {
    char at[NC_PATH_MAX + 40];
    pos_text(L->s, prev->at, at, sizeof at);
    return fail(L, file, keynode, "set each key once per file or sweep point",
                "%s is set twice (first at %s)", k->path, at);
  }
  char seq_hint[400];
  nc__fmt(seq_hint, sizeof seq_hint,
          kind == KIND_POINT     ? "a sweep point sets one value per key; list values under "
                                   "sweep.axes to sweep them"
          : kind == KIND_OVERLAY ? "an overlay sets one value per key (%s)"
                                 : "to sweep it, list the values under sweep.axes, e.g. sweep: "
                                   "{axes: {%s: [a, b]}}",
          k->path);
  union nc__v v2;
  if (parse_value(L, file, k, v, &v2, seq_hint)) {
    /* Collecting: remember the key as refused, so that it counts as set
     * (a second setting is still reported) and its rules are skipped. */
    memset(&v2, 0, sizeof v2);
    if (L->all && layer_push(l, k, pos_of(file, v), v2) == 0) l->a[l->n - 1].refused = true;
    return -1;
  }
  if (layer_push(l, k, pos_of(file, v), v2)) {
    free_value(k, &v2);
    return oom(L);
  }
  return 0;
}

/* Hint for an unknown dotted key: a suggestion or the keys of its section. */
static void unknown_key_hint(const char *path, char *hint, size_t n) {
  const struct nc_key *s = nc_key_suggest(path);
  char sec[64] = "", keys[400];
  const char *dot = strchr(path, '.');
  if (dot && (size_t)(dot - path) < sizeof sec) nc__fmt(sec, sizeof sec, "%.*s", (int)(dot - path), path);
  if (nc_key_removed_hint(path))
    nc__fmt(hint, n, "%s", nc_key_removed_hint(path));
  else if (s)
    nc__fmt(hint, n, "did you mean '%s'?", s->path);
  else if (sec[0] && nc__is_section(sec)) {
    nc__list_keys(sec, keys, sizeof keys);
    nc__fmt(hint, n, "keys of section '%s': %s", sec, keys);
  } else {
    nc__list_sections(keys, sizeof keys);
    nc__fmt(hint, n, "keys are section.name; sections: %s", keys);
  }
}

/* Sets every key of section `sec` from mapping v into l. */
static int load_section(struct loader *L, int file, struct nc__layer *l, const char *sec,
                        const struct nc__node *v, enum file_kind kind) {
  char hint[512];
  if (v->kind != NC__MAP) {
    nc__fmt(hint, sizeof hint,
            "write '%s:' followed by indented 'key: value' lines, e.g. %s: {%s: ...}", sec, sec,
            nc_keys()[0].name);
    for (size_t i = 0; i < NC_KEY__COUNT; i++)
      if (strcmp(nc_keys()[i].section, sec) == 0) {
        nc__fmt(hint, sizeof hint,
                "write '%s:' followed by indented 'key: value' lines, e.g. %s: {%s: %s}", sec, sec,
                nc_keys()[i].name, nc_keys()[i].def);
        break;
      }
    return fail(L, file, v, hint, "section '%s' must be a mapping of keys, but it is %s", sec,
                nc__node_kind_name(v));
  }
  int r = 0;
  for (size_t i = 0; i < v->n && (r == 0 || go_on(L)); i++) {
    const struct nc__node *kn = v->items[2 * i], *vn = v->items[2 * i + 1];
    const struct nc_key *k = nc__key_find2(sec, kn->text);
    if (!k) {
      char path[300];
      nc__fmt(path, sizeof path, "%s.%s", sec, kn->text);
      unknown_key_hint(path, hint, sizeof hint);
      r = fail(L, file, kn, hint, "unknown key '%s'", path);
    } else if (assign(L, file, l, k, kn, vn, kind)) {
      r = -1;
    }
  }
  return r;
}

/* Handles a section or a dotted key. Returns 0, -1 (error) or 1 (not a key). */
static int load_entry(struct loader *L, int file, struct nc__layer *l, const struct nc__node *kn,
                      const struct nc__node *vn, enum file_kind kind) {
  if (nc__is_section(kn->text)) return load_section(L, file, l, kn->text, vn, kind);
  const char *dot = strchr(kn->text, '.');
  if (!dot) return 1;
  const struct nc_key *k = nc_key_find(kn->text);
  if (!k) {
    char hint[512];
    unknown_key_hint(kn->text, hint, sizeof hint);
    return fail(L, file, kn, hint, "unknown key '%s'", kn->text);
  }
  return assign(L, file, l, k, kn, vn, kind);
}

/* Error for a word that is neither a section nor allowed at this level. In a
 * scenario or platform file this is found before anything else is read
 * (file_is_recognised), and the key is not shown: the file may be no nicsim
 * file at all (say /etc/shadow named as a platform), and an error must not
 * show what it holds. The position and the nearest word of ours are shown. */
static int unknown_top(struct loader *L, int file, const struct nc__node *kn, enum file_kind kind) {
  static const char *const scen_words[] = {"name", "description", "platform", "sweep", "plots"};
  static const char *const point_words[] = {"label", "platform"};
  const char *const *words = kind == KIND_POINT ? point_words : scen_words;
  size_t nwords = kind == KIND_SCENARIO ? 5 : 2;
  char hint[512], list[400];
  const char *best = NULL;
  size_t bestd = (size_t)-1, len = strlen(kn->text);
  size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
  for (size_t i = 0; i < nwords; i++) {
    size_t d = nc__edit_distance(kn->text, words[i]);
    if (d < bestd) bestd = d, best = words[i];
  }
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const char *sec = nc_keys()[i].section;
    size_t d = nc__edit_distance(kn->text, sec);
    if (d < bestd) bestd = d, best = sec;
  }
  const struct nc_key *k = nc_key_suggest(kn->text);
  nc__list_sections(list, sizeof list);
  if (best && bestd <= limit)
    nc__fmt(hint, sizeof hint, "did you mean '%s'?", best);
  else if (k)
    nc__fmt(hint, sizeof hint, "did you mean '%s'? keys go inside their section: %s: {%s: ...}",
            k->path, k->section, k->name);
  else if (kind == KIND_POINT)
    nc__fmt(hint, sizeof hint, "a sweep point holds 'label', 'platform', and keys such as "
                               "nic.desc_spacing or sections; sections: %s", list);
  else if (kind == KIND_PLATFORM)
    nc__fmt(hint, sizeof hint, "a platform file holds name, description and the sections %s",
            list);
  else if (kind == KIND_OVERLAY)
    nc__fmt(hint, sizeof hint, "an overlay holds name, description and the sections %s", list);
  else
    nc__fmt(hint, sizeof hint,
            "the top level holds name, description, platform, sweep and the sections %s", list);
  if (kind == KIND_POINT) return fail(L, file, kn, hint, "unknown key '%s' in a sweep point", kn->text);
  return fail(L, file, kn, hint,
              "not a nicsim %s: unknown top-level key (its text is not shown, the file may hold "
              "anything)",
              kind == KIND_PLATFORM  ? "platform file"
              : kind == KIND_OVERLAY ? "overlay"
                                     : "scenario");
}

/* True if key w may stand at the top level of a scenario or platform file:
 * one of the words, a section, or a dotted key of a section. */
static bool top_key_known(const char *w) {
  static const char *const words[] = {"name", "description", "platform", "sweep", "plots"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(w, words[i]) == 0) return true;
  if (nc__is_section(w)) return true;
  const char *dot = strchr(w, '.');
  char sec[64];
  if (!dot || (size_t)(dot - w) >= sizeof sec) return false;
  nc__fmt(sec, sizeof sec, "%.*s", (int)(dot - w), w);
  return nc__is_section(sec);
}

/* ---- platforms ---------------------------------------------------------------------- */

/* Joins dir and rel inside the built-in table, resolving "." and "..".
 * Returns -1 if the result would leave the table's root. */
static int builtin_join(const char *dir, const char *rel, char *out, size_t n) {
  char tmp[2 * NC_PATH_MAX + 2];
  const char *segs[NC_PATH_MAX];
  size_t lens[NC_PATH_MAX], ns = 0;
  if (rel[0] == '/') return -1;
  nc__fmt(tmp, sizeof tmp, "%s/%s", dir, rel);
  for (const char *p = tmp; *p;) {
    const char *e = strchr(p, '/');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == 2 && p[0] == '.' && p[1] == '.') {
      if (ns == 0) return -1;
      ns--;
    } else if (l > 0 && !(l == 1 && p[0] == '.')) {
      if (ns == NC_PATH_MAX) return -1;
      segs[ns] = p;
      lens[ns++] = l;
    }
    p += l;
    if (*p == '/') p++;
  }
  size_t used = 0;
  out[0] = 0;
  for (size_t i = 0; i < ns; i++) {
    if (used + lens[i] + 2 >= n) return -1;
    if (i) out[used++] = '/';
    memcpy(out + used, segs[i], lens[i]);
    used += lens[i];
    out[used] = 0;
  }
  return ns ? 0 : -1;
}

/* Hint listing the built-in platforms, with the nearest to `name` first. */
static void platform_hint(const char *name, char *hint, size_t n) {
  static const char pre[] = "configs/platforms/";
  char list[300] = "", best[NC_PATH_MAX] = "";
  size_t bestd = (size_t)-1;
  for (const struct nicsim_builtin_file *f = nicsim_builtin_files; f->path; f++) {
    if (strncmp(f->path, pre, sizeof pre - 1) != 0 || !ends_with(f->path, ".yaml")) continue;
    char short_name[NC_PATH_MAX];
    const char *p = f->path + sizeof pre - 1;
    nc__fmt(short_name, sizeof short_name, "%.*s", (int)(strlen(p) - 5), p);
    size_t d = nc__edit_distance(name, short_name);
    if (d < bestd) {
      bestd = d;
      nc__fmt(best, sizeof best, "%s", short_name);
    }
    size_t used = strlen(list);
    if (used + strlen(short_name) + 8 < sizeof list)
      nc__fmt(list + used, sizeof list - used, "%s%s", used ? ", " : "", short_name);
  }
  size_t len = strlen(name);
  if (best[0] && bestd <= (len <= 3 ? 1u : len <= 6 ? 2u : 3u))
    nc__fmt(hint, n, "did you mean '%s'?", best);
  else if (list[0])
    nc__fmt(hint, n, "built-in platforms: %s; or give the path of a platform file (a value "
                     "containing '/' or ending in .yaml)",
            list);
  else
    nc__fmt(hint, n, "there are no built-in platforms; give the path of a platform file (a "
                     "value containing '/' or ending in .yaml)");
}

/* Why t may not name a platform file (NULL: it may): see platform_ref. */
static const char *platform_path_problem(const char *t) {
  if (t[0] == '/') return "it is absolute";
  if (!ends_with(t, ".yaml") && !ends_with(t, ".yml")) return "a platform file ends in .yaml";
  for (const char *p = t; *p;) {
    const char *e = strchr(p, '/');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == 2 && p[0] == '.' && p[1] == '.') return "it leaves the scenario's directory ('..')";
    p += l;
    if (*p == '/') p++;
  }
  return NULL;
}

/* Loads the top-level mapping of a scenario or platform file (defined below). */
static int load_top(struct loader *L, int file, const struct nc__node *root, enum file_kind kind,
                    struct nc__layer *layer);

/* Resolves and loads the platform named by scalar node v of file `file`. */
static int platform_ref(struct loader *L, int file, const struct nc__node *v,
                        struct nc__platref *out) {
  struct nc_scenario *s = L->s;
  char hint[512], rel[NC_PATH_MAX], disp[NC_PATH_MAX + 16];
  if (v->kind != NC__SCALAR || !v->text[0])
    return fail(L, file, v,
                "write a built-in platform name such as x86-gen3, or the path of a .yaml file",
                "platform must be a name or a path, but it is %s", nc__node_kind_name(v));
  const char *t = v->text;
  if (strlen(t) >= NC_PATH_MAX - 40)
    return fail(L, file, v, NULL, "the platform path is longer than %d bytes", NC_PATH_MAX - 40);
  if (no_ctrl(L, file, v, "the platform name", t)) return -1;
  bool is_path = strchr(t, '/') || ends_with(t, ".yaml") || ends_with(t, ".yml");
  const char *text = NULL;
  size_t len = 0;
  if (!is_path || L->builtin) {
    if (!is_path)
      nc__fmt(rel, sizeof rel, "configs/platforms/%s.yaml", t);
    else if (builtin_join(L->dir, t, rel, sizeof rel))
      return fail(L, file, v, "built-in scenarios name platforms relative to their own directory",
                  "platform path '%s' leaves the built-in file table", t);
    text = nicsim_builtin_find(rel);
    if (!text) {
      if (!is_path) {
        platform_hint(t, hint, sizeof hint);
        return fail(L, file, v, hint, "unknown platform '%s'", t);
      }
      return fail(L, file, v, "check the path; it is relative to the scenario's directory",
                  "no built-in file '%s'", rel);
    }
    nc__fmt(disp, sizeof disp, "%s%s", BUILTIN_PREFIX, rel);
    len = strlen(text);
  } else {
    /* A platform file: a .yaml file beside the scenario (in its directory or
     * below), named relative to it, never an absolute path or one through
     * "..": a scenario must not be able to read any file it names. */
    const char *why = platform_path_problem(t);
    if (why)
      return fail(L, file, v,
                  "name a built-in platform (e.g. x86-gen3), or put the platform file beside the "
                  "scenario and name it relative to the scenario's directory, e.g. "
                  "plat/my-board.yaml",
                  "platform path '%s' is not allowed: %s", t, why);
    size_t dl = strlen(L->dir);
    if (dl + 1 + strlen(t) >= NC_PATH_MAX)
      return fail(L, file, v, "move the files to a shorter path",
                  "the platform file's path (the scenario's directory and '%s') is longer than "
                  "%d bytes",
                  t, NC_PATH_MAX - 1);
    if (dl)
      nc__fmt(disp, sizeof disp, "%s%s%s", L->dir, ends_with(L->dir, "/") ? "" : "/", t);
    else
      nc__fmt(disp, sizeof disp, "%s", t);
  }
  out->at = pos_of(file, v);
  free(out->text);
  out->text = dup_str(t);
  if (!out->text) return oom(L);
  /* The same file under another name is the same platform: built-in ones by
   * their path, files on disk by device and inode. */
  struct stat st;
  bool on_disk = !text && stat(disp, &st) == 0;
  for (size_t i = 0; i < s->nplats; i++)
    if (text ? !s->plats[i].disk && strcmp(s->plats[i].path, disp) == 0
             : on_disk && s->plats[i].disk && s->plats[i].dev == (uint64_t)st.st_dev &&
                   s->plats[i].ino == (uint64_t)st.st_ino) {
      out->plat = (int)i;
      return 0;
    }
  char *owned = NULL;
  if (!text) {
    struct nc_error e;
    owned = nc__read_file_ex(disp, NC__MAX_PLATFORM_BYTES, &st, &len, &e);
    if (!owned)
      return fail(L, file, v, "the path is relative to the scenario file's directory",
                  "cannot read platform file '%s': %s", disp, e.msg);
    text = owned;
  }
  char where[NC_PATH_MAX + 40];
  pos_text(s, out->at, where, sizeof where);
  int pfile = add_file(s, disp, owned ? &st : NULL);
  if (pfile < 0) {
    free(owned);
    return oom(L);
  }
  bool disk = owned != NULL;
  size_t n0 = L->all ? L->all->n : 0;
  struct nc__node *root = nc__yaml_parse_all(disp, text, len, top_key_known, L->err, L->all);
  free(owned);
  struct nc__layer layer = {0};
  L->not_ours = false;
  int r = root ? load_top(L, pfile, root, KIND_PLATFORM, &layer) : failed_elsewhere(L);
  if (L->all && L->all->n > n0) { /* parse errors (duplicate keys) count too */
    r = -1;
    for (size_t i = n0; i < L->all->n; i++) {
      char hint2[sizeof L->err->hint];
      struct nc_error *e = &L->all->v[i];
      nc__fmt(hint2, sizeof hint2, "%s%s(platform named at %s)", e->hint, e->hint[0] ? " " : "",
              where);
      memcpy(e->hint, hint2, sizeof hint2);
    }
  }
  if (r) {
    char hint2[sizeof L->err->hint];
    nc__fmt(hint2, sizeof hint2, "%s%s(platform named at %s)", L->err->hint,
            L->err->hint[0] ? " " : "", where);
    memcpy(L->err->hint, hint2, sizeof hint2);
  }
  /* Collecting, a platform with refused values still serves its point; one
   * that is no platform file (or unreadable) does not. */
  bool usable = root && !L->not_ours && go_on(L);
  L->not_ours = false;
  if (r && !usable) {
    nc__node_free(root);
    layer_free(&layer);
    return -1;
  }
  nc__node_free(root);
  struct nc__platform *p = realloc(s->plats, (s->nplats + 1) * sizeof *p);
  if (!p) {
    layer_free(&layer);
    return oom(L);
  }
  s->plats = p;
  p[s->nplats].path = dup_str(disp);
  p[s->nplats].disk = disk;
  p[s->nplats].dev = disk ? s->fids[pfile].dev : 0;
  p[s->nplats].ino = disk ? s->fids[pfile].ino : 0;
  p[s->nplats].layer = layer;
  if (!p[s->nplats].path) {
    layer_free(&layer);
    return oom(L);
  }
  out->plat = (int)s->nplats++;
  return r ? -1 : 0;
}

/* ---- sweeps ---------------------------------------------------------------------------- */

/* Splits expanded point i into its labelled point p, axis value indices and
 * repeat (innermost: repeats, then the last dimension). */
static void decompose(const struct nc_scenario *s, size_t i, size_t *p, size_t *ax, size_t *rep) {
  size_t idx[NC_KEY__COUNT + 1];
  size_t r = s->repeats > 1 ? s->repeats : 1;
  *rep = i % r;
  i /= r;
  for (size_t d = s->ndims; d-- > 0;) {
    idx[d] = i % s->dimn[d];
    i /= s->dimn[d];
  }
  for (size_t a = 0; a < s->naxes; a++) ax[a] = idx[s->axes[a].dim];
  *p = i;
}

/* Adds a dimension of n values; returns its index or -1 (out of memory). */
static long add_dim(struct loader *L, size_t n) {
  struct nc_scenario *s = L->s;
  size_t *d = realloc(s->dimn, (s->ndims + 1) * sizeof *d);
  if (!d) return oom(L);
  s->dimn = d;
  d[s->ndims] = n;
  return (long)s->ndims++;
}

/* A key to find duplicates by sorting: text (or, when text is NULL, a
 * platform index) and the position of its holder in its list. */
struct dupkey {
  const char *text;
  long plat;
  size_t idx;
};

/* Orders dupkeys by text or platform, then by index. */
static int cmp_dupkey(const void *a, const void *b) {
  const struct dupkey *x = a, *y = b;
  int c = x->text ? strcmp(x->text, y->text) : (x->plat > y->plat) - (x->plat < y->plat);
  return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sorts k[0..n) and returns the smallest index that repeats an earlier
 * entry's key, with that earlier (first) index in *first; (size_t)-1 if every
 * key differs. O(n log n). */
static size_t find_dup(struct dupkey *k, size_t n, size_t *first) {
  size_t dup = (size_t)-1;
  qsort(k, n, sizeof *k, cmp_dupkey);
  for (size_t j = 1, run = 0; j < n; j++) {
    bool same = k[j].text ? strcmp(k[j].text, k[run].text) == 0 : k[j].plat == k[run].plat;
    if (!same) {
      run = j;
    } else if (k[j].idx < dup) {
      dup = k[j].idx;
      *first = k[run].idx; /* the run starts with its smallest index */
    }
  }
  return dup;
}

/* Loads a mapping of axes (sweep.axes, or one zip group when zip is true:
 * the axes then share one dimension and need as many values each). */
static int load_axes(struct loader *L, int file, const struct nc__node *v, bool zip) {
  struct nc_scenario *s = L->s;
  const char *what = zip ? "a sweep.zip group" : "sweep.axes";
  if (v->kind != NC__MAP || v->n == 0)
    return fail(L, file, v, zip ? "write 'zip:' then one 'section.key: [values]' line per key; "
                                  "the keys' lists have the same length and vary together"
                                : "write 'axes:' then one 'section.key: [values]' line per axis, e.g. "
                                  "nic.desc_spacing: [16, 32, 64]",
                "%s must be a non-empty mapping of keys to value lists, but it is %s", what,
                nc__node_kind_name(v));
  struct nc__axis *grown = realloc(s->axes, (s->naxes + v->n) * sizeof *s->axes);
  if (!grown) return oom(L);
  s->axes = grown;
  memset(s->axes + s->naxes, 0, v->n * sizeof *s->axes);
  long zipdim = -1;
  size_t first = s->naxes;
  for (size_t i = 0; i < v->n; i++) {
    const struct nc__node *kn = v->items[2 * i], *vals = v->items[2 * i + 1];
    struct nc__axis *ax = &s->axes[s->naxes];
    char hint[512];
    if (strcmp(kn->text, "platform") == 0) {
      ax->key = NULL;
      ax->path = "platform";
    } else {
      ax->key = nc_key_find(kn->text);
      if (!ax->key) {
        if (nc__is_section(kn->text))
          return fail(L, file, kn, "an axis is one key, written section.key, e.g. nic.desc_spacing",
                      "sweep axis '%s' is a section, not a key", kn->text);
        unknown_key_hint(kn->text, hint, sizeof hint);
        return fail(L, file, kn, hint, "unknown key '%s'", kn->text);
      }
      ax->path = ax->key->path;
    }
    for (size_t q = 0; q < s->naxes; q++)
      if (strcmp(s->axes[q].path, ax->path) == 0) {
        char at[NC_PATH_MAX + 40];
        pos_text(s, s->axes[q].at, at, sizeof at);
        return fail(L, file, kn, "sweep each key in one place: sweep.axes or one zip group",
                    "%s is swept twice (first at %s)", ax->path, at);
      }
    ax->at = pos_of(file, kn);
    s->naxes++;
    if (vals->kind != NC__SEQ || vals->n == 0)
      return fail(L, file, vals, "write the values as a list, e.g. [16, 32, 64]",
                  "sweep axis %s needs a non-empty list of values, but it is %s", ax->path,
                  vals->kind == NC__SEQ ? "an empty list" : nc__node_kind_name(vals));
    if (vals->n > NC__MAX_POINTS)
      return fail(L, file, vals, "split the sweep into several scenarios",
                  "the sweep has more than %d points", NC__MAX_POINTS);
    ax->vals = calloc(vals->n, sizeof *ax->vals);
    if (!ax->vals) return oom(L);
    for (size_t j = 0; j < vals->n; j++) {
      const struct nc__node *item = vals->items[j];
      struct nc__axval *av = &ax->vals[j];
      char text[NC_STR_MAX];
      av->plat.plat = -1;
      ax->n = j + 1; /* before anything can fail: nc_scenario_free frees what is set */
      if (item->kind != NC__SCALAR)
        return fail(L, file, item, "an axis lists single values, e.g. [16, 32, 64]",
                    "value %zu of sweep axis %s is %s", j + 1, ax->path, nc__node_kind_name(item));
      if (!ax->key) {
        if (platform_ref(L, file, item, &av->plat)) return -1;
        nc__fmt(text, sizeof text, "%s", item->text);
      } else {
        if (parse_value(L, file, ax->key, item, &av->v, NULL)) return -1;
        nc__value_text(ax->key, &av->v, text, sizeof text);
      }
      av->at = pos_of(file, item);
      av->text = dup_str(text);
      if (!av->text) return oom(L);
    }
    /* Duplicates in O(n log n): by canonical text, and for platforms also by
     * the file they resolve to; report the earliest repeat. */
    struct dupkey *keys = malloc(ax->n * sizeof *keys);
    if (!keys) return oom(L);
    size_t dup = (size_t)-1, orig = 0;
    for (int pass = 0; pass < (ax->key ? 1 : 2); pass++) {
      for (size_t j = 0; j < ax->n; j++)
        keys[j] = (struct dupkey){pass ? NULL : ax->vals[j].text, ax->vals[j].plat.plat, j};
      size_t f = 0, d = find_dup(keys, ax->n, &f);
      if (d < dup) dup = d, orig = f;
    }
    free(keys);
    if (dup != (size_t)-1) {
      char at[NC_PATH_MAX + 40];
      pos_text(s, ax->vals[orig].at, at, sizeof at);
      return fail(L, file, vals->items[dup], "each value of an axis must differ",
                  "duplicate value '%s' in sweep axis %s (first at %s)", ax->vals[dup].text,
                  ax->path, at);
    }
    if (zip && zipdim >= 0 && ax->n != s->dimn[zipdim]) {
      char at[NC_PATH_MAX + 40];
      pos_text(s, s->axes[first].at, at, sizeof at);
      return fail(L, file, vals, "zipped keys vary together: give each the same number of values",
                  "zipped key %s has %zu values but %s (at %s) has %zu", ax->path, ax->n,
                  s->axes[first].path, at, s->dimn[zipdim]);
    }
    if (!zip || zipdim < 0) {
      long d = add_dim(L, ax->n);
      if (d < 0) return -1;
      if (zip) zipdim = d;
    }
    ax->dim = zip ? (size_t)zipdim : s->ndims - 1;
  }
  return 0;
}

/* Loads sweep.zip: one group (a mapping) or a list of groups. */
static int load_zip(struct loader *L, int file, const struct nc__node *v) {
  if (v->kind == NC__MAP) return load_axes(L, file, v, true);
  if (v->kind != NC__SEQ || v->n == 0)
    return fail(L, file, v, "write 'zip:' then 'section.key: [values]' lines of equal length",
                "sweep.zip must be a mapping of keys to value lists (or a list of such "
                "mappings), but it is %s",
                v->kind == NC__SEQ ? "an empty list" : nc__node_kind_name(v));
  for (size_t i = 0; i < v->n; i++)
    if (load_axes(L, file, v->items[i], true)) return -1;
  return 0;
}

/* Loads sweep.repeats: a count from 1 to 1000. */
static int load_repeats(struct loader *L, int file, const struct nc__node *v) {
  char *end = NULL;
  long r = v->kind == NC__SCALAR && !v->quoted ? strtol(v->text, &end, 10) : 0;
  if (v->kind != NC__SCALAR || v->quoted || !end || *end || end == v->text || r < 1 || r > 1000)
    return fail(L, file, v, "e.g. repeats: 5 runs each point with run.seed, run.seed+1, ... run.seed+4",
                "sweep.repeats must be a whole number from 1 to 1000");
  L->s->repeats = (size_t)r;
  L->s->repeats_at = pos_of(file, v);
  return 0;
}

/* Loads sweep.points: labelled points, each with a platform and/or keys. */
static int load_points(struct loader *L, int file, const struct nc__node *v) {
  struct nc_scenario *s = L->s;
  if (v->kind != NC__SEQ || v->n == 0)
    return fail(L, file, v, "write one '- label: NAME' item per point, followed by its keys",
                "sweep.points must be a non-empty list of points, but it is %s",
                v->kind == NC__SEQ ? "an empty list" : nc__node_kind_name(v));
  if (v->n > NC__MAX_POINTS)
    return fail(L, file, v, "split the sweep into several scenarios",
                "the sweep has more than %d points", NC__MAX_POINTS);
  s->pts = calloc(v->n, sizeof *s->pts);
  if (!s->pts) return oom(L);
  /* Collecting errors, every entry of every point is read (but then the
   * labels are not compared). */
  int bad = 0;
  for (size_t i = 0; i < v->n && (!bad || go_on(L)); i++) {
    const struct nc__node *item = v->items[i];
    struct nc__point *pt = &s->pts[s->npts++];
    pt->plat.plat = -1;
    if (item->kind != NC__MAP) {
      bad = fail(L, file, item, "write e.g. '- {label: small, nic.desc_spacing: 16}'",
                 "sweep point %zu must be a mapping with a label, but it is %s", i + 1,
                 nc__node_kind_name(item));
      continue;
    }
    int r = 0;
    for (size_t j = 0; j < item->n && (!r || go_on(L)); j++) {
      const struct nc__node *kn = item->items[2 * j], *vn = item->items[2 * j + 1];
      const char *w = kn->text;
      if (strcmp(w, "label") == 0) {
        if (get_string(L, file, vn, "a point label", &pt->label) ||
            no_ctrl(L, file, vn, "the point label", pt->label))
          r = -1;
        else if (!pt->label[0])
          r = fail(L, file, vn, "write a short name, e.g. label: baseline", "the point label is empty");
        else
          pt->at = pos_of(file, vn);
      } else if (strcmp(w, "platform") == 0) {
        if (platform_ref(L, file, vn, &pt->plat)) r = -1;
      } else if (strcmp(w, "name") == 0 || strcmp(w, "description") == 0 ||
                 strcmp(w, "sweep") == 0) {
        r = fail(L, file, kn, "a sweep point holds 'label', 'platform' and configuration keys",
                 "'%s' cannot be set in a sweep point", w);
      } else {
        int e = load_entry(L, file, &pt->layer, kn, vn, KIND_POINT);
        if (e == 1) e = unknown_top(L, file, kn, KIND_POINT);
        if (e) r = -1;
      }
    }
    if (!r && !pt->label)
      r = fail(L, file, item, "add 'label: NAME'; the label names the point in results",
               "sweep point %zu has no label", i + 1);
    if (r) bad = -1;
  }
  if (bad) return -1;
  /* Duplicate labels in O(n log n); report the earliest repeat. */
  struct dupkey *keys = malloc(s->npts * sizeof *keys);
  if (!keys) return oom(L);
  for (size_t j = 0; j < s->npts; j++) keys[j] = (struct dupkey){s->pts[j].label, -1, j};
  size_t first = 0, dup = find_dup(keys, s->npts, &first);
  free(keys);
  if (dup != (size_t)-1) {
    char at[NC_PATH_MAX + 40];
    pos_text(s, s->pts[first].at, at, sizeof at);
    struct nc__node where = {.line = s->pts[dup].at.line, .col = s->pts[dup].at.col};
    return fail(L, file, &where, "give each point its own label",
                "duplicate point label '%s' (first at %s)", s->pts[dup].label, at);
  }
  return 0;
}

/* Adds path to the swept-key list unless present. */
static int add_swept(struct loader *L, const char *path) {
  struct nc_scenario *s = L->s;
  for (size_t i = 0; i < s->nswept; i++)
    if (strcmp(s->swept[i], path) == 0) return 0;
  const char **w = realloc(s->swept, (s->nswept + 1) * sizeof *w);
  if (!w) return oom(L);
  s->swept = w;
  w[s->nswept++] = path;
  return 0;
}

/* qsort comparison of two char pointers. */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Checks axes against points, lists the swept keys and builds the labels. */
static int expand(struct loader *L, int file, const struct nc__node *sweep) {
  struct nc_scenario *s = L->s;
  for (size_t p = 0; p < s->npts; p++) {
    const struct nc__point *pt = &s->pts[p];
    for (size_t a = 0; a < s->naxes; a++) {
      const struct nc__axis *ax = &s->axes[a];
      const struct nc__assign *as = ax->key ? layer_find(&pt->layer, ax->key) : NULL;
      struct nc__pos at;
      if (as)
        at = as->at;
      else if (!ax->key && pt->plat.plat >= 0)
        at = pt->plat.at;
      else
        continue;
      char axat[NC_PATH_MAX + 40];
      pos_text(s, ax->at, axat, sizeof axat);
      struct nc__node where = {.line = at.line, .col = at.col};
      return fail(L, at.file, &where,
                  "set it in one place: remove it from the point or from sweep.axes",
                  "%s is set by sweep point '%s' and is also a sweep axis (at %s)", ax->path,
                  pt->label, axat);
    }
  }
  for (size_t a = 0; a < s->naxes; a++)
    if (add_swept(L, s->axes[a].path)) return -1;
  for (size_t p = 0; p < s->npts; p++) {
    if (s->pts[p].plat.plat >= 0 && add_swept(L, "platform")) return -1;
    for (size_t j = 0; j < s->pts[p].layer.n; j++)
      if (add_swept(L, s->pts[p].layer.a[j].key->path)) return -1;
  }
  if (s->repeats > 1 && add_swept(L, nc_keys()[NC_KEY_run_seed].path)) return -1;
  size_t total = s->npts ? s->npts : 1;
  for (size_t d = 0; d <= s->ndims; d++) {
    size_t n = d < s->ndims ? s->dimn[d] : (s->repeats > 1 ? s->repeats : 1);
    if (total > NC__MAX_POINTS / n)
      return fail(L, file, sweep, "split the sweep into several scenarios",
                  "the sweep has more than %d points", NC__MAX_POINTS);
    total *= n;
  }
  s->labels = calloc(total, sizeof *s->labels);
  if (!s->labels) return oom(L);
  size_t ax[NC_KEY__COUNT + 1];
  for (size_t i = 0; i < total; i++) {
    char label[4 * NC_STR_MAX];
    size_t p, rep, used = 0;
    decompose(s, i, &p, ax, &rep);
    label[0] = 0;
    if (s->npts) used += (size_t)snprintf(label, sizeof label, "%s", s->pts[p].label);
    for (size_t a = 0; a < s->naxes && used < sizeof label; a++)
      used += (size_t)snprintf(label + used, sizeof label - used, "%s%s=%s", used ? "/" : "",
                               s->axes[a].path, s->axes[a].vals[ax[a]].text);
    if (s->repeats > 1 && used < sizeof label)
      used += (size_t)snprintf(label + used, sizeof label - used, "%srepeat=%zu", used ? "/" : "",
                               rep + 1);
    if (used >= NC_STR_MAX)
      return fail(L, file, sweep, "use shorter point labels or fewer axes",
                  "sweep point label '%.60s...' is longer than %d bytes", label, NC_STR_MAX - 1);
    s->labels[i] = dup_str(label);
    if (!s->labels[i]) return oom(L);
    s->npoints = i + 1;
  }
  /* Labels are unique by construction (unique point labels and axis values,
   * with the same keys after every point label); check anyway. */
  char **sorted = malloc(total * sizeof *sorted);
  if (!sorted) return oom(L);
  memcpy(sorted, s->labels, total * sizeof *sorted);
  qsort(sorted, total, sizeof *sorted, cmp_str);
  for (size_t i = 1; i < total; i++)
    if (strcmp(sorted[i - 1], sorted[i]) == 0) {
      int r = fail(L, file, sweep, "give each point its own label",
                   "two sweep points have the label '%s'", sorted[i]);
      free(sorted);
      return r;
    }
  free(sorted);
  s->baseline_idx = -1;
  if (s->baseline) {
    for (size_t i = 0; i < total && s->baseline_idx < 0; i++)
      if (strcmp(s->labels[i], s->baseline) == 0) s->baseline_idx = (long)i;
    if (s->baseline_idx < 0) {
      char hint[512];
      nc__fmt(hint, sizeof hint, "name one of the %zu point labels, e.g. '%s'", total,
              s->labels[0]);
      struct nc__node where = {.line = s->baseline_at.line, .col = s->baseline_at.col};
      return fail(L, s->baseline_at.file, &where, hint, "sweep.baseline '%s' is not a point label",
                  s->baseline);
    }
  }
  return 0;
}

/* Loads the sweep mapping and expands it into points. */
static int load_sweep(struct loader *L, int file, const struct nc__node *v) {
  if (v->kind != NC__MAP || v->n == 0)
    return fail(L, file, v, "write 'sweep:' with 'axes:' and/or 'points:' under it",
                "sweep must be a mapping with 'axes' and/or 'points', but it is %s",
                v->kind == NC__MAP ? "an empty mapping" : nc__node_kind_name(v));
  /* Collecting errors, each of axes, zip, points, repeats and baseline is
   * read even after another failed (its own first error is reported), but
   * a sweep with any error is not expanded. */
  int bad = 0;
  for (size_t i = 0; i < v->n && (!bad || go_on(L)); i++) {
    const struct nc__node *kn = v->items[2 * i], *vn = v->items[2 * i + 1];
    if (strcmp(kn->text, "axes") == 0) {
      if (load_axes(L, file, vn, false)) bad = -1;
    } else if (strcmp(kn->text, "zip") == 0) {
      if (load_zip(L, file, vn)) bad = -1;
    } else if (strcmp(kn->text, "points") == 0) {
      if (load_points(L, file, vn)) bad = -1;
    } else if (strcmp(kn->text, "repeats") == 0) {
      if (load_repeats(L, file, vn)) bad = -1;
    } else if (strcmp(kn->text, "baseline") == 0) {
      if (get_string(L, file, vn, "sweep.baseline", &L->s->baseline) ||
          no_ctrl(L, file, vn, "sweep.baseline", L->s->baseline))
        bad = -1;
      else
        L->s->baseline_at = pos_of(file, vn);
    } else {
      size_t da = nc__edit_distance(kn->text, "axes"), dp = nc__edit_distance(kn->text, "points");
      const char *hint = da <= 2 && da <= dp ? "did you mean 'axes'?"
                         : dp <= 2          ? "did you mean 'points'?"
                                            : "sweep holds 'axes', 'zip', 'points', 'repeats' and 'baseline'";
      bad = fail(L, file, kn, hint, "unknown key 'sweep.%s'", kn->text);
    }
  }
  if (bad) return -1;
  /* Only repeats: 1 and a baseline: one point with nothing to tell it by
   * (an empty label), which no sweep means. */
  if (L->s->ndims == 0 && L->s->npts == 0 && L->s->repeats <= 1)
    return fail(L, file, v,
                "add 'axes:' (e.g. nic.desc_spacing: [16, 32]), 'points:' or 'repeats: 2' or more; "
                "for a single run, leave 'sweep:' out",
                "sweep varies nothing: it has no axes, zip groups or points, and repeats is 1");
  return expand(L, file, v);
}

/* ---- plots ------------------------------------------------------------------------- */

/* The origin of node n in file `file`. */
static void origin_of(const struct nc_scenario *s, int file, const struct nc__node *n,
                      struct nc_origin *o) {
  nc__fmt(o->file, sizeof o->file, "%s", s->files[file]);
  o->line = n->line;
  o->col = n->col;
}

/* Copies a scalar of at most n-1 bytes into buf; errors at v. */
static int plot_text(struct loader *L, int file, const struct nc__node *v, const char *what,
                     char *buf, size_t n) {
  if (v->kind != NC__SCALAR)
    return fail(L, file, v, "write a single value", "plot %s must be a single value, but it is %s",
                what, nc__node_kind_name(v));
  if (strlen(v->text) >= n)
    return fail(L, file, v, NULL, "plot %s is longer than %zu bytes", what, n - 1);
  char whatp[40];
  nc__fmt(whatp, sizeof whatp, "plot %s", what);
  if (no_ctrl(L, file, v, whatp, v->text)) return -1;
  nc__fmt(buf, n, "%s", v->text);
  return 0;
}

/* The first character of name that a plot name may not hold (it becomes a
 * file name: letters, digits, _ and -), or NULL if there is none. */
const char *nc_plot_name_bad_char(const char *name) {
  for (; *name; name++)
    if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
          (*name >= '0' && *name <= '9') || *name == '_' || *name == '-'))
      return name;
  return NULL;
}

/* Reads a plot's true/false flag. */
static int plot_bool(struct loader *L, int file, const struct nc__node *v, const char *what,
                     bool *out) {
  if (v->kind == NC__SCALAR && !v->quoted && strcmp(v->text, "true") == 0) *out = true;
  else if (v->kind == NC__SCALAR && !v->quoted && strcmp(v->text, "false") == 0) *out = false;
  else return fail(L, file, v, "write true or false", "plot %s must be true or false", what);
  return 0;
}

/* Loads the scenario's `plots:` list (x and series are checked against the
 * swept keys once the whole file is read). */
static int load_plots(struct loader *L, int file, const struct nc__node *v) {
  struct nc_scenario *s = L->s;
  static const char *const words[] = {"name", "title", "x", "y", "series", "panels", "kind",
                                      "logx", "logy", "xlabel", "ylabel"};
  if (v->kind != NC__SEQ || v->n == 0)
    return fail(L, file, v, "write one '- {x: KEY, y: METRIC}' item per plot",
                "plots must be a non-empty list of plots, but it is %s",
                v->kind == NC__SEQ ? "an empty list" : nc__node_kind_name(v));
  if (v->n > 100) return fail(L, file, v, "split the scenario", "more than 100 plots");
  s->plots = calloc(v->n, sizeof *s->plots);
  if (!s->plots) return oom(L);
  for (size_t i = 0; i < v->n; i++) {
    const struct nc__node *item = v->items[i];
    struct nc_plot *pl = &s->plots[s->nplots++];
    bool have_x = false;
    origin_of(s, file, item, &pl->at);
    if (item->kind != NC__MAP)
      return fail(L, file, item, "write e.g. '- {x: nic.desc_spacing, y: rx.gbps}'",
                  "plot %zu must be a mapping, but it is %s", i + 1, nc__node_kind_name(item));
    nc__fmt(pl->name, sizeof pl->name, "plot%zu", i + 1);
    for (size_t j = 0; j < item->n; j++) {
      const struct nc__node *kn = item->items[2 * j], *vn = item->items[2 * j + 1];
      const char *w = kn->text;
      int r = 0;
      if (strcmp(w, "name") == 0) {
        const char *c;
        r = plot_text(L, file, vn, "name", pl->name, sizeof pl->name);
        if (!r && !pl->name[0])
          r = fail(L, file, vn,
                   "a plot name becomes a file name (plots/NAME.svg): use letters, digits, _ "
                   "and -, or leave name out (plot1, plot2, ...)",
                   "plot name is empty");
        else if (!r && (c = nc_plot_name_bad_char(pl->name)) != NULL)
          r = fail(L, file, vn, "a plot name becomes a file name: use letters, digits, _ and -",
                   "plot name '%s' holds '%c'", pl->name, *c);
      } else if (strcmp(w, "title") == 0) {
        r = plot_text(L, file, vn, "title", pl->title, sizeof pl->title);
      } else if (strcmp(w, "x") == 0) {
        r = plot_text(L, file, vn, "x", pl->x, sizeof pl->x);
        have_x = true;
      } else if (strcmp(w, "series") == 0) {
        r = plot_text(L, file, vn, "series", pl->series, sizeof pl->series);
      } else if (strcmp(w, "xlabel") == 0) {
        r = plot_text(L, file, vn, "xlabel", pl->xlabel, sizeof pl->xlabel);
      } else if (strcmp(w, "ylabel") == 0) {
        r = plot_text(L, file, vn, "ylabel", pl->ylabel, sizeof pl->ylabel);
      } else if (strcmp(w, "logx") == 0) {
        r = plot_bool(L, file, vn, "logx", &pl->logx);
      } else if (strcmp(w, "logy") == 0) {
        r = plot_bool(L, file, vn, "logy", &pl->logy);
      } else if (strcmp(w, "kind") == 0) {
        if (vn->kind == NC__SCALAR && strcmp(vn->text, "line") == 0) pl->kind = NC_PLOT_LINE;
        else if (vn->kind == NC__SCALAR && strcmp(vn->text, "bar") == 0) pl->kind = NC_PLOT_BAR;
        else r = fail(L, file, vn, "write kind: line or kind: bar", "plot kind must be line or bar");
      } else if (strcmp(w, "y") == 0) {
        size_t n = vn->kind == NC__SEQ ? vn->n : 1;
        if (vn->kind == NC__MAP || n == 0 || n > NC_PLOT_MAX_Y)
          return fail(L, file, vn, "write one metric (y: rx.gbps) or a list (y: [rx.gbps, tx.gbps])",
                      "plot y must be a metric name or a list of 1 to %d metric names",
                      NC_PLOT_MAX_Y);
        for (size_t q = 0; q < n && !r; q++) {
          const struct nc__node *m = vn->kind == NC__SEQ ? vn->items[q] : vn;
          r = plot_text(L, file, m, "y", pl->y[q], sizeof pl->y[q]);
          origin_of(s, file, m, &pl->y_at[q]);
        }
        pl->ny = n;
      } else if (strcmp(w, "panels") == 0) {
        size_t n = vn->kind == NC__SEQ ? vn->n : 1;
        if (vn->kind == NC__MAP || n == 0 || n > NC_PLOT_MAX_PANEL_KEYS)
          return fail(L, file, vn,
                      "write one swept key (panels: nic.desc_spacing) or a list "
                      "(panels: [nic.desc_spacing, traffic.frame_bytes])",
                      "plot panels must be a swept key or a list of 1 to %d swept keys",
                      NC_PLOT_MAX_PANEL_KEYS);
        for (size_t q = 0; q < n && !r; q++) {
          const struct nc__node *m = vn->kind == NC__SEQ ? vn->items[q] : vn;
          r = plot_text(L, file, m, "panels", pl->panels[q], sizeof pl->panels[q]);
          origin_of(s, file, m, &pl->panels_at[q]);
        }
        pl->npanels = n;
      } else {
        char hint[300] = "a plot holds", *o = hint + strlen(hint);
        for (size_t q = 0; q < sizeof words / sizeof *words; q++)
          o += snprintf(o, sizeof hint - (size_t)(o - hint), "%s %s", q ? "," : "", words[q]);
        r = fail(L, file, kn, hint, "unknown plot key '%s'", w);
      }
      if (r) return -1;
    }
    if (!have_x || pl->ny == 0)
      return fail(L, file, item, "a plot needs at least x (a swept key) and y (a metric)",
                  "plot %zu has no %s", i + 1, have_x ? "y" : "x");
    for (size_t q = 0; q + 1 < s->nplots; q++)
      if (strcmp(s->plots[q].name, pl->name) == 0)
        return fail(L, file, item, "give each plot its own name", "two plots are named '%s'",
                    pl->name);
  }
  return 0;
}

/* True if key is a swept key of s or "label". */
static bool plot_key_ok(const struct nc_scenario *s, const char *key) {
  if (strcmp(key, "label") == 0) return true;
  for (size_t i = 0; i < s->nswept; i++)
    if (strcmp(s->swept[i], key) == 0) return true;
  return false;
}

/* Checks every plot's x and series against the swept keys. */
static int check_plots(struct loader *L) {
  struct nc_scenario *s = L->s;
  char list[400] = "label";
  int r = 0;
  for (size_t i = 0; i < s->nswept; i++) {
    size_t used = strlen(list);
    nc__fmt(list + used, sizeof list - used, ", %s", s->swept[i]);
  }
  if (s->nplots > 0 && s->npoints == 0) {
    nc__error_set(L->err, s->plots[0].at.file, s->plots[0].at.line, s->plots[0].at.col,
                  "plots draw the points of a sweep: add a 'sweep:' section",
                  "plots are declared but there is no sweep");
    return failed_elsewhere(L);
  }
  for (size_t i = 0; i < s->nplots; i++) {
    const struct nc_plot *pl = &s->plots[i];
    const char *bad = !plot_key_ok(s, pl->x) ? pl->x
                      : pl->series[0] && !plot_key_ok(s, pl->series) ? pl->series : NULL;
    if (bad) {
      char hint[512];
      nc__fmt(hint, sizeof hint, "x and series name swept keys: %s", list);
      nc__error_set(L->err, pl->at.file, pl->at.line, pl->at.col, hint,
                    "plot '%s': '%s' is not a swept key", pl->name, bad);
      r = failed_elsewhere(L);
      if (!go_on(L)) return r;
      continue;
    }
    /* A panel key is a swept key the plot does not already show, named once
     * ("label" is one per point: a panel each would show single points). */
    for (size_t q = 0; q < pl->npanels; q++) {
      const char *k = pl->panels[q];
      const struct nc_origin *o = &pl->panels_at[q];
      char hint[512];
      bool twice = false;
      for (size_t p = 0; p < q; p++)
        twice = twice || strcmp(pl->panels[p], k) == 0;
      nc__fmt(hint, sizeof hint, "panels name swept keys other than x and series: %s",
              strlen(list) > strlen("label, ") ? list + strlen("label, ") : "none");
      if (strcmp(k, "label") == 0 || !plot_key_ok(s, k)) {
        nc__error_set(L->err, o->file, o->line, o->col, hint,
                      "plot '%s': panels key '%s' is not a swept key", pl->name, k);
      } else if (strcmp(k, pl->x) == 0 || strcmp(k, pl->series) == 0 || twice) {
        nc__error_set(L->err, o->file, o->line, o->col,
                      "a key splits panels, or is x, or is the series: name it once",
                      "plot '%s': panels key '%s' is already %s", pl->name, k,
                      twice ? "a panels key" : strcmp(k, pl->x) == 0 ? "x" : "the series");
      } else {
        continue;
      }
      r = failed_elsewhere(L);
      if (!go_on(L)) return r;
    }
  }
  return r;
}

/* ---- files ------------------------------------------------------------------------- */

/* Loads the top-level mapping of a scenario or platform file. */
static int load_top(struct loader *L, int file, const struct nc__node *root, enum file_kind kind,
                    struct nc__layer *layer) {
  struct nc_scenario *s = L->s;
  char *ignored = NULL;
  /* Is it a nicsim file at all? Checked before any value is read, so that no
   * error quotes a file that is not one (unknown_top). */
  for (size_t i = 0; i < root->n; i++)
    if (!top_key_known(root->items[2 * i]->text)) {
      L->not_ours = true; /* no file of ours: nothing more is read from it */
      return unknown_top(L, file, root->items[2 * i], kind);
    }
  int bad = 0;
  for (size_t i = 0; i < root->n; i++) {
    const struct nc__node *kn = root->items[2 * i], *vn = root->items[2 * i + 1];
    const char *w = kn->text;
    int r;
    if (strcmp(w, "name") == 0 || strcmp(w, "description") == 0) {
      char **dst = kind == KIND_SCENARIO ? (w[0] == 'n' ? &s->name : &s->description) : &ignored;
      r = get_string(L, file, vn, w, dst);
    } else if (strcmp(w, "platform") == 0 && kind == KIND_SCENARIO) {
      r = platform_ref(L, file, vn, &s->base_plat);
      /* Without its platform, no rule on the config would speak of it. */
      if (r && s->base_plat.plat < 0) s->no_rules = true;
    } else if (strcmp(w, "sweep") == 0 && kind == KIND_SCENARIO) {
      r = load_sweep(L, file, vn);
      if (r) s->no_points = true;
    } else if (strcmp(w, "plots") == 0 && kind == KIND_SCENARIO) {
      r = load_plots(L, file, vn);
      if (r) L->plots_bad = true; /* then no check of the plots' keys */
    } else if (kind == KIND_PLATFORM && (strcmp(w, "platform") == 0 || strcmp(w, "sweep") == 0 ||
                                         strcmp(w, "plots") == 0)) {
      r = fail(L, file, kn,
               "a platform file holds only name, description and configuration sections; "
               "name platforms and sweeps in a scenario",
               "'%s' is not allowed in a platform file", w);
    } else if (kind == KIND_OVERLAY && (strcmp(w, "platform") == 0 || strcmp(w, "sweep") == 0 ||
                                        strcmp(w, "plots") == 0)) {
      r = fail(L, file, kn,
               "an overlay holds only name, description and configuration keys; name platforms, "
               "sweeps and plots in the scenario",
               "'%s' is not allowed in an overlay", w);
    } else {
      r = load_entry(L, file, layer, kn, vn, kind);
      if (r == 1) r = unknown_top(L, file, kn, kind);
    }
    if (r && !go_on(L)) {
      free(ignored);
      return -1;
    }
    if (r) bad = -1;
  }
  free(ignored);
  return bad;
}

/* Frees a scenario and everything it owns. */
void nc_scenario_free(struct nc_scenario *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nfiles; i++) free(s->files[i]);
  free(s->files);
  free(s->fids);
  free(s->name);
  free(s->description);
  free(s->base_plat.text);
  for (size_t i = 0; i < s->nplats; i++) {
    free(s->plats[i].path);
    layer_free(&s->plats[i].layer);
  }
  free(s->plats);
  layer_free(&s->base);
  for (size_t a = 0; a < s->naxes; a++) {
    for (size_t j = 0; j < s->axes[a].n; j++) {
      free_value(s->axes[a].key, &s->axes[a].vals[j].v);
      free(s->axes[a].vals[j].text);
      free(s->axes[a].vals[j].plat.text);
    }
    free(s->axes[a].vals);
  }
  free(s->axes);
  for (size_t p = 0; p < s->npts; p++) {
    free(s->pts[p].label);
    free(s->pts[p].plat.text);
    layer_free(&s->pts[p].layer);
  }
  free(s->pts);
  for (size_t i = 0; i < s->npoints; i++) free(s->labels[i]);
  free(s->labels);
  free(s->dimn);
  free(s->baseline);
  free(s->plots);
  free(s->swept);
  for (size_t i = 0; i < s->noverlays; i++) layer_free(&s->overlays[i]);
  free(s->overlays);
  free(s->overlay_file);
  free(s);
}

/* Loads a scenario from text of len bytes; name is its display name. */
static int load_text(const char *name, const char *text, size_t len, const struct stat *st,
                     struct nc_scenario **out, struct nc_error *err, struct nc_errors *all) {
  struct nc_error dummy;
  if (!err) err = &dummy;
  *out = NULL;
  struct nc_scenario *s = calloc(1, sizeof *s);
  struct loader L;
  memset(&L, 0, sizeof L);
  L.s = s;
  L.err = err;
  L.all = all;
  if (!s || add_file(s, name, st) < 0) {
    nc_scenario_free(s);
    nc__error_set(err, name, 0, 0, NULL, "out of memory");
    if (all) nc_errors_add(all, err);
    return -1;
  }
  s->base_plat.plat = -1;
  const char *path = name;
  if (strncmp(name, BUILTIN_PREFIX, sizeof BUILTIN_PREFIX - 1) == 0) {
    L.builtin = true;
    path = name + sizeof BUILTIN_PREFIX - 1;
  }
  /* Every file name is kept whole (errors and origins name it): a longer one
   * is an error, never cut. */
  if (strlen(name) >= NC_PATH_MAX) {
    nc_scenario_free(s);
    nc__error_set(err, name, 0, 0, "move the scenario to a shorter path, or run from nearer it",
                  "the scenario's path is %zu bytes long; the limit is %d", strlen(name),
                  NC_PATH_MAX - 1);
    if (all) nc_errors_add(all, err);
    return -1;
  }
  const char *slash = strrchr(path, '/');
  if (slash) nc__fmt(L.dir, sizeof L.dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
  size_t n0 = all ? nc_errors_count(all) : 0;
  struct nc__node *root = nc__yaml_parse_all(name, text, len, top_key_known, err, all);
  if (!root) {
    if (all) nc_errors_add(all, err);
    nc_scenario_free(s);
    return -1;
  }
  int r = load_top(&L, 0, root, KIND_SCENARIO, &s->base);
  nc__node_free(root);
  if ((r == 0 || (go_on(&L) && !L.not_ours)) && !s->no_points && !L.plots_bad &&
      check_plots(&L))
    r = -1;
  if (all && nc_errors_count(all) > n0) r = -1; /* duplicate keys count too */
  if (r && (!all || L.fatal || L.not_ours)) {
    nc_scenario_free(s);
    return -1;
  }
  *out = s; /* collecting: usable for resolve_all even with errors */
  return r;
}

/* Loads a scenario file; NULL loads the built-in default scenario. */
int nc_scenario_load(const char *path, struct nc_scenario **out, struct nc_error *err) {
  if (!path) return nc_scenario_load_builtin("scenarios/default.yaml", out, err);
  *out = NULL;
  size_t len = 0;
  struct stat st;
  char *text = nc__read_file_ex(path, NC__MAX_FILE_BYTES, &st, &len, err);
  if (!text) return -1;
  int r = load_text(path, text, len, S_ISREG(st.st_mode) ? &st : NULL, out, err, NULL);
  free(text);
  return r;
}

/* Loads a scenario file collecting every error; see config.h. */
int nc_scenario_load_all(const char *path, struct nc_scenario **out, struct nc_errors *errs) {
  struct nc_error err;
  memset(&err, 0, sizeof err);
  *out = NULL;
  if (!path) {
    if (nc_scenario_load_builtin("scenarios/default.yaml", out, &err) == 0) return 0;
    nc_errors_add(errs, &err);
    return -1;
  }
  size_t len = 0;
  struct stat st;
  char *text = nc__read_file_ex(path, NC__MAX_FILE_BYTES, &st, &len, &err);
  if (!text) {
    nc_errors_add(errs, &err);
    return -1;
  }
  int r = load_text(path, text, len, S_ISREG(st.st_mode) ? &st : NULL, out, &err, errs);
  free(text);
  return r;
}

/* The same from a string. */
int nc_scenario_load_string_all(const char *name, const char *text, struct nc_scenario **out,
                                struct nc_errors *errs) {
  struct nc_error err;
  memset(&err, 0, sizeof err);
  *out = NULL;
  if (!name) name = "<string>";
  if (!text) {
    nc__error_set(&err, name, 0, 0, NULL, "no scenario text");
    nc_errors_add(errs, &err);
    return -1;
  }
  return load_text(name, text, strlen(text), NULL, out, &err, errs);
}

/* Loads a scenario from a string; name is used in error positions. */
int nc_scenario_load_string(const char *name, const char *text, struct nc_scenario **out,
                            struct nc_error *err) {
  if (!name) name = "<string>";
  if (!text) {
    *out = NULL;
    nc__error_set(err, name, 0, 0, NULL, "no scenario text");
    return -1;
  }
  return load_text(name, text, strlen(text), NULL, out, err, NULL);
}

/* Loads a built-in scenario by table path or short name. */
int nc_scenario_load_builtin(const char *name, struct nc_scenario **out, struct nc_error *err) {
  char rel[NC_PATH_MAX], disp[NC_PATH_MAX + 16];
  *out = NULL;
  const char *text = NULL;
  if (name && strlen(name) < NC_PATH_MAX - 40) {
    nc__fmt(rel, sizeof rel, "%s", name);
    text = nicsim_builtin_find(rel);
    if (!text && !strchr(name, '/') && !ends_with(name, ".yaml")) {
      nc__fmt(rel, sizeof rel, "scenarios/%s.yaml", name);
      text = nicsim_builtin_find(rel);
      if (!text) {
        nc__fmt(rel, sizeof rel, "scenarios/seeds/%s.yaml", name);
        text = nicsim_builtin_find(rel);
      }
    }
  }
  if (!text) {
    char list[400] = "";
    for (const struct nicsim_builtin_file *f = nicsim_builtin_files; f->path; f++) {
      if (strncmp(f->path, "scenarios/", 10) != 0) continue;
      size_t used = strlen(list);
      if (used + strlen(f->path) + 8 < sizeof list)
        nc__fmt(list + used, sizeof list - used, "%s%s", used ? ", " : "", f->path);
    }
    char hint[512];
    nc__fmt(hint, sizeof hint, "built-in scenarios: %s", list[0] ? list : "(none)");
    nc__error_set(err, "<builtin>", 0, 0, hint, "no built-in scenario '%s'", name ? name : "");
    return -1;
  }
  nc__fmt(disp, sizeof disp, "%s%s", BUILTIN_PREFIX, rel);
  return load_text(disp, text, strlen(text), NULL, out, err, NULL);
}

/* Adds an overlay file (all: collecting errors, else NULL). */
static int add_overlay(struct nc_scenario *s, const char *path, struct nc_error *err,
                       struct nc_errors *all);

/* Adds an overlay file: its keys apply to every point after the sweep point. */
int nc_scenario_add_overlay(struct nc_scenario *s, const char *path, struct nc_error *err) {
  struct nc_error dummy;
  if (!err) err = &dummy;
  return add_overlay(s, path, err, NULL);
}

/* The same, collecting every error; see config.h. */
int nc_scenario_add_overlay_all(struct nc_scenario *s, const char *path, struct nc_errors *errs) {
  struct nc_error err;
  memset(&err, 0, sizeof err);
  size_t n0 = nc_errors_count(errs), nov = nc_scenario_noverlays(s);
  int r = add_overlay(s, path, &err, errs);
  if (r && nc_errors_count(errs) == n0) nc_errors_add(errs, &err);
  if (r && s && nc_scenario_noverlays(s) == nov) s->no_rules = true; /* not applied */
  return r;
}

static int add_overlay(struct nc_scenario *s, const char *path, struct nc_error *err,
                       struct nc_errors *all) {
  if (!s || !path || !path[0]) {
    nc__error_set(err, path ? path : "", 0, 0, NULL, "no overlay file given");
    return -1;
  }
  /* An overlay is read as a platform file is (issue 23, #1, #2, #6): its path
   * kept whole, a regular file of at most NC__MAX_PLATFORM_BYTES, parsed so
   * that no error shows the content of a file that is no overlay, and
   * identified by device and inode so that no output of the command replaces
   * it (nc_scenario_input). */
  if (strlen(path) >= NC_PATH_MAX) {
    nc__error_set(err, path, 0, 0, "move the overlay to a shorter path, or run from nearer it",
                  "the overlay's path is %zu bytes long; the limit is %d", strlen(path),
                  NC_PATH_MAX - 1);
    return -1;
  }
  size_t len = 0;
  struct stat st;
  char *text = nc__read_file_ex(path, NC__MAX_PLATFORM_BYTES, &st, &len, err);
  if (!text) return -1;
  struct nc__layer *ov = realloc(s->overlays, (s->noverlays + 1) * sizeof *ov);
  if (ov) s->overlays = ov;
  int *of = ov ? realloc(s->overlay_file, (s->noverlays + 1) * sizeof *of) : NULL;
  if (of) s->overlay_file = of;
  int file = of ? add_file(s, path, &st) : -1;
  if (file < 0) {
    free(text);
    nc__error_set(err, path, 0, 0, NULL, "out of memory");
    return -1;
  }
  struct loader L;
  memset(&L, 0, sizeof L);
  L.s = s;
  L.err = err;
  L.all = all;
  struct nc__layer layer = {0};
  size_t n0 = all ? nc_errors_count(all) : 0;
  struct nc__node *root = nc__yaml_parse_all(path, text, len, top_key_known, err, all);
  free(text);
  int r = root ? load_top(&L, file, root, KIND_OVERLAY, &layer) : -1;
  nc__node_free(root);
  if (all && nc_errors_count(all) > n0) r = -1;
  /* Collecting, an overlay with refused values still applies (the rest of
   * its keys); one that cannot be read or is no overlay leaves the rules
   * unchecked. */
  if (r && (!all || !root || L.fatal || L.not_ours)) {
    if (all) s->no_rules = true;
    layer_free(&layer);
    return -1;
  }
  s->overlays[s->noverlays] = layer;
  s->overlay_file[s->noverlays] = file;
  s->noverlays++;
  return r;
}

/* The scenario file's display name. */
const char *nc_scenario_file(const struct nc_scenario *s) { return s ? s->files[0] : ""; }

/* Number of overlays added. */
size_t nc_scenario_noverlays(const struct nc_scenario *s) { return s ? s->noverlays : 0; }

/* File of overlay i, or NULL. */
const char *nc_scenario_overlay_file(const struct nc_scenario *s, size_t i) {
  return s && i < s->noverlays ? s->files[s->overlay_file[i]] : NULL;
}

/* True if overlay i sets key k. */
bool nc_scenario_overlay_sets(const struct nc_scenario *s, size_t i, const struct nc_key *k) {
  return s && i < s->noverlays && layer_find(&s->overlays[i], k) != NULL;
}

/* ---- sweep queries ------------------------------------------------------------------- */

/* The i-th file the scenario was loaded from that is on disk (the scenario,
 * its platform files, its overlays); see config.h. */
bool nc_scenario_input(const struct nc_scenario *s, size_t i, const char **path, uint64_t *dev,
                       uint64_t *ino) {
  if (!s) return false;
  for (size_t f = 0; f < s->nfiles; f++) {
    if (!s->fids[f].disk) continue;
    if (i-- > 0) continue;
    if (path) *path = s->files[f];
    if (dev) *dev = s->fids[f].dev;
    if (ino) *ino = s->fids[f].ino;
    return true;
  }
  return false;
}

/* Number of sweep points (0 without a sweep). */
size_t nc_scenario_npoints(const struct nc_scenario *s) {
  return s && !s->no_points ? s->npoints : 0; /* a sweep with errors has none */
}

/* Label of point i, or NULL if out of range. */
const char *nc_scenario_point_label(const struct nc_scenario *s, size_t i) {
  return s && i < s->npoints ? s->labels[i] : NULL;
}

/* Index of the point with this label, or -1. */
long nc_scenario_find_point(const struct nc_scenario *s, const char *label) {
  if (!s || !label) return -1;
  for (size_t i = 0; i < s->npoints; i++)
    if (strcmp(s->labels[i], label) == 0) return (long)i;
  return -1;
}

/* Number of keys that vary across the sweep. */
size_t nc_scenario_nswept(const struct nc_scenario *s) { return s ? s->nswept : 0; }

/* Swept key i ("nic.desc_spacing" or "platform"), or NULL. */
const char *nc_scenario_swept_key(const struct nc_scenario *s, size_t i) {
  return s && i < s->nswept ? s->swept[i] : NULL;
}

/* Number of declared plots. */
size_t nc_scenario_nplots(const struct nc_scenario *s) { return s ? s->nplots : 0; }

/* Declared plot i, or NULL. */
const struct nc_plot *nc_scenario_plot(const struct nc_scenario *s, size_t i) {
  return s && i < s->nplots ? &s->plots[i] : NULL;
}

/* Index of the baseline point, or -1. */
long nc_scenario_baseline(const struct nc_scenario *s) {
  return s && s->baseline && s->npoints ? s->baseline_idx : -1;
}

/* Repeats per point (1 without sweep.repeats). */
size_t nc_scenario_repeats(const struct nc_scenario *s) {
  return s && s->repeats > 1 ? s->repeats : 1;
}

/* ---- resolution ------------------------------------------------------------------------- */

/* Stores one value into c with its origin and layer. */
static void apply_one(const struct nc_scenario *s, struct nicsim_config *c, enum nc_layer layer,
                      const struct nc_key *k, const union nc__v *v, struct nc__pos at) {
  size_t id = (size_t)(k - nc_keys());
  nc__value_store(c, k, v);
  struct nc_origin *o = &c->origin[id];
  nc__fmt(o->file, sizeof o->file, "%s", s->files[at.file]);
  o->line = at.line;
  o->col = at.col;
  o->layer = layer;
}

/* Marks key k as refused at `at` (collecting errors): the value stays that of
 * the layers below; the origin names the refused text. */
static void refuse_one(const struct nc_scenario *s, struct nicsim_config *c, const struct nc_key *k,
                       struct nc__pos at) {
  struct nc_origin *o = &c->origin[k - nc_keys()];
  nc__fmt(o->file, sizeof o->file, "%s", s->files[at.file]);
  o->line = at.line;
  o->col = at.col;
  o->layer = NC_LAYER_REFUSED;
}

/* Applies every value of a layer (a refused one only as its origin). */
static void apply_layer(const struct nc_scenario *s, struct nicsim_config *c, enum nc_layer layer,
                        const struct nc__layer *l) {
  for (size_t i = 0; i < l->n; i++) {
    if (l->a[i].refused)
      refuse_one(s, c, l->a[i].key, l->a[i].at);
    else
      apply_one(s, c, layer, l->a[i].key, &l->a[i].v, l->a[i].at);
  }
}

/* Resolves one point (all: collecting errors, else NULL). */
static int resolve(const struct nc_scenario *s, long point, const char *const *sets, size_t nsets,
                   struct nicsim_config *out, struct nc_error *err, struct nc_errors *all);

/* Resolves one point, applies --set overrides and checks the result. */
int nc_scenario_resolve(const struct nc_scenario *s, long point, const char *const *sets,
                        size_t nsets, struct nicsim_config *out, struct nc_error *err) {
  struct nc_error dummy;
  if (!err) err = &dummy;
  return resolve(s, point, sets, nsets, out, err, NULL);
}

/* The same, collecting every error; see config.h. */
int nc_scenario_resolve_all(const struct nc_scenario *s, long point, const char *const *sets,
                            size_t nsets, struct nicsim_config *out, struct nc_errors *errs) {
  struct nc_error err;
  memset(&err, 0, sizeof err);
  return resolve(s, point, sets, nsets, out, &err, errs);
}

static int resolve(const struct nc_scenario *s, long point, const char *const *sets, size_t nsets,
                   struct nicsim_config *out, struct nc_error *err, struct nc_errors *all) {
  if (!s || !out) {
    nc__error_set(err, "", 0, 0, NULL, "no scenario to resolve");
    if (all) nc_errors_add(all, err);
    return -1;
  }
  if (point < -1 || (point >= 0 && (size_t)point >= nc_scenario_npoints(s))) {
    char hint[200];
    if (s->npoints)
      nc__fmt(hint, sizeof hint, "points are numbered 0 to %zu", s->npoints - 1);
    else
      nc__fmt(hint, sizeof hint, "this scenario has no sweep; resolve point -1");
    nc__error_set(err, s->files[0], 0, 0, hint, "sweep point %ld does not exist", point);
    if (all) nc_errors_add(all, err);
    return -1;
  }
  nc_config_defaults(out);
  int bad = 0;
  const struct nc__platref *plat = &s->base_plat;
  size_t p = 0, rep = 0, ax[NC_KEY__COUNT + 1];
  if (point >= 0) {
    decompose(s, (size_t)point, &p, ax, &rep);
    if (s->npts && s->pts[p].plat.plat >= 0) plat = &s->pts[p].plat;
    for (size_t a = 0; a < s->naxes; a++)
      if (!s->axes[a].key) plat = &s->axes[a].vals[ax[a]].plat;
    nc__fmt(out->label, sizeof out->label, "%s", s->labels[point]);
  }
  if (plat->plat >= 0) {
    apply_layer(s, out, NC_LAYER_PLATFORM, &s->plats[plat->plat].layer);
    nc__fmt(out->platform, sizeof out->platform, "%s", plat->text);
  }
  apply_layer(s, out, NC_LAYER_SCENARIO, &s->base);
  if (point >= 0) {
    if (s->npts) apply_layer(s, out, NC_LAYER_POINT, &s->pts[p].layer);
    for (size_t a = 0; a < s->naxes; a++)
      if (s->axes[a].key)
        apply_one(s, out, NC_LAYER_POINT, s->axes[a].key, &s->axes[a].vals[ax[a]].v,
                  s->axes[a].vals[ax[a]].at);
    if (s->repeats > 1) {
      const struct nc_key *k = &nc_keys()[NC_KEY_run_seed];
      union nc__v v;
      v.i = out->run.seed + (int64_t)rep;
      if (v.i > nc__int_bound(k->max)) {
        nc__error_set(err, s->files[s->repeats_at.file], s->repeats_at.line, s->repeats_at.col,
                      "lower run.seed so that run.seed + repeats - 1 stays in range",
                      "repeat %zu would set run.seed to %lld, above %lld", rep + 1,
                      (long long)v.i, (long long)nc__int_bound(k->max));
        if (!all) return -1;
        nc_errors_add(all, err);
        bad = -1;
        refuse_one(s, out, k, s->repeats_at);
      } else {
        apply_one(s, out, NC_LAYER_POINT, k, &v, s->repeats_at);
      }
    }
  }
  if (s->name) {
    nc__fmt(out->name, sizeof out->name, "%s", s->name);
  } else {
    const char *base = strrchr(s->files[0], '/');
    base = base ? base + 1 : s->files[0];
    size_t n = strlen(base);
    if (ends_with(base, ".yaml")) n -= 5;
    else if (ends_with(base, ".yml")) n -= 4;
    nc__fmt(out->name, sizeof out->name, "%.*s", (int)n, base);
  }
  if (s->description) nc__fmt(out->description, sizeof out->description, "%s", s->description);
  for (size_t i = 0; i < s->noverlays; i++) apply_layer(s, out, NC_LAYER_OVERLAY, &s->overlays[i]);
  for (size_t i = 0; i < nsets; i++) {
    if (nc_config_set(out, sets[i], err) == 0) continue;
    if (!all) return -1;
    nc_errors_add(all, err);
    bad = -1;
    /* A refused --set of a known key: its rules are skipped. */
    const char *eq = strchr(sets[i], '=');
    char key[200];
    if (eq && (size_t)(eq - sets[i]) < sizeof key) {
      nc__fmt(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
      const struct nc_key *k = nc_key_find(key);
      if (k) {
        struct nc_origin *o = &out->origin[k - nc_keys()];
        *o = err->where;
        o->layer = NC_LAYER_REFUSED;
      }
    }
  }
  if (!all) return nc_config_check(out, err);
  if (s->no_rules) {
    all->no_rules = true;
    return bad;
  }
  if (s->no_points) all->no_points = true;
  return nc_config_check_all(out, all) || bad ? -1 : 0;
}
