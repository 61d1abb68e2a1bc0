/*
 * config.h: nicsim's configuration: the resolved struct the simulation reads,
 * the key table generated from schema.h, and the loader for platform and
 * scenario YAML files (libyaml), with --set overrides and sweep points.
 *
 * Resolution order for one simulation point (later wins):
 *   schema defaults < platform file < scenario sections < sweep point
 *   < overlay files (--overlay) < --set
 * Every value remembers where it came from (file:line:col), so any error,
 * including a semantic one found after merging, names the place to fix.
 */
#ifndef NICSIM_CONFIG_H
#define NICSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NC_STR_MAX 256
#define NC_PATH_MAX 1024

/* ---- the resolved configuration ---------------------------------------- */

#define NC_FIELD_BOOL bool
#define NC_FIELD_INT int64_t
#define NC_FIELD_REAL double
#define NC_FIELD_ENUM int
#define NC_FIELD_STR char
#define NC_FIELD_SUFFIX_BOOL
#define NC_FIELD_SUFFIX_INT
#define NC_FIELD_SUFFIX_REAL
#define NC_FIELD_SUFFIX_ENUM
#define NC_FIELD_SUFFIX_STR [NC_STR_MAX]
#define NC_DECLARE_FIELD(sec, name, type, unit, def, min, max, choices, doc) \
  NC_FIELD_##type name NC_FIELD_SUFFIX_##type;
#define NC_DECLARE_SECTION(sec) struct nc_##sec { NC_SECTION_##sec(NC_DECLARE_FIELD) };
NC_SECTIONS(NC_DECLARE_SECTION)

/* Key indices: NC_KEY_nic_desc_spacing etc., in schema order. */
#define NC_DECLARE_KEY_ID(sec, name, type, unit, def, min, max, choices, doc) NC_KEY_##sec##_##name,
#define NC_DECLARE_SECTION_IDS(sec) NC_SECTION_##sec(NC_DECLARE_KEY_ID)
enum nc_key_id { NC_SECTIONS(NC_DECLARE_SECTION_IDS) NC_KEY__COUNT };

/* The layers of the resolution order above: a later layer has a higher value. */
enum nc_layer {
  NC_LAYER_DEFAULT,
  NC_LAYER_PLATFORM,
  NC_LAYER_SCENARIO,
  NC_LAYER_POINT,
  NC_LAYER_OVERLAY, /* an overlay file (--overlay, nc_scenario_add_overlay) */
  NC_LAYER_SET,
  /* A value refused while errors are collected (nc_scenario_load_all): the
   * field keeps the value of the layers below, its origin names the refused
   * text, and a rule that blames it is not checked (nc_errors_add_blamed). */
  NC_LAYER_REFUSED
};

/* Where a value came from. file is "<default>" for schema defaults,
 * "<command line>" for --set (col is then the column in the argument). */
struct nc_origin {
  char file[NC_PATH_MAX];
  int line;  /* 1-based; 0 if not from a file */
  int col;   /* 1-based */
  int layer; /* the enum nc_layer that set the value (NC_LAYER_DEFAULT if none) */
};

struct nicsim_config {
  char name[NC_STR_MAX];        /* scenario name (top-level `name:`) */
  char description[NC_STR_MAX]; /* scenario description */
  char platform[NC_PATH_MAX];   /* platform as written in the scenario */
  char label[NC_STR_MAX];       /* sweep point label; "" for the base point */
#define NC_DECLARE_MEMBER(sec) struct nc_##sec sec;
  NC_SECTIONS(NC_DECLARE_MEMBER)
  struct nc_origin origin[NC_KEY__COUNT];
};

/* ---- the key table -------------------------------------------------------- */

enum nc_type { NC_BOOL, NC_INT, NC_REAL, NC_ENUM, NC_STR };

