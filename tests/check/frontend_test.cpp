// Tests of snag check's front end (interp/frontend): clang to bitcode at -O0
// plus mem2reg with exact lines, the content-hash cache, clang's diagnostics
// for a file that does not compile, C vs C++ by extension, and linking.
#include "interp/frontend/frontend.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "interp/frontend/bitcode_cache.h"

namespace fs = std::filesystem;
using namespace snag::interp::frontend;

namespace {

class FrontendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("snag-frontend-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cache");
    options_.cache_dir = (dir_ / "cache").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  TranslationUnit unit(const std::string &file, std::vector<std::string> flags = {}) {
    return TranslationUnit{file, dir_.string(), std::move(flags)};
  }

  fs::path dir_;
  FrontendOptions options_;
  llvm::LLVMContext context_;
};

// The line of the first store to global `name` in function `function`.
unsigned line_of_store_to(llvm::Module &module, const char *function, const char *name) {
  llvm::Function *f = module.getFunction(function);
  if (!f) return 0;
  for (llvm::Instruction &i : llvm::instructions(*f)) {
    auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
    if (store && store->getPointerOperand()->getName() == name && store->getDebugLoc())
      return store->getDebugLoc().getLine();
  }
  return 0;
}

size_t allocas_in(llvm::Function &f) {
  size_t n = 0;
  for (llvm::Instruction &i : llvm::instructions(f)) n += llvm::isa<llvm::AllocaInst>(i);
  return n;
}

const char *kCounter =
    "int counter;\n"                     // 1
    "void bump(int times) {\n"           // 2
    "  for (int i = 0; i < times; ++i)\n"  // 3
    "    counter = counter + 1;\n"       // 4
    "}\n"
    "int main() { bump(3); return counter; }\n";

}  // namespace

TEST_F(FrontendTest, CompilesAtO0WithMem2RegAndExactLines) {
  CompileResult result = compile_translation_unit(unit(write("counter.cc", kCounter)), options_, context_);
  ASSERT_TRUE(result.module) << result.diagnostics;
  EXPECT_FALSE(result.from_cache);
  EXPECT_EQ(line_of_store_to(*result.module, "_Z4bumpi", "counter"), 4u);
  // mem2reg turned the parameter and the loop counter into registers.
  EXPECT_EQ(allocas_in(*result.module->getFunction("_Z4bumpi")), 0u);
  // -O0 without optnone: nothing was inlined away, and nothing is optnone.
  EXPECT_FALSE(result.module->getFunction("_Z4bumpi")->hasOptNone());
}

TEST_F(FrontendTest, SecondCompileOfUnchangedFileComesFromTheCache) {
  std::string file = write("counter.cc", kCounter);
  ASSERT_TRUE(compile_translation_unit(unit(file), options_, context_).module);
  CompileResult again = compile_translation_unit(unit(file), options_, context_);
  ASSERT_TRUE(again.module) << again.diagnostics;
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(line_of_store_to(*again.module, "_Z4bumpi", "counter"), 4u);
}

// Files last written an hour ago: the manifest trusts only files older than
// two seconds.
void age(const std::string &path) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(1));
}

TEST_F(FrontendTest, UnchangedFilesNeedNoClangAtAll) {
  std::string header = write("value.h", "#define VALUE 1\n");
  std::string file = write("main.cc", "#include \"value.h\"\nint main() { return VALUE; }\n");
  age(header);
  age(file);
  CompileResult first = compile_translation_unit(unit(file), options_, context_);
  ASSERT_TRUE(first.module) << first.diagnostics;
  EXPECT_TRUE(first.ran_clang);
  CompileResult second = compile_translation_unit(unit(file), options_, context_);
  ASSERT_TRUE(second.module);
  EXPECT_TRUE(second.from_cache);
  EXPECT_FALSE(second.ran_clang);
  // A changed header is seen by its size and time, and its content decides.
  write("value.h", "#define VALUE 22\n");
  age(header);
  CompileResult third = compile_translation_unit(unit(file), options_, context_);
  EXPECT_TRUE(third.ran_clang);
  EXPECT_FALSE(third.from_cache);
  EXPECT_FALSE(compile_translation_unit(unit(file), options_, context_).ran_clang);
}

