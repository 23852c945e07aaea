// Tests of the `snag check` command around the interpreter, with a stand-in
// interpreter (fake_checker.cpp): what gets compiled and linked together,
// the exit status, the report, the cache and compile_commands.json.
#include "check_command.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "diagnostics.h"
#include "isolated_check.h"

namespace fs = std::filesystem;
using namespace snag;
using cli::Options;

namespace {

class CheckCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("snag-check-command-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    options_.format = "json";
    options_.output = (dir_ / "report.json").string();
    options_.cache_dir = (dir_ / "cache").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &text) {
    fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  nlohmann::json report() {
    std::ifstream in(options_.output);
    return nlohmann::json::parse(in);
  }

  fs::path dir_;
  Options options_;
};

const char *kWorker = "int counter;\nvoid worker() {\n  counter = 1;\n}\n";
const char *kMain = "extern int counter;\nvoid worker();\nint main() {\n  worker();\n  counter = 2;\n}\n";
const char *kRacyProgram =
    "int counter;\nvoid worker() {\n  counter = 1;\n}\nint main() {\n  worker();\n  counter = 2;\n}\n";

}  // namespace

TEST_F(CheckCommandTest, FindingGivesExitcodeAndAJsonReport) {
  options_.check_files = {write("racy.cc", kRacyProgram)};
  EXPECT_EQ(cli::run_check(options_), 66);
  nlohmann::json r = report();
  ASSERT_EQ(r["findings"].size(), 1u);
  const nlohmann::json &f = r["findings"][0];
  EXPECT_EQ(f["engine"], "check");
  EXPECT_EQ(f["kind"], "data-race");
  EXPECT_EQ(f["sides"][0]["stack"][0]["line"], 3);
  EXPECT_EQ(f["sides"][1]["stack"][0]["line"], 7);
  EXPECT_EQ(r["run"]["engine"], "check");
  EXPECT_EQ(r["run"]["check"]["translation_units"], 1);
}

TEST_F(CheckCommandTest, CleanProgramExitsZero) {
  options_.check_files = {write("clean.cc", "int main() { return 0; }\n")};
  EXPECT_EQ(cli::run_check(options_), 0);
  EXPECT_TRUE(report()["findings"].empty());
}

TEST_F(CheckCommandTest, FileThatDoesNotCompileExitsTwo) {
  options_.check_files = {write("broken.cc", "int main() { return undeclared; }\n")};
  EXPECT_EQ(cli::run_check(options_), 2);
  EXPECT_TRUE(report()["run"]["check"]["targets"][0]["entries"].empty());
}

TEST_F(CheckCommandTest, MissingFileIsAUsageError) {
  options_.check_files = {(dir_ / "nothing.cc").string()};
  EXPECT_THROW(cli::run_check(options_), cli::UsageError);
}

TEST_F(CheckCommandTest, NamedFilesAreLinkedIntoOneProgram) {
  options_.check_files = {write("worker.cc", kWorker), write("main.cc", kMain)};
  EXPECT_EQ(cli::run_check(options_), 66);
  EXPECT_EQ(report()["run"]["check"]["targets"][0]["entries"].size(), 1u);  // one module
  nlohmann::json f = report()["findings"][0];
  std::set<std::string> files = {f["sides"][0]["stack"][0]["file"], f["sides"][1]["stack"][0]["file"]};
  EXPECT_EQ(files.size(), 2u);  // one side in each file
}

TEST_F(CheckCommandTest, ConflictingFilesAreCheckedOneByOne) {
  options_.check_files = {write("a.cc", "int main() { return 1; }\n"), write("b.cc", "int main() { return 2; }\n")};
  EXPECT_EQ(cli::run_check(options_), 0);
  EXPECT_EQ(report()["run"]["check"]["targets"][0]["entries"].size(), 2u);  // two modules
  EXPECT_NE(report()["run"]["notes"][0].get<std::string>().find("checking its translation units one by one"),
            std::string::npos);
}

TEST_F(CheckCommandTest, SecondRunTakesTheBitcodeFromTheCache) {
  options_.check_files = {write("racy.cc", kRacyProgram)};
  cli::run_check(options_);
  EXPECT_EQ(report()["run"]["check"]["compiled"], 1);
  EXPECT_EQ(cli::run_check(options_), 66);
  EXPECT_EQ(report()["run"]["check"]["compiled"], 0);
  EXPECT_EQ(report()["run"]["check"]["from_cache"], 1);
  options_.no_cache = true;
  cli::run_check(options_);
  EXPECT_EQ(report()["run"]["check"]["compiled"], 1);
}

TEST_F(CheckCommandTest, SeedAndStepBudgetReachTheInterpreter) {
  options_.check_files = {write("clean.cc", "int main() { return 0; }\n")};
  options_.seed = 99;
  options_.check_max_steps = 500;
  cli::run_check(options_);
  EXPECT_EQ(report()["run"]["check"]["targets"][0]["entries"][0],
            "main seed=99 max_steps_total=500 max_steps_per_run=500");
  options_.seed.reset();
  options_.check_max_steps = 10'000'000;
  cli::run_check(options_);
  EXPECT_EQ(report()["run"]["check"]["targets"][0]["entries"][0],
            "main seed=4711 max_steps_total=10000000 max_steps_per_run=1000000");
}

