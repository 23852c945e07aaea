#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "core/internal_alloc.h"

namespace snag {
namespace {

TEST(InternalAlloc, ZeroFilledAndReusable) {
  auto *p = static_cast<unsigned char *>(internal_alloc(100));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(p[i], 0);
  for (int i = 0; i < 100; ++i) p[i] = 0xab;
  internal_free(p);
  auto *q = static_cast<unsigned char *>(internal_alloc(100));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(q[i], 0) << "block handed out again must be zeroed";
  internal_free(q);
}

TEST(InternalAlloc, DistinctBlocksDoNotOverlap) {
  std::vector<char *> blocks;
  for (size_t size : {1, 15, 16, 17, 100, 4000, 70000, 1 << 20}) {
    char *p = static_cast<char *>(internal_alloc(size));
    p[0] = 1;
    p[size - 1] = 2;
    blocks.push_back(p);
  }
  std::set<char *> unique(blocks.begin(), blocks.end());
  EXPECT_EQ(unique.size(), blocks.size());
  for (char *p : blocks) internal_free(p);
}

TEST(InternalAlloc, ReallocKeepsContents) {
  auto *p = static_cast<char *>(internal_alloc(10));
  for (int i = 0; i < 10; ++i) p[i] = static_cast<char>(i);
  p = static_cast<char *>(internal_realloc(p, 100000));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(p[i], i);
  internal_free(p);
}

TEST(InternalAlloc, ConcurrentUse) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 10000; ++i) {
        auto *p = static_cast<int *>(internal_alloc(32 + (i % 7) * 8));
        *p = t;
        EXPECT_EQ(*p, t);
        internal_free(p);
      }
    });
  for (auto &th : threads) th.join();
}

}  // namespace
}  // namespace snag
