// RaceTrack's state machine in the race engine (race_access.cpp), driven
// access by access from threads whose clocks the test sets up with the
// engine's own events: Virgin -> Exclusive0 -> Exclusive1 (a hand-off that
// happens-after), Exclusive -> Shared-Read (a concurrent read), Shared-Read
// -> Shared-Modify1 (a write under the common lock), the lockset intersection
// that empties it, and the happens-before check on the first transfer. Every
// step is deterministic: the threads are records, not running threads.
#include <malloc.h>
#include <new>
#include <stdlib.h>
#include <sys/syscall.h>
#include <utility>

#include <gtest/gtest.h>

#include "core/internal_alloc.h"
#include "core/runtime.h"
#include "engines/race/access_stacks.h"
#include "engines/race/fast_path.h"
#include "engines/race/heap_blocks.h"
#include "engines/race/race_engine.h"
#include "engines/race/shadow.h"
#include "engines/race/state.h"
#include "engines/race/state_records.h"
#include "engines/race/sync_vars.h"
#include "snag/abi.h"

namespace snag {
Engine *create_race_engine();  // core/engine_registry.cpp
// The compiler hooks' target (core/runtime.cpp, not linked here): null keeps
// the engine's inlined fast path off, so every access takes the state machine.
AccessHook g_access_hook = nullptr;
// No leading engine: the race engine installs no signal handlers here.
Engine *leading_engine() { return nullptr; }
}  // namespace snag
extern "C" {
__thread snag_site_t __snag_call_site = 0;  // core/hooks.cpp in the runtime
}

namespace snag::race {
namespace {

alignas(64) char g_memory[64 * 64];  // each test its own 64 bytes

// Each test its own sites too: a race between two sites is reported once
// per process, so a test reusing another's pair reports nothing when it
// runs after it (RaceAtomics' first test used ANewBlocksFirstAccess...'s).

// What the compiler hooks ask before they call the engine (core/hooks.cpp):
// the inlined check, then the split-granule check on the word it loaded.
bool hooks_need_no_work(uintptr_t addr, uintptr_t size, bool write) {
  uint64_t seen;
  return access_quickly_needs_no_work(addr, size, write, &seen) ||
         split_word_needs_no_work(seen, addr, size, write);
}

class RaceStateMachine : public ::testing::Test {
 protected:
  static ThreadState *g_main;
  static RaceEngine &engine() {
    static RaceEngine *e = [] {
      auto *created = static_cast<RaceEngine *>(create_race_engine());
      g_main = thread_create_record(kNoThread, 0);
      created->on_start(*g_main);
      return created;
    }();
    return *e;
  }

  void SetUp() override {
    engine();
    static int next = 0;
    base_ = reinterpret_cast<uintptr_t>(&g_memory[64 * next]);
    // Locks of their own too: a lock carries clocks from test to test.
    m1_ = 0x70000 + 0x100 * next;
    m2_ = m1_ + 0x40;
    ++next;
    main_ = g_main;
  }

  // The vector-clock slot state words and histories name a thread by
  // (clock_slots.h): not its tid once an earlier test joined a thread.
  static Tid slot(const ThreadState *t) {
    return static_cast<const RaceThread *>(t->engine_data[kRaceSlot])->slot;
  }

  ThreadState *spawn(ThreadState &parent) {
    ThreadState *child = thread_create_record(parent.tid, 0);
    Event e{EventKind::kThreadCreate};
    e.value = child->tid;
    engine().on_event(parent, e);
    return child;
  }
  void join(ThreadState &joiner, ThreadState &child) {
    Event e{EventKind::kThreadJoin};
    e.value = child.tid;
    engine().on_event(joiner, e);
    engine().forget_thread(child);  // as the core does after the join event
  }
  // A detached thread's end, and a thread noticing that it is gone.
  void end_detached(ThreadState &t, ThreadState &noticer) {
    Event exit{EventKind::kThreadExit};
    engine().on_event(t, exit);
    Event gone{EventKind::kThreadGone};
    gone.value = t.tid;
    engine().on_event(noticer, gone);
    engine().forget_thread(t);
  }
  void lock(ThreadState &t, uintptr_t m) {
    Event e{EventKind::kLockAcquired};
    e.addr = m;
    engine().on_event(t, e);
  }
  void unlock(ThreadState &t, uintptr_t m) {
    Event e{EventKind::kUnlock};
    e.addr = m;
    engine().on_event(t, e);
  }
  // A mutex at `m` taken and released whole: the hooks' events, each of
  // the lock and unlock reading the mutex's first byte (race_events.cpp).
  void lock_whole(ThreadState &t, uintptr_t m, snag_site_t site) {
    Event before{EventKind::kLockBefore};
    before.addr = m;
    before.site = site;
    engine().on_event(t, before);
    lock(t, m);
  }
  void unlock_whole(ThreadState &t, uintptr_t m, snag_site_t site) {
    Event e{EventKind::kUnlock};
    e.addr = m;
    e.site = site;
    engine().on_event(t, e);
  }
  void read(ThreadState &t, snag_site_t site) { RaceEngine::on_access(t, base_, 4, 0, site); }
  void write(ThreadState &t, snag_site_t site) { RaceEngine::on_access(t, base_, 4, kAccessWrite, site); }

  void alloc(ThreadState &t, uintptr_t addr, uintptr_t size) {
    Event e{EventKind::kAlloc};
    e.addr = addr;
    e.value = size;
    engine().on_event(t, e);
  }
  // A heap block main allocates, and two threads created after it (their
  // accesses are ordered after the allocation, not with each other).
  struct TwoThreads {
    ThreadState *a, *b;
  };
  TwoThreads block_for_two_threads(uintptr_t heap, uintptr_t size) {
    alloc(*main_, heap, size);
    ThreadState *a = spawn(*main_);
    return {a, spawn(*main_)};
  }
  void access(ThreadState &t, uintptr_t addr, bool is_write, snag_site_t site) {
    RaceEngine::on_access(t, addr, 8, is_write ? kAccessWrite : 0, site);
  }

  uint64_t word() const { return shadow_cell(base_)->load(); }
  Kind kind() const { return kind_of(word()); }

  uintptr_t base_ = 0;
  ThreadState *main_ = nullptr;
  // Lock addresses (only their events are sent).
  uintptr_t m1_ = 0, m2_ = 0;
};

ThreadState *RaceStateMachine::g_main = nullptr;

// A lock taken again by the thread that released it last, with nothing
// released there since, is acquired without merging (sync_acquire_lock): its
// clock is what that thread's release published. Once another thread
// released it in between, the shortcut must not hide that release.
TEST_F(RaceStateMachine, ALockRetakenByItsLastReleaserStillTakesOtherThreadsReleases) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  lock(*main_, m1_);
  write(*main_, 31);
  unlock(*main_, m1_);
  lock(*main_, m1_);  // nothing new: the shortcut
  unlock(*main_, m1_);
  lock(*a, m1_);
  write(*a, 32);  // ordered after main's write by the lock
  unlock(*a, m1_);
  lock(*main_, m1_);  // must take a's release
  unlock(*main_, m1_);
  // Outside the lock (no common lockset): only happens-before orders it.
  write(*main_, 33);
  EXPECT_EQ(races_reported(), before) << "main's lock lost a's release";
  EXPECT_EQ(tid_of(word()), slot(main_));
}

// Without the lock there is no order: a retaken lock does not order the
// thread after an access made outside it.
TEST_F(RaceStateMachine, ARetakenLockDoesNotOrderAnAccessOutsideIt) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  write(*a, 34);  // a never takes m1
  lock(*main_, m1_);
  write(*main_, 35);
  unlock(*main_, m1_);
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceStateMachine, FirstAccessMakesTheVariableExclusiveToItsThread) {
  EXPECT_EQ(kind(), Kind::kVirgin);
  write(*main_, 11);
  EXPECT_EQ(kind(), Kind::kExclusive0);
  EXPECT_EQ(tid_of(word()), slot(main_));
  EXPECT_TRUE(wrote(word()));
}

TEST_F(RaceStateMachine, AnOrderedHandOffStaysExclusiveWithTheNewOwner) {
  uint32_t before = races_reported();
  write(*main_, 21);
  ThreadState *child = spawn(*main_);  // creation orders main's write first
  write(*child, 22);
  EXPECT_EQ(kind(), Kind::kExclusive1);
  EXPECT_EQ(tid_of(word()), slot(child));
  join(*main_, *child);  // and the join orders the child's write before main's
  write(*main_, 23);
  EXPECT_EQ(tid_of(word()), slot(main_));
  EXPECT_EQ(races_reported(), before);
}

TEST_F(RaceStateMachine, AConcurrentReadOfReadDataMakesItSharedRead) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  read(*a, 31);
  EXPECT_EQ(kind(), Kind::kExclusive0);
  read(*b, 32);  // unordered with a's read, but neither writes
  EXPECT_EQ(kind(), Kind::kSharedRead);
  EXPECT_EQ(lockset_of(word()), kEmptyLockset);
  EXPECT_EQ(races_reported(), before);
}

TEST_F(RaceStateMachine, TheFirstTransferIsCheckedAgainstHappensBefore) {
  // The paper's Exclusive0 keeps only the owner and would take this write
  // for a hand-off; the clock in the state word shows it is concurrent.
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  write(*a, 41);
  write(*b, 42);
  EXPECT_EQ(word(), kReportedWord);
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceStateMachine, WritesUnderACommonLockAreSharedModify1) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  lock(*a, m1_);
  write(*a, 51);
  // a keeps the lock while b writes under it too: no happens-before edge
  // from a's unlock, only the common lock protects the variable.
  lock(*b, m1_);
  write(*b, 52);
  EXPECT_EQ(kind(), Kind::kSharedModify1);
  EXPECT_EQ(lockset_of(word()), lockset_intern(&m1_, 1));
  EXPECT_EQ(races_reported(), before);
  unlock(*a, m1_);
  unlock(*b, m1_);
}

TEST_F(RaceStateMachine, TheLocksetIsTheIntersectionOfTheLocksHeld) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  ThreadState *c = spawn(*main_);
  uintptr_t both[2] = {m1_, m2_};
  lock(*a, m1_);
  lock(*a, m2_);
  write(*a, 61);
  lock(*b, m1_);
  lock(*b, m2_);
  write(*b, 62);
  EXPECT_EQ(lockset_of(word()), lockset_intern(both, 2));
  lock(*c, m2_);
  write(*c, 63);  // only m2 is common to all three
  EXPECT_EQ(kind(), Kind::kSharedModify1);
  EXPECT_EQ(lockset_of(word()), lockset_intern(&m2_, 1));
  EXPECT_EQ(races_reported(), before);
}

TEST_F(RaceStateMachine, AnEmptyLocksetWithAConcurrentAccessIsARace) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  lock(*a, m1_);
  write(*a, 71);
  lock(*b, m1_);
  write(*b, 72);
  ASSERT_EQ(kind(), Kind::kSharedModify1);
  unlock(*a, m1_);
  write(*a, 73);  // without the lock: b's write is not ordered before it
  EXPECT_EQ(word(), kReportedWord);
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceStateMachine, AWriteFindsAnotherThreadsReadAfterItsOwn) {
  // Double-checked locking, both threads check before a initializes: a's
  // write under the lock must find b's unlocked read, not only a's own.
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  read(*a, 81);
  read(*b, 82);
  ASSERT_EQ(kind(), Kind::kSharedRead);
  lock(*a, m1_);
  read(*a, 83);
  write(*a, 84);
  EXPECT_EQ(word(), kReportedWord);
  EXPECT_EQ(races_reported(), before + 1);
}

// Mutexes' memory of their own, so that these tests take none of the
// numbered 64-byte places the tests above and below use (some of them
// fixed: g_memory[64 * 55] to [64 * 62]).
alignas(64) char g_mutex_memory[8 * 64];

class RaceLockTouches : public RaceStateMachine {
 protected:
  void SetUp() override {
    engine();
    static int next = 0;
    base_ = reinterpret_cast<uintptr_t>(&g_mutex_memory[64 * next++]);
    main_ = g_main;
  }
};

// The index entry of `addr`'s granule, 0 while it has neither histories nor
// a lock touch (as shadow.h's has_history_or_touch, read here so that the
// test builds against a runtime without it too).
uint32_t index_entry(const ShadowPage *page, uintptr_t addr) {
  const std::atomic<uint32_t> *index = page->history.load();
  return index ? index[cell_index(addr)].load() : 0;
}

// A mutex's first granule, which only the lock and unlock hooks read, keeps
// their last read alone (shadow.h, kLockTouchTag): no histories from the
// pool (lock_pairs: 10,000 mutexes, 48 bytes each) and a Virgin word.
TEST_F(RaceLockTouches, AMutexOnlyLockedAndUnlockedKeepsNoHistories) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  lock_whole(*a, base_, 1141);
  unlock_whole(*a, base_, 1142);
  lock_whole(*b, base_, 1143);
  unlock_whole(*b, base_, 1144);
  lock_whole(*a, base_, 1141);
  ShadowPage *page = find_shadow_page(base_);
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(find_history(page, base_), nullptr);
  EXPECT_NE(index_entry(page, base_), 0u);
  EXPECT_EQ(word(), 0u);
  unlock_whole(*a, base_, 1142);
  EXPECT_EQ(races_reported(), before);
}

// A plain write of a mutex another thread holds (a memset of a locked
// mutex) races with that thread's lock: the touch kept is its side.
TEST_F(RaceLockTouches, AWriteOfAMutexAnotherThreadHoldsIsARace) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  lock_whole(*b, base_, 1151);
  unlock_whole(*b, base_, 1152);
  lock_whole(*a, base_, 1153);
  write(*b, 1154);  // b does not hold the mutex; a's lock is not ordered before this
  EXPECT_EQ(word(), kReportedWord);
  EXPECT_EQ(races_reported(), before + 1);
  ShadowPage *page = find_shadow_page(base_);
  ASSERT_NE(page, nullptr);
  PackedHistories *hs = find_history(page, base_);
  ASSERT_NE(hs, nullptr);  // the touch became the granule's histories
  EXPECT_EQ(slot_thread(hs->read), slot(a) & kPackedThreadMask);
}

