/* icount.c: the registry of counted units, the ISA selection and the
 * accumulators the counted code adds to (icount.h). Not counted itself. */
#include "kernel/icount.h"

#include <stddef.h>
#include <string.h>

uint64_t nk_ic_acc[4];

static struct nk_icount_tu *nk_ic_units;
static enum nk_isa nk_ic_isa = NK_ISA__COUNT;
static uint64_t nk_ic_taken;
static void (*nk_ic_sink)(void *, double);
static void *nk_ic_sink_ctx;

static const char *const nk_isa_names[NK_ISA__COUNT] = {"x86-64", "arm64", "armv7", "riscv64", "sparc64", "mips32"};

/* SanitizerCoverage's module constructor registers its block counters here;
 * nicsim keeps weights instead (the counters are never written). */
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  (void)start;
  (void)stop;
}

void nk_icount_register(struct nk_icount_tu *tu) {
  for (struct nk_icount_tu *u = nk_ic_units; u; u = u->next)
    if (u == tu) return;
  tu->next = nk_ic_units;
  nk_ic_units = tu;
  if (nk_ic_isa < NK_ISA__COUNT)
    memcpy(tu->weights, tu->table + (size_t)nk_ic_isa * tu->blocks, tu->blocks * sizeof tu->weights[0]);
}

const struct nk_icount_tu *nk_icount_units(void) { return nk_ic_units; }

static uint64_t nk_ic_sum(void) { return nk_ic_acc[0] + nk_ic_acc[1] + nk_ic_acc[2] + nk_ic_acc[3]; }

int nk_icount_select(enum nk_isa isa) {
  if (isa < 0 || isa > NK_ISA__COUNT) return -1;
  int n = 0;
  nk_ic_isa = isa;
  for (struct nk_icount_tu *u = nk_ic_units; u; u = u->next, n++) {
    if (isa == NK_ISA__COUNT)
      memset(u->weights, 0, u->blocks * sizeof u->weights[0]);
    else
      memcpy(u->weights, u->table + (size_t)isa * u->blocks, u->blocks * sizeof u->weights[0]);
  }
  memset(nk_ic_acc, 0, sizeof nk_ic_acc);
  nk_ic_taken = 0;
  return n;
}

enum nk_isa nk_icount_selected(void) { return nk_ic_isa; }

double nk_icount_take(void) {
  const uint64_t s = nk_ic_sum();
  const uint64_t d = s - nk_ic_taken;
  nk_ic_taken = s;
  return (double)d / 16.0;
}

double nk_icount_total(void) { return (double)nk_ic_sum() / 16.0; }

void nk_icount_set_sink(void (*sink)(void *ctx, double instructions), void *ctx) {
  nk_ic_sink = sink;
  nk_ic_sink_ctx = ctx;
}

static bool nk_ic_held;

void nk_icount_flush(void) {
  if (!nk_ic_sink || nk_ic_held) return;
  const double d = nk_icount_take();
  if (d > 0) nk_ic_sink(nk_ic_sink_ctx, d);
}

void nk_icount_hold(bool hold) {
  if (hold)
    nk_icount_flush(); /* what ran before is charged */
  else
    nk_icount_take(); /* what ran while held is discarded */
  nk_ic_held = hold;
}

int nk_isa_from_name(const char *name) {
  if (!name) return -1;
  for (int i = 0; i < NK_ISA__COUNT; i++)
    if (strcmp(name, nk_isa_names[i]) == 0) return i;
  return -1;
}

const char *nk_isa_name(enum nk_isa isa) { return isa >= 0 && isa < NK_ISA__COUNT ? nk_isa_names[isa] : "none"; }
