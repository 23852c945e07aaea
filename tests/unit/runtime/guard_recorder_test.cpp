// The guard engine's parts (docs/guard.md, "How it works"): the recorder's
// remote predecessors follow paper 003's definition (its Fig. 4 worked
// through), evicted history reads as unknown rather than nil, and the
// (site, value) table finds what it holds, refuses nothing it holds twice,
// and drops inserts when full instead of failing.
#include <gtest/gtest.h>

#include "engines/guard/recorder.h"
#include "engines/guard/site_pairs.h"

namespace snag::guard {
namespace {

class Recorder : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!g_slots) recorder_init();
  }

  // One access of `thread` at `site`; returns its remote predecessor.
  static snag_site_t access(uintptr_t addr, uint32_t thread, snag_site_t site) {
    uintptr_t granule = granule_of(addr);
    Slot &s = lock_slot(granule);
    Accessor remote = remote_predecessor(s, thread);
    Accessor me;
    me.site = site;
    me.thread = thread;
    record_access(s, me);
    unlock_slot(s, granule);
    return remote.site;
  }
};

// Paper 003, Fig. 4: S1 (thread 1), S2 (thread 2), S3 (thread 1), S2
// (thread 2), all on X. RPre: nil, S1, S2, S3.
TEST_F(Recorder, RemotePredecessorsOfFigure4) {
  alignas(8) static long x;
  uintptr_t a = reinterpret_cast<uintptr_t>(&x);
  EXPECT_EQ(access(a, 1, 0x51), 0u);
  EXPECT_EQ(access(a, 2, 0x52), 0x51u);
  EXPECT_EQ(access(a, 1, 0x53), 0x52u);
  EXPECT_EQ(access(a, 2, 0x52), 0x53u);
}

// Fig. 3: a local access between does not hide the remote one.
TEST_F(Recorder, LocalAccessesDoNotHideTheRemoteOne) {
  alignas(8) static long y;
  uintptr_t a = reinterpret_cast<uintptr_t>(&y);
  access(a, 2, 0x62);               // I2 by thread 2
  EXPECT_EQ(access(a, 1, 0x64), 0x62u);  // I4 by thread 1
  EXPECT_EQ(access(a, 1, 0x66), 0x62u);  // I6 by thread 1: still S2
}

TEST_F(Recorder, SameThreadOnlyIsNilAndTheFastPathSeesRepeats) {
  alignas(8) static long z;
  uintptr_t a = reinterpret_cast<uintptr_t>(&z);
  EXPECT_EQ(access(a, 3, 0x71), 0u);
  EXPECT_EQ(access(a, 3, 0x72), 0u);
  uintptr_t granule = granule_of(a);
  EXPECT_TRUE(unchanged(slot_of(granule), granule, 3, 0x72));
  EXPECT_FALSE(unchanged(slot_of(granule), granule, 3, 0x71));
  EXPECT_FALSE(unchanged(slot_of(granule), granule, 4, 0x72));
}

TEST_F(Recorder, NeighbouringGranulesGetNeighbouringSlots) {
  alignas(64) static long row[8];
  uintptr_t a = reinterpret_cast<uintptr_t>(&row[0]);
  EXPECT_EQ(&slot_of(granule_of(a + 8)), &slot_of(granule_of(a)) + 1);
}

// A granule 32 MiB away shares the slot (4M slots of 8 bytes): taking it
// over forgets the first granule, whose predecessor is then unknown, not nil.
TEST_F(Recorder, EvictedHistoryIsUnknownUntilAnotherThreadComes) {
  alignas(8) static long w;
  uintptr_t a = reinterpret_cast<uintptr_t>(&w);
  uintptr_t alias = 0;
  for (uintptr_t candidate = a + (uintptr_t{8} << kRecorderLog2Slots);; candidate += 8) {
    if (&slot_of(granule_of(candidate)) == &slot_of(granule_of(a))) {
      alias = candidate;
      break;
    }
  }
  access(a, 1, 0x81);
  access(alias, 1, 0x82);  // takes the slot over
  EXPECT_EQ(access(a, 2, 0x83), kUnknownSite);
  EXPECT_EQ(access(a, 2, 0x84), kUnknownSite);  // still only one thread since
  EXPECT_EQ(access(a, 1, 0x85), 0x84u);          // a second thread: known again
}

TEST(SitePairs, FindsInsertsOnceAndKeepsExtra) {
  SitePairs pairs;
  pairs.init(6);
  EXPECT_FALSE(pairs.contains(1, 2));
  bool added = false;
  SitePairs::Entry *e = pairs.insert(1, 2, &added);
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(added);
  e->extra.store(7);
  EXPECT_EQ(pairs.insert(1, 2, &added), e);
  EXPECT_FALSE(added);
  EXPECT_EQ(pairs.find(1, 2)->extra.load(), 7u);
  EXPECT_FALSE(pairs.contains(2, 1));
  EXPECT_TRUE(pairs.insert(1, kFactSummary) != nullptr);
  EXPECT_EQ(pairs.size(), 2u);
}

TEST(SitePairs, DropsInsertsWhenFull) {
  SitePairs pairs;
  pairs.init(4);  // 16 entries, of which three quarters are used
  int stored = 0;
  for (snag_site_t site = 1; site <= 20; ++site) stored += pairs.insert(site, 0) != nullptr;
  EXPECT_LT(stored, 16);
  EXPECT_GT(pairs.dropped(), 0u);
  for (snag_site_t site = 1; site <= 20; ++site)
    if (site <= static_cast<snag_site_t>(stored)) EXPECT_TRUE(pairs.contains(site, 0)) << site;
}

}  // namespace
}  // namespace snag::guard
