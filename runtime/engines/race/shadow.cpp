#include "engines/race/shadow.h"

#include <sys/mman.h>
#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/platform.h"
#include "core/spinlock.h"
#include "engines/race/heap_blocks.h"
#include "engines/race/state_records.h"
#include "engines/race/state.h"

namespace snag::race {

namespace detail {
std::atomic<ShadowPage *> *g_l1[kL1Size];
std::atomic<uintptr_t> g_slot_offset[kSlotCount];
PackedHistories *g_history_chunks[kHistoryChunks];
}  // namespace detail

namespace {

using detail::g_l1;
using detail::kL1Size;
using detail::kL2Bits;
using detail::kL2Size;
using detail::kSlotBits;
using detail::kSlotCount;
using detail::g_slot_offset;

constexpr uintptr_t kSlotSize = uintptr_t(1) << kSlotBits;
// Where slot shadows go: an address range Linux leaves empty (programs,
// their heap, libraries and stacks live below 0x5700'0000'0000 or above
// 0x7e00'0000'0000), tried in order with MAP_FIXED_NOREPLACE so nothing of the
// program is ever replaced. A reservation placed by the kernel instead would
// land next to the libraries and push the program's own mappings into new
// slots, each needing a reservation of its own.
constexpr uintptr_t kSlotShadowArea = 0x100000000000;  // 16 TiB
constexpr int kSlotShadowTries = 64;                   // 32 TiB of candidates
// Below this many bytes, clearing shadow word by word is cheaper than asking
// the system which shadow pages are in memory.
constexpr uintptr_t kWorthASystemCall = 16 * kPageSize;
// From this many bytes on, freed memory's shadow is given back to the system.
// Not below: with several threads running, every madvise(MADV_DONTNEED)
// costs a TLB shootdown on each CPU, which a program freeing and allocating
// mid-sized blocks in a loop (a growing std::vector) pays over and over.
constexpr uintptr_t kWorthGivingBack = uintptr_t(1) << 20;

SpinLock g_grow_lock;

// Page headers and their history index arrays come from large mappings
// carved in order and never unmapped: memory that is freed keeps its
// shadow, reset to Virgin (and, for large ranges, handed back to the system
// with madvise). They hold pointers, counts and pool indices, no lockset
// id: the pair finder does not read them (lockset_references.h; a quarter
// of the runtime memory it read in lock_pairs, race_bench.txt section 93).
struct Arena {
  char *next = nullptr;
  size_t left = 0;
  void *take(size_t size) {  // under g_grow_lock
    if (left < size) {
      size_t chunk = 64ull << 20;
      next = static_cast<char *>(map_pages_unvisited(chunk));
      left = chunk;
    }
    void *p = next;
    next += size;
    left -= size;
    return p;
  }
};
Arena g_headers;

// The history pool (shadow.h): chunks mapped as needed and never unmapped,
// so a thread still holding a granule's histories after its memory was
// freed (an access racing with the free, which the free's own check
// reports) writes into memory that stays valid; at worst into histories
// given to another granule since. Free histories are linked through their
// first word, and zeroed.
using detail::g_history_chunks;
using detail::kHistoryChunkBits;
SpinLock g_history_lock;
uint32_t g_free_histories;     // first free index, 0: none
uint32_t g_next_history = 1;   // never given out yet (0 means "none")

uint32_t &free_link(PackedHistories *h) { return *reinterpret_cast<uint32_t *>(h); }

uint32_t take_histories() {
  SpinLockGuard guard(g_history_lock);
  if (uint32_t i = g_free_histories) {
    PackedHistories *h = history_at(i);
    g_free_histories = free_link(h);
    free_link(h) = 0;
    return i;
  }
  uint32_t i = g_next_history++;
  if (i & kLockTouchTag) fatal("race: more than 2 billion granules with histories");
  PackedHistories *&chunk = g_history_chunks[i >> kHistoryChunkBits];
  if (!chunk) chunk = static_cast<PackedHistories *>(map_pages(sizeof(PackedHistories) << kHistoryChunkBits));
  return i;
}

// Gives `count` histories back to the pool (zeroed first: a thread still
// holding one finds nothing remembered).
// Lock touches (shadow.h, kLockTouchTag) given back go the same way: `indices`
// may hold both kinds.
void give_back_histories(const uint32_t *indices, uint32_t count) {
  if (!count) return;
  uint32_t histories = 0;
  for (uint32_t k = 0; k < count; ++k) {
    if (indices[k] & kLockTouchTag) continue;
    fill_bytes(history_at(indices[k]), 0, sizeof(PackedHistories));
    ++histories;
  }
  if (histories) {
    SpinLockGuard guard(g_history_lock);
    for (uint32_t k = 0; k < count; ++k) {
      if (indices[k] & kLockTouchTag) continue;
      free_link(history_at(indices[k])) = g_free_histories;
      g_free_histories = indices[k];
    }
  }
  if (histories < count)
    for (uint32_t k = 0; k < count; ++k)
      if (indices[k] & kLockTouchTag) give_back_lock_touch(indices[k]);
}

// The lock touches' pool (shadow.h): as the history pool's, 16 bytes an
// entry, chunks of 65,536 (1 MiB) mapped as needed (visited by the pair
// finder: an entry holds a lockset id) and never unmapped.
constexpr uint32_t kLockTouchChunkBits = 16;
PackedHistory *g_lock_touch_chunks[(kLockTouchTag >> kLockTouchChunkBits)];
SpinLock g_lock_touch_lock;
uint32_t g_free_lock_touches;      // first free index, 0: none
uint32_t g_next_lock_touch = 1;    // never given out yet (0 means "none")

// The histories of the granule whose index entry `slot` held the lock touch
// `tagged`, made from it (shadow.h, kLockTouchTag), under the granule's
// claim (kBusyWord, as the state machine's settle takes it); its index, or
// 0 when the entry changed meanwhile (the caller looks again).
uint32_t histories_from_lock_touch(std::atomic<uint32_t> &slot, uintptr_t addr, uint32_t tagged) {
  std::atomic<uint64_t> *cell = shadow_cell(addr);
  uint64_t w = cell->load(std::memory_order_acquire);
  if (w == kBusyWord) {
    raw_syscall(SYS_sched_yield);  // a lock touch is being written (a few stores)
    return 0;
  }
  if (!cell->compare_exchange_strong(w, kBusyWord)) return 0;
  if (slot.load(std::memory_order_acquire) != tagged) {
    cell->store(w, std::memory_order_release);
    return 0;
  }
  const PackedHistory touch = *lock_touch_at(tagged & ~kLockTouchTag);
  const uint32_t fresh = take_histories();
  history_at(fresh)->read = touch;
  uint64_t nw = w;
  if (w == 0 && touch.stack) nw = lock_touch_state(touch);
  slot.store(fresh, std::memory_order_release);
  cell->store(nw, std::memory_order_release);
  give_back_lock_touch(tagged);
  return fresh;
}

SpinLock g_slot_lock;
int g_slots_reserved = 0;

long reserve(uintptr_t hint, int extra_flags) {
  return raw_syscall(SYS_mmap, static_cast<long>(hint), static_cast<long>(kSlotSize),
                     PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | extra_flags, -1, 0);
}

bool mapped(long result) { return !(result < 0 && result > -4096); }

// Reserves the state words of slot `slot` (under g_slot_lock).
void reserve_slot(uintptr_t slot) {
  long shadow = -1;
  while (!mapped(shadow) && g_slots_reserved < kSlotShadowTries) {
    uintptr_t hint = kSlotShadowArea + uintptr_t(g_slots_reserved++) * kSlotSize;
    shadow = reserve(hint, MAP_FIXED_NOREPLACE);
    // Kernels before 4.17 ignore MAP_FIXED_NOREPLACE and treat it as a hint.
    if (mapped(shadow) && uintptr_t(shadow) != hint) {
      raw_syscall(SYS_munmap, shadow, static_cast<long>(kSlotSize));
      shadow = -1;
    }
  }
  if (!mapped(shadow)) shadow = reserve(0, 0);
  if (!mapped(shadow))
    fatal("race: cannot reserve 512 GiB of address space for shadow memory "
          "(is `ulimit -v` set, or vm.overcommit_memory=2?)");
  g_slot_offset[slot].store(uintptr_t(shadow) - slot * kSlotSize, std::memory_order_release);
}

}  // namespace

ShadowPage *shadow_page(uintptr_t addr) {
  if (ShadowPage *page = find_shadow_page(addr)) return page;
  uint64_t page_number = addr >> 12;
  uint64_t i1 = (page_number >> kL2Bits) & (kL1Size - 1);
  uint64_t i2 = page_number & (kL2Size - 1);
  SpinLockGuard guard(g_grow_lock);
  std::atomic<ShadowPage *> *l2 = __atomic_load_n(&g_l1[i1], __ATOMIC_ACQUIRE);
  if (!l2) {
    // Pointers, no lockset ids: not searched for them (lockset_references.h).
    l2 = static_cast<std::atomic<ShadowPage *> *>(map_pages_unvisited(sizeof(void *) * kL2Size));
    __atomic_store_n(&g_l1[i1], l2, __ATOMIC_RELEASE);
  }
  ShadowPage *page = l2[i2].load(std::memory_order_acquire);
  if (!page) {
    page = static_cast<ShadowPage *>(g_headers.take(sizeof(ShadowPage)));
    l2[i2].store(page, std::memory_order_release);
  }
  return page;
}

std::atomic<uint64_t> *shadow_cell(uintptr_t addr) {
  if (std::atomic<uint64_t> *cell = find_cell(addr)) return cell;
  uintptr_t slot = addr >> kSlotBits;
  if (slot >= kSlotCount) return nullptr;
  SpinLockGuard guard(g_slot_lock);
  if (!g_slot_offset[slot].load(std::memory_order_acquire)) reserve_slot(slot);
  return find_cell(addr);
}

namespace {

// Zeroes the words of one shadow page that are not zero. A page mincore
// calls resident may be the system's zero page, mapped by loads of its
// words (the inlined check reads the word of every granule it is asked
// about): writing it whole (memset) gave the process a page of zeros of
// its own, so only words that need it are written.
void zero_words(std::atomic<uint64_t> *words) {
  for (uint32_t i = 0; i < kCellsPerPage; ++i)
    if (words[i].load(std::memory_order_relaxed) != 0) words[i].store(0, std::memory_order_relaxed);
}

// Whether the 128 bytes at `p` are all zero: eight 16-byte loads or'ed
// together (GCC vectorizes neither a plain loop of this nor atomic loads).
bool zero_128_bytes(const void *p) {
  typedef uint64_t Pair __attribute__((vector_size(16)));
  const auto *bytes = static_cast<const char *>(p);
  Pair any = {0, 0};
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    Pair v;
    __builtin_memcpy(&v, bytes + 16 * k, sizeof v);
    any |= v;
  }
  return (any[0] | any[1]) == 0;
}

// Zeroes the words of cells[0, count) that are not zero already (a store to
// a shadow page that is not in memory commits it; a load does not). Sixteen
// words (128 bytes) are looked at together first, with plain vector loads
// (zero_128_bytes; atomic loads are never vectorized): most words of a
// range being cleared are zero (a new thread's ~16 KiB of recycled stack:
// the runtime's own frames and the part its user frames never reached), and
// word by word the check was 7.5 instructions a word, 15 K of a short
// thread's start (race_bench.txt section 99). A group with a word that is
// not zero is cleared through atomic accesses as before; a word another
// thread stores while the group is looked at is as racy as it was with the
// word-by-word check.
void clear_cells(std::atomic<uint64_t> *cells, uintptr_t count) {
  constexpr uintptr_t kGroup = 16;
  uintptr_t i = 0;
  for (; i + kGroup <= count; i += kGroup) {
    if (SNAG_LIKELY(zero_128_bytes(cells + i))) continue;
    for (uintptr_t j = i; j < i + kGroup; ++j)
      if (cells[j].load(std::memory_order_relaxed) != 0) cells[j].store(0, std::memory_order_relaxed);
  }
  for (; i < count; ++i)
    if (cells[i].load(std::memory_order_relaxed) != 0) cells[i].store(0, std::memory_order_relaxed);
}

// Takes the history indices of granules [first, last) of a page's index
// (entries not zero set to zero), into `freed`; returns how many. 32
// entries are looked at together first, as in clear_cells: a page's index
// is mostly zeros, and its 512 entries one by one were 3 K instructions of
// a thread's start.
uint32_t take_history_indices(std::atomic<uint32_t> *index, uint32_t first, uint32_t last, uint32_t *freed) {
  constexpr uint32_t kGroup = 32;  // 128 bytes of entries
  uint32_t count = 0;
  uint32_t c = first;
  auto take = [&](uint32_t from, uint32_t to) {
    for (uint32_t k = from; k < to; ++k)
      if (index[k].load(std::memory_order_relaxed))
        if (uint32_t i = index[k].exchange(0, std::memory_order_acq_rel)) freed[count++] = i;
  };
  for (; c + kGroup <= last; c += kGroup) {
    if (SNAG_LIKELY(zero_128_bytes(index + c))) continue;
    take(c, c + kGroup);
  }
  take(c, last);
  return count;
}

// Whether shadow page `words` has a word that is not zero.
bool has_words(const std::atomic<uint64_t> *words) {
  for (uint32_t i = 0; i < kCellsPerPage; ++i)
    if (words[i].load(std::memory_order_relaxed) != 0) return true;
  return false;
}

// Zeroes the shadow pages of [from, from + bytes) that are in memory, leaving the
// others untouched (they read as zero already) and the memory in place.
void zero_resident(std::atomic<uint64_t> *from, uintptr_t bytes) {
  // Shadow pages per mincore call: a thread stack's 8 MiB in one (a new
  // thread's start took eight calls, most of a short-lived thread's extra
  // system time).
  constexpr uintptr_t kBatch = 2048;
  unsigned char resident[kBatch];
  auto *base = reinterpret_cast<char *>(from);
  for (uintptr_t done = 0; done < bytes; done += kBatch * kPageSize) {
    uintptr_t chunk = bytes - done < kBatch * kPageSize ? bytes - done : kBatch * kPageSize;
    if (raw_syscall(SYS_mincore, reinterpret_cast<long>(base + done), static_cast<long>(chunk),
                    reinterpret_cast<long>(resident)) != 0) {
      fill_bytes(base + done, 0, chunk);  // cannot tell: zero it all
      continue;
    }
    const uintptr_t pages = chunk / kPageSize;
    for (uintptr_t page = 0; page < pages; ++page) {
      // Eight pages at a time while none is in memory (most of a stack's shadow).
      if ((page & 7) == 0 && page + 8 <= pages) {
        uint64_t eight;
        __builtin_memcpy(&eight, resident + page, sizeof eight);
        if (!(eight & 0x0101010101010101ull)) {
          page += 7;
          continue;
        }
      }
      if (resident[page] & 1) zero_words(reinterpret_cast<std::atomic<uint64_t> *>(base + done + page * kPageSize));
    }
  }
}

// Whether the shadow pages of [from, from + bytes) (at most
// kWorthGivingBack of application memory) are worth giving back to the
// system although the range is under kWorthGivingBack: at least half of
// them, and four or more, hold words. A block of kWordsWrittenBelow or
// more writes no words on its whole pages, so its pages hold words only
// from an earlier use of its memory by smaller blocks (thread_local_heavy's
// scratch vector and bucket arrays, over its vectors' first buffers), or a
// word or two its slow path wrote: a block allocated and freed in a loop
// then has its few words zeroed in place and makes no system call, which a
// madvise at every free would (a TLB shootdown on every CPU each time,
// kWorthGivingBack's reason). Pages are looked at only where mincore finds
// them (a page the word loads mapped the zero page to reads as zeros).
bool worth_giving_back(std::atomic<uint64_t> *from, uintptr_t bytes) {
  constexpr uintptr_t kMost = kWorthGivingBack / kPageSize;
  unsigned char resident[kMost];
  const uintptr_t pages = bytes / kPageSize;
  if (bytes > kWorthGivingBack ||
      raw_syscall(SYS_mincore, reinterpret_cast<long>(from), static_cast<long>(bytes),
                  reinterpret_cast<long>(resident)) != 0)
    return false;
  uintptr_t with_words = 0;
  for (uintptr_t page = 0; page < pages; ++page)
    if ((resident[page] & 1) && has_words(from + page * kCellsPerPage)) ++with_words;
  return with_words >= 4 && with_words * 2 >= pages;
}

}  // namespace

