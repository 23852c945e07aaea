#include "ApiCallMarking.h"

#include "OptOut.h"
#include "RaceFastPath.h"
#include "RuntimeHooks.h"
#include "SiteTable.h"
#include "TypeNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <map>
#include <optional>

using namespace llvm;

namespace snag {

namespace {

// One object a marked call uses: `this`, or another object of the same class
// passed by reference (the source of a copy, the other side of a swap).
struct ApiObjectUse {
  unsigned ArgIndex;
  ApiAccess Access;
  std::string Operation; // as the A line says it, e.g. "push_back"
};

// What a call to a listed member needs to be marked.
struct ApiCallee {
  std::string ObjectType; // displayTypeName of the class
  SmallVector<ApiObjectUse, 2> Uses;
};

// A static member has no `this`; debug info is the only place that says so.
bool isStaticMember(const Function &Callee) {
  const DISubprogram *SP = Callee.getSubprogram();
  if (SP && SP->getDeclaration())
    SP = SP->getDeclaration();
  return SP && (SP->getFlags() & DINode::FlagStaticMember);
}

// The standard library's own functions and classes: namespace std and
// libstdc++'s __gnu_cxx.
bool isStandardLibraryScope(StringRef Class) {
  return Class == "std" || Class.startswith("std::") || Class == "__gnu_cxx" ||
         Class.startswith("__gnu_cxx::");
}

char accessLetter(ApiAccess Access) { return Access == ApiAccess::Write ? 'w' : 'r'; }

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
  // members as part of the library's implementation, and so do the
  // standard library's own functions (std::operator== on two strings,
  // std::hash, the algorithms): the program's calls are the TSVD points,
  // as in the paper, and marking the library's inner calls would cost a
  // hook on every character comparison.
  bool isLibraryInternal(const Function &F) const {
    std::optional<DemangledMember> Name = demangleMember(F.getName());
    return Name &&
           (isInsideListedClass(Table, Name->Class) || isStandardLibraryScope(Name->Class));
  }

  // Matches `Callee` against the table; cached per callee.
  const std::optional<ApiCallee> &lookupCallee(const Function &Callee) {
    auto [It, Inserted] = CalleeCache.try_emplace(&Callee);
    if (Inserted)
      It->second = matchCallee(Callee);
    return It->second;
  }

  std::optional<ApiCallee> matchCallee(const Function &Callee) const {
    if (Callee.isIntrinsic() || RuntimeHooks::isHookName(Callee.getName()))
      return std::nullopt;
    std::optional<DemangledMember> Name = demangleMember(Callee.getName());
    if (!Name || !Table.hasClass(Name->Class) || isStaticMember(Callee))
      return std::nullopt;
    // Itanium ABI: a returned-by-value object's sret pointer comes before
    // `this`.
    unsigned ThisIndex = Callee.hasParamAttribute(0, Attribute::StructRet);
    if (Callee.arg_size() <= ThisIndex ||
        !Callee.getArg(ThisIndex)->getType()->isPointerTy())
      return std::nullopt;
    ApiCallee Result;
    Result.ObjectType = displayTypeName(Name->Scope);
    // Constructors and destructors are never marked on `this`: no other
    // thread can use an object then.
    std::optional<ApiAccess> ThisAccess;
    if (!Name->IsCtorOrDtor) {
      ThisAccess = Table.lookup(Name->Class, Name->Member);
      if (!ThisAccess)
        return std::nullopt;
      Result.Uses.push_back({ThisIndex, *ThisAccess, Name->Member});
    }
    addOtherObjects(Callee, *Name, ThisIndex, Result);
    if (Result.Uses.empty())
      return std::nullopt;
    return Result;
  }

  // Other objects of the class the call uses: the source of a copy (a read)
  // or of a move, the other side of a swap or splice (writes). They are the
  // parameters spelled `Class const&` (read), `Class&` or `Class&&` (write),
  // matched in order to the arguments with `this`'s IR type.
  void addOtherObjects(const Function &Callee, const DemangledMember &Name,
                       unsigned ThisIndex, ApiCallee &Result) const {
    SmallVector<ApiAccess, 2> Accesses;
    for (const std::string &Parameter : Name.Parameters) {
      StringRef Type(Parameter);
      if (Type.consume_back(" const&") && Type == Name.Scope)
        Accesses.push_back(ApiAccess::Read);
      else if ((Type.consume_back("&&") || Type.consume_back("&")) &&
               Type == Name.Scope)
        Accesses.push_back(ApiAccess::Write);
    }
    Type *ThisType = Callee.getArg(ThisIndex)->getType();
    SmallVector<unsigned, 2> Indices;
    for (unsigned I = ThisIndex + 1; I < Callee.arg_size(); ++I)
      if (Callee.getArg(I)->getType() == ThisType)
        Indices.push_back(I);
    // Only when every such parameter is accounted for; anything else is a
    // layout this reading of the signature does not understand.
    if (Indices.size() != Accesses.size())
      return;
    std::string Operation =
        Name.IsCtorOrDtor ? Name.Member + (Accesses.front() == ApiAccess::Read
                                               ? " (copy source)"
                                               : " (move source)")
                          : Name.Member + " (argument)";
    for (size_t I = 0; I < Indices.size(); ++I)
      Result.Uses.push_back({Indices[I], Accesses[I], Operation});
  }

