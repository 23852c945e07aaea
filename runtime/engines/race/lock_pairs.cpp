#include "engines/race/lock_pairs.h"

#include <atomic>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag::race {

namespace {

// Pair i's key (the smaller id, then the larger in the high half), in
// chunks made as pairs are added. Keys are never changed nor freed.
constexpr uint32_t kKeyChunkBits = 16;
constexpr uint32_t kKeysPerChunk = 1u << kKeyChunkBits;
constexpr uint32_t kKeyChunks = (kMaxLockPairs >> kKeyChunkBits) + 1;
std::atomic<uint64_t *> g_keys[kKeyChunks];
uint32_t g_pairs;  // under g_insert_lock
SpinLock g_insert_lock;

// The index: linear probing over slots holding (tag << kLockPairIndexBits)
// | (pair index + 1), 0 when empty. The tag, 9 more bits of the key's hash,
// lets a probe pass other pairs' slots without reading their keys. The
// slot count (a power of two) minus one heads the mapping.
constexpr uint32_t kTagShift = kLockPairIndexBits;
constexpr uint32_t kSlotIndexMask = (1u << kTagShift) - 1;
constexpr uint32_t kHeaderSlots = 16;  // the mask, then a cache line's padding
constexpr uint32_t kFirstSlots = 1u << 12;
std::atomic<uint32_t *> g_index;  // written under g_insert_lock

uint64_t key_of(uint32_t one, uint32_t other) {
  return one < other ? uint64_t(one) | uint64_t(other) << 32 : uint64_t(other) | uint64_t(one) << 32;
}

// MurmurHash3's finalizer: pairs of neighbouring locks have neighbouring ids.
uint64_t hash_of(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  return key ^ (key >> 33);
}

uint32_t tag_of(uint64_t hash) { return static_cast<uint32_t>(hash >> (64 - (32 - kTagShift))); }

uint64_t stored_key(uint32_t index) {
  uint64_t *chunk = g_keys[index >> kKeyChunkBits].load(std::memory_order_acquire);
  return __atomic_load_n(&chunk[index & (kKeysPerChunk - 1)], __ATOMIC_RELAXED);
}

// The pair's index in `index`, or kNoLockPair. Lock-free: an index the
// table outgrew reads as all zero (grow gives its pages back), a miss,
// which lock_pair_index answers again under the lock from the current one.
uint32_t find(const uint32_t *index, uint64_t key, uint64_t hash) {
  if (!index) return kNoLockPair;
  const uint32_t mask = __atomic_load_n(&index[0], __ATOMIC_RELAXED);
  const uint32_t *slots = index + kHeaderSlots;
  const uint32_t tag = tag_of(hash);
  for (uint32_t pos = static_cast<uint32_t>(hash) & mask;; pos = (pos + 1) & mask) {
    const uint32_t slot = __atomic_load_n(&slots[pos], __ATOMIC_ACQUIRE);
    if (slot == 0) return kNoLockPair;
    if (slot >> kTagShift == tag && stored_key((slot & kSlotIndexMask) - 1) == key) return (slot & kSlotIndexMask) - 1;
  }
}

// Under g_insert_lock; the pair is not in `index`, which has room.
void put(uint32_t *index, uint64_t hash, uint32_t pair) {
  const uint32_t mask = index[0];
  uint32_t *slots = index + kHeaderSlots;
  uint32_t pos = static_cast<uint32_t>(hash) & mask;
  while (slots[pos] != 0) pos = (pos + 1) & mask;
  __atomic_store_n(&slots[pos], tag_of(hash) << kTagShift | (pair + 1), __ATOMIC_RELEASE);
}

size_t index_bytes(uint32_t slots) { return sizeof(uint32_t) * (kHeaderSlots + size_t(slots)); }

// Under g_insert_lock: an index of `slots` slots holding every pair.
uint32_t *make_index(uint32_t slots) {
  auto *index = static_cast<uint32_t *>(map_pages(index_bytes(slots)));
  index[0] = slots - 1;
  for (uint32_t pair = 0; pair < g_pairs; ++pair) put(index, hash_of(stored_key(pair)), pair);
  return index;
}

// Under g_insert_lock. The old index stays mapped for readers still
// probing it, but its pages go back to the kernel: they read as zeros from
// then on (empty slots, a mask of 0), which every reader takes for a miss.
void grow(uint32_t *old) {
  const uint32_t slots = old ? (old[0] + 1) * 2 : kFirstSlots;
  g_index.store(make_index(slots), std::memory_order_release);
  if (old)
    raw_syscall(SYS_madvise, reinterpret_cast<long>(old), static_cast<long>(index_bytes(slots / 2)),
                MADV_DONTNEED);
}

}  // namespace

uint32_t lock_pair_index(uint32_t one, uint32_t other) {
  const uint64_t key = key_of(one, other), hash = hash_of(key);
  uint32_t pair = find(g_index.load(std::memory_order_acquire), key, hash);
  if (pair != kNoLockPair) return pair;
  SpinLockGuard guard(g_insert_lock);
  uint32_t *index = g_index.load(std::memory_order_relaxed);
  pair = find(index, key, hash);
  if (pair != kNoLockPair) return pair;
  if (g_pairs == kMaxLockPairs) return kNoLockPair;
  // At most three slots in four used: a miss probes a few slots, one line.
  if (!index || uint64_t(g_pairs + 1) * 4 > uint64_t(index[0] + 1) * 3) {
    grow(index);
    index = g_index.load(std::memory_order_relaxed);
  }
  pair = g_pairs;
  uint64_t *chunk = g_keys[pair >> kKeyChunkBits].load(std::memory_order_relaxed);
  if (!chunk) {
    chunk = static_cast<uint64_t *>(map_pages(sizeof(uint64_t) * kKeysPerChunk));
    g_keys[pair >> kKeyChunkBits].store(chunk, std::memory_order_release);
  }
  __atomic_store_n(&chunk[pair & (kKeysPerChunk - 1)], key, __ATOMIC_RELAXED);
  put(index, hash, pair);  // publishes the key
  ++g_pairs;
  return pair;
}

void lock_pair_members(uint32_t index, uint32_t *low, uint32_t *high) {
  const uint64_t key = stored_key(index);
  *low = static_cast<uint32_t>(key);
  *high = static_cast<uint32_t>(key >> 32);
}

const void *lock_pair_index_memory() { return g_index.load(std::memory_order_acquire); }

uint32_t lock_pair_index_slots() {
  const uint32_t *index = g_index.load(std::memory_order_acquire);
  return index ? index[0] + 1 : 0;
}

}  // namespace snag::race
