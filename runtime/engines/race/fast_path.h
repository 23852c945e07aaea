// The race engine's fast path, inlined into the compiler hooks
// (core/hooks.cpp) ahead of everything else.
//
// Most accesses change nothing: the owner of an Exclusive variable touching
// it again in the same clock epoch, a read of Shared-Read data under the
// same locks, a variable already reported. Deciding that needs the calling
// thread's identity and epoch, which the engine keeps in one thread-local
// word, and the variable's state word, which is direct-mapped (shadow.h): a
// thread-local load, a table load, the state load and a compare, with no
// call and no lock. Anything else returns false and takes the engine's hook.
//
// Because the fast path never changes what the engine knows (the one thing
// it writes is a coarse block's Indirect word in place of a Virgin word on
// the block's page, which means the same; and its own thread's remembered
// blocks, a cache of where to look), it is right whatever the thread
// is doing (inside the runtime, in an ignored range): it only skips work the
// hook would find there is none of. It is off (zero epoch word)
// unless the race engine is the only engine that wants accesses, so it never
// hides an access from another engine.
#pragma once

#include "engines/race/heap_blocks.h"
#include "engines/race/shadow.h"
#include "engines/race/state.h"

namespace snag::race {

struct FastPathThread {
  // exclusive_word(kVirgin, tid, now) of this thread: what an Exclusive state
  // word owned by this thread in its current epoch reads as, apart from its
  // kind, write and byte bits. 0: fast path off.
  uint64_t epoch_word;
  LocksetId lockset_all;    // every lock the thread holds
  LocksetId lockset_write;  // the locks it holds in write mode
  // The coarse blocks (or chunks) whose state last told the fast path
  // that an access needed no work, newest first, and the range each record
  // had then. An access inside one of those ranges asks the record's state
  // directly, without the shadow loads (cached_block_needs_no_work). Two:
  // a loop reading one block and writing another (a stencil into an output
  // buffer, a matrix row times a vector) keeps both. Empty: all zero.
  struct RememberedBlock {
    uintptr_t start;
    uintptr_t end;
    HeapBlock *block;
  };
  static constexpr int kRemembered = SNAG_RACE_REMEMBERED_COUNT;
  RememberedBlock remembered[kRemembered];
  // The block a range access's block last pushed out of the last slot
  // (remember_block_behind), asked by the range hooks only: the compiler's
  // inlined check reads the slots above, not this one. A comparison reads
  // two blocks, and a sort compares one string (its pivot, the value it
  // inserts) with many: with one slot behind, each comparison's second
  // string pushed out the first, and both were found through the shadow
  // again, the granule's word and the record one dependent load after the
  // other (task_graph: 5.2 of its 7.9 million small ranges). With this one
  // the block used in turn with the others stays (range_remembered_block_of).
  RememberedBlock behind_spare;
};
// Named __snag_fast_path for the check the compiler pass inlines before an
// access hook (include/snag/race_fast_path.h has this layout's offsets).
extern __attribute__((visibility("default"))) SNAG_TLS FastPathThread t_fast_path __asm__(
    "__snag_fast_path");

// True when an access touching `touched` bytes of a variable whose state
// word is `w` changes nothing: the Exclusive owner in its current epoch
// (having written already, for a write), a read of Shared-Read data under
// the same locks, or a variable already reported.
SNAG_ALWAYS_INLINE bool state_needs_no_work(uint64_t w, uint32_t touched, bool write) {
  const uint64_t mine = t_fast_path.epoch_word;
  const Kind k = kind_of(w);
  // One masked compare, as the compiler's inlined check makes it: the owner
  // bits equal the epoch word (whose kind, wrote and byte bits are 0), and
  // the touched bytes' bits and, for a write, the wrote bit are set.
  if (k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2) {
    const uint64_t need = (uint64_t(touched) << kBytesShift) | (write ? kWroteBit : 0);
    return (w & (~(kKindMask | kWroteBit | kBytesMask) | need)) == (mine | need);
  }
  if (k == Kind::kSharedRead)
    return (!write && (lockset_of(w) == kEmptyLockset || lockset_of(w) == t_fast_path.lockset_all)) ||
           w == kReportedWord;
  return false;
}

// Whether an access touching `touched` bytes of a variable in state `w` is
// its Exclusive owner's again in its current epoch (having written already,
// for a write): the fast path's first answer, given to each granule of a
// range (and to a whole block at its free) as the fast path gives it to
// each single access (the owner's history slot is not rewritten for a second
// access of the same kind in one epoch). Shared-Read is left to the state
// machine: a read there may still fill an empty history slot.
SNAG_ALWAYS_INLINE bool owner_again(uint64_t w, uint32_t touched, bool write) {
  const Kind k = kind_of(w);
  return t_fast_path.epoch_word &&
         (k == Kind::kExclusive0 || k == Kind::kExclusive1 || k == Kind::kExclusive2) &&
         state_needs_no_work(w, touched, write);
}

// access_needs_no_work for an access inside one granule whose state word
// was never written (Virgin): on a whole page of a coarse block the block's
// state decides. Out of line: a block of kWordsWrittenBelow or more gets
// no state words for the granules of its whole pages (a large buffer one
// thread fills costs no shadow); a smaller one gets the block's word
// written here the first time, so that later accesses find the block
// without this lookup.
bool untouched_granule_needs_no_work(uintptr_t addr, bool write);
// (kWordsWrittenBelow: shadow.h.)

// For the hooks, after the inlined check saw a Virgin word (0): an access
// inside one granule of a coarse block's whole page that needs no work
// (untouched_granule_needs_no_work), answered before the engine's call
// chain.
SNAG_ALWAYS_INLINE bool untouched_access_needs_no_work(uintptr_t addr, uintptr_t size, bool write);

// Where a thread found the large blocks (kWordsWrittenBelow or more, whose
// granules keep no words) of its untouched granules last: one hint per
// 16 KiB of address space, direct-mapped, 256 of them (4 KiB a thread,
// made at the thread's first such block: RaceThread::untouched_hints,
// given back with the thread's record). A program working through more
// large arrays at once than the two remembered blocks hold (zopfli's seven
// hash tables, its match cache and its cost arrays, in pigz -11) took the
// page tables' two loads, the shadow page's record and the whole
// untouched_granule_needs_no_work, ~90 instructions, for most of its heap
// accesses (race_bench.txt section 94). A hint is only where to look: its
// record is asked, as a remembered block's is, whether it is a coarse block
// holding the address (records are reused after free, which clears their
// state and range first).
struct UntouchedHint {
  // address >> kUntouchedHintShift; none: a region no address has (not 0:
  // an access to the first 16 KiB, a null pointer's, then found a hint
  // with a null block and the runtime crashed inside the program's crash).
  static constexpr uintptr_t kNone = ~uintptr_t(0);
  uintptr_t region = kNone;
  HeapBlock *block = nullptr;
};
constexpr unsigned kUntouchedHintShift = 14;
constexpr uintptr_t kUntouchedHints = 256;
// This thread's hints: kNoUntouchedHints (all empty, shared) until its
// first large block.
extern const UntouchedHint kNoUntouchedHints[kUntouchedHints];
extern SNAG_TLS const UntouchedHint *t_untouched_hints;
// This thread's own hints, made if it has none (null if it has no race
// record).
UntouchedHint *untouched_hints_of_this_thread();

// untouched_access_needs_no_work for an address whose 16 KiB region this
// thread has a hint for, without a call (the hooks ask it first, before
// the page lookup): the hinted block holds the address, is coarse and its
// state needs no work. It becomes the first remembered block, as
// untouched_granule_needs_no_work makes it.
SNAG_ALWAYS_INLINE bool hinted_access_needs_no_work(uintptr_t addr, uintptr_t size, bool write);

// True when an access to a Shared-Modify1 variable (state word `w`,
// histories `hs`) changes nothing: the thread holds exactly the variable's
// lockset C_x (one compare of interned ids: C_x stays as it is) and its
// access in this epoch is already the one remembered in the slot this
// access would fill. Data always used under its lock (a shared table's
// buckets) reads and writes this way all through a critical section after
// its first access. Out of line: only Shared-Modify1 words come here.
bool locked_access_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w,
                                 const Histories &hs, bool write);
