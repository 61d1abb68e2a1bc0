/* yaml_tree.c: reads one YAML document with libyaml's event API into a node tree with 1-based
 * positions (never past the end of the text), rejecting anchors, aliases, tags, duplicate keys,
 * keys with control characters, deep nesting and binary input. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "config/config_internal.h"

/* The keys of an open mapping, to find a duplicate in O(1): an open
 * addressing table of key numbers + 1 (0: empty slot). */
struct keyset {
  size_t *slot;
  size_t cap; /* a power of two, or 0 */
};

/* Builder state: the open collections, innermost last. */
struct builder {
  const char *name;
  const char *text;
  size_t len;
  struct nc_error *err;
  struct nc__node *root;
  struct nc__node *stack[NC__MAX_DEPTH];
  struct keyset keys[NC__MAX_DEPTH]; /* of stack[d] when it is a mapping */
  int depth;
  size_t nodes;
  int ndocs;
  bool failed;
  bool quiet;                 /* errors never quote the text (nc__yaml_parse_ex) */
  struct nc_errors *all;      /* duplicate keys go here, parsing goes on (NULL: stop) */
  bool skip_value;            /* the next node is a duplicate key's value: dropped */
  int skip_depth;             /* open collections inside a dropped value */
  bool have_end;              /* end_line and end_col are computed */
  size_t end_line, end_col;   /* see end_of_text() */
};

/* Human name of a node kind. */
const char *nc__node_kind_name(const struct nc__node *n) {
  switch (n->kind) {
  case NC__SCALAR: return n->text[0] || n->quoted ? "a single value" : "an empty value";
  case NC__MAP: return "a mapping (key: value)";
  case NC__SEQ: return "a list";
  }
  return "a node";
}

/* The value of key in mapping m (NULL if absent); *kn gets the key node. */
const struct nc__node *nc__map_get(const struct nc__node *m, const char *key,
                                   const struct nc__node **kn) {
  for (size_t i = 0; m && m->kind == NC__MAP && i < m->n; i++)
    if (strcmp(m->items[2 * i]->text, key) == 0) {
      if (kn) *kn = m->items[2 * i];
      return m->items[2 * i + 1];
    }
  return NULL;
}

