/* doc.c: writes the key reference of docs/config.md from the schema, so the documentation
 * cannot drift from the code (a unit test compares them). */
#define _POSIX_C_SOURCE 200809L

#include <string.h>

#include "config/config_internal.h"

/* Writes s with Markdown table metacharacters ('|') escaped. */
static void cell(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', f);
    fputc(*s, f);
  }
}

/* The name of a type as the key reference shows it. */
static const char *type_name(enum nc_type t) {
  switch (t) {
  case NC_BOOL: return "bool";
  case NC_INT: return "int";
  case NC_REAL: return "real";
  case NC_ENUM: return "enum";
  case NC_STR: return "string";
  }
  return "?";
}

/* Writes the generated key reference: one Markdown table per section. */
void nc_write_config_doc(FILE *f) {
  const struct nc_key *keys = nc_keys();
  const char *sec = NULL;
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const struct nc_key *k = &keys[i];
    if (!sec || strcmp(sec, k->section) != 0) {
      sec = k->section;
      fprintf(f, "%s### `%s`\n\n", i ? "\n" : "", sec);
      fprintf(f, "| Key | Type | Unit | Default | Allowed | Description |\n");
      fprintf(f, "|-----|------|------|---------|---------|-------------|\n");
    }
    char allowed[300];
    if (k->type == NC_INT || k->type == NC_REAL) {
      char expect[300];
      nc__expect_text(k, expect, sizeof expect);
      /* "an integer in [4, 4096] (B)" -> "[4, 4096]" */
      const char *lb = strchr(expect, '[');
      const char *rb = lb ? strchr(lb, ']') : NULL;
      if (lb && rb)
        nc__fmt(allowed, sizeof allowed, "%.*s", (int)(rb - lb + 1), lb);
      else
        nc__fmt(allowed, sizeof allowed, "%s", expect);
    } else if (k->type == NC_ENUM) {
      nc__expect_text(k, allowed, sizeof allowed);
    } else if (k->type == NC_BOOL) {
      nc__fmt(allowed, sizeof allowed, "true, false");
    } else {
      nc__fmt(allowed, sizeof allowed, "at most %d bytes", NC_STR_MAX - 1);
    }
    fprintf(f, "| `%s` | %s | ", k->path, type_name(k->type));
    cell(f, k->unit[0] ? k->unit : "-");
    fputs(" | `", f);
    cell(f, k->def);
    fputs("` | ", f);
    cell(f, allowed);
    fputs(" | ", f);
    cell(f, k->doc);
    fputs(" |\n", f);
  }
}
