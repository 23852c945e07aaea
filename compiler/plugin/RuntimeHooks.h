// Declarations of the runtime entry points of include/snag/abi.h in the
// module being instrumented. Each hook is declared on first use, so a module
// only mentions the hooks it calls.
#ifndef SNAG_PLUGIN_RUNTIME_HOOKS_H
#define SNAG_PLUGIN_RUNTIME_HOOKS_H

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"

namespace snag {

class RuntimeHooks {
public:
  explicit RuntimeHooks(llvm::Module &M);

  // `SizeLog2` selects __snag_read{1,2,4,8,16}: 0 for 1 byte ... 4 for 16.
  llvm::FunctionCallee read(unsigned SizeLog2);
  llvm::FunctionCallee write(unsigned SizeLog2);
  llvm::FunctionCallee readRange();
  llvm::FunctionCallee writeRange();
  // int __snag_loop_range_unchanged(void *, size_t, int write)
  llvm::FunctionCallee loopRangeUnchanged();
  // int __snag_loop_ring_unchanged(void *base, size_t stride, size_t slots,
  //                                size_t first, size_t taken, size_t bytes, int write)
  llvm::FunctionCallee loopRingUnchanged();
  llvm::FunctionCallee atomicBefore();
  llvm::FunctionCallee atomicAfter();
  llvm::FunctionCallee fence();
  llvm::FunctionCallee funcEntry();
  llvm::FunctionCallee funcExit();
  // The API hooks are declared inaccessiblememonly, nounwind, willreturn,
  // nofree, nosync and mustprogress, with a nocapture readnone object
  // pointer, so that they do not keep the optimizer from optimizing the code
  // around them (they are inserted before optimization).
  llvm::FunctionCallee apiBegin();
  llvm::FunctionCallee apiEnd();
  llvm::FunctionCallee registerSites();
  // `extern __thread snag_site_t __snag_call_site`, initial-exec TLS.
  llvm::GlobalVariable *callSiteSlot();
  // `extern int __snag_every_access`: nonzero while an engine wants the
  // hooks of covered accesses too (RedundantAccesses.h).
  llvm::GlobalVariable *everyAccessFlag();

  llvm::Type *voidTy() const { return VoidTy; }
  llvm::PointerType *bytePtrTy() const { return BytePtrTy; }
  llvm::IntegerType *i32Ty() const { return Int32Ty; }
  llvm::IntegerType *siteTy() const { return SiteTy; }   // snag_site_t
  llvm::IntegerType *sizeTy() const { return SizeTy; }   // size_t

  // Hooks are the functions named __snag_*: never instrumented, and calls to
  // them are not call sites.
  static bool isHookName(llvm::StringRef Name) {
    return Name.startswith("__snag_");
  }

private:
  // Adds the API hooks' attributes to `Hook`'s declaration.
  static llvm::FunctionCallee declareApiHook(llvm::FunctionCallee Hook);

  template <typename... Args>
  llvm::FunctionCallee declare(llvm::StringRef Name, llvm::Type *Result,
                               Args *...Params);

  llvm::Module &M;
  llvm::Type *VoidTy;
  llvm::PointerType *BytePtrTy;
  llvm::IntegerType *Int32Ty;
  llvm::IntegerType *SiteTy;
  llvm::IntegerType *SizeTy;
};

} // namespace snag

#endif
