// Turning a detected race into a finding: both accesses with their stacks,
// sizes, kinds and locks, the threads, the heap block and its allocation
// stack, and RaceTrack's accuracy (granularity and state) as the rank.
#include <atomic>

#include "common/finding_text.h"
#include "engines/race/access_stacks.h"
#include "core/global_symbols.h"
#include "core/internal_alloc.h"
#include "core/spinlock.h"
#include "core/text_buffer.h"
#include "engines/race/clock_slots.h"
#include "engines/race/race_engine.h"

namespace snag::race {

namespace {

struct BenignRange {
  uintptr_t begin, end;
};
constexpr int kMaxBenign = 1024;
BenignRange g_benign[kMaxBenign];
std::atomic<int> g_benign_count{0};
SpinLock g_benign_lock;

std::atomic<uint32_t> g_races_reported{0};

constexpr uint32_t kReportedSlots = 1 << 14;
std::atomic<uint64_t> g_reported_pairs[kReportedSlots];
// report_each_address: reports of a pair of sites on another granule than
// its first report's, at most this many per run (a loop racing over a large
// array would otherwise report every element; explore's race pass keeps 64
// addresses).
constexpr uint32_t kMaxAddressRepeats = 64;
std::atomic<uint32_t> g_address_repeats{0};

// Inserts `key` into the reported set; false if it was there already (or the
// table is full: report again rather than lose one).
bool insert_reported(uint64_t key) {
  if (key == 0) key = 1;
  for (uint32_t i = 0; i < kReportedSlots; ++i) {
    std::atomic<uint64_t> &slot = g_reported_pairs[(key + i) & (kReportedSlots - 1)];
    uint64_t seen = slot.load(std::memory_order_acquire);
    if (seen == key) return false;
    if (seen == 0) {
      if (slot.compare_exchange_strong(seen, key)) return true;
      if (seen == key) return false;
    }
  }
  return true;
}

void describe(char *out, size_t capacity, bool previous, bool write, uintptr_t size,
              uintptr_t addr, Tid thread) {
  TextBuffer address;
  address.add_address(addr);
  text::ThreadRef who;
  who.known = true;
  who.id = thread;
  text::FixedSink sink(out, capacity);
  text::write_access_description(sink, previous, write, size,
                                 text::Str(address.data(), address.size()), who);
}

// The site of a remembered access (0: none).
snag_site_t site_of(const History &h) {
  if (!h.stack) return 0;
  snag_site_t site;
  StackId context;
  access_stack_of(h.stack, &site, &context);
  return site;
}

}  // namespace

void add_benign_range(uintptr_t addr, uintptr_t size) {
  SpinLockGuard guard(g_benign_lock);
  int n = g_benign_count.load(std::memory_order_relaxed);
  if (n == kMaxBenign) return;
  g_benign[n] = {addr, addr + (size ? size : 1)};
  g_benign_count.store(n + 1, std::memory_order_release);
}

uint32_t races_reported() { return g_races_reported.load(std::memory_order_acquire); }

bool is_benign(uintptr_t addr) {
  int n = g_benign_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (addr >= g_benign[i].begin && addr < g_benign[i].end) return true;
  return false;
}

// One report per pair of sites (in either order) per run; with
// report_each_address, one per pair of sites and 8-byte granule (explore's
// race pass: each racy address becomes a scheduling point, and two
// neighbouring variables raced on by the same statements are two
// addresses, one report of the pair without it).
bool RaceEngine::already_reported(snag_site_t a, snag_site_t b, uintptr_t addr) {
  if (a > b) {
    snag_site_t t = a;
    a = b;
    b = t;
  }
  uint64_t key = (a * 0x9e3779b97f4a7c15ull) ^ (b + 0x632be59bd9b4e019ull);
  bool new_pair = insert_reported(key);
  if (!report_each_address_) return !new_pair;
  uint64_t granule_key = key ^ ((addr >> 3) * 0xbf58476d1ce4e5b9ull) ^ 0x94d049bb133111ebull;
  bool new_granule = insert_reported(granule_key);
  if (new_pair) return false;
  if (!new_granule) return true;
  return g_address_repeats.fetch_add(1, std::memory_order_relaxed) >= kMaxAddressRepeats;
}

void RaceEngine::report(ThreadState &t, RaceThread &rt, const Variable &v, const History &h,
                        const Access &a, const char *state) {
  uintptr_t cur_lo = a.addr > v.extent_base() ? a.addr : v.extent_base();
  if (is_benign(cur_lo)) return;
  // A potential race keeps its own entries: a real race on the same lines
  // later in the run is still reported.
  const bool potential = cstr_eq(state, kPotentialState);
  const snag_site_t salt = potential ? 0x5bd1e9955bd1e995ull : 0;
  const snag_site_t h_site = site_of(h);
  if (already_reported(a.site ^ salt, h_site ^ salt, cur_lo)) return;

  Finding *f = new_finding("race", potential ? "potential-data-race" : "data-race");
  f->title = potential ? "potential data race" : "data race";
  bool field = v.level > 0;
  bool sm2 = cstr_eq(state, "Shared-Modify2");
  f->rank = 0.6 + (field ? 0.2 : 0.0) + (sm2 ? 0.1 : 0.0) + (h.stack ? 0.1 : 0.0);
  // Below every real race (those rank 0.6 and up).
  if (potential) f->rank = 0.3 + (field ? 0.1 : 0.0);

  uintptr_t var_end = v.extent_base() + v.extent_size();
  uintptr_t a_end = a.addr + a.size;
  uintptr_t cur_size = (a_end < var_end ? a_end : var_end) - cur_lo;
  FindingSide &current = f->add_side();
  current.role = "current";
  current.thread = t.tid;
  current.has_access = true;
  current.access_address = cur_lo;
  current.access_size = cur_size;
  current.access_kind = a.write ? "write" : "read";
  capture_stack(t.shadow, a.site, &current.stack);
  for (uint32_t i = 0; i < rt.held_count; ++i) {
    const HeldLock &held = rt.held[i];
    if (a.write && !held.write_mode) continue;
    if (current.lock_count < FindingSide::kMaxLocks) {
      FindingLock &l = current.locks[current.lock_count++];
      l.address = held.addr;
      StackTrace context;
      depot_get(held.stack, &context);
      l.stack.depth = 0;
      l.stack.frames[l.stack.depth++] = held.site;
      for (uint32_t k = 0; k < context.depth && l.stack.depth < kMaxStackFrames; ++k)
        l.stack.frames[l.stack.depth++] = context.frames[k];
    }
  }
  describe(current.description, sizeof current.description, false, a.write, cur_size, cur_lo, t.tid);

  if (h.stack) {
    FindingSide &prev = f->add_side();
    prev.role = "previous";
    prev.thread = thread_of_slot(h.thread, h.clock);
    prev.has_access = true;
    prev.access_address = v.extent_base() + h.offset;
    prev.access_size = h.size;
    prev.access_kind = h.write ? "write" : "read";
    access_stack_trace(h.stack, &prev.stack);
    uintptr_t locks[kMaxLocksInSet];
    uint32_t n = lockset_members(h.lockset, locks);
    for (uint32_t i = 0; i < n && prev.lock_count < FindingSide::kMaxLocks; ++i)
      prev.locks[prev.lock_count++].address = locks[i];
    describe(prev.description, sizeof prev.description, true, h.write, h.size, v.extent_base() + h.offset,
             prev.thread);
  }

  HeapBlock *block = v.block ? allocation_of(v.block) : find_heap_block(cur_lo);
  if (block) {
    f->has_heap = true;
    f->heap_address = block->start;
    f->heap_size = block_size(block);
    f->heap_thread = block_allocation_thread(block);
    depot_get(block_allocation_stack(block), &f->heap_stack);
  } else {
    GlobalSymbol global;
    if (find_global_symbol(cur_lo, &global)) {
      copy_text(f->global_name, sizeof f->global_name, global.name);
      f->global_address = global.address;
      f->global_size = global.size;
    }
  }

  TextBuffer message;
  message.add(a.write ? "write" : "read").add(" by ");
  message.add(t.tid == 0 ? "main thread" : "thread T");
  if (t.tid) message.add_u64(t.tid);
  if (h.stack) {
    message.add(" races with ").add(h.write ? "write" : "read").add(" by ");
    Tid previous = thread_of_slot(h.thread, h.clock);
    message.add(previous == 0 ? "main thread" : "thread T");
    if (previous) message.add_u64(previous);
  }
  message.add(" at ").add_address(cur_lo).add('\0');
  copy_text(f->message, sizeof f->message, message.data());
  f->add_detail("accuracy", field ? "field" : "object");
  f->add_detail("state", state);
  if (potential)
    f->add_detail("potential", "no common lock; ordered in this run only by the order the threads took a lock");
  g_races_reported.fetch_add(1, std::memory_order_release);
  report_finding(f);
}

}  // namespace snag::race
