#include "ApiCallMarking.h"

#include "OptOut.h"
#include "RuntimeHooks.h"
#include "SiteTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <optional>

using namespace llvm;

namespace snag {

namespace {

// What a call to a listed member needs to be marked.
struct ApiCallee {
  ApiAccess Access;
  unsigned ThisIndex; // argument holding `this`
};

// A static member has no `this`; debug info is the only place that says so.
bool isStaticMember(const Function &Callee) {
  const DISubprogram *SP = Callee.getSubprogram();
  if (SP && SP->getDeclaration())
    SP = SP->getDeclaration();
  return SP && (SP->getFlags() & DINode::FlagStaticMember);
}

class ApiCallMarker {
public:
  ApiCallMarker(Module &M, const ApiTable &Table)
      : M(M), Table(Table), Hooks(M), Sites(M), Exclusions(M) {}

  bool run() {
    // Collected first: marking adds hook declarations to the function list.
    SmallVector<Function *, 32> Functions;
    for (Function &F : M)
      if (!Exclusions.isExcluded(F) && !isLibraryInternal(F))
        Functions.push_back(&F);
    bool Changed = false;
    for (Function *F : Functions)
      Changed |= markFunction(*F);
    Sites.recordInModule();
    return Changed;
  }

private:
  // Functions of a listed class (and anything nested in one) call other
  // members as part of the library's implementation.
  bool isLibraryInternal(const Function &F) const {
    std::optional<DemangledMember> Name = demangleMember(F.getName());
    return Name && isInsideListedClass(Table, Name->Class);
  }

  // Matches `Callee` against the table; cached per callee.
  std::optional<ApiCallee> lookupCallee(const Function &Callee) {
    auto [It, Inserted] = CalleeCache.try_emplace(&Callee);
    if (Inserted)
      It->second = matchCallee(Callee);
    return It->second;
  }

  std::optional<ApiCallee> matchCallee(const Function &Callee) const {
    if (Callee.isIntrinsic() || RuntimeHooks::isHookName(Callee.getName()))
      return std::nullopt;
    std::optional<DemangledMember> Name = demangleMember(Callee.getName());
    if (!Name || Name->IsCtorOrDtor)
      return std::nullopt;
    std::optional<ApiAccess> Access = Table.lookup(Name->Class, Name->Member);
    if (!Access || isStaticMember(Callee))
      return std::nullopt;
    // Itanium ABI: a returned-by-value object's sret pointer comes before
    // `this`.
    unsigned ThisIndex = Callee.hasParamAttribute(0, Attribute::StructRet);
    if (Callee.arg_size() <= ThisIndex ||
        !Callee.getArg(ThisIndex)->getType()->isPointerTy())
      return std::nullopt;
    return ApiCallee{*Access, ThisIndex};
  }

  bool markFunction(Function &F) {
    SmallVector<std::pair<CallBase *, ApiCallee>, 16> Calls;
    for (Instruction &I : instructions(F)) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call || isa<CallBrInst>(Call))
        continue;
      // Typed pointers: the callee may hide behind a bitcast.
      const auto *Callee =
          dyn_cast<Function>(Call->getCalledOperand()->stripPointerCasts());
      if (!Callee)
        continue;
      // A musttail call must stay right before its return: no room for the
      // end hook.
      if (auto *CI = dyn_cast<CallInst>(Call); CI && CI->isMustTailCall())
        continue;
      if (std::optional<ApiCallee> Api = lookupCallee(*Callee))
        Calls.push_back({Call, *Api});
    }
    for (auto &[Call, Api] : Calls)
      markCall(F, *Call, Api);
    return !Calls.empty();
  }