void shadow_reset_cells(uintptr_t begin, uintptr_t end, ShadowMemory memory) {
  // Clears the state words of the granules from `from` (aligned) to `to`.
  // Only words that are not zero already are written: a store to a shadow
  // page that is not in memory commits it, a load does not (it reads the
  // system's zero page). A block of a few pages allocated or freed where
  // no granule had a word (kWordsWrittenBelow keeps a mid-sized block's
  // pages without words) left that many resident pages of zeros.
  auto clear = [](std::atomic<uint64_t> *cells, uintptr_t from, uintptr_t to) {
    clear_cells(cells, (to - from + kGranule - 1) / kGranule);
  };
  for (uintptr_t g = begin & ~(kGranule - 1); g < end;) {
    uintptr_t slot_end = (g | (kSlotSize - 1)) + 1;
    uintptr_t stop = end < slot_end ? end : slot_end;
    // Within a slot the state words are contiguous: cells[i] is granule g + 8i.
    std::atomic<uint64_t> *cells = find_cell(g);
    if (!cells) {  // no shadow in this slot: nothing to reset
      g = stop;
      continue;
    }
    // A shadow page holds the states of exactly one application page: whole
    // pages are given back (they read as zero, Virgin, when touched again),
    // the ragged ends are cleared word by word.
    uintptr_t first_page = (g + kPageSize - 1) & ~(kPageSize - 1);
    uintptr_t last_page = stop & ~(kPageSize - 1);
    const uintptr_t whole = last_page > first_page ? last_page - first_page : 0;
    const bool give_back = memory == ShadowMemory::kGiveBack;
    if (whole >= kWorthASystemCall || (give_back && whole >= kWordsWrittenBelow)) {
      clear(cells, g, first_page);
      std::atomic<uint64_t> *pages = cells + (first_page - g) / kGranule;
      if (give_back && (whole >= kWorthGivingBack || worth_giving_back(pages, whole)))
        raw_syscall(SYS_madvise, reinterpret_cast<long>(pages), static_cast<long>(whole), MADV_DONTNEED);
      else
        zero_resident(pages, whole);
      clear(cells + (last_page - g) / kGranule, last_page, stop);
    } else {
      clear(cells, g, stop);
    }
    g = stop;
  }
}

