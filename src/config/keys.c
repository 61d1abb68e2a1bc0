/* keys.c: the key table generated from schema.h, key lookup and spelling suggestions, and the
 * one value parser used for defaults, files and --set. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config_internal.h"

/* ---- the table ----------------------------------------------------------- */

#define NC_KEY_ENTRY(sec, nm, type, unit, def, min, max, choices, doc)                   \
  {#sec,     #nm,          #sec "." #nm, NC_##type, unit, def, (double)(min), (double)(max), \
   choices,  doc,          offsetof(struct nicsim_config, sec.nm)},
#define NC_KEY_SECTION(sec) NC_SECTION_##sec(NC_KEY_ENTRY)

static const struct nc_key nc__table[NC_KEY__COUNT] = {NC_SECTIONS(NC_KEY_SECTION)};

#define NC_SECTION_NAME(sec) #sec,
static const char *const nc__sections[] = {NC_SECTIONS(NC_SECTION_NAME)};
#define NC__NSECTIONS (sizeof nc__sections / sizeof nc__sections[0])

/* The table of all keys, NC_KEY__COUNT entries in schema order. */
const struct nc_key *nc_keys(void) { return nc__table; }

/* Key by dotted path, or NULL. */
const struct nc_key *nc_key_find(const char *path) {
  if (!path) return NULL;
  for (size_t i = 0; i < NC_KEY__COUNT; i++)
    if (strcmp(nc__table[i].path, path) == 0) return &nc__table[i];
  return NULL;
}

/* Key by section and name, or NULL. */
const struct nc_key *nc__key_find2(const char *section, const char *name) {
  for (size_t i = 0; i < NC_KEY__COUNT; i++)
    if (strcmp(nc__table[i].section, section) == 0 && strcmp(nc__table[i].name, name) == 0)
      return &nc__table[i];
  return NULL;
}

/* True if name is a schema section. */
bool nc__is_section(const char *name) {
  for (size_t i = 0; i < NC__NSECTIONS; i++)
    if (strcmp(nc__sections[i], name) == 0) return true;
  return false;
}

/* Appends s to buf as a comma-separated list item, ending in "..." if full. */
static void list_append(char *buf, size_t n, const char *s) {
  size_t used = strlen(buf);
  size_t need = strlen(s) + (used ? 2 : 0);
  if (used + need + 4 >= n) {
    if (used + 4 < n && !strstr(buf, "...")) strcat(buf, ", ...");
    return;
  }
  if (used) strcat(buf, ", ");
  strcat(buf, s);
}

/* Writes the section names as "run, cpu, ...". */
void nc__list_sections(char *buf, size_t n) {
  if (!n) return;
  buf[0] = 0;
  for (size_t i = 0; i < NC__NSECTIONS; i++) list_append(buf, n, nc__sections[i]);
}

/* Writes the key names of section sec as "name, name, ...". */
void nc__list_keys(const char *sec, char *buf, size_t n) {
  if (!n) return;
  buf[0] = 0;
  for (size_t i = 0; i < NC_KEY__COUNT; i++)
    if (strcmp(nc__table[i].section, sec) == 0) list_append(buf, n, nc__table[i].name);
}

/* ---- suggestions ----------------------------------------------------------- */

#define NC__FAR ((size_t)1 << 20)

/* Levenshtein distance between a and b (NC__FAR if either exceeds 128 chars). */
size_t nc__edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 128 || lb > 128) return NC__FAR;
  size_t row[129];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* Keys that were removed, with what replaced them. A scenario that still sets
 * one is refused with this hint, so a lumped cost is never counted beside the
 * parts that replaced it. */
static const struct {
  const char *path, *hint;
} nc__removed[] = {
    {"cpu.stack_rx_cycles_per_pkt",
     "removed: the receive stack is charged by its parts in instructions (stack.gro_instructions, "
     "stack.ip_rcv_instructions, stack.tcp_rcv_instructions, ...), turned into cycles by cpu.kernel_ipc; "
     "see docs/host.md, \"The stack\""},
    {"cpu.stack_tx_cycles_per_pkt",
     "removed: the send stack is charged by its parts in instructions (stack.udp_sendmsg_instructions, "
     "stack.ip_output_instructions, ...) and cpu.syscall_cycles; see docs/host.md, \"The stack\""},
    {"cpu.gro_cycles_per_pkt",
     "removed: GRO is stack.gro_instructions per received frame, turned into cycles by cpu.kernel_ipc; "
     "see docs/host.md, \"The stack\""},
};