// A write ordered after the last holder's unlock (the next holder) is no
// race, and the granule goes on as its writer's: the touch the lock kept
// was its last reader's, which the lock orders before the write.
TEST_F(RaceLockTouches, AWriteByTheNextHolderOfAMutexIsNoRace) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  lock_whole(*a, base_, 1161);
  unlock_whole(*a, base_, 1162);
  lock_whole(*b, base_, 1163);
  write(*b, 1164);  // as pthread_mutex_destroy would, under the lock
  EXPECT_EQ(races_reported(), before);
  EXPECT_EQ(kind(), Kind::kExclusive0);
  EXPECT_EQ(tid_of(word()), wrap_tid(slot(b)));
  unlock_whole(*b, base_, 1165);
}

// A free of a mutex another thread holds races with its lock, and the free
// gives the touch back.
TEST_F(RaceLockTouches, AFreeOfAMutexAnotherThreadHoldsIsARaceAndGivesTheTouchBack) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  lock_whole(*a, base_, 1171);
  Event e{EventKind::kFree};
  e.addr = base_;
  e.value = 64;
  e.site = 1172;
  engine().on_event(*main_, e);  // main created a before a locked: unordered
  EXPECT_EQ(races_reported(), before + 1);
  ShadowPage *page = find_shadow_page(base_);
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(index_entry(page, base_), 0u);
}

// Memory for live threads, not every thread ever joined: a joined thread's
// race data goes at the join, and its record is reused once
// kRetiredRecordsKept more joined threads came after it.
TEST_F(RaceStateMachine, AJoinedThreadsRecordIsReusedOnceEnoughThreadsEndedAfterIt) {
  ThreadState *first = spawn(*main_);
  write(*first, 91);
  join(*main_, *first);
  EXPECT_EQ(first->engine_data[kRaceSlot], nullptr) << "the race data goes at the join";
  thread_retire(first);
  const Tid first_tid = first->tid;
  for (uint32_t i = 0; i < kRetiredRecordsKept; ++i) {
    EXPECT_EQ(thread_by_tid(first_tid), first) << "kept while it is among the recent ones: " << i;
    ThreadState *next = spawn(*main_);
    join(*main_, *next);
    thread_retire(next);
  }
  EXPECT_EQ(thread_by_tid(first_tid), nullptr) << "taken out of the table";
  ThreadState *reused = spawn(*main_);
  EXPECT_EQ(reused, first) << "the next thread gets its record";
  EXPECT_NE(reused->tid, first_tid);
  EXPECT_EQ(thread_by_tid(reused->tid), reused);
  EXPECT_EQ(reused->name[0], 0) << "a fresh record";
  join(*main_, *reused);
  thread_retire(reused);
}

TEST_F(RaceStateMachine, ARecordAnEngineStillUsesIsNotRetired) {
  ThreadState *child = spawn(*main_);  // created, never joined: race data kept
  thread_retire(child);
  for (uint32_t i = 0; i <= kRetiredRecordsKept; ++i) {
    ThreadState *next = spawn(*main_);
    join(*main_, *next);
    thread_retire(next);
  }
  EXPECT_EQ(thread_by_tid(child->tid), child);
  EXPECT_NE(child->engine_data[kRaceSlot], nullptr);
  join(*main_, *child);
}

// A detached thread's race data goes when it is gone (EventKind::kThreadGone,
// after its exit), and its slot with it: to a thread whose creator saw the
// last epoch anything may hold of the thread, which is the one before the
// tick that followed its last release when it did nothing after that.
TEST_F(RaceStateMachine, AGoneThreadsSlotGoesToAThreadCreatedAfterItsLastRelease) {
  ThreadState *worker = spawn(*main_);
  lock(*worker, m1_);
  write(*worker, 101);
  unlock(*worker, m1_);
  const Tid worker_slot = slot(worker);
  end_detached(*worker, *main_);
  EXPECT_EQ(worker->engine_data[kRaceSlot], nullptr) << "the race data goes when the thread is gone";
  lock(*main_, m1_);
  uint32_t before = races_reported();
  ThreadState *next = spawn(*main_);
  EXPECT_EQ(slot(next), worker_slot) << "main took the worker's release: the slot is free for main's next thread";
  write(*next, 102);
  EXPECT_EQ(races_reported(), before) << "ordered through the lock and the creation";
  unlock(*main_, m1_);
  join(*main_, *next);
}

TEST_F(RaceStateMachine, AGoneThreadsSlotIsNotGivenToAThreadUnorderedWithItsLastAccess) {
  ThreadState *worker = spawn(*main_);
  lock(*worker, m1_);
  unlock(*worker, m1_);
  write(*worker, 103);  // after its release: nothing orders it before main
  const Tid worker_slot = slot(worker);
  end_detached(*worker, *main_);
  lock(*main_, m1_);
  uint32_t before = races_reported();
  ThreadState *next = spawn(*main_);
  EXPECT_NE(slot(next), worker_slot) << "the worker's last write is not ordered before main";
  write(*next, 104);
  EXPECT_EQ(races_reported(), before + 1) << "the worker's last write and the next thread's are unordered";
  unlock(*main_, m1_);
  join(*main_, *next);
}

TEST_F(RaceStateMachine, AThreadThatRecordedNothingGivesItsSlotBackAboveItsEarlierUsersEpochs) {
  ThreadState *early = spawn(*main_);  // created before `first` ran: unordered with it
  ThreadState *first = spawn(*main_);
  write(*first, 105);
  join(*main_, *first);
  ThreadState *idle = spawn(*main_);  // takes first's slot, above first's epochs
  const Tid idle_slot = slot(idle);
  end_detached(*idle, *main_);  // it recorded nothing
  ThreadState *late = spawn(*early);
  EXPECT_NE(slot(late), idle_slot) << "`early` never saw first's epochs in that slot";
  join(*main_, *late);
  join(*main_, *early);
}

// A detached thread's record waits for its kernel thread to be gone, whichever
// came first, its end or its detachment, and is handed out once.
TEST(ThreadEnds, ARecordIsHandedOutOnceItsThreadEndedDetachedAndItsKernelThreadIsGone) {
  ThreadState *ended_first = thread_create_record(kNoThread, 0);
  ThreadState *detached_first = thread_create_record(kNoThread, 0);
  ended_first->kernel_tid = 1;  // init: never a thread of this process, so "gone"
  detached_first->kernel_tid = 1;
  thread_note_end(ended_first, kEnded);
  thread_note_end(detached_first, kDetachedForGood);
  EXPECT_EQ(thread_take_gone(), nullptr) << "ended but joinable, or detached but running";
  thread_note_end(ended_first, kDetachedForGood);
  thread_note_end(detached_first, kEnded);
  thread_note_end(detached_first, kEnded);  // a second note changes nothing
  ThreadState *a = thread_take_gone();
  ThreadState *b = thread_take_gone();
  EXPECT_EQ(thread_take_gone(), nullptr) << "each record once";
  EXPECT_TRUE((a == ended_first && b == detached_first) || (a == detached_first && b == ended_first));
}

TEST(ThreadEnds, ARecordWaitsWhileItsKernelThreadRuns) {
  ThreadState *t = thread_create_record(kNoThread, 0);
  t->kernel_tid = static_cast<int>(raw_syscall(SYS_gettid));  // this very thread: running
  thread_note_end(t, kEnded);
  thread_note_end(t, kDetachedForGood);
  EXPECT_EQ(thread_take_gone(), nullptr);
  t->kernel_tid = 1;
  EXPECT_EQ(thread_take_gone(), t);
}

// Heap blocks for the refinement tests: one large block (cut into chunks)
// and small ones (made fine), only their shadow is used.
alignas(kChunkSize) char g_heap[4 * kChunkSize];
alignas(64) char g_small_heap[4][256];

TEST_F(RaceStateMachine, ThreadsInDisjointHalvesOfALargeBlockKeepOneCoarseChunkEach) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(g_heap);
  auto [a, b] = block_for_two_threads(heap, sizeof g_heap);
  access(*a, heap + 64, true, 91);
  access(*b, heap + 2 * kChunkSize + 64, true, 92);  // suspicious for the block as a whole
  access(*a, heap + kChunkSize + 8, true, 93);
  access(*b, heap + 3 * kChunkSize + 8, true, 94);
  EXPECT_EQ(races_reported(), before);
  HeapBlock *block = find_heap_block(heap + 2 * kChunkSize);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->start, heap) << "the allocation, not a chunk";
  HeapBlock **chunks = block_chunks(block);
  ASSERT_NE(chunks, nullptr) << "cut into chunks, not made fine";
  ASSERT_EQ(block_chunk_count(block), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_FALSE(chunks[i]->fine.load()) << "chunk " << i;
    EXPECT_EQ(tid_of(chunks[i]->state.load()), slot(i < 2 ? a : b)) << "chunk " << i;
  }
  EXPECT_EQ(find_tracking_block(heap + 3 * kChunkSize), chunks[3]);
  // No granule of the block has a history of its own: the chunks stay coarse.
  for (uintptr_t page = heap; page < heap + sizeof g_heap; page += kPageSize)
    if (ShadowPage *p = find_shadow_page(page)) EXPECT_EQ(p->history.load(), nullptr);
}

TEST_F(RaceStateMachine, AChunkInheritsTheAccessThatTouchedIt) {
  // a reads an element of the second half, b then writes it unordered: the
  // block is cut, b's chunk inherits a's read and the race is found there.
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(g_heap);
  auto [a, b] = block_for_two_threads(heap, sizeof g_heap);
  access(*a, heap + 2 * kChunkSize + 16, false, 101);
  access(*b, heap + 2 * kChunkSize + 16, true, 102);
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(shadow_cell(heap + 2 * kChunkSize + 16)->load(), kReportedWord);
}

TEST_F(RaceStateMachine, AGranuleMadeByRefinementKeepsTheBlocksLoopRead) {
  // loop_scan_then_write: a scans the whole block (its loop-range question
  // makes the block remember the range), b writes an element afterwards,
  // unordered: the written granule inherits a's read, a race.
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(g_small_heap[0]);
  auto [a, b] = block_for_two_threads(heap, 256);
  access(*a, heap, false, 111);  // the scan's first read takes the hook
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  t_fast_path = {exclusive_word(Kind::kVirgin, slot(a), clock_of(block->state.load()), false, 0), kEmptyLockset};
  EXPECT_TRUE(range_needs_no_work(heap, 256, /*write=*/false));
  t_fast_path = {};
  EXPECT_EQ(block_histories(block).read.offset, 0u);
  EXPECT_EQ(block_histories(block).read.size, 256u);
  access(*b, heap + 128, true, 112);
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(shadow_cell(heap + 128)->load(), kReportedWord);
}

TEST_F(RaceStateMachine, RefinementGivesAGranuleOnlyTheAccessesThatTouchedIt) {
  // a writes one element, b another one, unordered (each thread its own
  // slot of a shared array): the block goes fine, no race.
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(g_small_heap[1]);
  auto [a, b] = block_for_two_threads(heap, 256);
  access(*a, heap, true, 121);
  access(*b, heap + 128, true, 122);
  EXPECT_EQ(races_reported(), before);
  EXPECT_TRUE(find_heap_block(heap)->fine.load());
  EXPECT_EQ(tid_of(shadow_cell(heap + 128)->load()), slot(b));
  EXPECT_EQ(tid_of(shadow_cell(heap)->load()), slot(a));
}

TEST_F(RaceStateMachine, AFreeGivesNoHistoriesToGranulesNeverUsed) {
  // Only the first of the range's eight granules was used. The free checks
  // and clears all eight; the pool gets back that granule's histories alone
  // (its free list is last in, first out: the next granule to need some
  // gets them), not histories made for the seven others just to be cleared.
  write(*main_, 131);
  ShadowPage *page = find_shadow_page(base_);
  ASSERT_NE(page, nullptr);
  PackedHistories *used = find_history(page, base_);
  ASSERT_NE(used, nullptr);
  Event e{EventKind::kFree};
  e.addr = base_;
  e.value = 64;
  e.site = 132;
  engine().on_event(*main_, e);
  for (uintptr_t g = base_; g < base_ + 64; g += kGranule) EXPECT_EQ(find_history(page, g), nullptr);
  const uintptr_t elsewhere = reinterpret_cast<uintptr_t>(&g_memory[sizeof g_memory - 8]);
  EXPECT_EQ(shadow_history(shadow_page(elsewhere), elsewhere), used);
}


// A free from the malloc family through the heap hook comes without its
// size (kFreeSizeNotGiven, core/event.h): a block the engine has no record
// of (allocated before the runtime started, or inside it) is as large as
// libc says, and all of it reads as written by the freeing thread after.
TEST_F(RaceStateMachine, AFreeWithoutItsSizeTakesTheSizeLibcGives) {
  void *memory = malloc(40);  // libc's own here: no record
  ASSERT_NE(memory, nullptr);
  const auto addr = reinterpret_cast<uintptr_t>(memory);
  const size_t usable = malloc_usable_size(memory);
  Event e{EventKind::kFree};
  e.addr = addr;
  e.flags = kFreeSizeNotGiven;
  e.site = 0x5f1;
  engine().on_event(*main_, e);
  for (uintptr_t g = addr; g < addr + usable; g += kGranule) {
    const uint64_t w = shadow_cell(g)->load();
    EXPECT_EQ(kind_of(w), Kind::kExclusive0) << "granule " << (g - addr) / kGranule;
    EXPECT_EQ(tid_of(w), wrap_tid(slot(main_)));
    EXPECT_TRUE(wrote(w));
  }
  free(memory);
}

// A threadset record (Shared-Modify2) belongs to the one word pointing at
// it: it goes back when the word moves on, and when the memory is freed.
// Before, none did: a program filling and freeing a vector of atomics from
// two threads, in rounds, kept every round's records.
const SharedModify2Record *threadset_of(ThreadState *t) {
  auto *r = static_cast<SharedModify2Record *>(
      internal_alloc(sizeof(SharedModify2Record) + sizeof(ThreadsetEntry)));
  r->lockset = kEmptyLockset;
  r->count = 1;
  r->entries[0] = {static_cast<const RaceThread *>(t->engine_data[kRaceSlot])->slot, 0};
  return r;
}

TEST_F(RaceStateMachine, AThreadsetRecordGoesBackWhenItsStateMovesOn) {
  write(*main_, 141);  // the granule gets its shadow and histories
  shadow_cell(base_)->store(pointer_word(Kind::kSharedModify2, threadset_of(main_)));
  const uint64_t before = state_records_retired();
  write(*main_, 142);  // its threadset is main alone: Exclusive2
  EXPECT_EQ(kind(), Kind::kExclusive2);
  EXPECT_EQ(state_records_retired(), before + 1);
}