PackedHistories *shadow_history(ShadowPage *page, uintptr_t addr) {
  std::atomic<uint32_t> &slot = history_index_entry(page, addr);
  for (;;) {
    uint32_t i = slot.load(std::memory_order_acquire);
    if (SNAG_UNLIKELY(i & kLockTouchTag)) {
      if ((i = histories_from_lock_touch(slot, addr, i))) return history_at(i);
      continue;
    }
    if (SNAG_LIKELY(i)) return history_at(i);
    uint32_t fresh = take_histories();
    if (slot.compare_exchange_strong(i, fresh, std::memory_order_acq_rel)) return history_at(fresh);
    give_back_histories(&fresh, 1);  // another thread made the granule's first (or a lock touch)
  }
}

std::atomic<uint32_t> &history_index_entry(ShadowPage *page, uintptr_t addr) {
  std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
  if (SNAG_UNLIKELY(!index)) {
    SpinLockGuard guard(g_grow_lock);
    index = page->history.load(std::memory_order_acquire);
    if (!index) {
      index = static_cast<std::atomic<uint32_t> *>(g_headers.take(sizeof(uint32_t) * kCellsPerPage));
      page->history.store(index, std::memory_order_release);
    }
  }
  return index[cell_index(addr)];
}

PackedHistory *lock_touch_at(uint32_t index) {
  return g_lock_touch_chunks[index >> kLockTouchChunkBits] + (index & ((1u << kLockTouchChunkBits) - 1));
}

