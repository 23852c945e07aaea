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

// Records of a few hundred bytes take a block within 16 bytes of their size
// (header included), not the next power of two: a freed block of one size
// is handed out again for a size 16 bytes larger only when both fit the
// same class. 168 + 16 header = 184 -> the 192-byte class, which a 176-byte
// request shares and a 177-byte one does not.
TEST(InternalAlloc, RecordSizesRoundToSixteenBytesNotPowersOfTwo) {
  void *a = internal_alloc(168);
  internal_free(a);
  void *b = internal_alloc(176);
  EXPECT_EQ(a, b) << "168 and 176 bytes share the 192-byte class";
  internal_free(b);
  void *c = internal_alloc(177);
  EXPECT_NE(c, b) << "177 bytes (193 with the header) is the next class up";
  internal_free(c);
  // Above 256 bytes classes are a quarter of a power of two apart: 300 + 16
  // fits 320, 4096 + 16 fits 5120 (not 8192).
  void *d = internal_alloc(300);
  internal_free(d);
  EXPECT_EQ(internal_alloc(304), d);
  internal_free(d);
  void *e = internal_alloc(4096);
  internal_free(e);
  EXPECT_EQ(internal_alloc(5104), e);
  internal_free(e);
  EXPECT_NE(internal_alloc(5105), e);
}

TEST(InternalAlloc, EveryClassSizeIsUsableToItsEnd) {
  // Each size up to 64 KiB gets a block it can fill, 16-byte aligned, not
  // overlapping the next block of its class.
  for (size_t size = 1; size <= 65536 - 16; size += size < 512 ? 1 : 61) {
    auto *p = static_cast<unsigned char *>(internal_alloc(size));
    auto *q = static_cast<unsigned char *>(internal_alloc(size));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u) << size;
    p[size - 1] = 0x5a;
    q[0] = 0xa5;
    ASSERT_EQ(p[size - 1], 0x5a) << size;
    ASSERT_TRUE(q + size <= p || p + size <= q) << size;
    internal_free(p);
    internal_free(q);
  }
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
