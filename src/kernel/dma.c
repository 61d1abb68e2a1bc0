/* dma.c: the DMA API: coherent and write-combining allocations, tracked streaming
 * mappings, cache maintenance on non-coherent platforms, IOMMU map/unmap through the
 * platform, and the mapping lookup for the device. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/derived.h"
#include "kernel/kernel_priv.h"

/* ---- mapping records -------------------------------------------------------- */

NK_NOCOUNT static void link_free(struct nk_kernel *k, u32 from, u32 to) {
  for (u32 i = to; i-- > from;) {
    k->maps[i].live = false;
    k->maps[i].next_free = k->maps_free;
    k->maps_free = i + 1;
  }
}

NK_NOCOUNT int nk__dma_init(struct nk_kernel *k, u32 cap, char *err, size_t errlen) {
  k->iommu_mode = (int)nc_iommu_mode(k->cfg);
  k->fq_size = (u32)k->cfg->iommu.fq_size;
  k->nlines = (k->plat.mem_size + k->line - 1) / k->line;
  k->line_owner = calloc(k->nlines, sizeof *k->line_owner);
  k->maps = calloc(cap, sizeof *k->maps);
  if (!k->line_owner || !k->maps) {
    snprintf(err, errlen, "out of host memory for DMA mapping tables (%" PRIu64 " lines)", k->nlines);
    return -1;
  }
  k->nmaps_cap = cap;
  k->maps_free = 0;
  k->maps_live = 0;
  link_free(k, 0, cap);
  return 0;
}

NK_NOCOUNT void nk__dma_fini(struct nk_kernel *k) {
  for (int c = 0; c < NK_CPU_MAX; c++) {
    free(k->fq[c].entries);
    k->fq[c].entries = NULL;
  }
  free(k->line_owner);
  free(k->maps);
  k->line_owner = NULL;
  k->maps = NULL;
}

NK_NOCOUNT int nk__dma_reserve(struct nk_kernel *k, u32 n) {
  u32 cap = k->nmaps_cap + n;
  struct nk_dma_map *m = realloc(k->maps, (size_t)cap * sizeof *m);
  if (!m) {
    nk__error(k, "out of host memory for %u more DMA mapping records", n);
    return -1;
  }
  k->maps = m;
  link_free(k, k->nmaps_cap, cap);
  k->nmaps_cap = cap;
  return 0;
}

NK_NOCOUNT static const char *dir_str(int dir) {
  switch (dir) {
  case DMA_BIDIRECTIONAL: return "DMA_BIDIRECTIONAL";
  case DMA_TO_DEVICE: return "DMA_TO_DEVICE";
  case DMA_FROM_DEVICE: return "DMA_FROM_DEVICE";
  case DMA_NONE: return "DMA_NONE";
  }
  return "DMA_?";
}

/* Records a DMA_TO_DEVICE mapping of [pa, pa+len) inside live mapping
 * parent (index + 1): an alias (see struct nk_dma_map). */
NK_NOCOUNT static bool track_alias(struct nk_kernel *k, u32 parent, u64 pa, u64 len, unsigned long attrs, const char *what) {
  if (!k->maps_free) {
    nk__error(k, "%s: all %u DMA mapping records are live", what, k->nmaps_cap);
    return false;
  }
  u32 idx = k->maps_free;
  struct nk_dma_map *m = &k->maps[idx - 1];
  struct nk_dma_map *p = &k->maps[parent - 1];
  k->maps_free = m->next_free;
  *m = (struct nk_dma_map){pa, len, attrs, DMA_TO_DEVICE, false, true, 0, 0, parent, 0, p->aliases};
  p->aliases = idx;
  k->maps_live++;
  return true;
}

/* The alias of parent m covering [pa, pa+len) (exactly, if exact), or NULL. */
NK_NOCOUNT static struct nk_dma_map *find_alias(const struct nk_kernel *k, const struct nk_dma_map *m, u64 pa, u64 len,
                                     bool exact) {
  for (u32 a = m->aliases; a; a = k->maps[a - 1].alias_next) {
    struct nk_dma_map *x = &k->maps[a - 1];
    if (exact ? x->pa == pa && x->len == len : pa >= x->pa && pa - x->pa < x->len && len <= x->pa + x->len - pa)
      return x;
  }
  return NULL;
}