/* Refuses a key of mapping m that is not among words, with a suggestion. */
int nc__map_only(const char *file, struct nc_error *err, const struct nc__node *m,
                 const char *what, const char *const *words, size_t nwords) {
  for (size_t i = 0; m->kind == NC__MAP && i < m->n; i++) {
    const struct nc__node *k = m->items[2 * i];
    size_t j, best = nwords, bestd = 3;
    char list[256] = "", hint[400];
    for (j = 0; j < nwords && strcmp(k->text, words[j]) != 0; j++) {
      size_t d = nc__edit_distance(k->text, words[j]);
      if (d < bestd) bestd = d, best = j;
    }
    if (j < nwords) continue;
    for (j = 0; j < nwords; j++)
      nc__fmt(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", words[j]);
    if (best < nwords)
      nc__fmt(hint, sizeof hint, "did you mean '%s'? %s takes: %s", words[best], what, list);
    else
      nc__fmt(hint, sizeof hint, "%s takes: %s", what, list);
    nc__error_set(err, file, k->line, k->col, hint, "unknown key '%s' in %s", k->text, what);
    return -1;
  }
  return 0;
}

/* Reads mapping m of KEY: VALUE overrides into "KEY=VALUE" strings, each
 * checked as --set. */
int nc__map_sets(const char *file, struct nc_error *err, const struct nc__node *m,
                 const char *what, char ***sets, size_t *nsets) {
  struct nicsim_config *c;
  if (m->kind != NC__MAP) {
    nc__error_set(err, file, m->line, m->col, "e.g. set: {nic.desc_spacing: 32}",
                  "%s must be a mapping of config keys to values", what);
    return -1;
  }
  *sets = calloc(m->n ? m->n : 1, sizeof **sets);
  c = malloc(sizeof *c);
  if (!*sets || !c) {
    free(c);
    nc__error_set(err, file, m->line, m->col, NULL, "out of memory");
    return -1;
  }
  nc_config_defaults(c);
  for (size_t i = 0; i < m->n; i++) {
    const struct nc__node *k = m->items[2 * i], *v = m->items[2 * i + 1];
    size_t len = strlen(k->text) + strlen(v->text) + 2;
    struct nc_error se;
    if (v->kind != NC__SCALAR) {
      free(c);
      nc__error_set(err, file, v->line, v->col, NULL, "%s: %s must be a single value", what,
                    k->text);
      return -1;
    }
    if (((*sets)[*nsets] = malloc(len)) == NULL) {
      free(c);
      nc__error_set(err, file, v->line, v->col, NULL, "out of memory");
      return -1;
    }
    snprintf((*sets)[*nsets], len, "%s=%s", k->text, v->text);
    (*nsets)++;
    /* The same check as --set, with the error moved to the file. */
    memset(&se, 0, sizeof se);
    if (nc_config_set(c, (*sets)[*nsets - 1], &se) != 0) {
      const struct nc__node *at = nc_key_find(k->text) ? v : k;
      free(c);
      nc__error_set(err, file, at->line, at->col, se.hint[0] ? se.hint : NULL, "%s: %s", what,
                    se.msg);
      return -1;
    }
  }
  free(c);
  return 0;
}

/* Frees a node and its children (depth is bounded by NC__MAX_DEPTH). */
void nc__node_free(struct nc__node *n) {
  if (!n) return;
  for (size_t i = 0; i < n->nptr; i++) nc__node_free(n->items[i]);
  free(n->items);
  free(n->text);
  free(n);
}

/* Computes b->end_line and b->end_col: the 0-based line and column (in
 * characters, as libyaml counts them) of the end of the text, just after its
 * last character (at the start of the line after a final line break). Lines
 * break at LF, CR, CR LF, NEL, LS and PS; a leading byte order mark is not a
 * character; UTF-16 with a byte order mark is decoded as libyaml does. */
static void end_of_text(struct builder *b) {
  const unsigned char *t = (const unsigned char *)b->text;
  size_t n = b->len, i = 0, line = 0, col = 0;
  int utf16 = 0; /* 0: UTF-8, 1: little endian, 2: big endian */
  if (n >= 2 && t[0] == 0xFF && t[1] == 0xFE) utf16 = 1, i = 2;
  else if (n >= 2 && t[0] == 0xFE && t[1] == 0xFF) utf16 = 2, i = 2;
  else if (n >= 3 && t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF) i = 3;
  while (i < n) {
    unsigned long cp;
    if (utf16) {
      if (i + 1 >= n) break;
      cp = utf16 == 1 ? (unsigned long)t[i] | (unsigned long)t[i + 1] << 8
                      : (unsigned long)t[i] << 8 | t[i + 1];
      i += 2;
      if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n) i += 2; /* the low surrogate */
    } else {
      cp = t[i++];
      if (cp >= 0x80) { /* a multi-byte character: its code point matters only for breaks */
        size_t start = i - 1;
        while (i < n && (t[i] & 0xC0) == 0x80) i++;
        if (i - start == 2 && t[start] == 0xC2 && t[start + 1] == 0x85) cp = 0x85;
        else if (i - start == 3 && t[start] == 0xE2 && t[start + 1] == 0x80 &&
                 (t[start + 2] == 0xA8 || t[start + 2] == 0xA9))
          cp = 0x2028;
      }
    }
    if (cp == '\r' || cp == '\n' || cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
      if (cp == '\r') { /* CR LF is one break */
        if (utf16 && i + 1 < n &&
            (utf16 == 1 ? t[i] == '\n' && t[i + 1] == 0 : t[i] == 0 && t[i + 1] == '\n'))
          i += 2;
        else if (!utf16 && i < n && t[i] == '\n')
          i++;
      }
      line++, col = 0;
    } else {
      col++;
    }
  }
  b->end_line = line;
  b->end_col = col;
  b->have_end = true;
}

/* Moves a libyaml mark that lies past the end of the text back to the end.
 * When the last line has no line break, libyaml puts the stream end at the
 * start of a line that does not exist ("t.yaml:2:1" for a one-line file);
 * this reports the end of the last line instead ("t.yaml:1:23"). */
