#include "engines/race/thin_shapes.h"

#include "core/internal_alloc.h"
#include "core/spinlock.h"

namespace snag::race {

namespace detail {
ThinShape *g_thin_shape_chunks[kThinShapeChunks];
const ThinShape kNoShape{};
}

namespace {

uint64_t hash_of(ThinShapeWords w) {
  uint64_t h = w.stacks * 0x9e3779b97f4a7c15ull ^ w.write_and_thread * 0xc2b2ae3d27d4eb4full ^ w.places;
  // MurmurHash3's finalizer: the ids differ in their low bits mostly.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}
uint64_t hash_of(const ThinShape &s) { return hash_of(thin_shape_words(s)); }

// Under g_lock: the shapes made so far (ids 1 to g_count), and an index from
// a shape's hash to its id (open addressing, at most half full).
SpinLock g_lock;
uint32_t g_count;
uint32_t *g_index;
uint32_t g_index_size;  // a power of two

void place(uint32_t *index, uint32_t size, uint32_t id, uint64_t h) {
  for (uint32_t i = static_cast<uint32_t>(h) & (size - 1);; i = (i + 1) & (size - 1))
    if (!index[i]) {
      index[i] = id;
      return;
    }
}

void grow_index() {
  const uint32_t size = g_index_size ? 2 * g_index_size : 1024;
  auto *index = static_cast<uint32_t *>(map_pages(size * sizeof(uint32_t)));
  for (uint32_t i = 0; i < g_index_size; ++i)
    if (uint32_t id = g_index[i]) place(index, size, id, hash_of(thin_shape(id)));
  if (g_index) unmap_pages(g_index, g_index_size * sizeof(uint32_t));
  g_index = index;
  g_index_size = size;
}

uint32_t intern_slowly(const ThinShape &shape, uint64_t h) {
  SpinLockGuard guard(g_lock);
  if (g_index_size) {
    for (uint32_t i = static_cast<uint32_t>(h) & (g_index_size - 1);; i = (i + 1) & (g_index_size - 1)) {
      const uint32_t id = g_index[i];
      if (!id) break;
      if (same_shape(thin_shape(id), shape)) return id;
    }
  }
  const uint32_t id = g_count + 1;
  if (id >= kMaxThinShapes) return 0;
  ThinShape *&chunk = detail::g_thin_shape_chunks[id >> kThinShapeChunkBits];
  ThinShape *memory = chunk;
  if (!memory) memory = static_cast<ThinShape *>(map_pages(sizeof(ThinShape) << kThinShapeChunkBits));
  memory[id & ((1u << kThinShapeChunkBits) - 1)] = shape;
  // The shape before its chunk and its id: a reader finds it whole.
  __atomic_store_n(&chunk, memory, __ATOMIC_RELEASE);
  g_count = id;
  if (2 * (uint64_t(id) + 1) > g_index_size) grow_index();
  place(g_index, g_index_size, id, h);
  return id;
}

// The last shapes this thread interned, by hash: a thread's blocks repeat a
// few shapes (each new node the same allocation stack, then the same first
// write and first read). Kept as words (thin_shape_words), compared as such.
// Two ways of 128 sets: task_graph's threads use ~75 shapes each (295 in
// all), and with 64 entries, one way, 37% of its 1.1 million calls missed
// and took the table's lock, which the pool's four threads share (256
// entries, one way: still 14%; race_bench.txt section 82).
struct ShapeCacheEntry {
  uint64_t stacks, write_and_thread;
  uint32_t places;  // (the word's high half is always 0)
  uint32_t id;      // 0: empty
  bool holds(uint64_t s, uint64_t wt, uint64_t p) const {
    return id && stacks == s && write_and_thread == wt && places == p;
  }
};
static_assert(sizeof(ShapeCacheEntry) == 24, "no padding");
constexpr uint32_t kShapeCacheSets = 128;
struct ShapeCacheSet {
  ShapeCacheEntry way[2];  // the newer first
};
SNAG_TLS ShapeCacheSet t_shape_cache[kShapeCacheSets];

ThinShape shape_of(ThinShapeWords w) {
  return ThinShape{static_cast<uint32_t>(w.stacks),          static_cast<uint32_t>(w.stacks >> 32),
                   static_cast<uint32_t>(w.write_and_thread), static_cast<uint32_t>(w.write_and_thread >> 32),
                   static_cast<uint16_t>(w.places),          static_cast<uint16_t>(w.places >> 16)};
}

}  // namespace

uint32_t intern_thin_shape_words(uint64_t stacks, uint64_t write_and_thread, uint64_t places) {
  const ThinShapeWords words{stacks, write_and_thread, places};
  const uint64_t h = hash_of(words);
  ShapeCacheSet &set = t_shape_cache[(h >> 40) & (kShapeCacheSets - 1)];
  if (set.way[0].holds(stacks, write_and_thread, places)) return set.way[0].id;
  if (set.way[1].holds(stacks, write_and_thread, places)) return set.way[1].id;
  const uint32_t id = intern_slowly(shape_of(words), h);
  if (id) {
    set.way[1] = set.way[0];
    set.way[0] = ShapeCacheEntry{stacks, write_and_thread, static_cast<uint32_t>(places), id};
  }
  return id;
}

uint32_t thin_shape_count() {
  SpinLockGuard guard(g_lock);
  return g_count;
}

}  // namespace snag::race