  bool markFunction(Function &F) {
    SmallVector<std::pair<CallBase *, const ApiCallee *>, 16> Calls;
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
      const std::optional<ApiCallee> &Api = lookupCallee(*Callee);
      if (!Api)
        continue;
      Calls.push_back({Call, &*Api});
    }
    for (auto &[Call, Api] : Calls)
      for (const ApiObjectUse &Use : Api->Uses)
        markUse(F, *Call, *Api, Use);
    return !Calls.empty();
  }

  void markUse(Function &F, CallBase &Call, const ApiCallee &Api,
               const ApiObjectUse &Use) {
    // Inline frames are described at the end of the pipeline, when the
    // inlining is done (addApiSites).
    uint64_t Site = Sites.addApiSite(F, &Call, accessLetter(Use.Access),
                                     Api.ObjectType, Use.Operation);
    bracket(Call, Call.getArgOperand(Use.ArgIndex), Use.Access == ApiAccess::Write,
            Site);
    if (Use.Access == ApiAccess::Element)
      markElementAccesses(F, Call, Api, Use);
  }

  // Loads and stores through the element reference a call returned (also
  // through field addresses of it) are reads and writes of that element.
  void markElementAccesses(Function &F, CallBase &Call, const ApiCallee &Api,
                           const ApiObjectUse &Use) {
    SmallVector<Instruction *, 4> Accesses;
    SmallVector<Value *, 4> Work{&Call};
    while (!Work.empty()) {
      Value *V = Work.pop_back_val();
      for (User *U : V->users()) {
        if (auto *Load = dyn_cast<LoadInst>(U)) {
          if (Load->getPointerOperand() == V)
            Accesses.push_back(Load);
        } else if (auto *Store = dyn_cast<StoreInst>(U)) {
          if (Store->getPointerOperand() == V)
            Accesses.push_back(Store);
        } else if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U)) {
          Work.push_back(U);
        }
      }
    }
    for (Instruction *Access : Accesses) {
      bool IsWrite = isa<StoreInst>(Access);
      uint64_t Site = Sites.addApiSite(
          F, Access, IsWrite ? 'w' : 'r', Api.ObjectType,
          Use.Operation + (IsWrite ? " (element write)" : " (element read)"));
      bracket(*Access, &Call, IsWrite, Site);
    }
  }

  // __snag_api_begin(Object, IsWrite, Site) before `At` and
  // __snag_api_end(Object, Site) after it, on every path out of it.
  void bracket(Instruction &At, Value *Object, bool IsWrite, uint64_t Site) {
    IRBuilder<> IRB(&At);
    IRB.CreateCall(Hooks.apiBegin(),
                   {IRB.CreatePointerCast(Object, Hooks.bytePtrTy()),
                    ConstantInt::get(Hooks.i32Ty(), IsWrite ? 1 : 0),
                    ConstantInt::get(Hooks.siteTy(), Site)});

    auto EmitEnd = [&](Instruction *Before) {
      IRBuilder<> EndIRB(Before);
      EndIRB.SetCurrentDebugLocation(At.getDebugLoc());
      EndIRB.CreateCall(Hooks.apiEnd(),
                        {EndIRB.CreatePointerCast(Object, Hooks.bytePtrTy()),
                         ConstantInt::get(Hooks.siteTy(), Site)});
    };

    auto *Invoke = dyn_cast<InvokeInst>(&At);
    if (!Invoke) {
      EmitEnd(At.getNextNode());
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
  std::map<const Function *, std::optional<ApiCallee>> CalleeCache;
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

namespace {

// Whether F can hand its calls to a copy of itself with a musttail call:
// same prototype, so only a variadic function, one a setjmp may return into,
// or one with arguments a tail call cannot forward is left as it is. An
// optnone function (-O0) keeps its guarded hooks: speed is not its point.
bool canVersion(Function &F) {
  if (F.isVarArg() || F.hasFnAttribute(Attribute::OptimizeNone) ||
      F.hasFnAttribute(Attribute::Naked) || F.callsFunctionThatReturnsTwice() ||
      F.hasAvailableExternallyLinkage())
    return false;
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() || A.hasSwiftErrorAttr())
      return false;
  return true;
}

// Splits F into the version the engines that want API calls run (F itself,
// its hooks unconditional) and one without any API hook (F.snag.no_api), to
// which F's entry hands the call with a musttail call when
// __snag_api_calls_wanted is 0. A guard per hook (a load and a branch
// around a call) left the loop's registers to survive a possible call, which
// cost many_threads' inner loop over std::vector a third of its time; the
// copy's loops have no call at all.
void versionApiCalls(Function &F, GlobalVariable *Wanted) {
  ValueToValueMapTy VMap;
  Function *NoApi = CloneFunction(&F, VMap);
  NoApi->setName(F.getName() + kNoApiCopySuffix);
  NoApi->setLinkage(GlobalValue::InternalLinkage);
  NoApi->setVisibility(GlobalValue::DefaultVisibility);
  NoApi->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  NoApi->setComdat(F.getComdat());
  SmallVector<CallBase *, 16> Hooks;
  for (Instruction &I : instructions(*NoApi))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Callee = Call->getCalledFunction();
          Callee && (Callee->getName() == "__snag_api_begin" ||
                     Callee->getName() == "__snag_api_end"))
        Hooks.push_back(Call);
  for (CallBase *Call : Hooks)
    Call->eraseFromParent();

  // The check after the entry block's allocas, which must stay there.
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> IRB(&*At);
  Type *Int32 = Type::getInt32Ty(F.getContext());
  Value *Off = IRB.CreateICmpEQ(IRB.CreateAlignedLoad(Int32, Wanted, Align(4)),
                                ConstantInt::get(Int32, 0));
  Instruction *Unreachable = SplitBlockAndInsertIfThen(Off, &*At, /*Unreachable=*/true);
  IRB.SetInsertPoint(Unreachable);
  SmallVector<Value *, 8> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  CallInst *Tail = IRB.CreateCall(NoApi, Args);
  Tail->setTailCallKind(CallInst::TCK_MustTail);
  Tail->setCallingConv(F.getCallingConv());
  Tail->setAttributes(F.getAttributes());
  if (DISubprogram *SP = F.getSubprogram())
    Tail->setDebugLoc(DILocation::get(F.getContext(), SP->getLine(), 0, SP));
  if (F.getReturnType()->isVoidTy())
    IRB.CreateRetVoid();
  else
    IRB.CreateRet(Tail);
  Unreachable->eraseFromParent();
}

} // namespace

