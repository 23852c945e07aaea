// snag race: RaceTrack's adaptive hybrid race detector (paper 002).
//
// Per thread: a lockset L_t and a vector clock B_t. Per variable: a state of
// RaceTrack's state machine (state.h) with its lockset C_x or threadset S_x.
// A race is reported when a variable is accessed concurrently (|S_x| > 1)
// with no common lock (C_x empty) and at least one access is a write.
//
// Departure from the paper (and from DESIGN.md's "locks feed locksets, not
// happens-before"): unlock/lock also carries happens-before here, as in the
// C++ memory model. C and C++ programs pass data through mutex-protected
// queues and then use it outside the lock (thread pools, producer/consumer);
// with locks feeding only locksets every such hand-off is a false alarm (the
// paper's category B). Locks still feed locksets, which decide the
// Shared-Read / Shared-Modify1 states and are shown in reports.
#pragma once

#include "core/debug_assert.h"
#include "core/engine.h"
#include "core/findings.h"
#include "engines/race/heap_blocks.h"
#include "engines/race/lockset.h"
#include "engines/race/site_stacks.h"
#include "engines/race/stack_records.h"
#include "engines/race/sync_vars.h"
#include "engines/race/vector_clock.h"

namespace snag::race {

struct HeldLock {
  uintptr_t addr;
  bool write_mode;   // false: held shared (reader of a reader-writer lock)
  uint32_t depth;    // recursive acquisitions
  snag_site_t site;  // where it was acquired
  StackId stack;     // calling context of that acquisition
  SyncVar *sync;     // the lock's synchronization variable, found at acquire
  uint32_t version;  // the version of its clock that acquire took (sync_acquire_lock)
};

struct UntouchedHint;  // fast_path.h

struct RaceThread {
  // This thread's entry in every vector clock (clock_slots.h). State words,
  // histories and threadsets name threads by slot; reports by ThreadState::tid.
  Tid slot = 0;
  VectorClock clock;          // B_t
  Clock now = 1;              // B_t(t): this thread's own clock, kept in step
  // The newest of this thread's epochs that anything may hold: set to `now`
  // wherever the engine may record the thread's (slot, now) -- a state word,
  // a history, a clock released or passed to a child -- that is, at every
  // entry but the fast path's and the thread's exit. Its slot is given back
  // at this value, not at `now`: a thread that released a lock and ended
  // ticked once more after the release, and its successor's creator, having
  // taken that lock, sees the epoch before the tick only. It starts below
  // the thread's first epoch, where the slot's earlier users' epochs end.
  Clock published = 0;
  // The lowest stack pointer this thread had on entering the engine, and
  // its stack's record of it (stack_records.h), so that the next thread on
  // the stack clears only what lies above. 0: no record, never lowered.
  uintptr_t stack_low = 0;
  std::atomic<uintptr_t> *stack_record = &g_untracked_stack_low;
  VectorClock fence_release;  // B_t at the last release fence
  VectorClock fence_acquire;  // clocks seen by relaxed loads since then
  AcquireCache acquired;      // what atomics took into those two clocks already
  // The snapshot of `clock` its atomics' compact words name (sync_vars.h,
  // AtomicThread; 0: none yet).
  uint32_t atomic_snapshot = 0;
  bool fenced_release = false;
  // The variable of the lock this thread is about to take, found by
  // kLockBefore's prefetch (null: none), for the kLockAcquired that follows.
  struct LockBefore {
    uintptr_t addr;
    SyncVar *var;
  } lock_before = {0, nullptr};
  HeldLock held[kMaxLocksInSet];
  uint32_t held_count = 0;
  LocksetId lockset_all = kEmptyLockset;    // every lock held
  LocksetId lockset_write = kEmptyLockset;  // locks held in write mode
  LocksetCache locksets;  // the sets of three or more locks this thread interned last
  // The calling context's stack id (history entries and allocation stacks
  // record it) per depth of the shadow stack, for stacks of up to
  // kContextDepths frames (race_access.cpp, cached_context): contexts[i] is
  // the id of frames 0..i, made from contexts[i - 1] and frame i's call
  // site (context_sites[i]). The first min(contexts_valid,
  // lowest_since_mark) are the current frames'; the rest, up to
  // contexts_made, were made for frames that may since have changed, and
  // still hold where the call sites are the same. A thread that returns
  // and calls again (a loop calling to_string, operator+, push_back, each
  // allocating) pays one step per new frame, not a capture of its stack.
  static constexpr uint32_t kContextDepths = kMaxStackFrames;
  uint32_t contexts_valid = 0;
  uint32_t contexts_made = 0;
  StackId contexts[kContextDepths] = {};
  snag_site_t context_sites[kContextDepths] = {};
  // The steps made last: (parent context, call site) -> context.
  struct ContextStep {
    snag_site_t site;
    StackId parent;
    StackId context;
  };
  static constexpr uint32_t kContextStepBits = 6;
  ContextStep context_steps[1u << kContextStepBits] = {};
  // The context of a deeper stack, cached while the shadow stack's top
  // frame stays the same.
  StackId context = 0;
  uint32_t context_depth = ~0u;
  uintptr_t context_frame = 0;
  snag_site_t context_call = 0;
  // The ids of the (site, context) pairs this thread remembered accesses
  // at last (site_stacks.h; race_access.cpp, access_stack).
  SiteStackCache site_stacks;
  // The allocation stacks this thread captured last, by allocation site and
  // calling context (race_access.cpp, allocation_stack), so that most
  // allocations need no capture and no hash.
  struct AllocStack {
    snag_site_t site;
    StackId context;
    StackId stack;
  };
  static constexpr uint32_t kAllocStackBits = 4;
  AllocStack alloc_stacks[1u << kAllocStackBits] = {};
  BlockCache blocks;  // recycled heap-block records
  // Its hints for untouched granules of large blocks (fast_path.h), null
  // until its first: t_untouched_hints points here.
  UntouchedHint *untouched_hints = nullptr;
  // With potential=1: B_t without the edges locks add (RaceTrack's own
  // clock: thread creation and join, condition variables, semaphores,
  // atomics, ...). An access ordered after another by B_t but not by this
  // clock was ordered only by the order in which threads took a lock.
  VectorClock lockless;
};

// One variable for the state machine: its state word and its history.
struct Variable {
  std::atomic<uint64_t> *state;
  // The histories the state machine reads: the variable's own (a large
  // block's, kept wide), or for a variable whose histories are packed
  // (`packed`: granules, bytes, small blocks) a copy the caller owns,
  // unpacked by access_variable each time it reads the state word (so that
  // the copy is as fresh as reading them in place); settle writes a slot
  // back packed.
  Histories *history;
  uintptr_t base;       // address of the variable's first byte
  HeapBlock *block;     // the heap block, when the variable is a whole block
  uint8_t level;        // 0 block, 1 granule, 2 byte
  PackedHistories *packed = nullptr;
  // A block whose record was thin when the Variable was made: its
  // histories are read and written through the record (block_histories,
  // block_slot_key, set_block_slot), which may have spilled since.
  bool thin = false;