// Two threads reading a variable main wrote last (Exclusive2) at once make
// it Shared-Modify2 with both in its threadset, as a vector's data pointer
// is when two pool threads ++ its atomic elements. Sites from `site` on.
class RaceThreadsets : public RaceStateMachine {
 protected:
  struct Readers {
    ThreadState *c, *d;
  };
  Readers two_readers_of_an_exclusive2(snag_site_t site) {
    ThreadState *a = spawn(*main_);
    ThreadState *b = spawn(*main_);
    read(*a, site);
    read(*b, site + 1);
    join(*main_, *a);
    join(*main_, *b);
    write(*main_, site + 2);  // ordered after both reads: Exclusive2
    EXPECT_EQ(kind(), Kind::kExclusive2);
    ThreadState *c = spawn(*main_);
    ThreadState *d = spawn(*main_);
    read(*c, site + 3);
    read(*d, site + 4);
    EXPECT_EQ(kind(), Kind::kSharedModify2);
    return {c, d};
  }
};

TEST_F(RaceThreadsets, AThreadReadingAgainLaterRewritesItsOwnEntry) {
  auto [c, d] = two_readers_of_an_exclusive2(501);
  const uint64_t first = word();
  const uint64_t retired = state_records_retired();
  lock(*c, m1_);
  unlock(*c, m1_);  // c's clock moves on
  read(*c, 506);
  // The same record, c's entry at c's clock now, and a new version (so a
  // thread that read the record before fails its compare-and-swap).
  EXPECT_EQ(pointer_of(word()), pointer_of(first));
  EXPECT_NE(word(), first);
  EXPECT_EQ(state_records_retired(), retired);
  const auto *rec = static_cast<const SharedModify2Record *>(pointer_of(word()));
  const auto *crt = static_cast<const RaceThread *>(c->engine_data[kRaceSlot]);
  ASSERT_EQ(rec->count, 2u);
  EXPECT_EQ(rec->entries[0].thread, crt->slot);
  EXPECT_EQ(rec->entries[0].clock, crt->now);
}

TEST_F(RaceThreadsets, AWriteAfterAnOlderReleaseOfARewrittenThreadStillRaces) {
  // c releases m1 and then reads again: its rewritten entry has the clock
  // after the release. d takes m1 (it knows c only up to the release) and
  // writes: c's later read is concurrent. With c's entry left at its first
  // read, d would find itself alone in the threadset and take the variable
  // as Exclusive2 without a check.
  uint32_t before = races_reported();
  auto [c, d] = two_readers_of_an_exclusive2(511);
  lock(*c, m1_);
  unlock(*c, m1_);
  read(*c, 516);
  lock(*d, m1_);
  write(*d, 517);
  unlock(*d, m1_);
  EXPECT_EQ(word(), kReportedWord);
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceStateMachine, AFreeGivesBackTheRecordsItsGranulesOwn) {
  write(*main_, 151);
  // The first granule Shared-Modify2; the second split, one of its bytes
  // Shared-Modify2.
  shadow_cell(base_)->store(pointer_word(Kind::kSharedModify2, threadset_of(main_)));
  note_state_record(base_);
  auto *split = new (internal_alloc(sizeof(SplitGranule))) SplitGranule();
  split->state[3].store(pointer_word(Kind::kSharedModify2, threadset_of(main_)));
  shadow_cell(base_ + kGranule)->store(pointer_word(Kind::kIndirect, split));
  note_state_record(base_ + kGranule);
  const uint64_t before = state_records_retired();
  Event e{EventKind::kFree};
  e.addr = base_;
  e.value = 64;
  e.site = 152;
  engine().on_event(*main_, e);
  EXPECT_EQ(state_records_retired(), before + 3);  // two threadsets and the split granule
  EXPECT_NE(kind_of(shadow_cell(base_)->load()), Kind::kSharedModify2);
  EXPECT_NE(kind_of(shadow_cell(base_ + kGranule)->load()), Kind::kIndirect);
}

// A small coarse block's free clears its record's state with a plain store
// when the state owns no record (heap_blocks.h, delete_heap_block), and
// still gives back one that does.
TEST_F(RaceStateMachine, AFreedCoarseBlockClearsItsStateAndGivesBackItsRecord) {
  Event e{EventKind::kFree};
  e.addr = base_;
  e.value = 32;
  e.site = 171;
  alloc(*main_, base_, 32);
  HeapBlock *owned = find_heap_block(base_);
  ASSERT_NE(owned, nullptr);
  owned->state.store(pointer_word(Kind::kSharedModify2, threadset_of(main_)));
  uint64_t before = state_records_retired();
  engine().on_event(*main_, e);
  EXPECT_EQ(state_records_retired(), before + 1);
  EXPECT_EQ(owned->state.load(), 0u);
  alloc(*main_, base_, 32);
  HeapBlock *plain = find_heap_block(base_);
  ASSERT_NE(plain, nullptr);
  write(*main_, 172);
  EXPECT_EQ(kind_of(plain->state.load()), Kind::kExclusive0);
  before = state_records_retired();
  engine().on_event(*main_, e);
  EXPECT_EQ(state_records_retired(), before);
  EXPECT_EQ(plain->state.load(), 0u) << "a dead record's state reads Virgin";
  EXPECT_EQ(find_heap_block(base_), nullptr);
}

TEST_F(RaceStateMachine, AFreeOfSeveralPagesGivesBackTheRecordsToo) {
  // Blocks over a page take another path (shadow_clear).
  alignas(4096) static char pages[3 * 4096];
  const uintptr_t start = reinterpret_cast<uintptr_t>(pages);
  const uintptr_t granule = start + 4096 + 64;
  alloc(*main_, start, sizeof pages);
  access(*main_, granule, true, 161);
  shadow_cell(granule)->store(pointer_word(Kind::kSharedModify2, threadset_of(main_)));
  note_state_record(granule);
  const uint64_t before = state_records_retired();
  Event e{EventKind::kFree};
  e.addr = start;
  e.value = sizeof pages;
  e.site = 162;
  engine().on_event(*main_, e);
  EXPECT_EQ(state_records_retired(), before + 1);
}

// The same state machine with the fast path on (fast_path.h), as in a real
// run where the race engine is the only engine: on_access then answers the
// commonest Exclusive transitions, and a range access its owner repeats, with
// its shortcuts (race_access.cpp: access_exclusive_again, range_owner_again).
// The test's threads share one real thread, so each access first publishes
// its own thread's epoch and locks, as that thread's last event would have.
class RaceShortcuts : public RaceStateMachine {
 protected:
  void TearDown() override {
    g_access_hook = nullptr;
    t_fast_path = FastPathThread{};
  }
  static void become(ThreadState &t) {
    g_access_hook = &RaceEngine::on_access;
    const auto *rt = static_cast<const RaceThread *>(t.engine_data[kRaceSlot]);
    t_fast_path = FastPathThread{};
    t_fast_path.epoch_word = exclusive_word(Kind::kVirgin, rt->slot, rt->now, false, 0);
    t_fast_path.lockset_all = rt->lockset_all;
    t_fast_path.lockset_write = rt->lockset_write;
  }
  static Clock now(const ThreadState &t) { return static_cast<const RaceThread *>(t.engine_data[kRaceSlot])->now; }
  void write_range(ThreadState &t, uintptr_t size, snag_site_t site) {
    become(t);
    RaceEngine::on_access(t, base_, size, kAccessWrite | kAccessRange, site);
  }
  void write_at(ThreadState &t, uintptr_t addr, snag_site_t site) {
    become(t);
    access(t, addr, true, site);
  }
  // The site and calling context of the write remembered for the granule at
  // `addr` (zeros: none).
  static std::pair<snag_site_t, StackId> remembered_write_stack(uintptr_t addr) {
    PackedHistories *h = find_history(find_shadow_page(addr), addr);
    snag_site_t site = 0;
    StackId context = 0;
    if (h && h->write.stack) access_stack_of(h->write.stack, &site, &context);
    return {site, context};
  }
  static snag_site_t remembered_write(uintptr_t addr) { return remembered_write_stack(addr).first; }
  static StackId remembered_context(uintptr_t addr) { return remembered_write_stack(addr).second; }
  // main writes bytes 0-3 and then 4-7 of base_'s granule (two variables of
  // one stack slot: the granule splits into bytes); returns a thread created
  // before, ordered after neither write.
  ThreadState *split_by_main(snag_site_t first, snag_site_t second) {
    ThreadState *a = spawn(*main_);
    become(*main_);
    RaceEngine::on_access(*main_, base_, 4, kAccessWrite, first);
    RaceEngine::on_access(*main_, base_ + 4, 4, kAccessWrite, second);
    return a;
  }
  // The site of the write remembered for byte `b` of the split granule base_.
  snag_site_t split_byte_write(int b) {
    const auto *split = static_cast<const SplitGranule *>(pointer_of(word()));
    snag_site_t site;
    StackId context;
    access_stack_of(split->history[b].write.stack, &site, &context);
    return site;
  }
};

TEST_F(RaceShortcuts, TheOwnerInANewEpochRemembersItsNewAccess) {
  // main writes, releases a lock (a new epoch), writes again; a takes the
  // lock: it is ordered after the first write, not after the second.
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  write_at(*main_, base_, 141);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  write_at(*main_, base_, 142);
  EXPECT_EQ(clock_of(word()), now(*main_)) << "the word takes the new epoch";
  EXPECT_EQ(tid_of(word()), slot(main_));
  EXPECT_EQ(remembered_write(base_), 142u) << "the race's previous access is the second write";
  lock(*a, m1_);
  write_at(*a, base_, 143);
  EXPECT_EQ(word(), kReportedWord);
  EXPECT_EQ(races_reported(), before + 1) << "a's write races with main's second write";
}

TEST_F(RaceShortcuts, AHandOffThroughALockChangesTheOwnerWithoutARace) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  lock(*main_, m1_);
  write_at(*main_, base_, 151);
  unlock(*main_, m1_);
  lock(*a, m1_);
  write_at(*a, base_, 152);
  unlock(*a, m1_);
  EXPECT_EQ(kind(), Kind::kExclusive1);
  EXPECT_EQ(tid_of(word()), slot(a));
  EXPECT_EQ(remembered_write(base_), 152u);
  // Not ordered after a's write: main's next one is a race.
  write_at(*main_, base_, 153);
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceShortcuts, ARangeTheOwnerWroteInAnEarlierEpochIsCheckedAgain) {
  // Two granules written as one range, twice in one epoch (the second is
  // skipped), then in a new epoch: that one must renew both granules, or a
  // thread ordered only after the first epoch misses the race.
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  write_range(*main_, 16, 161);
  const uint64_t first = word();
  write_range(*main_, 16, 162);
  EXPECT_EQ(word(), first) << "the owner again in the same epoch changes nothing";
  EXPECT_EQ(remembered_write(base_), 161u);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  write_range(*main_, 16, 163);
  EXPECT_EQ(clock_of(word()), now(*main_));
  EXPECT_EQ(clock_of(shadow_cell(base_ + 8)->load()), now(*main_));
  EXPECT_EQ(remembered_write(base_ + 8), 163u);
  lock(*a, m1_);
  write_at(*a, base_ + 8, 164);
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceShortcuts, ANewBlocksFirstAccessMakesItExclusive) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 60]);
  auto [a, b] = block_for_two_threads(heap, 64);
  write_at(*a, heap + 8, 171);
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  EXPECT_FALSE(block->fine.load());
  const uint64_t w = block->state.load();
  EXPECT_EQ(kind_of(w), Kind::kExclusive0);
  EXPECT_EQ(tid_of(w), slot(a));
  ASSERT_NE(block_histories(block).write.stack, 0u);
  snag_site_t site;
  StackId context;
  access_stack_of(block_histories(block).write.stack, &site, &context);
  EXPECT_EQ(site, 171u);
  write_at(*b, heap + 8, 172);  // a and b are not ordered
  EXPECT_EQ(races_reported(), before + 1);
}

// A small block (its record's histories packed): the race's previous side
// is the access the block remembered, carried down to the granule when the
// block went fine.
TEST_F(RaceShortcuts, ASmallBlockRemembersThePreviousSideOfItsRace) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 62]);
  auto [a, b] = block_for_two_threads(heap, 48);
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(record_form(block), RecordForm::kThin);
  write_at(*a, heap + 40, 181);
  write_at(*b, heap + 40, 182);  // a and b are not ordered
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(remembered_write(heap + 40), 181u) << "the previous access named by the report";
}

// A block of at most 64 bytes gets a thin record (heap_blocks.h: its
// owner's read and write, no lockset, no other_read). A read by a second
// thread while the owner's read is remembered spills it: the record's
// histories move to its spill, and a later race still names the owner's
// write as its previous side.
TEST_F(RaceShortcuts, AThinBlockSpilledByASecondReaderStillNamesTheOwnersWrite) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 56]);
  auto [a, b] = block_for_two_threads(heap, 48);
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  become(*a);
  access(*a, heap + 8, false, 300);  // (a read after a's own write would need no history)
  write_at(*a, heap + 8, 301);
  EXPECT_EQ(record_form(block), RecordForm::kThin) << "one thread, no lock: the record stays thin";
  ThreadState *c = spawn(*a);  // ordered after a's accesses
  become(*c);
  access(*c, heap + 8, false, 302);
  EXPECT_EQ(record_form(block), RecordForm::kThinSpilled) << "c's read is remembered beside a's";
  const Histories hs = block_histories(block);
  snag_site_t site;
  StackId context;
  access_stack_of(hs.write.stack, &site, &context);
  EXPECT_EQ(site, 301u);
  access_stack_of(hs.read.stack, &site, &context);
  EXPECT_EQ(site, 300u);
  access_stack_of(hs.other_read.stack, &site, &context);
  EXPECT_EQ(site, 302u);
  EXPECT_EQ(races_reported(), before);
  write_at(*b, heap + 8, 303);  // ordered after none of a's and c's accesses
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(remembered_write(heap + 8), 301u) << "the previous access named by the report";
}

// An access under a lock does not fit a thin record (it keeps no lockset):
// the owner's first locked write spills it, and the race with an unlocked
// write names that write.
TEST_F(RaceShortcuts, AThinBlockSpilledByALockedAccessStillNamesIt) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 57]);
  auto [a, b] = block_for_two_threads(heap, 32);
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(record_form(block), RecordForm::kThin);
  lock(*a, m1_);
  write_at(*a, heap + 16, 311);
  EXPECT_EQ(record_form(block), RecordForm::kThinSpilled);
  EXPECT_NE(block_histories(block).write.lockset, kEmptyLockset);
  write_at(*b, heap + 16, 312);  // no lock, not ordered after a's write
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(remembered_write(heap + 16), 311u);
  unlock(*a, m1_);
}