bool locked_access_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w,
                                 const PackedHistories &hs, bool write);
// The same, for the granule state word `w` of `addr` (its histories are
// found through the shadow page).
bool locked_granule_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w, uintptr_t addr,
                                  bool write);

// access_needs_no_work for an access inside a granule split into bytes
// (state word `w` points at its SplitGranule): every byte it touches needs
// no work. A split granule stays split (a stack slot whose bytes served two
// variables once): without this, each access to it took the hook and the
// state machine once per byte (task_graph: 16 million calls). The hooks
// ask it before they call the engine (split_word_needs_no_work).
SNAG_ALWAYS_INLINE bool split_granule_needs_no_work(uint64_t w, uintptr_t addr, uintptr_t size, bool write) {
  const auto *split = static_cast<const SplitGranule *>(pointer_of(w));
  // A byte's state counts all of its one byte as touched (race_access.cpp).
  // The bytes of one variable mostly hold the same word: a byte whose word
  // equals the first byte's is answered as that one was (the answer depends
  // only on the word and this thread's fast-path data).
  const uintptr_t first = addr & (kGranule - 1), end = first + size;
  const uint64_t passed = split->state[first].load(std::memory_order_acquire);
  if (!state_needs_no_work(passed, 0xff, write)) return false;
  for (uintptr_t b = first + 1; b < end; ++b) {
    const uint64_t byte = split->state[b].load(std::memory_order_acquire);
    if (byte != passed && !state_needs_no_work(byte, 0xff, write)) return false;
  }
  return true;
}

