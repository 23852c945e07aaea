// The race engine's fast-path state per thread, and the check the compiler
// pass calls before a loop that neither calls nor
// synchronizes (fast_path.h, compiler/plugin/LoopRanges.h): does every
// access the loop can make to a range need no work?
//
// A loop that sums a private buffer makes one hook call per element; when
// the buffer is this thread's Exclusive block or granules in the current
// epoch, each call would only confirm that. The thread's epoch and locks
// cannot change inside such a loop, and another thread that touches the
// range meanwhile still finds this thread's state and its clock there, so
// the race is still seen from that side. Asking once per loop entry keeps
// the answer of every call the loop would have made.
#include "engines/race/fast_path.h"

#include <stddef.h>

namespace snag::race {

namespace {

// A range this large is a wrapped or unknown bound, not a buffer.
constexpr uintptr_t kLargestRange = uintptr_t(1) << 40;

// The calling thread's clock slot, and whether `h` is its access in its
// current epoch (both read from its epoch word).
Tid my_slot() { return tid_of(t_fast_path.epoch_word); }
bool mine_this_epoch(const History &h) {
  return h.stack && wrap_tid(h.thread) == my_slot() && h.clock == clock_of(t_fast_path.epoch_word);
}
bool mine_this_epoch(const PackedHistory &h) {
  return h.stack && slot_thread(h) == my_slot() && h.clock == clock_of(t_fast_path.epoch_word);
}

// The remembered access [offset, offset + size) of `block` widened to cover
// the loop's range [lo, hi) clipped to the block, as offsets in *from and
// *to; false when it covers that range already, or when the two neither
// overlap nor touch: one interval over both would span bytes neither
// touched (a ring's loop reaching its last slots and then its first ones,
// after a read of slot 30: the slots between), and another thread's later
// write there would be reported against this read. Left apart, the loop's
// range is not remembered (a race there can be missed, not invented). The
// width stays within History::size's limit (a packed block is far smaller
// than it).
bool widen_to_cover(const HeapBlock *block, uintptr_t lo, uintptr_t hi, uintptr_t offset, uintptr_t size,
                    uintptr_t *from, uintptr_t *to) {
  const uintptr_t end_of_block = block_end(block);
  *from = (lo < block->start ? block->start : lo) - block->start;
  *to = (hi > end_of_block ? end_of_block : hi) - block->start;
  if (*from >= offset && *to <= offset + size) return false;
  if (*from > offset + size || *to < offset) return false;  // apart: see above
  if (*from > offset) *from = offset;
  if (*to < offset + size) *to = offset + size;
  if (*to - *from > 0xffff) *to = *from + 0xffff;
  return true;
}

// remember_loop_range for a block whose record keeps its histories packed
// (a block of 65 B to 1 KiB): the slot's offset and size read and widened
// in place. Unpacking all three slots and packing one back took ~230
// instructions a question, and pipeline asks 720,000, three in four of
// them widening the range (race_bench.txt section 76).
void remember_packed_loop_range(HeapBlock *block, PackedHistories &packed, uint64_t word, uintptr_t lo,
                                uintptr_t hi, bool write) {
  PackedHistory &slot = write                          ? packed.write
                        : mine_this_epoch(packed.read) ? packed.read
                                                       : packed.other_read;
  if (!mine_this_epoch(slot)) return;  // this epoch's access was of the other kind
  uintptr_t from, to;
  if (!widen_to_cover(block, lo, hi, packed_offset(slot), packed_size(slot), &from, &to)) return;
  // (Inside a block of at most kPackedVariableBytes: offset and size fit.)
  // Histories change only while their variable is claimed (race_access.cpp).
  if (!block->state.compare_exchange_strong(word, kBusyWord)) return;
  const PackedHistory now_there = slot;
  if (mine_this_epoch(now_there))  // not replaced by another thread's read meanwhile
    slot = pack_entry(now_there.stack, now_there.lockset_high & ((1u << kLocksetIdBits) - 1),
                      slot_thread(now_there), now_there.clock, static_cast<uint32_t>(from),
                      static_cast<uint32_t>(to - from));
  block->state.store(word, std::memory_order_release);
}

// A loop about to run over [lo, hi) inside coarse block `block`, whose state
// `word` says the calling thread owns it in its current epoch: the thread's
// remembered access of this kind and epoch grows to cover the loop's range.
// The hooks the loop skips would have changed nothing in the state, but the
// block remembers only its owner's first access of the epoch; when the block
// is later refined (another thread touches it), the granules the loop went
// over must inherit this thread's access, or a write after the loop by
// another thread finds them fresh and the race is missed (a scan followed
// by an unordered write). The range is what the loop can touch: a loop that
// leaves early is taken to have touched all of it.
void remember_loop_range(HeapBlock *block, uint64_t word, uintptr_t lo, uintptr_t hi, bool write) {
  const Kind k = kind_of(word);
  if (k != Kind::kExclusive0 && k != Kind::kExclusive1 && k != Kind::kExclusive2) return;
  // A packed record (a block of 65 B to 1 KiB) is read and widened slot
  // by slot where it is kept (remember_packed_loop_range); a wide one
  // through the slot this thread's access of this kind and epoch would
  // be in, unpacked.
  if (PackedHistories *packed = packed_histories(block)) {
    remember_packed_loop_range(block, *packed, word, lo, hi, write);
    return;
  }
  const Histories unpacked = block_histories(block);
  History Histories::*const which = write                        ? &Histories::write
                                    : mine_this_epoch(unpacked.read) ? &Histories::read
                                                                     : &Histories::other_read;
  const History slot = unpacked.*which;
  if (!mine_this_epoch(slot)) return;  // this epoch's access was of the other kind
  uintptr_t from, to;
  if (!widen_to_cover(block, lo, hi, slot.offset, slot.size, &from, &to)) return;
  // Histories change only while their variable is claimed (race_access.cpp).
  if (!block->state.compare_exchange_strong(word, kBusyWord)) return;
  History now_there = block_histories(block).*which;
  if (mine_this_epoch(now_there)) {  // not replaced by another thread's read meanwhile
    now_there.offset = static_cast<uint32_t>(from);
    now_there.size = static_cast<uint16_t>(to - from);
    set_block_history(block, which, now_there);
  }
  block->state.store(word, std::memory_order_release);
}

}  // namespace

SNAG_TLS FastPathThread t_fast_path;
const UntouchedHint kNoUntouchedHints[kUntouchedHints] = {};
SNAG_TLS const UntouchedHint *t_untouched_hints = kNoUntouchedHints;
// The engine's (race_events.cpp: from the thread's race record); parts
// linked without it (the engine's unit tests) keep no hints unless a test
// gives the thread its table.
__attribute__((weak)) UntouchedHint *untouched_hints_of_this_thread() { return nullptr; }
bool g_ranges_answered_inline = true;

// The compiler pass reads these through the numbers of
// include/snag/race_fast_path.h (compiler/plugin/RaceFastPath.cpp).
static_assert(offsetof(FastPathThread, epoch_word) == SNAG_RACE_FAST_PATH_EPOCH_OFFSET);
static_assert(offsetof(FastPathThread, lockset_all) == SNAG_RACE_FAST_PATH_LOCKSET_ALL_OFFSET &&
              sizeof(LocksetId) == 4 && kEmptyLockset == SNAG_RACE_EMPTY_LOCKSET);
static_assert(offsetof(FastPathThread, remembered) == SNAG_RACE_FAST_PATH_REMEMBERED_OFFSET);
static_assert(sizeof(FastPathThread::RememberedBlock) == SNAG_RACE_REMEMBERED_SIZE);
static_assert(offsetof(FastPathThread::RememberedBlock, start) == SNAG_RACE_REMEMBERED_START_OFFSET);
static_assert(offsetof(FastPathThread::RememberedBlock, end) == SNAG_RACE_REMEMBERED_END_OFFSET);
static_assert(offsetof(FastPathThread::RememberedBlock, block) == SNAG_RACE_REMEMBERED_BLOCK_OFFSET);
static_assert(offsetof(HeapBlock, fine) == SNAG_RACE_BLOCK_FINE_OFFSET && sizeof(HeapBlock::fine) == 1);
static_assert(offsetof(HeapBlock, state) == SNAG_RACE_BLOCK_STATE_OFFSET);
static_assert(offsetof(HeapBlock, start) == SNAG_RACE_BLOCK_START_OFFSET);
static_assert(offsetof(HeapBlock, size_low) == SNAG_RACE_BLOCK_SIZE_OFFSET && sizeof(HeapBlock::size_low) == 4);
static_assert(detail::kSlotBits == SNAG_RACE_SLOT_BITS && detail::kSlotCount == SNAG_RACE_SLOT_COUNT);
static_assert(sizeof(detail::g_slot_offset[0]) == 8 && sizeof(HeapBlock::state) == 8);

namespace {

// Whether the granule at `g` (or the coarse block holding it) needs no work
// for the loop over [addr, end); if so, *next is the first granule past it.
bool step_needs_no_work(uintptr_t g, uintptr_t addr, uintptr_t end, bool write, uintptr_t *next) {
  std::atomic<uint64_t> *cell = find_cell(g);
  if (!cell) return false;
  uint64_t w = cell->load(std::memory_order_acquire);
  if (HeapBlock *block = block_of_granule(w, g)) {
    // A coarse block (or chunk) has one state for all of its bytes.
    block = chunk_of(block, g);
    if (block->fine.load(std::memory_order_acquire)) return false;
    uint64_t state = block->state.load(std::memory_order_acquire);
    if (!state_needs_no_work(state, 0xff, write)) return false;
    uintptr_t end_of_block = block_end(block);
    if (end_of_block <= g) return false;  // a stale word: let the hooks look
    remember_loop_range(block, state, addr, end, write);
    remember_block(block);  // the loop's own accesses, if it makes any, find it first
    *next = (end_of_block + kGranule - 1) & ~(kGranule - 1);
    return true;
  }
  uintptr_t lo = addr > g ? addr - g : 0;
  uintptr_t hi = end < g + kGranule ? end - g : kGranule;
  uint32_t touched = ((1u << hi) - 1) & ~((1u << lo) - 1);
  *next = g + kGranule;
  if (kind_of(w) == Kind::kIndirect) return split_granule_needs_no_work(w, g + lo, hi - lo, write);
  return state_needs_no_work(w, touched, write);
}

// The last question a thread was answered "no" to, and where. Optimization
// can leave a question inside a loop it does not belong to (asked on every
// iteration of the loop before the one it is about, with the same range);
// while the place that said "no" still says so, the answer stands without
// walking the range again, which made such a loop quadratic in the range.
struct LastNo {
  uintptr_t addr, size, at;
  uint64_t epoch_word;
  LocksetId lockset;
  bool write;
};
SNAG_TLS LastNo t_last_no;

}  // namespace

namespace {
template <typename HistoriesT>
bool locked_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w, const HistoriesT &hs, bool write) {
  if (lockset_of(w) != (write ? t_fast_path.lockset_write : t_fast_path.lockset_all)) return false;
  // The slot access_variable would remember this access in.
  if (!mine_this_epoch(history_slot(hs, write, my_slot()))) return false;
  // Still the same state: no thread was rewriting the history meanwhile.
  return state.load(std::memory_order_acquire) == w;
}
}  // namespace

