// A sanitizer ignore list (clang's -fsanitize-ignorelist= / the older
// -fsanitize-blacklist=), given to snag-cc as the same flag: the plain memory
// accesses of the functions and source files it names are not instrumented,
// as ThreadSanitizer leaves them alone. Their atomics, entry/exit and call
// sites still are (atomics may be the program's synchronization).
//
// Format (clang's "special case list"): one `fun:GLOB` or `src:GLOB` per
// line, `#` comments, and `[section]` headers; entries before any section
// and in a section whose name matches "thread" apply. `fun:` matches the
// function's (mangled) symbol name, `src:` the module's source file name.
// Entries with a `=category` suffix (such as `=init`) are for other tools'
// purposes and are skipped.
#ifndef SNAG_PLUGIN_IGNORE_LIST_H
#define SNAG_PLUGIN_IGNORE_LIST_H

#include "llvm/IR/Function.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

#include <vector>

namespace snag {

class IgnoreList {
public:
  // Reads the files in SNAG_IGNORELIST (':'-separated; set by the wrapper).
  // An unreadable file or a malformed pattern is a fatal configuration error.
  static IgnoreList fromEnvironment();

  bool empty() const { return Functions.empty() && Sources.empty(); }
  // Whether `F`'s plain memory accesses are left alone.
  bool ignoresMemory(const llvm::Function &F) const;

private:
  void load(llvm::StringRef Path);

  std::vector<llvm::GlobPattern> Functions;
  std::vector<llvm::GlobPattern> Sources;
  // The files' text: a GlobPattern keeps pointing into the string it was
  // made from.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Texts;
};

} // namespace snag

#endif