// Whether the fast path answers for this access at all: it is on, and the
// access lies inside one granule (anything larger takes the engine's hook).
SNAG_ALWAYS_INLINE bool fast_path_answers(uintptr_t addr, uintptr_t size) {
  if (SNAG_UNLIKELY(!t_fast_path.epoch_word)) return false;
  return size <= kGranule && ((addr ^ (addr + size - 1)) & ~(kGranule - 1)) == 0;
}

SNAG_ALWAYS_INLINE bool untouched_access_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  return fast_path_answers(addr, size) && untouched_granule_needs_no_work(addr, write);
}

// The remembered block whose range holds [addr, addr + size), else null.
SNAG_ALWAYS_INLINE const FastPathThread::RememberedBlock *remembered_block_of(uintptr_t addr,
                                                                             uintptr_t size) {
  for (const FastPathThread::RememberedBlock &r : t_fast_path.remembered)
    if (addr >= r.start && addr + size <= r.end) return &r;
  return nullptr;
}

// remembered_block_of for the range hooks: the remembered blocks, then the
// spare behind them (FastPathThread::behind_spare), which, found, changes
// places with the last remembered block: the two behind the first stay in
// the order they were used, so that the one a thread keeps coming back to
// is not the one pushed out next. Only hints move (each answer still reads
// the record: remembered_block_needs_no_work).
SNAG_ALWAYS_INLINE const FastPathThread::RememberedBlock *range_remembered_block_of(uintptr_t addr,
                                                                                   uintptr_t size) {
  if (const FastPathThread::RememberedBlock *r = remembered_block_of(addr, size)) return r;
  FastPathThread::RememberedBlock &spare = t_fast_path.behind_spare;
  if (addr < spare.start || addr + size > spare.end) return nullptr;
  FastPathThread::RememberedBlock &last = t_fast_path.remembered[FastPathThread::kRemembered - 1];
  const FastPathThread::RememberedBlock found = spare;
  spare = last;
  last = found;
  return &last;
}

