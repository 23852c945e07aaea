#include "engines/race/access_stacks.h"

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag::race {

namespace {

struct Pair {
  snag_site_t site;
  StackId context;
};

// Pairs by id (id i is pairs[i >> kChunkBits][i & mask]), written once before
// their id is handed out and never moved, so reading one takes no lock.
constexpr uint32_t kChunkBits = 12;
constexpr uint32_t kChunks = 1u << (32 - kChunkBits);
Pair *g_chunks[kChunks];

// Open addressing over ids, grown (doubled) when half full. Lookups and
// inserts hold the lock: they run only when a thread's own cache of pairs
// (RaceThread::site_stacks) misses.
SpinLock g_lock;
uint32_t *g_slots;
uint32_t g_capacity;  // a power of two, 0 before the first pair
uint32_t g_count;     // ids given out; the next id is g_count + 1

Pair &pair_at(uint32_t id) { return g_chunks[id >> kChunkBits][id & ((1u << kChunkBits) - 1)]; }

uint32_t hash_of(snag_site_t site, StackId context) {
  uint64_t h = (site ^ (uint64_t(context) << 32 | context)) * 0x9e3779b97f4a7c15ull;
  return static_cast<uint32_t>(h >> 32);
}

void place(uint32_t *slots, uint32_t capacity, uint32_t id) {
  const Pair &p = pair_at(id);
  for (uint32_t i = hash_of(p.site, p.context);; ++i)
    if (!slots[i & (capacity - 1)]) {
      slots[i & (capacity - 1)] = id;
      return;
    }
}

void grow() {  // under g_lock
  uint32_t capacity = g_capacity ? g_capacity * 2 : 1024;
  auto *slots = static_cast<uint32_t *>(map_pages(sizeof(uint32_t) * capacity));
  for (uint32_t id = 1; id <= g_count; ++id) place(slots, capacity, id);
  if (g_slots) unmap_pages(g_slots, sizeof(uint32_t) * g_capacity);
  g_slots = slots;
  g_capacity = capacity;
}

}  // namespace

uint32_t intern_access_stack(snag_site_t site, StackId context) {
  SpinLockGuard guard(g_lock);
  if (g_capacity) {
    for (uint32_t i = hash_of(site, context);; ++i) {
      uint32_t id = g_slots[i & (g_capacity - 1)];
      if (!id) break;
      const Pair &p = pair_at(id);
      if (p.site == site && p.context == context) return id;
    }
  }
  if (uint64_t(g_count) + 1 >= uint64_t(kChunks) << kChunkBits) fatal("race: too many distinct access stacks");
  if ((g_count + 1) * 2 > g_capacity) grow();
  uint32_t id = ++g_count;
  Pair *&chunk = g_chunks[id >> kChunkBits];
  if (!chunk) chunk = static_cast<Pair *>(map_pages(sizeof(Pair) << kChunkBits));
  pair_at(id) = {site, context};
  place(g_slots, g_capacity, id);
  return id;
}

void access_stack_of(uint32_t id, snag_site_t *site, StackId *context) {
  const Pair &p = pair_at(id);
  *site = p.site;
  *context = p.context;
}

void access_stack_trace(uint32_t id, StackTrace *out) {
  snag_site_t site;
  StackId context_id;
  access_stack_of(id, &site, &context_id);
  StackTrace context;
  depot_get(context_id, &context);
  out->depth = 0;
  out->frames[out->depth++] = site;
  for (uint32_t i = 0; i < context.depth && out->depth < kMaxStackFrames; ++i)
    out->frames[out->depth++] = context.frames[i];
}

}  // namespace snag::race
