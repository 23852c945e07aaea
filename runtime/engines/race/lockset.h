// Locksets (RaceTrack's L_t and C_x), interned so that a variable's state
// word can hold one as a 32-bit id. Id 0 is the empty set. A lock is named by
// its address.
#pragma once

#include <stdint.h>

namespace snag::race {

using LocksetId = uint32_t;
constexpr LocksetId kEmptyLockset = 0;
constexpr uint32_t kMaxLocksInSet = 16;  // held at once; more are not tracked
// Ids stay below 1 << kLocksetIdBits (the table gives out no more): a
// packed history keeps other bits above its lockset id (shadow.h).
constexpr uint32_t kLocksetIdBits = 24;

// Ids of one-lock sets, of two-lock sets and of larger sets come from
// ranges of their own, so that an id tells which table names its members,
// and intersecting sets of one or two locks needs no table at all (their
// locks have one-lock sets' ids, which are the sets' members).
constexpr LocksetId kFirstLargerLockset = 1u << 22;
constexpr LocksetId kFirstLockPair = 1u << 23;  // lock_pairs.h: pair index + this
inline bool lockset_is_one_lock(LocksetId id) { return id != kEmptyLockset && id < kFirstLargerLockset; }
inline bool lockset_is_pair(LocksetId id) { return id >= kFirstLockPair; }

// `locks` need not be sorted or unique.
LocksetId lockset_intern(const uintptr_t *locks, uint32_t count);
// The set of the locks of two one-lock sets (lockset_intern of both locks,
// without looking their addresses up).
LocksetId lockset_pair(LocksetId one, LocksetId other);
LocksetId lockset_intersect(LocksetId a, LocksetId b);
// The members of a set, sorted, copied to `locks`; their count.
uint32_t lockset_members(LocksetId id, uintptr_t locks[kMaxLocksInSet]);
bool lockset_contains(LocksetId id, uintptr_t lock);
// The shared table's bucket of the set {lock} (lockset.cpp says how it is
// chosen; exposed for its tests).
uint32_t lockset_bucket_of_lock(uintptr_t lock);
// Sets of three or more locks have a table of their own; the bucket of such
// a set (`locks` need not be sorted), exposed for its tests.
uint32_t lockset_set_bucket_of(const uintptr_t *locks, uint32_t count);
constexpr uint32_t kLocksetSetBuckets = 1u << 16;
constexpr uint32_t kLocksetBuckets = 1u << 14;

// One thread's memo of the sets it interned last. A thread that takes and
// drops the same locks again and again (nested locks in a loop) finds the
// id here, in its own memory, instead of hashing into the shared table,
// whose buckets and entries are cache misses. Ids never change, so an entry
// stays right for as long as the process lives; the memo only forgets
// entries to make room.
class LocksetCache {
 public:
  // The id lockset_intern(locks, count) returns.
  LocksetId intern(const uintptr_t *locks, uint32_t count);
  uint32_t hits() const { return hits_; }

 private:
  static constexpr uint32_t kEntries = 8;
  struct Entry {
    uint32_t count = 0;  // 0: unused (the empty set needs no memo)
    LocksetId id = kEmptyLockset;
    uintptr_t locks[kMaxLocksInSet];  // sorted, unique
  };
  Entry entries_[kEntries];
  uint32_t next_victim_ = 0;
  uint32_t hits_ = 0;
};

}  // namespace snag::race