  // What histories and reports measure accesses against: a byte of a split
  // granule counts as its granule, so that an int access reads as 4 bytes.
  uintptr_t extent_base() const { return level == 2 ? base & ~(kGranule - 1) : base; }
  uintptr_t extent_size() const { return level == 0 ? block_size(block) : kGranule; }
};

// The Variable of a whole block (or chunk): its histories are the record's
// own when wide, else `copy` (filled by access_variable) stands for them.
// A wide record never becomes another form, nor a packed one, nor a
// spilled thin one while its block lives; a thin one may spill.
inline Variable block_variable(HeapBlock *block, Histories *copy) {
  // The form read once (each helper would read it again).
  switch (record_form(block)) {
    case RecordForm::kPacked:
      return Variable{&block->state, copy, block->start, block, 0,
                      static_cast<PackedHistories *>(record_histories(block))};
    case RecordForm::kWide:
      return Variable{&block->state, static_cast<Histories *>(record_histories(block)), block->start, block, 0};
    case RecordForm::kThin:
      return Variable{&block->state, copy, block->start, block, 0, nullptr, true};
    default:  // thin and spilled, for good while the block lives
      return Variable{&block->state, copy, block->start, block, 0, thin_record_spill(block)};
  }
}
// The Variable of a granule (level 1) or byte (level 2) at `base`, whose
// histories are always packed.
inline Variable small_variable(std::atomic<uint64_t> *state, PackedHistories *packed, Histories *copy,
                               uintptr_t base, uint8_t level) {
  return Variable{state, copy, base, nullptr, level, packed};
}

enum class Outcome { kDone, kRedo };  // kRedo: the granularity changed, run the access again

struct Access {
  uintptr_t addr;
  uintptr_t size;
  bool write;
  snag_site_t site;
  // An atomic store or read-modify-write, a read in the shadow: when it makes
  // the memory shared, the history keeps it rather than the earlier read (a
  // free or plain write racing with the store is the race to report).
  bool atomic_store = false;
  // The write a free makes over its block (access_freed): the range is
  // cleared right after.
  bool freeing = false;
};

// The state a potential race is reported in (race_potential.cpp).
inline constexpr const char *kPotentialState = "potential";

// How many races (and potential races) were reported so far in this run.
uint32_t races_reported();
// Fatal signals after a race become a finding of their own (race_crash.cpp).
void install_crash_handlers();

// Ranges the program declared benign (AnnotateBenignRaceSized).
void add_benign_range(uintptr_t addr, uintptr_t size);
bool is_benign(uintptr_t addr);

// Makes a reused thread stack [begin, end) start fresh: no variables,
// histories, blocks or synchronization variables of the ended thread's, the
// shadow's memory kept (race_events.cpp).
void forget_stack_range(uintptr_t begin, uintptr_t end);

class RaceEngine;
extern RaceEngine *g_race;

class RaceEngine final : public Engine {
 public:
  RaceEngine();
  const char *name() const override { return "race"; }
  void on_start(ThreadState &main_thread) override;
  // The access hook: a fast path for the common cases, then access_slow.
  static void on_access(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags,
                        snag_site_t site);
  // The renewal of an Exclusive granule or block by the access the fast path
  // loaded state word `seen` for (race_access.cpp); false: not done, nothing
  // changed, on_access's path decides.
  static bool renew(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site,
                    uint64_t seen);
  // renew, else the access hook (renew_after_fast_path, fast_path.h).
  static void renew_or_hook(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                            uint64_t seen);
  // The owner's renewal of its Exclusive granule from the hooks
  // (renew_own_after_fast_path, fast_path.h): renew_or_hook's work for that
  // case with no call on its path.
  static void renew_own(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site, uint64_t seen);
  static void renew_own_of(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                           uint64_t seen, AccessHook hook);
  // renew_own for the sync hook's one-byte reads of an object's own memory
  // (inside its runtime scope).
  static void renew_own_read1(ThreadState &t, uintptr_t addr, snag_site_t site, uint64_t seen);
  // The same for a coarse block with a packed or thin record, owner or hand-off
  // (renew_block_after_fast_path).
  static void renew_packed_block(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                                 uint64_t seen);
  // The write of a free over [addr, addr + size), checked as on_access does;
  // `block`: the heap block starting at addr whose whole range it is, if any.
  void access_freed(ThreadState &t, RaceThread &rt, uintptr_t addr, uintptr_t size, snag_site_t site,
                    const HeapBlock *block = nullptr);
  Verdict on_event(ThreadState &t, const Event &e) override;
  void forget_thread(ThreadState &ended) override;
  void on_exit(int status) override;
  // The atomic hooks' direct path (Engine::atomic_hook): what on_event does
  // with kAtomicBefore, kAtomicAfter and kFence, without the dispatch.
  static void on_atomic_hook(ThreadState &t, const Event &e);

