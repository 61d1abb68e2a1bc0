/* metrics_doc.c: the metric table of docs/metrics.md, generated from the
 * registry, and the check/update of that file's generated region. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/output.h"

#define NICSIM__DOC_BEGIN "<!-- BEGIN METRICS -->\n"
#define NICSIM__DOC_END "<!-- END METRICS -->"

/* Writes s as Markdown table-cell text ('|' escaped). */
static void nicsim__md_cell(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|')
      fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

/* Writes the Markdown table of every static metric. */
int nicsim_write_metrics_doc(FILE *f) {
  const struct nicsim_metric_def *defs = nicsim_metric_defs();
  size_t i;

  fputs("| Metric | Unit | Kind | Meaning |\n", f);
  fputs("|---|---|---|---|\n", f);
  for (i = 0; i < NM__COUNT; i++) {
    fprintf(f, "| `%s` | ", defs[i].name);
    nicsim__md_cell(f, defs[i].unit);
    fprintf(f, " | %s | ", nicsim_metric_kind_name(defs[i].kind));
    nicsim__md_cell(f, defs[i].desc);
    fputs(" |\n", f);
  }
  return ferror(f) ? -EIO : 0;
}

/* Reads a whole file into a NUL-terminated malloc'd buffer. 0 or -errno. */
static int nicsim__read_file(const char *path, char **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL, *nbuf;
  size_t cap = 0, n = 0, got;

  if (f == NULL)
    return -errno;
  for (;;) {
    if (cap - n < 4096) {
      cap = cap ? 2 * cap : 16384;
      nbuf = realloc(buf, cap + 1);
      if (nbuf == NULL) {
        free(buf);
        fclose(f);
        return -ENOMEM;
      }
      buf = nbuf;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(f)) {
    free(buf);
    fclose(f);
    return -EIO;
  }
  fclose(f);
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return 0;
}

/* The parts of the file around the generated region, for the rewrite. */
struct nicsim__doc_parts {
  const char *head; /* up to and including the BEGIN marker line */
  size_t head_len;
  const char *gen; /* the new region */
  size_t gen_len;
  const char *tail; /* from the END marker on */
};

/* Emit callback: writes head, generated region, tail. */
static int nicsim__emit_doc(FILE *f, void *arg) {
  const struct nicsim__doc_parts *p = arg;
  fwrite(p->head, 1, p->head_len, f);
  fwrite(p->gen, 1, p->gen_len, f);
  fputs(p->tail, f);
  return ferror(f) ? -EIO : 0;
}

/* Checks or rewrites the generated region of a metrics Markdown file. */
int nicsim_metrics_doc_sync(const char *path, bool update, bool *stale) {
  char *text = NULL, *gen = NULL, *begin, *end;
  size_t len = 0, gen_len = 0;
  struct nicsim__doc_parts parts;
  FILE *mem;
  int rc;

  *stale = false;
  rc = nicsim__read_file(path, &text, &len);
  if (rc < 0)
    return rc;
  begin = strstr(text, NICSIM__DOC_BEGIN);
  end = begin ? strstr(begin, NICSIM__DOC_END) : NULL;
  if (begin == NULL || end == NULL) {
    rc = -EINVAL;
    goto out;
  }
  begin += strlen(NICSIM__DOC_BEGIN);

  mem = open_memstream(&gen, &gen_len);
  if (mem == NULL) {
    rc = -errno;
    goto out;
  }
  rc = nicsim_write_metrics_doc(mem);
  if (fclose(mem) != 0 && rc == 0)
    rc = -ENOMEM;
  if (rc < 0)
    goto out;

  *stale = (size_t)(end - begin) != gen_len || memcmp(begin, gen, gen_len) != 0;
  if (*stale && update) {
    parts.head = text;
    parts.head_len = (size_t)(begin - text);
    parts.gen = gen;
    parts.gen_len = gen_len;
    parts.tail = end;
    rc = nicsim_write_atomic(path, nicsim__emit_doc, &parts);
  }
out:
  free(gen);
  free(text);
  return rc;
}
