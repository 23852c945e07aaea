// snag-check-ir: a small driver for the interpreter alone, before and beside
// the `snag check` command: reads one bitcode or IR text file (already
// compiled with clang-14 -O0 -g -Xclang -disable-O0-optnone and mem2reg),
// interprets it and prints each finding with its sides, one per line.
// Exit 0 when nothing was found, 66 when something was, 2 on bad input.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "interp/ir/checker.h"

namespace {

bool ParseNumber(const char* text, uint64_t& out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-') return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  snag::interp::CheckOptions options;
  const char* path = nullptr;
  bool stats = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seed" || arg == "--max-steps") && i + 1 < argc) {
      uint64_t v = 0;
      if (!ParseNumber(argv[++i], v) || (arg == "--max-steps" && v == 0)) {
        std::fprintf(stderr, "snag-check-ir: %s needs a positive number, got '%s'\n", arg.c_str(), argv[i]);
        return 2;
      }
      if (arg == "--seed") options.seed = v;
      else options.max_steps_total = v;
    } else if (arg == "--stats") {
      stats = true;
    } else if (!path && arg[0] != '-') {
      path = argv[i];
    } else {
      std::fprintf(stderr, "usage: snag-check-ir [--seed N] [--max-steps N] [--stats] FILE.bc\n");
      return 2;
    }
  }
  if (!path) {
    std::fprintf(stderr, "usage: snag-check-ir [--seed N] [--max-steps N] [--stats] FILE.bc\n");
    return 2;
  }
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module = llvm::parseIRFile(path, error, context);
  if (!module) {
    std::fprintf(stderr, "snag-check-ir: %s: %s\n", path, error.getMessage().str().c_str());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  snag::interp::CheckResult result;
  try {
    result = snag::interp::CheckModule(*module, options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "snag-check-ir: %s: %s\n", path, e.what());
    return 2;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& f : result.findings) {
    std::printf("%s: %s [entry %s]\n",
                f.kind == snag::interp::CheckFinding::Kind::kRace ? "race" : "deadlock",
                f.message.c_str(), f.entry.c_str());
    for (const auto& s : f.sides)
      std::printf("  %s:%u:%u %s%s in %s (%s)\n", s.site.file.c_str(), s.site.line, s.site.column,
                  f.kind == snag::interp::CheckFinding::Kind::kRace ? (s.is_write ? "write " : "read ") : "",
                  "", s.function.c_str(), s.thread.c_str());
  }
  for (const auto& n : result.notes)
    std::printf("note: %s:%u:%u: %s\n", n.site.file.c_str(), n.site.line, n.site.column, n.message.c_str());
  if (stats)
    std::printf("stats: %llu steps, %llu runs, %zu entries, %.3f s\n",
                static_cast<unsigned long long>(result.steps), static_cast<unsigned long long>(result.runs),
                result.entries.size(), seconds);
  if (stats)
    for (const auto& e : result.entries) std::printf("entry: %s\n", e.c_str());
  return result.findings.empty() ? 0 : 66;
}