uint32_t take_lock_touch() {
  SpinLockGuard guard(g_lock_touch_lock);
  if (uint32_t i = g_free_lock_touches) {
    PackedHistory *e = lock_touch_at(i);
    g_free_lock_touches = e->stack;  // the free list's link
    e->stack = 0;
    return i | kLockTouchTag;
  }
  uint32_t i = g_next_lock_touch++;
  if (i & kLockTouchTag) fatal("race: more than 2 billion lock touches");
  PackedHistory *&chunk = g_lock_touch_chunks[i >> kLockTouchChunkBits];
  if (!chunk) chunk = static_cast<PackedHistory *>(map_pages(sizeof(PackedHistory) << kLockTouchChunkBits));
  return i | kLockTouchTag;
}

void give_back_lock_touch(uint32_t tagged) {
  const uint32_t i = tagged & ~kLockTouchTag;
  PackedHistory *e = lock_touch_at(i);
  *e = PackedHistory{};
  SpinLockGuard guard(g_lock_touch_lock);
  e->stack = g_free_lock_touches;
  g_free_lock_touches = i;
}

namespace {

// Writes `word` into the state of every granule of [begin, end), a range
// inside one application page. Within a page the state words are
// contiguous (cells[i] is granule first + 8i), so the first is found once
// (inline: the slot has shadow already, mostly).
void fill_cells_in_page(uintptr_t begin, uintptr_t end, uint64_t word) {
  const uintptr_t first = begin & ~(kGranule - 1);
  std::atomic<uint64_t> *cells = find_cell(first);
  if (!cells) cells = shadow_cell(first);
  if (cells) fill_cells(cells, granules_of(first, end), word);
}

}  // namespace

