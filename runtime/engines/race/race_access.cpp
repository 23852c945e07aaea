// The per-access half of the race engine: RaceTrack's state machine over
// heap blocks, granules and bytes (paper section 2.4, figure 4).
#include "engines/race/race_engine.h"

#include <new>

#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/prefetch.h"
#include "core/runtime.h"
#include "engines/race/access_stacks.h"
#include "engines/race/fast_path.h"
#include "engines/race/recent_frees.h"
#include "engines/race/state_records.h"

namespace snag::race {

namespace {

// Another thread is rewriting the variable's history (kBusyWord): that takes
// a few stores, unless the thread was preempted in between.
void yield_while_busy(const std::atomic<uint64_t> &state) {
  for (unsigned spins = 0; state.load(std::memory_order_acquire) == kBusyWord; ++spins)
    if (spins > 64) raw_syscall(SYS_sched_yield);
}

// The bytes of `a` that fall inside [base, base + size), relative to base.
struct Span {
  uint32_t offset;
  uint32_t size;
};

Span clip(const Access &a, uintptr_t base, uintptr_t size) {
  uintptr_t lo = a.addr > base ? a.addr : base;
  uintptr_t end = a.addr + a.size, var_end = base + size;
  uintptr_t hi = end < var_end ? end : var_end;
  return {static_cast<uint32_t>(lo - base), static_cast<uint32_t>(hi > lo ? hi - lo : 0)};
}

bool overlaps(uint32_t a_off, uint32_t a_size, uint32_t b_off, uint32_t b_size) {
  return a_off < b_off + b_size && b_off < a_off + a_size;
}

bool is_concurrent(const History &h, const RaceThread &rt, Tid me) {
  return h.stack != 0 && h.thread != me && h.clock > rt.clock.get(h.thread);
}

// The remembered access the current one conflicts with, if it is not
// ordered before it: a write for a read; a write, or else a read, for a write.
const History *conflicting(const Histories &hs, bool write, const RaceThread &rt, Tid me) {
  if (is_concurrent(hs.write, rt, me)) return &hs.write;
  if (write && is_concurrent(hs.read, rt, me)) return &hs.read;
  if (write && is_concurrent(hs.other_read, rt, me)) return &hs.other_read;
  return nullptr;
}

// A remembered access to show as the other side of a race found through the
// state word alone (the owner's access in this epoch).
const History &latest(const Histories &hs, Tid owner) {
  if (hs.write.stack && hs.write.thread == owner) return hs.write;
  if (hs.read.stack && hs.read.thread == owner) return hs.read;
  return hs.other_read.stack && hs.other_read.thread == owner ? hs.other_read : hs.write;
}


// Whether an access touching `touched` bytes of a variable in state `w`
// leaves it Exclusive (*nw: its next state): the first access (Virgin), the
// owner again, or a hand-off that happens-after the owner's access, over
// bytes the owner touched (else the granule splits). False for every other
// state.
SNAG_ALWAYS_INLINE bool still_exclusive(const RaceThread &rt, uint64_t w, uint32_t touched, bool write,
                                        uint64_t *nw) {
  Kind k = kind_of(w);
  if (k == Kind::kVirgin) {
    *nw = exclusive_word(Kind::kExclusive0, rt.slot, rt.now, write, touched);
    return true;
  }
  if (k != Kind::kExclusive0 && k != Kind::kExclusive1 && k != Kind::kExclusive2) return false;
  if ((bytes_of(w) & touched) == 0) return false;
  const Tid u = tid_of(w), me = wrap_tid(rt.slot);
  const Clock c = clock_of(w);
  if (u != me && c > rt.clock.get(u)) return false;  // concurrent with the owner
  if (u != me && k == Kind::kExclusive0) k = Kind::kExclusive1;
  const bool same_epoch = u == me && c == rt.now;
  *nw = exclusive_word(k, rt.slot, rt.now, write || (same_epoch && wrote(w)),
                       same_epoch ? (bytes_of(w) | touched) : touched);
  return true;
}

const SharedModify2Record *make_sm2(LocksetId lockset, const ThreadsetEntry *entries, uint32_t count) {
  auto *r = static_cast<SharedModify2Record *>(
      internal_alloc(sizeof(SharedModify2Record) + sizeof(ThreadsetEntry) * count));
  r->lockset = lockset;
  r->count = count;
  for (uint32_t i = 0; i < count; ++i) r->entries[i] = entries[i];
  return r;
}

// Whether state w becomes nw by rewriting the accessing thread's entry of
// w's threadset record in place (the same record, a new version).
bool rewrites_threadset(uint64_t w, uint64_t nw) {
  return kind_of(w) == Kind::kSharedModify2 && w != nw && kind_of(nw) == Kind::kSharedModify2 &&
         pointer_of(w) == pointer_of(nw);
}

// That rewrite, by the thread that claimed the state (kBusyWord): nobody
// else writes the record meanwhile, and it is still the word's.
void store_own_entry(uint64_t w, Tid me, Clock now) {
  auto *rec = static_cast<SharedModify2Record *>(pointer_of(w));
  for (uint32_t i = 0; i < rec->count; ++i)
    if (rec->entries[i].thread == me) store_entry(rec->entries[i], {me, now});
}

// Moving the shadow stack's mark to `depth`. The mark serves both caches
// of the calling context: what it says of the frames since it was last
// moved is kept in each first (the per-depth contexts below the old mark
// stay the frames', the others may not; the deep context stays only if
// its frames below the top are all below the old mark).
SNAG_ALWAYS_INLINE void move_mark(ShadowStack &s, RaceThread &rt, uint32_t depth) {
  const uint32_t lowest = s.lowest_since_mark;
  if (lowest < rt.contexts_valid) rt.contexts_valid = lowest;
  if (lowest + 1 < rt.context_depth) rt.context_depth = ~0u;
  s.lowest_since_mark = depth;
}

// The capture of a deep stack when its top frame moved, out of line: its 0.5 KiB trace on
// the stack cost every caller (each history entry written) a frame of that
// size while the cached context answered almost every call.
__attribute__((noinline)) StackId capture_context(ShadowStack &s, RaceThread &rt, uint32_t depth,
                                                  uintptr_t frame, snag_site_t call) {
  StackTrace trace;
  capture_stack(s, 0, &trace);
  move_mark(s, rt, depth);
  rt.context = depot_put(trace);
  rt.context_depth = depth;
  rt.context_frame = frame;
  rt.context_call = call;
  return rt.context;
}

// The context of `parent`'s frames with a frame called from `site` above
// them, as capture_stack would give it (a parent of fewer than
// kMaxStackFrames frames: nothing is cut off).
StackId context_step(RaceThread &rt, StackId parent, snag_site_t site) {
  if (site == 0) return parent;  // capture_stack skips such frames
  const uint64_t key = (site ^ (uint64_t(parent) << 32)) * 0x9e3779b97f4a7c15ull;
  RaceThread::ContextStep &step = rt.context_steps[key >> (64 - RaceThread::kContextStepBits)];
  if (step.site == site && step.parent == parent && step.context) return step.context;
  StackTrace trace;
  depot_get(parent, &trace);
  for (uint32_t i = trace.depth; i > 0; --i) trace.frames[i] = trace.frames[i - 1];
  trace.frames[0] = site;
  ++trace.depth;
  step = {site, parent, depot_put(trace)};
  return step.context;
}

// cached_context from frame `from` on (below `depth`, at most
// kContextDepths), whose call site is not the one its context was made
// for: each context from there up made again from the one below it.
__attribute__((noinline)) StackId remake_contexts(ShadowStack &s, RaceThread &rt, uint32_t from,
                                                  uint32_t depth) {
  for (uint32_t i = from; i < depth; ++i) {
    const snag_site_t site = s.frames[i].call_site;
    rt.contexts[i] = context_step(rt, i ? rt.contexts[i - 1] : 0, site);
    rt.context_sites[i] = site;
  }
  // The contexts above were made on the old ones.
  rt.contexts_made = depth;
  move_mark(s, rt, depth);
  rt.contexts_valid = depth;
  return rt.contexts[depth - 1];
}

// The top frame is the cached one's, but the thread returned below its
// caller since: main -> a -> f and main -> b -> f can put f at the same
// depth and address, called from the same site in a function both call.
// Checking the frames is cheaper than a new capture, and usually they match.
__attribute__((noinline)) StackId confirm_context(ShadowStack &s, RaceThread &rt, uint32_t depth,
                                                  uintptr_t frame, snag_site_t call) {
  if (!depot_holds(rt.context, s, 0)) return capture_context(s, rt, depth, frame, call);
  move_mark(s, rt, depth);
  rt.context_depth = depth;  // confirmed: its frames are the current ones
  return rt.context;
}

// RaceEngine::context_stack, inlined into the history path: the calling
// context's stack id, cached while the shadow stack's top frame and the
// frames below it stay.
SNAG_ALWAYS_INLINE StackId cached_context(ThreadState &t, RaceThread &rt) {
  ShadowStack &s = t.shadow;
  uint32_t depth = s.depth;
  if (SNAG_LIKELY(depth - 1 < RaceThread::kContextDepths && s.frames)) {
    uint32_t valid = rt.contexts_valid < s.lowest_since_mark ? rt.contexts_valid : s.lowest_since_mark;
    if (SNAG_LIKELY(depth <= valid)) return rt.contexts[depth - 1];
    // The frames from `valid` up may have changed since their contexts
    // were made: each context holds while its frame's call site is the one
    // it was made for (the context below it holding too). A thread that
    // returned and called the same function again (a loop calling
    // to_string, operator+, push_back, each allocating) finds them so.
    const uint32_t made = rt.contexts_made < depth ? rt.contexts_made : depth;
    while (valid < made && rt.context_sites[valid] == s.frames[valid].call_site) ++valid;
    if (SNAG_UNLIKELY(valid < depth)) return remake_contexts(s, rt, valid, depth);
    move_mark(s, rt, depth);
    rt.contexts_valid = depth;
    return rt.contexts[depth - 1];
  }
  uintptr_t frame = 0;
  snag_site_t call = 0;
  if (s.frames && depth > 0 && depth <= ShadowStack::kCapacity) {
    frame = s.frames[depth - 1].frame;
    call = s.frames[depth - 1].call_site;
  }
  if (SNAG_UNLIKELY(depth != rt.context_depth || frame != rt.context_frame || call != rt.context_call))
    return capture_context(s, rt, depth, frame, call);
  if (SNAG_UNLIKELY(s.lowest_since_mark + 1 < depth)) return confirm_context(s, rt, depth, frame, call);
  return rt.context;
}

}  // namespace

StackId RaceEngine::context_stack(ThreadState &t, RaceThread &rt) { return cached_context(t, rt); }

namespace {
// cached_context where it answers without a call: false where cached_context
// would make or confirm a context out of line (remake_contexts,
// capture_context, confirm_context), having changed nothing then, so that
// the caller can leave the access to a path that calls (renew_own: a call
// here would give it a frame of saved registers on every renewal).
SNAG_ALWAYS_INLINE bool context_without_call(ThreadState &t, RaceThread &rt, StackId *context) {
  ShadowStack &s = t.shadow;
  const uint32_t depth = s.depth;
  if (SNAG_LIKELY(depth - 1 < RaceThread::kContextDepths && s.frames)) {
    uint32_t valid = rt.contexts_valid < s.lowest_since_mark ? rt.contexts_valid : s.lowest_since_mark;
    if (SNAG_LIKELY(depth <= valid)) {
      *context = rt.contexts[depth - 1];
      return true;
    }
    const uint32_t made = rt.contexts_made < depth ? rt.contexts_made : depth;
    while (valid < made && rt.context_sites[valid] == s.frames[valid].call_site) ++valid;
    if (SNAG_UNLIKELY(valid < depth)) return false;
    move_mark(s, rt, depth);
    rt.contexts_valid = depth;
    *context = rt.contexts[depth - 1];
    return true;
  }
  uintptr_t frame = 0;
  snag_site_t call = 0;
  if (s.frames && depth > 0 && depth <= ShadowStack::kCapacity) {
    frame = s.frames[depth - 1].frame;
    call = s.frames[depth - 1].call_site;
  }
  if (SNAG_UNLIKELY(depth != rt.context_depth || frame != rt.context_frame || call != rt.context_call ||
                    s.lowest_since_mark + 1 < depth))
    return false;
  *context = rt.context;
  return true;
}
}  // namespace


SNAG_ALWAYS_INLINE uint32_t RaceEngine::access_stack(ThreadState &t, RaceThread &rt, snag_site_t site) {
  const StackId context = cached_context(t, rt);
  return rt.site_stacks.get(site, context, intern_access_stack);
}

// The depot id of the stack a block allocated at `site` is born with, as
// depot_put(capture_stack(t.shadow, site)) gives it. That stack is `site`
// above the calling context's frames, so it is a function of the site and
// the context's id (cached_context: exact, and the accesses around an
// allocation ask it anyway): the id this thread got last for the same pair
// is taken without a capture, a hash or the depot. Most allocations come
// from a few places with the same stacks (task_graph: a million blocks);
// comparing the depot's copy with the shadow stack frame by frame (before)
// cost about 110 instructions per allocation. Exact also for stacks deeper
// than a trace keeps: the context's trace holds every frame the
// allocation's does.
StackId RaceEngine::allocation_stack(ThreadState &t, RaceThread &rt, snag_site_t site) {
  const StackId context = cached_context(t, rt);
  const uint64_t key = (site ^ (uint64_t(context) << 32)) * 0x9e3779b97f4a7c15ull;
  RaceThread::AllocStack &entry = rt.alloc_stacks[key >> (64 - RaceThread::kAllocStackBits)];
  if (entry.stack && entry.site == site && entry.context == context) return entry.stack;
  StackTrace trace;
  capture_stack(t.shadow, site, &trace);
  entry = {site, context, depot_put(trace)};
  return entry.stack;
}

// Inlined into settle, its one caller, with the two lookups under it (the
// cached context, the site's stack id): three calls per history entry
// written before (short_lived_locks: 12 million entries).
SNAG_ALWAYS_INLINE History RaceEngine::history_of(ThreadState &t, RaceThread &rt, const Variable &v,
                                                  const Access &a) {
  Span span = clip(a, v.extent_base(), v.extent_size());
  return history_entry(access_stack(t, rt, a.site ? a.site : 1), a.write ? rt.lockset_write : rt.lockset_all,
                       rt.slot, rt.now, span.offset, span.size, a.write);
}

void RaceEngine::publish_fast_path(const RaceThread &rt, Tid self) {
  // Only while the race engine is the one engine that wants accesses: the
  // fast path must never hide an access from another engine.
  bool alone = g_access_hook == &RaceEngine::on_access;
  t_fast_path.epoch_word = alone ? exclusive_word(Kind::kVirgin, self, rt.now, false, 0) : 0;
  t_fast_path.lockset_all = rt.lockset_all;
  t_fast_path.lockset_write = rt.lockset_write;
}

// The compiler hooks try the fast path before they call here; interceptors
// that report memory (libc_memory, fd_io) and atomics come here directly.
void RaceEngine::on_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                           snag_site_t site) {
  bool write = (flags & kAccessWrite) != 0;
  // The compiler hooks asked the inlined half and the split granule's bytes
  // already (kAccessQuickAsked); the interceptors and atomics ask them here.
  const bool hooked = (flags & kAccessQuickAsked) != 0;
  if (!hooked) {
    uint64_t seen;
    if (access_quickly_needs_no_work(addr, size, write, &seen)) return;
    // The hooks ask the renewal themselves (core/hooks.cpp).
    if (seen && renew(t, addr, size, write, site, seen)) return;
  }
  RaceThread &data = g_race->thread_data(t);
  data.published = data.now;
  const Access a{addr, size, write, site};
  if (g_race->access_exclusive_again(t, data, a) || g_race->range_owner_again(a) || g_race->renew_range(t, data, a))
    return;
  if (access_slowly_needs_no_work(addr, size, write, hooked ? SplitGranules::kAskedAlready : SplitGranules::kAsk))
    return;
  RuntimeScope scope(&t);
  g_race->access_slow(t, data, a);
  publish_fast_path(data, data.slot);
}