const char *nc_key_removed_hint(const char *path) {
  if (!path) return NULL;
  for (size_t i = 0; i < sizeof nc__removed / sizeof nc__removed[0]; i++)
    if (strcmp(path, nc__removed[i].path) == 0) return nc__removed[i].hint;
  return NULL;
}

/* Largest edit distance still worth suggesting for a word of len characters. */
static size_t suggest_limit(size_t len) { return len <= 3 ? 1 : len <= 6 ? 2 : 3; }

/* The known key nearest to a misspelt path (edit distance), or NULL if none is close.
 * Compares the whole path, the key name alone (a key written in the wrong
 * section costs 1 more), and a name contained in a longer key name. */
const struct nc_key *nc_key_suggest(const char *path) {
  if (!path || !*path || strlen(path) > 128) return NULL;
  char sec[130] = "";
  const char *name = path;
  const char *dot = strchr(path, '.');
  if (dot) {
    memcpy(sec, path, (size_t)(dot - path));
    sec[dot - path] = 0;
    name = dot + 1;
  }
  size_t nlen = strlen(name);
  const struct nc_key *best = NULL;
  size_t best_cost = NC__FAR;
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &nc__table[i];
    size_t other = strcmp(sec, k->section) != 0;
    size_t cost = nc__edit_distance(path, k->path);
    size_t c2 = nc__edit_distance(name, k->name) + other;
    if (c2 < cost) cost = c2;
    if (nlen >= 4 && (strstr(k->name, name) || (strlen(k->name) >= 4 && strstr(name, k->name))))
      if (1 + other < cost) cost = 1 + other;
    if (cost < best_cost) {
      best_cost = cost;
      best = k;
    }
  }
  return best && best_cost <= suggest_limit(nlen ? nlen : strlen(path)) ? best : NULL;
}

/* ---- errors ------------------------------------------------------------- */

/* snprintf that truncates silently and always terminates. */
void nc__fmt(char *buf, size_t n, const char *fmt, ...) {
  if (!n) return;
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  if (r < 0) buf[0] = 0;
}

/* Length of the control character at s (a C0 byte, DEL, or a C1 character
 * U+0080..U+009F in UTF-8), or 0 if s does not start with one. */
static size_t ctrl_len(const char *s) {
  unsigned char c = (unsigned char)s[0];
  if ((c && c < 0x20) || c == 0x7f) return 1;
  if (c == 0xC2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9F) return 2;
  return 0;
}

/* The first control character in s, or NULL; see config_internal.h. */
const char *nc__find_ctrl(const char *s) {
  for (; s && *s; s++)
    if (ctrl_len(s)) return s;
  return NULL;
}

/* Copies src into dst (n bytes) with every control character written as
 * \xNN per byte, so that printing it cannot drive a terminal; truncates
 * before an escape that does not fit, always terminates. */
void nc__escape_ctrl(char *dst, size_t n, const char *src) {
  size_t j = 0;
  if (!n) return;
  for (const char *p = src; *p;) {
    size_t cl = ctrl_len(p);
    if (!cl) {
      if (j + 1 >= n) break;
      dst[j++] = *p++;
      continue;
    }
    if (j + 4 * cl >= n) break;
    for (size_t k = 0; k < cl; k++, p++) {
      snprintf(dst + j, n - j, "\\x%02X", (unsigned char)*p);
      j += 4;
    }
  }
  dst[j] = 0;
}

/* Fills err with a position, a hint (NULL: none) and a formatted message.
 * Message and hint quote user text (keys, labels, platform names): their
 * control characters are escaped (nc__escape_ctrl). */
