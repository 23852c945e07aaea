// The instrumentation added at the end of the optimization pipeline, where
// ThreadSanitizer adds its own: plain loads and stores, atomic instructions
// and fences, memcpy/memmove/memset, function entry/exit and call-site
// stores. Each kind is switched by SNAG_INSTRUMENT (see Options.h).
#ifndef SNAG_PLUGIN_MEMORY_INSTRUMENTATION_H
#define SNAG_PLUGIN_MEMORY_INSTRUMENTATION_H

#include "GuardSites.h"
#include "IgnoreList.h"
#include "Options.h"
#include "SiteTable.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace snag {

// Instruments every function of `M` that OptOut does not exclude, adding the
// sites to `Sites`. Returns true if the module changed.
// With `Guard` (a lean guard build), plain accesses get hooks only at the
// sites it allows.
// With `Ignore`, the functions it names get no plain memory or memop hooks.
// With `FAM`, accesses in loops that cannot synchronize skip their hooks when
// one question before the loop allows (LoopRanges.h).
bool instrumentMemory(llvm::Module &M, const InstrumentKinds &Kinds,
                      SiteTable &Sites, const GuardSites *Guard = nullptr,
                      const IgnoreList *Ignore = nullptr,
                      llvm::FunctionAnalysisManager *FAM = nullptr);

} // namespace snag

#endif