/* Ends alias x of m (found by find_alias). */
NK_NOCOUNT static void untrack_alias(struct nk_kernel *k, struct nk_dma_map *m, struct nk_dma_map *x) {
  const u32 idx = (u32)(x - k->maps) + 1;
  for (u32 *link = &m->aliases; *link; link = &k->maps[*link - 1].alias_next) {
    if (*link != idx) continue;
    *link = x->alias_next;
    break;
  }
  x->live = false;
  x->parent = x->alias_next = 0;
  x->next_free = k->maps_free;
  k->maps_free = idx;
  k->maps_live--;
}

NK_NOCOUNT bool nk__dma_track(struct nk_kernel *k, u64 pa, u64 len, enum dma_data_direction dir,
                   unsigned long attrs, bool coherent, const char *what) {
  if (len == 0 || pa >= k->plat.mem_size || len > k->plat.mem_size - pa) {
    nk__fault(k, "%s: mapping of pa %#" PRIx64 " + %" PRIu64 " bytes is empty or beyond memory", what, pa, len);
    return false;
  }
  u64 first = pa >> k->line_shift, last = (pa + len - 1) >> k->line_shift;
  if (dir == DMA_TO_DEVICE && !coherent && k->line_owner[first]) {
    const u32 o = k->line_owner[first];
    const struct nk_dma_map *m = &k->maps[o - 1];
    if (!m->coherent && m->dir != DMA_TO_DEVICE && pa >= m->pa && pa + len <= m->pa + m->len)
      return track_alias(k, o, pa, len, attrs, what);
  }
  for (u64 l = first; l <= last; l++) {
    u32 o = k->line_owner[l];
    if (o) {
      struct nk_dma_map *m = &k->maps[o - 1];
      /* dma-debug's active_cacheline_insert ignores DMA_TO_DEVICE mappings:
       * the device only reads, so the same buffer mapped again for the
       * device (a pktgen clone queued twice) is legal. */
      if (dir == DMA_TO_DEVICE && m->dir == DMA_TO_DEVICE && m->pa == pa && m->len == len && !coherent &&
          !m->coherent) {
        m->shares++;
        return true;
      }
      nk__fault(k,
                "%s: pa %#" PRIx64 " + %" PRIu64 " shares cache line %#" PRIx64 " with the live mapping pa %#" PRIx64
                " + %" PRIu64 " (%s): two mappings may not share a line",
                what, pa, len, l * k->line, m->pa, m->len, dir_str(m->dir));
      return false;
    }
  }
  if (!k->maps_free) {
    nk__error(k, "%s: all %u DMA mapping records are live", what, k->nmaps_cap);
    return false;
  }
  u32 idx = k->maps_free;
  struct nk_dma_map *m = &k->maps[idx - 1];
  k->maps_free = m->next_free;
  *m = (struct nk_dma_map){pa, len, attrs, dir, coherent, true, 0, 0, 0, 0, 0};
  k->maps_live++;
  for (u64 l = first; l <= last; l++) k->line_owner[l] = idx;
  return true;
}

/* The live record covering pa, or NULL. */
NK_NOCOUNT static struct nk_dma_map *find(const struct nk_kernel *k, u64 pa) {
  if (!k->line_owner || pa >= k->plat.mem_size) return NULL;
  u32 o = k->line_owner[pa >> k->line_shift]; /* a shift: find runs for every device access */
  if (!o) return NULL;
  struct nk_dma_map *m = &k->maps[o - 1];
  return (pa >= m->pa && pa - m->pa < m->len) ? m : NULL;
}

