// A thread's cache of the ids of the (site, calling context) pairs it
// remembered accesses at last (History::stack, access_stacks.h), so that a
// history entry is mostly written without the shared table: 128 entries,
// 2 KiB, in sets of four ways kept newest first (a new pair pushes the
// set's oldest out). With two ways, three pairs one code path uses in turn
// that met in one set missed every time: pipeline's queue operations
// interned 1.6 million times in 10.8 million renewals, 226 times with four
// (bench/results/race_bench.txt section 76).
#pragma once

#include <stdint.h>

#include "core/platform.h"
#include "core/stack.h"

namespace snag::race {

class SiteStackCache {
 public:
  static constexpr uint32_t kBits = 7;
  static constexpr uint32_t kWays = 4;

  // The first entry of the set (pair) belongs to.
  static SNAG_ALWAYS_INLINE uint32_t set_of(snag_site_t site, StackId context) {
    const uint64_t key = (site ^ (uint64_t(context) << 32)) * 0x9e3779b97f4a7c15ull;
    return static_cast<uint32_t>(key >> (64 - kBits)) & ~(kWays - 1);
  }

  // The id of (site, context) if the cache holds it, else 0 (no id is 0):
  // the owner's renewal asks this alone, and leaves a miss to the path that
  // interns (race_access.cpp, renew_own).
  SNAG_ALWAYS_INLINE uint32_t find(snag_site_t site, StackId context) const {
    const Entry *set = &entries_[set_of(site, context)];
    for (uint32_t i = 0; i < kWays; ++i)
      if (set[i].site == site && set[i].context == context) return set[i].stack;
    return 0;
  }

  // The id of (site, context): remembered, or intern(site, context), which
  // the set then remembers as its newest.
  template <typename Intern>
  SNAG_ALWAYS_INLINE uint32_t get(snag_site_t site, StackId context, Intern intern) {
    Entry *set = &entries_[set_of(site, context)];
    for (uint32_t i = 0; i < kWays; ++i)
      if (set[i].site == site && set[i].context == context) return set[i].stack;
    for (uint32_t i = kWays - 1; i > 0; --i) set[i] = set[i - 1];
    set[0] = {site, context, intern(site, context)};
    return set[0].stack;
  }

 private:
  struct Entry {
    snag_site_t site;
    StackId context;
    uint32_t stack;
  };
  Entry entries_[1u << kBits] = {};
};

}  // namespace snag::race
