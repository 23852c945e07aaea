#include "engines/tsv/object_table.h"

#include <atomic>

#include "core/api_calls.h"
#include "core/internal_alloc.h"
#include "core/spinlock.h"

namespace snag::tsv {

bool Call::write() const { return flags & kApiWrite; }

namespace {

// A thread's latest read or write, packed so that each half is one atomic
// word: meta = time in ms (28 bits) | epoch (14 bits) | thread (20 bits) |
// concurrent | valid. Times and epochs wrap; they are compared modulo their
// width, which is right while less than 2^27 ms (37 hours) or 2^13 thread
// creations and joins separate two calls that are compared.
struct LatestCall {
  std::atomic<snag_site_t> site;
  std::atomic<uint64_t> meta;
};

// One thread's slot: its latest read and its latest write.
struct LatestCalls {
  LatestCall read, write;
};

constexpr uint64_t kTimeBits = 28, kEpochBits = kNearMissEpochBits,
                   kThreadBits = kNearMissThreadBits;
constexpr uint64_t kTimeMask = (1ull << kTimeBits) - 1;
constexpr uint64_t kEpochMask = (1ull << kEpochBits) - 1;
constexpr uint64_t kThreadMask = (1ull << kThreadBits) - 1;
constexpr uint64_t kValidBit = 1, kConcurrentBit = 2;

uint64_t pack(uint32_t time, uint32_t epoch, Tid thread, bool concurrent) {
  return (time & kTimeMask) << 36 | (epoch & kEpochMask) << 22 | (thread & kThreadMask) << 2 |
         (concurrent ? kConcurrentBit : 0) | kValidBit;
}
uint32_t time_of(uint64_t meta) { return static_cast<uint32_t>(meta >> 36); }
uint32_t epoch_of(uint64_t meta) { return static_cast<uint32_t>((meta >> 22) & kEpochMask); }
Tid thread_of(uint64_t meta) { return static_cast<Tid>((meta >> 2) & kThreadMask); }
// How far apart two times are, in either direction: a thread reads the
// clock when its call starts, so another thread's record may carry a later
// tick than the reader's `now`.
uint32_t elapsed(uint32_t now, uint32_t then) {
  uint32_t forward = static_cast<uint32_t>((now - then) & kTimeMask);
  uint32_t backward = static_cast<uint32_t>((then - now) & kTimeMask);
  return forward < backward ? forward : backward;
}

struct ActiveCall {
  Call call;
  ThreadState *state;  // its thread, to copy the calling context from
  uint32_t shadow_depth;
  bool used;
  bool delayed;
  bool caught;
};

// The header is read by every call and written almost never, so it has a
// cache line to itself.
struct alignas(64) Entry {
  std::atomic<uintptr_t> object;
  std::atomic<uint32_t> registered;  // calls in `active`; nearly always 0
  SpinLock lock;                     // guards `active`
  alignas(64) LatestCalls latest[kLatestCallSlots];  // by thread id modulo the slots
  ActiveCall active[kMaxActiveCalls];
};

constexpr int kTableBits = 15;
constexpr uint64_t kTableSize = 1ull << kTableBits;

// Mapped on first use: the pages of entries never used are never touched.
std::atomic<Entry *> g_table;
SpinLock g_table_lock;

Entry &entry_for(uintptr_t object) {
  Entry *table = g_table.load(std::memory_order_acquire);
  if (SNAG_UNLIKELY(!table)) {
    SpinLockGuard guard(g_table_lock);
    table = g_table.load(std::memory_order_relaxed);
    if (!table) {
      table = static_cast<Entry *>(map_pages(sizeof(Entry) * kTableSize));
      g_table.store(table, std::memory_order_release);
    }
  }
  uint64_t hash = (static_cast<uint64_t>(object) >> 3) * 0x9e3779b97f4a7c15ull;
  return table[hash >> (64 - kTableBits)];
}

bool conflicting(const Call &a, const Call &b) {
  return a.thread != b.thread && (a.write() || b.write());
}

// An entry's `object` while one thread empties its history for a new
// object; no object lives at address 1.
constexpr uintptr_t kClaiming = 1;

// Makes the entry `object`'s, dropping another object's history, unless a
// call of that object is registered. Returns whether the entry is the
// object's. The history is emptied before the entry names the new object:
// of two threads claiming it at once, the loser would otherwise wipe the
// record the winner had just written (both threads' first calls on an
// object meeting at a latch were missed that way).
bool claim(Entry &e, uintptr_t object) {
  for (;;) {
    uintptr_t current = e.object.load(std::memory_order_acquire);
    if (current == object) return true;
    if (current == kClaiming) continue;  // a few stores away from done
    if (e.registered.load(std::memory_order_acquire) > 0) return false;
    if (!e.object.compare_exchange_weak(current, kClaiming, std::memory_order_acq_rel)) continue;
    for (LatestCalls &l : e.latest) {
      l.read.meta.store(0, std::memory_order_relaxed);
      l.write.meta.store(0, std::memory_order_relaxed);
    }
    e.object.store(object, std::memory_order_release);
    return true;
  }
}

// Caught red-handed: another thread is inside a conflicting registered call
// on this object right now. Its calling context is stable while it is
// inside (its end needs this lock), so it is copied here.
void catch_conflicts(Entry &e, const Call &call, CallStart *out) {
  for (ActiveCall &a : e.active) {
    if (!a.used || !conflicting(a.call, call) || out->conflict_count == kMaxConflicts) continue;
    Conflict &c = out->conflicts[out->conflict_count++];
    c.other = a.call;
    c.other_delayed = a.delayed;
    ShadowStack context;
    context.depth = a.shadow_depth;
    context.frames = a.state->shadow.frames;
    capture_stack(context, a.call.site, &c.other_stack);
    a.caught = true;
  }
}

void near_miss(const LatestCall &l, bool write, const Call &call, uint32_t now,
               uint32_t window_ms, CallStart *out) {
  uint64_t meta = l.meta.load(std::memory_order_relaxed);
  if (!(meta & kValidBit) || !(write || call.write())) return;
  Tid thread = thread_of(meta);
  if (thread == (call.thread & kThreadMask) || elapsed(now, time_of(meta)) > window_ms ||
      !((meta & kConcurrentBit) || call.concurrent))
    return;
  snag_site_t site = l.site.load(std::memory_order_relaxed);
  if (site && call.site) out->near_misses[out->near_miss_count++] = {site, thread, epoch_of(meta)};
}

void find_near_misses(Entry &e, const Call &call, uint32_t now, uint32_t window_ms,
                      CallStart *out) {
  for (const LatestCalls &l : e.latest) {
    near_miss(l.write, true, call, now, window_ms, out);
    near_miss(l.read, false, call, now, window_ms, out);
  }
}

// The thread's latest read or write, rewritten at most once per clock tick
// (a later call in the same tick keeps the earlier one's site), so a thread
// calling in a loop leaves the line shared.
void record_latest(Entry &e, const Call &call, uint32_t now) {
  LatestCalls &slot = e.latest[call.thread % kLatestCallSlots];
  LatestCall &l = call.write() ? slot.write : slot.read;
  uint64_t meta = pack(now, call.epoch, call.thread, call.concurrent);
  if (l.meta.load(std::memory_order_relaxed) == meta) return;
  l.site.store(call.site, std::memory_order_relaxed);
  l.meta.store(meta, std::memory_order_relaxed);
}

}  // namespace

void start_call(uintptr_t object, const Call &call, ThreadState &t, uint32_t shadow_depth,
                uint32_t now, uint32_t window_ms, bool register_call, bool look_for_near_misses,
                CallStart *out) {
  out->slot = -1;
  out->conflict_count = 0;
  out->near_miss_count = 0;
  Entry &e = entry_for(object);
  if (!claim(e, object)) return;
  bool registered = e.registered.load(std::memory_order_acquire) > 0;
  if (!register_call && !registered && !look_for_near_misses) return;
  if (register_call || registered) {
    SpinLockGuard guard(e.lock);
    if (e.object.load(std::memory_order_relaxed) == object) {
      catch_conflicts(e, call, out);
      for (int i = 0; register_call && i < kMaxActiveCalls; ++i) {
        ActiveCall &a = e.active[i];
        if (a.used) continue;
        a = {call, &t, shadow_depth, true, false, false};
        e.registered.fetch_add(1, std::memory_order_release);
        out->slot = i;
        break;
      }
    }
  }
  if (!look_for_near_misses) return;
  // Write our call, then read the others' (a store-load pair on each side,
  // fenced): of two threads calling at the same instant, at least one sees
  // the other. Reading first let both miss each other exactly when their
  // calls overlapped most.
  record_latest(e, call, now);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  find_near_misses(e, call, now, window_ms, out);
}

bool has_registered_calls(uintptr_t object) {
  Entry &e = entry_for(object);
  return e.registered.load(std::memory_order_acquire) > 0 &&
         e.object.load(std::memory_order_relaxed) == object;
}

void set_delayed(uintptr_t object, int slot, bool delayed) {
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  if (e.active[slot].used) e.active[slot].delayed = delayed;
}

bool was_caught(uintptr_t object, int slot) {
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  return e.active[slot].used && e.active[slot].caught;
}

void end_call(uintptr_t object, int slot) {
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  if (!e.active[slot].used) return;
  e.active[slot].used = false;
  e.registered.fetch_sub(1, std::memory_order_release);
}

}  // namespace snag::tsv
