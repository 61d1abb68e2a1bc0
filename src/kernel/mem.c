/* mem.c: simulated physical memory for the kernel layer: a bump allocator
 * with a coalescing free list, and the CPU's loads, stores and memcpy. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kernel_priv.h"

/* ---- allocator ------------------------------------------------------------ */

int nk__mem_init(struct nk_kernel *k, char *err, size_t errlen) {
  if (k->plat.mem_size <= 2 * NK_PAGE_SIZE) {
    snprintf(err, errlen, "simulated memory of %" PRIu64 " bytes is too small", k->plat.mem_size);
    return -1;
  }
  k->bump = NK_PAGE_SIZE; /* page 0 stays unused: DMA address 0 is never valid */
  k->nfree = 0;
  k->nallocs = 0;
  k->bytes_in_use = 0;
  return 0;
}

void nk__mem_fini(struct nk_kernel *k) { (void)k; }

/* Removes free range i. */
static void free_remove(struct nk_kernel *k, int i) {
  memmove(&k->free_ranges[i], &k->free_ranges[i + 1], (size_t)(k->nfree - i - 1) * sizeof k->free_ranges[0]);
  k->nfree--;
}

/* Inserts [pa, pa+len) into the free list, merging neighbours and giving the
 * top range back to the bump pointer. */
static void free_insert(struct nk_kernel *k, u64 pa, u64 len) {
  if (len == 0) return;
  int i = 0;
  while (i < k->nfree && k->free_ranges[i].pa < pa) i++;
  bool merge_prev = i > 0 && k->free_ranges[i - 1].pa + k->free_ranges[i - 1].len == pa;
  bool merge_next = i < k->nfree && pa + len == k->free_ranges[i].pa;
  if (merge_prev && merge_next) {
    k->free_ranges[i - 1].len += len + k->free_ranges[i].len;
    free_remove(k, i);
  } else if (merge_prev) {
    k->free_ranges[i - 1].len += len;
  } else if (merge_next) {
    k->free_ranges[i].pa = pa;
    k->free_ranges[i].len += len;
  } else if (k->nfree < NK_FREE_MAX) {
    memmove(&k->free_ranges[i + 1], &k->free_ranges[i], (size_t)(k->nfree - i) * sizeof k->free_ranges[0]);
    k->free_ranges[i] = (struct nk_range){pa, len};
    k->nfree++;
  } else if (pa + len != k->bump) {
    return; /* free list full: the range stays unusable until the kernel is destroyed */
  } else {
    k->bump = pa;
  }
  /* The last free range touching the bump pointer returns to it. */
  while (k->nfree > 0) {
    struct nk_range *last = &k->free_ranges[k->nfree - 1];
    if (last->pa + last->len != k->bump) break;
    k->bump = last->pa;
    k->nfree--;
  }
}

u64 nk__mem_alloc(struct nk_kernel *k, u64 size, u64 align, enum nk_alloc_kind kind, const char *what) {
  if (align < k->line) align = k->line;
  if (size == 0) size = 1;
  size = nk__round_up(size, k->line);
  int slot = -1;
  for (int i = 0; i < NK_ALLOC_MAX; i++)
    if (!k->allocs[i].live) {
      slot = i;
      break;
    }
  if (slot < 0) {
    nk__error(k, "%s: allocation table full (%d live allocations)", what, NK_ALLOC_MAX);
    return 0;
  }
  u64 pa = 0;
  /* First fit in the free list. */
  for (int i = 0; i < k->nfree && !pa; i++) {
    struct nk_range r = k->free_ranges[i];
    u64 a = nk__round_up(r.pa, align);
    if (a < r.pa || a + size > r.pa + r.len) continue;
    u64 left = a - r.pa, right = r.pa + r.len - (a + size);
    if (left && right) {
      if (k->nfree == NK_FREE_MAX) continue; /* cannot split: no room for the second piece */
      k->free_ranges[i].len = left;
      memmove(&k->free_ranges[i + 2], &k->free_ranges[i + 1],
              (size_t)(k->nfree - i - 1) * sizeof k->free_ranges[0]);
      k->free_ranges[i + 1] = (struct nk_range){a + size, right};
      k->nfree++;
    } else if (left) {
      k->free_ranges[i].len = left;
    } else if (right) {
      k->free_ranges[i] = (struct nk_range){a + size, right};
    } else {
      free_remove(k, i);
    }
    pa = a;
  }
  if (!pa) {
    u64 a = nk__round_up(k->bump, align);
    if (a < k->bump || a > k->plat.mem_size || size > k->plat.mem_size - a) {
      nk__error(k,
                "%s: out of simulated memory: needs %" PRIu64 " bytes aligned to %" PRIu64
                "; %" PRIu64 " of %" PRIu64 " bytes already allocated (raise memory.size_mb)",
                what, size, align, k->bytes_in_use, k->plat.mem_size);
      return 0;
    }
    u64 gap = a - k->bump;
    u64 old_bump = k->bump;
    k->bump = a + size;
    if (gap) free_insert(k, old_bump, gap);
    pa = a;
  }
  k->allocs[slot] = (struct nk_alloc){pa, size, kind, true};
  if (slot >= k->nallocs) k->nallocs = slot + 1;
  k->bytes_in_use += size;
  return pa;
}

