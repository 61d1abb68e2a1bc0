/* dql.h: dynamic queue limits, the algorithm behind Linux's byte queue limits
 * (BQL, lib/dynamic_queue_limits.c, Tom Herbert 2011; unchanged in substance
 * from v3.3 to v6.x apart from the 2024 stall detector, which is left out).
 * The kernel layer keeps one per TX queue (netdev_tx_sent_queue and
 * netdev_tx_completed_queue in kernel.h); this header is the bare algorithm,
 * with time passed in, so it can be tested on its own. docs/kernel.md, "Byte
 * queue limits", says how it works. */
#ifndef NICSIM_KERNEL_DQL_H
#define NICSIM_KERNEL_DQL_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's bounds: one queueing operation at most DQL_MAX_OBJECT bytes, the
 * limit at most DQL_MAX_LIMIT (include/linux/dynamic_queue_limits.h). */
#define NK_DQL_MAX_OBJECT (UINT32_MAX / 16)
#define NK_DQL_MAX_LIMIT ((UINT32_MAX / 2) - NK_DQL_MAX_OBJECT)

/* One queue's limit state. Counters are free-running 32-bit byte counts, as in
 * Linux (wrap-around is handled by signed differences). */
struct nk_dql {
  /* written on enqueue */
  uint32_t num_queued;     /* bytes ever queued */
  uint32_t adj_limit;      /* limit + num_completed: queue while num_queued is below */
  uint32_t last_obj_cnt;   /* bytes of the latest dql_queued */
  /* written on completion */
  uint32_t limit;          /* current limit, bytes */
  uint32_t num_completed;  /* bytes ever completed */
  uint32_t prev_ovlimit;   /* bytes over the limit at the previous completion */
  uint32_t prev_num_queued;   /* num_queued at the previous completion */
  uint32_t prev_last_obj_cnt; /* last_obj_cnt at the previous completion */
  uint32_t lowest_slack;   /* smallest slack seen since slack_start_ns */
  uint64_t slack_start_ns; /* when the current slack window began */
  /* configuration (the sysfs byte_queue_limits files) */
  uint32_t max_limit;      /* limit_max */
  uint32_t min_limit;      /* limit_min */
  uint64_t slack_hold_ns;  /* hold_time: slack must persist this long before the limit shrinks */
};

/* Sets the bounds and hold time and resets (dql_init; Linux's netdev queues
 * use limit_min 0, limit_max NK_DQL_MAX_LIMIT, hold_time HZ = 1 s). */
void nk_dql_init(struct nk_dql *dql, uint32_t min_limit, uint32_t max_limit, uint64_t hold_ns, uint64_t now_ns);

/* Forgets everything queued and completed; the limit returns to min_limit (dql_reset). */
void nk_dql_reset(struct nk_dql *dql, uint64_t now_ns);

/* Records count bytes handed to the device (dql_queued). count must not
 * exceed NK_DQL_MAX_OBJECT; returns false (and records nothing) if it does. */
bool nk_dql_queued(struct nk_dql *dql, uint32_t count);

/* Bytes that may still be queued before the limit: negative once it is
 * reached (dql_avail). */
static inline int32_t nk_dql_avail(const struct nk_dql *dql) {
  return (int32_t)(dql->adj_limit - dql->num_queued);
}

/* Bytes queued and not yet completed. */
static inline uint32_t nk_dql_inflight(const struct nk_dql *dql) {
  return dql->num_queued - dql->num_completed;
}

/* Records count bytes completed by the device and recomputes the limit
 * (dql_completed): it grows by what was completed when the queue starved
 * while over its limit, and shrinks by the smallest slack (bytes queued
 * beyond need) once slack has persisted for slack_hold_ns. count must not
 * exceed the bytes in flight; returns false (and records nothing) if it does. */
bool nk_dql_completed(struct nk_dql *dql, uint32_t count, uint64_t now_ns);

#ifdef __cplusplus
}
#endif

#endif
