#include "engines/explore/thread_stacks.h"

#include <sys/mman.h>
#include <sys/syscall.h>

#include "core/options.h"
#include "core/platform.h"
#include "core/spinlock.h"
#include "core/text_buffer.h"
#include "core/thread_stack_lender.h"
#include "engines/explore/failures.h"
#include "engines/explore/results.h"
#include "engines/explore/scheduler.h"

namespace snag::explore {

namespace {

constexpr size_t kPage = 4096;
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

// A program's threads run one at a time under the scheduler, but threads
// outside its control (after the exit point) may still create and join.
SpinLock g_lock;

// glibc's guard is a whole number of pages, at least one here.
size_t round_guard(size_t guard_size) {
  return guard_size < kPage ? kPage : (guard_size + kPage - 1) & ~(kPage - 1);
}

// Zeros in .bss: a constructor writing its 18 KiB at start made them
// resident in every program, whatever the engine (race_bench.txt section 101).
constinit StackPool g_pool;

}  // namespace

bool StackPool::init(uintptr_t at, size_t stack_size, size_t guard_size) {
  if (region_ || stack_size == 0 || stack_size % kPage != 0) return region_ != nullptr;
  guard_size = round_guard(guard_size);
  size_t bytes = size_t(kMaxStacks) * (guard_size + stack_size);
  // Address space only: inaccessible, nothing committed, one mapping.
  // Raw system calls: the runtime intercepts mmap.
  long flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (at ? MAP_FIXED_NOREPLACE : 0);
  long p = raw_syscall(SYS_mmap, static_cast<long>(at), static_cast<long>(bytes), PROT_NONE, flags, -1, 0);
  if (p < 0 && p > -4096) return false;
  if (at && uintptr_t(p) != at) {  // a kernel without MAP_FIXED_NOREPLACE took it as a hint
    raw_syscall(SYS_munmap, p, static_cast<long>(bytes));
    return false;
  }
  region_ = reinterpret_cast<char *>(p);
  stack_size_ = stack_size;
  guard_size_ = guard_size;
  return true;
}

bool StackPool::fits(size_t stack_size, size_t guard_size) const {
  return stack_size == stack_size_ && round_guard(guard_size) == guard_size_;
}

bool StackPool::make_usable(uint32_t stacks) {
  if (!region_ || stacks > kMaxStacks) return false;
  for (; usable_ < stacks; ++usable_) {
    // Each stack's guard stays inaccessible. Never touched by the fork
    // server: fork copies no page table entry of it, and a schedule's first
    // touches are zero-fill faults, as with a fresh glibc stack.
    if (raw_syscall(SYS_mprotect, reinterpret_cast<long>(stack(usable_)),
                    static_cast<long>(stack_size_), PROT_READ | PROT_WRITE) != 0)
      return false;
  }
  return true;
}

uint32_t StackPool::reserve(uint32_t stacks) {
  SpinLockGuard guard(g_lock);
  make_usable(stacks < kMaxStacks ? stacks : kMaxStacks);
  return usable_;
}

bool StackPool::lend(Tid tid, void **base, size_t *size) {
  if (!region_ || tid >= kMaxTid) return false;
  SpinLockGuard guard(g_lock);
  uint32_t slot;
  if (free_count_ > 0) {
    slot = free_[--free_count_];
  } else if (make_usable(next_fresh_ + 1)) {
    slot = next_fresh_++;
    populate_top(slot);
  } else {
    return false;
  }
  slot_of_[tid] = static_cast<uint16_t>(slot + 1);
  *base = stack(slot);
  *size = stack_size_;
  return true;
}

void StackPool::populate_top(uint32_t slot) const {
  // A kernel without MADV_POPULATE_WRITE refuses: the pages fault as before.
  char *top = stack(slot) + stack_size_;
  size_t bytes = stack_size_ < kPopulatedTop ? stack_size_ : kPopulatedTop;
  raw_syscall(SYS_madvise, reinterpret_cast<long>(top - bytes), static_cast<long>(bytes),
              MADV_POPULATE_WRITE);
}

void StackPool::give_back(Tid tid) {
  if (tid >= kMaxTid) return;
  SpinLockGuard guard(g_lock);
  if (slot_of_[tid] == 0) return;
  free_[free_count_++] = slot_of_[tid] - 1u;
  slot_of_[tid] = 0;
}

StackPool &stack_pool() { return g_pool; }

void reserve_thread_stacks(uint32_t threads) { stack_pool().reserve(threads); }

namespace {

// The defaults glibc would give a thread now: a program may change them
// (pthread_setattr_default_np), and its threads then get glibc's stacks.
bool default_stack(size_t *stack_size, size_t *guard_size) {
  pthread_attr_t defaults;
  if (pthread_getattr_default_np(&defaults) != 0) return false;
  pthread_attr_getstacksize(&defaults, stack_size);
  pthread_attr_getguardsize(&defaults, guard_size);
  pthread_attr_destroy(&defaults);
  return true;
}

bool lend(Tid child, void **base, size_t *size) {
  size_t stack_size, guard_size;
  if (!default_stack(&stack_size, &guard_size) || !stack_pool().fits(stack_size, guard_size)) return false;
  return stack_pool().lend(child, base, size);
}
void give_back(Tid child) { stack_pool().give_back(child); }
const ThreadStackLender g_lender = {lend, give_back};

// Lazy threads: a thread is deferred while the scheduler controls the
// schedule, which then creates it when it first hands it the baton.
bool defer(Tid child) {
  Scheduler &s = scheduler();
  if (!s.active()) return false;
  ControlledThread *t = s.thread(child);
  if (!t) return false;
  t->deferred = true;
  return true;
}

// The program was told its pthread_create succeeded; the schedule cannot go
// on as it would have, so it stops without a bug, and the fork server
// creates threads at once in the schedules after it (fork_server.cpp), so
// that the program sees the failure there.
void deferred_creation_failed(int error) {
  TextBuffer note;
  note.add("a thread's deferred creation failed (error ").add_u64(unsigned(error));
  note.add(") after pthread_create had returned 0: that schedule stopped as incomplete and later "
           "ones create threads at once (--eager-threads)");
  note.add('\0');
  record_note(note.data());
  end_incomplete_schedule("threads");
}

}  // namespace

void lend_thread_stacks() {
  size_t stack_size, guard_size;
  if (default_stack(&stack_size, &guard_size) && stack_pool().init(kPoolAddress, stack_size, guard_size))
    g_thread_stack_lender = &g_lender;
  if (g_thread_stack_lender && options().flag("lazy_threads")) {
    learn_deferred_handle_offset();  // once, before the schedules fork
    g_defer_thread = defer;
    g_deferred_creation_failed = deferred_creation_failed;
  }
}

void stop_deferring_threads() { g_defer_thread = nullptr; }

}  // namespace snag::explore
