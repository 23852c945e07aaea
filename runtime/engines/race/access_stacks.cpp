#include "engines/race/access_stacks.h"

#include <atomic>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag::race {

namespace {

struct Pair {
  snag_site_t site;
  StackId context;
};

// Pairs by id (id i is g_chunks[i >> kChunkBits][i & mask]), written once
// before their id is published and never moved, so reading one takes no lock.
constexpr uint32_t kChunkBits = 12;
constexpr uint32_t kChunks = 1u << (32 - kChunkBits);
Pair *g_chunks[kChunks];

// Open addressing over ids, doubled when half full. Lookups take no lock
// (a thread's own cache of pairs, RaceThread::site_stacks, misses now and
// then, and four threads meeting at a lock there cost pipeline 8% of its
// time); inserts hold the lock. A table replaced by a larger one stays
// mapped for lookups still reading it (the tables add up to less than the
// last one).
struct Table {
  uint32_t capacity;  // a power of two
  std::atomic<uint32_t> slots[1];
};
SpinLock g_lock;
std::atomic<Table *> g_table{nullptr};
uint32_t g_count;  // ids given out; the next id is g_count + 1

Pair &pair_at(uint32_t id) { return g_chunks[id >> kChunkBits][id & ((1u << kChunkBits) - 1)]; }

uint32_t hash_of(snag_site_t site, StackId context) {
  uint64_t h = (site ^ (uint64_t(context) << 32 | context)) * 0x9e3779b97f4a7c15ull;
  return static_cast<uint32_t>(h >> 32);
}

// The id of (site, context) in `table`, else 0.
uint32_t find(const Table *table, snag_site_t site, StackId context) {
  if (!table) return 0;
  for (uint32_t i = hash_of(site, context);; ++i) {
    uint32_t id = table->slots[i & (table->capacity - 1)].load(std::memory_order_acquire);
    if (!id) return 0;
    const Pair &p = pair_at(id);
    if (p.site == site && p.context == context) return id;
  }
}

void place(Table *table, uint32_t id) {
  const Pair &p = pair_at(id);
  for (uint32_t i = hash_of(p.site, p.context);; ++i) {
    std::atomic<uint32_t> &slot = table->slots[i & (table->capacity - 1)];
    if (!slot.load(std::memory_order_relaxed)) {
      slot.store(id, std::memory_order_release);
      return;
    }
  }
}

void grow() {  // under g_lock
  Table *old = g_table.load(std::memory_order_relaxed);
  uint32_t capacity = old ? old->capacity * 2 : 1024;
  auto *table = static_cast<Table *>(map_pages(sizeof(Table) + sizeof(uint32_t) * capacity));
  table->capacity = capacity;
  for (uint32_t id = 1; id <= g_count; ++id) place(table, id);
  g_table.store(table, std::memory_order_release);
}

}  // namespace

uint32_t intern_access_stack(snag_site_t site, StackId context) {
  if (uint32_t id = find(g_table.load(std::memory_order_acquire), site, context)) return id;
  SpinLockGuard guard(g_lock);
  if (uint32_t id = find(g_table.load(std::memory_order_acquire), site, context)) return id;
  if (uint64_t(g_count) + 1 >= uint64_t(kChunks) << kChunkBits) fatal("race: too many distinct access stacks");
  Table *table = g_table.load(std::memory_order_relaxed);
  if (!table || (g_count + 1) * 2 > table->capacity) {
    grow();
    table = g_table.load(std::memory_order_relaxed);
  }
  uint32_t id = ++g_count;
  Pair *&chunk = g_chunks[id >> kChunkBits];
  if (!chunk) chunk = static_cast<Pair *>(map_pages(sizeof(Pair) << kChunkBits));
  pair_at(id) = {site, context};
  place(table, id);  // publishes the pair with the id
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
