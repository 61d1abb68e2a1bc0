/* config_internal.h: private interfaces shared by the files of src/config: the value parser,
 * the libyaml-built node tree, error helpers and limits. */
#ifndef NICSIM_CONFIG_INTERNAL_H
#define NICSIM_CONFIG_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

/* ---- limits ------------------------------------------------------------- */

#define NC__MAX_DEPTH 32             /* deepest nesting of mappings/sequences */
#define NC__MAX_FILE_BYTES (16u << 20) /* largest YAML file read (a scenario, a suite) */
#define NC__MAX_PLATFORM_BYTES (1u << 20) /* largest platform file read */
#define NC__MAX_NODES 1000000        /* nodes in one file */
#define NC__MAX_MAP_ENTRIES 10000    /* entries in one mapping */
#define NC__MAX_POINTS 100000        /* expanded sweep points */

/* ---- values ------------------------------------------------------------- */

/* One parsed value of a key; s is heap-owned by its holder for NC_STR. */
union nc__v {
  bool b;
  int64_t i;
  double r;
  int e;
  char *s;
};

/* Parses text (len bytes, may contain no NUL) as key k's value. quoted: the
 * YAML scalar was quoted (numbers and booleans must be plain). On success
 * fills *out (a STR value is malloc'd) and returns 0; otherwise writes the
 * message and hint and returns -1. */
int nc__value_parse(const struct nc_key *k, const char *text, size_t len, bool quoted,
                    union nc__v *out, char *msg, size_t msglen, char *hint, size_t hintlen);

/* Stores v into k's field of c (copying strings). */
void nc__value_store(struct nicsim_config *c, const struct nc_key *k, const union nc__v *v);

/* Formats v (of key k) as text: the canonical form used in labels and output. */
void nc__value_text(const struct nc_key *k, const union nc__v *v, char *buf, size_t n);

/* Shortest text for d that reads back as exactly d. */
void nc__real_format(double d, char *buf, size_t n);

/* Writes the allowed set of key k: "an integer in [16, 4096] (B)". */
void nc__expect_text(const struct nc_key *k, char *buf, size_t n);

/* Levenshtein distance between a and b, or a large number if either is long. */
size_t nc__edit_distance(const char *a, const char *b);

/* Key lookup by section name and key name (not dotted). */
const struct nc_key *nc__key_find2(const char *section, const char *name);
/* True if name is a schema section. */
bool nc__is_section(const char *name);
/* Writes "nic, cpu, ..." of sections, or of the keys in section sec. */
void nc__list_sections(char *buf, size_t n);
void nc__list_keys(const char *sec, char *buf, size_t n);

/* ---- errors ------------------------------------------------------------- */

/* Fills err: where (file, 1-based line and col; line 0 if none), message, hint. */
void nc__error_set(struct nc_error *err, const char *file, int line, int col, const char *hint,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The first control character in s (a C0 byte, DEL, or a UTF-8 encoded C1
 * character U+0080..U+009F), or NULL if there is none (or s is NULL). */
const char *nc__find_ctrl(const char *s);
/* Copies src into dst (n bytes) with every byte of a control character (as
 * nc__find_ctrl finds them) written as \xNN; truncates, always terminates.
 * nc__error_set applies it to every message and hint. */
void nc__escape_ctrl(char *dst, size_t n, const char *src);

/* snprintf that never fails loudly: truncates, always terminates. */
void nc__fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the YAML node tree (yaml_tree.c) ----------------------------------- */

enum nc__node_kind { NC__SCALAR, NC__MAP, NC__SEQ };

/* A node of a parsed YAML document, with its 1-based position. For NC__MAP,
 * items holds keys and values interleaved (2 * n pointers); for NC__SEQ, n
 * items. Keys are always scalars and never repeat. */
struct nc__node {
  enum nc__node_kind kind;
  int line, col;
  char *text;  /* scalar text, NUL-terminated */
  bool quoted; /* scalar written with quotes or as a block scalar */
  size_t n;          /* entries: pairs for NC__MAP, items for NC__SEQ */
  size_t nptr, cap;  /* pointers used and allocated in items */
  struct nc__node **items;
};

/* Parses a YAML document of len bytes. name is the file name used in errors.
 * Returns the root (a mapping) or NULL with *err filled. */
struct nc__node *nc__yaml_parse(const char *name, const char *text, size_t len,
                                struct nc_error *err);
/* The same for files that may not be nicsim files at all (docs/robustness.md):
 * an error quotes the text (a key, an anchor, a tag, a byte) only if every
 * top-level key read before it is one that known() accepts; otherwise it
 * gives positions only. */
struct nc__node *nc__yaml_parse_ex(const char *name, const char *text, size_t len,
                                   bool (*known)(const char *key), struct nc_error *err);
/* The same, going on past a duplicate key (it and its value are left out)
 * with the error added to *all; other errors still end the parse (*err),
 * and then nothing is added to *all. */
struct nc__node *nc__yaml_parse_all(const char *name, const char *text, size_t len,
                                    bool (*known)(const char *key), struct nc_error *err,
                                    struct nc_errors *all);
void nc__node_free(struct nc__node *n);
/* Human name of a node kind: "a mapping", "a sequence", "a single value". */
const char *nc__node_kind_name(const struct nc__node *n);

/* The value of key in mapping m, or NULL (also when m is not a mapping);
 * *kn (if not NULL) gets the key node. */
const struct nc__node *nc__map_get(const struct nc__node *m, const char *key,
                                   const struct nc__node **kn);
/* Checks that mapping m (named what in messages) holds only the given keys:
 * another fills *err at it (in file) with "did you mean" when one is close.
 * Returns 0 or -1. For files beside scenarios (calibration specs). */
int nc__map_only(const char *file, struct nc_error *err, const struct nc__node *m,
                 const char *what, const char *const *words, size_t nwords);

/* Reads mapping m of KEY: VALUE config overrides (named what in messages,
 * e.g. "set") into *sets as malloc'd "KEY=VALUE" strings (*nsets of them;
 * the caller frees them, also after an error), each checked as --set with
 * the error at its place in file. Returns 0 or -1 with *err filled. */
int nc__map_sets(const char *file, struct nc_error *err, const struct nc__node *m,
                 const char *what, char ***sets, size_t *nsets);

/* An INT key's bound (nc_key.min/max) as an int64, for comparing as integers. */
int64_t nc__int_bound(double b);

/* Reads a whole file (at most NC__MAX_FILE_BYTES) into a malloc'd,
 * NUL-terminated buffer. Returns NULL with *err filled. */
char *nc__read_file(const char *path, size_t *len, struct nc_error *err);
/* The same with a size limit of max bytes (checked before reading), and the
 * file's stat in *st (if not NULL: its st_dev/st_ino identify it). Every
 * input (scenario, platform file, overlay, suite, calibration spec) is a
 * regular file: a directory, device, FIFO or socket is refused after an
 * O_NONBLOCK open, before anything is read, so nothing blocks. */
struct stat;
char *nc__read_file_ex(const char *path, size_t max, struct stat *st,
                       size_t *len, struct nc_error *err);

#endif
