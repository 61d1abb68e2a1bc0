// test_dim.cpp: the net_dim algorithm (kernel/dim.h) against Linux's
// lib/dim/net_dim.c, step by step: the profile table, the measurement
// period of 64 interrupts, the walk right while the byte rate improves, the
// turn when it gets worse, parking on top, and leaving the park when the
// traffic changes.
#include <gtest/gtest.h>

#include "kernel/dim.h"

namespace {

/* Drives one nk_dim with periods of 64 interrupts, each lasting period_us
 * and carrying the given bytes and packets; applies a new profile at once
 * (the driver's work item: state back to START_MEASURE). */
struct DimDriver {
  nk_dim dim{};
  uint64_t t_ns = 0;
  uint16_t events = 0;
  uint64_t pkts = 0, bytes = 0;
  int changes = 0;
  explicit DimDriver(uint8_t start_ix) {
    dim.profile_ix = start_ix;
    feed(); /* the first poll starts the measurement */
  }
  void feed() {
    nk_dim_sample s;
    nk_dim_update_sample(t_ns, events, pkts, bytes, &s);
    if (nk_net_dim(&dim, s)) {
      changes++;
      dim.state = NK_DIM_START_MEASURE;
      nk_dim_update_sample(t_ns, events, pkts, bytes, &s);
      nk_net_dim(&dim, s); /* the next poll restarts the measurement */
    }
  }
  /* One period of NK_DIM_NEVENTS interrupts, one poll each. */
  void period(uint64_t period_us, uint64_t p, uint64_t b) {
    for (int i = 0; i < NK_DIM_NEVENTS; i++) {
      t_ns += period_us * 1000 / NK_DIM_NEVENTS;
      events++;
      pkts += p / NK_DIM_NEVENTS;
      bytes += b / NK_DIM_NEVENTS;
      feed();
    }
  }
};

}  // namespace

TEST(NetDim, RxEqeProfilesAreLinuxs) {
  const uint16_t usec[] = {1, 8, 64, 128, 256};
  for (uint8_t i = 0; i < NK_DIM_NUM_PROFILES; i++) {
    EXPECT_EQ(nk_net_dim_get_rx_moderation(i).usec, usec[i]) << int(i);
    EXPECT_EQ(nk_net_dim_get_rx_moderation(i).pkts, 256) << int(i);
  }
  EXPECT_EQ(nk_net_dim_get_rx_moderation(9).usec, 256) << "clamped to the last profile";
}

TEST(NetDim, NothingIsDecidedBeforeSixtyFourInterrupts) {
  DimDriver d(1);
  for (int i = 0; i < NK_DIM_NEVENTS - 1; i++) {
    d.t_ns += 1000;
    d.events++;
    d.bytes += 1000;
    d.pkts++;
    d.feed();
  }
  EXPECT_EQ(d.dim.state, NK_DIM_MEASURE_IN_PROGRESS);
  EXPECT_EQ(d.changes, 0);
  EXPECT_EQ(d.dim.profile_ix, 1);
}

/* From profile 1, parked on top (its zeroed state): the first period
 * compares against nothing (prev bpms 0: better) and leaves the park going
 * left (profile_ix > 0), to 0. Worse there: it turns right, back to 1.
 * Better: on right to 2, better again to 3. Worse at 3: it turns left, back
 * to 2; better at 2 after one step left from a walk right of more than one
 * step: the top, where it parks (dim_on_top). Steady traffic keeps it
 * parked; a change of more than 10 % makes it leave. */
TEST(NetDim, WalksWhileBetterAndParksOnTheBest) {
  DimDriver d(1);
  d.period(1000, 1000, 1000000);
  EXPECT_EQ(d.dim.profile_ix, 0);
  EXPECT_EQ(d.dim.tune_state, NK_DIM_GOING_LEFT);
  d.period(1000, 500, 500000); /* worse: turn right */
  EXPECT_EQ(d.dim.profile_ix, 1);
  EXPECT_EQ(d.dim.tune_state, NK_DIM_GOING_RIGHT);
  d.period(1000, 1000, 1000000); /* better: on right */
  EXPECT_EQ(d.dim.profile_ix, 2);
  d.period(1000, 2000, 2000000); /* better */
  EXPECT_EQ(d.dim.profile_ix, 3);
  d.period(1000, 1000, 1000000); /* worse: turn left */
  EXPECT_EQ(d.dim.profile_ix, 2);
  EXPECT_EQ(d.dim.tune_state, NK_DIM_GOING_LEFT);
  d.period(1000, 2000, 2000000); /* better, one step back from a longer walk: the top */
  EXPECT_EQ(d.dim.profile_ix, 2);
  EXPECT_EQ(d.dim.tune_state, NK_DIM_PARKING_ON_TOP);
  EXPECT_EQ(d.changes, 5);
  d.period(1000, 2000, 2000000); /* the same: stays parked, no change */
  EXPECT_EQ(d.dim.tune_state, NK_DIM_PARKING_ON_TOP);
  EXPECT_EQ(d.changes, 5);
  d.period(1000, 4000, 4000000); /* the traffic changed: leaves the park, going left from 2 */
  EXPECT_EQ(d.dim.tune_state, NK_DIM_GOING_LEFT);
  EXPECT_EQ(d.dim.profile_ix, 1);
  EXPECT_EQ(d.changes, 6);
}

/* Walking with no better result, it oscillates until tired
 * (NET_DIM_PARAMS_NUM_PROFILES * 2 steps), parks tired for as many periods,
 * then leaves the park. */
TEST(NetDim, ParksTiredAfterTenStepsWithoutImprovement) {
  DimDriver d(1);
  d.period(1000, 1000, 1000000); /* leaves the park: 1 step */
  int periods = 0;
  while (d.dim.tune_state != NK_DIM_PARKING_TIRED && periods < 50) {
    d.period(1000, 1000, 1000000);
    periods++;
  }
  ASSERT_EQ(d.dim.tune_state, NK_DIM_PARKING_TIRED);
  EXPECT_EQ(periods, 10) << "nine more steps, then the tenth finds it too tired";
  for (int i = 0; i < 9; i++) d.period(1000, 1000, 1000000);
  EXPECT_EQ(d.dim.tune_state, NK_DIM_PARKING_TIRED);
  d.period(1000, 1000, 1000000); /* tired counted down to 0: leaves the park */
  EXPECT_NE(d.dim.tune_state, NK_DIM_PARKING_TIRED);
}

/* At the right edge (profile 4) going right: on edge, it parks. */
TEST(NetDim, ParksAtTheEdge) {
  DimDriver d(3);
  d.dim.tune_state = NK_DIM_GOING_RIGHT; /* as if it had been walking right */
  d.dim.prev_stats = {1, 1000, 64};
  d.period(1000, 2000, 2000000); /* better: step to 4 */
  EXPECT_EQ(d.dim.profile_ix, 4);
  d.period(1000, 4000, 4000000); /* better again, but no profile beyond 4 */
  EXPECT_EQ(d.dim.profile_ix, 4);
  EXPECT_EQ(d.dim.tune_state, NK_DIM_PARKING_ON_TOP);
}

/* A difference of 10 % or less is not significant: the same. */
TEST(NetDim, TenPercentIsTheSame) {
  DimDriver d(2);
  d.dim.tune_state = NK_DIM_GOING_RIGHT;
  d.dim.steps_right = 1;
  d.dim.prev_stats = {1000, 1000000, 64};
  d.period(1000, 1000, 1100000); /* bytes +10 %: the same, so not better: it turns left */
  EXPECT_NE(d.dim.tune_state, NK_DIM_GOING_RIGHT);
}