NK_NOCOUNT bool nk__dma_untrack(struct nk_kernel *k, u64 pa, u64 len, enum dma_data_direction dir, bool coherent,
                     const char *what) {
  struct nk_dma_map *m = find(k, pa);
  if (!m) {
    nk__fault(k, "%s: pa %#" PRIx64 " is not mapped (never mapped, or already unmapped)", what, pa);
    return false;
  }
  if (m->aliases && (m->pa != pa || m->len != len || m->dir != dir) && dir == DMA_TO_DEVICE && !coherent) {
    struct nk_dma_map *x = find_alias(k, m, pa, len, true);
    if (x) {
      untrack_alias(k, m, x);
      return true;
    }
  }
  if (m->pa != pa || m->len != len || m->dir != dir || m->coherent != coherent) {
    nk__fault(k,
              "%s: pa %#" PRIx64 " + %" PRIu64 " %s%s does not match the mapping pa %#" PRIx64 " + %" PRIu64
              " %s%s",
              what, pa, len, dir_str(dir), coherent ? " (coherent)" : "", m->pa, m->len, dir_str(m->dir),
              m->coherent ? " (coherent)" : "");
    return false;
  }
  if (m->shares) { /* one of the DMA_TO_DEVICE mappings of the same range */
    m->shares--;
    return true;
  }
  if (m->aliases) {
    nk__fault(k, "%s: pa %#" PRIx64 " + %" PRIu64 " unmapped while a DMA_TO_DEVICE mapping inside it is live", what,
              pa, len);
    return false;
  }
  u64 first = pa >> k->line_shift, last = (pa + len - 1) >> k->line_shift;
  u32 idx = (u32)(m - k->maps) + 1;
  for (u64 l = first; l <= last; l++) k->line_owner[l] = 0;
  m->live = false;
  m->next_free = k->maps_free;
  k->maps_free = idx;
  k->maps_live--;
  return true;
}

/* ---- cache maintenance -------------------------------------------------------- */

/* Runs op over the whole cache lines covering [pa, pa+len). */
static void cache_op(struct nk_kernel *k, u64 pa, u64 len, enum nk_cache_op op) {
  if (len == 0) return;
  u64 start = nk__round_down(pa, k->line), end = nk__round_up(pa + len, k->line);
  k->plat.ops->cache_maint(k->plat.ctx, start, end - start, op);
}

/* Handing a buffer to the device (map, sync_for_device). */
static void sync_for_device(struct nk_kernel *k, u64 pa, u64 len, enum dma_data_direction dir) {
  if (k->plat.coherent_dma) return;
  switch (dir) {
  case DMA_TO_DEVICE: cache_op(k, pa, len, NK_CACHE_CLEAN); break;
  case DMA_FROM_DEVICE: cache_op(k, pa, len, NK_CACHE_INVALIDATE); break;
  case DMA_BIDIRECTIONAL: cache_op(k, pa, len, NK_CACHE_CLEAN_INV); break;
  case DMA_NONE: break;
  }
}

/* Taking a buffer back from the device (unmap, sync_for_cpu). */
static void sync_for_cpu(struct nk_kernel *k, u64 pa, u64 len, enum dma_data_direction dir) {
  if (k->plat.coherent_dma) return;
  switch (dir) {
  case DMA_TO_DEVICE: break; /* the device only read it: nothing to drop */
  case DMA_FROM_DEVICE: cache_op(k, pa, len, NK_CACHE_INVALIDATE); break;
  case DMA_BIDIRECTIONAL: cache_op(k, pa, len, NK_CACHE_CLEAN_INV); break;
  case DMA_NONE: break;
  }
}

/* ---- IOMMU ------------------------------------------------------------------------ */

/* Invalidates [pa, pa+len) (0: the whole domain) and waits for it, on the
 * platform's invalidation queue. */
static void iommu_inv(struct nk_kernel *k, u64 pa, u64 len, enum nk_iommu_inv why) {
  if (k->plat.ops->iommu_inv) k->plat.ops->iommu_inv(k->plat.ctx, pa, len, why);
}

/* Lazy mode: Linux's flush queue (drivers/iommu/dma-iommu.c, v5.14+; iova.c
 * v4.14-v5.13, the same logic). Each CPU queues its unmapped IOVAs in a ring
 * of iommu.fq_size entries; a flush invalidates the whole domain once and
 * frees, on every CPU, the entries queued before it began. Until then the
 * IOTLB may keep their translations (the device could still reach the
 * buffers: the window iommu.strict=0 accepts). */
static bool fq_full(const struct nk_kernel *k, const struct nk_iova_fq *fq) {
  return (fq->tail + 1) % k->fq_size == fq->head;
}

/* Frees the entries a finished flush covered (IOVAs go back to the
 * allocator; identity IOVAs here, so nothing else to do). */
static void fq_ring_free(struct nk_kernel *k, struct nk_iova_fq *fq) {
  const u64 counter = k->fq_flush_finish_cnt;
  while (fq->head != fq->tail && fq->entries[fq->head].counter < counter) fq->head = (fq->head + 1) % k->fq_size;
}