static yaml_mark_t clamp_mark(struct builder *b, yaml_mark_t m) {
  if (!b->have_end) end_of_text(b);
  if (m.line > b->end_line || (m.line == b->end_line && m.column > b->end_col)) {
    m.line = b->end_line;
    m.column = b->end_col;
  }
  return m;
}

/* Records an error at a libyaml mark (0-based) and stops the builder. */
static void fail_at(struct builder *b, yaml_mark_t m, const char *hint, const char *msg) {
  if (b->failed) return;
  m = clamp_mark(b, m);
  b->failed = true;
  nc__error_set(b->err, b->name, (int)m.line + 1, (int)m.column + 1, hint, "%s", msg);
}

/* 1-based line and column (in characters) of byte offset off in the text. */
static void offset_pos(const struct builder *b, size_t off, int *line, int *col) {
  int l = 1, c = 1;
  if (off > b->len) off = b->len;
  for (size_t i = 0; i < off; i++) {
    unsigned char ch = (unsigned char)b->text[i];
    if (ch == '\n') {
      l++;
      c = 1;
    } else if ((ch & 0xC0) != 0x80) {
      c++;
    }
  }
  *line = l;
  *col = c;
}

/* Turns libyaml's parse failure into a readable error. */
static void parser_failed(struct builder *b, const yaml_parser_t *p) {
  char msg[512], hint[512];
  b->failed = true;
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    nc__error_set(b->err, b->name, 0, 0, NULL, "out of memory while reading YAML");
    return;
  case YAML_READER_ERROR: {
    int line, col;
    offset_pos(b, p->problem_offset, &line, &col);
    if (p->problem_value < 0)
      nc__fmt(msg, sizeof msg, "not a valid text file: %s", p->problem ? p->problem : "?");
    else if (b->quiet) /* the byte is the file's content: not shown */
      nc__fmt(msg, sizeof msg, "not a valid text file: %s", p->problem ? p->problem : "?");
    else if (p->problem && strstr(p->problem, "UTF"))
      nc__fmt(msg, sizeof msg, "not a valid text file: %s (byte 0x%02X)", p->problem,
              (unsigned)p->problem_value & 0xFFu);
    else
      nc__fmt(msg, sizeof msg, "not a valid text file: %s (character U+%04X)",
              p->problem ? p->problem : "?", (unsigned)p->problem_value);
    nc__error_set(b->err, b->name, line, col,
                  "configuration files must be UTF-8 text; is this a binary file?", "%s", msg);
    return;
  }
  case YAML_SCANNER_ERROR:
  case YAML_PARSER_ERROR: {
    yaml_mark_t pm = clamp_mark(b, p->problem_mark), cm = clamp_mark(b, p->context_mark);
    nc__fmt(msg, sizeof msg, "YAML syntax error: %s", p->problem ? p->problem : "unknown problem");
    if (p->context)
      nc__fmt(hint, sizeof hint, "%s (at %d:%d); check the indentation and quoting", p->context,
              (int)cm.line + 1, (int)cm.column + 1);
    else
      nc__fmt(hint, sizeof hint, "check the indentation and quoting");
    nc__error_set(b->err, b->name, (int)pm.line + 1, (int)pm.column + 1, hint, "%s", msg);
    return;
  }
  default:
    nc__error_set(b->err, b->name, 0, 0, NULL, "YAML error: %s",
                  p->problem ? p->problem : "unknown");
    return;
  }
}

/* Writes the path to the innermost open collection, e.g. "sweep.points[1]". */
static void open_path(const struct builder *b, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = 0;
  for (int d = 0; d + 1 < b->depth && used + 1 < n; d++) {
    const struct nc__node *c = b->stack[d];
    size_t k = c->nptr;
    int r;
    if (c->kind == NC__MAP)
      r = snprintf(buf + used, n - used, "%s%s", used ? "." : "", c->items[k - 2]->text);
    else
      r = snprintf(buf + used, n - used, "[%zu]", k - 1);
    if (r < 0) break;
    used += (size_t)r < n - used ? (size_t)r : n - used - 1;
  }
}

/* FNV-1a hash of a key. */
static size_t key_hash(const char *t) {
  uint64_t h = 1469598103934665603ull;
  for (; *t; t++) h = (h ^ (unsigned char)*t) * 1099511628211ull;
  return (size_t)(h ^ (h >> 32));
}

