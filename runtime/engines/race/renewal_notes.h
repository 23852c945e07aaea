// A thread's notes of the renewals of its own granules it made last
// (race_access.cpp, RaceEngine::renew_inline): for an access (address, size, kind) at a site
// in a calling context under a lockset, the granule's histories (by their
// pool index, as the page's history index held it) and the packed history
// slot the renewal wrote, but for its clock.
//
// Why: a granule's owner touches it again in every new epoch (after each
// unlock or signal ticked its clock), from the same few sites (pipeline:
// 8.5 million of its 10.8 million renewals, the unique_lock's and the
// deque's fields after each tick; race_bench.txt sections 76 and 81). Each
// renewal computed the same things again: the history's place (shadow page
// table, the page's index, the pool's chunk), the (site, context) stack id
// (SiteStackCache's hash and set) and the packed slot. A note answers all
// three with a few compares. Nothing about what is remembered changes: the
// slot is written at every renewal as before, with the clock of its epoch.
//
// Exact while the note's pool index is still the granule's: histories move
// only when given back (shadow.cpp: the page's index entry goes to 0) and
// taken again, and page index arrays are never unmapped, so the entry is
// read in place and compared. The stack id is a function of (site,
// context), ids stay valid for the process's life (access_stacks.h), and
// the packed slot's lockset, offset, size and thread follow from the key,
// the lockset and the thread (a granule's offset and size have no high
// bits: shadow.h, pack_entry).
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/platform.h"
#include "core/stack.h"
#include "engines/race/lockset.h"
#include "engines/race/shadow.h"

namespace snag::race {

class RenewalNotes {
 public:
  // Direct-mapped by (access, site): a granule written at three sites in
  // turn (a unique_lock's _M_owns: constructor, unlock, destructor) keeps
  // three notes. 64 notes of 48 bytes, 3 KiB per thread.
  static constexpr uint32_t kBits = 6;

  // The key of an access of `size` bytes (1 to 8, inside one granule) at
  // `addr`: never 0.
  static SNAG_ALWAYS_INLINE uint64_t key_of(uintptr_t addr, uintptr_t size, bool write) {
    return (uint64_t(addr) << 4) | (uint64_t(size - 1) << 1) | (write ? 1u : 0u) | (uint64_t(1) << 63);
  }

  struct Note {
    uint64_t key = 0;  // key_of; 0: empty
    snag_site_t site = 0;
    const std::atomic<uint32_t> *index = nullptr;  // the granule's entry in its page's history index
    uint32_t pool = 0;                             // the pool index that entry held
    StackId context = 0;
    LocksetId held = 0;
    uint32_t stack = 0;         // intern_access_stack(site, context)
    uint32_t lockset_high = 0;  // the packed slot's words but its clock (PackedHistory)
    uint32_t where = 0;
  };

  SNAG_ALWAYS_INLINE Note &note_for(uint64_t key, snag_site_t site) {
    const uint64_t h = (key ^ (uint64_t(site) << 7)) * 0x9e3779b97f4a7c15ull;
    return notes_[h >> (64 - kBits)];
  }

  // The histories the note says the access renews and its slot (clock
  // `now`), when the note is this access's and its histories are still the
  // granule's; false otherwise.
  static SNAG_ALWAYS_INLINE bool answers(const Note &n, uint64_t key, snag_site_t site, StackId context,
                                         LocksetId held, Clock now, PackedHistories **histories,
                                         PackedHistory *slot) {
    if (n.key != key || n.site != site || n.context != context || n.held != held) return false;
    const uint32_t pool = n.index->load(std::memory_order_acquire);
    if (pool != n.pool) return false;
    *histories = history_at(pool);
    *slot = PackedHistory{n.stack, n.lockset_high, now, n.where};
    return true;
  }

  // Notes what a renewal looked up and wrote (`slot`, made by pack_entry).
  static SNAG_ALWAYS_INLINE void remember(Note &n, uint64_t key, snag_site_t site, StackId context,
                                          LocksetId held, const std::atomic<uint32_t> *index, uint32_t pool,
                                          const PackedHistory &slot) {
    n.key = key;
    n.site = site;
    n.index = index;
    n.pool = pool;
    n.context = context;
    n.held = held;
    n.stack = slot.stack;
    n.lockset_high = slot.lockset_high;
    n.where = slot.where;
  }

 private:
  Note notes_[1u << kBits] = {};
};

}  // namespace snag::race
