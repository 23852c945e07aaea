#include <gtest/gtest.h>

#include "core/options.h"

namespace snag {
namespace {

TEST(Options, ParsesColonAndSpaceSeparatedPairs) {
  Options o;
  o.parse("engine=race:seed=42 findings=/tmp/f.jsonl");
  EXPECT_STREQ(o.get("engine"), "race");
  EXPECT_EQ(o.get_u64("seed", 0), 42u);
  EXPECT_STREQ(o.get("findings"), "/tmp/f.jsonl");
  EXPECT_EQ(o.get("missing"), nullptr);
  EXPECT_STREQ(o.get("missing", "fallback"), "fallback");
}

TEST(Options, LastValueWins) {
  Options o;
  o.parse("engine=tsv:engine=race");
  EXPECT_STREQ(o.get("engine"), "race");
}

TEST(Options, NumbersAndBooleans) {
  Options o;
  o.parse("a=0x10:b=notanumber:c=1:d=false:e=yes");
  EXPECT_EQ(o.get_u64("a", 0), 16u);
  EXPECT_EQ(o.get_u64("b", 7), 7u);  // malformed: fallback
  EXPECT_TRUE(o.get_bool("c", false));
  EXPECT_FALSE(o.get_bool("d", true));
  EXPECT_TRUE(o.get_bool("e", false));
  EXPECT_TRUE(o.get_bool("absent", true));
}

TEST(Options, SkipsPairsWithoutValue) {
  Options o;
  o.parse("broken:engine=record");
  EXPECT_EQ(o.get("broken"), nullptr);
  EXPECT_STREQ(o.get("engine"), "record");
}

TEST(Options, EmptyAndNull) {
  Options o;
  o.parse(nullptr);
  EXPECT_FALSE(o.has("engine"));
  o.parse("");
  EXPECT_FALSE(o.has("engine"));
}

}  // namespace
}  // namespace snag
