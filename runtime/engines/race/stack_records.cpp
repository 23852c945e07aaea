// Records of reused thread stacks (stack_records.h).
#include "engines/race/stack_records.h"

#include "core/spinlock.h"
#include "engines/race/shadow.h"

namespace snag::race {

std::atomic<uintptr_t> g_untracked_stack_low{0};

namespace {

// One stack glibc handed out: its usable range and the lowest stack pointer
// of the threads that ran on it since the last claim. size 0: unused.
struct StackRecord {
  uintptr_t base = 0;
  uintptr_t size = 0;
  std::atomic<uintptr_t> low{0};
};

// glibc keeps up to 40 MiB of stacks for reuse (five of 8 MiB), and a
// program has as many stacks as live threads: a record per stack of up to
// this many live threads; a stack whose record was replaced is cleared
// whole at its next use. Records are never freed: a thread lowers its
// record's word without a lock, and one replaced under it only makes the
// record's next claim clear more.
constexpr uint32_t kRecords = 256;
StackRecord g_records[kRecords];
// Bounds of the ranges ever recorded, so that most mappings find nothing to
// forget without taking the lock.
std::atomic<uintptr_t> g_lowest{~uintptr_t(0)};
std::atomic<uintptr_t> g_highest{0};
SpinLock g_lock;

uint32_t slot_of(uintptr_t base) { return static_cast<uint32_t>((base >> 12) ^ (base >> 23)) % kRecords; }

bool overlaps(const StackRecord &r, uintptr_t begin, uintptr_t end) {
  return r.size != 0 && r.base < end && begin < r.base + r.size;
}

void forget_overlapping(uintptr_t begin, uintptr_t end) {
  for (StackRecord &r : g_records)
    if (overlaps(r, begin, end)) r.size = 0;
}

}  // namespace

StackClaim claim_stack(uintptr_t base, uintptr_t size, uintptr_t sp) {
  SpinLockGuard hold(g_lock);
  const uint32_t home = slot_of(base);
  StackRecord *free_slot = nullptr;
  for (uint32_t i = 0; i < kRecords; ++i) {
    StackRecord &r = g_records[(home + i) % kRecords];
    if (r.size == 0) {
      if (!free_slot) free_slot = &r;
      continue;
    }
    if (r.base != base || r.size != size) continue;
    // Known: the threads before this one went no lower than r.low. One page
    // below its page, for the engine's own frames' ragged edge.
    const uintptr_t low = r.low.load(std::memory_order_relaxed);
    const uintptr_t below = (low & ~(kPageSize - 1)) - kPageSize;
    const uintptr_t from = low < base + kPageSize || below < base ? base : below;
    r.low.store(sp, std::memory_order_relaxed);
    return {from < base + size ? from : base, &r.low};
  }
  // Unknown: cleared whole. Stacks recorded over part of it are gone.
  forget_overlapping(base, base + size);
  StackRecord *r = free_slot ? free_slot : &g_records[home];  // full: the home slot's record goes
  r->base = base;
  r->size = size;
  r->low.store(sp, std::memory_order_relaxed);
  if (base < g_lowest.load(std::memory_order_relaxed)) g_lowest.store(base, std::memory_order_relaxed);
  if (base + size > g_highest.load(std::memory_order_relaxed)) g_highest.store(base + size, std::memory_order_relaxed);
  return {base, &r->low};
}

void forget_stack_records(uintptr_t begin, uintptr_t end) {
  if (begin >= g_highest.load(std::memory_order_relaxed) || end <= g_lowest.load(std::memory_order_relaxed)) return;
  SpinLockGuard hold(g_lock);
  forget_overlapping(begin, end);
}

void reset_stack_records() {
  SpinLockGuard hold(g_lock);
  for (StackRecord &r : g_records) {
    r.base = r.size = 0;
    r.low.store(0, std::memory_order_relaxed);
  }
  g_lowest.store(~uintptr_t(0), std::memory_order_relaxed);
  g_highest.store(0, std::memory_order_relaxed);
}

}  // namespace snag::race