/* The number of the key of map m equal to text, or (size_t)-1. */
static size_t keyset_find(const struct keyset *ks, const struct nc__node *m, const char *text) {
  if (!ks->cap) return (size_t)-1;
  for (size_t i = key_hash(text) & (ks->cap - 1); ks->slot[i]; i = (i + 1) & (ks->cap - 1))
    if (strcmp(m->items[2 * (ks->slot[i] - 1)]->text, text) == 0) return ks->slot[i] - 1;
  return (size_t)-1;
}

/* Adds key number k (its text at m->items[2 * k]); keeps the table at most
 * half full. Returns false if out of memory. */
static bool keyset_add(struct keyset *ks, const struct nc__node *m, size_t k) {
  if (2 * (k + 1) > ks->cap) {
    size_t cap = ks->cap ? 2 * ks->cap : 16;
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return false;
    free(ks->slot);
    ks->slot = slot;
    ks->cap = cap;
    for (size_t j = 0; j < k; j++) { /* rehash the keys before k */
      size_t i = key_hash(m->items[2 * j]->text) & (cap - 1);
      while (slot[i]) i = (i + 1) & (cap - 1);
      slot[i] = j + 1;
    }
  }
  size_t i = key_hash(m->items[2 * k]->text) & (ks->cap - 1);
  while (ks->slot[i]) i = (i + 1) & (ks->cap - 1);
  ks->slot[i] = k + 1;
  return true;
}

/* Frees the table (the mapping is closed). */
static void keyset_free(struct keyset *ks) {
  free(ks->slot);
  ks->slot = NULL;
  ks->cap = 0;
}

/* Appends child to the innermost open collection (or makes it the root). */
static bool attach(struct builder *b, struct nc__node *child, yaml_mark_t m) {
  if (b->depth == 0) {
    b->root = child;
    return true;
  }
  int d = b->depth - 1;
  struct nc__node *parent = b->stack[d];
  bool is_key = parent->kind == NC__MAP && parent->nptr % 2 == 0;
  if (is_key && child->kind != NC__SCALAR) {
    nc__node_free(child);
    fail_at(b, m, "write keys as plain words, e.g. desc_spacing: 16",
            "a mapping key must be a single value, not a list or mapping");
    return false;
  }
  if (is_key && nc__find_ctrl(child->text)) {
    char msg[300];
    if (b->quiet)
      nc__fmt(msg, sizeof msg, "a key contains a control character");
    else
      nc__fmt(msg, sizeof msg, "key '%.200s' contains a control character", child->text);
    nc__node_free(child);
    fail_at(b, m, "keys are plain words such as desc_spacing; remove the escape sequence", msg);
    return false;
  }
  if (is_key) {
    char path[300], full[700];
    open_path(b, path, sizeof path);
    size_t first = keyset_find(&b->keys[d], parent, child->text);
    if (first != (size_t)-1) {
      const struct nc__node *k = parent->items[2 * first];
      nc__fmt(full, sizeof full, "%s%s%s", path, path[0] ? "." : "", child->text);
      char msg[900];
      if (b->quiet)
        nc__fmt(msg, sizeof msg, "duplicate key (first defined at %s:%d:%d)", b->name, k->line,
                k->col);
      else
        nc__fmt(msg, sizeof msg, "duplicate key '%s' (first defined at %s:%d:%d)", full, b->name,
                k->line, k->col);
      nc__node_free(child);
      if (b->all) { /* collecting: report it, drop the key and its value, go on */
        struct nc_error e;
        yaml_mark_t cm = clamp_mark(b, m);
        nc__error_set(&e, b->name, (int)cm.line + 1, (int)cm.column + 1,
                      "a key may appear once in a mapping; merge the two or delete one", "%s", msg);
        nc_errors_add(b->all, &e);
        b->skip_value = true;
        return false;
      }
      fail_at(b, m, "a key may appear once in a mapping; merge the two or delete one", msg);
      return false;
    }
    if (parent->nptr / 2 >= NC__MAX_MAP_ENTRIES) {
      nc__node_free(child);
      fail_at(b, m, "split the file", "a mapping has more than 10000 entries");
      return false;
    }
  }
  if (parent->nptr == parent->cap) {
    size_t cap = parent->cap ? 2 * parent->cap : 8;
    struct nc__node **items = realloc(parent->items, cap * sizeof *items);
    if (!items) {
      nc__node_free(child);
      fail_at(b, m, NULL, "out of memory");
      return false;
    }
    parent->items = items;
    parent->cap = cap;
  }
  parent->items[parent->nptr++] = child;
  parent->n = parent->kind == NC__MAP ? parent->nptr / 2 : parent->nptr;
  if (is_key && !keyset_add(&b->keys[d], parent, parent->nptr / 2)) {
    fail_at(b, m, NULL, "out of memory");
    return false;
  }
  return true;
}

