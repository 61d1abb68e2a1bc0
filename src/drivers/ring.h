/* ring.h: descriptor-ring index arithmetic shared by nicsim's C drivers
 * (any size >= 2; one slot stays empty, so size - 1 entries are usable). */

/* A producer index `prod` and a consumer index `cons` describe the entries in
 * flight, [cons, prod); prod == cons means empty. */
#ifndef NICSIM_DRIVERS_RING_H
#define NICSIM_DRIVERS_RING_H

#include <stdint.h>

/* The index after i. */
static inline uint32_t nk_ring_next(uint32_t i, uint32_t size) { return i + 1 == size ? 0 : i + 1; }
/* The index before i. */
static inline uint32_t nk_ring_prev(uint32_t i, uint32_t size) { return i == 0 ? size - 1 : i - 1; }
/* Entries in flight, [cons, prod). */
static inline uint32_t nk_ring_used(uint32_t prod, uint32_t cons, uint32_t size) {
  return prod >= cons ? prod - cons : size - cons + prod;
}
/* Entries a producer may still add (size - 1 usable). */
static inline uint32_t nk_ring_space(uint32_t prod, uint32_t cons, uint32_t size) {
  return size - 1 - nk_ring_used(prod, cons, size);
}
/* True if index i lies in [cons, prod). */
static inline int nk_ring_in_flight(uint32_t i, uint32_t prod, uint32_t cons, uint32_t size) {
  return nk_ring_used(i, cons, size) < nk_ring_used(prod, cons, size);
}

#endif
