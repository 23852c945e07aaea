// A concurrent set of (site, value) pairs, the guard engine's one table:
// BSet(S) membership ("is P a remote predecessor S may have?"), what a run
// learned, which pairs were reported already, and per-site facts (how many
// predecessors S has, the lock held at S, how often S ran).
//
// Lookups never lock and never allocate: open addressing over a table mapped
// once at start-up, entries published with a release store. Insertions take
// a spinlock (they are rare: a pair is inserted once per run). The table has
// a fixed capacity; when it is full, inserts are dropped and counted, never
// a crash (what is lost is only learned or checked less).
#pragma once

#include <atomic>
#include <stdint.h>

#include "core/spinlock.h"
#include "snag/abi.h"

namespace snag::guard {

// Values that are not site ids, for per-site facts kept in the same table.
// Site ids are hashes; these five are reserved.
constexpr snag_site_t kFactSummary = ~snag_site_t{0};      // value: BSet size; extra: first member
constexpr snag_site_t kFactLock = ~snag_site_t{0} - 1;     // extra: site of the outermost lock held
constexpr snag_site_t kFactCount = ~snag_site_t{0} - 2;    // extra: how often the site ran (learn)
constexpr snag_site_t kFactStallFor = ~snag_site_t{0} - 3; // expose: extra = the site to let run first
constexpr snag_site_t kFactWatched = ~snag_site_t{0} - 4;  // expose: extra = 1 once the site ran

class SitePairs {
 public:
  struct Entry {
    std::atomic<uint32_t> ready;  // 0: empty, 1: site/value/extra are valid
    uint32_t count;               // free for the owner of the pair (set before sharing)
    snag_site_t site;
    snag_site_t value;
    std::atomic<uint64_t> extra;  // free for the owner of the pair
  };

  // Maps the table (2^log2_capacity entries). Call once before use.
  void init(int log2_capacity);
  bool initialized() const { return entries_ != nullptr; }

  // The entry of (site, value), or null.
  Entry *find(snag_site_t site, snag_site_t value) const;
  bool contains(snag_site_t site, snag_site_t value) const { return find(site, value) != nullptr; }
  // The entry of (site, value), inserting it (extra = 0) if needed; `added`
  // says whether it was new. Null when the table is full.
  Entry *insert(snag_site_t site, snag_site_t value, bool *added = nullptr);

  // Every entry in table order (for writing the file at exit).
  template <typename F>
  void for_each(F f) const {
    for (uint64_t i = 0; entries_ && i <= mask_; ++i)
      if (entries_[i].ready.load(std::memory_order_acquire)) f(entries_[i]);
  }

  uint64_t index_of(const Entry &e) const { return uint64_t(&e - entries_); }
  Entry &at(uint64_t index) const { return entries_[index]; }

  uint64_t size() const { return size_.load(std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  static uint64_t hash(snag_site_t site, snag_site_t value) {
    uint64_t h = site * 0x9e3779b97f4a7c15ull ^ (value + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
  }

  Entry *entries_ = nullptr;
  uint64_t mask_ = 0;
  SpinLock insert_lock_;
  std::atomic<uint64_t> size_{0};
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace snag::guard
