/* metrics_doc.c: the metric tables of docs/metrics.md, generated from the
 * catalogue (the models' statistics declarations), and the check/update of
 * that file's generated regions. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/output.h"


/* Writes s as Markdown table-cell text ('|' escaped). */
static void nicsim__md_cell(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|')
      fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

/* Writes a Markdown table of n metric definitions, first column named first. */
static int nicsim__write_table(FILE *f, const char *first, const struct nicsim_metric_def *defs, size_t n) {
  size_t i;

  fprintf(f, "| %s | Unit | Kind | Meaning |\n", first);
  fputs("|---|---|---|---|\n", f);
  for (i = 0; i < n; i++) {
    fputs("| `", f);
    nicsim__md_cell(f, defs[i].name);
    fputs("` | ", f);
    nicsim__md_cell(f, defs[i].unit);
    fprintf(f, " | %s | ", nicsim_metric_kind_name(defs[i].kind));
    nicsim__md_cell(f, defs[i].desc);
    fputs(" |\n", f);
  }
  return ferror(f) ? -EIO : 0;
}

/* Writes the Markdown table of every column metric. */
int nicsim_write_metrics_doc(FILE *f) {
  return nicsim__write_table(f, "Metric", nicsim_metric_defs(), nicsim_metric_count());
}

/* Writes the Markdown table of the extras (fixed names and families). */
int nicsim_write_extra_metrics_doc(FILE *f) {
  return nicsim__write_table(f, "Pattern", nicsim_metric_extra_defs(), nicsim_metric_extra_count());
}

/* The generated regions of the file: markers and writer. */
static const struct {
  const char *begin, *end;
  int (*write)(FILE *f);
} nicsim__doc_regions[] = {
    {"<!-- BEGIN METRICS -->\n", "<!-- END METRICS -->", nicsim_write_metrics_doc},
    {"<!-- BEGIN EXTRA METRICS -->\n", "<!-- END EXTRA METRICS -->", nicsim_write_extra_metrics_doc},
};
#define NICSIM__DOC_REGIONS (sizeof nicsim__doc_regions / sizeof nicsim__doc_regions[0])

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

/* Emit callback: writes the new text. */
static int nicsim__emit_doc(FILE *f, void *arg) {
  const char *text = arg;
  fputs(text, f);
  return ferror(f) ? -EIO : 0;
}

/* The file's text with each generated region replaced by what the writer
 * gives now: a malloc'd string in *out. 0 or -errno (-EINVAL: a marker is missing). */
static int nicsim__doc_regenerate(const char *text, char **out) {
  char *res = NULL;
  size_t res_len = 0, r;
  const char *at = text;
  FILE *mem = open_memstream(&res, &res_len);
  int rc = 0;

  if (mem == NULL)
    return -errno;
  for (r = 0; r < NICSIM__DOC_REGIONS && rc == 0; r++) {
    const char *begin = strstr(at, nicsim__doc_regions[r].begin);
    const char *end = begin ? strstr(begin, nicsim__doc_regions[r].end) : NULL;
    if (begin == NULL || end == NULL) {
      rc = -EINVAL;
      break;
    }
    begin += strlen(nicsim__doc_regions[r].begin);
    fwrite(at, 1, (size_t)(begin - at), mem);
    rc = nicsim__doc_regions[r].write(mem);
    at = end;
  }
  if (rc == 0)
    fputs(at, mem);
  if (fclose(mem) != 0 && rc == 0)
    rc = -ENOMEM;
  if (rc < 0) {
    free(res);
    return rc;
  }
  *out = res;
  return 0;
}

/* Checks or rewrites the generated regions of a metrics Markdown file. */
int nicsim_metrics_doc_sync(const char *path, bool update, bool *stale) {
  char *text = NULL, *gen = NULL;
  size_t len = 0;
  int rc;

  *stale = false;
  rc = nicsim__read_file(path, &text, &len);
  if (rc < 0)
    return rc;
  rc = nicsim__doc_regenerate(text, &gen);
  if (rc == 0) {
    *stale = strcmp(text, gen) != 0;
    if (*stale && update)
      rc = nicsim_write_atomic(path, nicsim__emit_doc, gen);
  }
  free(gen);
  free(text);
  return rc;
}
