// Type names as a C++ programmer writes them, for reports: the demangler's
// "std::vector<int, std::allocator<int> >" becomes "std::vector<int>". The
// site table carries these names for API sites (docs/site-table.md), so
// every reader of a finding sees the type the user declared.
#ifndef SNAG_PLUGIN_TYPE_NAMES_H
#define SNAG_PLUGIN_TYPE_NAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace snag {

// Drops the library's inline namespaces (__cxx11, __1), default template
// arguments (allocators, std::less, std::hash, std::equal_to,
// std::char_traits, std::default_delete, and the default containers of
// std::queue, std::stack and std::priority_queue), spells the standard
// string types by their aliases (std::string, std::wstring, ...) and closes
// nested template argument lists with ">>". Anything it does not understand
// is kept as it is.
std::string displayTypeName(llvm::StringRef DemangledType);

} // namespace snag

#endif