void nc__error_set(struct nc_error *err, const char *file, int line, int col, const char *hint,
                   const char *fmt, ...) {
  if (!err) return;
  char msg[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (r < 0) msg[0] = 0;
  /* hint may point into *err (e.g. err->hint itself): copy it before clearing. */
  char hint_copy[sizeof err->hint];
  nc__fmt(hint_copy, sizeof hint_copy, "%s", hint ? hint : "");
  memset(err, 0, sizeof *err);
  /* A name too long for the field keeps its end, marked, never cut silently. */
  /* The file name, as it may be printed, has its control characters escaped. */
  char fname[sizeof err->where.file * 4];
  nc__escape_ctrl(fname, sizeof fname, file ? file : "");
  size_t fl = strlen(fname);
  if (fl >= sizeof err->where.file)
    nc__fmt(err->where.file, sizeof err->where.file, "...%s",
            fname + fl - (sizeof err->where.file - 4));
  else
    nc__fmt(err->where.file, sizeof err->where.file, "%s", fname);
  err->where.line = line;
  err->where.col = col;
  nc__escape_ctrl(err->msg, sizeof err->msg, msg);
  nc__escape_ctrl(err->hint, sizeof err->hint, hint_copy);
}

/* Prints "file:line:col: error: msg" and, if any, "  hint: ..." to f. */
void nc_error_print(const struct nc_error *e, FILE *f) {
  char file[4 * sizeof e->where.file];
  if (!e || !f) return;
  /* A file name is a name: a line break in it cannot start a line of its own. */
  nc__escape_ctrl(file, sizeof file, e->where.file);
  if (e->where.file[0] && e->where.line > 0)
    fprintf(f, "%s:%d:%d: ", file, e->where.line, e->where.col > 0 ? e->where.col : 1);
  else if (e->where.file[0])
    fprintf(f, "%s: ", file);
  fprintf(f, "error: %s\n", e->msg);
  if (e->hint[0]) fprintf(f, "  hint: %s\n", e->hint);
}

/* ---- value text ---------------------------------------------------------- */

/* Shortest text for d that reads back as exactly d. */
void nc__real_format(double d, char *buf, size_t n) {
  if (!n) return;
  if (d == 0) d = 0; /* no "-0" */
  if (!isfinite(d)) {
    nc__fmt(buf, n, "%s", isnan(d) ? "nan" : d > 0 ? "inf" : "-inf");
    return;
  }
  for (int prec = 15; prec <= 17; prec++) {
    nc__fmt(buf, n, "%.*g", prec, d);
    if (strtod(buf, NULL) == d) return;
  }
}

/* Writes a bound of key k: an integer for INT keys, the shortest real otherwise. */
static void bound_text(const struct nc_key *k, double v, char *buf, size_t n) {
  if (k->type == NC_INT && fabs(v) < 9.3e18)
    nc__fmt(buf, n, "%" PRId64, nc__int_bound(v));
  else
    nc__real_format(v, buf, n);
}

/* Writes the allowed set of key k: "an integer in [16, 4096] (B)". */
void nc__expect_text(const struct nc_key *k, char *buf, size_t n) {
  char lo[40], hi[40], unit[48] = "";
  if (k->unit[0]) nc__fmt(unit, sizeof unit, " (%s)", k->unit);
  bound_text(k, k->min, lo, sizeof lo);
  bound_text(k, k->max, hi, sizeof hi);
  const char *what = k->type == NC_INT ? "an integer" : "a number";
  switch (k->type) {
  case NC_BOOL: nc__fmt(buf, n, "true or false"); break;
  case NC_INT:
  case NC_REAL:
    if (k->max >= NC_INF)
      nc__fmt(buf, n, "%s >= %s%s", what, lo, unit);
    else
      nc__fmt(buf, n, "%s in [%s, %s]%s", what, lo, hi, unit);
    break;
  case NC_ENUM: {
    char list[256];
    size_t j = 0;
    for (const char *c = k->choices; *c && j + 3 < sizeof list; c++) {
      if (*c == '|') {
        list[j++] = ',';
        list[j++] = ' ';
      } else {
        list[j++] = *c;
      }
    }
    list[j] = 0;
    nc__fmt(buf, n, "one of %s", list);
    break;
  }
  case NC_STR: nc__fmt(buf, n, "a string of at most %d bytes", NC_STR_MAX - 1); break;
  }
}

/* Copies text into buf for a message: at most 40 characters, non-printing
 * bytes as \xNN. */
static void shown(const char *text, size_t len, char *buf, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < len && j + 5 < n; i++) {
    unsigned char c = (unsigned char)text[i];
    if (i >= 40) {
      j += (size_t)snprintf(buf + j, n - j, "...");
      break;
    }
    if (c < 0x20 || c == 0x7f)
      j += (size_t)snprintf(buf + j, n - j, "\\x%02X", c);
    else
      buf[j++] = (char)c;
  }
  buf[j < n ? j : n - 1] = 0;
}