// The commonest slow-path access, without the rest of the slow path: inside
// one granule whose word is Exclusive, or points at a coarse block whose
// state is Virgin or Exclusive, and that stays Exclusive (still_exclusive):
// the owner in a new epoch (each of its variables once after every unlock),
// a hand-off ordered by a lock, or a new block's first access. What access_slow would do with it (access_variable's
// Exclusive case and settle), with the lookups done once and no other state
// considered (pipeline, lock_hash_map: 8-11 million accesses, half of them
// hand-offs or new epochs). False when the state is anything else or
// changed under us: the caller takes the slow path.
bool RaceEngine::access_exclusive_again(ThreadState &t, RaceThread &rt, const Access &a) {
  if (potential_ || !fast_path_answers(a.addr, a.size)) return false;
  std::atomic<uint64_t> *cell = find_cell(a.addr);
  if (!cell) return false;
  uint64_t word = cell->load(std::memory_order_acquire);
  Variable v;
  Histories copy;           // v's histories when packed (settle reads them packed)
  uint32_t touched = 0xff;  // a block counts whole
  if (word == 0) {
    // A granule of a coarse block's page, untouched: from now on its word
    // points at the block, as access_slow would make it. Not for a block of
    // kWordsWrittenBelow or more, whose granules keep no words while its state needs no
    // work (untouched_granule_needs_no_work: no shadow for a huge buffer).
    ShadowPage *page = find_shadow_page(a.addr);
    HeapBlock *block = page ? page->block.load(std::memory_order_acquire) : nullptr;
    if (!block || block_size(block) >= kWordsWrittenBelow || block->fine.load(std::memory_order_acquire))
      return false;
    const uint64_t coarse = pointer_word(Kind::kIndirect, block);
    if (!cell->compare_exchange_strong(word, coarse) && word != coarse) return false;
    word = coarse;
  }
  if (HeapBlock *block = block_of_word(word)) {
    if (block->fine.load(std::memory_order_acquire) || a.addr < block->start ||
        a.addr + a.size > block_end(block))
      return false;
    v = block_variable(block, &copy);
  } else {
    Kind k = kind_of(word);
    if (k != Kind::kExclusive0 && k != Kind::kExclusive1 && k != Kind::kExclusive2) return false;
    prefetch_for_write(cell);  // as in access_plain_granule: it changes
    ShadowPage *page = find_shadow_page(a.addr);
    PackedHistories *histories = page ? find_history(page, a.addr) : nullptr;
    if (!histories) return false;
    v = small_variable(cell, histories, &copy, a.addr & ~(kGranule - 1), 1);
    touched = ((1u << a.size) - 1) << (a.addr & (kGranule - 1));
  }
  // The history slot this access fills: after a hand-off another core wrote
  // it last (access_plain_granule).
  if (v.packed) prefetch_for_write(a.write ? &v.packed->write : &v.packed->read);
  else if (!v.thin) prefetch_for_write(a.write ? &v.history->write : &v.history->read);
  const uint64_t w = v.state->load(std::memory_order_acquire);
  uint64_t nw;
  if (!still_exclusive(rt, w, touched, a.write, &nw)) return false;
  RuntimeScope scope(&t);
  if (!settle(t, rt, v, a, w, nw)) return false;
  if (v.block) remember_block(v.block);
  return true;
}

