// API call marking: brackets each call to a member of a class in the API
// table with __snag_api_begin(this, is_write, site) and
// __snag_api_end(this, site).
//
// It runs at the start of the pipeline, before inlining, while the user's
// calls to std::vector::push_back and friends are still calls. Calls made
// from inside a listed class (push_back calling emplace_back, a member's local
// lambda, a nested class) are the library's own and are not marked, so that a
// user's call is marked once.
//
// The sites it creates are recorded in the module (SiteTable::recordInModule)
// and written to the site table at the end of the pipeline by addApiSites.
#ifndef SNAG_PLUGIN_API_CALL_MARKING_H
#define SNAG_PLUGIN_API_CALL_MARKING_H

#include "ApiTable.h"
#include "SiteTable.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace snag {

// Returns true if the module changed.
bool markApiCalls(llvm::Module &M, const ApiTable &Table);

// At the end of the pipeline: adds to `Sites` the recorded API sites whose
// hooks survived optimization, and removes the records from the module.
// Hooks that were inlined since marking (their location has an inlinedAt
// chain) get a copy of their site whose parent is the inline site of that
// chain (SiteTable::addInlinedCopy), so that stacks show the frames the
// inlining removed. Returns true if the module changed.
bool addApiSites(llvm::Module &M, SiteTable &Sites);

// At the end of the pipeline: a function with API hook calls inside a tight
// loop (at most kMaxLoopAccessesChecked loads and stores of its own) is
// split into itself (hooks unconditional) and an internal copy without
// hooks (named with kNoApiCopySuffix), to which its entry hands the call
// (musttail) when the runtime says no engine wants API calls
// (`__snag_api_calls_wanted`), so that a loop over `vector[i]` under the
// engines that ignore them costs nothing but one load and branch per call of
// the function. A function that cannot be copied that way (variadic, optnone,
// setjmp), or whose API calls are all in loops that are not tight, keeps a
// load and a predictable branch per hook in a loop. (Outside loops a call per marker costs little, and the
// code stays smaller.) Returns true if the module changed.
bool guardApiCallsInLoops(llvm::Module &M, llvm::FunctionAnalysisManager &FAM);

} // namespace snag

#endif