/* The index of choice (len bytes) among k's '|'-separated choices, or -1.
 * With fold, compares case-insensitively. */
static int choice_index(const struct nc_key *k, const char *s, size_t len, bool fold) {
  const char *c = k->choices;
  for (int idx = 0; *c; idx++) {
    const char *end = strchr(c, '|');
    size_t cl = end ? (size_t)(end - c) : strlen(c);
    if (cl == len && (fold ? strncasecmp(c, s, len) == 0 : strncmp(c, s, len) == 0)) return idx;
    if (!end) break;
    c = end + 1;
  }
  return -1;
}

/* Writes choice idx of key k into buf ("" if out of range). */
static void choice_name(const struct nc_key *k, int idx, char *buf, size_t n) {
  const char *c = k->choices;
  for (int i = 0; i < idx && c; i++) {
    c = strchr(c, '|');
    if (c) c++;
  }
  if (!c || idx < 0) {
    nc__fmt(buf, n, "%s", "");
    return;
  }
  const char *end = strchr(c, '|');
  size_t cl = end ? (size_t)(end - c) : strlen(c);
  nc__fmt(buf, n, "%.*s", (int)cl, c);
}

/* An INT key's bound as an integer: the schema's bounds are whole numbers
 * that doubles hold exactly (a unit test checks it); values are compared
 * with them as integers, never through a double. */
int64_t nc__int_bound(double b) {
  if (b >= 9223372036854775807.0) return INT64_MAX;
  if (b <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)b;
}

/* Parses a whole decimal or 0x-hex integer with an optional sign. Returns 0,
 * 1 (not an integer) or 2 (does not fit in int64). */
static int parse_int(const char *s, size_t len, int64_t *out);

/* A whole integer in [lo, hi]; see config.h. */
int nc_int_parse(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  int64_t v = 0;
  if (!s || !*s) return 1;
  int r = parse_int(s, strlen(s), &v);
  if (r) return r;
  if (v < lo || v > hi) return 2;
  *out = v;
  return 0;
}

static int parse_int(const char *s, size_t len, int64_t *out) {
  size_t i = 0;
  bool neg = false;
  if (i < len && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  unsigned base = 10;
  if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= len) return 1;
  if (base == 10 && s[i] == '0' && i + 1 < len) return 1; /* YAML 1.1 octal look-alike */
  uint64_t v = 0;
  bool over = false;
  const uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < len; i++) {
    int d;
    unsigned char c = (unsigned char)s[i];
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && isxdigit(c))
      d = tolower(c) - 'a' + 10;
    else
      return 1;
    if (v > (lim - (uint64_t)d) / base) over = true;
    if (!over) v = v * base + (uint64_t)d;
  }
  if (over) return 2;
  *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
  return 0;
}

/* True if s is a YAML 1.1 spelling of NaN or infinity. */
static bool is_nonfinite_word(const char *s) {
  if (*s == '+' || *s == '-') s++;
  if (*s == '.') s++;
  return strcasecmp(s, "nan") == 0 || strcasecmp(s, "inf") == 0 ||
         strcasecmp(s, "infinity") == 0;
}

