// Which functions snag leaves alone.
//
// A function is not instrumented (no API marking, no memory, atomic, memop,
// entry/exit or call-site hooks) when it
//   - has the IR attribute disable_sanitizer_instrumentation, written in C/C++
//     as __attribute__((disable_sanitizer_instrumentation)),
//   - is annotated __attribute__((annotate("snag_no_instrument"))),
//   - is naked (no prologue to put hooks in),
//   - is a snag hook (name starts with __snag_) or snag's module constructor,
//   - has no body in this module or is available_externally (the body that
//     runs is the one compiled elsewhere).
// __attribute__((no_sanitize("thread"))) cannot be honored: without
// -fsanitize=thread clang drops it before the IR is built.
#ifndef SNAG_PLUGIN_OPT_OUT_H
#define SNAG_PLUGIN_OPT_OUT_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

namespace snag {

inline constexpr llvm::StringLiteral NoInstrumentAnnotation =
    "snag_no_instrument";

class OptOut {
public:
  // Collects the annotated functions of `M` (llvm.global.annotations).
  explicit OptOut(const llvm::Module &M);

  bool isExcluded(const llvm::Function &F) const;

private:
  llvm::SmallPtrSet<const llvm::Function *, 8> Annotated;
};

} // namespace snag

#endif