/* Creates a node for an event, rejecting anchors, tags and excess size. */
static struct nc__node *new_node(struct builder *b, enum nc__node_kind kind, const yaml_event_t *ev,
                                 const unsigned char *anchor, const unsigned char *tag) {
  char msg[300];
  if (anchor) {
    if (b->quiet)
      nc__fmt(msg, sizeof msg, "YAML anchors and aliases are not supported (found an anchor)");
    else
      nc__fmt(msg, sizeof msg, "YAML anchors and aliases are not supported (found anchor '&%s')",
              (const char *)anchor);
    fail_at(b, ev->start_mark, "write the value out", msg);
    return NULL;
  }
  if (tag) {
    static const char core[] = "tag:yaml.org,2002:";
    const char *t = (const char *)tag;
    if (b->quiet)
      nc__fmt(msg, sizeof msg, "YAML tags are not supported (found a tag)");
    else if (strncmp(t, core, sizeof core - 1) == 0)
      nc__fmt(msg, sizeof msg, "YAML tags are not supported (found tag '!!%s')", t + sizeof core - 1);
    else
      nc__fmt(msg, sizeof msg, "YAML tags are not supported (found tag '%s')", t);
    fail_at(b, ev->start_mark, "remove the tag; nicsim infers each value's type from its key",
            msg);
    return NULL;
  }
  if (++b->nodes > NC__MAX_NODES) {
    fail_at(b, ev->start_mark, "split the file", "the file has more than 1000000 YAML nodes");
    return NULL;
  }
  struct nc__node *n = calloc(1, sizeof *n);
  if (!n) {
    fail_at(b, ev->start_mark, NULL, "out of memory");
    return NULL;
  }
  yaml_mark_t m = clamp_mark(b, ev->start_mark); /* an empty value at the end of the text */
  n->kind = kind;
  n->line = (int)m.line + 1;
  n->col = (int)m.column + 1;
  return n;
}

/* Handles one scalar event. */
static void on_scalar(struct builder *b, const yaml_event_t *ev) {
  const unsigned char *anchor = ev->data.scalar.anchor, *tag = ev->data.scalar.tag;
  struct nc__node *n = new_node(b, NC__SCALAR, ev, anchor, tag);
  if (!n) return;
  size_t len = ev->data.scalar.length;
  if (memchr(ev->data.scalar.value, 0, len)) {
    free(n);
    fail_at(b, ev->start_mark, "remove the \\0 escape", "a value contains a NUL character");
    return;
  }
  n->text = malloc(len + 1);
  if (!n->text) {
    free(n);
    fail_at(b, ev->start_mark, NULL, "out of memory");
    return;
  }
  memcpy(n->text, ev->data.scalar.value, len);
  n->text[len] = 0;
  n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
  attach(b, n, ev->start_mark);
}

/* Handles the start of a mapping or a sequence. */
static void on_start(struct builder *b, const yaml_event_t *ev, enum nc__node_kind kind) {
  const unsigned char *anchor = kind == NC__MAP ? ev->data.mapping_start.anchor
                                                : ev->data.sequence_start.anchor;
  const unsigned char *tag =
      kind == NC__MAP ? ev->data.mapping_start.tag : ev->data.sequence_start.tag;
  if (b->depth >= NC__MAX_DEPTH) {
    char msg[100];
    nc__fmt(msg, sizeof msg, "nesting is deeper than %d levels", NC__MAX_DEPTH);
    fail_at(b, ev->start_mark, "flatten the structure; nicsim files need only a few levels", msg);
    return;
  }
  struct nc__node *n = new_node(b, kind, ev, anchor, tag);
  if (!n || !attach(b, n, ev->start_mark)) return;
  b->stack[b->depth] = n;
  keyset_free(&b->keys[b->depth]);
  b->depth++;
}