bool guardApiCallsInLoops(Module &M, FunctionAnalysisManager &FAM) {
  SmallVector<CallInst *, 32> Calls;
  for (StringRef Name : {"__snag_api_begin", "__snag_api_end"})
    if (Function *Hook = M.getFunction(Name))
      for (User *U : Hook->users())
        if (auto *Call = dyn_cast<CallInst>(U); Call && Call->getCalledFunction() == Hook)
          Calls.push_back(Call);
  // Which calls are in loops, before any block is split, and which
  // functions have one in a tight loop: a function copies itself only for
  // those. A loop with more loads and stores of its own than
  // kMaxLoopAccessesChecked (the inline race checks' bound, RaceFastPath.h)
  // spends its time elsewhere than in a guard's load and branch, and the
  // copy doubled the code of every function with API calls in such a loop:
  // leveldb's db_test.cc, whose test bodies are each one do { ... } while
  // over configurations, took 13.1 s to compile against 8.5 s without the
  // copies (plain clang++: 4.9 s).
  DenseMap<const Loop *, unsigned> OwnAccesses;
  auto ownAccesses = [&](const Loop &L, const LoopInfo &LI) {
    auto [It, New] = OwnAccesses.try_emplace(&L, 0);
    if (New)
      for (BasicBlock *BB : L.blocks())
        if (LI.getLoopFor(BB) == &L)
          for (Instruction &I : *BB)
            It->second += isa<LoadInst>(I) || isa<StoreInst>(I);
    return It->second;
  };
  SmallPtrSet<Function *, 8> InTightLoop;
  llvm::erase_if(Calls, [&](CallInst *Call) {
    Function &F = *Call->getFunction();
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    const Loop *L = LI.getLoopFor(Call->getParent());
    if (!L)
      return true;
    if (ownAccesses(*L, LI) <= kMaxLoopAccessesChecked)
      InTightLoop.insert(&F);
    return false;
  });
  if (Calls.empty())
    return false;
  Type *Int32 = Type::getInt32Ty(M.getContext());
  auto *Wanted = cast<GlobalVariable>(M.getOrInsertGlobal("__snag_api_calls_wanted", Int32));
  // A function that can be versioned is (versionApiCalls); in the others
  // each hook in a loop runs behind the flag. A plain load: the runtime sets
  // the flag before main (preinit) and when a forked child of snag explore
  // changes engines, never while this thread runs a function of the program.
  SmallPtrSet<Function *, 8> Versioned;
  for (CallInst *Call : Calls) {
    Function &F = *Call->getFunction();
    if (Versioned.count(&F))
      continue;
    if (InTightLoop.count(&F) && canVersion(F)) {
      versionApiCalls(F, Wanted);
      Versioned.insert(&F);
      continue;
    }
    IRBuilder<> IRB(Call);
    LoadInst *On = IRB.CreateAlignedLoad(Int32, Wanted, Align(4));
    Instruction *Then = SplitBlockAndInsertIfThen(
        IRB.CreateICmpNE(On, ConstantInt::get(Int32, 0)), Call, false);
    Call->moveBefore(Then);
  }
  return true;
}

} // namespace snag
