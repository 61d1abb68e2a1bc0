/* dim.c: Linux's net_dim algorithm (lib/dim/net_dim.c, lib/dim/dim.c); see dim.h. */
#include "kernel/dim.h"

#include <stdlib.h>

#define NK_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE 256 /* NET_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE */

/* NET_DIM_RX_EQE_PROFILES */
static const struct nk_dim_moder nk__rx_eqe_profiles[NK_DIM_NUM_PROFILES] = {
    {1, NK_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE},   {8, NK_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE},
    {64, NK_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE},  {128, NK_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE},
    {256, NK_DIM_DEFAULT_RX_CQ_PKTS_FROM_EQE},
};

enum { NK_DIM_STATS_WORSE, NK_DIM_STATS_SAME, NK_DIM_STATS_BETTER };
enum { NK_DIM_STEPPED, NK_DIM_TOO_TIRED, NK_DIM_ON_EDGE };

/* IS_SIGNIFICANT_DIFF: more than 10 % apart. */
static bool nk__significant(int val, int ref) { return 100L * labs((long)val - ref) / ref > 10; }

struct nk_dim_moder nk_net_dim_get_rx_moderation(uint8_t profile_ix) {
  if (profile_ix >= NK_DIM_NUM_PROFILES) profile_ix = NK_DIM_NUM_PROFILES - 1;
  return nk__rx_eqe_profiles[profile_ix];
}

void nk_dim_update_sample(uint64_t time_ns, uint16_t event_ctr, uint64_t packets, uint64_t bytes,
                          struct nk_dim_sample *s) {
  s->time_ns = time_ns;
  s->pkt_ctr = (uint32_t)packets;
  s->byte_ctr = (uint32_t)bytes;
  s->event_ctr = event_ctr;
}

/* dim_on_top */
static bool nk__on_top(const struct nk_dim *dim) {
  switch (dim->tune_state) {
    case NK_DIM_PARKING_ON_TOP:
    case NK_DIM_PARKING_TIRED: return true;
    case NK_DIM_GOING_RIGHT: return dim->steps_left > 1 && dim->steps_right == 1;
    default: return dim->steps_right > 1 && dim->steps_left == 1; /* NK_DIM_GOING_LEFT */
  }
}

/* dim_turn */
static void nk__turn(struct nk_dim *dim) {
  if (dim->tune_state == NK_DIM_GOING_RIGHT) {
    dim->tune_state = NK_DIM_GOING_LEFT;
    dim->steps_left = 0;
  } else if (dim->tune_state == NK_DIM_GOING_LEFT) {
    dim->tune_state = NK_DIM_GOING_RIGHT;
    dim->steps_right = 0;
  }
}

/* dim_park_on_top */
static void nk__park_on_top(struct nk_dim *dim) {
  dim->steps_right = 0;
  dim->steps_left = 0;
  dim->tired = 0;
  dim->tune_state = NK_DIM_PARKING_ON_TOP;
}

/* dim_park_tired */
static void nk__park_tired(struct nk_dim *dim) {
  dim->steps_right = 0;
  dim->steps_left = 0;
  dim->tune_state = NK_DIM_PARKING_TIRED;
}

/* net_dim_step */
static int nk__step(struct nk_dim *dim) {
  if (dim->tired == NK_DIM_NUM_PROFILES * 2) return NK_DIM_TOO_TIRED;
  switch (dim->tune_state) {
    case NK_DIM_PARKING_ON_TOP:
    case NK_DIM_PARKING_TIRED: break;
    case NK_DIM_GOING_RIGHT:
      if (dim->profile_ix == NK_DIM_NUM_PROFILES - 1) return NK_DIM_ON_EDGE;
      dim->profile_ix++;
      dim->steps_right++;
      break;
    case NK_DIM_GOING_LEFT:
      if (dim->profile_ix == 0) return NK_DIM_ON_EDGE;
      dim->profile_ix--;
      dim->steps_left++;
      break;
  }
  dim->tired++;
  return NK_DIM_STEPPED;
}

/* net_dim_exit_parking */
static void nk__exit_parking(struct nk_dim *dim) {
  dim->tune_state = dim->profile_ix ? NK_DIM_GOING_LEFT : NK_DIM_GOING_RIGHT;
  nk__step(dim);
}

