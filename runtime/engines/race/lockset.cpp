#include "engines/race/lockset.h"

#include <atomic>
#include <stddef.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"
#include "engines/race/lock_pairs.h"
#include "engines/race/line_buckets.h"

namespace snag::race {

namespace {

// A set of three or more locks.
struct Entry {
  Entry *next;  // hash chain
  uint64_t hash;
  LocksetId id;
  uint32_t count;
  uintptr_t locks[1];
};

constexpr int kBucketBits = 14;
constexpr uint32_t kBuckets = 1u << kBucketBits;
constexpr uint32_t kChunk = 1 << 12;
constexpr uint32_t kChunks = kFirstLockPair / kChunk;  // larger sets' ids (one-lock sets' chunks unused)
static_assert(kFirstLockPair + kMaxLockPairs <= uint64_t(1) << kLocksetIdBits, "ids fit lockset.h's bits");

// One-lock sets, 12 bytes each: by id, the lock's address and the next id
// in its bucket's chain (0 ends it). A program takes one per lock it ever
// held alone or with one other (lock_pairs: 10,000 accounts' mutexes); an
// entry of the general table with its by-id pointer took 40 (race_bench.txt
// section 79). Written before the id is published in its bucket (release),
// never changed, never freed.
struct OneLockChunk {
  uintptr_t lock[kChunk];
  uint32_t next[kChunk];
};
constexpr uint32_t kOneLockChunks = kFirstLargerLockset / kChunk;
std::atomic<OneLockChunk *> g_one_lock_chunks[kOneLockChunks];
std::atomic<LocksetId> g_buckets[kBuckets];  // one-lock sets: the first id of each chain
// Sets of three or more locks (two-lock sets, which a program may make by
// the hundred thousand, have lock_pairs.h's table): each step of a chain is
// a cache miss. Pages of the table are made only as sets are hashed to them.
constexpr int kSetBucketBits = 16;
std::atomic<Entry *> g_set_buckets[1u << kSetBucketBits];
static_assert(kLocksetSetBuckets == 1u << kSetBucketBits, "lockset.h names the table's size");
std::atomic<Entry **> g_by_id[kChunks];
LocksetId g_next_one_lock = 1;                   // under g_insert_lock
LocksetId g_next_larger = kFirstLargerLockset;  // under g_insert_lock
SpinLock g_insert_lock;

// Ends with MurmurHash3's finalizer: the multiplications alone mix nothing
// downwards, and addresses of an array's locks differ in a few middle bits.
uint64_t hash_of(const uintptr_t *locks, uint32_t count) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ count;
  for (uint32_t i = 0; i < count; ++i) h = (h ^ locks[i]) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

}  // namespace

// A one-lock set's bucket keeps the program's locality, as a lock's
// synchronization variable does (line_buckets.h): every lock a thread takes
// alone gets such a set, and hashed they put a few thousand locks on every
// page of the 128 KiB table (lock_hash_map's 4,096 bucket mutexes).
uint32_t lockset_bucket_of_lock(uintptr_t lock) { return line_bucket<kBucketBits>(lock); }
static_assert(kBuckets == kLocksetBuckets, "lockset.h names the table's size");

namespace {

uint32_t set_bucket(uint64_t hash) { return static_cast<uint32_t>(hash >> (64 - kSetBucketBits)); }

// Sets of three or more locks are hashed. (Without hash_of's finalizer, the sets
// {m[i], m[i+1]} of an array of 40-byte mutexes took 2,048 buckets, 50 sets
// to a bucket and a cache miss for each at every lock.)
std::atomic<Entry *> &bucket_of(uint64_t hash) { return g_set_buckets[set_bucket(hash)]; }

bool same(const Entry *e, uint64_t hash, const uintptr_t *locks, uint32_t count) {
  if (e->hash != hash || e->count != count) return false;
  for (uint32_t i = 0; i < count; ++i)
    if (e->locks[i] != locks[i]) return false;
  return true;
}

uint32_t sort_unique(uintptr_t *a, uint32_t n) {
  for (uint32_t i = 1; i < n; ++i)
    for (uint32_t j = i; j > 0 && a[j - 1] > a[j]; --j) {
      uintptr_t t = a[j];
      a[j] = a[j - 1];
      a[j - 1] = t;
    }
  uint32_t out = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (out == 0 || a[out - 1] != a[i]) a[out++] = a[i];
  return out;
}

// `locks` as a set: at most kMaxLocksInSet of them, sorted, unique.
uint32_t as_set(const uintptr_t *locks, uint32_t count, uintptr_t *out) {
  if (count > kMaxLocksInSet) count = kMaxLocksInSet;
  copy_bytes(out, locks, sizeof(uintptr_t) * count);
  return sort_unique(out, count);
}

}  // namespace

uint32_t lockset_set_bucket_of(const uintptr_t *locks_in, uint32_t count) {
  uintptr_t locks[kMaxLocksInSet];
  count = as_set(locks_in, count, locks);
  return set_bucket(hash_of(locks, count));
}

namespace {

// Entries are never freed (an id names its set for the life of the
// process), so they are carved one after the other from runs of pages, at
// their exact size (a set of three locks in 48 bytes). From the runtime's
// allocator (a 16-byte header, and the entry's declared lock counted twice)
// a one-lock set's took 64, 256 KiB for lock_hash_map's 4,096 bucket mutexes,
// before one-lock sets had arrays of their own (above).
constexpr size_t kEntryRun = size_t(1) << 16;
char *g_carve_next;  // under g_insert_lock
char *g_carve_end;

constexpr size_t entry_bytes(uint32_t count) { return offsetof(Entry, locks) + sizeof(uintptr_t) * count; }
static_assert(offsetof(Entry, locks) % alignof(Entry) == 0 && entry_bytes(3) == 48,
              "entries carved back to back stay aligned");

// Called under g_insert_lock.
Entry *carve_entry(uint32_t count) {
  const size_t bytes = entry_bytes(count);
  if (size_t(g_carve_end - g_carve_next) < bytes) {
    // Lock addresses, not pair ids: not searched (lockset_references.h).
    g_carve_next = static_cast<char *>(map_pages_unvisited(kEntryRun));
    g_carve_end = g_carve_next + kEntryRun;
  }
  auto *e = reinterpret_cast<Entry *>(g_carve_next);
  g_carve_next += bytes;
  return e;
}

Entry *entry_for(LocksetId id) {
  Entry **chunk = g_by_id[id / kChunk].load(std::memory_order_acquire);
  return chunk ? __atomic_load_n(&chunk[id % kChunk], __ATOMIC_ACQUIRE) : nullptr;
}

}  // namespace

namespace {

OneLockChunk *one_lock_chunk(LocksetId id) {
  return g_one_lock_chunks[id / kChunk].load(std::memory_order_acquire);
}

// The lock of one-lock set `id`; 0 for an id not given out.
uintptr_t lock_of(LocksetId id) {
  const OneLockChunk *chunk = one_lock_chunk(id);
  return chunk ? __atomic_load_n(&chunk->lock[id % kChunk], __ATOMIC_RELAXED) : 0;
}

LocksetId find_one_lock(uint32_t bucket, uintptr_t lock) {
  for (LocksetId id = g_buckets[bucket].load(std::memory_order_acquire); id;) {
    const OneLockChunk *chunk = one_lock_chunk(id);
    if (chunk->lock[id % kChunk] == lock) return id;
    id = chunk->next[id % kChunk];
  }
  return kEmptyLockset;
}

// The id of the set {lock}.
LocksetId intern_one_lock(uintptr_t lock) {
  const uint32_t bucket = lockset_bucket_of_lock(lock);
  if (LocksetId id = find_one_lock(bucket, lock)) return id;
  SpinLockGuard guard(g_insert_lock);
  if (LocksetId id = find_one_lock(bucket, lock)) return id;
  const LocksetId id = g_next_one_lock;
  if (id == kFirstLargerLockset) return kEmptyLockset;  // full: treat as unprotected
  ++g_next_one_lock;
  OneLockChunk *chunk = g_one_lock_chunks[id / kChunk].load(std::memory_order_relaxed);
  if (!chunk) {
    // Lock addresses and small ids, not pair ids: not searched (lockset_references.h).
    chunk = static_cast<OneLockChunk *>(map_pages_unvisited(sizeof(OneLockChunk)));
    g_one_lock_chunks[id / kChunk].store(chunk, std::memory_order_release);
  }
  chunk->lock[id % kChunk] = lock;
  chunk->next[id % kChunk] = g_buckets[bucket].load(std::memory_order_relaxed);
  g_buckets[bucket].store(id, std::memory_order_release);
  return id;
}

// The id of the set `locks` (sorted, unique, more than two) in the table of
// entries.
LocksetId intern_entry(const uintptr_t *locks, uint32_t count) {
  if (count == 1) return intern_one_lock(locks[0]);
  uint64_t hash = hash_of(locks, count);
  std::atomic<Entry *> &bucket = bucket_of(hash);
  for (Entry *e = bucket.load(std::memory_order_acquire); e; e = e->next)
    if (same(e, hash, locks, count)) return e->id;
  SpinLockGuard guard(g_insert_lock);
  for (Entry *e = bucket.load(std::memory_order_acquire); e; e = e->next)
    if (same(e, hash, locks, count)) return e->id;
  LocksetId id = g_next_larger;
  if (id == kFirstLockPair) return kEmptyLockset;  // full: treat as unprotected
  ++g_next_larger;
  auto *e = carve_entry(count);
  e->hash = hash;
  e->id = id;
  e->count = count;
  copy_bytes(e->locks, locks, sizeof(uintptr_t) * count);
  Entry **chunk = g_by_id[id / kChunk].load(std::memory_order_relaxed);
  if (!chunk) {
    // Pointers: not searched for pair ids (lockset_references.h).
    chunk = static_cast<Entry **>(map_pages_unvisited(sizeof(Entry *) * kChunk));
    g_by_id[id / kChunk].store(chunk, std::memory_order_release);
  }
  __atomic_store_n(&chunk[id % kChunk], e, __ATOMIC_RELEASE);
  e->next = bucket.load(std::memory_order_relaxed);
  bucket.store(e, std::memory_order_release);
  return id;
}

}  // namespace

LocksetId lockset_pair(LocksetId one, LocksetId other) {
  if (one == other) return one;
  if (one == kEmptyLockset || other == kEmptyLockset) return kEmptyLockset;  // a table was full
  const uint32_t pair = lock_pair_index(one, other);
  return pair == kNoLockPair ? kEmptyLockset : kFirstLockPair + pair;
}

LocksetId lockset_intern(const uintptr_t *locks_in, uint32_t count) {
  if (count == 0) return kEmptyLockset;
  uintptr_t locks[kMaxLocksInSet];
  count = as_set(locks_in, count, locks);
  if (count == 2) return lockset_pair(intern_entry(&locks[0], 1), intern_entry(&locks[1], 1));
  return intern_entry(locks, count);
}

uint32_t lockset_members(LocksetId id, uintptr_t locks[kMaxLocksInSet]) {
  if (id == kEmptyLockset) return 0;
  if (lockset_is_pair(id)) {
    uint32_t low, high;
    lock_pair_members(id - kFirstLockPair, &low, &high);
    if (low == 0) return 0;  // retired (lock_pairs.h): nothing should name it
    const uintptr_t x = lock_of(low), y = lock_of(high);
    locks[0] = x < y ? x : y;
    locks[1] = x < y ? y : x;
    return 2;
  }
  if (lockset_is_one_lock(id)) {
    locks[0] = lock_of(id);
    return locks[0] ? 1 : 0;
  }
  const Entry *e = entry_for(id);
  if (!e) return 0;
  copy_bytes(locks, e->locks, sizeof(uintptr_t) * e->count);
  return e->count;
}

bool lockset_contains(LocksetId id, uintptr_t lock) {
  uintptr_t locks[kMaxLocksInSet];
  uint32_t n = lockset_members(id, locks);
  for (uint32_t i = 0; i < n; ++i)
    if (locks[i] == lock) return true;
  return false;
}

namespace {

// Intersection through the sets' members, for sets of three or more locks.
LocksetId intersect_members(LocksetId a, LocksetId b) {
  uintptr_t la[kMaxLocksInSet], lb[kMaxLocksInSet];
  uint32_t na = lockset_members(a, la), nb = lockset_members(b, lb);
  uintptr_t common[kMaxLocksInSet];
  uint32_t n = 0, i = 0, j = 0;
  while (i < na && j < nb) {
    if (la[i] == lb[j]) common[n++] = la[i], ++i, ++j;
    else if (la[i] < lb[j]) ++i;
    else ++j;
  }
  if (n == na) return a;
  if (n == nb) return b;
  return lockset_intern(common, n);
}

// A set of one or two locks as its locks' one-lock sets' ids.
uint32_t one_lock_sets_of(LocksetId id, LocksetId out[2]) {
  if (!lockset_is_pair(id)) {
    out[0] = id;
    return 1;
  }
  lock_pair_members(id - kFirstLockPair, &out[0], &out[1]);
  return 2;
}

}  // namespace

LocksetId lockset_intersect(LocksetId a, LocksetId b) {
  if (a == b) return a;
  if (a == kEmptyLockset || b == kEmptyLockset) return kEmptyLockset;
  if (!lockset_is_one_lock(a) && !lockset_is_pair(a)) return intersect_members(a, b);
  if (!lockset_is_one_lock(b) && !lockset_is_pair(b)) return intersect_members(a, b);
  // Sets of one or two locks, not equal: at most one lock in common, whose
  // one-lock set is the answer. (The Shared-Modify path of every variable
  // under a pair of locks: no table to look into but the pairs' keys.) Two
  // ids may name the same two locks: a pair condemned by a sweep is not in
  // the pairs' index, and its locks taken together again get a new id while
  // a thread may still hold the old one (lock_pairs.cpp, make_index).
  LocksetId in_a[2], in_b[2];
  const uint32_t na = one_lock_sets_of(a, in_a), nb = one_lock_sets_of(b, in_b);
  if (na == 2 && nb == 2 && in_a[0] == in_b[0] && in_a[1] == in_b[1] && in_a[0] != 0) return a;
  for (uint32_t i = 0; i < na; ++i)
    for (uint32_t j = 0; j < nb; ++j)
      if (in_a[i] == in_b[j]) return in_a[i];
  return kEmptyLockset;
}

LocksetId LocksetCache::intern(const uintptr_t *locks_in, uint32_t count) {
  if (count == 0) return kEmptyLockset;
  uintptr_t locks[kMaxLocksInSet];
  count = as_set(locks_in, count, locks);
  for (Entry &e : entries_) {
    if (e.count != count) continue;
    uint32_t i = 0;
    while (i < count && e.locks[i] == locks[i]) ++i;
    if (i == count) {
      ++hits_;
      return e.id;
    }
  }
  LocksetId id = lockset_intern(locks, count);
  if (id == kEmptyLockset) return id;  // the shared table is full: do not remember
  Entry &victim = entries_[next_victim_];
  next_victim_ = (next_victim_ + 1) % kEntries;
  victim.count = count;
  victim.id = id;
  copy_bytes(victim.locks, locks, sizeof(uintptr_t) * count);
  return id;
}

}  // namespace snag::race
