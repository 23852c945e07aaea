// Locksets (RaceTrack's L_t and C_x), interned so that a variable's state
// word can hold one as a 32-bit id. Id 0 is the empty set. A lock is named by
// its address.
#pragma once

#include <stdint.h>

namespace snag::race {

using LocksetId = uint32_t;
constexpr LocksetId kEmptyLockset = 0;
constexpr uint32_t kMaxLocksInSet = 16;  // held at once; more are not tracked

// `locks` need not be sorted or unique.
LocksetId lockset_intern(const uintptr_t *locks, uint32_t count);
LocksetId lockset_intersect(LocksetId a, LocksetId b);
// The members of a set (sorted); valid for the life of the process.
uint32_t lockset_members(LocksetId id, const uintptr_t **locks);
bool lockset_contains(LocksetId id, uintptr_t lock);

}  // namespace snag::race
