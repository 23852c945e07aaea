#include "NoSpeculativeLoads.h"

#include "OptOut.h"

using namespace llvm;

namespace snag {

bool forbidSpeculativeLoads(Module &M, const IgnoreList *Ignore) {
  OptOut Skip(M);
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::SanitizeThread) ||
        Skip.isExcluded(F) || (Ignore && Ignore->ignoresMemory(F)))
      continue;
    F.addFnAttr(Attribute::SanitizeThread);
    Changed = true;
  }
  return Changed;
}

} // namespace snag