// Whether remembered block `r` still is a coarse block with r's range whose
// state (*word) says an access of `write` kind needs no work (see
// cached_block_needs_no_work for why the range is read after the state).
SNAG_ALWAYS_INLINE bool remembered_block_needs_no_work(const FastPathThread::RememberedBlock &r,
                                                       bool write, uint64_t *word) {
  const HeapBlock *block = r.block;
  if (block->fine.load(std::memory_order_relaxed)) return false;
  *word = block->state.load(std::memory_order_acquire);
  if (!fast_path_range_is(block, r.start, r.end)) return false;
  return state_needs_no_work(*word, 0xff, write);
}

// True when `addr`'s granule-sized access lies inside a coarse block this
// thread remembered (FastPathThread::remembered) and that block's state
// says it needs no work. No shadow load: a thread working through
// its own vector reads one state word in a record that stays in cache.
//
// Block records are reused (heap_blocks.cpp: a freed record may track
// another block next), so the remembered range is checked against the
// record after its state is read: a record given to another block has
// that block's range, and the state read before it is at the latest that
// block's (the state's acquire load keeps the range loads after it). A
// block gone fine, or cut into chunks (which makes it fine), answers no.
SNAG_ALWAYS_INLINE bool cached_block_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  uint64_t word;
  const FastPathThread::RememberedBlock *r = remembered_block_of(addr, size);
  return r && remembered_block_needs_no_work(*r, write, &word);
}

// Remembers `block` first among the blocks cached_block_needs_no_work asks
// (the oldest one is forgotten).
// (`size`: block_size(block), when the caller has it.)
SNAG_ALWAYS_INLINE void remember_block(const HeapBlock *block, uintptr_t size) {
  FastPathThread::RememberedBlock *r = t_fast_path.remembered;
  if (r[0].block != block)
    for (int i = FastPathThread::kRemembered - 1; i > 0; --i) r[i] = r[i - 1];
  r[0] = {block->start, block->start + size, const_cast<HeapBlock *>(block)};
}
SNAG_ALWAYS_INLINE void remember_block(const HeapBlock *block) { remember_block(block, block_size(block)); }

SNAG_ALWAYS_INLINE bool hinted_access_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  if (!fast_path_answers(addr, size)) return false;
  const UntouchedHint &hint = t_untouched_hints[(addr >> kUntouchedHintShift) & (kUntouchedHints - 1)];
  if (hint.region != addr >> kUntouchedHintShift) return false;
  HeapBlock *block = hint.block;
  if (block->fine.load(std::memory_order_acquire)) return false;
  const uint64_t word = block->state.load(std::memory_order_acquire);
  // The range after the state (cached_block_needs_no_work says why); by the
  // size's low 32 bits, as the inlined check reads it: a block of 4 GiB or
  // more is only ever answered no.
  const uintptr_t start = block->start, bytes = block->size_low;
  if (addr - start >= bytes) return false;
  // Only the owner again in its epoch is answered here (the commonest
  // answer, with few registers: the hooks' tail call keeps four), with the
  // inlined check's one xor (RaceFastPath.cpp, ownedByMe): masked to its
  // owner, kind and needed bits and xor-ed with what this thread's word
  // would hold, the word leaves its kind alone iff the rest matches, and
  // the kind must be an Exclusive one (1, 2 or 5). Anything else (a read
  // of Shared-Read data) is untouched_granule_needs_no_work's.
  static_assert(uint64_t(Kind::kExclusive0) == 1 && uint64_t(Kind::kExclusive1) == 2 &&
                uint64_t(Kind::kExclusive2) == 5);
  const uint64_t need = (uint64_t(0xff) << kBytesShift) | (write ? kWroteBit : 0);
  const uint64_t left = (word & (~(kWroteBit | kBytesMask) | need)) ^ (t_fast_path.epoch_word | need);
  if (left - 1 > 1 && left != 5) return false;
  remember_block(block, bytes);
  return true;
}

