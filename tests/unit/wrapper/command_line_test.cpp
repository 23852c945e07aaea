#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "command_line.h"

namespace snag::wrapper {
namespace {

CommandLine parse(std::vector<std::string> args) { return parse_command_line(args); }

TEST(CommandLine, CompileOnlyDoesNotLink) {
  EXPECT_FALSE(parse({"-c", "a.c", "-o", "a.o"}).links);
  EXPECT_FALSE(parse({"-S", "a.c"}).links);
  EXPECT_FALSE(parse({"-E", "a.c"}).links);
  EXPECT_FALSE(parse({"-fsyntax-only", "a.c"}).links);
  EXPECT_FALSE(parse({"-MM", "a.c"}).links);
}

TEST(CommandLine, LinkSteps) {
  CommandLine exe = parse({"a.o", "b.o", "-o", "app", "-lfoo"});
  EXPECT_TRUE(exe.links);
  EXPECT_FALSE(exe.shared);
  CommandLine lib = parse({"-shared", "a.o", "-o", "libx.so"});
  EXPECT_TRUE(lib.links);
  EXPECT_TRUE(lib.shared);
  EXPECT_TRUE(parse({"-static", "a.o"}).is_static);
}

TEST(CommandLine, OptionValuesAreNotInputs) {
  // "-o out" and "-I dir" must not count as input files.
  EXPECT_FALSE(parse({"-o", "out", "-I", "dir"}).has_inputs);
  EXPECT_FALSE(parse({"-o", "out"}).links);
}

TEST(CommandLine, InfoCommands) {
  EXPECT_TRUE(parse({"--version"}).info_only);
  EXPECT_TRUE(parse({"-print-search-dirs"}).info_only);
  EXPECT_TRUE(parse({"-###", "a.c"}).info_only);
}

TEST(CommandLine, WrapperOptionsAreConsumed) {
  CommandLine cl = parse({"-fsnag-instrument=memory,api", "-fsnag-api-table=my.txt",
                          "-fsnag-verbose", "-O2", "a.cc"});
  EXPECT_EQ(cl.instrument, "memory,api");
  ASSERT_EQ(cl.api_tables.size(), 1u);
  EXPECT_EQ(cl.api_tables[0], "my.txt");
  EXPECT_TRUE(cl.verbose);
  EXPECT_EQ(cl.clang_args, (std::vector<std::string>{"-O2", "a.cc"}));
}

TEST(CommandLine, UnknownWrapperOptionIsAnError) {
  EXPECT_THROW(parse({"-fsnag-bogus", "a.c"}), std::runtime_error);
  EXPECT_THROW(parse({"-fsnag-instrument=", "a.c"}), std::runtime_error);
}

TEST(CommandLine, DebugFlagNoticed) {
  EXPECT_TRUE(parse({"-g0", "a.c"}).has_debug_flag);
  EXPECT_FALSE(parse({"a.c"}).has_debug_flag);
}

TEST(ResponseFiles, SplitsLikeClang) {
  auto words = split_response_file("-c  'a b.c'\n-o \"out dir/x.o\" plain\\ space");
  EXPECT_EQ(words, (std::vector<std::string>{"-c", "a b.c", "-o", "out dir/x.o", "plain space"}));
}

TEST(ResponseFiles, ReadForClassification) {
  std::string path = ::testing::TempDir() + "snag_args.rsp";
  std::ofstream(path) << "-c a.c -o a.o\n";
  CommandLine cl = parse({"@" + path});
  EXPECT_FALSE(cl.links);
  EXPECT_EQ(cl.clang_args, (std::vector<std::string>{"@" + path}));  // passed as is
  std::remove(path.c_str());
  EXPECT_THROW(parse({"@/nonexistent/args.rsp"}), std::runtime_error);
}

}  // namespace
}  // namespace snag::wrapper
