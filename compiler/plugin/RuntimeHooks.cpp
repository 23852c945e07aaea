#include "RuntimeHooks.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/Attributes.h"

using namespace llvm;

namespace snag {

RuntimeHooks::RuntimeHooks(Module &M)
    : M(M), VoidTy(Type::getVoidTy(M.getContext())),
      BytePtrTy(Type::getInt8PtrTy(M.getContext())),
      Int32Ty(Type::getInt32Ty(M.getContext())),
      SiteTy(Type::getInt64Ty(M.getContext())),
      SizeTy(M.getDataLayout().getIntPtrType(M.getContext())) {}

template <typename... Args>
FunctionCallee RuntimeHooks::declare(StringRef Name, Type *Result,
                                     Args *...Params) {
  // The runtime is C and never throws, so hook calls need no invoke or
  // landing pad even in functions that handle exceptions.
  AttributeList Attrs = AttributeList().addFnAttribute(M.getContext(),
                                                       Attribute::NoUnwind);
  return M.getOrInsertFunction(Name, Attrs, Result, Params...);
}

FunctionCallee RuntimeHooks::read(unsigned SizeLog2) {
  return declare(("__snag_read" + Twine(1u << SizeLog2)).str(), VoidTy,
                 BytePtrTy, SiteTy);
}

FunctionCallee RuntimeHooks::write(unsigned SizeLog2) {
  return declare(("__snag_write" + Twine(1u << SizeLog2)).str(), VoidTy,
                 BytePtrTy, SiteTy);
}

FunctionCallee RuntimeHooks::loopRangeUnchanged() {
  return declare("__snag_loop_range_unchanged", Int32Ty, BytePtrTy, SizeTy, Int32Ty);
}

FunctionCallee RuntimeHooks::loopRingUnchanged() {
  return declare("__snag_loop_ring_unchanged", Int32Ty, BytePtrTy, SizeTy, SizeTy, SizeTy, SizeTy,
                 SizeTy, Int32Ty);
}

FunctionCallee RuntimeHooks::readRange() {
  return declare("__snag_read_range", VoidTy, BytePtrTy, SizeTy, SiteTy);
}

FunctionCallee RuntimeHooks::writeRange() {
  return declare("__snag_write_range", VoidTy, BytePtrTy, SizeTy, SiteTy);
}

FunctionCallee RuntimeHooks::atomicBefore() {
  return declare("__snag_atomic_before", VoidTy, BytePtrTy, Int32Ty, Int32Ty,
                 Int32Ty, SiteTy);
}

FunctionCallee RuntimeHooks::atomicAfter() {
  return declare("__snag_atomic_after", VoidTy, BytePtrTy, Int32Ty, Int32Ty,
                 Int32Ty, Int32Ty, Int32Ty, SiteTy);
}

FunctionCallee RuntimeHooks::fence() {
  return declare("__snag_fence", VoidTy, Int32Ty, SiteTy);
}

FunctionCallee RuntimeHooks::funcEntry() {
  return declare("__snag_func_entry", VoidTy, SiteTy, BytePtrTy);
}

FunctionCallee RuntimeHooks::funcExit() {
  return declare("__snag_func_exit", VoidTy);
}

// The API hooks are inserted before optimization. As plain calls they would
// clobber all memory, so that, say, the loads of a vector's begin and end
// pointers could not be hoisted out of a loop that calls size() and
// operator[] (more than 10x slower). They only touch the runtime's own
// state, which the program cannot name, and they use the object pointer as
// an identity only: they never dereference it and keep no pointer to the
// object that the program could use.
FunctionCallee RuntimeHooks::declareApiHook(FunctionCallee Hook) {
  auto *F = dyn_cast<Function>(Hook.getCallee());
  if (!F || !F->isDeclaration())
    return Hook;
  for (Attribute::AttrKind Kind :
       {Attribute::InaccessibleMemOnly, Attribute::NoUnwind,
        Attribute::WillReturn, Attribute::NoFree, Attribute::NoSync,
        Attribute::MustProgress})
    F->addFnAttr(Kind);
  // Argument 0 is the object.
  F->addParamAttr(0, Attribute::NoCapture);
  F->addParamAttr(0, Attribute::ReadNone);
  return Hook;
}

FunctionCallee RuntimeHooks::apiBegin() {
  return declareApiHook(
      declare("__snag_api_begin", VoidTy, BytePtrTy, Int32Ty, SiteTy));
}

FunctionCallee RuntimeHooks::apiEnd() {
  return declareApiHook(declare("__snag_api_end", VoidTy, BytePtrTy, SiteTy));
}

FunctionCallee RuntimeHooks::registerSites() {
  return declare("__snag_register_sites", VoidTy, BytePtrTy, SizeTy);
}

GlobalVariable *RuntimeHooks::callSiteSlot() {
  auto *Slot = cast<GlobalVariable>(
      M.getOrInsertGlobal("__snag_call_site", SiteTy));
  // Initial-exec: one %fs-relative store, no __tls_get_addr call, which is
  // what makes a store before every call affordable.
  Slot->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
  return Slot;
}

GlobalVariable *RuntimeHooks::everyAccessFlag() {
  return cast<GlobalVariable>(M.getOrInsertGlobal("__snag_every_access", Int32Ty));
}

} // namespace snag
