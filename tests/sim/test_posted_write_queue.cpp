// test_posted_write_queue.cpp: the pooled FIFO of posted writes: order, byte
// copies, growth without losing entries, and its preconditions.
#include <gtest/gtest.h>

#include <cstring>

#include "pcie/posted_write_queue.h"

namespace nicsim {
namespace {

TEST(PostedWriteQueue, KeepsOrderAndCopiesTheBytes) {
  PostedWriteQueue q(256, 2);
  uint8_t buf[256];
  for (int i = 0; i < 10; i++) {
    std::memset(buf, i, sizeof buf);
    q.push(100 + i, 0x1000 + i, buf, 16 + i, DmaPurpose::Data);
  }
  std::memset(buf, 0xEE, sizeof buf); /* the caller's buffer may be reused at once */
  EXPECT_EQ(q.size(), 10u);
  EXPECT_GE(q.capacity(), 10u);
  for (int i = 0; i < 10; i++) {
    ASSERT_FALSE(q.empty());
    const PostedWrite &w = q.front();
    EXPECT_EQ(w.arrival_ps, 100u + i);
    EXPECT_EQ(w.addr, 0x1000u + i);
    EXPECT_EQ(w.len, 16u + i);
    for (uint32_t b = 0; b < w.len; b++) ASSERT_EQ(w.data[b], i);
    q.pop();
  }
  EXPECT_TRUE(q.empty());
}

TEST(PostedWriteQueue, GrowingKeepsEveryFieldOfTheWaitingWrites) {
  /* Two slots to start with: the third push grows the pool while two
   * writes wait; their purpose and TLP attributes must survive the move. */
  PostedWriteQueue q(64, 2);
  uint8_t buf[64] = {};
  for (int i = 0; i < 5; i++) {
    TlpAttrs a;
    a.relaxed_ordering = (i % 2) == 0;
    a.no_snoop = (i % 3) == 0;
    buf[0] = static_cast<uint8_t>(i);
    q.push(10 + i, 0x2000 + 64 * i, buf, 8, i % 2 ? DmaPurpose::Data : DmaPurpose::DescWriteBack, a);
  }
  EXPECT_GE(q.capacity(), 5u);
  for (int i = 0; i < 5; i++) {
    const PostedWrite &w = q.front();
    EXPECT_EQ(w.arrival_ps, 10u + i);
    EXPECT_EQ(w.purpose, i % 2 ? DmaPurpose::Data : DmaPurpose::DescWriteBack) << i;
    EXPECT_EQ(w.attrs.relaxed_ordering, (i % 2) == 0) << i;
    EXPECT_EQ(w.attrs.no_snoop, (i % 3) == 0) << i;
    EXPECT_EQ(w.data[0], i);
    q.pop();
  }
}

TEST(PostedWriteQueue, WrapsAroundWithoutGrowingInSteadyState) {
  PostedWriteQueue q(8, 4);
  uint8_t v[8] = {};
  for (uint64_t i = 0; i < 1000; i++) {
    v[0] = static_cast<uint8_t>(i);
    q.push(i, i, v, 1, DmaPurpose::Mmio);
    if (q.size() == 3) {
      EXPECT_EQ(q.front().data[0], static_cast<uint8_t>(i - 2));
      q.pop();
    }
  }
  EXPECT_EQ(q.capacity(), 4u);
}

TEST(PostedWriteQueue, RejectsOutOfOrderAndOversizedWrites) {
  PostedWriteQueue q(8, 4);
  uint8_t v[16] = {};
  q.push(50, 0, v, 4, DmaPurpose::Data);
  EXPECT_THROW(q.push(49, 0, v, 4, DmaPurpose::Data), std::logic_error);
  EXPECT_THROW(q.push(60, 0, v, 16, DmaPurpose::Data), std::length_error);
  q.pop();
  EXPECT_THROW(q.pop(), std::logic_error);
}

}  // namespace
}  // namespace nicsim