void shadow_mark_block_slowly(uintptr_t begin, uintptr_t end, HeapBlock *block) {
  uint64_t word = pointer_word(Kind::kIndirect, block);
  // Granule states left from earlier blocks must not outlive this one's
  // coarse phase: the block's memory starts fresh, and whole pages point at
  // the block through their page (the access path writes the Indirect word
  // into a granule's state the first time it touches it, so that a large
  // block costs shadow only where it is used). The granules of a page the
  // block covers in part get the block's word below in place of what they
  // held, so only the whole pages are reset (a small block's words were
  // written twice at each malloc).
  const uintptr_t first_whole = (begin + kPageSize - 1) & ~(kPageSize - 1);
  const uintptr_t past_whole = end & ~(kPageSize - 1);
  if (past_whole > first_whole) shadow_reset_cells(first_whole, past_whole);
  for (uintptr_t page_start = begin & ~(kPageSize - 1); page_start < end; page_start += kPageSize) {
    uintptr_t lo = begin > page_start ? begin : page_start;
    uintptr_t hi = end < page_start + kPageSize ? end : page_start + kPageSize;
    if (lo == page_start && hi == page_start + kPageSize) {
      shadow_page(page_start)->block.store(block, std::memory_order_release);
      continue;
    }
    forget_dead_page_block(page_start, block);
    fill_cells_in_page(lo, hi, word);
  }
}