// renew's part for a coarse block (or chunk) `block` (null: not one), for an
// access of `size` bytes at `addr` inside it: a single one or a range
// (renew_range). What access_variable and settle do with an access to the
// block whose state stays Exclusive.
SNAG_ALWAYS_INLINE bool RaceEngine::renew_block(ThreadState &t, RaceThread &rt, HeapBlock *block, uintptr_t addr,
                                                uintptr_t size, bool write, snag_site_t site) {
  if (!block || block->fine.load(std::memory_order_acquire) || addr < block->start ||
      addr + size > block_end(block))
    return false;
  // The form once, as block_variable reads it: a wide record stays wide, a
  // packed one packed; a thin one may spill, which set_block_slot follows.
  const RecordForm form = record_form(block);
  std::atomic<uint64_t> &state = block->state;
  uint64_t w = state.load(std::memory_order_acquire);
  uint64_t nw;
  if (!still_exclusive(rt, w, 0xff, write, &nw) || nw == w) return false;
  const uint32_t offset = static_cast<uint32_t>(addr - block->start);
  const LocksetId held = write ? rt.lockset_write : rt.lockset_all;
  RuntimeScope scope(&t);
  const uint32_t stack = access_stack(t, rt, site ? site : 1);
  if (form == RecordForm::kWide) {
    const History entry = history_entry(stack, held, rt.slot, rt.now, offset, size, write);
    if (!state.compare_exchange_strong(w, kBusyWord)) return false;
    history_slot(*static_cast<Histories *>(record_histories(block)), write, rt.slot) = entry;
  } else {
    // A packed or thin record's block is at most kPackedVariableBytes long.
    const PackedHistory entry = pack_entry(stack, held, rt.slot, rt.now, offset, static_cast<uint32_t>(size));
    if (!state.compare_exchange_strong(w, kBusyWord)) return false;
    if (form == RecordForm::kPacked) history_slot(*packed_histories(block), write, rt.slot) = entry;
    else set_block_slot(block, write, rt.slot, entry);
  }
  state.store(nw, std::memory_order_release);
  remember_block(block);
  return true;
}

// An access over more than one granule inside one coarse block whose state
// stays Exclusive (a new block's constructor clearing it, a string copied
// into the thread's own block in a new epoch): the block renewed as renew
// does it, where access_slow took ~800 instructions to come to the same
// (short_lived_locks: each new object's memset, 1 million). Like the other
// shortcuts only while the fast path is on (the race engine the one engine
// that wants accesses). False, having changed nothing, otherwise.
bool RaceEngine::renew_range(ThreadState &t, RaceThread &rt, const Access &a) {
  if (potential_ || !t_fast_path.epoch_word || a.size == 0 || a.addr + a.size < a.addr ||
      ((a.addr ^ (a.addr + a.size - 1)) & ~(kGranule - 1)) == 0)
    return false;
  std::atomic<uint64_t> *cell = find_cell(a.addr);
  if (!cell) return false;
  return renew_block(t, rt, block_of_word(cell->load(std::memory_order_acquire)), a.addr, a.size, a.write, a.site);
}

