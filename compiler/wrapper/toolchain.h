// Where the wrapper finds clang, the pass plugin and the runtime: relative to
// its own location (bin/../lib/snag), which holds for the build tree and for
// an installation alike.
#pragma once

#include <string>

namespace snag::wrapper {

struct Toolchain {
  std::string clang;     // the C or C++ driver to run
  std::string plugin;    // lib/snag/libsnag_pass.so
  std::string runtime;   // lib/snag/libsnag_rt.a
  std::string dynamic_list;  // lib/snag/snag_rt.dyn
  std::string include_dir;   // include (holds snag/annotations.h)
};

// `cxx` selects clang++. SNAG_CLANG / SNAG_CLANGXX override the driver.
// Throws std::runtime_error naming the missing piece.
Toolchain find_toolchain(bool cxx);

}  // namespace snag::wrapper