void shadow_free_in_page(ShadowPage *page, uintptr_t begin, uintptr_t end, uint64_t word) {
  const uintptr_t page_start = begin & ~(kPageSize - 1);
  if (page) release_state_records(page, page_start, cell_index(begin), cell_index(end - 1) + 1);
  fill_cells_in_page(begin, end, word);
  if (!page) return;
  if (begin == page_start && end == page_start + kPageSize) page->block.store(nullptr, std::memory_order_release);
  give_back_granule_histories(page, cell_index(begin), cell_index(end - 1));
}

void give_back_granule_histories(ShadowPage *page, uint32_t first, uint32_t last) {
  std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
  if (!index) return;
  uint32_t freed[kCellsPerPage];
  uint32_t count = 0;
  for (uint32_t c = first; c <= last; ++c)
    if (index[c].load(std::memory_order_relaxed))
      if (uint32_t i = index[c].exchange(0, std::memory_order_acq_rel)) freed[count++] = i;
  give_back_histories(freed, count);
}

void shadow_clear(uintptr_t begin, uintptr_t end, ShadowMemory memory) {
  // Pages first: the records the words own go back before the words are reset.
  for_each_shadow_page(begin, end, [&](ShadowPage *page, uintptr_t page_start, uint32_t lo, uint32_t hi) {
    release_state_records(page, page_start, lo, hi);
    bool whole_page = begin <= page_start && page_start + kPageSize <= end;
    if (whole_page) page->block.store(nullptr, std::memory_order_release);
    std::atomic<uint32_t> *index = page->history.load(std::memory_order_acquire);
    if (!index) return;
    uint32_t freed[kCellsPerPage];
    give_back_histories(freed, take_history_indices(index, lo, hi, freed));
  });
  shadow_reset_cells(begin, end, memory);
}

}  // namespace snag::race