static void fq_flush_iotlb(struct nk_kernel *k, enum nk_iommu_inv why) {
  k->fq_flush_start_cnt++;
  iommu_inv(k, 0, 0, why); /* ops->flush_iotlb_all: the CPU waits for the sync */
  k->fq_flush_finish_cnt++;
}

/* The timer (Linux's fq_flush_timeout, timer context): flush, then free on every CPU. */
static enum hrtimer_restart fq_flush_timeout(struct hrtimer *t) {
  (void)t;
  struct nk_kernel *k = nk__cur("fq_flush_timeout");
  k->fq_timer_on = false;
  fq_flush_iotlb(k, NK_IOMMU_INV_FQ_TIMER);
  for (int c = 0; c < NK_CPU_MAX; c++)
    if (k->fq[c].entries) fq_ring_free(k, &k->fq[c]);
  return HRTIMER_NORESTART;
}

/* queue_iova: the unmap's IOVA waits in this CPU's queue. */
static void queue_iova(struct nk_kernel *k, u64 pa, u64 len) {
  struct nk_iova_fq *fq = &k->fq[nk__cpu];
  if (!fq->entries) {
    fq->entries = calloc(k->fq_size, sizeof *fq->entries);
    if (!fq->entries) {
      nk__error(k, "out of host memory for a %u-entry IOMMU flush queue", k->fq_size);
      iommu_inv(k, pa, len, NK_IOMMU_INV_UNMAP); /* as Linux without a flush queue: strict */
      return;
    }
  }
  if (!k->fq_timer.id) {
    hrtimer_init(&k->fq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
    k->fq_timer.function = fq_flush_timeout;
  }
  fq_ring_free(k, fq);
  if (fq_full(k, fq)) {
    fq_flush_iotlb(k, NK_IOMMU_INV_FQ_FULL);
    fq_ring_free(k, fq);
  }
  const u32 idx = fq->tail;
  fq->tail = (idx + 1) % k->fq_size;
  fq->entries[idx] = (struct nk_iova_fq_entry){pa, len, k->fq_flush_start_cnt};
  if (!k->fq_timer_on) {
    k->fq_timer_on = true;
    hrtimer_start(&k->fq_timer, ns_to_ktime((u64)(k->cfg->iommu.fq_timeout_ms * 1e6 + 0.5)), HRTIMER_MODE_REL);
  }
}

void nk__iommu_fq_release(struct nk_kernel *k) {
  if (k->fq_timer.id) hrtimer_cancel(&k->fq_timer);
  k->fq_timer_on = false;
  for (int c = 0; c < NK_CPU_MAX; c++) k->fq[c].head = k->fq[c].tail = 0;
}

/* Tells the platform's IOMMU (if any) that [pa, pa+len) was mapped or
 * unmapped; an unmap then invalidates its IOTLB entries: at once (strict,
 * iommu_dma_unmap_page's iommu_iotlb_sync) or through the flush queue (lazy). */
static void iommu_op(struct nk_kernel *k, u64 pa, u64 len, bool map) {
  if (!k->plat.ops->iommu_map) return; /* the platform has no IOMMU */
  k->plat.ops->iommu_map(k->plat.ctx, pa, len, map);
  if (map || k->iommu_mode == NC_IOMMU_OFF) return;
  if (k->iommu_mode == NC_IOMMU_LAZY) queue_iova(k, pa, len);
  else iommu_inv(k, pa, len, NK_IOMMU_INV_UNMAP);
}

/* ---- coherent and write-combining allocations ---------------------------------------- */

/* Zeroed, page-rounded DMA memory the CPU sees with attribute cpu_attr on a
 * non-coherent platform (cacheable on a coherent one); what names the call. */
static void *alloc_dma(struct net_device *dev, size_t size, dma_addr_t *handle, enum nk_mem_attr cpu_attr,
                       const char *what) {
  struct nk_kernel *k = nk__dev_kernel(dev, what);
  if (handle) *handle = DMA_MAPPING_ERROR;
  if (size == 0) {
    nk__error(k, "%s: size 0", what);
    return NULL;
  }
  u64 bytes = nk__round_up(size, NK_PAGE_SIZE);
  u64 pa = nk__mem_alloc(k, bytes, NK_PAGE_SIZE, NK_ALLOC_COHERENT, what);
  if (!pa) return NULL;
  if (nk__dma_reserve(k, 1) != 0 || !nk__dma_track(k, pa, bytes, DMA_BIDIRECTIONAL, 0, true, what)) {
    nk__mem_free(k, pa, bytes, NK_ALLOC_COHERENT, what);
    return NULL;
  }
  memset(k->plat.mem + pa, 0, bytes);
  if (!k->plat.coherent_dma) k->plat.ops->set_attr(k->plat.ctx, pa, bytes, cpu_attr);
  iommu_op(k, pa, bytes, true);
  if (handle) *handle = pa;
  return k->plat.mem + pa;
}

/* Frees alloc_dma memory; what names the call. */
static void free_dma(struct net_device *dev, size_t size, void *cpu_addr, dma_addr_t handle, const char *what) {
  struct nk_kernel *k = nk__dev_kernel(dev, what);
  if (!cpu_addr) return;
  if (!nk__in_mem(k, cpu_addr, 1) || nk__pa(k, cpu_addr) != handle) {
    nk__fault(k, "%s(%p, handle %#" PRIx64 "): address and handle disagree", what, cpu_addr, handle);
    return;
  }
  u64 bytes = nk__round_up(size ? size : 1, NK_PAGE_SIZE);
  if (!nk__dma_untrack(k, handle, bytes, DMA_BIDIRECTIONAL, true, what)) return;
  iommu_op(k, handle, bytes, false);
  if (!k->plat.coherent_dma) k->plat.ops->set_attr(k->plat.ctx, handle, bytes, NK_MEM_CACHED);
  nk__mem_free(k, handle, bytes, NK_ALLOC_COHERENT, what);
}

void *dma_alloc_coherent(struct net_device *dev, size_t size, dma_addr_t *handle) {
  return alloc_dma(dev, size, handle, NK_MEM_UNCACHED, "dma_alloc_coherent");
}

void dma_free_coherent(struct net_device *dev, size_t size, void *cpu_addr, dma_addr_t handle) {
  free_dma(dev, size, cpu_addr, handle, "dma_free_coherent");
}

/* Linux's dma_pgprot: a coherent device gets the normal cacheable mapping;
 * a non-coherent one pgprot_writecombine (x86 WC; arm64 Normal-NC). */
void *dma_alloc_wc(struct net_device *dev, size_t size, dma_addr_t *handle) {
  return alloc_dma(dev, size, handle, NK_MEM_WC, "dma_alloc_wc");
}

void dma_free_wc(struct net_device *dev, size_t size, void *cpu_addr, dma_addr_t handle) {
  free_dma(dev, size, cpu_addr, handle, "dma_free_wc");
}

/* ---- streaming mappings ---------------------------------------------------------- */

dma_addr_t dma_map_single_attrs(struct net_device *dev, void *ptr, size_t size, enum dma_data_direction dir,
                                unsigned long attrs) {
  struct nk_kernel *k = nk__dev_kernel(dev, "dma_map_single_attrs");
  if (!nk__in_mem(k, ptr, size ? size : 1) || nk__pa(k, ptr) < NK_PAGE_SIZE) {
    nk__fault(k, "dma_map_single(%p, %zu): buffer is not in simulated memory", ptr, size);
    k->stats.dma_map_fail++;
    return DMA_MAPPING_ERROR;
  }
  if (dir != DMA_TO_DEVICE && dir != DMA_FROM_DEVICE && dir != DMA_BIDIRECTIONAL) {
    nk__fault(k, "dma_map_single: invalid direction %d", (int)dir);
    k->stats.dma_map_fail++;
    return DMA_MAPPING_ERROR;
  }
  u64 pa = nk__pa(k, ptr);
  if (!nk__dma_track(k, pa, size, dir, attrs, false, "dma_map_single")) {
    k->stats.dma_map_fail++;
    return DMA_MAPPING_ERROR;
  }
  if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC)) sync_for_device(k, pa, size, dir);
  iommu_op(k, pa, size, true);
  return pa;
}

