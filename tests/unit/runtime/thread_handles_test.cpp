// thread_by_handle (core/thread_state.cpp) answers from a table of hints
// before it scans: it must still give the newest record holding a handle
// when handles are reused, and find every handle when more threads than
// the table has slots share its hashes.
#include <gtest/gtest.h>

#include "core/thread_state.h"

namespace snag {
namespace {

// Descriptors of threads on lent stacks: a fixed distance below tops that
// lie 8 MiB + a guard page apart. Far above any real descriptor here.
constexpr uintptr_t kFirstHandle = uintptr_t(0x7e0000000000) - 2368;
constexpr uintptr_t kStride = 8 * 1024 * 1024 + 4096;

pthread_t handle(uintptr_t slot) { return static_cast<pthread_t>(kFirstHandle + slot * kStride); }

ThreadState *new_thread_with(pthread_t h) {
  ThreadState *t = thread_create_record(0, 0);
  thread_set_handle(t, h);
  return t;
}

TEST(ThreadHandles, TheNewestHolderOfAReusedHandleIsFound) {
  ThreadState *first = new_thread_with(handle(1));
  ThreadState *other = new_thread_with(handle(2));
  EXPECT_EQ(thread_by_handle(handle(1)), first);
  // first ended and its stack went to a new thread: same handle.
  ThreadState *second = new_thread_with(handle(1));
  EXPECT_EQ(thread_by_handle(handle(1)), second);
  EXPECT_EQ(thread_by_handle(handle(2)), other);
  // The older record setting its handle again (as a thread does when it
  // starts) while it is still the only holder.
  ThreadState *third = new_thread_with(handle(3));
  thread_set_handle(third, handle(3));
  EXPECT_EQ(thread_by_handle(handle(3)), third);
}

TEST(ThreadHandles, EveryHandleIsFoundWhenHintsCollide) {
  // More threads than hint slots, on the stack layout the handles come
  // from: many share a hint, and each lookup must still find its own.
  constexpr uintptr_t kThreads = 3000, kBase = 100;
  ThreadState *records[kThreads];
  for (uintptr_t i = 0; i < kThreads; ++i) records[i] = new_thread_with(handle(kBase + i));
  for (uintptr_t i = 0; i < kThreads; ++i) ASSERT_EQ(thread_by_handle(handle(kBase + i)), records[i]) << i;
  // Looked up in the other order, after a later thread took a hint.
  ThreadState *late = new_thread_with(handle(kBase + kThreads));
  for (uintptr_t i = kThreads; i-- > 0;) ASSERT_EQ(thread_by_handle(handle(kBase + i)), records[i]) << i;
  EXPECT_EQ(thread_by_handle(handle(kBase + kThreads)), late);
  EXPECT_EQ(thread_by_handle(handle(kBase + kThreads + 1)), nullptr);
}

}  // namespace
}  // namespace snag
