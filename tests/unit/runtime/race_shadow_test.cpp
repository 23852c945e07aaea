// The race engine's shadow (shadow.h): direct-mapped state words, found with
// a table load and an add, reserved per 512 GiB slot on first use, and given
// back when a range is cleared.
#include "engines/race/shadow.h"

#include <gtest/gtest.h>
#include <stdio.h>
#include <sys/mman.h>

#include "engines/race/heap_blocks.h"
#include "engines/race/state.h"

namespace snag::race {
namespace {

constexpr uintptr_t kRegion = 0xa000000;  // each test its own addresses

TEST(Shadow, StateWordsAreDirectMappedPerGranule) {
  std::atomic<uint64_t> *first = shadow_cell(kRegion);
  ASSERT_NE(first, nullptr);
  // Neighbouring granules have neighbouring words; bytes of one granule share one.
  EXPECT_EQ(shadow_cell(kRegion + kGranule), first + 1);
  EXPECT_EQ(shadow_cell(kRegion + 5), first);
  EXPECT_EQ(find_cell(kRegion + 4096 * 3 + 17), first + (4096 * 3 + 16) / kGranule);
  EXPECT_EQ(first->load(), 0u);  // Virgin until written
}

TEST(Shadow, AddressesAboveTheUserSpaceAreNotTracked) {
  EXPECT_EQ(find_cell(uintptr_t(1) << 47), nullptr);
  EXPECT_EQ(shadow_cell(~uintptr_t(0) - 64), nullptr);
}

TEST(Shadow, ResetClearsExactlyTheGranulesOfTheRange) {
  const uintptr_t base = kRegion + 0x100000;
  for (uintptr_t g = base; g < base + 64; g += kGranule) shadow_cell(g)->store(0x42);
  shadow_reset_cells(base + 8, base + 20);  // granules 1 and 2 (the range ends inside 2)
  EXPECT_EQ(find_cell(base)->load(), 0x42u);
  EXPECT_EQ(find_cell(base + 8)->load(), 0u);
  EXPECT_EQ(find_cell(base + 16)->load(), 0u);
  EXPECT_EQ(find_cell(base + 24)->load(), 0x42u);
}

TEST(Shadow, ResetOfALargeRangeGivesPagesBackAndReadsVirgin) {
  // Large enough for the madvise path, with ragged ends on both sides.
  const uintptr_t begin = kRegion + 0x1000000 + 40, end = begin + 320 * kPageSize + 24;
  for (uintptr_t g = begin - 8; g < end + 16; g += kGranule) shadow_cell(g)->store(7);
  shadow_reset_cells(begin, end);
  EXPECT_EQ(find_cell(begin - 8)->load(), 7u);
  for (uintptr_t g = begin; g < end; g += kGranule) ASSERT_EQ(find_cell(g)->load(), 0u) << g - begin;
  EXPECT_EQ(find_cell(end + 8)->load(), 7u);
}

TEST(Shadow, ResetKeepingTheMemoryZeroesWhatWasWritten) {
  // A new thread's stack: its shadow is zeroed in place, not given back.
  const uintptr_t begin = kRegion + 0x3000000, end = begin + 64 * kPageSize;
  for (uintptr_t g = begin; g < end; g += 5 * kPageSize + 8) shadow_cell(g)->store(3);
  shadow_reset_cells(begin, end, ShadowMemory::kKeep);
  for (uintptr_t g = begin; g < end; g += kGranule) ASSERT_EQ(find_cell(g)->load(), 0u) << g - begin;
}

// How many of the shadow pages of [begin, end) (application addresses,
// page-aligned) are the process's own pages in memory: present and mapped
// once (/proc/self/pagemap bits 63 and 56), which the system's zero page,
// mapped by a load, is not.
uint32_t resident_shadow_pages(uintptr_t begin, uintptr_t end) {
  FILE *f = fopen("/proc/self/pagemap", "rb");
  EXPECT_NE(f, nullptr);
  if (!f) return 0;
  uint32_t n = 0;
  const uintptr_t first = reinterpret_cast<uintptr_t>(shadow_cell(begin)) / kPageSize;
  for (uintptr_t p = 0; p < (end - begin) / kPageSize; ++p) {
    uint64_t entry = 0;
    EXPECT_EQ(fseek(f, long((first + p) * sizeof entry), SEEK_SET), 0);
    EXPECT_EQ(fread(&entry, sizeof entry, 1, f), 1u);
    n += (entry >> 63 & 1) && (entry >> 56 & 1);
  }
  fclose(f);
  return n;
}

// Whether a load from an anonymous page never written maps the system's
// shared zero page, as Linux has always done, rather than a page of this
// process's own: some kernels (a VM's, 6.18 here) commit a page at the
// first load, and then a load cannot be told from a write by residency.
bool loads_map_the_zero_page() {
  void *page = mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return false;
  volatile uint64_t word = *static_cast<volatile uint64_t *>(page);
  (void)word;
  uint64_t entry = 0;
  FILE *f = fopen("/proc/self/pagemap", "rb");
  if (f) {
    fseek(f, long(reinterpret_cast<uintptr_t>(page) / kPageSize * sizeof entry), SEEK_SET);
    if (fread(&entry, sizeof entry, 1, f) != 1) entry = 0;
    fclose(f);
  }
  munmap(page, kPageSize);
  return f && !((entry >> 63 & 1) && (entry >> 56 & 1));
}

// Resetting words that are zero already does not bring their shadow pages
// into memory (a block of kWordsWrittenBelow or more keeps no words on its
// whole pages: its allocation and its free found them zero and wrote them
// all the same).
TEST(Shadow, ResetOfWordsThatAreZeroLeavesTheirPagesOutOfMemory) {
  if (!loads_map_the_zero_page()) GTEST_SKIP() << "this kernel commits a page at a load: residency cannot tell";
  const uintptr_t begin = kRegion + 0x6000000, end = begin + 3 * kPageSize;
  ASSERT_EQ(shadow_cell(begin)->load(), 0u);
  ASSERT_EQ(resident_shadow_pages(begin, end), 0u);
  shadow_reset_cells(begin, end);
  EXPECT_EQ(resident_shadow_pages(begin, end), 0u);
  // Nor does zeroing in place a range whose pages were only read (mincore
  // calls them resident: the zero page).
  const uintptr_t large = kRegion + 0x6040000, large_end = large + 32 * kPageSize;
  for (uintptr_t p = large; p < large_end; p += kPageSize) ASSERT_EQ(find_cell(p)->load(), 0u);
  shadow_reset_cells(large, large_end, ShadowMemory::kKeep);
  EXPECT_EQ(resident_shadow_pages(large, large_end), 0u);
}

// A range of kWordsWrittenBelow or more whose shadow pages mostly hold
// words gives them back (memory smaller blocks used before a mid-sized
// one, which writes no words there); with a word or two (its slow path's)
// they are zeroed in place: no system call for a block allocated and
// freed in a loop.
TEST(Shadow, ResetOfAMidSizedRangeGivesBackPagesSmallerBlocksUsed) {
  const uintptr_t begin = kRegion + 0x6100000, end = begin + kWordsWrittenBelow + kPageSize;
  for (uintptr_t p = begin; p < end; p += kPageSize) shadow_cell(p + 64)->store(7);
  ASSERT_EQ(resident_shadow_pages(begin, end), (end - begin) / kPageSize);
  shadow_reset_cells(begin, end);
  EXPECT_EQ(resident_shadow_pages(begin, end), 0u);
  for (uintptr_t g = begin; g < end; g += kGranule) ASSERT_EQ(find_cell(g)->load(), 0u) << g - begin;

  shadow_cell(begin + kPageSize + 8)->store(7);
  shadow_reset_cells(begin, end);
  EXPECT_EQ(find_cell(begin + kPageSize + 8)->load(), 0u);
  if (loads_map_the_zero_page()) EXPECT_EQ(resident_shadow_pages(begin, end), 1u);  // zeroed where it is

  // Below kWordsWrittenBelow the words are zeroed where they are.
  const uintptr_t small_end = begin + kWordsWrittenBelow - kPageSize;
  for (uintptr_t p = begin; p < small_end; p += kPageSize) shadow_cell(p + 64)->store(7);
  shadow_reset_cells(begin, small_end);
  EXPECT_EQ(resident_shadow_pages(begin, small_end), (small_end - begin) / kPageSize);
  EXPECT_EQ(find_cell(begin + 64)->load(), 0u);
  // And a stack's shadow (kKeep) is never given back.
  for (uintptr_t p = begin; p < end; p += kPageSize) shadow_cell(p + 64)->store(7);
  shadow_reset_cells(begin, end, ShadowMemory::kKeep);
  EXPECT_EQ(resident_shadow_pages(begin, end), (end - begin) / kPageSize);
}

TEST(Shadow, AWholePageBlockIsFoundThroughItsPageAndAPartialOneThroughItsWords) {
  BlockCache cache;
  const uintptr_t whole = kRegion + 0x300000, part = kRegion + 0x310010;
  HeapBlock *big = new_heap_block(cache, whole, 2 * kPageSize, 0, 0);
  HeapBlock *small = new_heap_block(cache, part, 24, 0, 0);
  shadow_cell(whole)->store(9);  // left over from an earlier block
  shadow_mark_block(whole, whole + 2 * kPageSize, big);
  shadow_mark_block(part, part + 24, small);
  EXPECT_EQ(find_cell(whole)->load(), 0u);  // the new block starts fresh
  EXPECT_EQ(find_shadow_page(whole)->block.load(), big);
  uint64_t word = find_cell(part + 16)->load();
  EXPECT_EQ(kind_of(word), Kind::kIndirect);
  EXPECT_EQ(pointer_of(word), small);
  shadow_clear(whole, whole + 2 * kPageSize);
  EXPECT_EQ(find_shadow_page(whole)->block.load(), nullptr);
}

TEST(Shadow, HistoriesOfAClearedRangeReadEmpty) {
  const uintptr_t base = kRegion + 0x2000000;
  ShadowPage *page = shadow_page(base);
  for (uintptr_t a = base; a < base + 300 * kPageSize; a += kPageSize)
    shadow_history(shadow_page(a), a + 8)->write.stack = 5;
  shadow_clear(base, base + 300 * kPageSize);  // over 1 MiB: pages given back
  EXPECT_EQ(shadow_history(page, base + 8)->write.stack, 0u);
  EXPECT_EQ(shadow_history(shadow_page(base + 299 * kPageSize), base + 299 * kPageSize + 8)->write.stack, 0u);
}

TEST(Shadow, EachGranuleOfAPageGetsItsOwnHistoriesOnlyWhenAsked) {
  const uintptr_t base = kRegion + 0x4000000;
  ShadowPage *page = shadow_page(base);
  EXPECT_EQ(find_history(page, base), nullptr);  // nothing made yet
  PackedHistories *first = shadow_history(page, base);
  first->write.stack = 11;
  EXPECT_EQ(find_history(page, base + 7), first);  // bytes of one granule share it
  EXPECT_EQ(find_history(page, base + 8), nullptr) << "the neighbour has none of its own yet";
  PackedHistories *last = shadow_history(page, base + kPageSize - 8);
  EXPECT_NE(last, first);
  EXPECT_EQ(last->write.stack, 0u);
  last->write.stack = 12;
  EXPECT_EQ(shadow_history(page, base)->write.stack, 11u);  // kept independently
  EXPECT_EQ(shadow_history(page, base + kPageSize - 8)->write.stack, 12u);
}

TEST(Shadow, ClearedHistoriesGoBackToThePoolAndAreReusedEmpty) {
  const uintptr_t base = kRegion + 0x5000000;
  ShadowPage *page = shadow_page(base);
  PackedHistories *h = shadow_history(page, base + 16);
  h->read.stack = 21;
  PackedHistories *kept = shadow_history(page, base + 24);
  kept->read.stack = 22;
  shadow_clear(base + 16, base + 24);  // only the first of the two granules
  EXPECT_EQ(find_history(page, base + 16), nullptr);
  EXPECT_EQ(find_history(page, base + 24), kept);
  EXPECT_EQ(kept->read.stack, 22u);
  // The next granule to need histories gets the ones given back, empty.
  PackedHistories *again = shadow_history(shadow_page(base + 3 * kPageSize), base + 3 * kPageSize);
  EXPECT_EQ(again, h);
  EXPECT_EQ(again->read.stack, 0u);
}

// A thread's start clears ~16 KiB of its recycled stack's shadow, sixteen
// words (or history entries) looked at together (clear_cells,
// take_history_indices): a word or history at any place of a group, in the
// ragged tail after the last whole group, or alone in a group must go, and
// nothing outside the range.
TEST(Shadow, AClearLooksAtWordsInGroupsAndMissesNoneOfThem) {
  const uintptr_t begin = kRegion + 0x7000000 + 8, end = begin + 4 * kPageSize - 16 + 5 * kGranule;
  const uintptr_t written[] = {begin, begin + 15 * kGranule, begin + 16 * kGranule, begin + 47 * kGranule,
                               begin + 700 * kGranule, end - 5 * kGranule, end - kGranule};
  for (uintptr_t a : written) shadow_cell(a)->store(0x9);
  shadow_cell(begin - kGranule)->store(0x5);
  shadow_cell(end)->store(0x6);
  const uintptr_t with_history[] = {begin + 16 * kGranule, begin + 31 * kGranule, end - kGranule};
  for (uintptr_t a : with_history) shadow_history(shadow_page(a), a)->write.stack = 8;
  shadow_history(shadow_page(end), end)->write.stack = 9;

  shadow_clear(begin, end, ShadowMemory::kKeep);

  for (uintptr_t g = begin; g < end; g += kGranule) ASSERT_EQ(find_cell(g)->load(), 0u) << g - begin;
  for (uintptr_t a : with_history) EXPECT_EQ(find_history(shadow_page(a), a), nullptr) << a - begin;
  EXPECT_EQ(find_cell(begin - kGranule)->load(), 0x5u);
  EXPECT_EQ(find_cell(end)->load(), 0x6u);
  EXPECT_EQ(find_history(shadow_page(end), end)->write.stack, 9u);
}

}  // namespace
}  // namespace snag::race
