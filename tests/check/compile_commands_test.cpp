// Tests of the compile_commands.json reader behind `snag check -p`.
#include "compile_commands.h"

#include <gtest/gtest.h>

using namespace snag::cli;
using Words = std::vector<std::string>;

TEST(SplitShellWords, QuotesAndBackslashes) {
  EXPECT_EQ(split_shell_words("c++  -DA=1\t-I'my dir' \"-DS=\\\"x y\\\"\" a\\ b.cc"),
            (Words{"c++", "-DA=1", "-Imy dir", "-DS=\"x y\"", "a b.cc"}));
  EXPECT_EQ(split_shell_words(""), Words{});
  EXPECT_EQ(split_shell_words("''"), Words{""});
  EXPECT_FALSE(split_shell_words("c++ 'unterminated"));
  EXPECT_FALSE(split_shell_words("c++ \"unterminated"));
}

TEST(MeaningfulFlags, DropsOutputsDependenciesSanitizersAndTheSource) {
  Words args = {"-DNDEBUG", "-Iinc", "-std=c++20", "-fsanitize=thread", "-MD", "-MT", "a.o",
                "-MF", "a.d", "-o", "out/a.o", "-c", "../src/a.cc", "-fsnag-instrument=api",
                "-Werror", "-pthread"};
  EXPECT_EQ(meaningful_flags(args, "../src/a.cc"), (Words{"-DNDEBUG", "-Iinc", "-std=c++20", "-pthread"}));
  EXPECT_EQ(meaningful_flags({"-oout.o", "-O2", "/abs/src/a.cc"}, "/abs/src/a.cc"), Words{"-O2"});
  EXPECT_EQ(meaningful_flags({"-fsyntax-only", "-S", "-E", "-DA", "a.cc"}, "a.cc"), Words{"-DA"});
}

TEST(MeaningfulFlags, DropsPrecompiledHeadersButKeepsTheirInclude) {
  Words cmake_pch = {"-Xclang", "-include-pch", "-Xclang", "/b/cmake_pch.hxx.pch",
                     "-Xclang", "-include", "-Xclang", "/b/cmake_pch.hxx", "-DA"};
  EXPECT_EQ(meaningful_flags(cmake_pch, "a.cc"),
            (Words{"-Xclang", "-include", "-Xclang", "/b/cmake_pch.hxx", "-DA"}));
  EXPECT_EQ(meaningful_flags({"-include-pch", "x.pch", "-DA"}, "a.cc"), Words{"-DA"});
}

TEST(TargetOfOutput, CMakeAndMeson) {
  EXPECT_EQ(target_of_output("CMakeFiles/pool.dir/src/pool.cpp.o"), "pool");
  EXPECT_EQ(target_of_output("/b/tests/CMakeFiles/pool_test.dir/t.cc.o"), "pool_test");
  EXPECT_EQ(target_of_output("libqueue.a.p/src_queue.cpp.o"), "libqueue.a");
  EXPECT_EQ(target_of_output("a.o"), "");
  EXPECT_EQ(target_of_output(""), "");
  EXPECT_EQ(target_of_output("/dev/null"), "");
  // g++ a.cc b.cc -o unittests: both sources belong to the program.
  EXPECT_EQ(target_of_output("unittests"), "unittests");
}

TEST(ParseCompileCommands, CommandAndArgumentsForms) {
  std::vector<CompileCommand> commands = parse_compile_commands(R"([
    {"directory": "/b", "command": "/usr/bin/c++ -DX -o CMakeFiles/app.dir/main.cc.o -c /s/main.cc", "file": "/s/main.cc"},
    {"directory": "/b", "arguments": ["gcc", "-std=c11", "-c", "util.c", "-o", "util.o"], "file": "util.c",
     "output": "CMakeFiles/app.dir/util.c.o"}
  ])", "db");
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0].file, "/s/main.cc");
  EXPECT_EQ(commands[0].flags, Words{"-DX"});
  EXPECT_EQ(commands[0].target, "app");
  EXPECT_EQ(commands[1].file, "/b/util.c");
  EXPECT_EQ(commands[1].flags, Words{"-std=c11"});
  EXPECT_EQ(commands[1].target, "app");
  EXPECT_EQ(commands[1].directory, "/b");
}

TEST(ParseCompileCommands, NoTargetWhenTheOutputDoesNotTell) {
  std::vector<CompileCommand> commands =
      parse_compile_commands(R"([{"directory": "/b", "command": "cc -c a.c", "file": "a.c"}])", "db");
  ASSERT_EQ(commands.size(), 1u);
  EXPECT_EQ(commands[0].target, "");
}

// Each bad database gives one line naming the entry and what is wrong.
TEST(ParseCompileCommands, BadDatabasesAreOneLineErrors) {
  auto error_of = [](const char *text) -> std::string {
    try {
      parse_compile_commands(text, "db");
    } catch (const CompileDatabaseError &e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of("not json"), "db is not valid JSON");
  EXPECT_EQ(error_of("{}"), "db is not a JSON array of compile commands");
  EXPECT_EQ(error_of("[1]"), "db: entry 1 is not an object");
  EXPECT_EQ(error_of(R"([{"file": "a.c", "command": "cc a.c"}])"), "db: entry 1: missing \"directory\"");
  EXPECT_EQ(error_of(R"([{"directory": "/", "file": 3, "command": "cc a.c"}])"),
            "db: entry 1: \"file\" is not a string");
  EXPECT_EQ(error_of(R"([{"directory": "/", "file": "a.c"}])"),
            "db: entry 1: neither \"arguments\" nor \"command\"");
  EXPECT_EQ(error_of(R"([{"directory": "/", "file": "a.c", "command": "cc 'a.c"}])"),
            "db: entry 1: \"command\" has an unterminated quote");
  EXPECT_EQ(error_of(R"([{"directory": "/", "file": "a.c", "arguments": []}])"),
            "db: entry 1: the command is empty");
  EXPECT_EQ(error_of(R"([{"directory": "/", "file": "a.c", "arguments": ["cc", 1]}])"),
            "db: entry 1: \"arguments\" holds a non-string");
}

TEST(ReadCompileCommands, MissingDatabaseSaysHowToMakeOne) {
  try {
    read_compile_commands("/no/such/build");
    FAIL() << "no error";
  } catch (const CompileDatabaseError &e) {
    EXPECT_EQ(std::string(e.what()),
              "no /no/such/build/compile_commands.json (configure the build with "
              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or run it under bear)");
  }
}