// A block allocated under a lock gets a packed record even when it is small:
// its accesses are most likely locked too, and would spill a thin record at
// once (lock_hash_map's bucket vectors, grown under their bucket's lock).
TEST_F(RaceShortcuts, ASmallBlockAllocatedUnderALockGetsAPackedRecord) {
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 55]);
  lock(*main_, m1_);
  alloc(*main_, heap, 32);
  unlock(*main_, m1_);
  alloc(*main_, heap + 32, 32);
  HeapBlock *locked = find_heap_block(heap), *unlocked = find_heap_block(heap + 32);
  ASSERT_NE(locked, nullptr);
  ASSERT_NE(unlocked, nullptr);
  EXPECT_EQ(record_form(locked), RecordForm::kPacked);
  EXPECT_EQ(record_form(unlocked), RecordForm::kThin);
}

// A block inside one page has its granules' words written once at malloc,
// with the block's word (shadow_mark_block: no reset first). Whatever a
// granule held before, the freed word of the block freed there included, is
// gone: a thread unordered with that free allocates the memory again and
// writes it without a race, and the next race names that write.
TEST_F(RaceShortcuts, ABlockAllocatedWhereAnotherWasFreedStartsFreshOnEveryGranule) {
  uint32_t before = races_reported();
  ThreadState *c = spawn(*main_);  // not ordered after main's free below
  alloc(*main_, base_, 40);
  write_at(*main_, base_ + 32, 201);
  Event e{EventKind::kFree};
  e.addr = base_;
  e.value = 40;
  e.site = 202;
  become(*main_);
  engine().on_event(*main_, e);  // each granule now reads as written by main's free
  alloc(*c, base_, 40);
  for (uintptr_t g = base_; g < base_ + 40; g += kGranule) {
    HeapBlock *block = block_of_word(shadow_cell(g)->load());
    ASSERT_NE(block, nullptr) << "granule " << (g - base_) / kGranule;
    EXPECT_EQ(block->start, base_);
  }
  write_at(*c, base_ + 32, 203);
  EXPECT_EQ(races_reported(), before) << "the freed word did not outlive the new block's malloc";
  ThreadState *d = spawn(*main_);  // ordered after neither c's malloc nor its write
  write_at(*d, base_ + 32, 204);
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(remembered_write(base_ + 32), 203u) << "the race's previous access is c's write";
}

// A granule split into bytes (two variables of one stack slot) is answered
// by the hooks before they call the engine (fast_path.h:
// hooks_need_no_work): yes only for the owner's bytes in its
// current epoch, so that another thread's access, or the owner's after an
// unlock, still takes the state machine, races with the byte's own writer
// and names that writer's site.
TEST_F(RaceShortcuts, ASplitGranuleIsAnsweredBeforeTheEngineOnlyForItsOwnersEpoch) {
  uint32_t before = races_reported();
  ThreadState *a = split_by_main(181, 182);
  ASSERT_EQ(kind(), Kind::kIndirect);
  ASSERT_EQ(indirect_type(word()), IndirectType::kSplit);
  EXPECT_TRUE(hooks_need_no_work(base_, 4, true));
  EXPECT_TRUE(hooks_need_no_work(base_ + 4, 4, false));
  EXPECT_TRUE(hooks_need_no_work(base_ + 2, 4, true)) << "bytes of both writes";
  lock(*main_, m1_);
  unlock(*main_, m1_);
  become(*main_);
  EXPECT_FALSE(hooks_need_no_work(base_, 4, true)) << "a new epoch: each byte is renewed";
  RaceEngine::on_access(*main_, base_ + 4, 4, kAccessWrite, 183);
  become(*a);
  EXPECT_FALSE(hooks_need_no_work(base_, 4, false)) << "not a's bytes";
  // a is ordered after neither of main's epochs: its read of bytes 0-3
  // races with main's write at 181.
  RaceEngine::on_access(*a, base_, 4, 0, 184);
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(split_byte_write(0), 181u) << "the previous access of byte 0 is main's first write";
  EXPECT_EQ(split_byte_write(4), 183u);
}

// The hooks do not look a split granule's word up twice: the inlined fast
// path hands the word it loaded to the split check (hooks.cpp,
// access_after_fast_path). The word handed on must be the granule's, and
// nothing when the fast path loaded none, so that the check answers exactly
// as hooks_need_no_work does.
TEST_F(RaceShortcuts, TheFastPathHandsTheWordItSawToTheSplitCheck) {
  uint32_t before = races_reported();
  ThreadState *a = split_by_main(185, 186);
  ASSERT_EQ(indirect_type(word()), IndirectType::kSplit);
  uint64_t seen = 1;
  EXPECT_FALSE(access_quickly_needs_no_work(base_, 4, true, &seen));
  EXPECT_EQ(seen, word()) << "the split granule's word";
  EXPECT_TRUE(split_word_needs_no_work(seen, base_, 4, true));
  EXPECT_TRUE(split_word_needs_no_work(seen, base_ + 2, 4, true)) << "bytes of both writes";
  EXPECT_FALSE(split_word_needs_no_work(0, base_, 4, true)) << "no word seen";
  seen = 1;
  EXPECT_FALSE(access_quickly_needs_no_work(base_ + 4, 8, true, &seen)) << "two granules";
  EXPECT_EQ(seen, 0u) << "the fast path does not answer it and loaded no word";
  // Another thread's access: the word handed on says no, and the engine
  // finds the race with main's write.
  become(*a);
  EXPECT_FALSE(access_quickly_needs_no_work(base_, 4, false, &seen));
  EXPECT_EQ(seen, word());
  EXPECT_FALSE(split_word_needs_no_work(seen, base_, 4, false)) << "not a's bytes";
  RaceEngine::on_access(*a, base_, 4, kAccessQuickAsked, 187);
  EXPECT_EQ(races_reported(), before + 1);
}

// The split granule's question is asked once per access: the hooks ask it
// before the engine (kAccessQuickAsked), so access_slowly_needs_no_work no
// longer does; every other caller (access_needs_no_work, on_access from an
// interceptor or an atomic) asks it itself. Still only for the owner's bytes
// in its epoch: another thread's access through on_access takes the state
// machine and its race names the byte's writer.
TEST_F(RaceShortcuts, ASplitGranuleIsAskedOnceAndStillOnlyForItsOwnersEpoch) {
  uint32_t before = races_reported();
  ThreadState *a = split_by_main(185, 186);
  ASSERT_EQ(kind(), Kind::kIndirect);
  ASSERT_EQ(indirect_type(word()), IndirectType::kSplit);
  EXPECT_FALSE(access_slowly_needs_no_work(base_, 4, true, SplitGranules::kAskedAlready))
      << "the hooks asked it already";
  EXPECT_TRUE(access_slowly_needs_no_work(base_, 4, true));
  EXPECT_TRUE(access_needs_no_work(base_, 4, true));
  const uint64_t split_word = word();
  RaceEngine::on_access(*main_, base_, 4, kAccessWrite, 187);  // the owner again: no work
  EXPECT_EQ(word(), split_word);
  become(*a);
  EXPECT_FALSE(access_needs_no_work(base_ + 4, 4, false)) << "not a's bytes";
  RaceEngine::on_access(*a, base_ + 4, 4, 0, 188);  // unordered with main's write at 186
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(split_byte_write(0), 185u) << "the owner's second write in its epoch left byte 0 alone";
  EXPECT_EQ(split_byte_write(4), 186u) << "the race's previous access";
}

// A range over granules its owner wrote in this epoch, one of them split
// into bytes (a string built on the stack and then copied), needs no work
// (fast_path.h: range_owned_again, which the range hooks and
// range_owner_again ask): access_slow would skip every byte. Not where a
// byte is not the owner's, not after an unlock, not for another thread,
// whose range still races with the bytes' writers.
TEST_F(RaceShortcuts, ARangeOverASplitGranuleIsAnsweredOnlyForItsOwnersEpoch) {
  uint32_t before = races_reported();
  ThreadState *a = split_by_main(211, 212);  // bytes 0-3 and 4-7 of base_
  ASSERT_EQ(indirect_type(word()), IndirectType::kSplit);
  write_at(*main_, base_ + 8, 213);  // the next granule, whole
  EXPECT_TRUE(range_owned_again(base_, 16, true));
  EXPECT_TRUE(range_owned_again(base_ + 2, 12, false));
  EXPECT_FALSE(range_owned_again(base_ + 4, 16, false)) << "bytes 16-19 are no one's yet";
  EXPECT_FALSE(range_owned_again(base_ + 2, 4, true)) << "inside one granule: the fast path's";
  lock(*main_, m1_);
  unlock(*main_, m1_);
  become(*main_);
  EXPECT_FALSE(range_owned_again(base_, 16, false)) << "a new epoch: each byte is renewed";
  become(*a);
  EXPECT_FALSE(range_owned_again(base_, 16, false)) << "not a's bytes";
  RaceEngine::on_access(*a, base_, 16, kAccessRange, 214);  // unordered with main's writes
  EXPECT_GE(races_reported(), before + 1);
  EXPECT_EQ(split_byte_write(0), 211u);
}

// range_owned_again answers a split granule's byte whose word equals the
// first byte's as that one; a byte whose word differs is asked itself.
TEST_F(RaceShortcuts, ARangeOverASplitGranuleAsksEachByteThatDiffersFromTheFirst) {
  split_by_main(221, 222);  // bytes 0-3 and 4-7 of base_
  ASSERT_EQ(indirect_type(word()), IndirectType::kSplit);
  write_at(*main_, base_ + 8, 223);
  ASSERT_TRUE(range_owned_again(base_, 16, true));
  auto *split = static_cast<SplitGranule *>(pointer_of(word()));
  const uint64_t kept = split->state[6].load();
  split->state[6].store(0);  // no one's
  EXPECT_FALSE(range_owned_again(base_, 16, true));
  EXPECT_FALSE(range_owned_again(base_ + 5, 8, false));
  EXPECT_TRUE(range_owned_again(base_ + 7, 8, false)) << "byte 6 not in the range";
  split->state[6].store(split->state[0].load());  // the first byte's word
  EXPECT_TRUE(range_owned_again(base_, 16, true));
  split->state[6].store(kept);
  EXPECT_TRUE(range_owned_again(base_, 16, true));
}

// A range over several granules inside one coarse block is answered by the
// range hooks' inlined check (fast_path.h: range_quickly_needs_no_work)
// only when the block's Exclusive owner touches it again in this epoch
// (having written, for a write), as range_owner_again answers it: another
// thread's range, or the owner's after an unlock, still takes the state
// machine and the race names the block's remembered write.
TEST_F(RaceShortcuts, ARangeInsideABlockIsAnsweredInlineOnlyForItsOwnersEpoch) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 59]);
  auto [a, b] = block_for_two_threads(heap, 64);
  become(*a);
  EXPECT_FALSE(range_quickly_needs_no_work(heap, 32, false)) << "a new block: its first access";
  RaceEngine::on_access(*a, heap, 32, kAccessRange, 191);  // a reads: Exclusive0, not written
  EXPECT_TRUE(range_quickly_needs_no_work(heap + 8, 24, false));
  EXPECT_FALSE(range_quickly_needs_no_work(heap + 8, 24, true)) << "a write where a only read";
  RaceEngine::on_access(*a, heap, 32, kAccessRange | kAccessWrite, 192);
  EXPECT_TRUE(range_quickly_needs_no_work(heap + 8, 24, true));
  EXPECT_FALSE(range_quickly_needs_no_work(heap + 48, 24, false)) << "past the block's end";
  g_ranges_answered_inline = false;  // potential=1
  EXPECT_FALSE(range_quickly_needs_no_work(heap + 8, 24, true));
  g_ranges_answered_inline = true;
  lock(*a, m1_);
  unlock(*a, m1_);
  become(*a);
  EXPECT_FALSE(range_quickly_needs_no_work(heap + 8, 24, false)) << "a new epoch";
  become(*b);
  EXPECT_FALSE(range_quickly_needs_no_work(heap + 8, 24, false)) << "not b's block";
  RaceEngine::on_access(*b, heap + 8, 24, kAccessRange, 193);  // unordered with a's write
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(remembered_write(heap + 8), 192u) << "the previous access is a's range write";
}

// A heap block's allocation stack: the one capture_stack gives at the
// allocation, also when this thread allocated at the same site before from
// another caller whose frame f sits at the same depth and address
// (race_access.cpp, allocation_stack keeps the last id per site and cached
// calling context).
TEST_F(RaceShortcuts, BlocksAllocatedAtOneSiteFromTwoCallersKeepTheirOwnStacks) {
  const auto first = reinterpret_cast<uintptr_t>(&g_memory[64 * 61]);
  const auto second = reinterpret_cast<uintptr_t>(&g_memory[64 * 62]);
  const auto third = reinterpret_cast<uintptr_t>(&g_memory[64 * 63]);
  ShadowStack &s = main_->shadow;
  if (!s.frames) s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);  // a record's: none
  const uint32_t depth = s.depth;
  auto alloc_at = [&](uintptr_t addr, snag_site_t caller) {
    s.push(caller, 0x10000);  // main -> caller's function
    s.push(0x191, 0x0f000);   // -> the allocating function
    Event e{EventKind::kAlloc};
    e.addr = addr;
    e.value = 16;
    e.site = 0x192;  // its malloc
    engine().on_event(*main_, e);
    StackTrace expected;
    capture_stack(s, 0x192, &expected);
    s.pop();
    s.pop();
    return depot_put(expected);
  };
  const StackId via_a = alloc_at(first, 0x1a0);
  const StackId via_b = alloc_at(second, 0x1b0);
  const StackId via_a_again = alloc_at(third, 0x1a0);
  EXPECT_NE(via_a, via_b);
  EXPECT_EQ(via_a, via_a_again);
  EXPECT_EQ(block_allocation_stack(find_heap_block(first)), via_a);
  EXPECT_EQ(block_allocation_stack(find_heap_block(second)), via_b) << "not the stack of the first caller";
  EXPECT_EQ(block_allocation_stack(find_heap_block(third)), via_a);
  EXPECT_EQ(s.depth, depth);
}

