// Vector-clock slots of threads (clock_slots.h).
#include "engines/race/clock_slots.h"

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag::race {
namespace {

struct FreeSlot {
  Tid slot;
  Clock last;
};

// Who used a slot from which clock value on: one entry per thread created,
// read only to name a thread in a report.
struct SlotUser {
  Tid slot;
  Clock start;
  Tid thread;
};

// Grows by doubling; the runtime's allocator hands out zeroed memory.
template <typename T>
struct Log {
  T *items = nullptr;
  uint32_t count = 0;
  uint32_t capacity = 0;
  void push(const T &item) {
    if (count == capacity) {
      uint32_t grown = capacity ? capacity * 2 : 64;
      T *fresh = internal_new_array<T>(grown);
      if (items) copy_bytes(fresh, items, sizeof(T) * count);
      internal_free(items);
      items = fresh;
      capacity = grown;
    }
    items[count++] = item;
  }
};

// A new thread looks at the most recently freed slots only: a program that
// joins a worker and starts the next finds the one it just joined first.
constexpr uint32_t kSlotsLookedAt = 64;

SpinLock g_lock;
Log<FreeSlot> g_free;
Log<SlotUser> g_users;
Tid g_next_slot = 0;

}  // namespace

ClockSlot take_clock_slot(const VectorClock *creator, Tid thread) {
  SpinLockGuard hold(g_lock);
  ClockSlot taken{g_next_slot, 1};
  bool reused = false;
  if (creator) {
    uint32_t lowest = g_free.count > kSlotsLookedAt ? g_free.count - kSlotsLookedAt : 0;
    for (uint32_t i = g_free.count; i-- > lowest;) {
      const FreeSlot &f = g_free.items[i];
      if (f.last > creator->get(f.slot)) continue;  // not ordered before the creator
      taken = {f.slot, creator->get(f.slot) + 1};
      g_free.items[i] = g_free.items[--g_free.count];
      reused = true;
      break;
    }
  }
  if (!reused) ++g_next_slot;
  g_users.push({taken.slot, taken.start, thread});
  return taken;
}

void give_back_clock_slot(Tid slot, Clock last) {
  SpinLockGuard hold(g_lock);
  g_free.push({slot, last});
}

Tid thread_of_slot(Tid slot, Clock clock) {
  SpinLockGuard hold(g_lock);
  for (uint32_t i = g_users.count; i-- > 0;) {
    const SlotUser &u = g_users.items[i];
    if (u.slot == slot && u.start <= clock) return u.thread;
  }
  return slot;
}

void reset_clock_slots() {
  SpinLockGuard hold(g_lock);
  internal_free(g_free.items);
  internal_free(g_users.items);
  g_free = {};
  g_users = {};
  g_next_slot = 0;
}

}  // namespace snag::race