void dma_unmap_single_attrs(struct net_device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir,
                            unsigned long attrs) {
  struct nk_kernel *k = nk__dev_kernel(dev, "dma_unmap_single_attrs");
  if (!nk__dma_untrack(k, addr, size, dir, false, "dma_unmap_single")) return;
  /* As iommu_dma_unmap_page: the CPU sync first, then the IOMMU unmap. */
  if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC)) sync_for_cpu(k, addr, size, dir);
  iommu_op(k, addr, size, false);
}

int dma_mapping_error(struct net_device *dev, dma_addr_t addr) {
  (void)dev;
  return addr == DMA_MAPPING_ERROR;
}

/* Checks a sync range lies in one live streaming mapping of direction dir. */
NK_NOCOUNT static bool sync_ok(struct nk_kernel *k, dma_addr_t addr, size_t size, enum dma_data_direction dir,
                    const char *what) {
  struct nk_dma_map *m = find(k, addr);
  if (!m || m->coherent) {
    nk__fault(k, "%s: pa %#" PRIx64 " is not in a live streaming mapping", what, addr);
    return false;
  }
  if (size > m->len - (addr - m->pa)) {
    nk__fault(k, "%s: pa %#" PRIx64 " + %zu runs past the end of the mapping pa %#" PRIx64 " + %" PRIu64, what,
              addr, size, m->pa, m->len);
    return false;
  }
  if (m->dir != dir && m->dir != DMA_BIDIRECTIONAL) { /* as dma-debug: a bidirectional mapping syncs either way */
    nk__fault(k, "%s: direction %s differs from the mapping's %s", what, dir_str(dir), dir_str(m->dir));
    return false;
  }
  return true;
}