  void markCall(Function &F, CallBase &Call, const ApiCallee &Api) {
    // Inline frames are described at the end of the pipeline, when the
    // inlining is done (addApiSites).
    uint64_t Site = Sites.addSite(F, &Call, SNAG_SITE_API,
                                  SiteTable::InlineFrames::Omit);
    Value *This = Call.getArgOperand(Api.ThisIndex);
    IRBuilder<> IRB(&Call);
    Value *Object = IRB.CreatePointerCast(This, Hooks.bytePtrTy());
    IRB.CreateCall(Hooks.apiBegin(),
                   {Object,
                    ConstantInt::get(Hooks.i32Ty(),
                                     Api.Access == ApiAccess::Write ? 1 : 0),
                    ConstantInt::get(Hooks.siteTy(), Site)});

    auto EmitEnd = [&](Instruction *Before) {
      IRBuilder<> EndIRB(Before);
      EndIRB.SetCurrentDebugLocation(Call.getDebugLoc());
      EndIRB.CreateCall(Hooks.apiEnd(),
                        {EndIRB.CreatePointerCast(This, Hooks.bytePtrTy()),
                         ConstantInt::get(Hooks.siteTy(), Site)});
    };

    auto *Invoke = dyn_cast<InvokeInst>(&Call);
    if (!Invoke) {
      EmitEnd(Call.getNextNode());
      return;
    }
    // An invoke continues in two places. Each gets a block of its own (the
    // edge is split when the destination has other predecessors) so the end
    // hook runs only after this call.
    BasicBlock *From = Invoke->getParent();
    BasicBlock *Normal = Invoke->getNormalDest();
    if (!Normal->getSinglePredecessor())
      Normal = SplitEdge(From, Normal);
    EmitEnd(&*Normal->getFirstInsertionPt());

    // Only Itanium landing pads: splitting them is supported by LLVM and
    // calls after a landingpad need no funclet bundle. (Windows EH funclets
    // keep the begin hook without an end on the exceptional path.)
    BasicBlock *Unwind = Invoke->getUnwindDest();
    if (!Unwind->isLandingPad())
      return;
    if (!Unwind->getSinglePredecessor())
      Unwind = SplitBlockPredecessors(Unwind, {From}, ".snag");
    if (Unwind)
      EmitEnd(&*Unwind->getFirstInsertionPt());
  }

  Module &M;
  const ApiTable &Table;
  RuntimeHooks Hooks;
  SiteTable Sites;
  OptOut Exclusions;
  DenseMap<const Function *, std::optional<ApiCallee>> CalleeCache;
};

} // namespace

bool markApiCalls(Module &M, const ApiTable &Table) {
  return ApiCallMarker(M, Table).run();
}

bool addApiSites(Module &M, SiteTable &Sites) {
  std::vector<SiteRecord> Records = SiteTable::takeRecordedSites(M);
  if (Records.empty())
    return false;
  DenseMap<uint64_t, const SiteRecord *> ById;
  for (const SiteRecord &Site : Records)
    ById[Site.Id] = &Site;

  // Sites used by hooks that were not inlined; the others were deleted
  // with their code by the optimizer.
  DenseSet<uint64_t> Live;
  bool Changed = false;
  for (StringRef Hook : {"__snag_api_begin", "__snag_api_end"}) {
    Function *HookFn = M.getFunction(Hook);
    if (!HookFn)
      continue;
    for (User *U : HookFn->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != HookFn)
        continue;
      unsigned SiteIndex = Call->arg_size() - 1;
      auto *SiteArg = dyn_cast<ConstantInt>(Call->getArgOperand(SiteIndex));
      if (!SiteArg)
        continue;
      auto Original = ById.find(SiteArg->getZExtValue());
      if (Original == ById.end())
        continue;
      const DILocation *Loc = Call->getDebugLoc().get();
      const DILocation *InlinedAt = Loc ? Loc->getInlinedAt() : nullptr;
      if (!InlinedAt) {
        Live.insert(Original->second->Id);
        continue;
      }
      // The begin and end hooks of one call share their location, so they
      // get the same copy.
      uint64_t Copy = Sites.addInlinedCopy(*Call->getFunction(),
                                           *Original->second, InlinedAt);
      Call->setArgOperand(SiteIndex, ConstantInt::get(SiteArg->getType(), Copy));
      Changed = true;
    }
  }
  for (const SiteRecord &Site : Records)
    if (Live.count(Site.Id))
      Sites.addRecorded(Site);
  return Changed;
}

} // namespace snag
