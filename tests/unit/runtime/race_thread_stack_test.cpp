// A reused thread stack starts fresh (forget_stack_range, race_events.cpp):
// the walk that looks only at pages with a shadow page header
// (for_each_shadow_page, shadow.h) must still find every synchronization
// variable, history and block in the range, on any page (not only the first
// of a group of eight, and the last of a group whose other seven have none),
// on both sides of a 1 GiB table boundary and on the ragged first and last
// pages, and leave what lies outside the range alone.
#include <gtest/gtest.h>

#include "engines/race/heap_blocks.h"
#include "engines/race/race_engine.h"
#include "engines/race/shadow.h"
#include "engines/race/sync_vars.h"

namespace snag::race {
namespace {

// 8 MiB like a thread stack, across the table boundary at 1 GiB, starting
// and ending inside a page. No other test uses these addresses.
constexpr uintptr_t kBegin = 0x40000000 - 4 * 1024 * 1024 - 4 * kPageSize + 40;
constexpr uintptr_t kEnd = kBegin + 8 * 1024 * 1024;
constexpr uintptr_t kFirstPage = kBegin & ~(kPageSize - 1);

uintptr_t page(uintptr_t n) { return kFirstPage + n * kPageSize; }

TEST(ThreadStack, AReusedStackForgetsItsVariablesHistoriesAndBlocksOnEveryPage) {
  // Variables on pages in the middle of a group of eight, on the last page
  // of a group alone (page(27): pages 20-27 are a group), on the last page
  // below the boundary and the first above it, and on the ragged ends.
  const uintptr_t vars[] = {page(13) + 64, page(27) + 32, page(1021) + 8, page(1027) + 128,
                            0x40000000 - 64, 0x40000000 + 8, kBegin, kEnd - 8};
  for (uintptr_t v : vars) ASSERT_NE(sync_var(v, true), nullptr);
  // Outside the range, on the pages the range starts and ends in.
  const uintptr_t outside[] = {kBegin - 16, kEnd + 8};
  for (uintptr_t v : outside) ASSERT_NE(sync_var(v, true), nullptr);

  const uintptr_t with_history[] = {page(5), page(1500) + 808, 0x40000000 + 3 * kPageSize};
  for (uintptr_t a : with_history) shadow_history(shadow_page(a), a)->write.stack = 5;

  BlockCache cache;
  HeapBlock *block = new_heap_block(cache, page(700), 2 * kPageSize, 0, 0);
  shadow_mark_block(page(700), page(702), block);

  const uintptr_t written[] = {page(300) + 16, page(1024), kEnd - 8};  // no header
  for (uintptr_t a : written) shadow_cell(a)->store(0x77);

  forget_stack_range(kBegin, kEnd);

  for (uintptr_t v : vars) EXPECT_EQ(sync_var(v, false), nullptr) << std::hex << v;
  for (uintptr_t v : outside) EXPECT_NE(sync_var(v, false), nullptr) << std::hex << v;
  for (uintptr_t a : with_history) EXPECT_EQ(find_history(find_shadow_page(a), a), nullptr) << std::hex << a;
  EXPECT_EQ(find_shadow_page(page(700))->block.load(), nullptr);
  EXPECT_EQ(find_shadow_page(page(701))->block.load(), nullptr);
  for (uintptr_t a : written) EXPECT_EQ(find_cell(a)->load(), 0u) << std::hex << a;

  delete_heap_block(cache, block);
}

}  // namespace
}  // namespace snag::race