// The renewal, given the state word the fast path loaded for this access
// (`seen`: nonzero only for an access inside one granule, with the fast
// path on) and nothing else: the commonest miss of pipeline and
// short_lived_locks (~11 million each, §37 of bench/results/race_bench.txt),
// an Exclusive granule or coarse block that stays Exclusive (its owner in a
// newer epoch, or writing after a read in this one, or a lock-ordered
// hand-off: still_exclusive), or a coarse block's first access, whose
// change therefore always remembers the access.
// What access_exclusive_again and settle do with such an access, in one
// function that does not look the word up again, builds the packed history
// slot straight from the access (pack_entry) and keeps the one claim
// (compare-and-swap to kBusyWord) that orders the slot's rewrite: pipeline's
// miss path went from ~435 instructions per call to ~258 (bench/results §39).
// False, having changed nothing, for anything
// else (a Virgin or shared word, a split granule, a fine block, an access
// over bytes the owner did not touch, potential=1, a state changed under
// us): the caller takes on_access's path, which asks again from the start.
SNAG_ALWAYS_INLINE bool RaceEngine::renew_inline(ThreadState &t, uintptr_t addr, uintptr_t size, bool write,
                                                 snag_site_t site, uint64_t seen) {
  RaceEngine &engine = *g_race;
  auto *data = static_cast<RaceThread *>(t.engine_data[kRaceSlot]);
  if (SNAG_UNLIKELY(!data || engine.potential_)) return false;
  RaceThread &rt = *data;
  rt.published = rt.now;
  SNAG_DEBUG_ASSERT(size >= 1 && size <= kGranule && (addr & (kGranule - 1)) + size <= kGranule,
                    "a word seen by the fast path is of an access inside one granule");
  const Kind k = kind_of(seen);
  if (k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2) {
    std::atomic<uint64_t> *cell = find_cell(addr);
    if (SNAG_UNLIKELY(!cell)) return false;
    const uint32_t offset = static_cast<uint32_t>(addr & (kGranule - 1));
    uint64_t nw;
    if (!still_exclusive(rt, seen, ((1u << size) - 1) << offset, write, &nw) || nw == seen) return false;
    // After a hand-off the word's and the slot's lines were written last by
    // another core (access_exclusive_again).
    prefetch_for_write(cell);
    ShadowPage *page = find_shadow_page(addr);
    PackedHistories *histories = page ? find_history(page, addr) : nullptr;
    if (SNAG_UNLIKELY(!histories)) return false;
    prefetch_for_write(write ? &histories->write : &histories->read);
    RuntimeScope scope(&t);
    const PackedHistory entry = pack_entry(engine.access_stack(t, rt, site ? site : 1),
                                           write ? rt.lockset_write : rt.lockset_all, rt.slot, rt.now,
                                           offset, static_cast<uint32_t>(size));
    if (!cell->compare_exchange_strong(seen, kBusyWord)) return false;
    history_slot(*histories, write, rt.slot) = entry;
    cell->store(nw, std::memory_order_release);
    return true;
  }
  return engine.renew_block(t, rt, block_of_word(seen), addr, size, write, site);
}

bool RaceEngine::renew(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site,
                       uint64_t seen) {
  return renew_inline(t, addr, size, write, site, seen);
}

// The renewal inlined here, not called: a call would make this function keep
// its arguments across it for the hook, in a frame of its own (pipeline: +20
// instructions per renewal).
void RaceEngine::renew_or_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                               uint64_t seen) {
  if (renew_inline(t, addr, size, (flags & kAccessWrite) != 0, site, seen)) return;
  g_access_hook(t, addr, size, flags | kAccessQuickAsked, site);
}

void renew_after_fast_path(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                           uint64_t seen) {
  RaceEngine::renew_or_hook(t, addr, size, flags, site, seen);
}

// What engine_after_fast_path (core/hooks.cpp) does for an access whose
// thread had no ThreadState yet (current_thread adopts it), out of line of
// renew_own.
__attribute__((noinline)) void renew_adopting(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                              uint64_t seen) {
  ThreadState *t = current_thread();
  if (t->in_runtime | ((flags & kAccessWrite) ? t->ignore_writes : t->ignore_reads)) return;
  RaceEngine::renew_or_hook(*t, addr, size, flags, site, seen);
}

// The owner's renewal of its Exclusive granule (own_exclusive_word: the
// word's thread is the caller's), entered from the hooks straight after
// their check (renew_own_after_fast_path), in place of
// access_after_fast_path -> engine_after_fast_path -> renew_or_hook. It does
// what those do for this case (renew_inline's granule branch, with
// still_exclusive's owner case) with the same claim, slot and word, so the
// state and histories it leaves are the same; it asks nothing they do not.
// What makes it cheaper: no chain of frames, no general dispatch, and no
// call on its path -- a context or site stack the thread's caches do not
// hold, or anything unusual, is left (before anything changed) to
// renew_or_hook, which calls what it needs -- so it keeps its values in
// the registers a call clobbers and saves none. pipeline: 8.5 million such
// renewals, the deque's and the unique_lock's granules touched again after
// every unlock's or signal's tick, inside the queue's critical sections
// (race_bench.txt sections 76, 81, 92, 96).
SNAG_ALWAYS_INLINE void RaceEngine::renew_own(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                              uint64_t seen) {
  const AccessHook hook = g_access_hook;
  if (SNAG_UNLIKELY(!hook)) return;
  ThreadState *tp = t_current;
  if (SNAG_UNLIKELY(!tp)) return renew_adopting(addr, size, flags, site, seen);
  ThreadState &t = *tp;
  const bool write = (flags & kAccessWrite) != 0;
  if (SNAG_UNLIKELY(t.in_runtime | (write ? t.ignore_writes : t.ignore_reads))) return;
  renew_own_of(t, addr, size, flags, site, seen, hook);
}

// renew_own's work once the thread is known and takes the access (also the
// sync hook's reads of an object's own memory: read_object,
// touch_lock_in_use, inside the runtime scope it holds).
SNAG_ALWAYS_INLINE void RaceEngine::renew_own_of(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                                                 snag_site_t site, uint64_t seen, AccessHook hook) {
  const bool write = (flags & kAccessWrite) != 0;
  auto *data = static_cast<RaceThread *>(t.engine_data[kRaceSlot]);
  if (SNAG_UNLIKELY(!data || g_race->potential_)) return renew_or_hook(t, addr, size, flags, site, seen);
  RaceThread &rt = *data;
  rt.published = rt.now;
  // still_exclusive for the owner (u == me): the kind stays.
  // (A whole granule's access lies at its start: fast_path_answers.)
  const uint32_t offset = size == kGranule ? 0 : static_cast<uint32_t>(addr & (kGranule - 1));
  const uint32_t touched = ((1u << size) - 1) << offset;
  const bool same_epoch = clock_of(seen) == rt.now;
  const uint64_t nw = exclusive_word(kind_of(seen), rt.slot, rt.now, write || (same_epoch && wrote(seen)),
                                     same_epoch ? (bytes_of(seen) | touched) : touched);
  std::atomic<uint64_t> *cell = find_cell(addr);
  if (SNAG_UNLIKELY(tid_of(seen) != wrap_tid(rt.slot) || (bytes_of(seen) & touched) == 0 || nw == seen ||
                    !cell))
    return renew_or_hook(t, addr, size, flags, site, seen);
  prefetch_for_write(cell);
  ShadowPage *page = find_shadow_page(addr);
  PackedHistories *histories = page ? find_history(page, addr) : nullptr;
  StackId context;
  if (SNAG_UNLIKELY(!histories || !context_without_call(t, rt, &context)))
    return renew_or_hook(t, addr, size, flags, site, seen);
  prefetch_for_write(write ? &histories->write : &histories->read);
  const uint32_t stack = rt.site_stacks.find(site ? site : 1, context);
  if (SNAG_UNLIKELY(!stack)) return renew_or_hook(t, addr, size, flags, site, seen);
  const PackedHistory entry = pack_entry(stack, write ? rt.lockset_write : rt.lockset_all, rt.slot, rt.now,
                                         offset, static_cast<uint32_t>(size));
  uint64_t expected = seen;
  // In the runtime while the word is claimed: a signal handler's access
  // to this granule must not wait on it.
  ++t.in_runtime;
  if (SNAG_UNLIKELY(!cell->compare_exchange_strong(expected, kBusyWord))) {
    --t.in_runtime;
    return hook(t, addr, size, flags | kAccessQuickAsked, site);  // as renew_or_hook would
  }
  // The slot chosen under the claim: a read's depends on the read slots,
  // which only a claim holder rewrites.
  history_slot(*histories, write, rt.slot) = entry;
  cell->store(nw, std::memory_order_release);
  --t.in_runtime;
}