/* net_dim_stats_compare: bytes first, then packets, then fewer events. */
static int nk__compare(const struct nk_dim_stats *curr, const struct nk_dim_stats *prev) {
  if (!prev->bpms) return curr->bpms ? NK_DIM_STATS_BETTER : NK_DIM_STATS_SAME;
  if (nk__significant(curr->bpms, prev->bpms))
    return curr->bpms > prev->bpms ? NK_DIM_STATS_BETTER : NK_DIM_STATS_WORSE;
  if (!prev->ppms) return curr->ppms ? NK_DIM_STATS_BETTER : NK_DIM_STATS_SAME;
  if (nk__significant(curr->ppms, prev->ppms))
    return curr->ppms > prev->ppms ? NK_DIM_STATS_BETTER : NK_DIM_STATS_WORSE;
  if (!prev->epms) return NK_DIM_STATS_SAME;
  if (nk__significant(curr->epms, prev->epms))
    return curr->epms < prev->epms ? NK_DIM_STATS_BETTER : NK_DIM_STATS_WORSE;
  return NK_DIM_STATS_SAME;
}

/* net_dim_decision: true if the profile changed. */
static bool nk__decision(const struct nk_dim_stats *curr, struct nk_dim *dim) {
  const int prev_state = dim->tune_state, prev_ix = dim->profile_ix;
  switch (dim->tune_state) {
    case NK_DIM_PARKING_ON_TOP:
      if (nk__compare(curr, &dim->prev_stats) != NK_DIM_STATS_SAME) nk__exit_parking(dim);
      break;
    case NK_DIM_PARKING_TIRED:
      dim->tired--;
      if (!dim->tired) nk__exit_parking(dim);
      break;
    case NK_DIM_GOING_RIGHT:
    case NK_DIM_GOING_LEFT:
      if (nk__compare(curr, &dim->prev_stats) != NK_DIM_STATS_BETTER) nk__turn(dim);
      if (nk__on_top(dim)) {
        nk__park_on_top(dim);
        break;
      }
      switch (nk__step(dim)) {
        case NK_DIM_ON_EDGE: nk__park_on_top(dim); break;
        case NK_DIM_TOO_TIRED: nk__park_tired(dim); break;
        default: break;
      }
      break;
  }
  if (prev_state != NK_DIM_PARKING_ON_TOP || dim->tune_state != NK_DIM_PARKING_ON_TOP) dim->prev_stats = *curr;
  return dim->profile_ix != prev_ix;
}

/* dim_calc_stats: false if no time passed. DIV_ROUND_UP of the counts per ms. */
static bool nk__calc_stats(const struct nk_dim_sample *start, const struct nk_dim_sample *end,
                           struct nk_dim_stats *curr) {
  const uint64_t delta_us = (end->time_ns - start->time_ns) / 1000u;
  const uint32_t npkts = end->pkt_ctr - start->pkt_ctr, nbytes = end->byte_ctr - start->byte_ctr;
  if (!delta_us) return false;
  curr->ppms = (int)(((uint64_t)npkts * 1000u + delta_us - 1) / delta_us);
  curr->bpms = (int)(((uint64_t)nbytes * 1000u + delta_us - 1) / delta_us);
  curr->epms = (int)(((uint64_t)NK_DIM_NEVENTS * 1000u + delta_us - 1) / delta_us);
  return true;
}

bool nk_net_dim(struct nk_dim *dim, struct nk_dim_sample end_sample) {
  struct nk_dim_stats curr;
  switch (dim->state) {
    case NK_DIM_MEASURE_IN_PROGRESS: {
      const uint16_t nevents = (uint16_t)(end_sample.event_ctr - dim->start_sample.event_ctr);
      if (nevents < NK_DIM_NEVENTS) break;
      if (!nk__calc_stats(&dim->start_sample, &end_sample, &curr)) break;
      if (nk__decision(&curr, dim)) {
        dim->state = NK_DIM_APPLY_NEW_PROFILE;
        return true;
      }
    }
      /* fallthrough */
    case NK_DIM_START_MEASURE:
      dim->start_sample = end_sample;
      dim->state = NK_DIM_MEASURE_IN_PROGRESS;
      break;
    case NK_DIM_APPLY_NEW_PROFILE: break;
  }
  return false;
}
