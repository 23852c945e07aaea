#include "toolchain.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace snag::wrapper {

namespace fs = std::filesystem;

namespace {

std::string require(const fs::path &p, const char *what) {
  if (!fs::exists(p))
    throw std::runtime_error(std::string("cannot find the ") + what + " at " + p.string() +
                             " (is snag installed completely?)");
  return p.string();
}

}  // namespace

Toolchain find_toolchain(bool cxx) {
  fs::path self = fs::read_symlink("/proc/self/exe");
  fs::path prefix = self.parent_path().parent_path();
  Toolchain tc;
  tc.plugin = require(prefix / "lib/snag/libsnag_pass.so", "snag pass plugin");
  tc.runtime = require(prefix / "lib/snag/libsnag_rt.a", "snag runtime");
  tc.dynamic_list = require(prefix / "lib/snag/snag_rt.dyn", "snag runtime symbol list");
  tc.include_dir = (prefix / "include").string();
  const char *override_driver = std::getenv(cxx ? "SNAG_CLANGXX" : "SNAG_CLANG");
  tc.clang = override_driver && *override_driver ? override_driver
                                                 : (cxx ? SNAG_DEFAULT_CLANGXX : SNAG_DEFAULT_CLANG);
  return tc;
}

}  // namespace snag::wrapper