/* Handles one event; sets b->failed on error. Returns false at the stream end. */
static bool on_event(struct builder *b, const yaml_event_t *ev) {
  char msg[300];
  /* The value of a duplicate key (collecting errors): dropped whole. */
  if (b->skip_depth > 0 || (b->skip_value && ev->type != YAML_STREAM_END_EVENT)) {
    if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT)
      b->skip_depth++;
    else if (ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT)
      b->skip_depth--;
    b->skip_value = false;
    return true;
  }
  switch (ev->type) {
  case YAML_STREAM_END_EVENT: return false;
  case YAML_DOCUMENT_START_EVENT:
    if (b->ndocs++ > 0)
      fail_at(b, ev->start_mark, "remove the '---' line, or split the file in two",
              "a file holds one YAML document, but a second one starts here");
    break;
  case YAML_ALIAS_EVENT:
    if (b->quiet)
      nc__fmt(msg, sizeof msg, "YAML anchors and aliases are not supported (found an alias)");
    else
      nc__fmt(msg, sizeof msg, "YAML anchors and aliases are not supported (found alias '*%s')",
              (const char *)ev->data.alias.anchor);
    fail_at(b, ev->start_mark, "write the value out", msg);
    break;
  case YAML_SCALAR_EVENT: on_scalar(b, ev); break;
  case YAML_SEQUENCE_START_EVENT: on_start(b, ev, NC__SEQ); break;
  case YAML_MAPPING_START_EVENT: on_start(b, ev, NC__MAP); break;
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT:
    if (b->depth > 0) keyset_free(&b->keys[--b->depth]);
    break;
  default: break;
  }
  return true;
}

static struct nc__node *parse(const char *name, const char *text, size_t len,
                              bool (*known)(const char *key), struct nc_error *err,
                              struct nc_errors *all);

/* Parses a YAML document; see config_internal.h. */
struct nc__node *nc__yaml_parse(const char *name, const char *text, size_t len,
                                struct nc_error *err) {
  return parse(name, text, len, NULL, err, NULL);
}

/* The same, quoting the text in an error only in a file whose top-level keys
 * read so far are all known; see config_internal.h. */
struct nc__node *nc__yaml_parse_ex(const char *name, const char *text, size_t len,
                                   bool (*known)(const char *key), struct nc_error *err) {
  return parse(name, text, len, known, err, NULL);
}

/* The same, adding each duplicate key to *all and going on; see config_internal.h. */
struct nc__node *nc__yaml_parse_all(const char *name, const char *text, size_t len,
                                    bool (*known)(const char *key), struct nc_error *err,
                                    struct nc_errors *all) {
  return parse(name, text, len, known, err, all);
}

/* True if the (partial) tree's top level is a mapping with at least one key,
 * every one of them known. */
static bool top_keys_known(const struct nc__node *root, bool (*known)(const char *key)) {
  if (!root || root->kind != NC__MAP || root->nptr == 0) return false;
  for (size_t i = 0; i < root->nptr; i += 2)
    if (root->items[i]->kind != NC__SCALAR || !known(root->items[i]->text)) return false;
  return true;
}

/* The parser: with known set, quietly first (no error quotes the text), and
 * again verbosely only if the file is recognisably one of ours. With all set,
 * duplicate keys are collected (in a list of this parse's own, handed on only
 * if the parse succeeds: a syntax error is reported alone). */
