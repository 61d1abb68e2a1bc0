/* prof.c: the process-global profile registry: named buckets (one per
 * profiled function) and the bucket the CPU is charging now. */
#include <stdio.h>
#include <string.h>

#include "kernel/icount.h"
#include "kernel/kernel.h"

#define NK_PROF_NAME_MAX 64

static struct {
  char name[NK_PROF_NAME_MAX];
  enum nk_class cls;
} nk_prof_tab[NK_PROF_MAX] = {{NK_PROF_OTHER, NK_CLASS_OTHER}};
static int nk_prof_n = 1;
static int nk_prof_cur = 0;
/* Buckets entered and not yet left, outermost first, for inclusive time. */
static int nk_prof_stack[NK_PROF_DEPTH];
static int nk_prof_depth = 0;
static bool nk_prof_overflow_reported = false;

int nk_prof_id(const char *fn, enum nk_class cls) {
  if (!fn) return 0;
  int found = nk_prof_find(fn);
  if (found >= 0) return found;
  if (nk_prof_n == NK_PROF_MAX) {
    if (!nk_prof_overflow_reported) {
      fprintf(stderr, "nicsim: profile registry full (NK_PROF_MAX %d): '%s' is charged to '%s'\n",
              NK_PROF_MAX, fn, NK_PROF_OTHER);
      nk_prof_overflow_reported = true;
    }
    return 0;
  }
  int id = nk_prof_n++;
  snprintf(nk_prof_tab[id].name, sizeof nk_prof_tab[id].name, "%s", fn);
  nk_prof_tab[id].cls = (cls >= 0 && cls < NK_CLASS__COUNT) ? cls : NK_CLASS_OTHER;
  return id;
}

int nk_prof_find(const char *fn) {
  if (!fn) return -1;
  for (int i = 0; i < nk_prof_n; i++)
    if (strncmp(nk_prof_tab[i].name, fn, NK_PROF_NAME_MAX - 1) == 0) return i;
  return -1;
}

const char *nk_prof_name(int id) {
  return (id >= 0 && id < nk_prof_n) ? nk_prof_tab[id].name : NULL;
}

enum nk_class nk_prof_class(int id) {
  return (id >= 0 && id < nk_prof_n) ? nk_prof_tab[id].cls : NK_CLASS_OTHER;
}

int nk_prof_count(void) { return nk_prof_n; }

int nk_prof_current(void) { return nk_prof_cur; }

int nk_prof_enter(int id) {
  /* The code that ran so far was the current bucket's. */
  nk_icount_flush();
  int prev = nk_prof_cur;
  nk_prof_cur = (id >= 0 && id < nk_prof_n) ? id : 0;
  /* Deeper than NK_PROF_DEPTH: the frame counts as self time of the
   * current bucket only (never reached by nicsim's drivers). */
  if (nk_prof_depth < NK_PROF_DEPTH) nk_prof_stack[nk_prof_depth] = nk_prof_cur;
  nk_prof_depth++;
  return prev;
}

void nk_prof_leave(int prev) {
  nk_icount_flush();
  nk_prof_cur = (prev >= 0 && prev < nk_prof_n) ? prev : 0;
  if (nk_prof_depth > 0) nk_prof_depth--;
}

void nk_prof_save(struct nk_prof_state *s) {
  s->cur = nk_prof_cur;
  s->depth = nk_prof_depth;
  memcpy(s->stack, nk_prof_stack, sizeof s->stack);
}

void nk_prof_restore(const struct nk_prof_state *s) {
  nk_prof_cur = s->cur;
  nk_prof_depth = s->depth;
  memcpy(nk_prof_stack, s->stack, sizeof nk_prof_stack);
}

int nk_prof_active(const int **ids) {
  if (ids) *ids = nk_prof_stack;
  return nk_prof_depth < NK_PROF_DEPTH ? nk_prof_depth : NK_PROF_DEPTH;
}