/* Parses text as key k's value; see config_internal.h. */
int nc__value_parse(const struct nc_key *k, const char *text, size_t len, bool quoted,
                    union nc__v *out, char *msg, size_t msglen, char *hint, size_t hintlen) {
  char expect[300], got[200];
  nc__expect_text(k, expect, sizeof expect);
  shown(text, len, got, sizeof got);
  nc__fmt(hint, hintlen, "%s", "");
  if (memchr(text, 0, len)) {
    nc__fmt(msg, msglen, "the value of %s contains a NUL character", k->path);
    nc__fmt(hint, hintlen, "expected %s", expect);
    return -1;
  }
  if (len == 0 && !quoted && k->type != NC_STR) {
    nc__fmt(msg, msglen, "missing value for %s; expected %s", k->path, expect);
    return -1;
  }
  if (quoted && (k->type == NC_BOOL || k->type == NC_INT || k->type == NC_REAL)) {
    nc__fmt(msg, msglen, "invalid value \"%s\" for %s: a quoted value is a string; expected %s",
            got, k->path, expect);
    nc__fmt(hint, hintlen, "remove the quotes");
    return -1;
  }
  char buf[128];
  switch (k->type) {
  case NC_BOOL:
    if (len == 4 && memcmp(text, "true", 4) == 0) {
      out->b = true;
      return 0;
    }
    if (len == 5 && memcmp(text, "false", 5) == 0) {
      out->b = false;
      return 0;
    }
    nc__fmt(msg, msglen, "invalid value '%s' for %s; expected true or false", got, k->path);
    nc__fmt(hint, hintlen, "write true or false in lower case (YAML 1.1 forms such as "
                           "yes/no/on/off/True are not accepted)");
    return -1;
  case NC_INT: {
    int64_t v = 0;
    int r = parse_int(text, len, &v);
    if (r == 1) {
      nc__fmt(msg, msglen, "invalid value '%s' for %s; expected %s", got, k->path, expect);
      if (len > 1 && text[0] == '0' && isdigit((unsigned char)text[1]) && !memchr(text, '.', len))
        nc__fmt(hint, hintlen, "leading zeros are ambiguous (octal in YAML 1.1); write the "
                               "number without them, or in hex like 0x40");
      else
        nc__fmt(hint, hintlen, "write a whole number, in decimal or in hex like 0x40");
      return -1;
    }
    if (r == 2 || v < nc__int_bound(k->min) || v > nc__int_bound(k->max)) {
      nc__fmt(msg, msglen, "%s = %s is out of range; expected %s", k->path, got, expect);
      return -1;
    }
    out->i = v;
    return 0;
  }
  case NC_REAL: {
    if (len >= sizeof buf) {
      nc__fmt(msg, msglen, "invalid value '%s' for %s; expected %s", got, k->path, expect);
      return -1;
    }
    memcpy(buf, text, len);
    buf[len] = 0;
    if (is_nonfinite_word(buf)) {
      nc__fmt(msg, msglen, "invalid value '%s' for %s; expected %s", got, k->path, expect);
      nc__fmt(hint, hintlen, "NaN and infinity are not allowed; write a finite number");
      return -1;
    }
    char *end = NULL;
    unsigned char c0 = (unsigned char)buf[0];
    errno = 0;
    double v = strtod(buf, &end);
    if (!(isdigit(c0) || c0 == '.' || c0 == '+' || c0 == '-') || end != buf + len ||
        isnan(v)) {
      nc__fmt(msg, msglen, "invalid value '%s' for %s; expected %s", got, k->path, expect);
      nc__fmt(hint, hintlen, "write a decimal number such as 2.5 or 1e3");
      return -1;
    }
    if ((errno == ERANGE && fabs(v) > 1) || !isfinite(v) || v < k->min || v > k->max) {
      nc__fmt(msg, msglen, "%s = %s is out of range; expected %s", k->path, got, expect);
      return -1;
    }
    out->r = v == 0 ? 0.0 : v;
    return 0;
  }
  case NC_ENUM: {
    int idx = choice_index(k, text, len, false);
    if (idx >= 0) {
      out->e = idx;
      return 0;
    }
    nc__fmt(msg, msglen, "invalid value '%s' for %s; expected %s", got, k->path, expect);
    idx = choice_index(k, text, len, true);
    if (idx >= 0) {
      choice_name(k, idx, buf, sizeof buf);
      nc__fmt(hint, hintlen, "did you mean '%s'? (choices are case-sensitive)", buf);
      return -1;
    }
    size_t best = NC__FAR;
    char bestname[128] = "", word[128];
    shown(text, len, word, sizeof word);
    for (int i = 0;; i++) {
      choice_name(k, i, buf, sizeof buf);
      if (!buf[0]) break;
      size_t d = nc__edit_distance(word, buf);
      if (d < best) {
        best = d;
        nc__fmt(bestname, sizeof bestname, "%s", buf);
      }
    }
    if (best <= suggest_limit(len)) nc__fmt(hint, hintlen, "did you mean '%s'?", bestname);
    return -1;
  }
  case NC_STR:
    if (len >= NC_STR_MAX) {
      nc__fmt(msg, msglen, "the value of %s is %zu bytes long; the limit is %d", k->path, len,
              NC_STR_MAX - 1);
      return -1;
    }
    out->s = malloc(len + 1);
    if (!out->s) {
      nc__fmt(msg, msglen, "out of memory");
      return -1;
    }
    memcpy(out->s, text, len);
    out->s[len] = 0;
    return 0;
  }
  nc__fmt(msg, msglen, "internal error: key %s has an unknown type", k->path);
  return -1;
}