static struct nc__node *parse(const char *name, const char *text, size_t len,
                              bool (*known)(const char *key), struct nc_error *err,
                              struct nc_errors *all) {
  struct builder b;
  struct nc_errors dups;
  memset(&b, 0, sizeof b);
  memset(&dups, 0, sizeof dups);
  b.quiet = known != NULL;
  b.name = name;
  b.text = text;
  b.len = len;
  b.err = err;
  b.all = all ? &dups : NULL;
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) {
    nc__error_set(err, name, 0, 0, NULL, "out of memory while reading YAML");
    return NULL;
  }
  yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&p, &ev)) {
      parser_failed(&b, &p);
      break;
    }
    bool more = on_event(&b, &ev);
    yaml_event_delete(&ev);
    if (!more || b.failed) break;
  }
  yaml_parser_delete(&p);
  for (int d = 0; d < NC__MAX_DEPTH; d++) keyset_free(&b.keys[d]);
  if (b.failed || (known && dups.n && top_keys_known(b.root, known))) {
    /* Failed, or collected quiet duplicates: verbosely again if ours. */
    bool ours = known && top_keys_known(b.root, known);
    nc_errors_free(&dups);
    nc__node_free(b.root);
    if (!b.failed) return parse(name, text, len, NULL, err, all);
    return ours ? parse(name, text, len, NULL, err, NULL) : NULL;
  }
  for (size_t i = 0; i < dups.n; i++) nc_errors_add(all, &dups.v[i]);
  if (all) all->more += dups.more, all->fatal |= dups.fatal;
  nc_errors_free(&dups);
  struct nc__node *root = b.root;
  if (!root || (root->kind == NC__SCALAR && !root->quoted && root->text[0] == 0)) {
    nc__node_free(root);
    nc__error_set(err, name, 0, 0,
                  "write at least one section, e.g. 'nic: {desc_spacing: 32}', or delete the file",
                  "the file is empty");
    return NULL;
  }
  if (root->kind != NC__MAP) {
    nc__error_set(err, name, root->line, root->col,
                  "the top level holds sections as 'key: value' lines, e.g. 'nic: "
                  "{desc_spacing: 32}'",
                  "the top level must be a mapping, but it is %s", nc__node_kind_name(root));
    nc__node_free(root);
    return NULL;
  }
  return root;
}

/* Reads a whole file into a NUL-terminated buffer; see config_internal.h. */
char *nc__read_file(const char *path, size_t *len, struct nc_error *err) {
  return nc__read_file_ex(path, NC__MAX_FILE_BYTES, NULL, len, err);
}

/* Reads a file of at most max bytes; see config_internal.h. */
char *nc__read_file_ex(const char *path, size_t max, struct stat *st_out,
                       size_t *len, struct nc_error *err) {
  /* O_NONBLOCK: a FIFO or terminal named as any input (a scenario, suite or
   * calibration spec too) must not block the open; it is refused below
   * before anything is read from it. Every input is a regular file. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    int e = errno;
    nc__error_set(err, path, 0, 0,
                  e == ENOENT ? "check the path (relative paths start at the current directory)"
                              : NULL,
                  "cannot open the file: %s", strerror(e));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    nc__error_set(err, path, 0, 0, NULL, "cannot read the file: %s", strerror(e));
    return NULL;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    nc__error_set(err, path, 0, 0, "give the path of a .yaml file", "this is a directory");
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    nc__error_set(err, path, 0, 0, "give the path of a .yaml file",
                  "this is not a regular file (a device, FIFO or socket)");
    return NULL;
  }
  {
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
    close(fd);
    nc__error_set(err, path, 0, 0, NULL, "the file is larger than %zu %s (the limit)",
                  max >= (1u << 20) ? max >> 20 : max >> 10, max >= (1u << 20) ? "MiB" : "KiB");
    return NULL;
  }
  if (st_out) *st_out = st;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  int rerr = 0;
  while (buf) {
    if (n == cap) {
      if (cap > max) {
        free(buf);
        close(fd);
        nc__error_set(err, path, 0, 0, NULL, "the file is larger than %zu %s (the limit)",
                      max >= (1u << 20) ? max >> 20 : max >> 10, max >= (1u << 20) ? "MiB" : "KiB");
        return NULL;
      }
      cap = cap * 2 < max + 1 ? cap * 2 : max + 1;
      char *nb = realloc(buf, cap + 1);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0) {
      if (errno == EINTR) continue;
      rerr = errno;
      break;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  close(fd);
  if (!buf) {
    nc__error_set(err, path, 0, 0, NULL, "out of memory reading the file");
    return NULL;
  }
  if (rerr) {
    free(buf);
    nc__error_set(err, path, 0, 0, NULL, "cannot read the file: %s", strerror(rerr));
    return NULL;
  }
  buf[n] = 0;
  *len = n;
  return buf;
}
