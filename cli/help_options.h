// `snag --help-options`: the runtime's SNAG_OPTIONS keys, from the one
// table the runtime parses them with (runtime/core/option_table.h).
#pragma once

#include <string>

namespace snag::cli {

// A plain-text listing for a terminal, or (markdown) the table that
// docs/options.md carries, which a test keeps equal to it.
std::string options_help(bool markdown);

}  // namespace snag::cli
