// The synchronization half of the race engine: vector clocks (happens-before
// from thread creation and join, locks, condition variables, semaphores,
// barriers, once, static-init guards, futexes, release/acquire atomics and
// fences) and locksets; heap blocks born and freed.
#include <malloc.h>
#include <new>
#include <pthread.h>

#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/runtime.h"
#include "core/thread_descriptor.h"
#include "engines/race/clock_slots.h"
#include "engines/race/fast_path.h"
#include "engines/race/lock_pairs.h"
#include "engines/race/lockset_references.h"
#include "engines/race/recent_frees.h"
#include "engines/race/race_engine.h"
#include "engines/race/sync_vars.h"
#include "snag/abi.h"

namespace snag::race {

namespace {

bool has_acquire(uint32_t order) {
  return order == SNAG_CONSUME || order == SNAG_ACQUIRE || order == SNAG_ACQ_REL ||
         order == SNAG_SEQ_CST;
}

bool has_release(uint32_t order) {
  return order == SNAG_RELEASE || order == SNAG_ACQ_REL || order == SNAG_SEQ_CST;
}

// The order an atomic's second half (kAtomicAfter) acquires with: a failed
// compare-exchange's failure order, else the operation's.
uint32_t after_order(const Event &e) {
  return (static_cast<uint32_t>(e.value) == SNAG_ATOMIC_CMPXCHG && !e.flags) ? static_cast<uint32_t>(e.addr2)
                                                                               : e.order;
}

}  // namespace

RaceEngine *g_race;

RaceEngine::RaceEngine() {
  access_hook = &RaceEngine::on_access;
  atomic_hook = &RaceEngine::on_atomic_hook;
  heap_hook = &RaceEngine::on_heap_hook;
  sync_hook = &RaceEngine::on_sync_hook;
  report_object_level_ = options().flag("report_object_level");
  report_each_address_ = options().flag("report_each_address");
  potential_ = options().flag("potential");
  g_ranges_answered_inline = !potential_;
}

namespace {

// A new thread's place in the clocks: its slot and its first epoch there,
// with `published` just below it, where the slot's earlier users' epochs end.
void start_in_slot(RaceThread &rt, ClockSlot slot) {
  rt.slot = slot.slot;
  rt.now = slot.start;
  rt.published = slot.start - 1;
  rt.clock.set(rt.slot, rt.now);
}

// Default-initialized, not value-initialized (RaceThread()): internal_alloc's
// memory is zero already, and value-initialization zeroed the record's
// ~7 KiB a second time at every thread's creation.
RaceThread *new_race_thread() { return new (internal_alloc(sizeof(RaceThread))) RaceThread; }

}  // namespace

// A thread whose creation the runtime did not see starts unordered.
RaceThread &RaceEngine::adopt_thread(ThreadState &t) {
  auto *rt = new_race_thread();
  start_in_slot(*rt, take_clock_slot(nullptr, t.tid));
  t.engine_data[kRaceSlot] = rt;
  return *rt;
}

// Nothing reads an ended thread's data again once it is joined or gone
// (histories keep its slot and clock values, not its record): memory stays
// proportional to live threads, not to every thread the program ever had. A
// gone detached thread's slot goes to a thread whose creator saw its last
// clock value through some synchronization, if any does.
void RaceEngine::forget_thread(ThreadState &t) {
  auto *rt = static_cast<RaceThread *>(t.engine_data[kRaceSlot]);
  if (!rt) return;
  give_back_clock_slot(rt->slot, rt->published);
  sync_thread_done(rt->atomic_snapshot);  // words naming it keep it alive, nothing else
  t.engine_data[kRaceSlot] = nullptr;
  if (&t == t_current) t_untouched_hints = kNoUntouchedHints;
  internal_free(rt->untouched_hints);
  rt->~RaceThread();
  internal_free(rt);
}

UntouchedHint *untouched_hints_of_this_thread() {
  ThreadState *t = t_current;
  auto *rt = t ? static_cast<RaceThread *>(t->engine_data[kRaceSlot]) : nullptr;
  if (!rt) return nullptr;
  if (!rt->untouched_hints) {
    rt->untouched_hints = internal_new_array<UntouchedHint>(kUntouchedHints);
    for (uintptr_t i = 0; i < kUntouchedHints; ++i) rt->untouched_hints[i] = UntouchedHint{};
  }
  t_untouched_hints = rt->untouched_hints;
  return rt->untouched_hints;
}

void RaceEngine::on_start(ThreadState &main_thread) {
  thread_data(main_thread);
  // Only when race leads: as an observer (explore+race) the leading engine
  // reports crashes itself, and installs its handlers after this runs.
  if (leading_engine() == this) install_crash_handlers();
}

void RaceEngine::release(RaceThread &rt, Tid self, uintptr_t addr, bool reader) {
  if (SNAG_UNLIKELY(potential_)) lockless_release(rt, self, addr);
  sync_release(addr, rt.clock, reader);
  tick(rt, self);
}

void RaceEngine::recompute_locksets(RaceThread &rt) {
  if (rt.held_count == 0) {
    rt.lockset_all = rt.lockset_write = kEmptyLockset;
  } else if (rt.held_count == 1) {
    // One lock (the common case): its set is kept with the lock's variable.
    const HeldLock &h = rt.held[0];
    rt.lockset_all = sync_lockset_alone(h.sync);
    rt.lockset_write = h.write_mode ? rt.lockset_all : kEmptyLockset;
  } else if (rt.held_count == 2) {
    // Two locks (std::scoped_lock over two accounts): named by their
    // one-lock sets, in the table of pairs (lock_pairs.h).
    const HeldLock &x = rt.held[0], &y = rt.held[1];
    const LocksetId only_x = sync_lockset_alone(x.sync), only_y = sync_lockset_alone(y.sync);
    rt.lockset_all = lockset_pair(only_x, only_y);
    rt.lockset_write = x.write_mode ? (y.write_mode ? rt.lockset_all : only_x) : (y.write_mode ? only_y : kEmptyLockset);
  } else {
    uintptr_t all[kMaxLocksInSet], write[kMaxLocksInSet];
    uint32_t n_all = 0, n_write = 0;
    for (uint32_t i = 0; i < rt.held_count; ++i) {
      all[n_all++] = rt.held[i].addr;
      if (rt.held[i].write_mode) write[n_write++] = rt.held[i].addr;
    }
    rt.lockset_all = rt.locksets.intern(all, n_all);
    rt.lockset_write = n_write == n_all ? rt.lockset_all : rt.locksets.intern(write, n_write);
  }
  t_fast_path.lockset_all = rt.lockset_all;
  t_fast_path.lockset_write = rt.lockset_write;
}

void RaceEngine::acquire_lock(ThreadState &t, RaceThread &rt, uintptr_t lock, bool write_mode,
                              snag_site_t site) {
  // A writer is ordered after earlier readers too; a reader only after writers.
  // The variable is made here, not at the first release, so that the held
  // lock keeps it for its release and its lockset.
  // The variable kLockBefore found (the sync hook's), while it still is
  // this lock's: what sync_var's cache of recent variables would check.
  SyncVar *sync = rt.lock_before.var;
  if (!sync || rt.lock_before.addr != lock || sync->forgotten.load(std::memory_order_acquire) || sync->addr != lock)
    sync = sync_var(lock, true, &rt.acquired);
  rt.lock_before.var = nullptr;
  const uint32_t version = sync_acquire_lock(sync, rt.clock, write_mode, rt.acquired);
  for (uint32_t i = 0; i < rt.held_count; ++i)
    if (rt.held[i].addr == lock) {
      ++rt.held[i].depth;
      return;
    }
  if (rt.held_count == kMaxLocksInSet) return;
  rt.held[rt.held_count++] = {lock, write_mode, 1, site, context_stack(t, rt), sync, version};
  recompute_locksets(rt);
}

SyncVar *RaceEngine::release_lock(RaceThread &rt, uintptr_t lock) {
  for (uint32_t i = 0; i < rt.held_count; ++i) {
    HeldLock &h = rt.held[i];
    if (h.addr != lock) continue;
    const bool write_mode = h.write_mode;
    // The variable found at acquire, unless the lock's memory was freed
    // (and the variable forgotten, perhaps used again) while it was held:
    // then no version taken at acquire is this variable's.
    const bool kept = !h.sync->forgotten.load(std::memory_order_acquire) && h.sync->addr == lock;
    SyncVar *sync = kept ? h.sync : sync_var(lock, true);
    // (Versions only grow: one below the current one is never matched.)
    const uint32_t acquired = kept ? h.version : sync->version.load(std::memory_order_relaxed) - 1;
    SNAG_DEBUG_ASSERT(h.depth > 0, "a held lock has been acquired at least once");
    if (--h.depth == 0) {
      // (Not copied onto itself: the last lock released, the commonest
      // case, stalled on a store forwarded to an overlapping load.)
      if (i != --rt.held_count) rt.held[i] = rt.held[rt.held_count];
      recompute_locksets(rt);
      SNAG_DEBUG_ASSERT(!lockset_contains(rt.lockset_all, lock),
                        "an unlocked lock leaves the thread's lockset");
    }
    sync_release_lock(sync, rt.clock, write_mode, acquired, rt.acquired);
    return sync;
  }
  // Unlocking a lock this thread was not seen taking (taken before start-up,
  // or by another thread): still a release.
  sync_release(lock, rt.clock);
  return nullptr;
}

void RaceEngine::on_atomic(ThreadState &t, RaceThread &rt, const Event &e) {
  const uint32_t op = static_cast<uint32_t>(e.value);
  if (e.kind == EventKind::kAtomicBefore) {
    // The atomic touches its memory before it synchronizes. As a read in the
    // shadow: two atomics never race with each other, and a plain write
    // (or free) unordered with an atomic is a race. (A plain read racing
    // with an atomic store is not seen: both look like reads.)
    if (!t.ignore_reads && e.size) {
      if (op == SNAG_ATOMIC_LOAD) {
        on_access(t, e.addr, e.size, 0, e.site);
      } else if (!access_needs_no_work(e.addr, e.size, false)) {
        // A store or read-modify-write is remembered as the read that makes
        // the variable shared (Access::atomic_store); one the fast path
        // passes (the variable is this thread's in this epoch, or already
        // Shared-Read with its readers remembered) changes nothing. A
        // single-producer queue's index stores used to take this path on
        // every item.
        access_slow(t, rt, Access{e.addr, e.size, false, e.site, true});
        publish_fast_path(rt, rt.slot);
      }
    }
    if (op == SNAG_ATOMIC_LOAD) return;
    if (op == SNAG_ATOMIC_STORE) {
      // A store heads a new release sequence (or ends the old one when it is
      // relaxed); a relaxed store after a release fence carries the fence.
      if (SNAG_UNLIKELY(potential_)) lockless_store(rt, rt.slot, e.addr, has_release(e.order));
      if (has_release(e.order)) {
        sync_release_atomic(e.addr, atomic_thread(rt), true, rt.acquired);
        tick(rt, rt.slot);
      } else {
        sync_store_atomic(e.addr, rt.fenced_release ? &rt.fence_release : nullptr, rt.acquired);
      }
      return;
    }
    // Read-modify-writes continue the release sequence they read from.
    if (has_release(e.order)) {
      if (SNAG_UNLIKELY(potential_)) lockless_release(rt, rt.slot, e.addr);
      sync_release_atomic(e.addr, atomic_thread(rt), false, rt.acquired);
      tick(rt, rt.slot);
    } else if (rt.fenced_release) sync_release(e.addr, rt.fence_release);
    return;
  }
  // kAtomicAfter: a load, read-modify-write or compare-exchange took effect.
  if (has_acquire(after_order(e))) {
    sync_acquire_atomic(e.addr, rt.clock, true, rt.acquired, rt.slot, &rt.clock);
    if (SNAG_UNLIKELY(potential_)) lockless_acquire(rt, e.addr);
  } else {
    sync_acquire_atomic(e.addr, rt.fence_acquire, false, rt.acquired, rt.slot, &rt.clock);
  }  // taken by a later acquire fence
}

void RaceEngine::on_fence(RaceThread &rt, const Event &e) {
  if (has_acquire(e.order)) rt.clock.merge(rt.fence_acquire);
  if (has_release(e.order)) {
    rt.fence_release.assign(rt.clock);
    rt.fenced_release = true;
    tick(rt, rt.slot);
  }
}

void RaceEngine::on_atomic_hook(ThreadState &t, const Event &e) {
  // An atomic load's first half is only a read of its memory (on_atomic):
  // when the fast path answers that read (the variable is Shared-Read, or
  // this thread's in this epoch), on_access would return at its first check
  // and nothing else happens, so it is answered here, before the runtime
  // scope, the thread's record and two more calls. A store's or
  // read-modify-write's first half also releases, and a load's second half
  // acquires: those always go on. (spsc_long: 4.2 million loads, most of
  // its two Shared-Read indices, 113 instructions each before.)
  if (e.kind == EventKind::kAtomicBefore && static_cast<uint32_t>(e.value) == SNAG_ATOMIC_LOAD &&
      access_quickly_needs_no_work(e.addr, e.size, false))
    return;
  // Likewise any second half whose acquire takes nothing (sync_acquire_atomic
  // would find this version of the variable taken already, or no variable):
  // a spinning consumer's polls of an index that did not move, a thread's
  // relaxed loads of an index only it stores, a compare-exchange's relaxed
  // half on a queue's head (spsc_long: 4 million second halves, ~190
  // instructions each through the scope, the thread's record, on_atomic
  // and the lookup). potential=1 also notes acquires (lockless_acquire):
  // the whole path then.
  if (e.kind == EventKind::kAtomicAfter) {
    const auto *rt = static_cast<const RaceThread *>(t.engine_data[kRaceSlot]);
    if (rt && !g_race->potential_ && sync_acquire_takes_nothing(e.addr, has_acquire(after_order(e)), rt->acquired))
      return;
  }
  RuntimeScope scope(&t);
  RaceThread &rt = g_race->thread_data(t);
  rt.published = rt.now;
  if (t.ignore_sync > 0) return;  // atomics are among what ignore_sync hides
  if (e.kind == EventKind::kFence) g_race->on_fence(rt, e);
  else g_race->on_atomic(t, rt, e);
}

SNAG_ALWAYS_INLINE void RaceEngine::on_alloc(ThreadState &t, RaceThread &rt, const Event &e) {
  uintptr_t size = e.value;
  if (size == 0) return;
  HeapBlock *block = new_heap_block(rt.blocks, e.addr, size, allocation_stack(t, rt, e.site), t.tid,
                                    /*may_be_thin=*/rt.held_count == 0);
  shadow_mark_block(e.addr, e.addr + size, block);
}

// The free of a coarse block of at most 1 KiB inside one page that starts
// at e.addr, whose first granule's word (`cell`) points at its record:
// what free_block_slowly does for it, inline and in one pass (most frees;
// task_graph: a million blocks of at most 64 bytes, about 350
// instructions each through the general path's calls and loops). False,
// having done nothing, for any other block.
SNAG_ALWAYS_INLINE bool RaceEngine::free_small_block(ThreadState &t, RaceThread &rt, const Event &e,
                                                     std::atomic<uint64_t> *cell, HeapBlock *block) {
  if (block->start != e.addr || block->is_chunk || block->fine.load(std::memory_order_acquire) ||
      record_form(block) == RecordForm::kWide)
    return false;
  const uintptr_t size = block->size_low, end = e.addr + size;
  if (size == 0 || !inside_one_page(e.addr, end)) return false;
  // Freeing writes the whole block: access_freed, whose first answer (the
  // owner writing again in its epoch) is asked here without the call.
  if (!t.ignore_writes) {
    if (potential_ || !owner_again(block->state.load(std::memory_order_acquire), 0xff, true))
      access_freed(t, rt, e.addr, size, e.site, block);
  }
  // As free_block_slowly's loop for one page: its synchronization
  // variables forgotten, its owning words' records given back, the
  // granules' words the freeing thread's write, their histories given back.
  ShadowPage *page = find_shadow_page(e.addr);
  const uint32_t first = cell_index(e.addr), last = cell_index(end - 1);
  if (page) {
    if (page->sync_objects.load(std::memory_order_relaxed) != 0) sync_forget_range(e.addr, end);
    if (page->state_records.load(std::memory_order_relaxed) != 0)
      release_state_records(page, e.addr & ~(kPageSize - 1), first, last + 1);
  }
  fill_cells(cell, granules_of(e.addr, end), exclusive_word(Kind::kExclusive0, rt.slot, rt.now, true));
  if (page) forget_granule_histories(page, first, last);
  remember_free(e.addr, size, rt.slot, rt.now, e.site, t.shadow);  // for a report's other side
  delete_heap_block(rt.blocks, block);
  return true;
}

SNAG_ALWAYS_INLINE void RaceEngine::on_free(ThreadState &t, RaceThread &rt, const Event &e) {
  if (std::atomic<uint64_t> *cell = find_cell(e.addr)) {
    HeapBlock *block = block_of_word(cell->load(std::memory_order_acquire));
    if (block && free_small_block(t, rt, e, cell, block)) return;
  }
  free_block_slowly(t, rt, e);
}

// on_alloc and on_free inline: a call less per block.
void RaceEngine::on_heap_hook(ThreadState &t, const Event &e) {
  RuntimeScope scope(&t);
  RaceThread &rt = g_race->thread_data(t);
  rt.published = rt.now;
  if (e.kind == EventKind::kAlloc) g_race->on_alloc(t, rt, e);
  else g_race->on_free(t, rt, e);
}

void RaceEngine::free_block_slowly(ThreadState &t, RaceThread &rt, const Event &e) {
  // The block from its first granule's Indirect word (a coarse block's
  // granules all hold it), else as find_heap_block finds it (a whole page
  // of a block, a fine block); only a block that starts here is this one.
  HeapBlock *block = nullptr;
  if (std::atomic<uint64_t> *cell = find_cell(e.addr)) block = block_of_word(cell->load(std::memory_order_acquire));
  block = block ? allocation_of(block) : find_heap_block(e.addr);
  if (block && block->start != e.addr) block = nullptr;
  // A block without a record (allocated before the runtime started, or
  // inside it) has the size libc gives it.
  uintptr_t size = block                                ? block_size(block)
                   : (e.flags & kFreeSizeNotGiven) != 0 ? malloc_usable_size(reinterpret_cast<void *>(e.addr))
                                                        : e.value;
  if (size == 0) return;
  const uintptr_t end = e.addr + size;
  // Freeing writes the whole block: it races with unordered accesses to it
  // (unless the program asked to ignore its writes around the free).
  if (!t.ignore_writes) access_freed(t, rt, e.addr, size, e.site, block);
  if (size > kPageSize) {
    sync_forget_range(e.addr, end);
    shadow_clear(e.addr, end);
    // Large blocks are left Virgin: marking them would cost their whole shadow.
  } else {
    // Until the memory is allocated again, it reads as written by the
    // freeing thread, so an unordered access after the free is a race too.
    // At most two pages: each has its synchronization variables forgotten,
    // and its granules' histories and words replaced, in one walk.
    const uint64_t freed = exclusive_word(Kind::kExclusive0, rt.slot, rt.now, true);
    for (uintptr_t lo = e.addr; lo < end;) {
      const uintptr_t hi = end < (lo & ~(kPageSize - 1)) + kPageSize ? end : (lo & ~(kPageSize - 1)) + kPageSize;
      ShadowPage *page = find_shadow_page(lo);
      if (page && page->sync_objects.load(std::memory_order_relaxed) != 0) sync_forget_range(lo, hi);
      shadow_free_in_page(page, lo, hi, freed);
      lo = hi;
    }
    remember_free(e.addr, size, rt.slot, rt.now, e.site, t.shadow);  // for a report's other side
  }
  if (block) delete_heap_block(rt.blocks, block);
}

void forget_stack_range(uintptr_t begin, uintptr_t end) {
  sync_forget_range(begin, end);
  shadow_clear(begin, end, ShadowMemory::kKeep);
}

// A new thread may run on a stack that an ended thread used: its shadow must
// start fresh, or the old thread's accesses would look like races. Only the
// part the earlier threads on a library stack used, when the stack's record
// says how deep they went (stack_records.h); a stack the program gave, or
// one without a record, whole.
void RaceEngine::forget_thread_stack(ThreadState &t, RaceThread &rt) {
  uintptr_t begin = 0;
  size_t size = 0;
  if (!current_thread_stack(&begin, &size)) return;
  if (t.stack_from_library) {
    const uintptr_t sp = current_stack_pointer();
    const StackClaim claim = claim_stack(begin, size, sp);
    rt.stack_low = sp;
    rt.stack_record = claim.low;
    forget_stack_range(claim.dirty_from, begin + size);
  } else {
    forget_stack_records(begin, begin + size);
    forget_stack_range(begin, begin + size);
  }
}

namespace {

// What AnnotateIgnoreSyncBegin/End hides from the race engine: locks,
// signals and hand-offs (not thread creation and join, nor memory).
bool is_ignorable_sync(EventKind kind) {
  switch (kind) {
    case EventKind::kLockAcquired:
    case EventKind::kUnlock:
    case EventKind::kCondWait:
    case EventKind::kCondWoken:
    case EventKind::kCondSignal:
    case EventKind::kCondBroadcast:
    case EventKind::kBarrierWait:
    case EventKind::kBarrierPassed:
    case EventKind::kSemPost:
    case EventKind::kSemAcquired:
    case EventKind::kFutexWake:
    case EventKind::kFutexWoken:
    case EventKind::kAnnotateHappensBefore:
    case EventKind::kAnnotateHappensAfter:
    case EventKind::kAtomicBefore:
    case EventKind::kAtomicAfter:
    case EventKind::kFence:
      return true;
    default:
      return false;
  }
}

// Whether a lock hook's read of its mutex's first granule, whose word is
// `w`, may be kept as its lock touch (touch_lock_quietly): a plain mutex's
// (not a reader-writer lock's), on a Virgin word or a block gone fine. Asked
// inline before the call, so that a small object's coarse block
// (short_lived_locks: 8 million touches) goes straight to the access path.
SNAG_ALWAYS_INLINE bool lock_touch_may_be_quiet(const Event &e, uint64_t w) {
  if (e.flags & kLockRw) return false;
  const HeapBlock *block = block_of_word(w);
  return w == 0 || (block && block->fine.load(std::memory_order_relaxed));
}

}  // namespace

SNAG_ALWAYS_INLINE void RaceEngine::touch_lock_memory(ThreadState &t, const Event &e, bool write) {
  if (!e.addr || (write ? t.ignore_writes : t.ignore_reads)) return;
  // A mutex's lock and unlock read it: while nothing else touched its first
  // granule, the last read alone is kept (touch_lock_quietly).
  if (!write) {
    std::atomic<uint64_t> *cell = find_cell(e.addr);
    const uint64_t w = cell ? cell->load(std::memory_order_acquire) : 0;
    if (lock_touch_may_be_quiet(e, w) &&
        g_race->touch_lock_quietly(t, g_race->thread_data(t), e.addr, e.site, cell, w))
      return;
  }
  on_access(t, e.addr, 1, write ? uint32_t{kAccessWrite} : uint32_t{0}, e.site);
}

// A lock's own memory read by its use (kLockBefore, kUnlock): the byte is
// usually one the fast path answers (a mutex several threads take is
// Shared-Read; its owner's own in this epoch at the unlock), which
// on_access, reached through touch_lock_memory, asks only after its call.
// When the fast path said no having loaded a word the quiet touch does not
// want (a small object's coarse block, a granule with a state), that word
// goes on as the hooks' does (the split granule's bytes, the renewal, then
// on_access told they were asked), not to touch_lock_memory, which loaded it
// again and had on_access ask the fast path again (short_lived_locks: 8
// million touches, +2.1% instructions in race_bench.txt section 87).
SNAG_ALWAYS_INLINE void RaceEngine::touch_lock_in_use(ThreadState &t, const Event &e) {
  if (!e.addr || t.ignore_reads) return;
  uint64_t seen;  // 0: no word seen (the fast path off), or a Virgin one
  if (access_quickly_needs_no_work(e.addr, 1, false, &seen)) return;
  if (seen && !lock_touch_may_be_quiet(e, seen)) {
    if (split_word_needs_no_work(seen, e.addr, 1, false)) return;
    if (own_exclusive_word(seen, t_fast_path.epoch_word) && g_access_hook)
      return renew_own_read1(t, e.addr, e.site, seen);  // the owner's (race_bench.txt section 96)
    return renew_or_hook(t, e.addr, 1, 0, e.site, seen);
  }
  touch_lock_memory(t, e, false);
}

// A synchronization object's own memory read by its use, as the
// interceptors' touch_object reads it for engines without a sync_hook
// (intercept/lock_events.h), on the access hooks' path without their
// chain (which would also stop at the runtime scope the sync hook holds):
// the inlined fast path, then the renewal (a signal's read comes after
// its release's tick: its owner's renewal in a new epoch), then on_access.
SNAG_ALWAYS_INLINE void RaceEngine::read_object(ThreadState &t, uintptr_t addr, snag_site_t site) {
  uint64_t seen;
  if (t.ignore_reads || access_quickly_needs_no_work(addr, 1, false, &seen)) return;
  if (own_exclusive_word(seen, t_fast_path.epoch_word) && g_access_hook)
    return renew_own_read1(t, addr, site, seen);  // the owner's (race_bench.txt section 96)
  if (seen && !is_split_word(seen)) return renew_or_hook(t, addr, 1, 0, site, seen);
  on_access(t, addr, 1, 0, site);
}

// The events of locks and condition variables (a queue's push or pop makes
// five or six), one function per kind, for both ways in: on_sync_hook (race
// the only engine; `reads_objects`: the engine reads a condition variable's
// own memory where the interceptors' touch_object would, lock_events.h) and
// on_event (several engines; the interceptors read it). `ignored`
// (AnnotateIgnoreSyncBegin) hides all but kLockBefore, kLockFailed and the
// objects' reads. False, having done nothing, for any other kind.
SNAG_ALWAYS_INLINE bool RaceEngine::on_lock_event(ThreadState &t, RaceThread &rt, const Event &e,
                                                  bool reads_objects) {
  const bool ignored = t.ignore_sync > 0;
  switch (e.kind) {
    case EventKind::kLockBefore:
      // The variable acquire_lock will want, fetched now (its line moves
      // while the real lock is taken) and kept for it.
      rt.lock_before = {e.addr, sync_var_prefetch(e.addr)};
      touch_lock_in_use(t, e);
      return true;
    case EventKind::kLockFailed:
      return true;
    case EventKind::kLockAcquired:
      if (!ignored) acquire_lock(t, rt, e.addr, !(e.flags & kLockRead), e.site);
      return true;
    case EventKind::kUnlock:
      if (ignored) return true;
      touch_lock_in_use(t, e);
      release_lock(rt, e.addr);
      tick(rt, rt.slot);
      return true;
    case EventKind::kCondWait:  // the mutex is released inside the wait
      if (reads_objects) read_object(t, e.addr, e.site);
      if (ignored) return true;
      // The mutex's variable is kept for the acquire at kCondWoken, as
      // kLockBefore keeps it: that acquire is made with the mutex held
      // again, and a lookup there lengthened the program's critical section.
      if (SyncVar *var = release_lock(rt, e.addr2)) rt.lock_before = {e.addr2, var};
      tick(rt, rt.slot);
      return true;
    case EventKind::kCondWoken:
      if (ignored) return true;
      // Also with the mutex held: taken as an atomic's acquire is (a
      // version already taken is skipped, and the clock read without the
      // variable's spin lock, whose line the signaller wrote last, when no
      // release is under way).
      sync_acquire_atomic(e.addr, rt.clock, /*into_clock=*/true, rt.acquired);
      if (SNAG_UNLIKELY(potential_)) lockless_acquire(rt, e.addr);
      acquire_lock(t, rt, e.addr2, true, e.site);
      return true;
    case EventKind::kCondSignal:
    case EventKind::kCondBroadcast:
      if (!ignored) release(rt, rt.slot, e.addr);
      // After the release: a signaller still in the call is not ordered
      // before what the woken thread does next (intercept/cond.cpp).
      if (reads_objects) read_object(t, e.addr + 8, e.site);
      return true;
    default:
      return false;
  }
}

// on_event's work for the lock and condition-variable interceptors' events
// without the core's dispatch (emit's scope, its loop over the engines, the
// virtual call) and on_event's switch over every kind. Any other kind that
// comes this way goes to on_event.
void RaceEngine::on_sync_hook(ThreadState &t, const Event &e) {
  RuntimeScope scope(&t);
  RaceEngine &race = *g_race;
  RaceThread &rt = race.thread_data(t);
  rt.published = rt.now;
  if (!race.on_lock_event(t, rt, e, /*reads_objects=*/true)) race.RaceEngine::on_event(t, e);
}

Verdict RaceEngine::on_event(ThreadState &t, const Event &e) {
  RaceThread &rt = thread_data(t);
  if (e.kind != EventKind::kThreadExit) rt.published = rt.now;  // the exit records nothing
  if (t.ignore_sync > 0 && is_ignorable_sync(e.kind)) return {};
  switch (e.kind) {
    case EventKind::kThreadCreate: {
      ThreadState *child = thread_by_tid(static_cast<Tid>(e.value));
      if (!child) break;
      auto *crt = new_race_thread();
      crt->clock.assign(rt.clock);
      start_in_slot(*crt, take_clock_slot(&rt.clock, child->tid));
      if (SNAG_UNLIKELY(potential_)) {
        rt.lockless.set(rt.slot, rt.now);
        crt->lockless.assign(rt.lockless);
      }
      child->engine_data[kRaceSlot] = crt;
      tick(rt, rt.slot);
      break;
    }
    case EventKind::kThreadStart:
      forget_thread_stack(t, rt);
      break;
    case EventKind::kThreadExit:
      // What the thread keeps until it is joined is its clock; its cache of
      // block records goes now.
      release_block_cache(rt.blocks);
      sync_thread_exit();
      break;
    case EventKind::kThreadJoin:
      if (ThreadState *child = thread_by_tid(static_cast<Tid>(e.value)))
        if (auto *crt = static_cast<RaceThread *>(child->engine_data[kRaceSlot])) {
          rt.clock.merge(crt->clock);
          if (SNAG_UNLIKELY(potential_)) {
            crt->lockless.set(crt->slot, crt->now);
            rt.lockless.merge(crt->lockless);
          }
          // Everything the child did is now ordered before the joiner: a
          // thread the joiner (or one after it) creates may take its slot
          // once the core has the engines forget the child (forget_thread).
        }
      break;
    // A lock's own memory: init and destroy write it, lock and unlock read it
    // before they synchronize, so a lock used while another thread
    // initializes or destroys it is a race on the lock (as TSan reports it).
    case EventKind::kLockCreate:
      if (!(e.flags & (kLockMutex | kLockSpin | kLockRw))) {
        // A condition variable or barrier being initialized. Its memory is
        // read by every thread that passes through it; inside a heap block
        // tracked as a whole, those reads would share the block's one read
        // slot with the object's other fields, and a destroy racing with a
        // late signal would go unseen. Such a block is tracked per granule
        // from here on (the object is still being built: little is lost).
        if (HeapBlock *block = find_tracking_block(e.addr)) make_block_fine(block);
        break;
      }
      touch_lock_memory(t, e, true);
      break;
    case EventKind::kLockDestroy:
      touch_lock_memory(t, e, true);
      break;
    case EventKind::kLockBefore:
    case EventKind::kLockFailed:
    case EventKind::kLockAcquired:
    case EventKind::kUnlock:
    case EventKind::kCondWait:
    case EventKind::kCondWoken:
    case EventKind::kCondSignal:
    case EventKind::kCondBroadcast:
      on_lock_event(t, rt, e, /*reads_objects=*/false);  // (the ignored ones returned above)
      break;
    case EventKind::kBarrierWait:
    case EventKind::kSemPost:
    case EventKind::kOnceInitDone:
    case EventKind::kGuardReleased:
    case EventKind::kFutexWake:
    case EventKind::kAnnotateHappensBefore:
    case EventKind::kFdSend:
      release(rt, rt.slot, e.addr);
      break;
    case EventKind::kBarrierPassed:
    case EventKind::kSemAcquired:
    case EventKind::kOnceExit:
    case EventKind::kGuardAcquired:
    case EventKind::kFutexWoken:
    case EventKind::kAnnotateHappensAfter:
    case EventKind::kFdReceive:
      sync_acquire(e.addr, rt.clock);
      if (SNAG_UNLIKELY(potential_)) lockless_acquire(rt, e.addr);
      break;
    case EventKind::kAtomicBefore:
    case EventKind::kAtomicAfter:
      on_atomic(t, rt, e);
      break;
    case EventKind::kFence:
      on_fence(rt, e);
      break;
    case EventKind::kAlloc:
      on_alloc(t, rt, e);
      break;
    case EventKind::kFree:
      on_free(t, rt, e);
      break;
    case EventKind::kAnnotateBenignRace:
      add_benign_range(e.addr, e.value);
      break;
    case EventKind::kMemoryFresh:
      // A new mapping, or a descriptor number the kernel handed out again
      // (intercept/fd_model.h): whoever used it before is ordered before
      // this by the kernel, so its state starts over.
      sync_forget_range(e.addr, e.addr + e.value);
      shadow_clear(e.addr, e.addr + e.value);
      forget_stack_records(e.addr, e.addr + e.value);  // a stack glibc unmapped may have been there
      if ((e.flags & kFreshWritten) && !t.ignore_writes)
        on_access(t, e.addr, e.value, kAccessWrite | (e.value > kGranule ? uint32_t(kAccessRange) : 0u),
                  e.site);
      break;
    default:
      break;
  }
  return {};
}

void RaceEngine::on_exit(int) {}

}  // namespace snag::race

namespace snag {
Engine *create_race_engine() {
  race::g_race = new (internal_alloc(sizeof(race::RaceEngine))) race::RaceEngine();
  // Pairs of locks nothing names any more are retired (lock_pairs.h).
  race::set_lock_pair_finder(race::find_named_lock_pairs);
  return race::g_race;
}
}  // namespace snag