void renew_own_after_fast_path(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site, uint64_t seen) {
  RaceEngine::renew_own(addr, size, flags, site, seen);
}

// A one-byte read by the sync hook (race_events.cpp), out of line of it.
__attribute__((noinline)) void RaceEngine::renew_own_read1(ThreadState &t, uintptr_t addr, snag_site_t site,
                                                           uint64_t seen) {
  renew_own_of(t, addr, 1, 0, site, seen, g_access_hook);
}

// renew_block's work for a coarse block whose record keeps its histories
// packed or thin (a block of up to 1 KiB: pipeline's items, its deque's
// nodes and map),
// entered from the hooks as renew_own is, for a block word
// (block_word_seen): the owner in a new epoch or a lock-ordered hand-off
// (still_exclusive), the same claim, slot, state and remembered block;
// with no call on its path, anything else left to renew_or_hook before
// anything changed.
SNAG_ALWAYS_INLINE void RaceEngine::renew_packed_block(uintptr_t addr, uintptr_t size, uint32_t flags,
                                                       snag_site_t site, uint64_t seen) {
  const AccessHook hook = g_access_hook;
  if (SNAG_UNLIKELY(!hook)) return;
  ThreadState *tp = t_current;
  if (SNAG_UNLIKELY(!tp)) return renew_adopting(addr, size, flags, site, seen);
  ThreadState &t = *tp;
  const bool write = (flags & kAccessWrite) != 0;
  if (SNAG_UNLIKELY(t.in_runtime | (write ? t.ignore_writes : t.ignore_reads))) return;
  auto *data = static_cast<RaceThread *>(t.engine_data[kRaceSlot]);
  if (SNAG_UNLIKELY(!data || g_race->potential_)) return renew_or_hook(t, addr, size, flags, site, seen);
  RaceThread &rt = *data;
  rt.published = rt.now;
  HeapBlock *block = static_cast<HeapBlock *>(pointer_of(seen));
  // The form once, as renew_block reads it: a packed record stays packed, a
  // thin one may spill, which set_block_slot follows.
  const RecordForm form = record_form(block);
  if (SNAG_UNLIKELY(block->fine.load(std::memory_order_acquire) || addr < block->start ||
                    addr + size > block_end(block) || form == RecordForm::kWide))
    return renew_or_hook(t, addr, size, flags, site, seen);
  std::atomic<uint64_t> &state = block->state;
  uint64_t w = state.load(std::memory_order_acquire);
  uint64_t nw;
  StackId context;
  if (SNAG_UNLIKELY(!still_exclusive(rt, w, 0xff, write, &nw) || nw == w ||
                    !context_without_call(t, rt, &context)))
    return renew_or_hook(t, addr, size, flags, site, seen);
  const uint32_t stack = rt.site_stacks.find(site ? site : 1, context);
  if (SNAG_UNLIKELY(!stack)) return renew_or_hook(t, addr, size, flags, site, seen);
  // A packed or thin record's block is at most kPackedVariableBytes long.
  const PackedHistory entry = pack_entry(stack, write ? rt.lockset_write : rt.lockset_all, rt.slot, rt.now,
                                         static_cast<uint32_t>(addr - block->start), static_cast<uint32_t>(size));
  ++t.in_runtime;  // as renew_own
  if (SNAG_UNLIKELY(!state.compare_exchange_strong(w, kBusyWord))) {
    --t.in_runtime;
    return hook(t, addr, size, flags | kAccessQuickAsked, site);  // as renew_or_hook would
  }
  if (form == RecordForm::kPacked)
    history_slot(*static_cast<PackedHistories *>(record_histories(block)), write, rt.slot) = entry;
  else
    set_block_slot(block, write, rt.slot, entry);
  state.store(nw, std::memory_order_release);
  --t.in_runtime;
  remember_block(block);
}

// One per hook (size and kind constant: the bytes, the new word and the
// packed slot mostly folded).
template <uintptr_t kSize, bool kWrite>
void renew_own_after_fast_path(uintptr_t addr, snag_site_t site, uint64_t seen) {
  RaceEngine::renew_own(addr, kSize, kWrite ? uint32_t(kAccessWrite) : 0u, site, seen);
}
template <uintptr_t kSize, bool kWrite>
void renew_block_after_fast_path(uintptr_t addr, snag_site_t site, uint64_t seen) {
  RaceEngine::renew_packed_block(addr, kSize, kWrite ? uint32_t(kAccessWrite) : 0u, site, seen);
}
void renew_block_after_fast_path(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site, uint64_t seen) {
  RaceEngine::renew_packed_block(addr, size, flags, site, seen);
}
template void renew_own_after_fast_path<1, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<1, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<2, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<2, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<4, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<4, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<8, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_own_after_fast_path<8, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<1, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<1, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<2, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<2, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<4, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<4, true>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<8, false>(uintptr_t, snag_site_t, uint64_t);
template void renew_block_after_fast_path<8, true>(uintptr_t, snag_site_t, uint64_t);

// range_owned_again (fast_path.cpp) unless potential=1, whose state machine
// looks at other threads' lock-ordered accesses even when nothing changes.
bool RaceEngine::range_owner_again(const Access &a) const {
  return !potential_ && range_owned_again(a.addr, a.size, a.write);
}

void RaceEngine::access_freed(ThreadState &t, RaceThread &rt, uintptr_t addr, uintptr_t size,
                              snag_site_t site, const HeapBlock *block) {
  // The free of a coarse block its owner wrote in this epoch: every granule
  // of [addr, addr + size) stands for the block (its Indirect word, or
  // Virgin on a whole page), so range_owner_again or access_slow's loop
  // would each find exactly this, one granule at a time (a block allocated,
  // written and freed by one thread between two of its synchronizations:
  // most of task_graph's million frees).
  if (block && !potential_ && !block->fine.load(std::memory_order_acquire) &&
      owner_again(block->state.load(std::memory_order_acquire), 0xff, true))
    return;
  Access a{addr, size, true, site};
  if (access_needs_no_work(addr, size, true) || range_owner_again(a)) return;
  RuntimeScope scope(&t);
  a.freeing = true;
  access_slow(t, rt, a);
  publish_fast_path(rt, rt.slot);
}

// The common slow-path access: inside one granule whose word is a plain state
// (not Virgin, not a block, not split) and that has its histories, as
// when the owner touches a variable again in a new epoch (a stack slot after
// every unlock) or a lock hands it on. The same Variable the loop in
// access_slow would build, found with the inline lookups and no reservation
// or allocation (pipeline: most of its 12 million slow-path calls).
bool RaceEngine::access_plain_granule(ThreadState &t, RaceThread &rt, const Access &a) {
  if (a.size == 0 || ((a.addr ^ (a.addr + a.size - 1)) & ~(kGranule - 1)) != 0) return false;
  std::atomic<uint64_t> *cell = find_cell(a.addr);
  if (!cell) return false;
  uint64_t w = cell->load(std::memory_order_acquire);
  if (w == 0 || kind_of(w) == Kind::kIndirect) return false;
  // An Exclusive word the fast path sent here changes (a new owner or a new
  // epoch), and so does the history slot behind it. After a hand-off both
  // lines were written last by another core: asking for them in exclusive
  // state now overlaps the two transfers with the lookups below, where the
  // load then the compare-and-swap (and the slot's read then its write)
  // each paid a shared transfer and then an upgrade.
  const Kind k = kind_of(w);
  const bool changes = k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2;
  if (changes) prefetch_for_write(cell);
  ShadowPage *page = find_shadow_page(a.addr);
  PackedHistories *histories = page ? find_history(page, a.addr) : nullptr;
  if (!histories) return false;
  PackedHistories &hs = *histories;
  if (changes) {
    prefetch_for_write(a.write ? &hs.write : &hs.read);
    if (!a.write) prefetch_for_write(&hs.other_read);
  }
  Histories copy;
  Variable v = small_variable(cell, &hs, &copy, a.addr & ~(kGranule - 1), 1);
  return access_variable(t, rt, v, a) == Outcome::kDone;
}

