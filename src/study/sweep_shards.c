/* sweep_shards.c: how `nicsim sweep --shard K/N` deals a sweep's points to
 * N shards: by their estimated costs, ties by a Latin square of the swept
 * keys' values (docs/sweeps.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study/study_internal.h"
#include "study/sweep_internal.h"

/* ---- shards ------------------------------------------------------------------
 * Points are dealt to balance their estimated costs (ns_point_cost,
 * ns_balance_shards); ties go by a Latin square: point i's Latin-square
 * shard is (sum of its digits + its occurrence) mod N, a digit being the
 * rank of the point's value of a swept key among that key's values (in
 * order of first appearance), the occurrence counting earlier points with
 * the same values (repeats). On a cartesian sweep every Latin-square shard
 * holds every value of every axis with at least N values, in equal shares,
 * so a sweep whose cost follows one axis is dealt as that square: each
 * shard a sample of the whole sweep. It depends only on the points'
 * resolved configs, so every shard of a sweep computes the same
 * assignment. */

/* Rank of cfg's value of axis a among the values seen (appended if new);
 * -1 without memory. */
long ns_axis_rank(struct ns_axis *a, const struct nicsim_config *cfg) {
  char v[NC_STR_MAX];
  size_t k;
  nc_value_format(cfg, a->key, v, sizeof(v));
  for (k = 0; k < a->n; k++)
    if (strcmp(a->vals[k], v) == 0)
      return (long)k;
  if ((a->n & (a->n - 1)) == 0) { /* grow at powers of two */
    char (*nv)[NC_STR_MAX] = realloc(a->vals, (a->n ? 2 * a->n : 1) * sizeof(*nv));
    if (nv == NULL)
      return -1;
    a->vals = nv;
  }
  snprintf(a->vals[a->n], sizeof(a->vals[0]), "%s", v);
  return (long)a->n++;
}

static int ns__by_tuple(const void *a, const void *b) {
  const struct ns_digits *x = a, *y = b;
  if (x->tuple != y->tuple)
    return x->tuple < y->tuple ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* latin[i] in [0, nshards) for every point from d[0..n) (each point's digit
 * sum and tuple; d is reordered). */
void ns_latin_shards(struct ns_digits *d, size_t n, size_t nshards, size_t *latin) {
  size_t i, occ = 0;
  qsort(d, n, sizeof(*d), ns__by_tuple);
  for (i = 0; i < n; i++) {
    occ = i > 0 && d[i].tuple == d[i - 1].tuple ? occ + 1 : 0;
    latin[d[i].index] = (d[i].sum + occ) % nshards;
  }
}

/* ---- the estimated cost of a point ------------------------------------------
 * Wall time of a point ~ the frames it simulates plus a fixed cost, in units
 * of one simulated frame:
 *   frames = (run.duration_us + run.drain_us) x rate / (8 x (frame_bytes + 20))
 *            x directions
 * rate: traffic.rate_gbps, or nic.line_rate_gbps when it is 0 or above it;
 * 20 B: preamble, SFD and inter-frame gap; directions: 2 for bidir, else 1.
 * The drain is counted as traffic time (the backlog and the checks run in
 * it). Fixed: NS__POINT_FIXED_COST frames (E: elaborating the models and the
 * point's process, measured on one x86 host: a 1 us run takes about 20 ms of
 * wall time, and a 1518 B RX frame at 10 GbE about 10 us more: ~2000
 * frames). A dma-bench point has no frames: its cost is the fixed one.
 * Integer arithmetic (rates in Mbit/s and times in ns, rounded once with
 * llround), so every host computes the same costs and the same shards. */
#define NS__POINT_FIXED_COST 2000u
uint64_t ns_point_cost(const struct nicsim_config *c) {
  double rate = c->traffic.rate_gbps;
  uint64_t mbps, ns, frames;
  if (c->workload.kind != NC_WORKLOAD_NIC)
    return NS__POINT_FIXED_COST;
  if (rate <= 0 || rate > c->nic.line_rate_gbps)
    rate = c->nic.line_rate_gbps;
  mbps = (uint64_t)llround(rate * 1000);
  ns = (uint64_t)llround((c->run.duration_us + c->run.drain_us) * 1000);
  /* bits in the time: ns x Mbit/s / 1000; at most 1.1e12 x 1e5: no overflow */
  frames = ns * mbps / 1000 / (8 * ((uint64_t)c->traffic.frame_bytes + 20));
  if (c->traffic.mode == NC_MODE_BIDIR || c->traffic.mode == NC_MODE_FORWARD)
    frames *= 2; /* forward: each frame crosses the NIC twice */
  return frames + NS__POINT_FIXED_COST;
}

/* Greedy balance (LPT): points by estimated cost, largest first (then by
 * their Latin-square shard, then index), each to the shard with the least
 * total so far; among equally loaded shards the point's Latin-square shard
 * if it is one of them, else the lowest. Where costs tie (a cost that follows
 * one axis, another that costs nothing), the Latin square decides, so every
 * shard still holds every value of the axes. total[k]: shard k's sum. */
struct ns__lpt {
  uint64_t cost;
  size_t latin, index;
};
static int ns__by_cost(const void *a, const void *b) {
  const struct ns__lpt *x = a, *y = b;
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  if (x->latin != y->latin)
    return x->latin < y->latin ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}
int ns_balance_shards(const uint64_t *cost, const size_t *latin, size_t n, size_t nshards,
                              size_t *shard, uint64_t *total) {
  struct ns__lpt *p = calloc(n ? n : 1, sizeof(*p));
  size_t i, k;
  if (p == NULL)
    return -1;
  for (i = 0; i < n; i++)
    p[i] = (struct ns__lpt){cost[i], latin[i], i};
  qsort(p, n, sizeof(*p), ns__by_cost);
  for (k = 0; k < nshards; k++)
    total[k] = 0;
  for (i = 0; i < n; i++) {
    size_t best = 0;
    for (k = 1; k < nshards; k++)
      if (total[k] < total[best])
        best = k;
    if (total[p[i].latin] == total[best])
      best = p[i].latin;
    shard[p[i].index] = best;
    total[best] += p[i].cost;
  }
  free(p);
  return 0;
}