// For a range access's block (memcmp's, memcpy's): remembered last, not
// first, and left where it is when remembered already, so that the block
// the thread's field accesses use stays. A sort comparing strings of a
// vector reads two string buffers per comparison (two blocks), which
// pushed the vector's block out of the two remembered: the string moves
// after each comparison, an inline group check and several field checks,
// all failed and went to the hook (task_graph, race_bench.txt section 77).
// The block it puts out of the last slot becomes the spare behind it
// (FastPathThread::behind_spare).
SNAG_ALWAYS_INLINE void remember_block_behind(const HeapBlock *block) {
  FastPathThread::RememberedBlock *r = t_fast_path.remembered;
  const uintptr_t start = block->start, end = block_end(block);
  for (int i = 0; i < FastPathThread::kRemembered; ++i)
    if (r[i].block == block && r[i].start == start && r[i].end == end) return;
  t_fast_path.behind_spare = r[FastPathThread::kRemembered - 1];
  r[FastPathThread::kRemembered - 1] = {start, end, const_cast<HeapBlock *>(block)};
}

// The part of access_needs_no_work that makes no call (so that the access
// hooks that inline it need no stack frame): the remembered block, then
// the granule's state word or its coarse block's state. False also when
// only an out-of-line check could tell (an untouched granule, a
// Shared-Modify1 word, a split granule): access_needs_no_work asks those.
// When it loaded the granule's state word and said no, *seen is that word
// (else 0), for the hooks' split-granule check (split_word_needs_no_work).
// `Remember`: where a block found through the granule's word is
// remembered (kBehind for the range hooks' small ranges: remember_block_behind).
enum class Remember { kFirst, kBehind };
template <Remember where = Remember::kFirst>
SNAG_ALWAYS_INLINE bool access_quickly_needs_no_work(uintptr_t addr, uintptr_t size, bool write,
                                                     uint64_t *seen) {
  *seen = 0;
  if (!fast_path_answers(addr, size)) return false;
  if (where == Remember::kFirst) {
    if (cached_block_needs_no_work(addr, size, write)) return true;
  } else if (const FastPathThread::RememberedBlock *r = range_remembered_block_of(addr, size)) {
    // (The spare too: a range's block.)
    uint64_t word;
    if (remembered_block_needs_no_work(*r, write, &word)) return true;
  }
  std::atomic<uint64_t> *cell = find_cell(addr);
  if (SNAG_UNLIKELY(!cell)) return false;
  uint64_t w = cell->load(std::memory_order_acquire);
  *seen = w;
  if (HeapBlock *block = block_of_word(w)) {
    if (block->fine.load(std::memory_order_relaxed)) return false;
    if (!state_needs_no_work(block->state.load(std::memory_order_acquire), 0xff, write)) return false;
    if (where == Remember::kFirst)
      remember_block(block);
    else
      remember_block_behind(block);
    return true;
  }
  // A whole granule's access lies at its start (fast_path_answers): all of
  // its bytes, a constant for the 8-byte hooks.
  const uint32_t touched = size == kGranule ? 0xffu : ((1u << size) - 1) << (addr & (kGranule - 1));
  return state_needs_no_work(w, touched, write);
}
SNAG_ALWAYS_INLINE bool access_quickly_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  uint64_t seen;
  return access_quickly_needs_no_work(addr, size, write, &seen);
}

