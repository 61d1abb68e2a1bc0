/* doc_sync.c: extracts and replaces the generated key reference of
 * docs/config.md; used by the doc test and by `update-config-doc`. */
#define _POSIX_C_SOURCE 200809L

#include "doc_sync.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

/* The key reference as nc_write_config_doc writes it. */
char *doc_generate(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  nc_write_config_doc(f);
  fclose(f);
  return buf;
}

/* Pointers to the region of md: after the BEGIN line, up to the END marker. */
static int find_region(const char *md, const char **start, const char **end) {
  const char *b = strstr(md, DOC_BEGIN);
  if (!b) return -1;
  *start = b + strlen(DOC_BEGIN);
  *end = strstr(*start, DOC_END);
  return *end ? 0 : -1;
}

/* The text between the markers of md. */
char *doc_region(const char *md) {
  const char *s, *e;
  if (find_region(md, &s, &e)) return NULL;
  char *r = malloc((size_t)(e - s) + 1);
  if (!r) return NULL;
  memcpy(r, s, (size_t)(e - s));
  r[e - s] = 0;
  return r;
}

/* md with its region replaced by the generated reference. */
char *doc_splice(const char *md) {
  const char *s, *e;
  if (find_region(md, &s, &e)) return NULL;
  char *gen = doc_generate();
  if (!gen) return NULL;
  size_t head = (size_t)(s - md), glen = strlen(gen), tail = strlen(e);
  char *out = malloc(head + glen + tail + 1);
  if (out) {
    memcpy(out, md, head);
    memcpy(out + head, gen, glen);
    memcpy(out + head + glen, e, tail + 1);
  }
  free(gen);
  return out;
}

/* A whole file. */
char *doc_read(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - 1 - n, f);
    if (n < cap - 1) break;
    char *nb = realloc(buf, cap *= 2);
    if (!nb) {
      free(buf);
      buf = NULL;
    } else {
      buf = nb;
    }
  }
  if (buf && ferror(f)) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) buf[n] = 0;
  return buf;
}