// The calling context is kept per depth of the shadow stack and made again
// only for frames whose call site changed (race_access.cpp, cached_context;
// stacks deeper than RaceThread::kContextDepths keep one cached context):
// through calls from several sites (an uninstrumented caller's 0 among
// them), returns, frames an exception left (a push below the top drops
// them) and stacks deeper than the per-depth contexts, every allocation's
// stack is the one capture_stack gives at that moment.
TEST_F(RaceShortcuts, AllocationStacksFollowTheShadowStackThroughCallsAndReturns) {
  alignas(64) static char memory[64];
  const uintptr_t block = reinterpret_cast<uintptr_t>(memory);
  ShadowStack &s = main_->shadow;
  if (!s.frames) s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  const uint32_t depth = s.depth;
  ASSERT_EQ(depth, 0u) << "the test's frames are the only ones";
  uint64_t seed = 0x5eed;
  auto next = [&](uint32_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33) % n;
  };
  // Frame i sits at frame_at(i): the stack grows down.
  auto frame_at = [](uint32_t i) { return uintptr_t(0x800000) - (uintptr_t(i) + 1) * 0x40; };
  int allocations = 0, deep = 0;
  for (int step = 0; step < 40000; ++step) {
    // Phases of deeper and shallower calls, so that the stack wanders over
    // every depth, the deep ones included.
    const bool deeper = (step / 2000) % 2 == 0;
    const uint32_t r = next(64);
    if (r < (deeper ? 24u : 16u) && s.depth < RaceThread::kContextDepths + 16) {
      s.push(next(4) == 0 ? 0 : 0x600 + next(3), frame_at(s.depth));
    } else if (r < 40 && s.depth > 0) {
      s.pop();
    } else if (r == 40 && s.depth > 1 && next(4) == 0) {
      // An exception: the next call lands below frames that never returned.
      const uint32_t keep = next(s.depth);
      s.push(0x610 + next(2), frame_at(keep));
      ASSERT_EQ(s.depth, keep + 1);
    } else {
      const snag_site_t site = 0x620 + next(2);
      Event e{EventKind::kAlloc};
      e.addr = block;
      e.value = 16;
      e.site = site;
      engine().on_event(*main_, e);
      StackTrace expected;
      capture_stack(s, site, &expected);
      ASSERT_EQ(block_allocation_stack(find_heap_block(block)), depot_put(expected))
          << "allocation " << allocations << " at depth " << s.depth;
      Event f{EventKind::kFree};
      f.addr = block;
      f.value = 16;
      f.site = 0x630;
      engine().on_event(*main_, f);
      ++allocations;
      if (s.depth > RaceThread::kContextDepths) ++deep;
    }
  }
  EXPECT_GT(allocations, 1000);
  EXPECT_GT(deep, 100) << "allocations below the per-depth contexts";
  while (s.depth > depth) s.pop();
}

// The calling context a history names is cached while the top frame stays;
// main -> a -> f and then main -> b -> f put f at the same depth and frame
// address, called from the same site, and f's second write must still name
// b as its caller.
TEST_F(RaceShortcuts, AWriteNamesItsOwnCallerWhenAnotherLeftTheSameTopFrame) {
  const uintptr_t first = base_, second = base_ + 8;  // two variables
  ShadowStack &s = main_->shadow;
  if (!s.frames) s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  const uint32_t depth = s.depth;
  auto write_from = [&](uintptr_t addr, snag_site_t caller, snag_site_t site) {
    s.push(caller, 0x10000);  // main -> a or b
    s.push(0x1c1, 0x0f000);   // -> f, from the same site in both
    write_at(*main_, addr, site);
    StackTrace expected;
    capture_stack(s, 0, &expected);
    s.pop();
    s.pop();
    return depot_put(expected);
  };
  const StackId via_a = write_from(first, 0x1a0, 0x1c2);
  const StackId via_b = write_from(second, 0x1b0, 0x1c2);
  ASSERT_NE(via_a, via_b);
  EXPECT_EQ(remembered_context(first), via_a);
  EXPECT_EQ(remembered_context(second), via_b) << "the context cached for a's call of f";
  EXPECT_EQ(s.depth, depth);
}

// An atomic as the compiler hooks send it (core/hooks.cpp) to the race
// engine alone (RaceEngine::on_atomic_hook), from thread `t` with its epoch
// published: the first half, and for a load the second.
class RaceAtomics : public RaceShortcuts {
 protected:
  static void atomic(ThreadState &t, EventKind kind, uint32_t op, uint32_t order, uintptr_t addr,
                     snag_site_t site) {
    become(t);
    Event e{kind};
    e.addr = addr;
    e.size = 8;
    e.value = op;
    e.order = order;
    e.addr2 = order;
    e.flags = 1;
    e.site = site;
    RaceEngine::on_atomic_hook(t, e);
  }
  static void load(ThreadState &t, uint32_t order, uintptr_t addr, snag_site_t site) {
    atomic(t, EventKind::kAtomicBefore, SNAG_ATOMIC_LOAD, order, addr, site);
    atomic(t, EventKind::kAtomicAfter, SNAG_ATOMIC_LOAD, order, addr, site);
  }
  static void store(ThreadState &t, uint32_t order, uintptr_t addr, snag_site_t site) {
    atomic(t, EventKind::kAtomicBefore, SNAG_ATOMIC_STORE, order, addr, site);
  }
};

// on_atomic_hook answers a load's first half itself when the fast path
// answers its read: not so for a read of another thread's unordered write,
// which races.
TEST_F(RaceAtomics, AnAtomicLoadOfAnUnorderedPlainWriteStillRaces) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  write_at(*a, base_, 521);
  load(*b, SNAG_RELAXED, base_, 522);
  EXPECT_EQ(races_reported(), before + 1) << "b's atomic load of a's plain write";
}

// ... and only a load's first half: a store whose read the fast path
// answers (its variable Shared-Read) still releases, and a load's second
// half still acquires, so b's write after taking a's release is ordered
// after a's.
TEST_F(RaceAtomics, AReleaseStoreToASharedReadVariableStillReleasesAndTheLoadAcquires) {
  uint32_t before = races_reported();
  const uintptr_t flag = base_ + 8;
  ThreadState *a = spawn(*main_);
  ThreadState *b = spawn(*main_);
  load(*a, SNAG_RELAXED, flag, 531);
  load(*b, SNAG_RELAXED, flag, 532);  // unordered reads: the flag is Shared-Read
  ASSERT_EQ(kind_of(shadow_cell(flag)->load()), Kind::kSharedRead);
  write_at(*a, base_, 533);
  store(*a, SNAG_RELEASE, flag, 534);
  load(*b, SNAG_ACQUIRE, flag, 535);
  write_at(*b, base_, 536);
  EXPECT_EQ(races_reported(), before) << "b took a's release";
  EXPECT_EQ(tid_of(word()), slot(b));
}

// Threads a and b, the flag at base_ + 8 released at by both (a variable,
// not a compact word), then a's write of base_ and a's release at the flag.
struct FlagReleased {
  ThreadState *a;
  ThreadState *b;
  uintptr_t flag;
};

class RaceAtomicVariables : public RaceAtomics {
 protected:
  FlagReleased flag_released_after_a_write(snag_site_t site) {
    FlagReleased r{spawn(*main_), spawn(*main_), base_ + 8};
    store(*r.b, SNAG_RELEASE, r.flag, site);
    store(*r.a, SNAG_RELEASE, r.flag, site + 1);
    EXPECT_FALSE(sync_has_compact_word(r.flag));
    write_at(*r.a, base_, site + 2);
    store(*r.a, SNAG_RELEASE, r.flag, site + 3);
    return r;
  }
};

// on_atomic_hook also answers a second half itself when its acquire takes
// nothing (sync_acquire_takes_nothing: the version of the variable taken
// already): a new release at the variable is still taken, and so is the
// same version by an acquire after a relaxed load (which took it only into
// the fence clock). Each of b's writes races with a's unless b's acquire
// took a's release before it.
TEST_F(RaceAtomicVariables, AnAcquireOfAVersionTakenAlreadyReturnsButANewReleaseIsTaken) {
  uint32_t before = races_reported();
  const auto [a, b, flag] = flag_released_after_a_write(541);
  load(*b, SNAG_ACQUIRE, flag, 545);
  load(*b, SNAG_ACQUIRE, flag, 546);  // the same version again: nothing to take
  write_at(*b, base_, 547);
  ASSERT_EQ(races_reported(), before) << "b took a's release";
  store(*b, SNAG_RELEASE, flag, 548);
  load(*a, SNAG_ACQUIRE, flag, 549);
  write_at(*a, base_, 550);
  store(*a, SNAG_RELEASE, flag, 551);
  load(*b, SNAG_ACQUIRE, flag, 552);  // a version after the one b holds
  write_at(*b, base_, 553);
  EXPECT_EQ(races_reported(), before) << "b took a's second release";
}

TEST_F(RaceAtomicVariables, AnAcquireAfterARelaxedLoadOfTheSameVersionStillTakesIt) {
  uint32_t before = races_reported();
  const auto [a, b, flag] = flag_released_after_a_write(561);
  load(*b, SNAG_RELAXED, flag, 565);  // into b's fence clock only
  load(*b, SNAG_ACQUIRE, flag, 566);  // the same version, into b's clock
  write_at(*b, base_, 567);
  EXPECT_EQ(races_reported(), before) << "b's acquire took a's release";
}

// The renewal shortcut (race_access.cpp, RaceEngine::renew): what the hooks
// ask with the word the inlined check loaded, before the engine's hook
// (renew_after_fast_path).
class RaceRenewal : public RaceShortcuts {
 protected:
  enum class Route { kFastPath, kSplit, kRenewed, kEngine };
  // An access as the compiler hooks make it (core/hooks.cpp), and which of
  // their steps took it.
  static Route hooked(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site) {
    become(t);
    return route(t, addr, size, write, site);
  }
  // Apart from become(): GCC 12 otherwise warns that the fast path's reads
  // of the thread's remembered blocks overflow (-Wstringop-overflow).
  __attribute__((noinline)) static Route route(ThreadState &t, uintptr_t addr, uintptr_t size, bool write,
                                               snag_site_t site) {
    uint64_t seen;
    if (access_quickly_needs_no_work(addr, size, write, &seen)) return Route::kFastPath;
    if (split_word_needs_no_work(seen, addr, size, write)) return Route::kSplit;
    if (seen && RaceEngine::renew(t, addr, size, write, site, seen)) return Route::kRenewed;
    RaceEngine::on_access(t, addr, size, (write ? kAccessWrite : 0) | kAccessQuickAsked, site);
    return Route::kEngine;
  }
  void lock_shared(ThreadState &t, uintptr_t m) {
    Event e{EventKind::kLockAcquired};
    e.addr = m;
    e.flags = kLockRead;
    engine().on_event(t, e);
  }
  // An access exactly as the hooks hand it on (core/hooks.cpp): a word seen
  // goes to renew_after_fast_path, which calls the hook when it cannot renew.
  static void through_hooks(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site) {
    become(t);
    hand_on(t, addr, size, write, site);
  }
  __attribute__((noinline)) static void hand_on(ThreadState &t, uintptr_t addr, uintptr_t size, bool write,
                                                snag_site_t site) {  // apart from become(), as route()
    uint64_t seen;
    const uint32_t flags = write ? kAccessWrite : 0;
    if (access_quickly_needs_no_work(addr, size, write, &seen) || split_word_needs_no_work(seen, addr, size, write))
      return;
    if (seen) renew_after_fast_path(t, addr, size, flags, site, seen);
    else g_access_hook(t, addr, size, flags | kAccessQuickAsked, site);
  }
  // A range access as the hooks make it (__snag_write_range): the inline
  // range check, then the engine.
  static Route hooked_range(ThreadState &t, uintptr_t addr, uintptr_t size, snag_site_t site) {
    become(t);
    if (range_quickly_needs_no_work(addr, size, true)) return Route::kFastPath;
    RaceEngine::on_access(t, addr, size, kAccessWrite | kAccessRange | kAccessQuickAsked, site);
    return Route::kEngine;
  }
  static LocksetId held(const ThreadState &t, bool write) {
    const auto *rt = static_cast<const RaceThread *>(t.engine_data[kRaceSlot]);
    return write ? rt->lockset_write : rt->lockset_all;
  }
  static snag_site_t site_of(const History &h) {
    snag_site_t site = 0;
    StackId context;
    if (h.stack) access_stack_of(h.stack, &site, &context);
    return site;
  }
  // The granule at `addr`'s histories, unpacked.
  static Histories granule_histories(uintptr_t addr) {
    Histories hs{};
    if (PackedHistories *p = find_history(find_shadow_page(addr), addr)) unpack_histories(*p, &hs);
    return hs;
  }
};

// The owner of a granule in a new epoch (after an unlock) and then writing
// in that epoch: both renewed without the engine's path, each remembered
// whole (site, offset and size within the granule, the locks held, thread
// and clock) in its own slot, and the word takes the epoch (then the write
// bit). A thread ordered after the first epoch only then races with the
// renewed write and names it.
TEST_F(RaceRenewal, TheOwnersNewEpochIsRenewedAndRemembersTheAccessWhole) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  EXPECT_EQ(hooked(*main_, base_ + 4, 4, true, 401), Route::kEngine) << "Virgin: the first access";
  lock(*main_, m1_);
  unlock(*main_, m1_);
  lock_shared(*main_, m2_);  // a reader's lock: held for reads, not for writes
  const uint64_t old_word = word();
  EXPECT_EQ(hooked(*main_, base_ + 4, 2, false, 402), Route::kRenewed);
  EXPECT_EQ(kind(), Kind::kExclusive0);
  EXPECT_EQ(tid_of(word()), slot(main_));
  EXPECT_EQ(clock_of(word()), now(*main_)) << "the word takes the new epoch";
  EXPECT_GT(clock_of(word()), clock_of(old_word));
  EXPECT_FALSE(wrote(word())) << "nothing written in this epoch yet";
  EXPECT_EQ(bytes_of(word()), 0x30u) << "the bytes read in this epoch";
  Histories hs = granule_histories(base_);
  EXPECT_EQ(site_of(hs.read), 402u);
  EXPECT_EQ(hs.read.offset, 4u);
  EXPECT_EQ(hs.read.size, 2u);
  EXPECT_EQ(hs.read.thread, slot(main_));
  EXPECT_EQ(hs.read.clock, now(*main_));
  EXPECT_NE(held(*main_, false), kEmptyLockset);
  EXPECT_EQ(hs.read.lockset, held(*main_, false)) << "the locks held";
  EXPECT_EQ(site_of(hs.write), 401u) << "the write slot keeps the first epoch's write";
  EXPECT_EQ(hooked(*main_, base_ + 5, 3, true, 403), Route::kRenewed) << "a write after a read";
  EXPECT_TRUE(wrote(word()));
  EXPECT_EQ(bytes_of(word()), 0xf0u) << "the bytes of both accesses";
  hs = granule_histories(base_);
  EXPECT_EQ(site_of(hs.write), 403u);
  EXPECT_EQ(hs.write.offset, 5u);
  EXPECT_EQ(hs.write.size, 3u);
  EXPECT_EQ(hs.write.lockset, held(*main_, true)) << "the locks held in write mode: none";
  EXPECT_EQ(hs.write.clock, now(*main_));
  EXPECT_EQ(site_of(hs.read), 402u) << "the read stays in its slot";
  EXPECT_EQ(hooked(*main_, base_ + 4, 4, true, 404), Route::kFastPath) << "then nothing is left to do";
  unlock(*main_, m2_);
  lock(*a, m1_);  // ordered after main's first epoch, not its second
  EXPECT_EQ(hooked(*a, base_ + 4, 4, false, 405), Route::kEngine) << "not the owner, not ordered";
  EXPECT_EQ(races_reported(), before + 1);
  EXPECT_EQ(word(), kReportedWord);
  unlock(*a, m1_);
}

