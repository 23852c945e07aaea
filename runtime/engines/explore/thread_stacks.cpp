#include "engines/explore/thread_stacks.h"

#include <sys/mman.h>
#include <sys/syscall.h>

#include "core/platform.h"
#include "core/spinlock.h"
#include "core/thread_stack_lender.h"

namespace snag::explore {

namespace {

constexpr size_t kPage = 4096;

// A program's threads run one at a time under the scheduler, but threads
// outside its control (after the exit point) may still create and join.
SpinLock g_lock;

StackPool g_pool;

}  // namespace

uint32_t StackPool::reserve(uint32_t stacks, size_t stack_size, size_t guard_size) {
  if (stack_size == 0 || stack_size % kPage != 0) return count_;
  guard_size = guard_size < kPage ? kPage : (guard_size + kPage - 1) & ~(kPage - 1);
  if (count_ == 0) {
    stack_size_ = stack_size;
    guard_size_ = guard_size;
  } else if (stack_size != stack_size_ || guard_size != guard_size_) {
    return count_;  // the program changed its default attributes: glibc's stacks from here
  }
  if (stacks > kMaxStacks) stacks = kMaxStacks;
  if (stacks <= count_) return count_;
  uint32_t added = stacks - count_;
  size_t slot = guard_size_ + stack_size_;
  // Never touched here: fork copies no page table entry of it, and each
  // schedule's first touches are zero-fill faults, as with a fresh stack.
  // Raw system calls: the runtime intercepts mmap.
  long p = raw_syscall(SYS_mmap, 0, static_cast<long>(slot * added), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p < 0 && p > -4096) return count_;
  char *region = reinterpret_cast<char *>(p);
  for (uint32_t i = 0; i < added; ++i) {
    char *guard = region + i * slot;
    raw_syscall(SYS_mprotect, reinterpret_cast<long>(guard), static_cast<long>(guard_size_), PROT_NONE);
    stacks_[count_++] = guard + guard_size_;
  }
  return count_;
}

bool StackPool::lend(Tid tid, void **base, size_t *size) {
  if (count_ == 0 || tid >= kMaxTid) return false;
  SpinLockGuard guard(g_lock);
  uint32_t slot;
  if (free_count_ > 0) slot = free_[--free_count_];
  else if (next_fresh_ < count_) slot = next_fresh_++;
  else return false;
  slot_of_[tid] = static_cast<uint16_t>(slot + 1);
  *base = stacks_[slot];
  *size = stack_size_;
  return true;
}

void StackPool::give_back(Tid tid) {
  if (tid >= kMaxTid) return;
  SpinLockGuard guard(g_lock);
  if (slot_of_[tid] == 0) return;
  free_[free_count_++] = slot_of_[tid] - 1u;
  slot_of_[tid] = 0;
}

StackPool &stack_pool() { return g_pool; }

void reserve_thread_stacks(uint32_t threads) {
  if (threads <= stack_pool().size()) return;
  pthread_attr_t defaults;
  if (pthread_getattr_default_np(&defaults) != 0) return;
  size_t stack_size = 0, guard_size = 0;
  pthread_attr_getstacksize(&defaults, &stack_size);
  pthread_attr_getguardsize(&defaults, &guard_size);
  pthread_attr_destroy(&defaults);
  stack_pool().reserve(threads, stack_size, guard_size);
}

namespace {

bool lend(Tid child, void **base, size_t *size) { return stack_pool().lend(child, base, size); }
void give_back(Tid child) { stack_pool().give_back(child); }
const ThreadStackLender g_lender = {lend, give_back};

}  // namespace

void lend_thread_stacks() { g_thread_stack_lender = &g_lender; }

}  // namespace snag::explore