TEST_F(FrontendTest, FreshlyWrittenFilesAreNotTrustedByTime) {
  std::string file = write("counter.cc", kCounter);  // written just now
  ASSERT_TRUE(compile_translation_unit(unit(file), options_, context_).module);
  CompileResult again = compile_translation_unit(unit(file), options_, context_);
  EXPECT_TRUE(again.from_cache);
  EXPECT_TRUE(again.ran_clang);  // preprocessed, hashed, found: no manifest shortcut
}

TEST(FilesOfPreprocessed, LineMarkersOnceEachJoinedToTheDirectory) {
  const char *text =
      "# 1 \"a.cc\"\n# 1 \"<built-in>\" 1\n# 1 \"<command line>\" 1\n"
      "# 1 \"/usr/include/x.h\" 1 3\nint x;\n# 2 \"a.cc\" 2\n# 1 \"sub dir/q\\\"h.h\" 1\n";
  EXPECT_EQ(files_of_preprocessed(text, "/src"),
            (std::vector<std::string>{"/src/a.cc", "/usr/include/x.h", "/src/sub dir/q\"h.h"}));
}

TEST_F(FrontendTest, ChangedHeaderOrFlagsMissTheCache) {
  write("value.h", "#define VALUE 1\n");
  std::string file = write("main.cc", "#include \"value.h\"\nint main() { return VALUE; }\n");
  ASSERT_TRUE(compile_translation_unit(unit(file), options_, context_).module);
  write("value.h", "#define VALUE 2\n");
  EXPECT_FALSE(compile_translation_unit(unit(file), options_, context_).from_cache);
  EXPECT_TRUE(compile_translation_unit(unit(file), options_, context_).from_cache);
  EXPECT_FALSE(compile_translation_unit(unit(file, {"-DUNUSED"}), options_, context_).from_cache);
}

TEST_F(FrontendTest, NoCacheDirectoryMeansNoCache) {
  options_.cache_dir.clear();
  std::string file = write("counter.cc", kCounter);
  ASSERT_TRUE(compile_translation_unit(unit(file), options_, context_).module);
  EXPECT_FALSE(compile_translation_unit(unit(file), options_, context_).from_cache);
}

TEST_F(FrontendTest, DamagedCacheEntryIsCompiledAgain) {
  std::string file = write("counter.cc", kCounter);
  ASSERT_TRUE(compile_translation_unit(unit(file), options_, context_).module);
  for (const auto &entry : fs::recursive_directory_iterator(options_.cache_dir))
    if (entry.is_regular_file()) std::ofstream(entry.path()) << "not bitcode";
  CompileResult result = compile_translation_unit(unit(file), options_, context_);
  ASSERT_TRUE(result.module);
  EXPECT_FALSE(result.from_cache);
}

TEST_F(FrontendTest, FileThatDoesNotCompileGivesClangsDiagnostics) {
  std::string file = write("broken.cc", "int main() { return undeclared; }\n");
  CompileResult result = compile_translation_unit(unit(file), options_, context_);
  EXPECT_FALSE(result.module);
  EXPECT_NE(result.diagnostics.find("broken.cc:1:21: error: use of undeclared identifier 'undeclared'"),
            std::string::npos)
      << result.diagnostics;
}

TEST_F(FrontendTest, MissingIncludeFailsInPreprocessing) {
  std::string file = write("missing.cc", "#include \"no-such-header.h\"\nint main() {}\n");
  CompileResult result = compile_translation_unit(unit(file), options_, context_);
  EXPECT_FALSE(result.module);
  EXPECT_NE(result.diagnostics.find("'no-such-header.h' file not found"), std::string::npos)
      << result.diagnostics;
}