// A hand-off ordered by a lock is renewed too: the new owner's word
// (Exclusive1) and its read in the read slot beside the previous owner's
// read, which stays (history_slot: a read by another thread goes to
// other_read). A third thread's write ordered after neither read races.
TEST_F(RaceRenewal, ALockOrderedHandOffIsRenewedBesideThePreviousOwnersRead) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_), *b = spawn(*main_);
  lock(*main_, m1_);
  EXPECT_EQ(hooked(*main_, base_, 8, false, 411), Route::kEngine);
  unlock(*main_, m1_);
  lock(*a, m1_);
  EXPECT_EQ(hooked(*a, base_, 8, false, 412), Route::kRenewed);
  EXPECT_EQ(kind(), Kind::kExclusive1);
  EXPECT_EQ(tid_of(word()), slot(a));
  const Histories hs = granule_histories(base_);
  EXPECT_EQ(site_of(hs.read), 411u);
  EXPECT_EQ(hs.read.thread, slot(main_));
  EXPECT_EQ(site_of(hs.other_read), 412u);
  EXPECT_EQ(hs.other_read.thread, slot(a));
  EXPECT_EQ(hs.write.stack, 0u);
  unlock(*a, m1_);
  EXPECT_EQ(hooked(*b, base_, 8, true, 413), Route::kEngine);
  EXPECT_EQ(races_reported(), before + 1);
}

// The owner renewing one granule from two sites in turn, each in a new
// epoch (a unique_lock's _M_owns: written by unlock, then by the next
// constructor), and once more under a lock: each renewal remembers its own
// site, locks and epoch. A guard for any cache of what a renewal looks up
// or packs (race_bench.txt section 81 tried per-thread notes by access,
// site, context and lockset).
TEST_F(RaceRenewal, RenewalsFromTwoSitesInTurnEachRememberTheirOwnSiteAndLocks) {
  EXPECT_EQ(hooked(*main_, base_, 1, true, 431), Route::kEngine) << "Virgin: the first access";
  for (int round = 0; round < 3; ++round) {
    for (snag_site_t site : {432, 433}) {
      lock(*main_, m1_);
      unlock(*main_, m1_);
      EXPECT_EQ(hooked(*main_, base_, 1, true, site), Route::kRenewed);
      const Histories hs = granule_histories(base_);
      EXPECT_EQ(site_of(hs.write), site) << "round " << round;
      EXPECT_EQ(hs.write.clock, now(*main_)) << "round " << round;
      EXPECT_EQ(hs.write.lockset, kEmptyLockset) << "round " << round;
      EXPECT_EQ(hs.write.offset, 0u);
      EXPECT_EQ(hs.write.size, 1u);
    }
  }
  lock(*main_, m1_);  // a new epoch, then the same access and site under m2
  unlock(*main_, m1_);
  lock(*main_, m2_);
  EXPECT_EQ(hooked(*main_, base_, 1, true, 433), Route::kRenewed);
  Histories hs = granule_histories(base_);
  EXPECT_EQ(site_of(hs.write), 433u);
  EXPECT_NE(hs.write.lockset, kEmptyLockset) << "the lock held now";
  EXPECT_EQ(hs.write.lockset, held(*main_, true));
  unlock(*main_, m2_);
  EXPECT_EQ(hooked(*main_, base_, 1, true, 433), Route::kRenewed);
  hs = granule_histories(base_);
  EXPECT_EQ(hs.write.lockset, kEmptyLockset) << "and none once it is released";
  EXPECT_EQ(hs.write.clock, now(*main_));
}

// A granule whose memory was freed (its histories given back) and used
// again gets other histories of the pool: a renewal after an earlier one
// of the same access and site writes into the granule's new histories,
// not into the old ones, which another granule took meanwhile (the other
// guard for a cache of the histories' place: section 81).
TEST_F(RaceRenewal, ARenewalAfterTheGranulesHistoriesMovedWritesItsNewOnes) {
  const uintptr_t other = base_ + 8;
  EXPECT_EQ(hooked(*main_, base_, 8, true, 441), Route::kEngine);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  EXPECT_EQ(hooked(*main_, base_, 8, true, 442), Route::kRenewed) << "noted";
  PackedHistories *const before = find_history(find_shadow_page(base_), base_);
  ASSERT_NE(before, nullptr);
  shadow_clear(base_, base_ + 8);  // freed: the histories go back to the pool
  EXPECT_EQ(hooked(*main_, other, 8, true, 443), Route::kEngine) << "takes the histories given back";
  EXPECT_EQ(find_history(find_shadow_page(other), other), before);
  EXPECT_EQ(hooked(*main_, base_, 8, true, 441), Route::kEngine) << "used again: new histories";
  lock(*main_, m1_);
  unlock(*main_, m1_);
  EXPECT_EQ(hooked(*main_, base_, 8, true, 442), Route::kRenewed);
  const Histories mine = granule_histories(base_), theirs = granule_histories(other);
  EXPECT_EQ(site_of(mine.write), 442u);
  EXPECT_EQ(mine.write.clock, now(*main_));
  EXPECT_EQ(site_of(theirs.write), 443u) << "the other granule's histories keep its own write";
  EXPECT_LT(theirs.write.clock, now(*main_));
}

// What the renewal must leave to the engine: another thread's access not
// ordered after the owner's (a race), and the owner's new epoch over bytes
// of the granule it did not touch before (the granule splits).
TEST_F(RaceRenewal, AnUnorderedAccessAndOtherBytesOfTheGranuleGoToTheEngine) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  EXPECT_EQ(hooked(*main_, base_, 4, true, 421), Route::kEngine);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  EXPECT_EQ(hooked(*main_, base_ + 4, 4, true, 422), Route::kEngine) << "other bytes: a split";
  ASSERT_EQ(kind(), Kind::kIndirect);
  EXPECT_EQ(indirect_type(word()), IndirectType::kSplit);
  EXPECT_EQ(races_reported(), before);
  const uintptr_t other = base_ + 8;
  EXPECT_EQ(hooked(*main_, other, 8, true, 423), Route::kEngine);
  EXPECT_EQ(hooked(*a, other, 8, true, 424), Route::kEngine) << "not ordered after main's write";
  EXPECT_EQ(races_reported(), before + 1);
  // The same through the hooks' own entry: what the renewal leaves, it
  // hands to the engine's hook.
  const uintptr_t third = base_ + 16;
  through_hooks(*main_, third, 8, true, 425);
  through_hooks(*a, third, 8, true, 426);
  EXPECT_EQ(races_reported(), before + 2);
}

// Coarse blocks of each record form: the block's first access (Virgin ->
// Exclusive0) and the owner's write in a new epoch under a lock are both
// renewed in the block's state, the write remembered at its offset in the
// block with its lockset (a thin record spills for it: a thin slot keeps
// no lockset); a thread ordered after the first epoch only then races with
// it. Each block's sites are its own (a report per site pair).
TEST_F(RaceRenewal, ABlockOfEachRecordFormIsRenewedWithItsOffsetAndLocks) {
  alignas(4096) static char blocks[3 * 4096];
  struct Case {
    uintptr_t start, size, offset;
    RecordForm form;
  } cases[] = {{reinterpret_cast<uintptr_t>(&blocks[0]), 48, 40, RecordForm::kThin},
               {reinterpret_cast<uintptr_t>(&blocks[4096]), 512, 488, RecordForm::kPacked},
               {reinterpret_cast<uintptr_t>(&blocks[8192]), 4096, 4000, RecordForm::kWide}};
  snag_site_t site = 430;
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << "block of " << c.size);
    site += 10;
    uint32_t before = races_reported();
    alloc(*main_, c.start, c.size);
    ThreadState *a = spawn(*main_);
    HeapBlock *block = find_heap_block(c.start);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(record_form(block), c.form);
    const uintptr_t addr = c.start + c.offset;
    // A granule of a block on a page of its own reads Virgin until its
    // first access (shadow.h): that one takes the engine.
    const Route first = c.size < kPageSize ? Route::kRenewed : Route::kEngine;
    EXPECT_EQ(hooked(*main_, addr, 8, true, site + 1), first) << "the block's first access";
    EXPECT_EQ(kind_of(block->state.load()), Kind::kExclusive0);
    EXPECT_EQ(site_of(block_histories(block).write), site + 1);
    lock(*main_, m1_);
    unlock(*main_, m1_);
    lock(*main_, m2_);
    EXPECT_EQ(hooked(*main_, addr, 8, true, site + 2), Route::kRenewed);
    EXPECT_FALSE(block->fine.load());
    EXPECT_EQ(clock_of(block->state.load()), now(*main_));
    EXPECT_EQ(tid_of(block->state.load()), slot(main_));
    const Histories hs = block_histories(block);
    EXPECT_EQ(site_of(hs.write), site + 2);
    EXPECT_EQ(hs.write.offset, c.offset);
    EXPECT_EQ(hs.write.size, 8u);
    EXPECT_EQ(hs.write.thread, slot(main_));
    EXPECT_EQ(hs.write.clock, now(*main_));
    EXPECT_NE(held(*main_, true), kEmptyLockset);
    EXPECT_EQ(hs.write.lockset, held(*main_, true));
    EXPECT_EQ(hooked(*main_, addr, 8, true, site + 3), Route::kFastPath);
    unlock(*main_, m2_);
    lock(*a, m1_);
    EXPECT_EQ(hooked(*a, addr, 8, true, site + 4), Route::kEngine);
    EXPECT_EQ(races_reported(), before + 1);
    unlock(*a, m1_);
  }
}

// A range inside one coarse block (a constructor clearing a new object, a
// string copied into the thread's own block) is renewed as a single access
// is (RaceEngine::renew_range): the block's first access, then the owner's
// in a new epoch under a lock, each remembered with the range's offset and
// size in the block and the locks held; a thread ordered after the first
// epoch only then races with the second.
TEST_F(RaceRenewal, ARangeInsideABlockOfEachRecordFormIsRenewedWhole) {
  alignas(4096) static char blocks[3 * 4096];
  struct Case {
    uintptr_t start, size, offset, length;
    RecordForm form;
  } cases[] = {{reinterpret_cast<uintptr_t>(&blocks[0]), 48, 12, 30, RecordForm::kThin},
               {reinterpret_cast<uintptr_t>(&blocks[4096]), 1000, 300, 700, RecordForm::kPacked},
               {reinterpret_cast<uintptr_t>(&blocks[8192]), 4000, 1000, 2500, RecordForm::kWide}};
  snag_site_t site = 460;
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << "block of " << c.size);
    site += 10;
    uint32_t before = races_reported();
    alloc(*main_, c.start, c.size);
    ThreadState *a = spawn(*main_);
    HeapBlock *block = find_heap_block(c.start);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(record_form(block), c.form);
    const uintptr_t addr = c.start + c.offset;
    EXPECT_EQ(hooked_range(*main_, addr, c.length, site + 1), Route::kEngine);
    EXPECT_EQ(kind_of(block->state.load()), Kind::kExclusive0);
    Histories hs = block_histories(block);
    EXPECT_EQ(site_of(hs.write), site + 1);
    EXPECT_EQ(hs.write.offset, c.offset);
    EXPECT_EQ(hs.write.size, c.length);
    lock(*main_, m1_);
    unlock(*main_, m1_);
    lock(*main_, m2_);
    EXPECT_EQ(hooked_range(*main_, addr, c.length, site + 2), Route::kEngine) << "a new epoch";
    EXPECT_FALSE(block->fine.load());
    EXPECT_EQ(clock_of(block->state.load()), now(*main_));
    EXPECT_TRUE(wrote(block->state.load()));
    hs = block_histories(block);
    EXPECT_EQ(site_of(hs.write), site + 2);
    EXPECT_EQ(hs.write.offset, c.offset);
    EXPECT_EQ(hs.write.size, c.length);
    EXPECT_EQ(hs.write.thread, slot(main_));
    EXPECT_EQ(hs.write.clock, now(*main_));
    EXPECT_NE(held(*main_, true), kEmptyLockset);
    EXPECT_EQ(hs.write.lockset, held(*main_, true));
    EXPECT_EQ(hooked_range(*main_, addr, c.length, site + 3), Route::kFastPath) << "then nothing to do";
    unlock(*main_, m2_);
    lock(*a, m1_);
    EXPECT_EQ(hooked_range(*a, addr + c.length - 16, 16, site + 4), Route::kEngine);
    EXPECT_EQ(races_reported(), before + 1);
    unlock(*a, m1_);
  }
}

