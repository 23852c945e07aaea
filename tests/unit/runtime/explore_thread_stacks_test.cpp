// The stacks a forked schedule lends to its threads (thread_stacks.h):
// distinct, of the size asked, below a guard page, lent again once given
// back, and a real thread started on one runs on it.
#include "engines/explore/thread_stacks.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "core/thread_stack_lender.h"

namespace snag::explore {
namespace {

constexpr size_t kStack = 64 * 1024;

TEST(ThreadStacksTest, LendsDistinctStacksUntilThePoolIsEmpty) {
  auto pool = std::make_unique<StackPool>();
  EXPECT_EQ(pool->reserve(3, kStack, 4096), 3u);
  std::set<char *> bases;
  for (Tid tid = 1; tid <= 3; ++tid) {
    void *base = nullptr;
    size_t size = 0;
    ASSERT_TRUE(pool->lend(tid, &base, &size));
    EXPECT_EQ(size, kStack);
    char *b = static_cast<char *>(base);
    for (char *other : bases) EXPECT_TRUE(b + kStack <= other || other + kStack <= b);
    bases.insert(b);
    b[0] = b[kStack - 1] = 1;  // the whole range is writable
  }
  void *base;
  size_t size;
  EXPECT_FALSE(pool->lend(4, &base, &size));
}

TEST(ThreadStacksTest, AJoinedThreadsStackIsLentAgain) {
  auto pool = std::make_unique<StackPool>();
  pool->reserve(2, kStack, 4096);
  void *first, *second, *again;
  size_t size;
  ASSERT_TRUE(pool->lend(1, &first, &size));
  ASSERT_TRUE(pool->lend(2, &second, &size));
  pool->give_back(7);  // never lent one: nothing happens
  EXPECT_FALSE(pool->lend(3, &again, &size));
  pool->give_back(1);
  ASSERT_TRUE(pool->lend(3, &again, &size));
  EXPECT_EQ(again, first);
  pool->give_back(1);  // given back already: not twice in the free list
  EXPECT_FALSE(pool->lend(4, &again, &size));
}

TEST(ThreadStacksTest, GrowsButKeepsItsStackSize) {
  auto pool = std::make_unique<StackPool>();
  EXPECT_EQ(pool->reserve(1, kStack, 4096), 1u);
  EXPECT_EQ(pool->reserve(4, kStack, 4096), 4u);
  EXPECT_EQ(pool->reserve(2, kStack, 4096), 4u);
  EXPECT_EQ(pool->reserve(8, 2 * kStack, 4096), 4u);  // another size: not mixed in
  EXPECT_EQ(pool->reserve(StackPool::kMaxStacks + 5, kStack, 4096), StackPool::kMaxStacks);
}

sigjmp_buf g_fault_jump;
void on_fault(int) { siglongjmp(g_fault_jump, 1); }

TEST(ThreadStacksTest, BelowEachStackIsAGuardPage) {
  auto pool = std::make_unique<StackPool>();
  pool->reserve(2, kStack, 4096);
  void *base;
  size_t size;
  ASSERT_TRUE(pool->lend(1, &base, &size));
  struct sigaction sa = {}, old;
  sa.sa_handler = on_fault;
  sigaction(SIGSEGV, &sa, &old);
  volatile bool faulted = false;
  if (sigsetjmp(g_fault_jump, 1) == 0) {
    static_cast<volatile char *>(base)[-1] = 1;
  } else {
    faulted = true;
  }
  sigaction(SIGSEGV, &old, nullptr);
  EXPECT_TRUE(faulted);
}

void *where_am_i(void *) { return __builtin_frame_address(0); }

TEST(ThreadStacksTest, AThreadRunsOnTheStackItWasLent) {
  auto pool = std::make_unique<StackPool>();
  pool->reserve(1, kStack, 4096);
  void *base;
  size_t size;
  ASSERT_TRUE(pool->lend(1, &base, &size));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, base, size);
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, where_am_i, nullptr), 0);
  void *local = nullptr;
  pthread_join(thread, &local);
  pthread_attr_destroy(&attr);
  EXPECT_GE(static_cast<char *>(local), static_cast<char *>(base));
  EXPECT_LT(static_cast<char *>(local), static_cast<char *>(base) + size);
}

}  // namespace
}  // namespace snag::explore
