#include "OptOut.h"

#include "RuntimeHooks.h"
#include "SiteTable.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

using namespace llvm;

namespace snag {

namespace {

// The string an annotation entry points to, or "" when it is not a plain
// string constant.
StringRef annotationText(const Constant *Operand) {
  const auto *Str = dyn_cast<GlobalVariable>(Operand->stripPointerCasts());
  if (!Str || !Str->hasInitializer())
    return "";
  const auto *Data = dyn_cast<ConstantDataArray>(Str->getInitializer());
  if (!Data || !Data->isCString())
    return "";
  return Data->getAsCString();
}

} // namespace

OptOut::OptOut(const Module &M) {
  // llvm.global.annotations = [ { i8* value, i8* text, i8* file, i32 line,
  //                               i8* args }, ... ]
  const GlobalVariable *Annotations =
      M.getNamedGlobal("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return;
  const auto *Entries = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Entries)
    return;
  for (const Use &EntryUse : Entries->operands()) {
    const auto *Entry = dyn_cast<ConstantStruct>(EntryUse.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    const auto *Fn =
        dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    if (Fn && annotationText(Entry->getOperand(1)) == NoInstrumentAnnotation)
      Annotated.insert(Fn);
  }
}

bool OptOut::isExcluded(const Function &F) const {
  return F.isDeclaration() || F.hasAvailableExternallyLinkage() ||
         RuntimeHooks::isHookName(F.getName()) ||
         F.getName() == ModuleCtorName ||
         F.hasFnAttribute(Attribute::Naked) ||
         F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
         Annotated.contains(&F);
}

} // namespace snag
