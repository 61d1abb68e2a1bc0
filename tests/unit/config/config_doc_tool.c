/* config_doc_tool.c: `config_doc_tool --update|--check docs/config.md`
 * rewrites or checks the generated key reference (target update-config-doc). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc_sync.h"

/* Entry point: returns 0 if the file is (now) in sync, 1 otherwise, 2 on misuse. */
int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "--update") != 0 && strcmp(argv[1], "--check") != 0)) {
    fprintf(stderr, "usage: %s --update|--check docs/config.md\n", argv[0]);
    return 2;
  }
  const char *path = argv[2];
  char *md = doc_read(path);
  if (!md) {
    perror(path);
    return 1;
  }
  char *out = doc_splice(md);
  if (!out) {
    fprintf(stderr, "%s: error: no '%s' ... '%s' markers; add them where the key table goes\n",
            path, "<!-- BEGIN KEYS -->", "<!-- END KEYS -->");
    free(md);
    return 1;
  }
  int rc = 0;
  if (strcmp(md, out) != 0) {
    if (strcmp(argv[1], "--check") == 0) {
      fprintf(stderr, "%s: the key reference is out of date; run the update-config-doc target\n",
              path);
      rc = 1;
    } else {
      FILE *f = fopen(path, "wb");
      if (!f || fputs(out, f) == EOF || fclose(f) != 0) {
        perror(path);
        rc = 1;
      } else {
        printf("updated %s\n", path);
      }
    }
  }
  free(md);
  free(out);
  return rc;
}
