#include "engines/tsv/trap_set.h"

#include <atomic>

#include "core/spinlock.h"

namespace snag::tsv {

namespace {

enum class PairState : uint8_t { kEmpty, kDangerous, kOrdered, kFound };

struct SiteSlot {
  std::atomic<snag_site_t> site;
  std::atomic<int32_t> live_pairs;  // dangerous pairs that include the site
  std::atomic<int32_t> failed;      // delays that caught nothing
};

struct PairSlot {
  std::atomic<snag_site_t> a, b;  // a <= b
  std::atomic<PairState> state;
};

// Open addressing with linear probing; slots are never removed, so a lookup
// stops at the first empty slot. Full tables stop taking new entries.
constexpr uint32_t kSiteSlots = 1 << 13;
constexpr uint32_t kPairSlots = 1 << 14;
SiteSlot g_sites[kSiteSlots];
PairSlot g_pairs[kPairSlots];
uint32_t g_site_count, g_pair_count;
SpinLock g_lock;

uint32_t hash(uint64_t key, uint32_t slots) {
  return static_cast<uint32_t>((key * 0x9e3779b97f4a7c15ull) >> 40) & (slots - 1);
}

SiteSlot *find_site_slot(snag_site_t site) {
  for (uint32_t i = hash(site, kSiteSlots), probes = 0; probes < kSiteSlots;
       i = (i + 1) & (kSiteSlots - 1), ++probes) {
    snag_site_t s = g_sites[i].site.load(std::memory_order_acquire);
    if (s == site) return &g_sites[i];
    if (s == 0) return nullptr;
  }
  return nullptr;
}

// Called with g_lock held.
SiteSlot *site_slot(snag_site_t site) {
  if (SiteSlot *slot = find_site_slot(site)) return slot;
  if (g_site_count * 4 >= kSiteSlots * 3) return nullptr;
  for (uint32_t i = hash(site, kSiteSlots);; i = (i + 1) & (kSiteSlots - 1)) {
    if (g_sites[i].site.load(std::memory_order_relaxed) != 0) continue;
    ++g_site_count;
    g_sites[i].site.store(site, std::memory_order_release);
    return &g_sites[i];
  }
}

// Called with g_lock held; creates the pair (in state kEmpty) if needed.
PairSlot *pair_slot(snag_site_t a, snag_site_t b, bool create) {
  if (a > b) {
    snag_site_t t = a;
    a = b;
    b = t;
  }
  uint64_t key = a * 31 + b;
  for (uint32_t i = hash(key, kPairSlots), probes = 0; probes < kPairSlots;
       i = (i + 1) & (kPairSlots - 1), ++probes) {
    PairSlot &p = g_pairs[i];
    snag_site_t pa = p.a.load(std::memory_order_relaxed);
    if (pa == a && p.b.load(std::memory_order_relaxed) == b &&
        p.state.load(std::memory_order_relaxed) != PairState::kEmpty)
      return &p;
    if (pa == 0 && p.state.load(std::memory_order_relaxed) == PairState::kEmpty) {
      if (!create || g_pair_count * 4 >= kPairSlots * 3) return nullptr;
      ++g_pair_count;
      p.a.store(a, std::memory_order_relaxed);
      p.b.store(b, std::memory_order_relaxed);
      return &p;
    }
  }
  return nullptr;
}

void count_live(PairSlot &p, int delta) {
  snag_site_t a = p.a.load(std::memory_order_relaxed), b = p.b.load(std::memory_order_relaxed);
  if (SiteSlot *s = site_slot(a)) s->live_pairs.fetch_add(delta, std::memory_order_relaxed);
  if (b != a)
    if (SiteSlot *s = site_slot(b)) s->live_pairs.fetch_add(delta, std::memory_order_relaxed);
}

// Moves an existing pair to `state`, keeping the sites' live counts right.
void set_state(PairSlot &p, PairState state) {
  PairState old = p.state.load(std::memory_order_relaxed);
  if (old == state) return;
  if (old == PairState::kDangerous) count_live(p, -1);
  if (state == PairState::kDangerous) count_live(p, +1);
  p.state.store(state, std::memory_order_release);
}

}  // namespace

bool add_dangerous_pair(snag_site_t a, snag_site_t b) {
  SpinLockGuard guard(g_lock);
  PairSlot *p = pair_slot(a, b, true);
  if (!p || p->state.load(std::memory_order_relaxed) != PairState::kEmpty) return false;
  set_state(*p, PairState::kDangerous);
  return true;
}

bool mark_ordered(snag_site_t a, snag_site_t b) {
  SpinLockGuard guard(g_lock);
  PairSlot *p = pair_slot(a, b, true);
  if (!p) return false;
  PairState state = p->state.load(std::memory_order_relaxed);
  if (state == PairState::kFound || state == PairState::kOrdered) return false;
  set_state(*p, PairState::kOrdered);
  return true;
}

bool mark_found(snag_site_t a, snag_site_t b) {
  SpinLockGuard guard(g_lock);
  PairSlot *p = pair_slot(a, b, true);
  if (!p) return true;  // a full table must not hide a violation
  if (p->state.load(std::memory_order_relaxed) == PairState::kFound) return false;
  set_state(*p, PairState::kFound);
  return true;
}

uint32_t delay_chance(snag_site_t site, uint32_t decay_percent) {
  SiteSlot *s = find_site_slot(site);
  if (!s || s->live_pairs.load(std::memory_order_relaxed) <= 0) return 0;
  int32_t chance = 1000 - static_cast<int32_t>(decay_percent) * 10 *
                              s->failed.load(std::memory_order_relaxed);
  return chance > 0 ? static_cast<uint32_t>(chance) : 0;
}

void delay_failed(snag_site_t site) {
  if (SiteSlot *s = find_site_slot(site)) s->failed.fetch_add(1, std::memory_order_relaxed);
}

uint32_t copy_lasting_pairs(LastingPair *out, uint32_t max) {
  SpinLockGuard guard(g_lock);
  uint32_t n = 0;
  for (const PairSlot &p : g_pairs) {
    PairState state = p.state.load(std::memory_order_relaxed);
    if (state == PairState::kEmpty || n == max) continue;
    out[n++] = {p.a.load(std::memory_order_relaxed), p.b.load(std::memory_order_relaxed),
                state != PairState::kOrdered};
  }
  return n;
}

void reset_trap_set() {
  SpinLockGuard guard(g_lock);
  for (SiteSlot &s : g_sites) {
    s.site.store(0);
    s.live_pairs.store(0);
    s.failed.store(0);
  }
  for (PairSlot &p : g_pairs) {
    p.a.store(0);
    p.b.store(0);
    p.state.store(PairState::kEmpty);
  }
  g_site_count = g_pair_count = 0;
}

}  // namespace snag::tsv