/* Stores v into k's field of c. */
void nc__value_store(struct nicsim_config *c, const struct nc_key *k, const union nc__v *v) {
  char *field = (char *)c + k->offset;
  switch (k->type) {
  case NC_BOOL: memcpy(field, &v->b, sizeof v->b); break;
  case NC_INT: memcpy(field, &v->i, sizeof v->i); break;
  case NC_REAL: memcpy(field, &v->r, sizeof v->r); break;
  case NC_ENUM: memcpy(field, &v->e, sizeof v->e); break;
  case NC_STR: nc__fmt(field, NC_STR_MAX, "%s", v->s ? v->s : ""); break;
  }
}

/* Formats v (of key k) as its canonical text. */
void nc__value_text(const struct nc_key *k, const union nc__v *v, char *buf, size_t n) {
  switch (k->type) {
  case NC_BOOL: nc__fmt(buf, n, "%s", v->b ? "true" : "false"); break;
  case NC_INT: nc__fmt(buf, n, "%" PRId64, v->i); break;
  case NC_REAL: nc__real_format(v->r, buf, n); break;
  case NC_ENUM: choice_name(k, v->e, buf, n); break;
  case NC_STR: nc__fmt(buf, n, "%s", v->s ? v->s : ""); break;
  }
}

/* Reads key k's field of c into a value (STR: points into c, not owned). */
static union nc__v field_get(const struct nicsim_config *c, const struct nc_key *k) {
  union nc__v v;
  const char *field = (const char *)c + k->offset;
  memset(&v, 0, sizeof v);
  switch (k->type) {
  case NC_BOOL: memcpy(&v.b, field, sizeof v.b); break;
  case NC_INT: memcpy(&v.i, field, sizeof v.i); break;
  case NC_REAL: memcpy(&v.r, field, sizeof v.r); break;
  case NC_ENUM: memcpy(&v.e, field, sizeof v.e); break;
  case NC_STR: v.s = (char *)field; break;
  }
  return v;
}

/* Formats key k's value in c as YAML/CSV text. */
void nc_value_format(const struct nicsim_config *c, const struct nc_key *k, char *buf, size_t n) {
  if (!n) return;
  if (!c || !k) {
    buf[0] = 0;
    return;
  }
  union nc__v v = field_get(c, k);
  nc__value_text(k, &v, buf, n);
}