 private:
  // race_access.cpp
  static bool renew_inline(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site,
                           uint64_t seen);
  bool renew_block(ThreadState &t, RaceThread &rt, HeapBlock *block, uintptr_t addr, uintptr_t size, bool write,
                   snag_site_t site);
  bool renew_range(ThreadState &t, RaceThread &rt, const Access &a);
  void access_slow(ThreadState &t, RaceThread &rt, const Access &a);
  bool access_plain_granule(ThreadState &t, RaceThread &rt, const Access &a);
  Outcome access_variable(ThreadState &t, RaceThread &rt, const Variable &v, const Access &a);
  bool access_exclusive_again(ThreadState &t, RaceThread &rt, const Access &a);
  bool range_owner_again(const Access &a) const;
  static void replaced(const Variable &v, uint64_t w, uint64_t nw);
  bool settle(ThreadState &t, RaceThread &rt, const Variable &v, const Access &a, uint64_t w,
              uint64_t nw);
  bool refine(ThreadState &t, RaceThread &rt, const Variable &v, uint64_t word,
              const History &previous, const Access &a);
  static bool split_granule(const Variable &v, uint64_t word);
  static void carry_down(HeapBlock *block, const History &h);
  StackId context_stack(ThreadState &t, RaceThread &rt);
  uint32_t access_stack(ThreadState &t, RaceThread &rt, snag_site_t site);
  StackId allocation_stack(ThreadState &t, RaceThread &rt, snag_site_t site);
  History history_of(ThreadState &t, RaceThread &rt, const Variable &v, const Access &a);

