/* errors.c: lists of errors (struct nc_errors), so that a file is checked
 * whole: the loader and the rules add every error they find, and a command
 * prints them in file order with a cap (docs/config.md, "How errors are
 * reported"). */
#include <stdlib.h>
#include <string.h>

#include "config/config_internal.h"

/* True if a and b are the same diagnostic. */
static bool same_error(const struct nc_error *a, const struct nc_error *b) {
  return a->where.line == b->where.line && a->where.col == b->where.col &&
         strcmp(a->where.file, b->where.file) == 0 && strcmp(a->msg, b->msg) == 0 &&
         strcmp(a->hint, b->hint) == 0;
}

/* Adds a copy of e unless an identical one is kept; see config.h. */
void nc_errors_add(struct nc_errors *l, const struct nc_error *e) {
  if (!l || !e) return;
  for (size_t i = 0; i < l->n; i++)
    if (same_error(&l->v[i], e)) return;
  if (l->n >= NC_ERRORS_KEPT) {
    l->more++;
    return;
  }
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    if (cap > NC_ERRORS_KEPT) cap = NC_ERRORS_KEPT;
    struct nc_error *v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      l->more++;
      l->fatal = true;
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = *e;
}

/* Adds a rule's error unless it blames a refused value; see config.h. */
void nc_errors_add_blamed(struct nc_errors *l, const struct nicsim_config *c,
                          const struct nc_error *e) {
  if (!l || !e) return;
  for (size_t k = 0; c && k < NC_KEY__COUNT; k++) {
    const struct nc_origin *o = &c->origin[k];
    if (o->layer == NC_LAYER_REFUSED && o->line == e->where.line && o->col == e->where.col &&
        strcmp(o->file, e->where.file) == 0) {
      l->skipped++;
      return;
    }
  }
  /* One rule error per place: a second rule that the same value breaks
   * (a model's, after check.c's) is the same mistake said again. */
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].where.line == e->where.line && l->v[i].where.col == e->where.col &&
        strcmp(l->v[i].where.file, e->where.file) == 0)
      return;
  nc_errors_add(l, e);
}

/* All errors found. */
size_t nc_errors_count(const struct nc_errors *l) { return l ? l->n + l->more : 0; }

/* An error and its rank for sorting: the first-seen order of its file and its
 * index in the list (so that equal positions keep the order found). */
struct ranked {
  size_t file, idx;
  const struct nc_error *e;
};

/* Orders by file rank, then line, column and the order found. */
static int cmp_ranked(const void *a, const void *b) {
  const struct ranked *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  if (x->e->where.line != y->e->where.line) return x->e->where.line < y->e->where.line ? -1 : 1;
  if (x->e->where.col != y->e->where.col) return x->e->where.col < y->e->where.col ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sorts the kept errors into file order; see config.h. */
void nc_errors_sort(struct nc_errors *l) {
  if (!l || l->n < 2) return;
  struct ranked *r = malloc(l->n * sizeof *r);
  struct nc_error *sorted = malloc(l->n * sizeof *sorted);
  if (!r || !sorted) {
    free(r);
    free(sorted);
    return; /* left in the order found */
  }
  for (size_t i = 0; i < l->n; i++) {
    size_t f = i;
    for (size_t j = 0; j < i; j++)
      if (strcmp(l->v[j].where.file, l->v[i].where.file) == 0) {
        f = r[j].file;
        break;
      }
    /* An error without a position (an unreadable file) stays first of its file. */
    r[i] = (struct ranked){f, i, &l->v[i]};
  }
  qsort(r, l->n, sizeof *r, cmp_ranked);
  for (size_t i = 0; i < l->n; i++) sorted[i] = *r[i].e;
  memcpy(l->v, sorted, l->n * sizeof *sorted);
  free(sorted);
  free(r);
}

/* Prints the errors with a cap and the notes; see config.h. */
void nc_errors_print(const struct nc_errors *l, size_t max, FILE *f) {
  if (!l || !f) return;
  size_t shown = l->n < max ? l->n : max;
  for (size_t i = 0; i < shown; i++) nc_error_print(&l->v[i], f);
  if (nc_errors_count(l) > shown)
    fprintf(f, "... and %zu more error%s\n", nc_errors_count(l) - shown,
            nc_errors_count(l) - shown == 1 ? "" : "s");
  if (l->fatal) fprintf(f, "note: out of memory while collecting errors; some may be missing\n");
  if (l->no_rules)
    fprintf(f, "note: the cross-key and model rules were not checked: a platform or overlay "
               "could not be read\n");
  else if (l->no_points)
    fprintf(f, "note: the sweep's points were not checked: fix the sweep first\n");
  if (l->skipped)
    fprintf(f, "note: the rules that blame a value refused above were not checked\n");
}

/* Frees the list's errors. */
void nc_errors_free(struct nc_errors *l) {
  if (!l) return;
  free(l->v);
  memset(l, 0, sizeof *l);
}
