// The cover strategy's coverage points (coverage.h), as a schedule's child
// reports them: an ABA on a compare-exchange is a point of its own.
#include "engines/explore/coverage.h"

#include <gtest/gtest.h>

namespace snag::explore {

extern bool g_test_in_forked_child;

namespace {

constexpr snag_site_t kLoad = 0x1100, kCas = 0x1200, kOtherCas = 0x1300, kStore = 0x1400;
constexpr Tid kT1 = 1, kT2 = 2;

class CoverageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    results_map(false);
    g_test_in_forked_child = true;
    start_schedule();
  }
  void TearDown() override { g_test_in_forked_child = false; }
  void start_schedule() {
    results_reset();
    coverage_start_schedule_for_test();
    word_ = 0;
  }
  // The program's atomic operation: the word takes `value`, then the child
  // observes the operation.
  void atomic(snag_site_t site, Tid tid, uint64_t value, bool cas_succeeded) {
    word_ = value;
    coverage_atomic(reinterpret_cast<uintptr_t>(&word_), sizeof word_, site, tid, cas_succeeded);
  }
  // The program's atomic store: announced before it (no hook follows a
  // store), observed at the engine's next event.
  void store(Tid tid, uint64_t value) {
    coverage_atomic_store(reinterpret_cast<uintptr_t>(&word_), sizeof word_, kStore, tid);
    word_ = value;
  }
  // How many points of its schedule the operation reached first.
  uint32_t points_of_cas(Tid tid, uint64_t value) {
    uint32_t before = results().hit_coverage_count;
    atomic(kCas, tid, value, true);
    return results().hit_coverage_count - before;
  }

  uint64_t word_ = 0;
};

TEST_F(CoverageTest, ACompareExchangeOnAValueOthersChangedAndChangedBackIsAnAba) {
  // T1 reads 0 and swaps it for 5, nobody in between: the state point only.
  atomic(kLoad, kT1, 0, false);
  EXPECT_EQ(points_of_cas(kT1, 5), 1u);

  // T1 reads 0; T2 swaps 0 for 1 and back; T1's swap of 0 for 5 succeeds on
  // the value it read, at the same state as above, and is an ABA.
  start_schedule();
  atomic(kLoad, kT1, 0, false);
  atomic(kCas, kT2, 1, true);
  atomic(kCas, kT2, 0, true);
  EXPECT_EQ(points_of_cas(kT1, 5), 2u);
}

TEST_F(CoverageTest, ChangesOfTheThreadsOwnOrToAnotherValueAreNoAba) {
  // T1 changed the word itself in between: it saw every value.
  atomic(kLoad, kT1, 0, false);
  atomic(kCas, kT1, 1, true);
  atomic(kCas, kT1, 0, true);
  EXPECT_EQ(points_of_cas(kT1, 5), 1u);

  // T2 changed it to another value, which T1 read before its swap.
  start_schedule();
  atomic(kLoad, kT1, 0, false);
  atomic(kCas, kT2, 3, true);
  atomic(kLoad, kT1, 3, false);
  EXPECT_EQ(points_of_cas(kT1, 5), 1u);

  // A compare-exchange that failed stored nothing: no ABA either (at a site
  // of its own, whose state point is new in the schedule).
  start_schedule();
  atomic(kLoad, kT1, 0, false);
  atomic(kCas, kT2, 1, true);
  atomic(kCas, kT2, 0, true);
  uint32_t before = results().hit_coverage_count;
  atomic(kOtherCas, kT1, 0, false);
  EXPECT_EQ(results().hit_coverage_count - before, 1u);
}

// An atomic store is observed once it took effect: a point of its own, and
// a change of the location's value the state and the ABA point see.
TEST_F(CoverageTest, AnAtomicStoreIsObservedAtTheNextEvent) {
  store(kT2, 4);
  EXPECT_EQ(results().hit_coverage_count, 0u);  // not yet done when announced
  coverage_take_store();
  EXPECT_EQ(results().hit_coverage_count, 1u);
  coverage_take_store();  // observed once
  EXPECT_EQ(results().hit_coverage_count, 1u);

  // T1 reads 0; T2 stores 1, then 0; T1's swap of 0 succeeds on a value
  // others changed and changed back: an ABA.
  start_schedule();
  atomic(kLoad, kT1, 0, false);
  store(kT2, 1);
  store(kT2, 0);  // observes the store of 1 first
  coverage_take_store();
  EXPECT_EQ(points_of_cas(kT1, 5), 2u);
}

// Every point of a schedule is reported once, and the fork server counts
// the schedules that reached it.
TEST_F(CoverageTest, TheForkServerCountsTheSchedulesThatReachedEachPoint) {
  atomic(kLoad, kT1, 7, false);
  atomic(kLoad, kT1, 7, false);
  ASSERT_EQ(results().hit_coverage_count, 1u);
  uint16_t point = results().hit_coverage[0];
  uint32_t hits = coverage_hits(point);
  coverage_learn(results());
  EXPECT_EQ(coverage_hits(point), hits + 1);
  start_schedule();
  atomic(kLoad, kT1, 7, false);
  coverage_learn(results());
  EXPECT_EQ(coverage_hits(point), hits + 2);
}

}  // namespace
}  // namespace snag::explore
