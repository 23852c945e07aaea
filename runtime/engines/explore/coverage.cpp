#include "engines/explore/coverage.h"

#include "engines/explore/engine_state.h"
#include "engines/explore/mix.h"

namespace snag::explore {

namespace {

// The fork server's map of the points any schedule reached. A child works
// on its own copy (fork), marking what it reports so that it reports each
// point once.
uint64_t g_seen[kCoverageMapBits / 64];

// The child's atomic variables and their last values, and the running hash
// of them all (a sum, so one variable's change is one subtraction and one
// addition). A schedule with more atomic variables than this hashes the
// first ones it changed.
struct AtomicValue {
  uintptr_t addr;
  uint64_t value;
};
constexpr uint32_t kAtomicSlots = 1024;
AtomicValue g_atomics[kAtomicSlots];
uint64_t g_state_hash = 0;

uint64_t read_value(uintptr_t addr, uint32_t size) {
  uint64_t v = 0;
  __builtin_memcpy(&v, reinterpret_cast<const void *>(addr), size < 8 ? size : 8);
  return v;
}

void mark(uint64_t key) {
  uint32_t bit = uint32_t(mix64(key)) & (kCoverageMapBits - 1);
  uint64_t word_bit = uint64_t(1) << (bit % 64);
  if (g_seen[bit / 64] & word_bit) return;
  g_seen[bit / 64] |= word_bit;
  ScheduleResults &r = results();
  if (r.new_coverage_count < ScheduleResults::kMaxNewCoverage) r.new_coverage[r.new_coverage_count] = uint16_t(bit);
  ++r.new_coverage_count;
}

}  // namespace

void coverage_atomic(uintptr_t addr, uint32_t size, snag_site_t site) {
  if (!in_forked_child()) return;
  uint64_t value = read_value(addr, size);
  uint32_t slot = uint32_t(mix64(addr)) % kAtomicSlots;
  for (uint32_t probes = 0; probes < kAtomicSlots; ++probes, slot = (slot + 1) % kAtomicSlots) {
    AtomicValue &a = g_atomics[slot];
    if (a.addr != addr && a.addr != 0) continue;
    uint64_t before = a.addr ? mix64(addr ^ mix64(a.value)) : 0;
    a.addr = addr;
    a.value = value;
    g_state_hash += mix64(addr ^ mix64(value)) - before;
    break;
  }
  mark(site * 0x9e3779b97f4a7c15ull ^ g_state_hash);
}

// The access's own value is not read: the access may be the program's
// faulting one, whose crash must stay the program's (and replay the same).
void coverage_access(snag_site_t site) {
  if (!in_forked_child()) return;
  mark(site * 0x9e3779b97f4a7c15ull ^ g_state_hash ^ 0x5bd1e995u);
}

uint32_t coverage_learn(const ScheduleResults &r) {
  uint32_t n = r.new_coverage_count < ScheduleResults::kMaxNewCoverage ? r.new_coverage_count
                                                                        : ScheduleResults::kMaxNewCoverage;
  // Every reported point is new: the map does not change between a child's
  // fork and this (one schedule at a time).
  for (uint32_t i = 0; i < n; ++i) g_seen[r.new_coverage[i] / 64] |= uint64_t(1) << (r.new_coverage[i] % 64);
  return r.new_coverage_count;
}

}  // namespace snag::explore