bool locked_access_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w,
                                 const Histories &hs, bool write) {
  return locked_needs_no_work(state, w, hs, write);
}
bool locked_access_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w,
                                 const PackedHistories &hs, bool write) {
  return locked_needs_no_work(state, w, hs, write);
}

bool locked_granule_needs_no_work(const std::atomic<uint64_t> &state, uint64_t w, uintptr_t addr,
                                  bool write) {
  ShadowPage *page = find_shadow_page(addr);
  if (!page) return false;
  PackedHistories *histories = find_history(page, addr);
  return histories && locked_access_needs_no_work(state, w, *histories, write);
}

bool access_slowly_needs_no_work(uintptr_t addr, uintptr_t size, bool write, SplitGranules split) {
  if (!fast_path_answers(addr, size)) return false;
  std::atomic<uint64_t> *cell = find_cell(addr);
  if (!cell) return false;
  uint64_t w = cell->load(std::memory_order_acquire);
  if (w == 0) return untouched_granule_needs_no_work(addr, write);
  if (HeapBlock *block = block_of_word(w)) {
    if (block->fine.load(std::memory_order_relaxed)) return false;
    w = block->state.load(std::memory_order_acquire);
    if (kind_of(w) != Kind::kSharedModify1) return false;
    if (const Histories *wide = wide_histories(block)) return locked_access_needs_no_work(block->state, w, *wide, write);
    // A thin record in Shared-Modify1 has spilled already (a locked access
    // does not fit it); if not, the state machine answers.
    const PackedHistories *packed = packed_histories(block);
    return packed && locked_access_needs_no_work(block->state, w, *packed, write);
  }
  if (kind_of(w) == Kind::kSharedModify1) return locked_granule_needs_no_work(*cell, w, addr, write);
  if (split == SplitGranules::kAsk && kind_of(w) == Kind::kIndirect && indirect_type(w) == IndirectType::kSplit)
    return split_granule_needs_no_work(w, addr, size, write);
  return false;
}

