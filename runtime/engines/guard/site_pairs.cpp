#include "engines/guard/site_pairs.h"

#include "core/internal_alloc.h"

namespace snag::guard {

void SitePairs::init(int log2_capacity) {
  uint64_t capacity = uint64_t{1} << log2_capacity;
  entries_ = static_cast<Entry *>(map_pages(capacity * sizeof(Entry)));
  mask_ = capacity - 1;
}

SitePairs::Entry *SitePairs::find(snag_site_t site, snag_site_t value) const {
  if (!entries_) return nullptr;
  for (uint64_t i = hash(site, value) & mask_, probes = 0; probes <= mask_; i = (i + 1) & mask_, ++probes) {
    Entry &e = entries_[i];
    if (!e.ready.load(std::memory_order_acquire)) return nullptr;
    if (e.site == site && e.value == value) return &e;
  }
  return nullptr;
}

SitePairs::Entry *SitePairs::insert(snag_site_t site, snag_site_t value, bool *added) {
  if (added) *added = false;
  if (Entry *e = find(site, value)) return e;
  if (!entries_) return nullptr;
  SpinLockGuard guard(insert_lock_);
  // Keep a quarter free so probe chains stay short.
  if (size_.load(std::memory_order_relaxed) >= mask_ - mask_ / 4) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  for (uint64_t i = hash(site, value) & mask_;; i = (i + 1) & mask_) {
    Entry &e = entries_[i];
    if (e.ready.load(std::memory_order_relaxed)) {
      if (e.site == site && e.value == value) return &e;  // inserted meanwhile
      continue;
    }
    e.site = site;
    e.value = value;
    e.extra.store(0, std::memory_order_relaxed);
    e.ready.store(1, std::memory_order_release);
    size_.fetch_add(1, std::memory_order_relaxed);
    if (added) *added = true;
    return &e;
  }
}

}  // namespace snag::guard
