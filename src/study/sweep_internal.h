/* sweep_internal.h: what sweep.c shares with its workers (sweep_workers.c)
 * and its shard dealing (sweep_shards.c). Private to src/study. */
#ifndef NICSIM_STUDY_SWEEP_INTERNAL_H
#define NICSIM_STUDY_SWEEP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config/config.h"
#include "results/metrics.h"
#include "sim/sim.h"

/* What a child sends back: the whole message, or nothing usable. */
struct ns_sweep_msg {
  uint32_t magic;
  int rc;
  struct nicsim_sim_error err;
  struct nicsim_results res;
};
#define NS_SWEEP_MSG_MAGIC 0x6e53774bu

/* ---- workers (sweep_workers.c) ---- */

/* In a forked worker: simulates cfg, writes the message to wfd, _exits. */
void ns_sweep_child(int wfd, const struct nicsim_config *cfg) __attribute__((noreturn));
/* The table of up to jobs running workers, and the handlers of SIGTERM,
 * SIGINT and SIGHUP that pass the signal on to them, remove the temporary
 * files and let the sweep die of it; end restores the handlers. */
void ns_sweep_workers_begin(size_t jobs);
void ns_sweep_workers_end(void);
void ns_sweep_worker_add(pid_t pid);
void ns_sweep_worker_del(pid_t pid);

/* ---- shards (sweep_shards.c) ---- */

/* Distinct values of one swept key, in order of first appearance. */
struct ns_axis {
  const struct nc_key *key;
  char (*vals)[NC_STR_MAX];
  size_t n;
};

/* Rank of cfg's value of axis a among the values seen (appended if new);
 * -1 without memory. */
long ns_axis_rank(struct ns_axis *a, const struct nicsim_config *cfg);
struct ns_digits {
  uint64_t tuple; /* hash of the point's digits */
  size_t sum;     /* their sum */
  size_t index;
};

/* latin[i] in [0, nshards) for every point from d[0..n) (d is reordered). */
void ns_latin_shards(struct ns_digits *d, size_t n, size_t nshards, size_t *latin);
/* A point's estimated cost, in simulated frames plus a fixed cost. */
uint64_t ns_point_cost(const struct nicsim_config *c);
/* Deals n points of these costs to nshards (shard[i]), totals in total[];
 * 0 or -1 without memory. */
int ns_balance_shards(const uint64_t *cost, const size_t *latin, size_t n, size_t nshards,
                      size_t *shard, uint64_t *total);

#endif
