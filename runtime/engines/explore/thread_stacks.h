// Stacks lent to the threads of a forked schedule (docs/explore.md, "Speed").
//
// A thread created with default attributes gets its stack from glibc: an
// mmap and an mprotect (the guard page) per thread, since a schedule's
// threads are mostly alive at once and glibc's stack cache is empty in each
// new child, and an madvise of the unused stack when the thread ends. With
// 100 threads that was about a quarter of the kernel time of a schedule.
// The fork server instead maps, between schedules, one stack per thread the
// schedules made so far (same size and guard as glibc's default), and each
// child lends them to its threads: the child inherits the mappings (never
// touched by the fork server, so fork copies no page of them) and makes no
// system call for a stack. A joined thread's stack is lent again; a thread
// beyond the pool, or created with attributes of its own, gets glibc's.
#pragma once

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/thread_state.h"

namespace snag::explore {

class StackPool {
 public:
  static constexpr uint32_t kMaxStacks = 512;

  // Fork server, between schedules: makes the pool hold at least `stacks`
  // stacks (at most kMaxStacks) of `stack_size` bytes below a guard of
  // `guard_size`; a size or guard different from the pool's is refused (no
  // stacks are lent then). Returns how many stacks the pool holds.
  uint32_t reserve(uint32_t stacks, size_t stack_size, size_t guard_size);

  // In a schedule: a stack for thread `tid` (its lowest address and size),
  // false when none is left.
  bool lend(Tid tid, void **base, size_t *size);
  // Thread `tid` was joined (it has left the kernel): its stack may be lent
  // again. Nothing for a thread that has no lent stack.
  void give_back(Tid tid);

  uint32_t size() const { return count_; }

 private:
  static constexpr Tid kMaxTid = 8192;
  char *stacks_[kMaxStacks] = {};  // each one's lowest usable address
  uint32_t count_ = 0;
  size_t stack_size_ = 0;
  size_t guard_size_ = 0;
  // Lending state: only a schedule lends, and it starts from the fork
  // server's copy, in which nothing was ever lent.
  uint32_t next_fresh_ = 0;
  uint32_t free_[kMaxStacks];
  uint32_t free_count_ = 0;
  uint16_t slot_of_[kMaxTid] = {};  // slot + 1, 0: none
};

StackPool &stack_pool();

// Fork server, between schedules: grows the pool to `threads` stacks of
// glibc's default size and guard (pthread_getattr_default_np).
void reserve_thread_stacks(uint32_t threads);

// Installs the lender that thread.cpp asks for new threads' stacks.
void lend_thread_stacks();

}  // namespace snag::explore