void nk__mem_free(struct nk_kernel *k, u64 pa, u64 size, enum nk_alloc_kind kind, const char *what) {
  for (int i = 0; i < k->nallocs; i++) {
    struct nk_alloc *a = &k->allocs[i];
    if (!a->live || a->pa != pa) continue;
    u64 want = nk__round_up(size ? size : 1, k->line);
    if (a->kind != kind || (size && want != a->len)) {
      nk__fault(k, "%s: pa %#" PRIx64 " was allocated as %" PRIu64 " bytes of another kind; freed as %" PRIu64,
                what, pa, a->len, size);
      return;
    }
    a->live = false;
    k->bytes_in_use -= a->len;
    free_insert(k, a->pa, a->len);
    return;
  }
  nk__fault(k, "%s: pa %#" PRIx64 " is not an allocation (double free?)", what, pa);
}

/* ---- CPU accesses ---------------------------------------------------------- */

/* Reports why [p, p+size) failed access_ok. */
static void access_fault(struct nk_kernel *k, const void *p, u64 size, const char *what) {
  if (!nk__in_mem(k, p, size)) {
    nk__fault(k, "%s(%p, %" PRIu64 " bytes): address is outside simulated memory", what, p, size);
    return;
  }
  nk__fault(k, "%s(pa %#" PRIx64 "): address is in the never-allocated first page (NULL + offset?)", what,
            nk__pa(k, p));
}

/* Checks that [p, p+size) is simulated memory the driver may touch (inline:
 * every load and store asks; the report is out of line). */
static inline bool access_ok(struct nk_kernel *k, const void *p, u64 size, const char *what) {
  if (nk__in_mem(k, p, size) && nk__pa(k, p) >= NK_PAGE_SIZE) return true;
  access_fault(k, p, size, what);
  return false;
}

static u64 load(const void *p, unsigned size, const char *what) {
  struct nk_kernel *k = nk__cur(what);
  if (!access_ok(k, p, size, what)) return 0;
  return k->plat.ops->load(k->plat.ctx, nk__pa(k, p), size);
}

static void store(void *p, u64 v, unsigned size, const char *what) {
  struct nk_kernel *k = nk__cur(what);
  if (!access_ok(k, p, size, what)) return;
  k->plat.ops->store(k->plat.ctx, nk__pa(k, p), v, size);
}

u8 nk_ld8(const void *p) { return (u8)load(p, 1, "nk_ld8"); }
u16 nk_ld16(const void *p) { return (u16)load(p, 2, "nk_ld16"); }
u32 nk_ld32(const void *p) { return (u32)load(p, 4, "nk_ld32"); }
u64 nk_ld64(const void *p) { return load(p, 8, "nk_ld64"); }
void nk_st8(void *p, u8 v) { store(p, v, 1, "nk_st8"); }
void nk_st16(void *p, u16 v) { store(p, v, 2, "nk_st16"); }
void nk_st32(void *p, u32 v) { store(p, v, 4, "nk_st32"); }
void nk_st64(void *p, u64 v) { store(p, v, 8, "nk_st64"); }

void nk_memcpy(void *dst, const void *src, size_t n) {
  struct nk_kernel *k = nk__cur("nk_memcpy");
  if (!access_ok(k, dst, n ? n : 1, "nk_memcpy dst") || !access_ok(k, src, n ? n : 1, "nk_memcpy src"))
    return;
  u64 d = nk__pa(k, dst), s = nk__pa(k, src);
  if (n && d < s + n && s < d + n) {
    nk__fault(k, "nk_memcpy: overlapping ranges pa %#" PRIx64 " and %#" PRIx64 " (%zu bytes)", d, s, n);
    return;
  }
  k->plat.ops->copy(k->plat.ctx, d, s, n);
}

u64 nk_virt_to_phys(const void *p) {
  struct nk_kernel *k = nk__cur("nk_virt_to_phys");
  if (!nk__in_mem(k, p, 1)) {
    nk__fault(k, "nk_virt_to_phys(%p): address is outside simulated memory", p);
    return 0;
  }
  return nk__pa(k, p);
}

void *nk_phys_to_virt(u64 pa) {
  struct nk_kernel *k = nk__cur("nk_phys_to_virt");
  if (pa >= k->plat.mem_size) {
    nk__fault(k, "nk_phys_to_virt(%#" PRIx64 "): beyond simulated memory (%" PRIu64 " bytes)", pa,
              k->plat.mem_size);
    return NULL;
  }
  return k->plat.mem + pa;
}
