// Stacks lent to the threads of a forked schedule (docs/explore.md, "Speed").
//
// A thread created with default attributes gets its stack from glibc: an
// mmap and an mprotect (the guard page) per thread, since a schedule's
// threads are mostly alive at once and glibc's stack cache is empty in each
// new child, and an madvise of the unused stack when the thread ends. With
// 100 threads that was about a quarter of the kernel time of a schedule.
// Instead, the runtime reserves address space for a pool of stacks (same
// size and guard as glibc's default) at a fixed address, and the fork server
// makes, between schedules, one stack usable per thread the schedules made
// so far; each child lends them to its threads: it inherits the mappings
// (never touched by the fork server, so fork copies no page of them) and
// makes no system call for a stack but one madvise (kPopulatedTop). A
// joined thread's stack is lent again; a thread created with attributes of
// its own gets glibc's.
#pragma once

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/thread_state.h"

namespace snag::explore {

class StackPool {
 public:
  static constexpr uint32_t kMaxStacks = 512;
  // Bytes at the top of a stack that every thread writes (glibc's thread
  // descriptor and static TLS, then its first frames: two pages each
  // measured with 100 threads). A stack lent for the first time in a
  // process gets them in one madvise(MADV_POPULATE_WRITE) instead of two
  // page faults: a fault costs more than its share of one call (-0.2 ms of
  // a 2 ms schedule of 100 threads in a plain fork loop).
  static constexpr size_t kPopulatedTop = 2 * 4096;

  // Reserves the address space of kMaxStacks stacks of `stack_size` bytes,
  // each above a guard of `guard_size` (inaccessible), at address `at` (0:
  // anywhere). False when it cannot (the address is taken): nothing is lent.
  bool init(uintptr_t at, size_t stack_size, size_t guard_size);
  // Fork server, between schedules: makes the first `stacks` stacks usable
  // ahead of the schedules that lend them. Returns how many are.
  uint32_t reserve(uint32_t stacks);

  // A stack for thread `tid` (its lowest address and size): one given back,
  // else the next one not lent yet (made usable here if the fork server did
  // not), so the stack a thread gets depends only on the order of the
  // schedule's creations and joins. False when all kMaxStacks are lent.
  bool lend(Tid tid, void **base, size_t *size);
  // Thread `tid` was joined (it has left the kernel): its stack may be lent
  // again. Nothing for a thread that has no lent stack.
  void give_back(Tid tid);

  uint32_t size() const { return usable_; }
  // Whether the pool's stacks are of this size and guard.
  bool fits(size_t stack_size, size_t guard_size) const;

 private:
  static constexpr Tid kMaxTid = 8192;
  char *stack(uint32_t slot) const { return region_ + slot * (guard_size_ + stack_size_) + guard_size_; }
  bool make_usable(uint32_t stacks);
  void populate_top(uint32_t slot) const;

  char *region_ = nullptr;
  size_t stack_size_ = 0;
  size_t guard_size_ = 0;
  uint32_t usable_ = 0;  // stacks made readable and writable, from the first
  // Lending state: only a schedule lends, and it starts from the fork
  // server's copy, in which nothing was ever lent.
  uint32_t next_fresh_ = 0;
  uint32_t free_[kMaxStacks] = {};
  uint32_t free_count_ = 0;
  uint16_t slot_of_[kMaxTid] = {};  // slot + 1, 0: none
};

StackPool &stack_pool();

// Fork server, between schedules: makes `threads` stacks usable.
void reserve_thread_stacks(uint32_t threads);

// Before the first schedule, in the fork server and in a replay alike:
// reserves the pool at a fixed address (kPoolAddress) for stacks of glibc's
// default size and guard (pthread_getattr_default_np), and installs the
// lender that thread.cpp asks for new threads' stacks. A schedule and its
// replay thus give each thread a stack at the same address.
// With the lazy_threads option (default on) it also defers each new thread's
// kernel thread to its first turn (core/thread_stack_lender.h).
void lend_thread_stacks();
// After a deferred creation failed: new threads are created at once.
void stop_deferring_threads();
constexpr uintptr_t kPoolAddress = 0x600000000000;

}  // namespace snag::explore