/* Key k's value in c as a number: bools 0/1, enums their index, strings NaN. */
double nc_value_number(const struct nicsim_config *c, const struct nc_key *k) {
  if (!c || !k) return NAN;
  union nc__v v = field_get(c, k);
  switch (k->type) {
  case NC_BOOL: return v.b ? 1 : 0;
  case NC_INT: return (double)v.i;
  case NC_REAL: return v.r;
  case NC_ENUM: return v.e;
  case NC_STR: return NAN;
  }
  return NAN;
}

/* ---- defaults and --set ------------------------------------------------------ */

/* Fills c with the schema defaults (origins "<default>"). */
void nc_config_defaults(struct nicsim_config *c) {
  memset(c, 0, sizeof *c);
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &nc__table[i];
    union nc__v v;
    char msg[8], hint[8];
    memset(&v, 0, sizeof v);
    /* Every default parses: tests/unit/config checks it. */
    if (nc__value_parse(k, k->def, strlen(k->def), false, &v, msg, sizeof msg, hint,
                        sizeof hint) == 0) {
      nc__value_store(c, k, &v);
      if (k->type == NC_STR) free(v.s);
    }
    nc__fmt(c->origin[i].file, sizeof c->origin[i].file, "<default>");
  }
}

/* Applies one "KEY=VALUE" override to c; see config.h. */
int nc_config_set(struct nicsim_config *c, const char *arg, struct nc_error *err) {
  static const char cl[] = "<command line>";
  char key[160];
  const char *eq = arg ? strchr(arg, '=') : NULL;
  if (!arg || !eq) {
    nc__error_set(err, cl, 1, 1, "write --set KEY=VALUE, e.g. --set nic.desc_spacing=32",
                  "--set '%s' has no '='", arg ? arg : "");
    return -1;
  }
  size_t klen = (size_t)(eq - arg);
  if (klen == 0) {
    nc__error_set(err, cl, 1, 1, "write --set KEY=VALUE, e.g. --set nic.desc_spacing=32",
                  "--set '%s' has no key before '='", arg);
    return -1;
  }
  nc__fmt(key, sizeof key, "%.*s", (int)(klen < 150 ? klen : 150), arg);
  const struct nc_key *k = klen < 150 ? nc_key_find(key) : NULL;
  if (!k) {
    char hint[400];
    const struct nc_key *s = nc_key_suggest(key);
    if (strcmp(key, "platform") == 0 || strcmp(key, "name") == 0 ||
        strcmp(key, "description") == 0 || strcmp(key, "label") == 0) {
      nc__error_set(err, cl, 1, 1,
                    "--set changes configuration keys (section.key); write it in the "
                    "scenario file instead",
                    "'%s' cannot be changed with --set", key);
      return -1;
    }
    if (nc__is_section(key)) {
      char keys[300];
      nc__list_keys(key, keys, sizeof keys);
      nc__fmt(hint, sizeof hint, "write --set %s.KEY=VALUE; keys of %s: %s", key, key, keys);
      nc__error_set(err, cl, 1, 1, hint, "'%s' is a section, not a key", key);
      return -1;
    }
    if (nc_key_removed_hint(key))
      nc__fmt(hint, sizeof hint, "%s", nc_key_removed_hint(key));
    else if (s)
      nc__fmt(hint, sizeof hint, "did you mean '%s'?", s->path);
    else
      nc__fmt(hint, sizeof hint, "keys are section.name, e.g. nic.desc_spacing; see "
                                 "docs/config.md for the list");
    nc__error_set(err, cl, 1, 1, hint, "unknown key '%s'", key);
    return -1;
  }
  const char *val = eq + 1;
  int col = (int)klen + 2;
  union nc__v v;
  char msg[512], hint[512];
  memset(&v, 0, sizeof v);
  if (nc__value_parse(k, val, strlen(val), false, &v, msg, sizeof msg, hint, sizeof hint)) {
    nc__error_set(err, cl, 1, col, hint, "%s", msg);
    return -1;
  }
  nc__value_store(c, k, &v);
  if (k->type == NC_STR) free(v.s);
  struct nc_origin *o = &c->origin[k - nc__table];
  nc__fmt(o->file, sizeof o->file, "%s", cl);
  o->line = 1;
  o->col = col;
  o->layer = NC_LAYER_SET;
  return 0;
}