TEST_F(FrontendTest, OptionsOnlyGccKnowsAreDropped) {
  CompileResult result = compile_translation_unit(
      unit(write("gcc.cc", kCounter), {"-fconcepts-diagnostics-depth=3", "-DX=1"}), options_, context_);
  ASSERT_TRUE(result.module) << result.diagnostics;
  EXPECT_EQ(result.dropped_flags, std::vector<std::string>{"-fconcepts-diagnostics-depth=3"});
}

TEST(UnknownArguments, FromClangsDiagnostics) {
  EXPECT_EQ(unknown_arguments("clang: error: unknown argument: '-fa'\n"
                              "clang: warning: optimization flag '-fb' is not supported\n"
                              "clang: error: unknown argument: '-fc=x'\n"),
            (std::vector<std::string>{"-fa", "-fc=x"}));
  EXPECT_TRUE(unknown_arguments("a.cc:1:1: error: unknown type name 'x'\n").empty());
}

TEST_F(FrontendTest, DotCFilesAreCompiledAsC) {
  // `new` is an identifier in C and a keyword in C++.
  std::string file = write("plain.c", "int main(void) { int new = 0; return new; }\n");
  CompileResult result = compile_translation_unit(unit(file, {"-std=c11"}), options_, context_);
  ASSERT_TRUE(result.module) << result.diagnostics;
  EXPECT_TRUE(result.module->getFunction("main"));
}

TEST_F(FrontendTest, FlagsAndDirectoryReachClang) {
  fs::create_directories(dir_ / "include");
  write("include/config.h", "#define LIMIT 7\n");
  std::string file = write("uses.cc", "#include \"config.h\"\nint limit() { return LIMIT; }\n");
  // -I relative to the TU's directory, as compile_commands.json writes it.
  CompileResult result = compile_translation_unit(unit(file, {"-Iinclude"}), options_, context_);
  EXPECT_TRUE(result.module) << result.diagnostics;
}

TEST_F(FrontendTest, LinksTranslationUnitsOfOneTarget) {
  std::string a = write("a.cc", "int shared_counter;\nvoid work() { shared_counter++; }\n");
  std::string b = write("b.cc", "void work();\nint main() { work(); }\n");
  std::vector<std::unique_ptr<llvm::Module>> modules;
  modules.push_back(compile_translation_unit(unit(a), options_, context_).module);
  modules.push_back(compile_translation_unit(unit(b), options_, context_).module);
  std::string error;
  std::unique_ptr<llvm::Module> linked = link_modules(std::move(modules), error);
  ASSERT_TRUE(linked) << error;
  llvm::Function *work = linked->getFunction("_Z4workv");
  ASSERT_TRUE(work);
  EXPECT_FALSE(work->isDeclaration());
  EXPECT_TRUE(linked->getFunction("main"));
}

TEST_F(FrontendTest, LinkConflictIsAnErrorNotAnExit) {
  std::string a = write("a.cc", "int main() { return 1; }\n");
  std::string b = write("b.cc", "int main() { return 2; }\n");
  std::vector<std::unique_ptr<llvm::Module>> modules;
  modules.push_back(compile_translation_unit(unit(a), options_, context_).module);
  modules.push_back(compile_translation_unit(unit(b), options_, context_).module);
  std::string error;
  EXPECT_FALSE(link_modules(std::move(modules), error));
  EXPECT_NE(error.find("symbol multiply defined"), std::string::npos) << error;
}

TEST(ContentKey, PartsAreLengthPrefixed) {
  EXPECT_NE(content_key({"ab", "c"}), content_key({"a", "bc"}));
  EXPECT_EQ(content_key({"ab", "c"}), content_key({"ab", "c"}));
  EXPECT_EQ(content_key({}).size(), 40u);
}

TEST(DefaultCacheDir, FollowsXdgThenHome) {
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(default_cache_dir(), "/xdg/snag/check");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(default_cache_dir(), "/home/someone/.cache/snag/check");
}