// For the hooks, after access_quickly_needs_no_work said no and before the
// call into the engine: an access inside one granule split into bytes whose
// bytes need no work, given the granule's state word `w` that
// access_quickly_needs_no_work saw (0: it saw none, the access is not one
// it answers). Out of line of the inlined check, whose hooks would
// otherwise need a stack frame on every access (a callee-saved register
// for the loop); still before on_access, which would ask three other
// shortcuts first (task_graph: 6.2 million accesses to split stack granules).
// The word is not looked up again: the table, the shadow and the state
// load were the miss path's second round of each (8.3 million calls in
// task_graph).
SNAG_ALWAYS_INLINE bool is_split_word(uint64_t w) {
  return kind_of(w) == Kind::kIndirect && indirect_type(w) == IndirectType::kSplit;
}
SNAG_ALWAYS_INLINE bool split_word_needs_no_work(uint64_t w, uintptr_t addr, uintptr_t size, bool write) {
  return is_split_word(w) && split_granule_needs_no_work(w, addr, size, write);
}

// For the hooks, after the split check, in place of the call of the
// engine's hook: the renewal of an Exclusive granule or coarse block that
// stays Exclusive (its owner in a newer epoch, a lock-ordered hand-off),
// given the state word `w` that access_quickly_needs_no_work saw (nonzero:
// the fast path is on, so the race engine's on_access is the hook, and the
// access lies inside one granule); when the renewal does not apply it
// calls the access hook as the hooks would (kAccessQuickAsked added). Out
// of line (race_access.cpp, RaceEngine::renew); the hooks' tail call, so
// that their miss path keeps no registers across it.
void renew_after_fast_path(ThreadState &t, uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site,
                           uint64_t w);

// For the hooks, after access_quickly_needs_no_work said no: whether the
// state word `w` it saw is an Exclusive granule's owned by the calling
// thread (`epoch`: t_fast_path.epoch_word, nonzero: the fast path is on),
// in an earlier epoch or without the access's bytes or write: the owner's
// renewal, most of the misses of a thread that keeps touching its own
// variables between unlocks (pipeline: 8.5 of 10.8 million renewals).
SNAG_ALWAYS_INLINE bool own_exclusive_word(uint64_t w, uint64_t epoch) {
  static_assert(SNAG_RACE_KIND_EXCLUSIVE0 == 1 && SNAG_RACE_KIND_EXCLUSIVE1 == 2 && SNAG_RACE_KIND_EXCLUSIVE2 == 5,
                "the kinds' bit set below");
  constexpr uint64_t kThreadBits = uint64_t((1u << kTidBits) - 1) << 12;
  return epoch && ((w ^ epoch) & kThreadBits) == 0 && ((0x26u >> (w & SNAG_RACE_KIND_MASK)) & 1);
}
// Then, in place of renew_after_fast_path's chain: the owner's renewal
// (race_access.cpp, RaceEngine::renew_own), or, when it does not apply,
// what renew_after_fast_path would do. The hooks' tail call.
void renew_own_after_fast_path(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site, uint64_t w);
// The same for the hooks of one size (1, 2, 4 or 8) and kind.
template <uintptr_t kSize, bool kWrite>
void renew_own_after_fast_path(uintptr_t addr, snag_site_t site, uint64_t w);
// For the hooks likewise: whether `w` points at a coarse heap block (with the
// fast path on: `epoch` nonzero), whose renewal (the owner in a new epoch,
// a lock-ordered hand-off) renew_block_after_fast_path makes without
// renew_after_fast_path's chain when its record is packed or thin, and otherwise
// hands on as that one would.
SNAG_ALWAYS_INLINE bool block_word_seen(uint64_t w, uint64_t epoch) {
  return epoch && block_of_word(w) != nullptr;
}
void renew_block_after_fast_path(uintptr_t addr, uintptr_t size, uint32_t flags, snag_site_t site, uint64_t w);
template <uintptr_t kSize, bool kWrite>
void renew_block_after_fast_path(uintptr_t addr, snag_site_t site, uint64_t w);

// Whether the caller asked split_word_needs_no_work already.
enum class SplitGranules { kAsk, kAskedAlready };