// The hooks' entry for the owner's renewal of its granule (core/hooks.cpp,
// after_fast_path: own_exclusive_word, then renew_own_after_fast_path for
// the hook's size and kind; race_bench.txt section 96), from thread `t`,
// which it finds as the hooks do (t_current). kOther: the word was not the
// caller's own Exclusive granule, and the access went on as hand_on.
enum class OwnRoute { kFastPath, kOwnEntry, kBlockEntry, kOther };
class RaceOwnRenewal : public RaceRenewal {
 protected:
  // Memory of their own: g_memory's 64-byte places are all taken by the
  // tests before these.
  void SetUp() override {
    RaceRenewal::SetUp();
    alignas(64) static char memory[64 * 16];
    static int next = 0;
    base_ = reinterpret_cast<uintptr_t>(&memory[64 * (next++ % 16)]);
  }
  static OwnRoute own_hooked(ThreadState &t, uintptr_t addr, uintptr_t size, bool write, snag_site_t site) {
    become(t);
    ThreadState *const real = t_current;
    t_current = &t;
    const OwnRoute route = own_route(t, addr, size, write, site);
    t_current = real;
    return route;
  }
  __attribute__((noinline)) static OwnRoute own_route(ThreadState &t, uintptr_t addr, uintptr_t size, bool write,
                                                      snag_site_t site) {  // apart from become(), as route()
    uint64_t seen;
    if (access_quickly_needs_no_work(addr, size, write, &seen)) return OwnRoute::kFastPath;
    if (block_word_seen(seen, t_fast_path.epoch_word)) {
      switch (size * 2 + write) {
        case 16: renew_block_after_fast_path<8, false>(addr, site, seen); break;
        case 17: renew_block_after_fast_path<8, true>(addr, site, seen); break;
        default: renew_block_after_fast_path(addr, size, write ? uint32_t(kAccessWrite) : 0u, site, seen);
      }
      return OwnRoute::kBlockEntry;
    }
    if (!own_exclusive_word(seen, t_fast_path.epoch_word)) {
      hand_on(t, addr, size, write, site);
      return OwnRoute::kOther;
    }
    switch (size * 2 + write) {
      case 2: renew_own_after_fast_path<1, false>(addr, site, seen); break;
      case 3: renew_own_after_fast_path<1, true>(addr, site, seen); break;
      case 4: renew_own_after_fast_path<2, false>(addr, site, seen); break;
      case 5: renew_own_after_fast_path<2, true>(addr, site, seen); break;
      case 8: renew_own_after_fast_path<4, false>(addr, site, seen); break;
      case 9: renew_own_after_fast_path<4, true>(addr, site, seen); break;
      case 16: renew_own_after_fast_path<8, false>(addr, site, seen); break;
      case 17: renew_own_after_fast_path<8, true>(addr, site, seen); break;
      default: renew_own_after_fast_path(addr, size, write ? uint32_t(kAccessWrite) : 0u, site, seen);
    }
    return OwnRoute::kOwnEntry;
  }
  static void expect_same(const History &a, const History &b, const char *what) {
    EXPECT_EQ(a.stack, b.stack) << what;
    EXPECT_EQ(a.lockset, b.lockset) << what;
    EXPECT_EQ(a.thread, b.thread) << what;
    EXPECT_EQ(a.clock, b.clock) << what;
    EXPECT_EQ(a.offset, b.offset) << what;
    EXPECT_EQ(a.size, b.size) << what;
  }
};

// For every hook's size and kind: the owner's access in a new epoch (under
// a lock, then with none), and a write after a read in one epoch, through
// the owner's entry leave the word and the histories that the renewal
// (RaceEngine::renew, the path before) leaves in a twin granule.
TEST_F(RaceOwnRenewal, TheOwnersEntryLeavesWhatTheRenewalLeaves) {
  alignas(64) static char memory[8 * 32];  // more than the test's own 64 bytes
  uintptr_t twin = reinterpret_cast<uintptr_t>(memory);
  for (uintptr_t size : {1, 2, 4, 8}) {
    for (bool write : {false, true}) {
      SCOPED_TRACE(testing::Message() << (write ? "write" : "read") << size);
      const uintptr_t offset = size == 8 ? 0 : 8 - size;
      const uintptr_t mine = twin, theirs = twin + 16;  // the entry's, renew's
      twin += 32;
      const snag_site_t site = 600 + size * 2 + write;
      EXPECT_EQ(hooked(*main_, mine + offset, size, true, site), Route::kEngine) << "Virgin";
      EXPECT_EQ(hooked(*main_, theirs + offset, size, true, site), Route::kEngine) << "Virgin";
      lock(*main_, m1_);
      unlock(*main_, m1_);
      lock(*main_, m2_);
      // The twin first: the thread's cache then holds the site's stack, and
      // the entry does the renewal itself (a new site is the next test's).
      EXPECT_EQ(hooked(*main_, theirs + offset, size, write, site + 50), Route::kRenewed);
      EXPECT_EQ(own_hooked(*main_, mine + offset, size, write, site + 50), OwnRoute::kOwnEntry);
      unlock(*main_, m2_);
      for (snag_site_t next : {site + 100, site + 150}) {  // a read, then a write in the same epoch
        const bool as_write = next == site + 150;
        if (!as_write) {
          lock(*main_, m1_);
          unlock(*main_, m1_);
        }
        EXPECT_EQ(hooked(*main_, theirs + offset, size, as_write, next), Route::kRenewed);
        EXPECT_EQ(own_hooked(*main_, mine + offset, size, as_write, next), OwnRoute::kOwnEntry);
      }
      EXPECT_EQ(shadow_cell(mine)->load(), shadow_cell(theirs)->load()) << "the same word";
      EXPECT_EQ(tid_of(shadow_cell(mine)->load()), slot(main_));
      EXPECT_EQ(clock_of(shadow_cell(mine)->load()), now(*main_));
      const Histories a = granule_histories(mine), b = granule_histories(theirs);
      expect_same(a.read, b.read, "read");
      expect_same(a.other_read, b.other_read, "other read");
      expect_same(a.write, b.write, "write");
      EXPECT_EQ(site_of(a.write), site + 150);
      EXPECT_EQ(site_of(a.read), site + 100);
      EXPECT_EQ(a.write.offset, offset);
      EXPECT_EQ(a.write.size, size);
      EXPECT_EQ(a.write.clock, now(*main_));
      EXPECT_EQ(main_->in_runtime, 0) << "the claim's scope is left";
    }
  }
}

// What the owner's entry leaves to the full path, with the same result: a
// site whose stack the thread's cache does not hold (interned there), a
// calling context not made yet (new frames), a context of frames deeper
// than the per-depth contexts, and another thread's word (a hand-off, not
// the owner's entry). Each renewal names its own site and caller.
TEST_F(RaceOwnRenewal, WhatTheThreadsCachesDoNotHoldIsLeftToTheFullPath) {
  ShadowStack &s = main_->shadow;
  if (!s.frames) s.frames = internal_new_array<ShadowFrame>(ShadowStack::kCapacity);
  const uint32_t depth = s.depth;
  EXPECT_EQ(hooked(*main_, base_, 8, true, 651), Route::kEngine);
  snag_site_t site = 652;
  for (uint32_t frames : {0u, 1u, 3u, RaceThread::kContextDepths + 2}) {
    SCOPED_TRACE(testing::Message() << frames << " frames more");
    for (uint32_t i = 0; i < frames; ++i) s.push(0x1d0 + i, 0x20000 - 0x100 * i);
    lock(*main_, m1_);
    unlock(*main_, m1_);
    EXPECT_EQ(own_hooked(*main_, base_, 8, true, ++site), OwnRoute::kOwnEntry) << "a new site";
    StackTrace expected;
    capture_stack(s, 0, &expected);
    EXPECT_EQ(remembered_write(base_), site);
    EXPECT_EQ(remembered_context(base_), depot_put(expected));
    EXPECT_EQ(clock_of(word()), now(*main_));
    EXPECT_EQ(granule_histories(base_).write.clock, now(*main_));
    lock(*main_, m1_);
    unlock(*main_, m1_);
    EXPECT_EQ(own_hooked(*main_, base_, 8, true, site), OwnRoute::kOwnEntry) << "the site again";
    EXPECT_EQ(remembered_write(base_), site);
    EXPECT_EQ(remembered_context(base_), depot_put(expected));
    EXPECT_EQ(granule_histories(base_).write.clock, now(*main_));
    while (s.depth > depth) s.pop();
  }
  ThreadState *a = spawn(*main_);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  lock(*a, m1_);
  EXPECT_EQ(own_hooked(*a, base_, 8, true, 670), OwnRoute::kOther) << "not a's word";
  EXPECT_EQ(tid_of(word()), slot(a)) << "handed off";
  EXPECT_EQ(remembered_write(base_), 670u);
  unlock(*a, m1_);
}

// An access the hooks leave alone (the thread inside the runtime, or
// ignoring its writes) changes nothing through the owner's entry either;
// and a renewal through it is what another thread's unordered access then
// races with and names.
TEST_F(RaceOwnRenewal, TheOwnersEntryKeepsIgnoresAndItsRenewalRaces) {
  uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  EXPECT_EQ(hooked(*main_, base_, 8, true, 681), Route::kEngine);
  lock(*main_, m1_);
  unlock(*main_, m1_);
  const uint64_t old_word = word();
  main_->ignore_writes = 1;
  EXPECT_EQ(own_hooked(*main_, base_, 8, true, 682), OwnRoute::kOwnEntry);
  main_->ignore_writes = 0;
  ++main_->in_runtime;
  EXPECT_EQ(own_hooked(*main_, base_, 8, true, 683), OwnRoute::kOwnEntry);
  --main_->in_runtime;
  EXPECT_EQ(word(), old_word) << "ignored: nothing renewed";
  EXPECT_EQ(remembered_write(base_), 681u);
  EXPECT_EQ(own_hooked(*main_, base_, 8, true, 681), OwnRoute::kOwnEntry) << "a site the cache holds";
  EXPECT_EQ(clock_of(word()), now(*main_));
  EXPECT_EQ(remembered_write(base_), 681u);
  EXPECT_EQ(granule_histories(base_).write.clock, now(*main_));
  lock(*a, m1_);  // ordered after main's first epoch, not its second
  EXPECT_EQ(own_hooked(*a, base_, 8, false, 685), OwnRoute::kOther);
  EXPECT_EQ(races_reported(), before + 1) << "a's read races with the renewed write";
  unlock(*a, m1_);
}

// Coarse blocks through the hooks' block entry (renew_block_after_fast_path):
// the owner in a new epoch under a lock, then a lock-ordered hand-off to
// another thread's read, each leave the state and histories the renewal
// (RaceEngine::renew) leaves in a twin block, for a thin record (which
// spills for the write's lockset), a packed one, and a wide one (left to
// renew_or_hook); then an unordered write races.
TEST_F(RaceOwnRenewal, ABlockThroughItsEntryIsRenewedAsTheRenewalRenewsItsTwin) {
  alignas(4096) static char blocks[4 * 4096];
  const struct Case {
    uintptr_t size, offset;
    RecordForm form;
  } cases[] = {{48, 40, RecordForm::kThin}, {512, 488, RecordForm::kPacked}, {2048, 1000, RecordForm::kWide}};
  snag_site_t site = 700;
  uintptr_t at = reinterpret_cast<uintptr_t>(&blocks[0]);
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << "block of " << c.size);
    site += 10;
    const uint32_t before = races_reported();
    const uintptr_t mine = at, theirs = at + 4096;  // the entry's, renew's
    at += 2 * 4096;
    alloc(*main_, mine, c.size);
    alloc(*main_, theirs, c.size);
    HeapBlock *a_block = find_heap_block(mine), *b_block = find_heap_block(theirs);
    ASSERT_NE(a_block, nullptr);
    ASSERT_NE(b_block, nullptr);
    EXPECT_EQ(record_form(a_block), c.form);
    ThreadState *a = spawn(*main_), *b = spawn(*main_);
    EXPECT_NE(own_hooked(*main_, mine + c.offset, 8, true, site + 1), OwnRoute::kFastPath);
    EXPECT_NE(hooked(*main_, theirs + c.offset, 8, true, site + 1), Route::kFastPath);
    lock(*main_, m1_);
    unlock(*main_, m1_);
    lock(*main_, m2_);
    EXPECT_EQ(hooked(*main_, theirs + c.offset, 8, true, site + 2), Route::kRenewed);  // (caches the site)
    EXPECT_EQ(own_hooked(*main_, mine + c.offset, 8, true, site + 2), OwnRoute::kBlockEntry);
    auto expect_twins = [&](const char *when) {
      EXPECT_EQ(a_block->state.load(), b_block->state.load()) << when;
      EXPECT_FALSE(a_block->fine.load()) << when;
      EXPECT_EQ(record_form(a_block), record_form(b_block)) << when;
      const Histories x = block_histories(a_block), y = block_histories(b_block);
      expect_same(x.read, y.read, when);
      expect_same(x.other_read, y.other_read, when);
      expect_same(x.write, y.write, when);
    };
    expect_twins("the owner's write");
    EXPECT_EQ(site_of(block_histories(a_block).write), site + 2);
    EXPECT_EQ(block_histories(a_block).write.lockset, held(*main_, true));
    EXPECT_EQ(block_histories(a_block).write.offset, c.offset);
    unlock(*main_, m2_);
    lock(*a, m2_);
    EXPECT_EQ(hooked(*a, theirs + c.offset - 8, 8, false, site + 3), Route::kRenewed);
    EXPECT_EQ(own_hooked(*a, mine + c.offset - 8, 8, false, site + 3), OwnRoute::kBlockEntry);
    expect_twins("a's read");
    EXPECT_EQ(tid_of(a_block->state.load()), slot(a)) << "handed off";
    EXPECT_EQ(site_of(block_histories(a_block).read.stack ? block_histories(a_block).read
                                                          : block_histories(a_block).other_read),
              site + 3);
    unlock(*a, m2_);
    EXPECT_NE(own_hooked(*b, mine + c.offset, 8, true, site + 4), OwnRoute::kFastPath);
    EXPECT_EQ(races_reported(), before + 1) << "b's write is ordered after neither";
  }
}


// Heap events (race_events.cpp, on_free and the heap hook) in the shapes the
// free's shortcuts must tell apart.
class RaceFrees : public RaceShortcuts {
 protected:
  void free_at(ThreadState &t, uintptr_t addr, uintptr_t size, snag_site_t site) {
    Event e{EventKind::kFree};
    e.addr = addr;
    e.value = size;
    e.site = site;
    become(t);
    engine().on_event(t, e);
  }
  // What a free leaves in each granule it wrote: the freeing thread's write.
  static uint64_t freed_word(const ThreadState &t) {
    const auto *rt = static_cast<const RaceThread *>(t.engine_data[kRaceSlot]);
    return exclusive_word(Kind::kExclusive0, rt->slot, rt->now, true);
  }
};

// Two pages, so that a range can cross from one to the next.
alignas(4096) char g_pages[2 * 4096];