void dma_sync_single_for_cpu(struct net_device *dev, dma_addr_t addr, size_t size, enum dma_data_direction dir) {
  struct nk_kernel *k = nk__dev_kernel(dev, "dma_sync_single_for_cpu");
  if (sync_ok(k, addr, size, dir, "dma_sync_single_for_cpu")) sync_for_cpu(k, addr, size, dir);
}

void dma_sync_single_for_device(struct net_device *dev, dma_addr_t addr, size_t size,
                                enum dma_data_direction dir) {
  struct nk_kernel *k = nk__dev_kernel(dev, "dma_sync_single_for_device");
  if (sync_ok(k, addr, size, dir, "dma_sync_single_for_device")) sync_for_device(k, addr, size, dir);
}

/* ---- for the device model ------------------------------------------------------------ */

NK_NOCOUNT unsigned long nk_dma_attrs(const struct nk_kernel *k, uint64_t pa) {
  const struct nk_dma_map *m = find(k, pa);
  if (m && m->aliases) { /* a read through an alias has the alias's attributes */
    const struct nk_dma_map *x = find_alias(k, m, pa, 1, false);
    if (x) return x->attrs;
  }
  return m ? m->attrs : 0;
}

NK_NOCOUNT bool nk_dma_lookup(const struct nk_kernel *k, uint64_t pa, struct nk_dma_mapping *out) {
  const struct nk_dma_map *m = find(k, pa);
  if (!m) return false;
  if (out) *out = (struct nk_dma_mapping){m->pa, m->len, m->attrs, (int)m->dir, m->coherent};
  return true;
}

NK_NOCOUNT bool nk_dma_device_may_access(const struct nk_kernel *k, uint64_t pa, uint32_t len, bool write,
                              char *why, size_t whylen) {
  /* The record itself, not a copy (nk_dma_lookup): this runs for every device access. */
  const struct nk_dma_map *m = find(k, pa);
  if (!m) {
    snprintf(why, whylen, "DMA %s of %" PRIu32 " B at 0x%" PRIx64 " hits memory the driver has not mapped (IOMMU fault)",
             write ? "write" : "read", len, pa);
    return false;
  }
  if (len > m->pa + m->len - pa) {
    snprintf(why, whylen,
             "DMA %s of %" PRIu32 " B at 0x%" PRIx64 " runs past the end of its mapping [0x%" PRIx64 ", 0x%" PRIx64
             ") (IOMMU fault)",
             write ? "write" : "read", len, pa, m->pa, m->pa + m->len);
    return false;
  }
  if (!m->coherent && m->dir == (write ? DMA_TO_DEVICE : DMA_FROM_DEVICE) &&
      !(!write && m->aliases && find_alias(k, m, pa, len, false))) {
    snprintf(why, whylen, "DMA %s of %" PRIu32 " B at 0x%" PRIx64 " into a mapping the driver made %s (IOMMU fault)",
             write ? "write" : "read", len, pa, write ? "DMA_TO_DEVICE" : "DMA_FROM_DEVICE");
    return false;
  }
  return true;
}