struct nc_key {
  const char *section; /* "nic" */
  const char *name;    /* "desc_spacing" */
  const char *path;    /* "nic.desc_spacing" */
  enum nc_type type;
  const char *unit;    /* "B", "ns", "" for unitless */
  const char *def;     /* default, as YAML text */
  double min, max;     /* inclusive bounds for INT and REAL */
  const char *choices; /* "rx|tx|bidir" for ENUM, else "" */
  const char *doc;     /* one line */
  size_t offset;       /* offset of the field in struct nicsim_config */
};

/* The table of all keys, NC_KEY__COUNT entries in schema order. */
const struct nc_key *nc_keys(void);
/* Key by dotted path, or NULL. */
const struct nc_key *nc_key_find(const char *path);
/* The known key nearest to a misspelt path (edit distance), or NULL if none is close. */
const struct nc_key *nc_key_suggest(const char *path);
/* For a key nicsim no longer has (section.name), what replaced it: a hint for the
 * error that rejects it, or NULL if path never was a key. */
const char *nc_key_removed_hint(const char *path);

/* Parses s as a whole integer (decimal, or hex like 0x40, optional sign; no
 * spaces, no leading zeros, no fraction or exponent) in [lo, hi], as the
 * config's INT keys are, without going through a double. 0 with *out set,
 * 1 if s is not an integer, 2 if it is out of [lo, hi] (or of int64). The
 * CLI parses its counts (-j, --shard, --packets, ...) with it. */
