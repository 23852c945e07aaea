#include "engines/explore/coverage.h"

#include "core/platform.h"
#include "engines/explore/engine_state.h"
#include "engines/explore/mix.h"

namespace snag::explore {

namespace {

// The fork server's map of the points any schedule reached. A child works
// on its own copy (fork), marking what it reports so that it reports each
// point once.
uint64_t g_seen[kCoverageMapBits / 64];
// The fork server's count of the schedules that reached each point.
uint32_t g_hits[kCoverageMapBits];
// The child's points of its own schedule (zero in the fork server, which
// never marks, so every child starts without any).
uint64_t g_hit[kCoverageMapBits / 64];

// The child's atomic variables and their last values, and the running hash
// of them all (a sum, so one variable's change is one subtraction and one
// addition). A schedule with more atomic variables than this hashes the
// first ones it changed. `version` counts the value's changes; per thread
// (the first kThreadsSeen), the version and value it last saw (0: none),
// which tell an ABA.
constexpr uint32_t kThreadsSeen = 8;
struct AtomicValue {
  uintptr_t addr;
  uint64_t value;
  uint32_t version;
  uint32_t seen_version[kThreadsSeen];
  uint64_t seen_value[kThreadsSeen];
};
constexpr uint32_t kAtomicSlots = 1024;
AtomicValue g_atomics[kAtomicSlots];
uint64_t g_state_hash = 0;

constexpr uint64_t kSiteMultiplier = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kAccessTag = 0x5bd1e995u;
constexpr uint64_t kAbaTag = 0xab4ab4ab4ab4ab4bull;

uint64_t read_value(uintptr_t addr, uint32_t size) {
  uint64_t v = 0;
  __builtin_memcpy(&v, reinterpret_cast<const void *>(addr), size < 8 ? size : 8);
  return v;
}

void mark(uint64_t key) {
  uint32_t bit = uint32_t(mix64(key)) & (kCoverageMapBits - 1);
  uint64_t word_bit = uint64_t(1) << (bit % 64);
  ScheduleResults &r = results();
  if (!(g_hit[bit / 64] & word_bit)) {
    g_hit[bit / 64] |= word_bit;
    if (r.hit_coverage_count < ScheduleResults::kMaxHitCoverage) r.hit_coverage[r.hit_coverage_count] = uint16_t(bit);
    ++r.hit_coverage_count;
  }
  if (g_seen[bit / 64] & word_bit) return;
  g_seen[bit / 64] |= word_bit;
  if (r.new_coverage_count < ScheduleResults::kMaxNewCoverage) r.new_coverage[r.new_coverage_count] = uint16_t(bit);
  ++r.new_coverage_count;
}

void observe_atomic(uintptr_t addr, uint32_t size, snag_site_t site, Tid tid, bool cas_succeeded) {
  uint64_t value = read_value(addr, size);
  uint32_t slot = uint32_t(mix64(addr)) % kAtomicSlots;
  for (uint32_t probes = 0; probes < kAtomicSlots; ++probes, slot = (slot + 1) % kAtomicSlots) {
    AtomicValue &a = g_atomics[slot];
    if (a.addr != addr && a.addr != 0) continue;
    bool known = a.addr == addr;
    // The compare-exchange found the value this thread last saw (it
    // succeeded on it), yet the location changed since: other threads
    // changed it and changed it back.
    if (cas_succeeded && known && tid < kThreadsSeen && a.seen_version[tid] != 0 &&
        a.seen_version[tid] != a.version && a.seen_value[tid] == a.value)
      mark(site * kSiteMultiplier ^ kAbaTag);
    uint64_t before = known ? mix64(addr ^ mix64(a.value)) : 0;
    if (!known) a.addr = addr, a.version = 1;
    else if (a.value != value) ++a.version;
    a.value = value;
    if (tid < kThreadsSeen) a.seen_version[tid] = a.version, a.seen_value[tid] = value;
    g_state_hash += mix64(addr ^ mix64(value)) - before;
    break;
  }
  mark(site * kSiteMultiplier ^ g_state_hash);
}

// The store announced by coverage_atomic_store, not yet observed (addr 0:
// none). Without it a Push's store of a node's next index, which overwrites
// what a popper left there, changed no point's state until some thread next
// touched the location (SCTBench's safestack).
struct PendingStore {
  uintptr_t addr;
  uint32_t size;
  snag_site_t site;
  Tid tid;
};
PendingStore g_pending_store;

}  // namespace

void coverage_atomic_store(uintptr_t addr, uint32_t size, snag_site_t site, Tid tid) {
  if (!in_forked_child()) return;
  coverage_take_store();
  g_pending_store = {addr, size, site, tid};
}

void coverage_take_store() {
  if (g_pending_store.addr == 0) return;
  PendingStore s = g_pending_store;
  g_pending_store.addr = 0;
  observe_atomic(s.addr, s.size, s.site, s.tid, false);
}

void coverage_atomic(uintptr_t addr, uint32_t size, snag_site_t site, Tid tid, bool cas_succeeded) {
  if (!in_forked_child()) return;
  coverage_take_store();
  observe_atomic(addr, size, site, tid, cas_succeeded);
}

// The access's own value is not read: the access may be the program's
// faulting one, whose crash must stay the program's (and replay the same).
void coverage_access(snag_site_t site) {
  if (!in_forked_child()) return;
  coverage_take_store();
  mark(site * kSiteMultiplier ^ g_state_hash ^ kAccessTag);
}

uint32_t coverage_learn(const ScheduleResults &r) {
  uint32_t n = r.new_coverage_count < ScheduleResults::kMaxNewCoverage ? r.new_coverage_count
                                                                        : ScheduleResults::kMaxNewCoverage;
  // Every reported point is new: the map does not change between a child's
  // fork and this (one schedule at a time).
  for (uint32_t i = 0; i < n; ++i) g_seen[r.new_coverage[i] / 64] |= uint64_t(1) << (r.new_coverage[i] % 64);
  uint32_t hit = r.hit_coverage_count < ScheduleResults::kMaxHitCoverage ? r.hit_coverage_count
                                                                          : ScheduleResults::kMaxHitCoverage;
  for (uint32_t i = 0; i < hit; ++i)
    if (g_hits[r.hit_coverage[i]] != ~uint32_t(0)) ++g_hits[r.hit_coverage[i]];
  return r.new_coverage_count;
}

uint32_t coverage_hits(uint16_t point) { return g_hits[point]; }

void coverage_start_schedule_for_test() {
  fill_bytes(g_hit, 0, sizeof g_hit);
  fill_bytes(g_atomics, 0, sizeof g_atomics);
  g_pending_store = {};
  g_state_hash = 0;
}

}  // namespace snag::explore
