// Keeps the optimizer from inventing races.
//
// LLVM hoists a load out of a branch when it is safe for one thread (the
// address is dereferenceable): `if (c) return g; return 0;` becomes an
// unconditional load of g and a select. The program never read g when c was
// false, but the instrumented code does, and a race detector then reports a
// race the source does not have. ThreadSanitizer avoids this because clang
// marks every function `sanitize_thread`, and LLVM 14 refuses to speculate
// loads in such functions (llvm::mustSuppressSpeculation, used by
// isSafeToSpeculativelyExecute: SimplifyCFG's hoisting and speculation, LICM,
// GVN's load PRE and others). snag compiles without -fsanitize=thread, so
// this pass adds the same attribute at the start of the pipeline, before any
// pass could speculate. The attribute has no other effect on code generation
// (no ThreadSanitizer pass is in snag's pipeline).
#ifndef SNAG_PLUGIN_NO_SPECULATIVE_LOADS_H
#define SNAG_PLUGIN_NO_SPECULATIVE_LOADS_H

#include "IgnoreList.h"

#include "llvm/IR/Module.h"

namespace snag {

// Marks every function defined in `M` sanitize_thread, except the ones snag
// leaves alone (OptOut.h) and those `Ignore` names: as under ThreadSanitizer,
// LLVM then does not inline a marked function into an unmarked one or back
// (the attribute must match), so the accesses of a function the ignore list
// does not name stay instrumented. Returns whether anything changed.
bool forbidSpeculativeLoads(llvm::Module &M, const IgnoreList *Ignore);

} // namespace snag

#endif
