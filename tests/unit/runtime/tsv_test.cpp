// The tsv engine's parts that need no running program: the trap file's
// format, the trap set's states and delay chances, the per-object call
// table (conflicts caught red-handed, near misses), and call naming.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/api_calls.h"
#include "engines/tsv/call_names.h"
#include "engines/tsv/object_table.h"
#include "engines/tsv/trap_file.h"
#include "engines/tsv/trap_set.h"

namespace snag::tsv {
namespace {

struct Collected : TrapFileReader {
  std::vector<std::tuple<snag_site_t, snag_site_t, bool>> pairs;
  void pair(snag_site_t a, snag_site_t b, bool dangerous) override {
    pairs.emplace_back(a, b, dangerous);
  }
};

bool parse(const std::string &text, Collected &out, std::string *error = nullptr) {
  const char *message = nullptr;
  bool ok = parse_trap_file(text.data(), text.size(), out, &message);
  if (error) *error = message ? message : "";
  return ok;
}

TEST(TrapFile, ReadsPairsAndSkipsCommentsAndTheProgramLine) {
  Collected c;
  ASSERT_TRUE(parse("snag-tsv-traps 1\nprogram worker\n# learned\n\n"
                    "pair 00000000000000aa 00000000000000bb dangerous\n"
                    "pair 1111111111111111 2222222222222222 ordered\n",
                    c));
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_EQ(c.pairs[0], std::make_tuple(0xaaull, 0xbbull, true));
  EXPECT_EQ(c.pairs[1], std::make_tuple(0x1111111111111111ull, 0x2222222222222222ull, false));
}

TEST(TrapFile, RefusesMalformedInput) {
  for (const char *text : {"", "not a trap file\n", "snag-tsv-traps 2\n",
                           "snag-tsv-traps 1\npair 00000000000000aa dangerous\n",
                           "snag-tsv-traps 1\npair 00000000000000aa 00000000000000bb maybe\n",
                           "snag-tsv-traps 1\npair 00000000000000AA 00000000000000bb ordered\n",
                           "snag-tsv-traps 1\npair 0000000000000000 00000000000000bb ordered\n",
                           "snag-tsv-traps 1\npair 00000000000000aa 00000000000000bb ordered x\n"}) {
    Collected c;
    std::string error;
    EXPECT_FALSE(parse(text, c, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
    EXPECT_TRUE(c.pairs.empty()) << text;
  }
}

class TrapSetTest : public ::testing::Test {
 protected:
  void SetUp() override { reset_trap_set(); }
  void TearDown() override { reset_trap_set(); }
};

TEST_F(TrapSetTest, DangerousPairsAreDelayedUntilTheirDelaysKeepFailing) {
  EXPECT_EQ(delay_chance(0xa, 10), 0u);
  EXPECT_TRUE(add_dangerous_pair(0xa, 0xb));
  EXPECT_FALSE(add_dangerous_pair(0xb, 0xa));  // the same pair
  EXPECT_EQ(delay_chance(0xa, 10), 1000u);
  EXPECT_EQ(delay_chance(0xb, 10), 1000u);
  delay_failed(0xa);
  EXPECT_EQ(delay_chance(0xa, 10), 900u);
  for (int i = 0; i < 9; ++i) delay_failed(0xa);
  EXPECT_EQ(delay_chance(0xa, 10), 0u);
  // Retired for this run only: the next run tries the pair again.
  LastingPair pairs[4];
  ASSERT_EQ(copy_lasting_pairs(pairs, 4), 1u);
  EXPECT_TRUE(pairs[0].dangerous);
}

TEST_F(TrapSetTest, OrderedPairsAreNeverDangerousAgain) {
  add_dangerous_pair(0xa, 0xb);
  mark_ordered(0xb, 0xa);
  EXPECT_EQ(delay_chance(0xa, 10), 0u);
  EXPECT_FALSE(add_dangerous_pair(0xa, 0xb));
  mark_ordered(0xc, 0xd);  // learned before any near miss
  EXPECT_FALSE(add_dangerous_pair(0xd, 0xc));
  LastingPair pairs[4];
  ASSERT_EQ(copy_lasting_pairs(pairs, 4), 2u);
  EXPECT_FALSE(pairs[0].dangerous);
  EXPECT_FALSE(pairs[1].dangerous);
}

TEST_F(TrapSetTest, AFoundPairIsReportedOnceAndCarriedAsDangerous) {
  add_dangerous_pair(0xa, 0xb);
  add_dangerous_pair(0xa, 0xc);
  EXPECT_TRUE(mark_found(0xa, 0xb));
  EXPECT_FALSE(mark_found(0xb, 0xa));
  EXPECT_EQ(delay_chance(0xb, 10), 0u);     // its only pair is found
  EXPECT_EQ(delay_chance(0xa, 10), 1000u);  // still in {a, c}
  mark_ordered(0xa, 0xb);                   // a found pair stays found
  LastingPair pairs[4];
  ASSERT_EQ(copy_lasting_pairs(pairs, 4), 2u);
  EXPECT_TRUE(pairs[0].dangerous);
  EXPECT_TRUE(pairs[1].dangerous);
}

TEST_F(TrapSetTest, SameSiteInTwoThreadsIsOnePair) {
  EXPECT_TRUE(add_dangerous_pair(0xa, 0xa));
  EXPECT_EQ(delay_chance(0xa, 10), 1000u);
  mark_ordered(0xa, 0xa);
  EXPECT_EQ(delay_chance(0xa, 10), 0u);
}

Call call_by(Tid thread, snag_site_t site, bool write) {
  Call c;
  c.thread = thread;
  c.site = site;
  c.flags = write ? kApiWrite : 0;
  c.concurrent = true;
  return c;
}

TEST(ObjectTable, CatchesAConflictingCallInProgress) {
  ThreadState t1, t2;
  ShadowFrame frames[4] = {{0x100, 0}, {0x200, 0}};
  t1.shadow.frames = frames;
  t1.shadow.depth = 2;
  t1.tid = 1;
  t2.tid = 2;
  uintptr_t object = 0x7000;
  CallStart first, second, third;
  start_call(object, call_by(1, 0xa, true), t1, 2, 1000, 100, true, true, &first);
  ASSERT_GE(first.slot, 0);
  EXPECT_EQ(first.conflict_count, 0);
  set_delayed(object, first.slot, true);
  start_call(object, call_by(2, 0xb, false), t2, 0, 2000, 100, false, true, &second);
  ASSERT_EQ(second.conflict_count, 1);
  const Conflict &c = second.conflicts[0];
  EXPECT_EQ(c.other.thread, 1u);
  EXPECT_EQ(c.other.site, 0xaull);
  EXPECT_TRUE(c.other_delayed);
  // The other side's stack as it was: its call site, then its callers.
  ASSERT_EQ(c.other_stack.depth, 3u);
  EXPECT_EQ(c.other_stack.frames[0], 0xaull);
  EXPECT_EQ(c.other_stack.frames[1], 0x200ull);
  EXPECT_EQ(c.other_stack.frames[2], 0x100ull);
  EXPECT_TRUE(was_caught(object, first.slot));
  EXPECT_EQ(second.slot, -1);  // not registered: no end_call
  end_call(object, first.slot);
  // Nothing registered any more: no conflict.
  start_call(object, call_by(2, 0xc, true), t2, 0, 3000, 100, false, true, &third);
  EXPECT_EQ(third.conflict_count, 0);
}

TEST(ObjectTable, TwoReadsNeverConflictNorNearlyMiss) {
  ThreadState t1, t2;
  uintptr_t object = 0x8000;
  CallStart first, second;
  start_call(object, call_by(1, 0xa, false), t1, 0, 1000, 100, true, true, &first);
  start_call(object, call_by(2, 0xb, false), t2, 0, 1001, 100, true, true, &second);
  EXPECT_EQ(second.conflict_count, 0);
  EXPECT_EQ(second.near_miss_count, 0);
  end_call(object, first.slot);
  end_call(object, second.slot);
}

TEST(ObjectTable, NearMissesNeedTheWindowAndAConcurrentPhase) {
  ThreadState t1, t2, t3;
  uintptr_t object = 0x9000;
  CallStart a, b, c, d, e;
  Call first = call_by(1, 0xa, true);
  first.epoch = 7;
  start_call(object, first, t1, 0, 1000, 100, false, true, &a);
  start_call(object, call_by(2, 0xb, false), t2, 0, 1050, 100, false, true, &b);
  ASSERT_EQ(b.near_miss_count, 1);
  EXPECT_EQ(b.near_misses[0].site, 0xaull);
  EXPECT_EQ(b.near_misses[0].thread, 1u);
  EXPECT_EQ(b.near_misses[0].epoch, 7u);
  start_call(object, call_by(2, 0xc, false), t2, 0, 1200, 100, false, true, &c);  // too late
  EXPECT_EQ(c.near_miss_count, 0);
  start_call(object, call_by(2, 0xe, true), t2, 0, 1300, 100, false, true, &d);
  Call lonely = call_by(3, 0xf, true);
  lonely.concurrent = false;
  // 0xe (concurrent) is recent: a near miss even though this call was not.
  start_call(object, lonely, t3, 0, 1310, 100, false, true, &e);
  ASSERT_EQ(e.near_miss_count, 1);
  EXPECT_EQ(e.near_misses[0].site, 0xeull);
}

TEST(ObjectTable, AThreadKeepsItsLatestReadAndItsLatestWrite) {
  ThreadState t1, t2;
  uintptr_t object = 0xa000;
  CallStart a, b, c;
  start_call(object, call_by(1, 0xa, true), t1, 0, 1000, 100, false, true, &a);
  start_call(object, call_by(1, 0xb, false), t1, 0, 1001, 100, false, true, &b);
  // Another reader: only the write conflicts with it.
  start_call(object, call_by(2, 0xc, false), t2, 0, 1002, 100, false, true, &c);
  ASSERT_EQ(c.near_miss_count, 1);
  EXPECT_EQ(c.near_misses[0].site, 0xaull);
}

TEST(CallNames, SplitsAPrettyFunctionIntoClassAndMember) {
  CallName name;
  ASSERT_TRUE(split_annotated_name("void Cache::put(int, int)", &name));
  EXPECT_STREQ(name.object, "Cache");
  EXPECT_STREQ(name.operation, "put");
  ASSERT_TRUE(split_annotated_name("int myapp::Box<std::pair<int, int> >::get() const", &name));
  EXPECT_STREQ(name.object, "myapp::Box<std::pair<int, int> >");
  EXPECT_STREQ(name.operation, "get");
  ASSERT_TRUE(split_annotated_name("void free_function(int)", &name));
  EXPECT_STREQ(name.operation, "free_function");
  EXPECT_FALSE(split_annotated_name("struct symtab", &name));
}

TEST(CallNames, NamesLibcCallsFromTheirDescription) {
  static const LibcCall strtok_call = {"libc strtok state", "strtok", 1};
  Call c = call_by(1, 0xa, true);
  c.flags |= kApiLibc;
  c.description = reinterpret_cast<uintptr_t>(&strtok_call);
  CallName name;
  name_call(c, &name);
  EXPECT_STREQ(name.object, "libc strtok state");
  EXPECT_STREQ(name.operation, "strtok");
}

}  // namespace
}  // namespace snag::tsv
