/* dql.c: dynamic queue limits (the algorithm of Linux's byte queue limits),
 * written for nicsim from the description in lib/dynamic_queue_limits.c; see
 * dql.h for the interface and docs/kernel.md for how the kernel layer uses it. */
#include "kernel/dql.h"

/* a - b if a is after b (as free-running counters), else 0 */
static uint32_t posdiff(uint32_t a, uint32_t b) { return (int32_t)(a - b) > 0 ? a - b : 0; }
/* a is b or after it (free-running counters) */
static bool after_eq(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

void nk_dql_reset(struct nk_dql *dql, uint64_t now_ns) {
  dql->limit = dql->min_limit;
  dql->num_queued = 0;
  dql->num_completed = 0;
  dql->adj_limit = dql->limit;
  dql->last_obj_cnt = 0;
  dql->prev_num_queued = 0;
  dql->prev_last_obj_cnt = 0;
  dql->prev_ovlimit = 0;
  dql->lowest_slack = UINT32_MAX;
  dql->slack_start_ns = now_ns;
}

void nk_dql_init(struct nk_dql *dql, uint32_t min_limit, uint32_t max_limit, uint64_t hold_ns, uint64_t now_ns) {
  dql->min_limit = min_limit;
  dql->max_limit = max_limit < min_limit ? min_limit : max_limit;
  dql->slack_hold_ns = hold_ns;
  nk_dql_reset(dql, now_ns);
}

bool nk_dql_queued(struct nk_dql *dql, uint32_t count) {
  if (count > NK_DQL_MAX_OBJECT) return false;
  dql->last_obj_cnt = count;
  dql->num_queued += count;
  return true;
}

bool nk_dql_completed(struct nk_dql *dql, uint32_t count, uint64_t now_ns) {
  const uint32_t num_queued = dql->num_queued;
  if (count > num_queued - dql->num_completed) return false; /* Linux: BUG_ON */

  const uint32_t completed = dql->num_completed + count;
  uint32_t limit = dql->limit;
  uint32_t ovlimit = posdiff(num_queued - dql->num_completed, limit);
  const uint32_t inprogress = num_queued - completed;
  const uint32_t prev_inprogress = dql->prev_num_queued - dql->num_completed;
  const bool all_prev_completed = after_eq(completed, dql->prev_num_queued);

  if ((ovlimit && !inprogress) || (dql->prev_ovlimit && all_prev_completed)) {
    /* Starved: the queue was over its limit and has run dry (now, or possibly
     * between the previous completion and the next enqueue). Grow the limit
     * by what was both queued and completed since the previous completion,
     * plus the previous excess. */
    limit += posdiff(completed, dql->prev_num_queued) + dql->prev_ovlimit;
    dql->slack_start_ns = now_ns;
    dql->lowest_slack = UINT32_MAX;
  } else if (inprogress && prev_inprogress && !all_prev_completed) {
    /* Busy for the whole interval: measure the slack, the bytes queued
     * beyond what kept the device busy. Twice what completed bounds what was
     * needed; the part of the latest enqueue that was not excess also counts. */
    uint32_t slack = posdiff(limit + dql->prev_ovlimit, 2 * (completed - dql->num_completed));
    const uint32_t slack_last_objs = dql->prev_ovlimit ? posdiff(dql->prev_last_obj_cnt, dql->prev_ovlimit) : 0;
    if (slack_last_objs > slack) slack = slack_last_objs;
    if (slack < dql->lowest_slack) dql->lowest_slack = slack;
    /* Shrink by the smallest slack once the hold time has passed with slack throughout. */
    if (now_ns > dql->slack_start_ns + dql->slack_hold_ns) {
      limit = posdiff(limit, dql->lowest_slack);
      dql->slack_start_ns = now_ns;
      dql->lowest_slack = UINT32_MAX;
    }
  }

  if (limit < dql->min_limit) limit = dql->min_limit;
  if (limit > dql->max_limit) limit = dql->max_limit;
  if (limit != dql->limit) {
    dql->limit = limit;
    ovlimit = 0;
  }
  dql->adj_limit = limit + completed;
  dql->prev_ovlimit = ovlimit;
  dql->prev_last_obj_cnt = dql->last_obj_cnt;
  dql->num_completed = completed;
  dql->prev_num_queued = num_queued;
  return true;
}