// A lock or unlock hook's one-byte read of a mutex's first byte (not a
// reader-writer lock's: several holders at once), kept as the granule's one
// lock touch while nothing else touched the granule (shadow.h,
// kLockTouchTag): its state word stays Virgin and the touch replaces the
// last. What the last touch leaves out is ordered before it: a touch before
// a lock is followed by that lock's acquire, which comes after every earlier
// holder's unlock and its touch; so an access that happens after the last
// touch happens after all of them, and one that does not races with it. The
// granule's first other access (shadow_history) turns the touch into its
// histories. False when the granule has histories or a state, or belongs to
// a coarse block: the caller takes on_access. `cell` and `w` are the
// granule's cell and word as the caller found them (cell null: no shadow
// page yet), so that the lock hook loads them once.
bool RaceEngine::touch_lock_quietly(ThreadState &t, RaceThread &rt, uintptr_t addr, snag_site_t site,
                                    std::atomic<uint64_t> *cell, uint64_t w) {
  if (potential_) return false;
  if (!cell && !(cell = shadow_cell(addr))) return false;  // above 47 bits
  // A granule with a state of its own, or a coarse block's (a small object
  // holding a mutex: short_lived_locks), goes to on_access: asked first,
  // before any other lookup, since most such touches come back that way.
  HeapBlock *block = block_of_word(w);
  if (w != 0 && (!block || !chunk_of(block, addr)->fine.load(std::memory_order_acquire))) return false;
  ShadowPage *page = shadow_page(addr);
  if (!block) block = page->block.load(std::memory_order_acquire);
  if (block) {
    block = chunk_of(block, addr);
    if (!block->fine.load(std::memory_order_acquire)) return false;
    // The block went fine: this granule starts fresh (as in access_slow).
    HeapBlock *expected = block;
    page->block.compare_exchange_strong(expected, nullptr);
    if (block_of_word(w)) cell->compare_exchange_strong(w, 0);
    w = cell->load(std::memory_order_acquire);
  }
  if (w != 0) return false;
  std::atomic<uint32_t> &slot = history_index_entry(page, addr);
  uint32_t i = slot.load(std::memory_order_acquire);
  if (i && !(i & kLockTouchTag)) return false;
  const PackedHistory entry =
      pack_entry(access_stack(t, rt, site ? site : 1), rt.lockset_all, rt.slot, rt.now, addr & (kGranule - 1), 1);
  if (!cell->compare_exchange_strong(w, kBusyWord)) return false;
  i = slot.load(std::memory_order_acquire);
  if (!i) {
    const uint32_t fresh = take_lock_touch();
    if (!slot.compare_exchange_strong(i, fresh, std::memory_order_acq_rel)) give_back_lock_touch(fresh);
    else i = fresh;
  }
  if (!(i & kLockTouchTag)) {  // another access made the granule's histories first
    cell->store(0, std::memory_order_release);
    return false;
  }
  *lock_touch_at(i & ~kLockTouchTag) = entry;
  cell->store(0, std::memory_order_release);
  return true;
}

void RaceEngine::access_slow(ThreadState &t, RaceThread &rt, const Access &a) {
  if (access_plain_granule(t, rt, a)) return;
  uintptr_t end = a.addr + a.size;
  // Granules (or bytes, or a block) their owner touches again in this epoch
  // are skipped for an access over more than one granule; one inside a
  // granule was asked already (on_access: the fast path said no). With
  // potential=1 the state machine also looks at other threads' lock-ordered
  // accesses when nothing changes: no shortcut then.
  const bool skip_owner = !potential_ && ((a.addr ^ (end - 1)) & ~(kGranule - 1)) != 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    bool redo = false;
    HeapBlock *previous_block = nullptr;
    for (uintptr_t g = a.addr & ~(kGranule - 1); g < end && !redo; g += kGranule) {
      std::atomic<uint64_t> *cell = shadow_cell(g);
      if (!cell) return;  // above the 47-bit user address space: not tracked
      uint64_t w = cell->load(std::memory_order_acquire);
      HeapBlock *block = block_of_granule(w, g);
      if (block) block = chunk_of(block, g);  // a block cut into chunks: the granule's chunk
      if (block && !block->fine.load(std::memory_order_acquire)) {
        // The granule's state word points at its coarse block (or chunk)
        // from now on, so the fast path finds the block's state: for a whole
        // page only on single accesses (a range would commit the shadow of
        // the whole range), and always in place of the word of the block a
        // chunk was cut from.
        uint64_t coarse = pointer_word(Kind::kIndirect, block);
        if ((w == 0 && a.size <= kGranule) || (w != 0 && w != coarse)) cell->compare_exchange_strong(w, coarse);
        // One state for the whole block: a range over it is one access,
        // and the rest of the block is skipped.
        if (block != previous_block) {
          previous_block = block;
          if (!(skip_owner && owner_again(block->state.load(std::memory_order_acquire), 0xff, a.write))) {
            Histories copy;
            Variable v = block_variable(block, &copy);
            redo = access_variable(t, rt, v, a) == Outcome::kRedo;
          }
        }
        uintptr_t last = (block_end(block) - 1) & ~(kGranule - 1);
        if (last > g) g = last;
        continue;
      }
      if (block) {
        // The block went fine: this granule starts fresh.
        if (ShadowPage *page = find_shadow_page(g)) {
          HeapBlock *expected = block;
          page->block.compare_exchange_strong(expected, nullptr);
        }
        if (block_of_word(w)) cell->compare_exchange_strong(w, 0);
        w = cell->load(std::memory_order_acquire);
      }
      if (kind_of(w) == Kind::kIndirect && indirect_type(w) == IndirectType::kSplit) {
        auto *split = static_cast<SplitGranule *>(pointer_of(w));
        for (uintptr_t b = 0; b < kGranule; ++b) {
          uintptr_t byte = g + b;
          if (byte < a.addr || byte >= end) continue;
          // As for a whole granule below: a byte its owner touches again.
          if (skip_owner && owner_again(split->state[b].load(std::memory_order_acquire), 0xff, a.write)) continue;
          Histories copy;
          Variable v = small_variable(&split->state[b], &split->history[b], &copy, byte, 2);
          access_variable(t, rt, v, a);
        }
        continue;
      }
      // A granule its owner touches again in the same epoch changes nothing:
      // a range over it (a copied string, a struct passed by value) needs
      // neither its history nor the state machine.
      Span span = clip(a, g, kGranule);
      if (skip_owner && owner_again(w, ((1u << span.size) - 1) << span.offset, a.write))
        continue;
      // A free's write to a granule never used before (the rest of a large
      // fine block) is checked against an empty history and remembered
      // nowhere: the range is cleared next, and giving each such granule
      // histories of its own only to give them back raised the peak
      // (lock_hash_map's 256 KiB bucket array: 32,768 granules at exit).
      // A mutex's granule that kept its last lock touch alone is checked
      // against it the same way, as the touch's Exclusive0 (shadow.h): made
      // into histories here, 10,000 mutexes freed at once took as many
      // histories at the end of lock_pairs, its new peak.
      ShadowPage *page = shadow_page(g);
      PackedHistories unused{}, *histories;
      if (a.freeing && w == 0 && !has_history_or_touch(page, g)) {
        histories = &unused;
      } else if (const PackedHistory *touch = a.freeing && w == 0 ? find_lock_touch(page, g) : nullptr) {
        unused.read = *touch;
        if (unused.read.stack) cell->compare_exchange_strong(w, lock_touch_state(unused.read));
        histories = &unused;
      } else {
        histories = shadow_history(page, g);
      }
      Histories copy;
      Variable v = small_variable(cell, histories, &copy, g, 1);
      redo = access_variable(t, rt, v, a) == Outcome::kRedo;
    }
    if (!redo) return;
  }
}

