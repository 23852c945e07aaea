#include "engines/race/lock_pairs.h"

#include <atomic>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"

namespace snag::race {

namespace {

// Pair i's key (the smaller id, then the larger in the high half). A key
// changes only to be condemned (kCondemned set by a sweep that found
// nothing naming the pair), taken back (the bit cleared, by a lookup or the
// next sweep) or retired (kRetired, by the sweep after that, unless a
// lookup took it back first: both by compare and exchange). One-lock ids
// are below 2^22, so the bits are free.
// A retired index is given out again (race_bench.txt section 83: kept pairs
// spread over every page of keys ever made, a few survivors pinning each,
// 137 pages for 33,670 pairs in lock_pairs), but only after the sweep
// that follows its retirement found nothing naming it either: three sweeps
// in a row, and one whole interval after its key stopped matching anything.
// Until then (and for good, while that sweep finds it named: a thread that
// held it in a local across two sweeps wrote it back) it names no locks.
// A retired key's low 32 bits link it into its list (below): the index
// after it plus one, 0 at the end.
constexpr uint64_t kCondemned = uint64_t(1) << 63;
constexpr uint64_t kRetired = uint64_t(1) << 62;

// Keys are stored in two ranges of indexes. A pair of two one-lock sets
// whose ids are both below 2^15 (a program that took fewer than 32,768
// locks alone or in pairs; ids are given out densely and never freed:
// lockset.cpp) gets an index below kFirstWidePair, whose key is stored in 4
// bytes: the two ids in bits 0-14 and 15-29, kCondemned as bit 31; a
// retired key is bit 30 and its link in bits 0-29. Any other pair (or any
// once the narrow range is used up) gets an index from kFirstWidePair on,
// whose key is stored whole, in 8 bytes. lock_pairs' 10,000 mutexes' pairs
// (~32,000 keys at the peak) took 252 KB in 8 bytes (race_bench.txt
// section 97), 126 KB in 4. The stored forms are translated to and from
// the 8-byte form above, which the rest of the table works with.
constexpr uint32_t kNarrowIdBits = 15;
constexpr uint32_t kNarrowIdMask = (1u << kNarrowIdBits) - 1;
constexpr uint32_t kNarrowCondemned = 1u << 31;
constexpr uint32_t kNarrowRetired = 1u << 30;
constexpr uint32_t kNarrowLinkMask = kNarrowRetired - 1;
constexpr uint32_t kFirstWidePair = 1u << (kLockPairIndexBits - 1);
static_assert(kMaxLockPairs + 1 <= kNarrowLinkMask, "a retired narrow key's link holds any index plus one");

SNAG_ALWAYS_INLINE bool is_narrow_pair(uint32_t pair) { return pair < kFirstWidePair; }
bool has_narrow_ids(uint32_t one, uint32_t other) { return ((one | other) & ~kNarrowIdMask) == 0; }

SNAG_ALWAYS_INLINE uint32_t narrow_form(uint64_t key) {
  if (key & kRetired) return kNarrowRetired | static_cast<uint32_t>(key);
  const uint32_t low = static_cast<uint32_t>(key), high = static_cast<uint32_t>(key >> 32) & ~(3u << 30);
  return low | high << kNarrowIdBits | (key & kCondemned ? kNarrowCondemned : 0);
}

SNAG_ALWAYS_INLINE uint64_t wide_form(uint32_t narrow) {
  if (narrow & kNarrowRetired) return kRetired | (narrow & kNarrowLinkMask);
  if (narrow == 0) return 0;
  return uint64_t(narrow & kNarrowIdMask) | uint64_t((narrow >> kNarrowIdBits) & kNarrowIdMask) << 32 |
         (narrow & kNarrowCondemned ? kCondemned : 0);
}

// One range's keys, in chunks made as its indexes are given out, and its
// own count of indexes given out, list of free ones and count of pairs kept
// by page of keys (under g_insert_lock). Pairs not retired are counted by
// page: sweeps and rebuilt indexes go over the keys of the pages that
// still hold one, not over every pair made. (A list of the pairs kept, 4
// bytes each, took 0.1-0.2 MB of lock_pairs' peak: race_bench.txt section
// 79.)
template <typename Word>
struct KeyRange {
  static constexpr uint32_t kIndexes = kFirstWidePair;  // each range's size, the wide one's last unused
  static constexpr uint32_t kChunkBits = 16;
  static constexpr uint32_t kPerChunk = 1u << kChunkBits;
  static constexpr uint32_t kPerPage = 4096 / sizeof(Word);
  // kCondemned and kRetired in the stored form, for the sweep's passes,
  // which work on it without translating.
  static constexpr Word kCondemnedBit = sizeof(Word) == 4 ? Word(kNarrowCondemned) : Word(kCondemned);
  static constexpr Word kRetiredBit = sizeof(Word) == 4 ? Word(kNarrowRetired) : Word(kRetired);
  std::atomic<Word *> chunks[kIndexes >> kChunkBits] = {};
  uint32_t given = 0;      // indexes ever given out (the highest plus one, from the range's first)
  uint32_t free_head = 0;  // retired indexes no sweep found named since (index + 1, 0: none)
  uint16_t kept_in_page[kIndexes / kPerPage] = {};

