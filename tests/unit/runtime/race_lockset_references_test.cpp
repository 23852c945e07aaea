// The race engine's finder of the lockset ids its memory names
// (lockset_references.h), and the runtime's list of its own mappings it
// reads (internal_alloc.h): an id kept where the engine keeps them is
// found, one kept only in tables that hold none is not.
#include "engines/race/lockset_references.h"

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <vector>

#include "core/internal_alloc.h"
#include "engines/race/lock_pairs.h"
#include "engines/race/lockset.h"
#include "engines/race/shadow.h"
#include "engines/race/state.h"

namespace snag::race {
namespace {

// Pair indexes unlikely to be matched by any other word of the runtime's
// memory (a word only looking like an id would keep a pair, never lose one).
constexpr uint32_t kPairs = 0x7fff00;
constexpr uint32_t kInRecord = 0x5a5a51, kInHistory = 0x5a5a53, kInStateWord = 0x5a5a55,
                   kInUnvisited = 0x5a5a57, kNowhere = 0x5a5a59, kUnmapped = 0x5a5a5b;

bool named(const std::vector<uint64_t> &marks, uint32_t pair) { return marks[pair / 64] >> (pair % 64) & 1; }

alignas(64) uint64_t g_variable;  // a Shared-Modify1 variable under a pair

TEST(LocksetReferences, FindsPairsInRecordsHistoriesAndStateWordsOnly) {
  // A record from the runtime's allocator (a Shared-Modify2 record's lockset).
  auto *record = static_cast<uint32_t *>(internal_alloc(64));
  record[3] = kFirstLockPair + kInRecord;
  // A packed history's lockset word: other bits above the id's 24.
  auto *history = static_cast<uint32_t *>(map_pages(4096));
  history[7] = (kFirstLockPair + kInHistory) | 0xa5000000u;
  // A state word in the shadow.
  std::atomic<uint64_t> *cell = shadow_cell(reinterpret_cast<uintptr_t>(&g_variable));
  ASSERT_NE(cell, nullptr);
  cell->store(shared_word(Kind::kSharedModify1, kFirstLockPair + kInStateWord));
  // A table mapped unvisited (addresses, pointers) and a range given back.
  auto *unvisited = static_cast<uint32_t *>(map_pages_unvisited(4096));
  unvisited[9] = kFirstLockPair + kInUnvisited;
  auto *gone = static_cast<uint32_t *>(map_pages(2 * 4096));
  gone[4096 / 4 + 1] = kFirstLockPair + kUnmapped;
  unmap_pages(gone, 2 * 4096);

  std::vector<uint64_t> marks(kPairs / 64 + 1);
  const size_t read = find_named_lock_pairs(kPairs, marks.data());
  ASSERT_NE(read, kLockPairSearchFailed);
  EXPECT_GT(read, 0u);
  EXPECT_TRUE(named(marks, kInRecord));
  EXPECT_TRUE(named(marks, kInHistory));
  EXPECT_TRUE(named(marks, kInStateWord));
  EXPECT_FALSE(named(marks, kInUnvisited));
  EXPECT_FALSE(named(marks, kNowhere));
  EXPECT_FALSE(named(marks, kUnmapped));

  cell->store(0);
  internal_free(record);
  unmap_pages(history, 4096);
}

// The search tests two 32-bit words at a time: an id in either half of an
// 8-byte word, at any word of a line, among words with other bits set, is
// found (a guard for the search's shortcuts).
TEST(LocksetReferences, FindsAnIdAtEveryWordOfALine) {
  constexpr uint32_t kFirst = 0x5a5b00, kWords = 4096 / sizeof(uint32_t);
  auto *page = static_cast<uint32_t *>(map_pages(4096));
  for (uint32_t w = 0; w < kWords; ++w) page[w] = 0x0012345u;  // no bit 23: names nothing
  // Line k (16 32-bit words) holds one id, at its word k.
  for (uint32_t k = 0; k < 16; ++k) page[k * 16 + k] = (kFirstLockPair + kFirst + k) | 0x3c000000u;
  std::vector<uint64_t> marks(kPairs / 64 + 1);
  ASSERT_NE(find_named_lock_pairs(kPairs, marks.data()), kLockPairSearchFailed);
  for (uint32_t k = 0; k < 16; ++k) EXPECT_TRUE(named(marks, kFirst + k)) << "word " << k << " of its line";
  EXPECT_FALSE(named(marks, kFirst + 16));
  unmap_pages(page, 4096);
}

// Shadow page headers and their history index arrays hold pointers, counts
// and pool indices, never a lockset id: the finder does not read them (a
// quarter of what it read in lock_pairs, race_bench.txt section 93), so a
// word there that looks like an id keeps no pair.
alignas(4096) char g_page_with_header[4096];

TEST(LocksetReferences, DoesNotReadShadowPageHeaders) {
  constexpr uint32_t kInIndexArray = 0x5a5a5d;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(&g_page_with_header[64]);
  ShadowPage *page = shadow_page(addr);
  ASSERT_NE(page, nullptr);
  std::atomic<uint32_t> &entry = history_index_entry(page, addr);
  const uint32_t was = entry.load();
  entry.store(kFirstLockPair + kInIndexArray);
  std::vector<uint64_t> marks(kPairs / 64 + 1);
  ASSERT_NE(find_named_lock_pairs(kPairs, marks.data()), kLockPairSearchFailed);
  entry.store(was);
  EXPECT_FALSE(named(marks, kInIndexArray));
}

// The list of mappings: a range is visited until it is unmapped, and a
// range unmapped in its middle leaves its two ends.
struct Visited {
  std::vector<std::pair<uintptr_t, size_t>> ranges;
  bool covers(const void *p) const {
    for (auto &r : ranges)
      if (reinterpret_cast<uintptr_t>(p) >= r.first && reinterpret_cast<uintptr_t>(p) < r.first + r.second) return true;
    return false;
  }
};

void note(void *context, const char *begin, size_t size) {
  static_cast<Visited *>(context)->ranges.push_back({reinterpret_cast<uintptr_t>(begin), size});
}

TEST(RuntimeMappings, ARangeIsVisitedUntilUnmappedAndACutLeavesBothEnds) {
  char *three = static_cast<char *>(map_pages(3 * 4096));
  char *unvisited = static_cast<char *>(map_pages_unvisited(4096));
  unmap_pages(three + 4096, 4096);
  Visited v;
  for_each_runtime_mapping(note, &v);
  EXPECT_TRUE(v.covers(three));
  EXPECT_FALSE(v.covers(three + 4096));
  EXPECT_TRUE(v.covers(three + 2 * 4096));
  EXPECT_FALSE(v.covers(unvisited));
  unmap_pages(three, 4096);
  unmap_pages(three + 2 * 4096, 4096);
  Visited after;
  for_each_runtime_mapping(note, &after);
  EXPECT_FALSE(after.covers(three));
  EXPECT_FALSE(after.covers(three + 2 * 4096));
  unmap_pages(unvisited, 4096);
}

}  // namespace
}  // namespace snag::race