// Writes state `nw` in place of `w` (read from v.state) for access `a`, and
// remembers the access in its history slot when it must (below). False when
// another thread changed the state first: the caller looks again.
bool RaceEngine::settle(ThreadState &t, RaceThread &rt, const Variable &v, const Access &a,
                        uint64_t w, uint64_t nw) {
  const Tid me = rt.slot;
  const Clock now = rt.now;
  // Remember the access when the state changed or its slot holds another
  // thread's (or another epoch's) access. In Shared-Read, reads only fill
  // an empty slot, so that concurrent readers do not take turns writing
  // the history; the read that makes a variable Shared-Read lands in
  // `other_read`, next to the previous owner's read (history_slot), where
  // a later write by that owner finds it. An atomic store that makes the
  // variable shared replaces the read: otherwise the thread that reads the
  // stored value and then frees the memory finds only its own read
  // (atomic_free3).
  // The slot is read here even when the state changed (and the access is
  // remembered whatever the slot holds): in a hand-off it is a line another
  // core wrote last, and its miss overlaps the compare-and-swap's only
  // when the load comes first (read after the CAS, the two misses queued
  // one behind the other: lock_hash_map's CAS went from 14% to 29% of
  // access_variable's samples).
  // A packed variable's slot is read where it is kept (the caller's copy
  // may not be filled: access_exclusive_again).
  bool empty, stale;
  if (v.thin) {
    const SlotKey slot = block_slot_key(v.block, a.write, me);
    empty = slot.stack == 0;
    stale = empty || slot.thread != (me & kPackedThreadMask) || slot.clock != now;
  } else if (v.packed) {
    const PackedHistory &slot = history_slot(*v.packed, a.write, me);
    empty = slot.stack == 0;
    stale = empty || slot_thread(slot) != (me & kPackedThreadMask) || slot.clock != now;
  } else {
    const History &slot = history_slot(*v.history, a.write, me);
    empty = slot.stack == 0;
    stale = empty || slot.thread != me || slot.clock != now;
  }
  bool remember = (kind_of(nw) == Kind::kSharedRead && !a.write)
                      ? empty || (a.atomic_store && nw != w)
                      : nw != w || stale;
  if (remember) {
    // The history and the state word change together: the variable is
    // claimed (kBusyWord) while its history is rewritten, and a thread that
    // sees the new state also finds the access behind it. Writing the
    // history before a compare-and-swap that then failed overwrote the
    // winning thread's access, and a later split or report lost that side.
    History entry = history_of(t, rt, v, a);
    if (!v.state->compare_exchange_strong(w, kBusyWord)) return false;
    if (rewrites_threadset(w, nw)) store_own_entry(w, me, now);
    if (v.thin) set_block_slot(v.block, a.write, me, pack_history(entry));
    else if (v.packed) history_slot(*v.packed, a.write, me) = pack_history(entry);
    else history_slot(*v.history, a.write, me) = entry;
    v.state->store(nw, std::memory_order_release);
    replaced(v, w, nw);
    return true;
  }
  if (nw == w) return true;
  if (!v.state->compare_exchange_strong(w, nw)) return false;
  replaced(v, w, nw);
  return true;
}

// After the state word went from w to nw: the record w owned goes back, and
// a granule's page notes that nw owns one.
void RaceEngine::replaced(const Variable &v, uint64_t w, uint64_t nw) {
  if (w == nw || rewrites_threadset(w, nw)) return;
  if (kind_of(w) == Kind::kSharedModify2) retire_state_records(w);
  if (kind_of(nw) == Kind::kSharedModify2 && v.level != 0) note_state_record(v.base);
}

Outcome RaceEngine::access_variable(ThreadState &t, RaceThread &rt, const Variable &v,
                                    const Access &a) {
  const Tid me = rt.slot;
  const Clock now = rt.now;
  const LocksetId held = a.write ? rt.lockset_write : rt.lockset_all;
  const Histories &hs = *v.history;
  // The bytes of a granule this access touches (blocks and bytes count whole).
  uint32_t touched = 0xff;
  if (v.level == 1) {
    Span span = clip(a, v.base, kGranule);
    touched = ((1u << span.size) - 1) << span.offset;
  }
  for (;;) {
    uint64_t w = v.state->load(std::memory_order_acquire);
    if (w == kReportedWord) return Outcome::kDone;
    if (w == kBusyWord) {
      yield_while_busy(*v.state);
      continue;
    }
    // Read after the state word, as the histories would be read in place.
    if (v.packed) unpack_histories(*v.packed, v.history);
    else if (v.thin) *v.history = block_histories(v.block);
    uint64_t nw = w;
    const char *race_state = nullptr;     // set when this access completes a race
    const History *previous = nullptr;    // ... with this remembered access
    History freed;                        // ... or with this free (recent_frees.h)
    switch (kind_of(w)) {
      case Kind::kVirgin:
        still_exclusive(rt, w, touched, a.write, &nw);
        break;
      case Kind::kExclusive0:
      case Kind::kExclusive1:
      case Kind::kExclusive2: {
        Tid u = tid_of(w);
        Clock c = clock_of(w);
        Kind k = kind_of(w);
        if ((bytes_of(w) & touched) == 0) {
          // Different bytes of one granule (two fields of a struct, two
          // adjacent globals): give each byte its own state.
          if (split_granule(v, w)) return Outcome::kRedo;
          continue;
        }
        if (still_exclusive(rt, w, touched, a.write, &nw)) {
          if (SNAG_UNLIKELY(potential_)) check_potential(t, rt, v, a);
          break;
        }
        // Concurrent with the owner's access: |S_x| becomes 2. It conflicts
        // when either side writes: this access, the owner in this epoch (the
        // W bit), or an earlier write this thread does not know about.
        previous = conflicting(hs, a.write, rt, me);
        if (!previous && (a.write || wrote(w))) previous = &latest(hs, u);
        // A freed block's granules hold its free's word and no history.
        if (previous && !previous->stack &&
            recall_free(a.addr > v.extent_base() ? a.addr : v.extent_base(), u, c, v.extent_base(), v.extent_size(),
                        &freed))
          previous = &freed;
        const History &other = previous ? *previous : latest(hs, u);
        LocksetId common = lockset_intersect(other.stack ? other.lockset : kEmptyLockset, held);
        if (k == Kind::kExclusive2) {
          if (common == kEmptyLockset && previous) {
            race_state = "Shared-Modify2";
          } else {
            ThreadsetEntry entries[2] = {{u, c}, {me, now}};
            nw = pointer_word(Kind::kSharedModify2, make_sm2(common, entries, 2));
          }
        } else if (!previous) {
          nw = shared_word(Kind::kSharedRead, common);
        } else if (common == kEmptyLockset) {
          race_state = "Shared-Modify1";
        } else {
          nw = shared_word(Kind::kSharedModify1, common);
        }
        break;
      }
      case Kind::kSharedRead:
      case Kind::kSharedModify1: {
        LocksetId common = lockset_intersect(lockset_of(w), held);
        bool modify = a.write || kind_of(w) == Kind::kSharedModify1;
        if (!modify) {
          nw = shared_word(Kind::kSharedRead, common);
        } else if (common != kEmptyLockset) {
          nw = shared_word(Kind::kSharedModify1, common);
        } else if ((previous = conflicting(hs, a.write, rt, me))) {
          race_state = "Shared-Modify1";
        } else {
          // The lockset no longer protects x: track a threadset again.
          if (SNAG_UNLIKELY(potential_)) check_potential(t, rt, v, a);
          nw = exclusive_word(Kind::kExclusive2, me, now, a.write, touched);
        }
        break;
      }
      case Kind::kSharedModify2: {
        auto *rec = static_cast<const SharedModify2Record *>(pointer_of(w));
        LocksetId common = lockset_intersect(rec->lockset, held);
        // The threads still concurrent with this access, this thread's
        // entry at its place (so that a set whose only change is this
        // thread's clock keeps its order and can be rewritten in place).
        ThreadsetEntry entries[64];
        uint32_t n = 0;
        bool mine = false, kept_all = true;  // kept_all: no entry of rec left out
        Clock my_last = 0;
        for (uint32_t i = 0; i < rec->count; ++i) {
          const ThreadsetEntry e = load_entry(rec->entries[i]);
          if (n == 63) {
            kept_all = false;
          } else if (e.thread == me) {
            mine = true;
            my_last = e.clock;
            entries[n++] = {me, now};
          } else if (e.clock > rt.clock.get(e.thread)) {
            entries[n++] = e;
          } else {
            kept_all = false;
          }
        }
        if (!mine) entries[n++] = {me, now};
        if (n == 1) {
          nw = exclusive_word(Kind::kExclusive2, me, now, a.write, touched);
        } else if (common == kEmptyLockset && (previous = conflicting(hs, a.write, rt, me))) {
          race_state = "Shared-Modify2";
        } else {
          // Unchanged, or changed in this thread's clock alone (settle
          // rewrites its entry), or a new record.
          if (common != rec->lockset || !kept_all || !mine)
            nw = pointer_word(Kind::kSharedModify2, make_sm2(common, entries, n));
          else if (my_last != now)
            nw = next_version(w);
        }
        break;
      }
      case Kind::kIndirect:
        // The granule turned into a split granule or a block under us.
        return Outcome::kRedo;
    }

    if (race_state) {
      const History prev = *previous;
      if (refine(t, rt, v, w, prev, a)) return Outcome::kRedo;
      if (!v.state->compare_exchange_strong(w, kReportedWord)) continue;
      report(t, rt, v, prev, a, race_state);
      replaced(v, w, kReportedWord);
      return Outcome::kDone;
    }
    if (!settle(t, rt, v, a, w, nw)) continue;  // another thread changed the state first
    return Outcome::kDone;
  }
}

