/*
 * dict_check.c: keeps the fuzz dictionary (tests/fuzz/yaml.dict) in step with
 * the schema (src/config/schema.h), as config_doc_tool does for docs/config.md.
 *
 *   fuzz_dict_check yaml.dict            check: exit 1 if an entry is missing
 *   fuzz_dict_check --update yaml.dict   rewrite the generated block
 *
 * The generated block lies between the lines "# BEGIN KEYS" and "# END KEYS"
 * and lists every section, key name, dotted key, "key: default" line and enum
 * choice of the schema. The check reports each missing entry and how to add it
 * (`cmake --build <dir> --target update-fuzz-dict`); entries the schema no
 * longer has are harmless and not reported. The loader's own words (name,
 * platform, sweep, ...) must be in the hand-written part.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

#define BEGIN_MARK "# BEGIN KEYS"
#define END_MARK "# END KEYS"

/* Writes s as the value of a dictionary entry: quotes, backslashes and
 * non-printing bytes escaped as \xNN. */
static void put_value(FILE *f, const char *tag, const char *s) {
  fprintf(f, "%s=\"", tag);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p >= 0x20 && *p < 0x7f) fputc(*p, f);
    else fprintf(f, "\\x%02X", *p);
  }
  fputs("\"\n", f);
}

/* Writes the generated block (markers included). */
static void write_block(FILE *f) {
  const struct nc_key *keys = nc_keys();
  fputs(BEGIN_MARK " (generated from src/config/schema.h by fuzz_dict_check --update;\n"
        "# rebuild it with: cmake --build <build dir> --target update-fuzz-dict)\n", f);
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &keys[i];
    if (i == 0 || strcmp(keys[i - 1].section, k->section) != 0) {
      char line[96];
      put_value(f, "section", k->section);
      snprintf(line, sizeof line, "%s:\n  ", k->section);
      put_value(f, "section", line);
    }
    char line[400];
    put_value(f, "key", k->name);
    put_value(f, "path", k->path);
    snprintf(line, sizeof line, "%s: %s\n", k->path, k->def);
    put_value(f, "line", line);
    if (k->type == NC_ENUM) {
      char c[256];
      snprintf(c, sizeof c, "%s", k->choices);
      for (char *save = NULL, *t = strtok_r(c, "|", &save); t; t = strtok_r(NULL, "|", &save))
        put_value(f, "choice", t);
    }
  }
  fputs(END_MARK "\n", f);
}

/* Reads a whole file (at most 1 MiB) into a NUL-terminated buffer. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 20;
  char *buf = calloc(1, cap + 1);
  size_t n = buf ? fread(buf, 1, cap, f) : 0;
  fclose(f);
  if (!buf || n == 0 || n == cap) {
    free(buf);
    return NULL;
  }
  return buf;
}

static const char *dict;
static int missing;

/* True if the dictionary has an entry whose value is exactly word. */
static int has_entry(const char *word) {
  char needle[300];
  snprintf(needle, sizeof needle, "=\"%s\"", word);
  return strstr(dict, needle) != NULL;
}

/* Reports a missing entry. */
static void require(const char *what, const char *word) {
  if (!has_entry(word)) {
    printf("yaml.dict lacks the %s \"%s\"\n", what, word);
    missing++;
  }
}

/* Replaces the generated block of the file at path; 0 on success. */
static int update(const char *path, char *text) {
  char *b = strstr(text, BEGIN_MARK), *e = b ? strstr(b, END_MARK) : NULL;
  if (!b || !e) {
    fprintf(stderr, "%s: no '%s' ... '%s' block\n", path, BEGIN_MARK, END_MARK);
    return 2;
  }
  e += strlen(END_MARK);
  if (*e == '\n') e++;
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    perror(tmp);
    return 2;
  }
  fwrite(text, 1, (size_t)(b - text), f);
  write_block(f);
  fputs(e, f);
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    perror(path);
    return 2;
  }
  printf("%s: key block rewritten (%zu keys)\n", path, (size_t)NC_KEY__COUNT);
  return 0;
}

int main(int argc, char **argv) {
  int do_update = argc == 3 && strcmp(argv[1], "--update") == 0;
  if (argc != 2 && !do_update) {
    fprintf(stderr, "usage: %s [--update] yaml.dict\n", argv[0]);
    return 2;
  }
  const char *path = argv[argc - 1];
  char *text = slurp(path);
  if (!text) {
    fprintf(stderr, "%s: unreadable, empty or over 1 MiB\n", path);
    return 2;
  }
  if (do_update) {
    int r = update(path, text);
    free(text);
    return r;
  }
  dict = text;
  const struct nc_key *keys = nc_keys();
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &keys[i];
    require("section", k->section);
    require("key name", k->name);
    require("dotted key", k->path);
    if (k->type == NC_ENUM) {
      char c[256];
      snprintf(c, sizeof c, "%s", k->choices);
      for (char *save = NULL, *t = strtok_r(c, "|", &save); t; t = strtok_r(NULL, "|", &save))
        require("enum choice", t);
    }
  }
  const char *words[] = {"name", "description", "platform", "sweep", "axes", "points", "label"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) require("loader word", words[i]);
  printf("yaml.dict: %zu keys checked, %d entries missing\n", (size_t)NC_KEY__COUNT, missing);
  if (missing)
    printf("rebuild the key block: cmake --build <build dir> --target update-fuzz-dict\n");
  free(text);
  return missing ? 1 : 0;
}
