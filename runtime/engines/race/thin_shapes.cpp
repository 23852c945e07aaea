#include "engines/race/thin_shapes.h"

#include "core/internal_alloc.h"
#include "core/spinlock.h"

namespace snag::race {

namespace detail {
ThinShape *g_thin_shape_chunks[kThinShapeChunks];
const ThinShape kNoShape{};
}

namespace {

uint64_t hash_of(const ThinShape &s) {
  uint64_t words[3] = {};
  __builtin_memcpy(words, &s, sizeof s);
  uint64_t h = words[0] * 0x9e3779b97f4a7c15ull ^ words[1] * 0xc2b2ae3d27d4eb4full ^ words[2];
  // MurmurHash3's finalizer: the ids differ in their low bits mostly.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

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
// write and first read).
struct ShapeCacheEntry {
  ThinShape shape;
  uint32_t id;
};
constexpr uint32_t kShapeCacheEntries = 64;
SNAG_TLS ShapeCacheEntry t_shape_cache[kShapeCacheEntries];

}  // namespace

uint32_t intern_thin_shape(const ThinShape &shape) {
  const uint64_t h = hash_of(shape);
  ShapeCacheEntry &cached = t_shape_cache[(h >> 40) & (kShapeCacheEntries - 1)];
  if (cached.id && same_shape(cached.shape, shape)) return cached.id;
  const uint32_t id = intern_slowly(shape, h);
  if (id) cached = ShapeCacheEntry{shape, id};
  return id;
}

uint32_t thin_shape_count() {
  SpinLockGuard guard(g_lock);
  return g_count;
}

}  // namespace snag::race
