#include "engines/tsv/object_table.h"

#include "core/api_calls.h"
#include "core/internal_alloc.h"

namespace snag::tsv {

bool Call::write() const { return flags & kApiWrite; }

namespace {

struct RecentCall {
  snag_site_t site;
  uint64_t time;
  Tid thread;
  bool write;
  bool concurrent;
};

struct ActiveCall {
  Call call;
  ThreadState *state;  // its thread, to copy the calling context from
  uint32_t shadow_depth;
  bool used;
  bool delayed;
  bool caught;
};

struct Entry {
  SpinLock lock;
  uintptr_t object;
  uint8_t recent_next;
  uint8_t recent_count;
  uint8_t active_count;
  RecentCall recent[kMaxRecentCalls];
  ActiveCall active[kMaxActiveCalls];
};

constexpr int kTableBits = 15;
constexpr uint64_t kTableSize = 1ull << kTableBits;

// Mapped on first use: the pages of entries never used are never touched.
Entry *g_table;
SpinLock g_table_lock;

Entry &entry_for(uintptr_t object) {
  Entry *table = __atomic_load_n(&g_table, __ATOMIC_ACQUIRE);
  if (SNAG_UNLIKELY(!table)) {
    SpinLockGuard guard(g_table_lock);
    table = g_table;
    if (!table) {
      table = static_cast<Entry *>(map_pages(sizeof(Entry) * kTableSize));
      __atomic_store_n(&g_table, table, __ATOMIC_RELEASE);
    }
  }
  uint64_t hash = (static_cast<uint64_t>(object) >> 3) * 0x9e3779b97f4a7c15ull;
  return table[hash >> (64 - kTableBits)];
}

bool conflicting(const Call &a, const Call &b) {
  return a.thread != b.thread && (a.write() || b.write());
}

// Takes the entry for `object`, evicting another object's history when no
// call is in progress on it. Returns false when the entry is busy with
// another object's calls.
bool claim(Entry &e, uintptr_t object) {
  if (e.object == object) return true;
  if (e.active_count > 0) return false;
  e.object = object;
  e.recent_count = 0;
  e.recent_next = 0;
  return true;
}

}  // namespace

void start_call(uintptr_t object, const Call &call, ThreadState &t, uint32_t shadow_depth,
                uint64_t now, uint64_t window_ns, uint32_t window_calls, CallStart *out) {
  out->slot = -1;
  out->conflict_count = 0;
  out->near_miss_count = 0;
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  if (!claim(e, object)) return;

  // Caught red-handed: another thread is inside a conflicting call on this
  // object right now. Its calling context is stable while it is inside
  // (its end hook needs this lock), so it is copied here.
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

  // Near misses: recent conflicting calls by other threads.
  uint32_t count = e.recent_count < window_calls ? e.recent_count : window_calls;
  for (uint32_t i = 0; i < count; ++i) {
    const RecentCall &r = e.recent[(e.recent_next + kMaxRecentCalls - 1 - i) % kMaxRecentCalls];
    if (r.thread == call.thread || !(r.write || call.write()) || now - r.time > window_ns ||
        !(r.concurrent || call.concurrent))
      continue;
    if (r.site && call.site) out->near_misses[out->near_miss_count++] = {r.site, r.thread, r.time};
  }
  e.recent[e.recent_next] = {call.site, now, call.thread, call.write(), call.concurrent};
  e.recent_next = static_cast<uint8_t>((e.recent_next + 1) % kMaxRecentCalls);
  if (e.recent_count < kMaxRecentCalls) ++e.recent_count;

  for (int i = 0; i < kMaxActiveCalls; ++i) {
    ActiveCall &a = e.active[i];
    if (a.used) continue;
    a = {call, &t, shadow_depth, true, false, false};
    ++e.active_count;
    out->slot = i;
    return;
  }
}

void set_delayed(uintptr_t object, int slot, bool delayed) {
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  if (e.object == object && e.active[slot].used) e.active[slot].delayed = delayed;
}

bool was_caught(uintptr_t object, int slot) {
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  return e.object == object && e.active[slot].used && e.active[slot].caught;
}

void end_call(uintptr_t object, int slot) {
  Entry &e = entry_for(object);
  SpinLockGuard guard(e.lock);
  if (e.object != object || !e.active[slot].used) return;
  e.active[slot].used = false;
  --e.active_count;
}

}  // namespace snag::tsv
