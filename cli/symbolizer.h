// Code addresses to source lines, through llvm-symbolizer (LLVM 14's, which
// snag already needs), for what the site tables cannot answer: a crash's
// faulting instruction, frames in code snag did not compile.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/finding.h"

namespace snag::cli {

// Which function an address inlined into another is said to be in.
enum class Inlined {
  kInnermost,  // the inlined function and its line (a crash's exact line)
  kOuter,      // the function the code belongs to, at the inlined call's line
};

// One frame per address of `module` (an executable or shared library, the
// addresses its own), in the same order: the function at that address and,
// when the module has debug information, its file, line and column. nullopt
// where nothing is known, or for all when the symbolizer cannot be run.
std::vector<std::optional<report::Frame>> symbolize(const std::string &module,
                                                    const std::vector<uint64_t> &addresses,
                                                    Inlined inlined);

// Whether `file` is one of snag's runtime sources: code of the runtime is
// not the program's. The runtime may have been compiled in another checkout
// (a moved build, a shared compiler cache), so a file counts as the
// runtime's when the part of its path after its last "runtime/" names a file
// of this snag's runtime sources.
bool in_snag_runtime(const std::string &file);

}  // namespace snag::cli