bool range_needs_no_work(uintptr_t addr, uintptr_t size, bool write) {
  if (!t_fast_path.epoch_word || size == 0 || size > kLargestRange) return false;
  const uintptr_t end = addr + size;
  if (end < addr) return false;
  // A range inside a block remembered by the access fast path is answered
  // by the block's state alone, as step_needs_no_work would answer it
  // (without the shadow load of its first granule).
  if (const FastPathThread::RememberedBlock *r = remembered_block_of(addr, size)) {
    uint64_t word;
    if (remembered_block_needs_no_work(*r, write, &word)) {
      remember_loop_range(r->block, word, addr, end, write);
      return true;
    }
  }
  LastNo &last = t_last_no;
  uintptr_t next;
  if (last.addr == addr && last.size == size && last.write == write &&
      last.epoch_word == t_fast_path.epoch_word && last.lockset == t_fast_path.lockset_all &&
      !step_needs_no_work(last.at, addr, end, write, &next))
    return false;
  for (uintptr_t g = addr & ~(kGranule - 1); g < end; g = next) {
    if (!step_needs_no_work(g, addr, end, write, &next)) {
      last = {addr, size, g, t_fast_path.epoch_word, t_fast_path.lockset_all, write};
      return false;
    }
  }
  return true;
}

bool ring_needs_no_work(uintptr_t base, uintptr_t stride, uintptr_t slots, uintptr_t first, uintptr_t taken,
                        uintptr_t bytes, bool write) {
  if (!t_fast_path.epoch_word || slots == 0 || stride == 0 || bytes == 0 || first >= slots ||
      stride > kLargestRange / slots)
    return false;
  // The bytes slots [from, to] (inclusive) touch.
  const auto run = [&](uintptr_t from, uintptr_t to) {
    return range_needs_no_work(base + from * stride, (to - from) * stride + bytes, write);
  };
  if (taken >= slots - 1) return run(0, slots - 1);  // every slot
  const uintptr_t last = first + taken;             // below 2 * slots
  if (last < slots) return run(first, last);
  return run(first, slots - 1) && run(0, last - slots);
}

