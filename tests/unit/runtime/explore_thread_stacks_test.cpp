// The stacks a forked schedule lends to its threads (thread_stacks.h):
// distinct, of the pool's size, above a guard page, lent again once given
// back, at the address asked, and a real thread started on one runs on it.
#include "engines/explore/thread_stacks.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "core/thread_stack_lender.h"

namespace snag::explore {
namespace {

constexpr size_t kStack = 64 * 1024;

std::unique_ptr<StackPool> new_pool() {
  auto pool = std::make_unique<StackPool>();
  EXPECT_TRUE(pool->init(0, kStack, 4096));
  return pool;
}

TEST(ThreadStacksTest, LendsDistinctStacksAndMakesMoreUsableOnDemand) {
  auto pool = new_pool();
  EXPECT_EQ(pool->reserve(3), 3u);
  std::set<char *> bases;
  for (Tid tid = 1; tid <= 5; ++tid) {
    void *base = nullptr;
    size_t size = 0;
    ASSERT_TRUE(pool->lend(tid, &base, &size));
    EXPECT_EQ(size, kStack);
    char *b = static_cast<char *>(base);
    for (char *other : bases) EXPECT_TRUE(b + kStack <= other || other + kStack <= b);
    bases.insert(b);
    b[0] = b[kStack - 1] = 1;  // the whole range is writable
  }
  EXPECT_EQ(pool->size(), 5u);
}

TEST(ThreadStacksTest, AJoinedThreadsStackIsLentAgainFirst) {
  auto pool = new_pool();
  void *first, *second, *again;
  size_t size;
  ASSERT_TRUE(pool->lend(1, &first, &size));
  ASSERT_TRUE(pool->lend(2, &second, &size));
  pool->give_back(7);  // never lent one: nothing happens
  pool->give_back(1);
  ASSERT_TRUE(pool->lend(3, &again, &size));
  EXPECT_EQ(again, first);
  pool->give_back(1);  // given back already: not twice in the free list
  ASSERT_TRUE(pool->lend(4, &again, &size));
  EXPECT_NE(again, first);
  EXPECT_NE(again, second);
}

TEST(ThreadStacksTest, ReservesUpToTheMaximumAndLendsNoMore) {
  auto pool = new_pool();
  EXPECT_EQ(pool->reserve(1), 1u);
  EXPECT_EQ(pool->reserve(4), 4u);
  EXPECT_EQ(pool->reserve(2), 4u);
  EXPECT_EQ(pool->reserve(StackPool::kMaxStacks + 5), StackPool::kMaxStacks);
  void *base;
  size_t size;
  for (Tid tid = 0; tid < StackPool::kMaxStacks; ++tid) ASSERT_TRUE(pool->lend(tid, &base, &size));
  EXPECT_FALSE(pool->lend(StackPool::kMaxStacks, &base, &size));
}

TEST(ThreadStacksTest, FitsOnlyItsOwnSizeAndGuard) {
  auto pool = new_pool();
  EXPECT_TRUE(pool->fits(kStack, 4096));
  EXPECT_TRUE(pool->fits(kStack, 0));  // glibc's guard, rounded up to a page here too
  EXPECT_FALSE(pool->fits(2 * kStack, 4096));
  EXPECT_FALSE(pool->fits(kStack, 8192));
}

TEST(ThreadStacksTest, AFixedAddressIsTakenOnlyOnce) {
  auto probe = new_pool();  // somewhere free: a fixed address for the two below
  void *base;
  size_t size;
  ASSERT_TRUE(probe->lend(1, &base, &size));
  uintptr_t at = (reinterpret_cast<uintptr_t>(base) - (uintptr_t(1) << 40)) & ~((uintptr_t(1) << 30) - 1);
  StackPool first, second;
  ASSERT_TRUE(first.init(at, kStack, 4096));
  ASSERT_TRUE(first.lend(1, &base, &size));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(base), at + 4096);  // above the first guard
  EXPECT_FALSE(second.init(at, kStack, 4096));
  EXPECT_FALSE(second.lend(1, &base, &size));
}

sigjmp_buf g_fault_jump;
void on_fault(int) { siglongjmp(g_fault_jump, 1); }

TEST(ThreadStacksTest, BelowEachStackIsAGuardPage) {
  auto pool = new_pool();
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

bool resident(const char *page) {
  unsigned char in = 0;
  return mincore(const_cast<char *>(page), 4096, &in) == 0 && (in & 1);
}

// A fresh stack's top pages come populated (no page fault when the thread
// writes them); the rest of the stack stays untouched.
TEST(ThreadStacksTest, AFreshStacksTopPagesArePopulatedAtLending) {
  auto pool = new_pool();
  void *base;
  size_t size;
  ASSERT_TRUE(pool->lend(1, &base, &size));
  char *top = static_cast<char *>(base) + size;
  char *probe = static_cast<char *>(base) + 4096;  // untouched by anyone
  if (madvise(probe, 4096, 23 /* MADV_POPULATE_WRITE */) != 0)
    GTEST_SKIP() << "kernel without MADV_POPULATE_WRITE";
  for (size_t at = 4096; at <= StackPool::kPopulatedTop; at += 4096) EXPECT_TRUE(resident(top - at));
  EXPECT_FALSE(resident(top - StackPool::kPopulatedTop - 4096));
  EXPECT_FALSE(resident(static_cast<char *>(base)));
}

void *where_am_i(void *) { return __builtin_frame_address(0); }

TEST(ThreadStacksTest, AThreadRunsOnTheStackItWasLent) {
  auto pool = new_pool();
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