// Whatever the interpreter meets, snag check survives it: a crash costs that
// target's findings and one note; the other targets are still reported.
TEST_F(CheckCommandTest, InterpreterCrashIsANoteNotACrash) {
  std::string crashing = write("crash.cc", "void crash_the_interpreter() {}\nint main() { crash_the_interpreter(); }\n");
  std::string racy = write("racy.cc", kRacyProgram);
  fs::create_directories(dir_ / "build");
  nlohmann::json db = nlohmann::json::array();
  for (const std::string &f : {crashing, racy})
    db.push_back({{"directory", dir_.string()}, {"arguments", {"c++", "-c", f}}, {"file", f}});
  std::ofstream(dir_ / "build" / "compile_commands.json") << db.dump();
  options_.build_dir = (dir_ / "build").string();
  EXPECT_EQ(cli::run_check(options_), 66);
  nlohmann::json r = report();
  EXPECT_EQ(r["findings"].size(), 1u);
  ASSERT_EQ(r["run"]["notes"].size(), 1u);
  EXPECT_NE(r["run"]["notes"][0].get<std::string>().find("crash.cc: the interpreter crashed (signal 11"),
            std::string::npos)
      << r["run"]["notes"][0];
}

TEST(IsolatedCheck, ResultSurvivesTheTripThroughJson) {
  interp::CheckResult result;
  result.findings.push_back({interp::CheckFinding::Kind::kDeadlock, "", "main",
                             {{{"a.cc", 1, 2}, "main thread", false, "f()"},
                              {{"a.cc", 3, 4}, "thread T1 started at a.cc:9", true, "g()"}},
                             "potential deadlock"});
  result.notes.push_back({{"a.cc", 5, 6}, "inline assembly is not interpreted"});
  result.steps = 123;
  result.runs = 4;
  result.entries = {"main"};
  interp::CheckResult back = cli::check_result_from_json(cli::check_result_to_json(result));
  EXPECT_EQ(cli::check_result_to_json(back), cli::check_result_to_json(result));
  EXPECT_EQ(back.findings[0].sides[1].site, (interp::SourceSite{"a.cc", 3, 4}));
  EXPECT_TRUE(back.findings[0].sides[1].is_write);
}

TEST_F(CheckCommandTest, CompileCommandsGroupTranslationUnitsByTarget) {
  std::string worker = write("src/worker.cc", kWorker);
  std::string main = write("src/main.cc", kMain);
  std::string alone = write("src/alone.cc", "int main() { return 0; }\n");
  fs::create_directories(dir_ / "build");
  nlohmann::json db = nlohmann::json::array();
  auto entry = [&](const std::string &file, const std::string &output) {
    db.push_back({{"directory", (dir_ / "build").string()},
                  {"command", "/usr/bin/c++ -DX=1 -fsanitize=thread -o " + output + " -c " + file},
                  {"file", file}});
  };
  entry(worker, "CMakeFiles/app.dir/src/worker.cc.o");
  entry(main, "CMakeFiles/app.dir/src/main.cc.o");
  entry(alone, "alone.o");
  entry(write("src/start.S", ".text\n"), "CMakeFiles/app.dir/src/start.S.o");
  std::ofstream(dir_ / "build" / "compile_commands.json") << db.dump();
  options_.build_dir = (dir_ / "build").string();

  std::vector<std::string> notes;
  std::vector<cli::CheckTarget> plan = cli::plan_check(options_, &notes);
  ASSERT_EQ(plan.size(), 2u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("1 source not in C or C++ left out, such as " + (dir_ / "src/start.S").string()),
            std::string::npos) << notes[0];
  EXPECT_EQ(plan[0].name, "app");
  ASSERT_EQ(plan[0].units.size(), 2u);
  EXPECT_EQ(plan[0].units[0].flags, std::vector<std::string>{"-DX=1"});
  // Flags after "--" come after each TU's own.
  options_.compiler_flags = {"-DEXTRA"};
  EXPECT_EQ(cli::plan_check(options_)[0].units[1].flags, (std::vector<std::string>{"-DX=1", "-DEXTRA"}));
  options_.compiler_flags.clear();
  EXPECT_EQ(plan[1].name, alone);

  EXPECT_EQ(cli::run_check(options_), 66);
  EXPECT_EQ(report()["run"]["check"]["targets"].size(), 2u);

  // Only the listed TUs; a file the database does not know is refused.
  options_.check_files = {alone};
  ASSERT_EQ(cli::plan_check(options_).size(), 1u);
  options_.check_files = {write("src/other.cc", "")};
  try {
    cli::plan_check(options_);
    FAIL() << "no error";
  } catch (const cli::UsageError &e) {
    EXPECT_NE(std::string(e.what()).find("other.cc is not in the compilation database"), std::string::npos);
  }
}

TEST_F(CheckCommandTest, JobsDoNotChangeTheReport) {
  std::string one = write("one.cc", kRacyProgram);
  std::string two = write("two.cc", "int main() { return 0; }\n");
  fs::create_directories(dir_ / "build");
  nlohmann::json db = nlohmann::json::array();
  for (const std::string &f : {one, two})
    db.push_back({{"directory", dir_.string()}, {"arguments", {"c++", "-c", f}}, {"file", f}});
  std::ofstream(dir_ / "build" / "compile_commands.json") << db.dump();
  options_.build_dir = (dir_ / "build").string();
  cli::run_check(options_);
  nlohmann::json serial = report()["findings"];
  options_.jobs = 2;
  cli::run_check(options_);
  EXPECT_EQ(report()["findings"], serial);
}