// A free of a coarse block its owner wrote in this epoch checks nothing
// (access_freed's first answer); a free by a thread that is not the owner
// is checked, and races with the owner's unordered write.
TEST_F(RaceFrees, AnotherThreadsFreeOfAnOwnedBlockRacesWithTheOwnersWrite) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 50]);
  auto [a, b] = block_for_two_threads(heap, 48);
  write_at(*a, heap + 8, 331);
  free_at(*a, heap, 48, 332);  // a's own block, written in this epoch
  EXPECT_EQ(races_reported(), before);
  EXPECT_EQ(find_heap_block(heap), nullptr);
  alloc(*a, heap, 48);
  write_at(*a, heap + 16, 333);
  free_at(*b, heap, 48, 334);  // b is ordered after neither a's malloc nor its write
  EXPECT_EQ(races_reported(), before + 1);
}

// A block gone fine keeps per-granule states, which the block's own state
// word does not speak for: a free by the thread whose word the block kept
// still races with another thread's write to one of its granules.
TEST_F(RaceFrees, TheFreeOfAFineBlockChecksItsGranules) {
  uint32_t before = races_reported();
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 51]);
  auto [a, b] = block_for_two_threads(heap, 48);
  write_at(*a, heap, 341);
  write_at(*b, heap + 32, 342);  // another field: the block goes fine, no race
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  ASSERT_TRUE(block->fine.load());
  ASSERT_EQ(races_reported(), before);
  free_at(*a, heap, 48, 343);  // unordered with b's write
  EXPECT_EQ(races_reported(), before + 1);
}

// A freed range that crosses a page boundary: on both pages every granule
// reads as written by the free, gives its histories back, and forgets the
// synchronization variables it held (on_free's walk, page by page).
TEST_F(RaceFrees, AFreedRangeAcrossTwoPagesIsForgottenOnBoth) {
  uint32_t before = races_reported();
  const auto range = reinterpret_cast<uintptr_t>(&g_pages[4096 - 24]);
  ThreadState *c = spawn(*main_);  // not ordered after main's free below
  for (uintptr_t g = range; g < range + 48; g += kGranule) write_at(*main_, g, 351);
  lock(*main_, range + 8);  // a mutex on each page
  unlock(*main_, range + 8);
  lock(*main_, range + 32);
  unlock(*main_, range + 32);
  ASSERT_NE(sync_var(range + 8, false), nullptr);
  ASSERT_NE(sync_var(range + 32, false), nullptr);
  free_at(*main_, range, 48, 352);
  for (uintptr_t g = range; g < range + 48; g += kGranule) {
    EXPECT_EQ(shadow_cell(g)->load(), freed_word(*main_)) << "granule " << (g - range) / kGranule;
    EXPECT_EQ(find_history(find_shadow_page(g), g), nullptr) << "granule " << (g - range) / kGranule;
  }
  EXPECT_EQ(sync_var(range + 8, false), nullptr);
  EXPECT_EQ(sync_var(range + 32, false), nullptr);
  write_at(*c, range + 40, 353);  // after the free, unordered with it
  EXPECT_EQ(races_reported(), before + 1);
}

// The heap interceptors' direct path (Engine::heap_hook, taken when the race
// engine runs alone) makes and frees blocks as on_event does.
TEST_F(RaceFrees, TheHeapHookAllocatesAndFreesAsOnEventDoes) {
  const auto heap = reinterpret_cast<uintptr_t>(&g_memory[64 * 52]);
  ASSERT_NE(engine().heap_hook, nullptr);
  Event e{EventKind::kAlloc};
  e.addr = heap;
  e.value = 40;
  engine().heap_hook(*main_, e);
  HeapBlock *block = find_heap_block(heap);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->start, heap);
  EXPECT_EQ(block_size(block), 40u);
  EXPECT_EQ(block_of_word(shadow_cell(heap + 32)->load()), block);
  e.kind = EventKind::kFree;
  become(*main_);
  engine().heap_hook(*main_, e);
  EXPECT_EQ(find_heap_block(heap), nullptr);
  for (uintptr_t g = heap; g < heap + 40; g += kGranule) EXPECT_EQ(shadow_cell(g)->load(), freed_word(*main_));
  EXPECT_EQ(main_->in_runtime, 0);
}

// The lock and condition-variable interceptors' direct path
// (Engine::sync_hook, taken when the race engine runs alone) orders and
// keeps locksets as on_event does: a lock's release orders the next
// holder, a signal orders the woken waiter, a wait gives its mutex back
// and the wake takes it again; nothing more is ordered than that.
class RaceSyncHook : public RaceShortcuts {
 protected:
  // Memory of their own: the heap tests above take fixed slots of g_memory
  // that a late test's slot would meet.
  void SetUp() override {
    RaceShortcuts::SetUp();
    alignas(64) static char memory[64 * 8];
    static int next = 0;
    base_ = reinterpret_cast<uintptr_t>(&memory[64 * next++]);
  }
  void sync(ThreadState &t, EventKind kind, uintptr_t addr, uintptr_t addr2 = 0, uint32_t flags = kLockMutex) {
    become(t);
    Event e{kind};
    e.addr = addr;
    e.addr2 = addr2;
    e.flags = flags;
    engine().sync_hook(t, e);
    EXPECT_EQ(t.in_runtime, 0) << "the hook leaves its runtime scope";
  }
  void lock_by_hook(ThreadState &t, uintptr_t m) {
    sync(t, EventKind::kLockBefore, m);
    sync(t, EventKind::kLockAcquired, m);
  }
  void write_as(ThreadState &t, snag_site_t site) {
    become(t);
    write(t, site);
  }
  static uint32_t held(const ThreadState &t) {
    return static_cast<const RaceThread *>(t.engine_data[kRaceSlot])->held_count;
  }
};

TEST_F(RaceSyncHook, ALockHandOffThroughTheHookIsOrderedAndHeld) {
  ASSERT_NE(engine().sync_hook, nullptr);
  const uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  lock_by_hook(*main_, m1_);
  EXPECT_EQ(held(*main_), 1u);
  write_as(*main_, 371);
  sync(*main_, EventKind::kUnlock, m1_);
  EXPECT_EQ(held(*main_), 0u);
  lock_by_hook(*a, m1_);
  write_as(*a, 372);  // ordered after main's write by m1
  sync(*a, EventKind::kUnlock, m1_);
  EXPECT_EQ(races_reported(), before);
  write_as(*main_, 373);  // main took nothing of a's since: a race
  EXPECT_EQ(races_reported(), before + 1);
}

TEST_F(RaceSyncHook, ASignalThroughTheHookOrdersTheWokenWaiter) {
  ASSERT_NE(engine().sync_hook, nullptr);
  const uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  const uintptr_t cond = m2_;
  lock_by_hook(*main_, m1_);
  sync(*main_, EventKind::kCondWait, cond, m1_, 0);
  EXPECT_EQ(held(*main_), 0u) << "the wait gave the mutex back";
  write_as(*a, 374);  // a holds no lock: only the signal orders it
  sync(*a, EventKind::kCondSignal, cond, 0, 0);
  sync(*main_, EventKind::kCondWoken, cond, m1_, 0);
  EXPECT_EQ(held(*main_), 1u) << "the wake took the mutex again";
  write_as(*main_, 375);
  sync(*main_, EventKind::kUnlock, m1_);
  EXPECT_EQ(races_reported(), before);
  write_as(*a, 376);  // nothing orders main's write before this one
  EXPECT_EQ(races_reported(), before + 1);
}

// The hook reads a condition variable's own memory where the interceptors'
// touch_object would: a signal's read of its second granule comes after the
// release, so the woken thread's destroy (a write of both granules) is not
// ordered after it.
TEST_F(RaceSyncHook, ASignalsReadOfItsConditionVariableRacesWithTheWokenThreadsDestroy) {
  ASSERT_NE(engine().sync_hook, nullptr);
  const uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  const uintptr_t cond = base_;  // 16 bytes of the test's own memory
  lock_by_hook(*main_, m1_);
  sync(*main_, EventKind::kCondWait, cond, m1_, 0);  // reads cond's first granule
  sync(*a, EventKind::kCondSignal, cond, 0, 0);      // reads its second, after the release
  sync(*main_, EventKind::kCondWoken, cond, m1_, 0);
  sync(*main_, EventKind::kUnlock, m1_);
  EXPECT_EQ(races_reported(), before);
  become(*main_);
  RaceEngine::on_access(*main_, cond, 16, kAccessWrite, 377);  // the destroy
  EXPECT_EQ(races_reported(), before + 1);
}

// A thread signalling one condition variable again reads its second
// granule again after each release's tick: its own renewal in a new epoch,
// made through the owner's entry (RaceEngine::renew_own_read1, inside the
// hook's runtime scope), which leaves the word and the read slot at the
// signaller's current epoch (race_bench.txt section 96).
TEST_F(RaceSyncHook, ASecondSignalRenewsItsReadOfTheConditionVariable) {
  ThreadState *a = spawn(*main_);
  const uintptr_t cond = base_ + 16, second = cond + 8;
  const auto &rt = *static_cast<const RaceThread *>(a->engine_data[kRaceSlot]);
  sync(*a, EventKind::kCondSignal, cond, 0, 0);
  const uint64_t first = shadow_cell(second)->load();
  ASSERT_EQ(tid_of(first), slot(a));
  for (int round = 0; round < 3; ++round) {
    sync(*a, EventKind::kCondSignal, cond, 0, 0);
    const uint64_t w = shadow_cell(second)->load();
    EXPECT_EQ(kind_of(w), kind_of(first)) << round;
    EXPECT_EQ(tid_of(w), slot(a)) << round;
    EXPECT_EQ(clock_of(w), rt.now) << "renewed in the signal's epoch, round " << round;
    EXPECT_GT(clock_of(w), clock_of(first));
    PackedHistories *h = find_history(find_shadow_page(second), second);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->read.clock, rt.now) << round;
    EXPECT_EQ(slot_thread(h->read), slot(a) & kPackedThreadMask);
  }
}

// A wait keeps its mutex's variable for the acquire at the wake, as
// kLockBefore keeps it for kLockAcquired: that acquire runs with the mutex
// held again, inside the program's critical section, and no lookup is
// made there.
TEST_F(RaceSyncHook, AWaitKeepsItsMutexsVariableForTheWake) {
  const auto &rt = *static_cast<const RaceThread *>(main_->engine_data[kRaceSlot]);
  const uintptr_t cond = base_ + 16;  // (base_'s first granule is write_as's)
  lock_by_hook(*main_, m1_);
  EXPECT_EQ(rt.lock_before.var, nullptr) << "the acquire took what kLockBefore kept";
  sync(*main_, EventKind::kCondWait, cond, m1_, 0);
  EXPECT_EQ(rt.lock_before.addr, m1_);
  EXPECT_NE(rt.lock_before.var, nullptr);
  EXPECT_EQ(rt.lock_before.var, sync_var(m1_, false));
  sync(*main_, EventKind::kCondWoken, cond, m1_, 0);
  EXPECT_EQ(held(*main_), 1u);
  EXPECT_EQ(rt.lock_before.var, nullptr);
  sync(*main_, EventKind::kUnlock, m1_);
}

// A woken waiter's acquire of its condition variable notes the version it
// took (AcquireCache), as a lock's acquire does: a wake with nothing
// signalled since takes nothing again, and one after a new signal still
// takes the signaller's clock.
TEST_F(RaceSyncHook, AWakeNotesTheVersionOfTheSignalItTook) {
  const uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  const auto &rt = *static_cast<const RaceThread *>(main_->engine_data[kRaceSlot]);
  const uintptr_t cond = base_ + 16;  // (base_'s first granule is write_as's)
  lock_by_hook(*main_, m1_);
  sync(*main_, EventKind::kCondWait, cond, m1_, 0);
  sync(*a, EventKind::kCondSignal, cond, 0, 0);
  sync(*main_, EventKind::kCondWoken, cond, m1_, 0);
  SyncVar *v = sync_var(cond, false);
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(rt.acquired.has(v, v->version.load(), true)) << "the wake noted the version it took";
  sync(*main_, EventKind::kCondWait, cond, m1_, 0);
  write_as(*a, 381);  // after a's first signal, before its second
  sync(*a, EventKind::kCondSignal, cond, 0, 0);
  sync(*main_, EventKind::kCondWoken, cond, m1_, 0);
  EXPECT_TRUE(rt.acquired.has(v, v->version.load(), true));
  write_as(*main_, 382);  // ordered after 381 by the second signal
  sync(*main_, EventKind::kUnlock, m1_);
  EXPECT_EQ(races_reported(), before);
}

// on_event (several engines) handles the lock and condition-variable
// events as the hook does (one function for both, race_events.cpp): its
// kLockBefore keeps the lock's variable for the acquire too, and a wait
// and wake through it order and hold as through the hook.
TEST_F(RaceSyncHook, OnEventHandlesLockAndConditionEventsAsTheHookDoes) {
  const uint32_t before = races_reported();
  ThreadState *a = spawn(*main_);
  const auto &rt = *static_cast<const RaceThread *>(main_->engine_data[kRaceSlot]);
  auto deliver = [&](ThreadState &t, EventKind kind, uintptr_t addr, uintptr_t addr2, uint32_t flags) {
    become(t);
    Event e{kind};
    e.addr = addr;
    e.addr2 = addr2;
    e.flags = flags;
    engine().on_event(t, e);
  };
  const uintptr_t cond = base_ + 16;
  deliver(*main_, EventKind::kLockAcquired, m1_, 0, kLockMutex);  // m1's variable made
  deliver(*main_, EventKind::kUnlock, m1_, 0, kLockMutex);
  deliver(*main_, EventKind::kLockBefore, m1_, 0, kLockMutex);
  EXPECT_EQ(rt.lock_before.addr, m1_);
  EXPECT_EQ(rt.lock_before.var, sync_var(m1_, false)) << "kept for the acquire";
  deliver(*main_, EventKind::kLockAcquired, m1_, 0, kLockMutex);
  EXPECT_EQ(held(*main_), 1u);
  deliver(*main_, EventKind::kCondWait, cond, m1_, 0);
  EXPECT_EQ(held(*main_), 0u);
  write_as(*a, 383);
  deliver(*a, EventKind::kCondSignal, cond, 0, 0);
  deliver(*main_, EventKind::kCondWoken, cond, m1_, 0);
  EXPECT_EQ(held(*main_), 1u);
  write_as(*main_, 384);  // ordered after 383 by the signal
  deliver(*main_, EventKind::kUnlock, m1_, 0, kLockMutex);
  EXPECT_EQ(held(*main_), 0u);
  EXPECT_EQ(races_reported(), before);
  write_as(*a, 385);  // nothing orders main's write before this one
  EXPECT_EQ(races_reported(), before + 1);
}

}  // namespace
}  // namespace snag::race