int nc_int_parse(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* ---- errors --------------------------------------------------------------- */

/* One diagnostic: where, what is wrong, and how to fix it. */
struct nc_error {
  struct nc_origin where;
  char msg[512];  /* "unknown key 'nic.desc_spacng'" */
  char hint[512]; /* "did you mean 'nic.desc_spacing'?" ("" if none) */
};
/* Prints "file:line:col: error: msg" and, if any, "  hint: ..." to f. */
void nc_error_print(const struct nc_error *e, FILE *f);

/* ---- error lists ---------------------------------------------------------- */

/* A list of errors, for checking a whole file at once (`nicsim validate`):
 * the loader goes on past each error where it safely can and adds every one
 * here. Zero-initialise it; free it with nc_errors_free. */
#define NC_ERRORS_SHOWN 50  /* errors a command prints per file, then "and N more" */
#define NC_ERRORS_KEPT 1000 /* errors a list holds; more are only counted */
struct nc_errors {
  struct nc_error *v; /* kept errors, sorted by nc_errors_sort */
  size_t n, cap;
  size_t more;        /* errors found past NC_ERRORS_KEPT: counted, not kept */
  size_t skipped;     /* rules not checked: they blame a refused value */
  bool no_rules;      /* the cross-key and model rules were not checked (a
                         platform or overlay could not be read) */
  bool no_points;     /* the sweep's points were not resolved (the sweep has errors) */
  bool fatal;         /* out of memory: the list may miss errors */
};
/* Adds a copy of e unless the list already holds one identical to it (the
 * same rule broken in several sweep points is one error). */
void nc_errors_add(struct nc_errors *l, const struct nc_error *e);
/* Adds e, a rule's error on config c, unless it stands at a value refused
 * earlier (origin layer NC_LAYER_REFUSED: it speaks of a value nobody wrote;
 * counted in l->skipped) or where the list holds an error already. */
void nc_errors_add_blamed(struct nc_errors *l, const struct nicsim_config *c,
                          const struct nc_error *e);
/* All errors found (kept and counted). */
size_t nc_errors_count(const struct nc_errors *l);
/* Sorts the kept errors into file order: by file (in the order first named),
 * then line and column; errors without a position keep their place first. */
void nc_errors_sort(struct nc_errors *l);
/* Prints the first max errors (nc_error_print each), "... and N more errors"
 * past them, and a note for each kind of check that was skipped. */
void nc_errors_print(const struct nc_errors *l, size_t max, FILE *f);
void nc_errors_free(struct nc_errors *l);

/* Fills c with the schema defaults, every origin "<default>" (no file). */
void nc_config_defaults(struct nicsim_config *c);
/* Applies one --set override "KEY=VALUE" to c with the file parser's rules;
 * its origin is "<command line>":1:<column of VALUE in the argument>.
 * Returns 0, or -1 with *err filled (missing '=', unknown key, bad value). */
int nc_config_set(struct nicsim_config *c, const char *assignment, struct nc_error *err);

/* ---- loading and resolving ------------------------------------------------ */

/* A parsed scenario (with its platform files), ready to resolve points from. */
struct nc_scenario;

/* Loads a scenario file. path NULL loads the built-in default scenario.
 * Returns 0, or -1 with *err filled (syntax, unknown key, type, range,
 * duplicate key, alias/anchor, unreadable file). */
int nc_scenario_load(const char *path, struct nc_scenario **out, struct nc_error *err);
/* Same, from text; name is used in error positions, and relative platform
 * paths start at its directory (inside the built-in table if name starts
 * with "<builtin>/"). */
int nc_scenario_load_string(const char *name, const char *text, struct nc_scenario **out,
                            struct nc_error *err);
/* Loads a scenario compiled into the binary: a path in the built-in table
 * ("scenarios/seeds/x.yaml") or a short name ("default" finds
 * scenarios/default.yaml, then scenarios/seeds/default.yaml). */
int nc_scenario_load_builtin(const char *name, struct nc_scenario **out, struct nc_error *err);
void nc_scenario_free(struct nc_scenario *s);
/* The scenario file's display name (as given, or "<builtin>/..."). */
const char *nc_scenario_file(const struct nc_scenario *s);
/* The files on disk a loaded scenario was read from (the scenario itself,
 * its platform files; not built-in ones): the i-th one's display name and
 * identity (st_dev, st_ino), for callers that must not write over an input.
 * False past the last. */
bool nc_scenario_input(const struct nc_scenario *s, size_t i, const char **path, uint64_t *dev,
                       uint64_t *ino);

/* The same, collecting every error into *errs (see struct nc_errors) instead
 * of stopping at the first: unknown keys, types, ranges, enums, duplicate
 * keys, sweep and plot declarations. A YAML syntax error still ends the
 * file's parse (one error). Returns 0 (no error), or -1 with the errors
 * added. *out is set (and must be freed) whenever the scenario can still be
 * resolved to check the cross-key and model rules (nc_scenario_resolve_all):
 * a refused value is then left out (its key keeps the value of the layers
 * below, with origin layer NC_LAYER_REFUSED), a broken sweep has no points
 * (errs->no_points); *out is NULL when nothing more can be checked (the file
 * cannot be read or parsed, or is no scenario). Never use a scenario loaded
 * with errors for anything but resolving it with nc_scenario_resolve_all. */
int nc_scenario_load_all(const char *path, struct nc_scenario **out, struct nc_errors *errs);
int nc_scenario_load_string_all(const char *name, const char *text, struct nc_scenario **out,
                                struct nc_errors *errs);

/* Adds an overlay file to a loaded scenario: a file of configuration keys
 * (sections or dotted keys, plus optional name and description, as a
 * platform file) applied to every point after the sweep point and before
 * the --set overrides, overlays in the order added. `nicsim calibrate`
 * writes one (calibrated.yaml); run, sweep and validate take --overlay FILE.
 * Returns 0, or -1 with *err at the file:line:col of the mistake. */
int nc_scenario_add_overlay(struct nc_scenario *s, const char *path, struct nc_error *err);
/* The same, adding every error of the overlay to *errs (as
 * nc_scenario_load_all); a value it refuses is left out. -1 if any. */
int nc_scenario_add_overlay_all(struct nc_scenario *s, const char *path, struct nc_errors *errs);
/* Number of overlays added, and overlay i's file (NULL if none). */
size_t nc_scenario_noverlays(const struct nc_scenario *s);
const char *nc_scenario_overlay_file(const struct nc_scenario *s, size_t i);
/* True if overlay i sets key k. */
bool nc_scenario_overlay_sets(const struct nc_scenario *s, size_t i, const struct nc_key *k);

/* Sweep points: the cartesian product of `sweep.axes` with the labelled
 * `sweep.points` (see docs/config.md). 0 when the scenario has no sweep. */
size_t nc_scenario_npoints(const struct nc_scenario *s);
const char *nc_scenario_point_label(const struct nc_scenario *s, size_t i);
/* Index of the point with this label, or -1. */
long nc_scenario_find_point(const struct nc_scenario *s, const char *label);
/* Keys that vary across the sweep, in a stable order (CSV columns). */
size_t nc_scenario_nswept(const struct nc_scenario *s);
const char *nc_scenario_swept_key(const struct nc_scenario *s, size_t i);

/* Resolves one point (point = -1: the base, ignoring any sweep), applies the
 * --set overrides ("nic.desc_spacing=16"), then validates ranges and
 * cross-key rules. Returns 0, or -1 with *err naming the offending place. */
int nc_scenario_resolve(const struct nc_scenario *s, long point, const char *const *sets,
                        size_t nsets, struct nicsim_config *out, struct nc_error *err);

/* The same, adding every error to *errs: of the --set overrides, and of
 * every cross-key rule (nc_config_check_all) unless errs->no_rules. A rule
 * that blames a refused value is skipped (errs->skipped). 0 if this point
 * added no error, else -1. */
int nc_scenario_resolve_all(const struct nc_scenario *s, long point, const char *const *sets,
                            size_t nsets, struct nicsim_config *out, struct nc_errors *errs);

/* Cross-key (semantic) checks on a resolved config, e.g. warmup below
 * duration, spacing not below the descriptor size. Called by resolve. A rule
 * on several keys blames the one set latest (nc_config_blame). */
int nc_config_check(const struct nicsim_config *c, struct nc_error *err);

/* The same, checking every rule and adding each broken one to *errs
 * (nc_errors_add_blamed). 0 if none is broken, else -1. */
int nc_config_check_all(const struct nicsim_config *c, struct nc_errors *errs);

/* The key a rule on the keys ids[0..n-1] (n >= 1) blames: the one set in the
 * latest layer (origin[].layer; so never a default if another was set), the
 * first of equals. */
enum nc_key_id nc_config_blame(const struct nicsim_config *c, const enum nc_key_id *ids, size_t n);
/* Fills *err (if not NULL) at the origin of nc_config_blame(c, ids, n) with
 * msg and hint (NULL: none), for rules checked outside src/config (the
 * drivers'). Returns -1. */
int nc_config_error(const struct nicsim_config *c, const enum nc_key_id *ids, size_t n, const char *hint,
                    const char *msg, struct nc_error *err);

/* The drain: when frames are still in flight at the end of run.drain_us, the
 * run goes on until they are done, up to this many microseconds of drain in
 * all: drain_us plus 10 x drain_us, at least NC_DRAIN_EXTENSION_MIN_US more.
 * A run extended so reports the metric sim.drain_extended_us. Keep in step
 * with Top::time_limit_ps (src/sim/top.cpp). */
#define NC_DRAIN_EXTENSION_MIN_US 10000.0
double nc_drain_limit_us(double drain_us);

/* Formats key k's value in c as YAML/CSV text (enums by name, bools
 * true/false, reals in the shortest form that reads back exactly). */
void nc_value_format(const struct nicsim_config *c, const struct nc_key *k, char *buf, size_t n);
/* Key k's value in c as a number: bools 0/1, enums their choice index,
 * strings NaN. */
double nc_value_number(const struct nicsim_config *c, const struct nc_key *k);

/* Writes the generated key reference of docs/config.md (the part between
 * <!-- BEGIN KEYS --> and <!-- END KEYS -->): one Markdown table per section. */
void nc_write_config_doc(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
