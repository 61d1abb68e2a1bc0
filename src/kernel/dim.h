/* dim.h: dynamic interrupt moderation, the algorithm of Linux's net_dim
 * library (lib/dim/net_dim.c and lib/dim/dim.c, Tal Gilboa 2018; as in v5.4
 * to v6.x). A driver that uses it samples its packets, bytes and interrupts
 * at the end of every NAPI poll (dim_update_sample, net_dim); every
 * NK_DIM_NEVENTS interrupts net_dim compares the rates of the last period
 * with the previous one and walks a table of (usecs, frames) profiles: on
 * while the byte rate (else the packet rate, else fewer interrupts) gets
 * better, turning back when it gets worse, parking on the best one, and
 * leaving the park when the traffic changes. A new profile is handed to the
 * driver (Linux schedules a work item that writes the NIC's coalescing
 * registers), which then restarts the measurement. This header is the bare
 * algorithm, with time passed in, so it can be tested on its own; the
 * generic driver runs it (driver.rx_coal_adaptive: dim). docs/kernel.md,
 * "Dynamic interrupt moderation". */
#ifndef NICSIM_KERNEL_DIM_H
#define NICSIM_KERNEL_DIM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NK_DIM_NEVENTS 64 /* DIM_NEVENTS: interrupts per measurement */
#define NK_DIM_NUM_PROFILES 5 /* NET_DIM_PARAMS_NUM_PROFILES */
#define NK_DIM_DEF_PROFILE 1  /* NET_DIM_DEF_PROFILE_EQE: where a queue starts */

/* One coalescing setting: a timer and a frame count (struct dim_cq_moder). */
struct nk_dim_moder {
  uint16_t usec;
  uint16_t pkts;
};

/* Counters at one instant (struct dim_sample): free-running, wrap-around safe. */
struct nk_dim_sample {
  uint64_t time_ns;
  uint32_t pkt_ctr;
  uint32_t byte_ctr;
  uint16_t event_ctr;
};

/* Rates over a measurement (struct dim_stats), per millisecond. */
struct nk_dim_stats {
  int ppms; /* packets */
  int bpms; /* bytes */
  int epms; /* events (interrupts) */
};

enum nk_dim_state { NK_DIM_START_MEASURE, NK_DIM_MEASURE_IN_PROGRESS, NK_DIM_APPLY_NEW_PROFILE };
enum nk_dim_tune_state { NK_DIM_PARKING_ON_TOP, NK_DIM_PARKING_TIRED, NK_DIM_GOING_RIGHT, NK_DIM_GOING_LEFT };

/* One queue's moderation state (struct dim). Zero it, then set profile_ix
 * to the starting profile (Linux: NET_DIM_DEF_PROFILE_EQE, 1). */
struct nk_dim {
  uint8_t state;      /* enum nk_dim_state */
  struct nk_dim_stats prev_stats;
  struct nk_dim_sample start_sample;
  uint8_t profile_ix; /* the profile in use */
  uint8_t tune_state; /* enum nk_dim_tune_state */
  uint8_t steps_right;
  uint8_t steps_left;
  uint8_t tired;
};

/* dim_update_sample: fills *s. */
void nk_dim_update_sample(uint64_t time_ns, uint16_t event_ctr, uint64_t packets, uint64_t bytes,
                          struct nk_dim_sample *s);
/* net_dim: feeds one end-of-poll sample. Returns true when a new profile is
 * to be applied (dim->state is then NK_DIM_APPLY_NEW_PROFILE): the driver
 * writes net_dim_get_rx_moderation(profile_ix) to the NIC and sets state
 * back to NK_DIM_START_MEASURE. */
bool nk_net_dim(struct nk_dim *dim, struct nk_dim_sample end_sample);
/* net_dim_get_rx_moderation for EQE mode (the timer restarts at each
 * event): NET_DIM_RX_EQE_PROFILES. */
struct nk_dim_moder nk_net_dim_get_rx_moderation(uint8_t profile_ix);

#ifdef __cplusplus
}
#endif
#endif
