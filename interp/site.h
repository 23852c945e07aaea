// Where in the user's source an access or lock acquisition happened, as the
// interpreter reads it from the IR's debug locations (innermost user frame).
#pragma once

#include <string>
#include <tuple>

namespace snag::interp {

struct SourceSite {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;

  bool operator==(const SourceSite&) const = default;
  bool operator<(const SourceSite& o) const {
    return std::tie(file, line, column) < std::tie(o.file, o.line, o.column);
  }
};

}  // namespace snag::interp