// The rest of access_needs_no_work, out of line: the answers that need a
// call (an untouched granule, a Shared-Modify1 word, a split granule's
// bytes). The compiler hooks ask about split granules before they call the
// engine (split_word_needs_no_work), so the engine's on_access passes
// kAskedAlready for them; every other caller has it asked here, from the
// state word this loads anyway.
bool access_slowly_needs_no_work(uintptr_t addr, uintptr_t size, bool write,
                                 SplitGranules split = SplitGranules::kAsk);

// True when the access needs no work at all; false when the engine must look.
SNAG_ALWAYS_INLINE bool access_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  return access_quickly_needs_no_work(addr, size, write) || access_slowly_needs_no_work(addr, size, write);
}

// Off with potential=1, whose state machine looks at other threads'
// lock-ordered accesses even when nothing changes (race_events.cpp).
extern bool g_ranges_answered_inline;

// True for an access over more than one granule whose every granule (or
// coarse block, or byte of a split granule) its Exclusive owner touches
// again in this epoch (owner_again): access_slow would skip each of them,
// so the access needs no work (RaceEngine::range_owner_again, and the
// range hooks after range_quickly_needs_no_work). A split granule's bytes
// are asked one by one as access_slow asks them: strings built on the
// stack stay split, and their copies (task_graph: ~260 thousand ranges a
// run) otherwise went through on_access to access_slow to skip every byte.
bool range_owned_again(uintptr_t addr, uintptr_t size, bool write);

// For a range access over more than one granule (a copied string, a
// std::function moved): true when it lies inside one coarse block that its
// Exclusive owner touches again in this epoch, which is what
// RaceEngine::range_owner_again would find (race_access.cpp) without the
// call into the engine. task_graph's string copies: 1.4 million ranges.
SNAG_ALWAYS_INLINE bool range_quickly_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  const uintptr_t end = addr + size;
  if (!t_fast_path.epoch_word || !g_ranges_answered_inline || end < addr) return false;
  const HeapBlock *block;
  if (const FastPathThread::RememberedBlock *r = range_remembered_block_of(addr, size)) {
    block = r->block;
  } else {
    std::atomic<uint64_t> *cell = find_cell(addr);
    block = cell ? block_of_word(cell->load(std::memory_order_acquire)) : nullptr;
    if (!block) return false;
  }
  if (block->fine.load(std::memory_order_acquire)) return false;
  const uint64_t w = block->state.load(std::memory_order_acquire);
  // The range after the state: a reused record has its new block's range
  // (cached_block_needs_no_work).
  if (addr < block->start || end > block_end(block)) return false;
  const Kind k = kind_of(w);
  if (k != Kind::kExclusive0 && k != Kind::kExclusive1 && k != Kind::kExclusive2) return false;
  if (!state_needs_no_work(w, 0xff, write)) return false;
  remember_block_behind(block);
  return true;
}

// True when every access of `write` kind inside [addr, addr + size) would
// need no work (access_needs_no_work of each). The compiler pass asks this
// once before a loop that neither calls nor synchronizes, for the whole
// range an access of the loop can touch; while the loop runs the thread's
// epoch and locks cannot change, so the answer holds for every iteration
// and the loop skips that access's hook (fast_path.cpp).
// For a coarse block's range this also makes the thread's remembered access
// of the block cover the range (fast_path.cpp, remember_loop_range).
bool range_needs_no_work(uintptr_t addr, uintptr_t size, bool write);

// range_needs_no_work for a loop whose access is at base + stride * index
// (`bytes` bytes), the index stepping by one around a ring of `slots`
// elements from `first`, for at most taken + 1 iterations: asked of the
// one or two runs of slots those iterations reach (from `first` to the
// last slot, then from slot 0 when the index wraps), so that a yes
// stretches the thread's remembered access of a coarse block over those
// slots only, not over every slot the mask allows (a ring buffer's
// consumer reading the published half: loop_range_unread suite pair).
bool ring_needs_no_work(uintptr_t base, uintptr_t stride, uintptr_t slots, uintptr_t first, uintptr_t taken,
                        uintptr_t bytes, bool write);

}  // namespace snag::race