  SNAG_ALWAYS_INLINE Word *slot(uint32_t at) {
    Word *chunk = chunks[at >> kChunkBits].load(std::memory_order_acquire);
    return &chunk[at & (kPerChunk - 1)];
  }
  // Makes the chunk of `at` if it has none yet (under g_insert_lock).
  void make_room(uint32_t at) {
    std::atomic<Word *> &chunk = chunks[at >> kChunkBits];
    if (!chunk.load(std::memory_order_relaxed))
      chunk.store(static_cast<Word *>(map_pages_unvisited(sizeof(Word) * kPerChunk)), std::memory_order_release);
  }
};
// Zeros in .bss, not written by a constructor at start (a page each).
constinit KeyRange<uint32_t> g_narrow;
constinit KeyRange<uint64_t> g_wide;

uint32_t g_added;  // pairs ever added, under g_insert_lock
uint32_t g_kept;   // not retired, under g_insert_lock
// Retired indexes of the last sweep (or found named although retired), of
// both ranges, linked through their keys (index + 1, 0: none), under
// g_insert_lock; the sweep after moves those it finds nowhere to their
// range's free list, which is given out first.
uint32_t g_cooling_head;
SpinLock g_insert_lock;
LockPairFinder g_finder;
uint32_t g_added_at_sweep, g_named_at_sweep;  // under g_insert_lock
size_t g_read_at_sweep;
std::atomic<uint32_t> g_sweeps;

// The indexes the finder may name: every index given out is below.
uint32_t index_end() { return g_wide.given ? kFirstWidePair + g_wide.given : g_narrow.given; }

// The stored form as a key: a narrow one translated, a wide one as it is.
SNAG_ALWAYS_INLINE uint64_t as_key(uint32_t stored) { return wide_form(stored); }
SNAG_ALWAYS_INLINE uint64_t as_key(uint64_t stored) { return stored; }

SNAG_ALWAYS_INLINE uint64_t stored_key(uint32_t pair) {
  if (is_narrow_pair(pair)) return wide_form(__atomic_load_n(g_narrow.slot(pair), __ATOMIC_RELAXED));
  return __atomic_load_n(g_wide.slot(pair - kFirstWidePair), __ATOMIC_RELAXED);
}

SNAG_ALWAYS_INLINE void store_key(uint32_t pair, uint64_t key) {
  if (is_narrow_pair(pair))
    __atomic_store_n(g_narrow.slot(pair), narrow_form(key), __ATOMIC_RELAXED);
  else
    __atomic_store_n(g_wide.slot(pair - kFirstWidePair), key, __ATOMIC_RELAXED);
}

// Compare and exchange of a pair's key; on failure `expected` is the key
// found.
bool exchange_key(uint32_t pair, uint64_t &expected, uint64_t desired) {
  if (!is_narrow_pair(pair))
    return __atomic_compare_exchange_n(g_wide.slot(pair - kFirstWidePair), &expected, desired, false,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  uint32_t narrow = narrow_form(expected);
  if (__atomic_compare_exchange_n(g_narrow.slot(pair), &narrow, narrow_form(desired), false, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED))
    return true;
  expected = wide_form(narrow);
  return false;
}

// Under g_insert_lock: the pair's page's count of pairs kept.
uint16_t &kept_in_page(uint32_t pair) {
  if (is_narrow_pair(pair)) return g_narrow.kept_in_page[pair / g_narrow.kPerPage];
  return g_wide.kept_in_page[(pair - kFirstWidePair) / g_wide.kPerPage];
}

// Under g_insert_lock: the free list the pair's index goes back to.
uint32_t &free_head(uint32_t pair) { return is_narrow_pair(pair) ? g_narrow.free_head : g_wide.free_head; }

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

// Takes a condemned pair back for a thread that looked it up: false when
// the sweep retired it first.
bool take_back(uint32_t index, uint64_t condemned) {
  uint64_t expected = condemned;
  if (exchange_key(index, expected, condemned & ~kCondemned)) return true;
  return expected == (condemned & ~kCondemned);  // another lookup took it back
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
    if (slot >> kTagShift != tag) continue;
    const uint32_t pair = (slot & kSlotIndexMask) - 1;
    const uint64_t stored = stored_key(pair);
    if ((stored & ~kCondemned) != key) continue;
    // A retired pair's key reads 0 and matches nothing; a condemned one is
    // the caller's only if taken back before the sweep retires it.
    return !(stored & kCondemned) || take_back(pair, stored) ? pair : kNoLockPair;
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

uint32_t g_occupied;  // slots of the index in use, retired pairs' included

// Calls visit(pair, stored, slot) for every pair of `range` (whose first
// index is `first`) not retired, by index (stored: its key as stored,
// nonzero; slot: where). Under g_insert_lock.
template <typename Word, typename Visit>
void for_each_kept_in(KeyRange<Word> &range, uint32_t first, Visit &visit) {
  const uint32_t pages = (range.given + range.kPerPage - 1) / range.kPerPage;
  for (uint32_t page = 0; page < pages; ++page) {
    if (!range.kept_in_page[page]) continue;
    const uint32_t begin = page * range.kPerPage;
    const uint32_t end = begin + range.kPerPage < range.given ? begin + range.kPerPage : range.given;
    Word *keys = range.slot(begin);  // a page lies in one chunk
    for (uint32_t at = begin; at < end; ++at) {
      Word *slot = &keys[at - begin];
      const Word stored = __atomic_load_n(slot, __ATOMIC_RELAXED);
      if (stored && !(stored & range.kRetiredBit)) visit(first + at, stored, slot);
    }
  }
}

// for_each_kept_in over both ranges.
template <typename Visit>
void for_each_kept(Visit &&visit) {
  for_each_kept_in(g_narrow, 0, visit);
  for_each_kept_in(g_wide, kFirstWidePair, visit);
}

// Under g_insert_lock: an index of `slots` slots holding every pair neither
// retired nor condemned. A condemned pair is left out: a thread that takes
// its two locks again gets a new index for them (lockset_intersect answers
// two indexes of the same two locks as one set), and a thread that still
// held the condemned index writes it back, where the next sweep finds it
// and takes it back (into the index rebuilt then). Kept in, condemned pairs
// (one interval's worth, lock_pairs: ~16,000 beside ~7,500 named) sized the
// index at 64Ki slots, 256 KiB, where the named and the next interval's new
// pairs fit 32Ki (race_bench.txt section 97).
uint32_t *make_index(uint32_t slots) {
  // Unvisited by the finder: slots look like ids.
  auto *index = static_cast<uint32_t *>(map_pages_unvisited(index_bytes(slots)));
  index[0] = slots - 1;
  uint32_t put_in = 0;
  for_each_kept([index, &put_in]<typename Word>(uint32_t pair, Word stored, Word *) {
    if (stored & KeyRange<Word>::kCondemnedBit) return;
    put(index, hash_of(as_key(stored)), pair);
    ++put_in;
  });
  g_occupied = put_in;
  return index;
}

// Under g_insert_lock: the index replaced by one of `slots` slots. The old
// index stays mapped for readers still probing it, but its pages go back
// to the kernel: they read as zeros from then on (empty slots, a mask of
// 0), which every reader takes for a miss, and a miss looks again under
// g_insert_lock, in the new index. They go back before the new one is
// built, so that the two are never in memory at once (lock_pairs' peak held
// both, 0.25-0.75 MB, at every sweep and growth: race_bench.txt section 79);
// meanwhile lookups wait for the lock.
void remake_index(uint32_t *old, uint32_t slots) {
  if (old)
    raw_syscall(SYS_madvise, reinterpret_cast<long>(old), static_cast<long>(index_bytes(old[0] + 1)),
                MADV_DONTNEED);
  g_index.store(make_index(slots), std::memory_order_release);
}

// Slots for `pairs` with room to add half as many again, or a sweep's
// interval, before it fills. (As many again kept lock_pairs' index at 64Ki
// slots, 256 KiB, for 24,000 pairs: race_bench.txt section 83.)
uint32_t slots_for(uint32_t pairs) {
  const uint64_t room = pairs / 2 > kMinPairsBetweenSweeps ? pairs / 2 : kMinPairsBetweenSweeps;
  uint32_t slots = kFirstSlots;
  while ((uint64_t(pairs) + room) * 4 > uint64_t(slots) * 3) slots *= 2;
  return slots;
}

// Under g_insert_lock: condemns the pairs the finder found nothing naming,
// retires those condemned at the last sweep and not taken back since,
// frees those retired at the last sweep that it found nowhere, and
// rebuilds the index.
void sweep() {
  const uint32_t pairs = index_end();
  const size_t mark_bytes = (size_t(pairs) / 64 + 1) * sizeof(uint64_t);
  // Not map_pages': the finder searches that memory.
  long mapped = raw_syscall(SYS_mmap, 0, static_cast<long>(mark_bytes), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped < 0 && mapped > -4096) return;  // no memory for the marks: keep everything
  auto *named = reinterpret_cast<uint64_t *>(mapped);
  const size_t read = g_finder(pairs, named);
  if (read == kLockPairSearchFailed) {
    raw_syscall(SYS_munmap, mapped, static_cast<long>(mark_bytes));
    g_added_at_sweep = g_added;  // tried again once as many more are added
    return;
  }
  // The last sweep's retired indexes: free now unless found named (then
  // they stay retired, and are looked for again at the next sweep).
  uint32_t cooling = 0;
  for (uint32_t link = g_cooling_head; link;) {
    const uint32_t pair = link - 1;
    link = static_cast<uint32_t>(stored_key(pair));
    uint32_t &head = named[pair / 64] >> (pair % 64) & 1 ? cooling : free_head(pair);
    store_key(pair, kRetired | head);
    head = pair + 1;
  }
  uint32_t found = 0, indexed = 0;
  for_each_kept([&]<typename Word>(uint32_t pair, Word stored, Word *slot) {
    constexpr Word condemned = KeyRange<Word>::kCondemnedBit, retired = KeyRange<Word>::kRetiredBit;
    if (named[pair / 64] >> (pair % 64) & 1) {
      ++found;
      ++indexed;
      // Taken back (a lookup may have taken it back first).
      if (stored & condemned)
        __atomic_compare_exchange_n(slot, &stored, stored & ~condemned, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    } else if (!(stored & condemned)) {
      // Only sweeps condemn, under the lock: a lookup can only take it back
      // (one probing the index this sweep replaces).
      __atomic_store_n(slot, stored | condemned, __ATOMIC_RELAXED);
    } else if (__atomic_compare_exchange_n(slot, &stored, retired | cooling, false, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED)) {
      --g_kept;
      --kept_in_page(pair);
      cooling = pair + 1;
    } else {
      ++indexed;  // a lookup took it back just now
    }
  });
  raw_syscall(SYS_munmap, mapped, static_cast<long>(mark_bytes));
  // The index rebuilt without the retired pairs, at the size the pairs kept
  // need: left to fill with retired pairs' slots, it was rebuilt at twice
  // that size (lock_pairs' peak +0.9 MB).
  remake_index(g_index.load(std::memory_order_relaxed), slots_for(indexed + 1));
  g_cooling_head = cooling;
  g_added_at_sweep = g_added;
  g_named_at_sweep = found;
  g_read_at_sweep = read;
  g_sweeps.fetch_add(1, std::memory_order_relaxed);
}

// Under g_insert_lock: the index a new pair of these ids gets next
// (kNoLockPair: none left), not taken yet. Narrow ids take the narrow
// range's free indexes, then its new ones; any pair takes the wide range's
// after that.
uint32_t next_index(bool narrow_ids) {
  if (narrow_ids) {
    if (g_narrow.free_head) return g_narrow.free_head - 1;
    if (g_narrow.given < kFirstWidePair) return g_narrow.given;
  }
  if (g_wide.free_head) return g_wide.free_head - 1;
  if (kFirstWidePair + g_wide.given < kMaxLockPairs) return kFirstWidePair + g_wide.given;
  return kNoLockPair;
}

// Under g_insert_lock: takes `pair` (next_index's) off its free list or its
// range's new indexes, with room for its key.
void take_index(uint32_t pair) {
  uint32_t &head = free_head(pair);
  if (head == pair + 1) {
    head = static_cast<uint32_t>(stored_key(pair));
  } else if (is_narrow_pair(pair)) {
    g_narrow.make_room(g_narrow.given++);
  } else {
    g_wide.make_room(g_wide.given++);
  }
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
  const bool narrow_ids = has_narrow_ids(one, other);
  if (next_index(narrow_ids) == kNoLockPair) return kNoLockPair;
  const uint32_t added = g_added - g_added_at_sweep;
  if (g_finder && added >= kMinPairsBetweenSweeps && added >= g_named_at_sweep &&
      added >= g_read_at_sweep / kSweepBytesPerPair) {
    sweep();
    index = g_index.load(std::memory_order_relaxed);  // rebuilt
  }
  // At most three slots in four used: a miss probes a few slots, one line.
  // Rebuilt at the size the pairs it holds need (neither retired nor
  // condemned: between sweeps no more than it held, less any condemned
  // since).
  if (!index || uint64_t(g_occupied + 1) * 4 > uint64_t(index[0] + 1) * 3) {
    remake_index(index, slots_for(g_occupied + 1));
    index = g_index.load(std::memory_order_relaxed);
  }
  pair = next_index(narrow_ids);  // the sweep may have freed some: not kNoLockPair either way
  take_index(pair);
  store_key(pair, key);
  put(index, hash, pair);  // publishes the key
  ++g_added;
  ++g_occupied;
  ++g_kept;
  ++kept_in_page(pair);
  return pair;
}

void lock_pair_members(uint32_t index, uint32_t *low, uint32_t *high) {
  uint64_t key = stored_key(index) & ~kCondemned;
  if (key & kRetired) key = 0;
  *low = static_cast<uint32_t>(key);
  *high = static_cast<uint32_t>(key >> 32);
}

void set_lock_pair_finder(LockPairFinder finder) {
  SpinLockGuard guard(g_insert_lock);
  g_finder = finder;
}

uint32_t lock_pair_sweeps() { return g_sweeps.load(std::memory_order_relaxed); }

uint32_t lock_pairs_kept() {
  SpinLockGuard guard(g_insert_lock);
  return g_kept;
}

uint32_t lock_pair_indexes_given() {
  SpinLockGuard guard(g_insert_lock);
  return g_narrow.given + g_wide.given;
}

const void *lock_pair_index_memory() { return g_index.load(std::memory_order_acquire); }

uint32_t lock_pair_index_slots() {
  const uint32_t *index = g_index.load(std::memory_order_acquire);
  return index ? index[0] + 1 : 0;
}

}  // namespace snag::race
