#include "report/version.h"

// Both macros come from report/CMakeLists.txt so that the version has a single
// source of truth: the top-level project() call.
#ifndef SNAG_VERSION_STRING
#error "SNAG_VERSION_STRING must be defined by the build"
#endif
#ifndef SNAG_INFORMATION_URI
#define SNAG_INFORMATION_URI ""
#endif

namespace snag::report {

const std::string &tool_version() {
  static const std::string version = SNAG_VERSION_STRING;
  return version;
}

const std::string &information_uri() {
  static const std::string uri = SNAG_INFORMATION_URI;
  return uri;
}

}  // namespace snag::report
