// Identity of the tool as it appears in every report (--version, JSON, SARIF).
#pragma once

#include <string>

namespace snag::report {

// The CMake project version, e.g. "0.1.0".
const std::string &tool_version();

// Where users learn about snag (SARIF tool.driver.informationUri). Empty when
// the build did not configure one; writers then leave the field out.
const std::string &information_uri();

}  // namespace snag::report
