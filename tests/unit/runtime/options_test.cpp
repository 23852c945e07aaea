#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/options.h"

namespace snag {
namespace {

TEST(Options, ParsesColonAndSpaceSeparatedPairs) {
  Options o;
  o.parse("engine=race:seed=42 findings=/tmp/f.jsonl");
  EXPECT_STREQ(o.text("engine"), "race");
  EXPECT_EQ(o.number("seed"), 42u);
  EXPECT_STREQ(o.text("findings"), "/tmp/f.jsonl");
  EXPECT_FALSE(o.has("suppressions"));
  EXPECT_EQ(o.text("suppressions"), nullptr);
}

TEST(Options, DefaultsComeFromTheTable) {
  Options o;
  o.parse("");
  EXPECT_FALSE(o.has("exitcode"));
  EXPECT_EQ(o.number("exitcode"), 66u);
  EXPECT_STREQ(o.text("format"), "text");
  EXPECT_EQ(o.number("delay_ms"), 100u);
  EXPECT_TRUE(o.flag("record_accesses"));
  EXPECT_EQ(o.seconds_ns("schedule_timeout"), 10'000'000'000u);
}

TEST(Options, LastValueWins) {
  Options o;
  o.parse("engine=tsv:engine=race");
  EXPECT_STREQ(o.text("engine"), "race");
}

TEST(Options, NumbersFlagsAndSeconds) {
  Options o;
  o.parse("seed=0x10:halt_on_error=yes:verbosity=false:time_limit=2.5");
  EXPECT_EQ(o.number("seed"), 16u);
  EXPECT_TRUE(o.flag("halt_on_error"));
  EXPECT_FALSE(o.flag("verbosity"));
  EXPECT_EQ(o.seconds_ns("time_limit"), 2'500'000'000u);
}

// Each bad value is refused, so the default applies (issue 13:
// exitcode=999 used to exit with 231).
TEST(Options, RefusesValuesTheTableDoesNotAllow) {
  Options o;
  o.parse("exitcode=999:delay_ms=abc:format=xml:halt_on_error=maybe:time_limit=soon:seed=99999999999999999999");
  EXPECT_FALSE(o.has("exitcode"));
  EXPECT_EQ(o.number("exitcode"), 66u);
  EXPECT_EQ(o.number("delay_ms"), 100u);
  EXPECT_STREQ(o.text("format"), "text");
  EXPECT_FALSE(o.flag("halt_on_error"));
  EXPECT_EQ(o.seconds_ns("time_limit"), 0u);
  EXPECT_FALSE(o.has("seed"));
}

TEST(Options, IgnoresUnknownKeysAndPairsWithoutValue) {
  Options o;
  o.parse("broken:no_such_key=1:engine=record");
  EXPECT_STREQ(o.text("engine"), "record");
  EXPECT_FALSE(o.has("exitcode"));
}

TEST(Options, EmptyAndNull) {
  Options o;
  o.parse(nullptr);
  EXPECT_FALSE(o.has("engine"));
  o.parse("");
  EXPECT_FALSE(o.has("engine"));
}

TEST(OptionTable, EveryRowIsWellFormed) {
  std::set<std::string> names;
  for (const OptionSpec &spec : kOptionSpecs) {
    SCOPED_TRACE(spec.name);
    EXPECT_TRUE(names.insert(spec.name).second) << "listed twice";
    EXPECT_NE(spec.help, nullptr);
    EXPECT_EQ(spec.type == OptionType::kChoice, spec.choices != nullptr);
    if (spec.default_text) EXPECT_EQ(option_value_problem(spec, spec.default_text), nullptr);
    if (spec.type == OptionType::kCount) EXPECT_LE(spec.min, spec.max);
  }
}

}  // namespace
}  // namespace snag