  // race_events.cpp
  // Every state word, history and variable the engine makes comes through
  // here first (accesses, events, atomics): the stack pointer now lies below
  // any of this thread's stack it may make them for (stack_records.h).
  SNAG_ALWAYS_INLINE RaceThread &thread_data(ThreadState &t) {
    auto *rt = static_cast<RaceThread *>(t.engine_data[kRaceSlot]);
    if (SNAG_UNLIKELY(!rt)) rt = &adopt_thread(t);
    note_stack_depth(rt->stack_low, rt->stack_record);
    return *rt;
  }
  RaceThread &adopt_thread(ThreadState &t);
  static void touch_lock_memory(ThreadState &t, const Event &e, bool write);
  bool touch_lock_quietly(ThreadState &t, RaceThread &rt, uintptr_t addr, snag_site_t site,
                          std::atomic<uint64_t> *cell, uint64_t w);
  void acquire_lock(ThreadState &t, RaceThread &rt, uintptr_t lock, bool write_mode, snag_site_t site);
  // Returns the variable it released at (null: the thread was not seen taking the lock).
  SyncVar *release_lock(RaceThread &rt, uintptr_t lock);
  void recompute_locksets(RaceThread &rt);
  void release(RaceThread &rt, Tid self, uintptr_t addr, bool reader = false);
  // Every tick is the calling thread's own: it starts a new epoch, which the
  // fast path must see.
  static void tick(RaceThread &rt, Tid self) {
    SNAG_DEBUG_ASSERT(rt.clock.get(self) == rt.now, "a thread's own clock entry is kept in step");
    rt.clock.set(self, ++rt.now);
    publish_fast_path(rt, self);
  }
  // Tells the fast path (fast_path.h) the calling thread's epoch and locks.
  static void publish_fast_path(const RaceThread &rt, Tid self);
  static AtomicThread atomic_thread(RaceThread &rt) { return {rt.slot, rt.now, rt.clock, rt.atomic_snapshot}; }
  void on_atomic(ThreadState &t, RaceThread &rt, const Event &e);
  void on_fence(RaceThread &rt, const Event &e);
  // The heap interceptors' direct path (Engine::heap_hook): what on_event
  // does with kAlloc and kFree, without the dispatch.
  static void on_heap_hook(ThreadState &t, const Event &e);
  // The lock and condition-variable interceptors' direct path
  // (Engine::sync_hook): what on_event does with their events, without the
  // dispatch.
  static void on_sync_hook(ThreadState &t, const Event &e);
  // The work of each of those events, for both paths (race_events.cpp).
  bool on_lock_event(ThreadState &t, RaceThread &rt, const Event &e, bool reads_objects);
  // touch_lock_memory's read of a lock in use, after the fast path's
  // inlined question that on_access would ask first.
  static void touch_lock_in_use(ThreadState &t, const Event &e);
  static void read_object(ThreadState &t, uintptr_t addr, snag_site_t site);
  void on_alloc(ThreadState &t, RaceThread &rt, const Event &e);
  void on_free(ThreadState &t, RaceThread &rt, const Event &e);
  bool free_small_block(ThreadState &t, RaceThread &rt, const Event &e, std::atomic<uint64_t> *cell,
                        HeapBlock *block);
  void free_block_slowly(ThreadState &t, RaceThread &rt, const Event &e);
  void forget_thread_stack(ThreadState &t, RaceThread &rt);

  // race_potential.cpp (potential=1)
  void check_potential(ThreadState &t, RaceThread &rt, const Variable &v, const Access &a);
  void lockless_release(RaceThread &rt, Tid self, uintptr_t addr);
  void lockless_store(RaceThread &rt, Tid self, uintptr_t addr, bool release);
  void lockless_acquire(RaceThread &rt, uintptr_t addr);

  // race_report.cpp
  void report(ThreadState &t, RaceThread &rt, const Variable &v, const History &previous,
              const Access &a, const char *state);
  // Whether the race of sites a and b (in either order) was reported; with
  // report_each_address_, of a and b on the 8-byte granule of `addr`.
  bool already_reported(snag_site_t a, snag_site_t b, uintptr_t addr);

  bool report_object_level_ = false;
  bool report_each_address_ = false;
  bool potential_ = false;
};

}  // namespace snag::race