bool range_owned_again(uintptr_t addr, uintptr_t size, bool write) {
  const uintptr_t end = addr + size;
  if (!t_fast_path.epoch_word || size == 0 || end < addr || ((addr ^ (end - 1)) & ~(kGranule - 1)) == 0)
    return false;
  for (uintptr_t g = addr & ~(kGranule - 1); g < end; g += kGranule) {
    std::atomic<uint64_t> *cell = find_cell(g);
    if (!cell) return false;
    const uint64_t w = cell->load(std::memory_order_acquire);
    if (HeapBlock *block = block_of_word(w)) {
      if (block->fine.load(std::memory_order_acquire) || g < block->start ||
          !owner_again(block->state.load(std::memory_order_acquire), 0xff, write))
        return false;
      const uintptr_t last = (block_end(block) - 1) & ~(kGranule - 1);
      if (last > g) g = last;
      continue;
    }
    // The bytes [lo, hi) of this granule the access touches.
    const uintptr_t lo = addr > g ? addr - g : 0, hi = end < g + kGranule ? end - g : kGranule;
    if (is_split_word(w)) {
      // A byte whose word equals the first byte's is answered as that one
      // was (split_granule_needs_no_work's shortcut): a copied stack
      // string's bytes mostly hold one word.
      const auto *split = static_cast<const SplitGranule *>(pointer_of(w));
      const uint64_t passed = split->state[lo].load(std::memory_order_acquire);
      if (!owner_again(passed, 0xff, write)) return false;
      for (uintptr_t b = lo + 1; b < hi; ++b) {
        const uint64_t byte = split->state[b].load(std::memory_order_acquire);
        if (byte != passed && !owner_again(byte, 0xff, write)) return false;
      }
      continue;
    }
    if (!owner_again(w, ((1u << (hi - lo)) - 1) << lo, write)) return false;
  }
  return true;
}

bool untouched_granule_needs_no_work(uintptr_t addr, bool write) {
  ShadowPage *page = find_shadow_page(addr);
  HeapBlock *block = page ? page->block.load(std::memory_order_acquire) : nullptr;
  if (!block || block->fine.load(std::memory_order_acquire)) return false;
  if (!state_needs_no_work(block->state.load(std::memory_order_acquire), 0xff, write)) return false;
  // The next access inside the block asks its state directly (a block of
  // kWordsWrittenBelow or more, whose granules keep no word, no longer
  // takes this lookup on every access).
  const uintptr_t size = block_size(block);
  remember_block(block, size);
  if (size >= kWordsWrittenBelow && (size >> 32) == 0) {  // (hinted_access_needs_no_work reads size_low)
    UntouchedHint *hints = const_cast<UntouchedHint *>(t_untouched_hints);
    if (hints != kNoUntouchedHints || (hints = untouched_hints_of_this_thread()))
      hints[(addr >> kUntouchedHintShift) & (kUntouchedHints - 1)] = {addr >> kUntouchedHintShift, block};
  }
  // A smaller block has its word written the first time, as
  // the slow path would: the inlined fast path then finds the block from
  // the word, and a thread's own vectors and maps do not pay this page
  // lookup on every access (thread_local_heavy spent a third of its time
  // here). The word means what the Virgin word on the block's page meant,
  // so nothing changes; larger blocks keep their words unwritten (no
  // shadow committed for a huge buffer one thread fills).
  if (size < kWordsWrittenBelow)
    if (std::atomic<uint64_t> *cell = find_cell(addr)) {
      uint64_t untouched = 0;
      cell->compare_exchange_strong(untouched, pointer_word(Kind::kIndirect, block));
    }
  return true;
}

}  // namespace snag::race
