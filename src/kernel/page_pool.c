/* page_pool.c: fixed-size DMA buffer pools: one chunk of cacheable simulated
 * memory, every buffer mapped once at creation, O(1) alloc and recycle. */
#include <inttypes.h>
#include <stdlib.h>

#include "kernel/kernel_priv.h"

struct page_pool *page_pool_create(struct net_device *dev, unsigned int n, unsigned int size,
                                   enum dma_data_direction dir) {
  return page_pool_create_attrs(dev, n, size, dir, 0);
}

struct page_pool *page_pool_create_attrs(struct net_device *dev, unsigned int n, unsigned int size,
                                         enum dma_data_direction dir, unsigned long attrs) {
  struct nk_kernel *k = nk__dev_kernel(dev, "page_pool_create");
  if (n == 0 || size == 0) {
    nk__error(k, "page_pool_create: %u buffers of %u bytes", n, size);
    return NULL;
  }
  struct page_pool *pool = NULL;
  for (int i = 0; i < NK_POOL_MAX && !pool; i++)
    if (!k->pools[i].live) pool = &k->pools[i];
  if (!pool) {
    nk__error(k, "page_pool_create: more than %d pools", NK_POOL_MAX);
    return NULL;
  }
  u64 stride = nk__round_up(size, k->line);
  struct nk_page *pages = calloc(n, sizeof *pages);
  if (!pages) {
    nk__error(k, "page_pool_create: out of host memory for %u pages", n);
    return NULL;
  }
  u64 pa = nk__mem_alloc(k, (u64)n * stride, k->line, NK_ALLOC_PAGE_POOL, "page_pool_create");
  if (!pa) {
    free(pages);
    return NULL;
  }
  if (nk__dma_reserve(k, n) != 0) {
    nk__mem_free(k, pa, (u64)n * stride, NK_ALLOC_PAGE_POOL, "page_pool_create");
    free(pages);
    return NULL;
  }
  *pool = (struct page_pool){dev, n, size, (unsigned int)stride, dir, attrs, pa, pages, NULL, 0, true, false, 0, 0};
  for (unsigned int i = n; i-- > 0;) {
    struct nk_page *p = &pages[i];
    p->addr = k->plat.mem + pa + i * stride;
    p->pool = pool;
    p->dma = dma_map_single_attrs(dev, p->addr, size, dir, attrs);
    if (dma_mapping_error(dev, p->dma)) {
      for (unsigned int j = i + 1; j < n; j++) dma_unmap_single_attrs(dev, pages[j].dma, size, dir, attrs);
      nk__mem_free(k, pa, (u64)n * stride, NK_ALLOC_PAGE_POOL, "page_pool_create");
      free(pages);
      pool->live = false;
      return NULL;
    }
    p->next = pool->free;
    pool->free = p;
  }
  return pool;
}

void page_pool_destroy(struct page_pool *pool) {
  if (!pool) return;
  struct nk_kernel *k = nk__dev_kernel(pool->dev, "page_pool_destroy");
  if (!pool->live) {
    nk__fault(k, "page_pool_destroy: pool destroyed twice");
    return;
  }
  if (pool->in_use) {
    nk__fault(k, "page_pool_destroy: %u of %u buffers were never returned (leak)", pool->in_use, pool->n);
    return;
  }
  for (unsigned int i = 0; i < pool->n; i++)
    dma_unmap_single_attrs(pool->dev, pool->pages[i].dma, pool->size, pool->dir, pool->attrs);
  nk__mem_free(k, pool->pa, (u64)pool->n * pool->stride, NK_ALLOC_PAGE_POOL, "page_pool_destroy");
  free(pool->pages);
  pool->pages = NULL;
  pool->free = NULL;
  pool->live = false;
}

struct nk_page *page_pool_dev_alloc_pages(struct page_pool *pool) {
  struct nk_page *p = pool->free;
  if (!p) return NULL;
  pool->free = p->next;
  p->next = NULL;
  p->in_use = true;
  pool->in_use++;
  /* page_pool_dma_map: a buffer the device has not had since the pool
   * mapped it is synced over max_len (PP_FLAG_DMA_SYNC_DEV). */
  if (pool->sync_dev && !p->dev_synced) {
    dma_sync_single_for_device(pool->dev, p->dma + pool->sync_offset, pool->sync_max_len, pool->dir);
    p->dev_synced = true;
  }
  return p;
}

void page_pool_set_dma_sync_dev(struct page_pool *pool, unsigned int offset, unsigned int max_len) {
  if (offset > pool->size || max_len > pool->size - offset) {
    nk__fault(nk__dev_kernel(pool->dev, "page_pool_set_dma_sync_dev"),
              "page_pool_set_dma_sync_dev: offset %u + max_len %u exceed the %u-byte buffer", offset, max_len,
              pool->size);
    return;
  }
  pool->sync_dev = true;
  pool->sync_offset = offset;
  pool->sync_max_len = max_len;
}

void page_pool_put_page(struct page_pool *pool, struct nk_page *page, int dma_sync_size, bool allow_direct) {
  (void)allow_direct; /* every return here is from NAPI context: the direct cache */
  if (page && pool->sync_dev && page->in_use && page >= pool->pages && page < pool->pages + pool->n) {
    /* page_pool_dma_sync_for_device: min(dma_sync_size, max_len) from offset. */
    unsigned int len = dma_sync_size < 0 || (unsigned int)dma_sync_size > pool->sync_max_len
                           ? pool->sync_max_len
                           : (unsigned int)dma_sync_size;
    if (len > 0) dma_sync_single_for_device(pool->dev, page->dma + pool->sync_offset, len, pool->dir);
  }
  page_pool_recycle_direct(pool, page);
}

void page_pool_recycle_direct(struct page_pool *pool, struct nk_page *page) {
  if (!page) return;
  if (page < pool->pages || page >= pool->pages + pool->n) {
    nk__fault(nk__dev_kernel(pool->dev, "page_pool_recycle_direct"),
              "page_pool_recycle_direct: buffer %p does not belong to this pool", (void *)page);
    return;
  }
  if (!page->in_use) {
    nk__fault(nk__dev_kernel(pool->dev, "page_pool_recycle_direct"),
              "page_pool_recycle_direct: buffer %td returned twice", page - pool->pages);
    return;
  }
  page->in_use = false;
  page->next = pool->free;
  pool->free = page;
  pool->in_use--;
}

NK_NOCOUNT unsigned int page_pool_in_use(const struct page_pool *pool) { return pool ? pool->in_use : 0; }
