// The front end of `snag check` (issue 12): turns C and C++ translation units
// into the LLVM module the interpreter reads.
//
// Each TU is compiled by clang 14 at -O0 with debug info, with optnone
// removed, and then only mem2reg runs on it (in process), so locals that never
// escape become registers while every instruction keeps its exact source
// line. The result is cached by content: the key hashes clang's preprocessed
// output, the flags, the working directory and clang's version, so checking
// an unchanged TU again costs at most one preprocessing run, and nothing at
// all while the sizes and times of its files are those recorded with it.
// Several TUs of one target are linked into one module in memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace snag::interp::frontend {

// One compilation: the source, the directory clang runs in, and the flags
// that matter for its meaning (-I, -D, -std, ...), without the compiler, the
// source, -c or -o.
struct TranslationUnit {
  std::string file;
  std::string directory;  // empty: the current directory
  std::vector<std::string> flags;
};

struct FrontendOptions {
  std::string cache_dir;            // empty: no cache
  std::string clang = "clang-14";   // for .c files
  std::string clangxx = "clang++-14";  // for everything else
};

struct CompileResult {
  std::unique_ptr<llvm::Module> module;  // null when clang failed
  bool from_cache = false;
  // Whether clang ran at all: not when the cache's manifest showed that no
  // file of the TU changed (see BitcodeCache::lookup_manifest).
  bool ran_clang = false;
  // Options of the TU that clang 14 does not know (a database written for
  // GCC), left out of the compilation.
  std::vector<std::string> dropped_flags;
  // What clang printed when it failed (its diagnostics, verbatim), or the
  // one-line reason snag could not use its output.
  std::string diagnostics;
};

// The options clang reports as "unknown argument" in its diagnostics.
std::vector<std::string> unknown_arguments(const std::string &diagnostics);

// The flags snag adds to every compilation, after the TU's own.
const std::vector<std::string> &bitcode_flags();

// $XDG_CACHE_HOME/snag/check, else $HOME/.cache/snag/check, else empty.
std::string default_cache_dir();

// The compiler for a source file: clang for .c, clang++ for the rest.
const std::string &compiler_for(const FrontendOptions &options, const std::string &file);

// Compiles one TU into `context`. Never throws for a TU that does not
// compile (see CompileResult::diagnostics); throws std::runtime_error when
// clang cannot be run at all.
CompileResult compile_translation_unit(const TranslationUnit &unit, const FrontendOptions &options,
                                       llvm::LLVMContext &context);

// Links modules of one context into the first one. On a conflict (two
// definitions of one symbol) returns null and sets `error` to one line.
std::unique_ptr<llvm::Module> link_modules(std::vector<std::unique_ptr<llvm::Module>> modules,
                                           std::string &error);

}  // namespace snag::interp::frontend
