// test_prof.cpp: the process-global profile registry and NK_PROFILE_FUNC.
#include <gtest/gtest.h>

#include <cstring>

#include "kernel/kernel.h"

namespace {

int inner_bucket = -1;
int outer_seen_after_inner = -1;

void prof_inner() {
  NK_PROFILE_FUNC(NK_CLASS_TX);
  inner_bucket = nk_prof_current();
}

void prof_outer() {
  NK_PROFILE_FUNC(NK_CLASS_RX);
  int mine = nk_prof_current();
  prof_inner();
  outer_seen_after_inner = nk_prof_current();
  EXPECT_EQ(outer_seen_after_inner, mine);
}

}  // namespace

TEST(KernelProf, BucketZeroIsOther) {
  EXPECT_STREQ(nk_prof_name(0), NK_PROF_OTHER);
  EXPECT_EQ(nk_prof_class(0), NK_CLASS_OTHER);
  EXPECT_GE(nk_prof_count(), 1);
}

TEST(KernelProf, IdIsStablePerNameAndKeepsClass) {
  int n0 = nk_prof_count();
  int fresh = (nk_prof_find("test_prof_a") < 0) + (nk_prof_find("test_prof_b") < 0);  // 2 unless repeated
  int a = nk_prof_id("test_prof_a", NK_CLASS_TX);
  int b = nk_prof_id("test_prof_b", NK_CLASS_IRQ);
  EXPECT_NE(a, b);
  EXPECT_EQ(nk_prof_count(), n0 + fresh);
  EXPECT_EQ(nk_prof_id("test_prof_a", NK_CLASS_RX), a);  // same name: same bucket, first class kept
  EXPECT_EQ(nk_prof_class(a), NK_CLASS_TX);
  EXPECT_EQ(nk_prof_class(b), NK_CLASS_IRQ);
  EXPECT_STREQ(nk_prof_name(a), "test_prof_a");
  EXPECT_EQ(nk_prof_find("test_prof_a"), a);
  EXPECT_EQ(nk_prof_find("test_prof_never_registered"), -1);
  EXPECT_EQ(nk_prof_name(nk_prof_count()), nullptr);
}

TEST(KernelProf, EnterLeaveNestAndRejectBadIds) {
  int a = nk_prof_id("test_prof_nest_a", NK_CLASS_RX);
  int b = nk_prof_id("test_prof_nest_b", NK_CLASS_RX);
  int base = nk_prof_current();
  int p1 = nk_prof_enter(a);
  EXPECT_EQ(p1, base);
  int p2 = nk_prof_enter(b);
  EXPECT_EQ(p2, a);
  EXPECT_EQ(nk_prof_current(), b);
  nk_prof_leave(p2);
  EXPECT_EQ(nk_prof_current(), a);
  nk_prof_leave(p1);
  EXPECT_EQ(nk_prof_current(), base);
  int p3 = nk_prof_enter(NK_PROF_MAX + 5);
  EXPECT_EQ(nk_prof_current(), 0);
  nk_prof_leave(p3);
}

TEST(KernelProf, ProfileFuncNamesTheFunctionAndRestoresOnReturn) {
  int before = nk_prof_current();
  prof_outer();
  EXPECT_EQ(nk_prof_current(), before);
  ASSERT_GT(inner_bucket, 0);
  EXPECT_STREQ(nk_prof_name(inner_bucket), "prof_inner");
  EXPECT_EQ(nk_prof_class(inner_bucket), NK_CLASS_TX);
  int outer = nk_prof_find("prof_outer");
  ASSERT_GT(outer, 0);
  EXPECT_EQ(nk_prof_class(outer), NK_CLASS_RX);
  EXPECT_EQ(outer_seen_after_inner, outer);
}

TEST(KernelProf, ActiveStackListsTheEnteredFunctionsOutermostFirst) {
  int a = nk_prof_id("test_prof_stack_a", NK_CLASS_RX);
  int b = nk_prof_id("test_prof_stack_b", NK_CLASS_RX);
  const int *ids = nullptr;
  const int d0 = nk_prof_active(&ids);
  int p1 = nk_prof_enter(a);
  int p2 = nk_prof_enter(b);
  ASSERT_EQ(nk_prof_active(&ids), d0 + 2);
  EXPECT_EQ(ids[d0], a);
  EXPECT_EQ(ids[d0 + 1], b);
  nk_prof_leave(p2);
  ASSERT_EQ(nk_prof_active(&ids), d0 + 1);
  EXPECT_EQ(ids[d0], a);
  nk_prof_leave(p1);
  EXPECT_EQ(nk_prof_active(nullptr), d0);
}

TEST(KernelProf, FramesBeyondTheTrackedDepthAreNotListedButStillUnwind) {
  int a = nk_prof_id("test_prof_deep", NK_CLASS_RX);
  const int d0 = nk_prof_active(nullptr);
  int prev[NK_PROF_DEPTH + 4];
  for (int i = 0; i < NK_PROF_DEPTH + 4; i++) prev[i] = nk_prof_enter(a);
  EXPECT_EQ(nk_prof_active(nullptr), NK_PROF_DEPTH);
  for (int i = NK_PROF_DEPTH + 3; i >= 0; i--) nk_prof_leave(prev[i]);
  EXPECT_EQ(nk_prof_active(nullptr), d0);
}