// Replaces a granule's state by one state per byte. The bytes the previous
// access touched inherit its state and history; the others start Virgin.
// False when another thread changed the granule first.
bool RaceEngine::split_granule(const Variable &v, uint64_t word) {
  const Histories &hs = *v.history;
  const History &h = hs.write.stack ? hs.write : hs.read;
  auto *split = new (internal_alloc(sizeof(SplitGranule))) SplitGranule();
  Kind k = kind_of(word);
  bool exclusive = k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2;
  uint32_t previous_bytes = 0;
  if (exclusive) previous_bytes = bytes_of(word);
  else if (h.stack) previous_bytes = ((1u << h.size) - 1) << h.offset;
  uint64_t previous = exclusive ? (word | kBytesMask)
                                : exclusive_word(Kind::kExclusive1, h.thread, h.clock, h.write);
  for (uint32_t b = 0; b < kGranule; ++b) {
    if (!(previous_bytes & (1u << b))) continue;
    split->state[b].store(previous, std::memory_order_relaxed);
    // Each remembered access goes to the bytes it touched (its offset and
    // size stay relative to the granule, Variable::extent_base).
    const History *from[3] = {&hs.read, &hs.other_read, &hs.write};
    PackedHistory *to[3] = {&split->history[b].read, &split->history[b].other_read, &split->history[b].write};
    for (int i = 0; i < 3; ++i)
      if (from[i]->stack && b >= from[i]->offset && b < from[i]->offset + from[i]->size)
        *to[i] = pack_history(*from[i]);
  }
  if (v.state->compare_exchange_strong(word, pointer_word(Kind::kIndirect, split))) {
    note_state_record(v.base);
    return true;
  }
  internal_free(split);
  return false;
}

// A remembered access of a block that just went fine, given to the granules
// it touched: their history, and their state when the granule has none yet
// or belongs to the same thread's same epoch (then the bytes add up).
void RaceEngine::carry_down(HeapBlock *block, const History &h) {
  uintptr_t first = block->start + h.offset;
  for (uintptr_t g = first & ~(kGranule - 1); g < first + h.size; g += kGranule) {
    Span span = clip(Access{first, h.size, false, 0}, g, kGranule);
    uint32_t bytes = ((1u << span.size) - 1) << span.offset;
    ShadowPage *page = shadow_page(g);
    HeapBlock *expected = block;
    page->block.compare_exchange_strong(expected, nullptr);
    std::atomic<uint64_t> *cell = shadow_cell(g);
    uint64_t w = cell->load(std::memory_order_acquire);
    uint64_t mine = exclusive_word(Kind::kExclusive1, h.thread, h.clock, h.write, bytes);
    if (w == 0 || w == pointer_word(Kind::kIndirect, block)) {
      cell->store(mine, std::memory_order_release);
    } else if (kind_of(w) == Kind::kExclusive1 && tid_of(w) == wrap_tid(h.thread) && clock_of(w) == h.clock) {
      cell->store(w | (mine & (kWroteBit | kBytesMask)), std::memory_order_release);
    }
    History entry = h;
    entry.offset = span.offset;
    entry.size = static_cast<uint16_t>(span.size);
    history_slot(*shadow_history(page, g), h.write, h.thread) = pack_history(entry);
  }
}

// Adaptive granularity. A block-level race makes the block fine; a
// granule-level race between accesses to different bytes splits the granule
// into bytes. The previous access is carried down to the finer states so the
// access that caused the refinement is checked against it again there.
bool RaceEngine::refine(ThreadState &t, RaceThread &rt, const Variable &v, uint64_t word,
                        const History &h, const Access &a) {
  if (v.level == 0) {
    HeapBlock *block = v.block;
    Span current = clip(a, block->start, block_size(block));
    if (report_object_level_ && h.stack && !overlaps(current.offset, current.size, h.offset, h.size))
      report(t, rt, v, h, a, "Shared-Modify1");
    // A large block is cut into chunks first: its chunks inherit what the
    // block remembers, and the access runs again on its own chunk.
    if (cut_into_chunks_first(block)) {
      cut_block_into_chunks(block, h.stack ? &h : nullptr);
      return true;
    }
    if (!make_block_fine(block)) return true;  // another thread refined it first
    if (!h.stack) return true;
    // Every access the block remembers goes down to the granules it touched,
    // the conflicting one first (it decides a granule's state). With only
    // that one carried down, an earlier access by the same thread to other
    // bytes (a read of one field before a write of the next) was lost, and
    // the race with it missed.
    carry_down(block, h);
    const Histories hs = block_histories(block);
    for (const History *r : {&hs.write, &hs.read, &hs.other_read})
      if (r->stack && !(r->stack == h.stack && r->thread == h.thread && r->clock == h.clock &&
                       r->offset == h.offset && r->write == h.write))
        carry_down(block, *r);
    return true;
  }
  if (v.level == 1) {
    Span current = clip(a, v.base, kGranule);
    if (!h.stack || overlaps(current.offset, current.size, h.offset, h.size)) return false;
    split_granule(v, word);
    return true;
  }
  return false;
}

}  // namespace snag::race
