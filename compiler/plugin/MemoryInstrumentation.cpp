#include "MemoryInstrumentation.h"

#include "AccessGroups.h"
#include "LoopRanges.h"
#include "OptOut.h"
#include "RaceFastPath.h"
#include "RedundantAccesses.h"
#include "RuntimeHooks.h"
#include "snag/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <optional>

using namespace llvm;

namespace snag {

namespace {

snag_memory_order toSnagOrder(AtomicOrdering Order) {
  switch (Order) {
  case AtomicOrdering::Acquire:
    return SNAG_ACQUIRE;
  case AtomicOrdering::Release:
    return SNAG_RELEASE;
  case AtomicOrdering::AcquireRelease:
    return SNAG_ACQ_REL;
  case AtomicOrdering::SequentiallyConsistent:
    return SNAG_SEQ_CST;
  case AtomicOrdering::NotAtomic: // not reached: only atomics get here
  case AtomicOrdering::Unordered:
  case AtomicOrdering::Monotonic:
    break;
  }
  return SNAG_RELAXED;
}

// log2 of a size the fixed-size hooks take (1, 2, 4, 8, 16 bytes).
std::optional<unsigned> fixedSizeLog2(uint64_t Bytes) {
  switch (Bytes) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 4:
    return 2;
  case 8:
    return 3;
  case 16:
    return 4;
  default:
    return std::nullopt;
  }
}

// A plain load or store that will get a hook.
struct PlainAccess {
  Instruction *Inst;
  Value *Addr;
  uint64_t Bytes;
  bool IsWrite;
  bool IsScalar; // integer, floating-point or pointer: may use a fixed hook
  bool IsVolatile;
  // The loop-range question whose answer says when the hook may be skipped
  // (LoopRanges.h); none: always call it.
  std::optional<LoopRanges::Question> Skip;
  // True when an earlier access covers it on every path (RedundantAccesses.h):
  // the hook runs only while __snag_every_access is set.
  bool Redundant = false;
  // Inside a loop (RaceFastPathChecks::LoopsOnly).
  bool InLoop = false;
};

// The libc functions whose calls are treated like the intrinsics.
enum class MemOpKind { Copy, Set };

// A memcpy/memmove/memset that will get hooks, and for which of its ranges.
struct MemOp {
  CallBase *Call;
  Value *Source; // null for memset or when the source is not interesting
  Value *Dest;   // null when the destination is not interesting
};

std::optional<MemOpKind> memOpKind(const CallBase &Call) {
  if (isa<MemTransferInst>(Call)) // memcpy, memcpy.inline, memmove
    return MemOpKind::Copy;
  if (isa<MemSetInst>(Call))
    return MemOpKind::Set;
  const auto *Callee =
      dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
  if (!Callee || Callee->isIntrinsic() || Call.arg_size() != 3 ||
      !Call.getArgOperand(0)->getType()->isPointerTy())
    return std::nullopt;
  StringRef Name = Callee->getName();
  if ((Name == "memcpy" || Name == "memmove") &&
      Call.getArgOperand(1)->getType()->isPointerTy())
    return MemOpKind::Copy;
  if (Name == "memset")
    return MemOpKind::Set;
  return std::nullopt;
}

// The block of a versioned function that hands the call to its copy
// without API hooks (ApiCallMarking.cpp, versionApiCalls): a musttail call
// of F's copy and a return. Null for any other function.
BasicBlock *copyHandOver(Function &F) {
  for (BasicBlock &BB : F)
    if (CallInst *Call = BB.getTerminatingMustTailCall())
      if (Function *Callee = Call->getCalledFunction();
          Callee && Callee->getName() == (F.getName() + kNoApiCopySuffix).str())
        return &BB;
  return nullptr;
}

// Calls whose site goes to __snag_call_site: real calls, i.e. not
// intrinsics, inline assembly or snag's own hooks.
bool isCallSite(const CallBase &Call) {
  if (Call.isInlineAsm())
    return false;
  const auto *Callee =
      dyn_cast<Function>(Call.getCalledOperand()->stripPointerCasts());
  return !Callee || (!Callee->isIntrinsic() &&
                     !RuntimeHooks::isHookName(Callee->getName()));
}

class FunctionInstrumenter {
public:
  FunctionInstrumenter(Function &F, const InstrumentKinds &Kinds,
                       RuntimeHooks &Hooks, SiteTable &Sites,
                       const GuardSites *Guard, FunctionAnalysisManager *FAM,
                       const RaceFastPathChecks &RaceChecks)
      : F(F), DL(F.getParent()->getDataLayout()), Kinds(Kinds), Hooks(Hooks),
        Sites(Sites), Guard(Guard), FAM(FAM), RaceChecks(RaceChecks) {}

  bool run() {
    collect();
    askBeforeLoops();
    findRedundantAccesses();
    findLoopAccesses();
    findGroups();
    // Sites are created in instruction order within each kind, which is
    // what their ordinals count.
    uint64_t FunctionSite = Kinds.Functions
                                ? Sites.addSite(F, nullptr, SNAG_SITE_FUNCTION)
                                : 0;
    for (const PlainAccess &Access : PlainAccesses)
      instrumentPlain(Access);
    for (Instruction *I : Atomics)
      instrumentAtomic(I);
    for (const MemOp &Op : MemOps)
      instrumentMemOp(Op);
    // Exits before call-site stores, so that for a musttail call (exit hook
    // before the call) the store stays right before the call.
    if (Kinds.Functions)
      instrumentEntryAndExits(FunctionSite);
    for (CallBase *Call : Calls)
      storeCallSite(*Call);
    askOnLoopEntries();
    return Kinds.Functions || !PlainAccesses.empty() || !Atomics.empty() ||
           !MemOps.empty();
  }

private:
  // Finds everything to instrument before changing anything, so that the
  // inserted hooks are never themselves instrumented.
  void collect() {
    for (BasicBlock &BB : F) {
      // Accesses already instrumented in this block since the last call:
      // a later access to the same address that they cover is skipped.
      SmallVector<PlainAccess, 8> Covered;
      for (Instruction &I : BB) {
        if (isa<DbgInfoIntrinsic>(I))
          continue;
        if (I.isAtomic()) {
          Covered.clear();
          if (Kinds.Atomics && isInstrumentableAtomic(I))
            Atomics.push_back(&I);
          continue;
        }
        if (auto *Call = dyn_cast<CallBase>(&I)) {
          // The callee may synchronize with other threads.
          Covered.clear();
          if (Kinds.MemOps)
            if (std::optional<MemOp> Op = memOp(*Call))
              MemOps.push_back(*Op);
          if (Kinds.Functions && isCallSite(*Call) && Call->getParent() != HandOver)
            Calls.push_back(Call);
          continue;
        }
        if (Kinds.Memory)
          if (std::optional<PlainAccess> Access = plainAccess(I)) {
            // Each volatile access is one the program asks for: another
            // thread may change the value between two of them (a re-read
            // after a check), and `snag explore` needs a scheduling point
            // before every one.
            if (Access->IsVolatile) {
              PlainAccesses.push_back(*Access);
            } else if (!isCovered(*Access, Covered)) {
              Covered.push_back(*Access);
              PlainAccesses.push_back(*Access);
            }
          }
      }
    }
  }

  std::optional<PlainAccess> plainAccess(Instruction &I) {
    Value *Addr;
    Type *Ty;
    bool IsWrite;
    if (auto *Load = dyn_cast<LoadInst>(&I)) {
      Addr = Load->getPointerOperand();
      Ty = Load->getType();
      IsWrite = false;
    } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
      Addr = Store->getPointerOperand();
      Ty = Store->getValueOperand()->getType();
      IsWrite = true;
    } else {
      return std::nullopt;
    }
    TypeSize Size = DL.getTypeStoreSize(Ty);
    if (Size.isScalable() || Size.getFixedSize() == 0 ||
        !isInterestingAddress(Addr))
      return std::nullopt;
    bool IsScalar = Ty->isIntegerTy() || Ty->isFloatingPointTy() ||
                    Ty->isPointerTy();
    return PlainAccess{&I, Addr, Size.getFixedSize(), IsWrite, IsScalar,
                       isVolatileAccess(I)};
  }

  // Before anything splits a block (the loop analyses describe the function
  // as it was): the loop-range questions of plain accesses in loops. Not in
  // a lean guard build, whose hooks have their own inline check, and not for
  // volatile accesses, each of which the program asks for.
  void askBeforeLoops() {
    if (!FAM || Guard || PlainAccesses.empty())
      return;
    LoopInfo &LI = FAM->getResult<LoopAnalysis>(F);
    if (LI.empty())
      return;
    LoopRanges Ranges(LI, FAM->getResult<ScalarEvolutionAnalysis>(F), Hooks);
    for (PlainAccess &Access : PlainAccesses)
      // A vtable-pointer store has a branch of its own (emitVtablePointerWrite).
      if (!Access.IsVolatile && !isVtablePointerStore(*Access.Inst))
        if (const LoopRanges::Question *Q = Ranges.skipQuestion(
                Access.Inst, Access.Addr, Access.Bytes, Access.IsWrite))
          Access.Skip = *Q;
  }

  // Last: each loop-range question moves onto the edge into its loop.
  void askOnLoopEntries() {
    std::vector<LoopRanges::Question> Questions;
    DenseSet<const AllocaInst *> Seen;
    for (const PlainAccess &Access : PlainAccesses)
      if (Access.Skip && Seen.insert(Access.Skip->Slot).second)
        Questions.push_back(*Access.Skip);
    LoopRanges::askOnEntryOnly(Questions);
  }

  // After the loop-range questions (an access whose hook they may skip covers
  // nothing), before any block is split. Not in a lean guard build, where an
  // earlier access may have no hook at all, and not for vtable-pointer
  // stores, whose hook runs only when the pointer changes. Volatile accesses
  // are left out: the analysis treats each one as synchronization.
  void findRedundantAccesses() {
    if (Guard || PlainAccesses.size() < 2)
      return;
    DenseMap<const Instruction *, TrackedAccess> Tracked;
    for (const PlainAccess &Access : PlainAccesses) {
      if (Access.IsVolatile)
        continue;
      bool Vptr = isVtablePointerStore(*Access.Inst);
      Tracked[Access.Inst] = TrackedAccess{Access.Addr, Access.Bytes,
                                           Access.IsWrite,
                                           !Access.Skip.has_value() && !Vptr, !Vptr};
    }
    DenseSet<const Instruction *> Covered = findCoveredAccesses(F, Tracked);
    for (PlainAccess &Access : PlainAccesses)
      Access.Redundant = Covered.count(Access.Inst) != 0;
  }

  // Before any block is split: which accesses are inside a loop, for an
  // inline race check emitted in loops only. A function gets at most
  // kMaxInlineRaceChecks of them, the most deeply nested first (in program
  // order among equals); its other accesses call the hook directly, as
  // accesses outside loops do. Each check is a few blocks of code, and a
  // function with hundreds of accesses in loops (a test body with many
  // inlined lambdas and containers) grew so large that the backend's time,
  // which grows faster than the code, made a build take 7x a plain one's
  // CPU time (BS::thread_pool's test: 214 s against 30 s, 40 s without
  // the checks). Hot loops are few and small, so the budget leaves them
  // their checks.
  void findLoopAccesses() {
    if (!FAM || !RaceChecks.any() || !RaceChecks.LoopsOnly || PlainAccesses.empty())
      return;
    LoopInfo &LI = FAM->getResult<LoopAnalysis>(F);
    // A loop with more accesses of its own than kMaxLoopAccessesChecked
    // spends its time elsewhere than in them: leveldb's db_test.cc, whose
    // test bodies are each one such loop, took 31 s to compile against 5 s
    // plain, 8 s without checks.
    DenseMap<const Loop *, unsigned> OwnAccesses;
    for (PlainAccess &Access : PlainAccesses)
      if (const Loop *L = LI.getLoopFor(Access.Inst->getParent()))
        ++OwnAccesses[L];
    SmallVector<std::pair<unsigned, PlainAccess *>, 64> InLoops;
    for (PlainAccess &Access : PlainAccesses) {
      const Loop *L = LI.getLoopFor(Access.Inst->getParent());
      if (L && OwnAccesses[L] <= kMaxLoopAccessesChecked)
        InLoops.push_back({L->getLoopDepth(), &Access});
    }
    std::stable_sort(InLoops.begin(), InLoops.end(),
                     [](const auto &A, const auto &B) { return A.first > B.first; });
    if (InLoops.size() > kMaxInlineRaceChecks)
      InLoops.resize(kMaxInlineRaceChecks);
    for (auto &Entry : InLoops)
      Entry.second->InLoop = true;
  }

  // The groups of accesses one check answers (AccessGroups.h), in loops and
  // outside them: outside, where an access gets no check of its own with
  // LoopsOnly, a group's one check stands for its members' hook calls (a
  // sort's step moving one string in the vector outside its loop: a dozen
  // calls). Members are accesses the inline check could take (aligned, of
  // one granule at most), not covered ones (their hook is off under race
  // alone anyway), volatile ones or vtable-pointer stores (a branch of
  // their own), not those a loop-range question answers (the group's check
  // would run on every iteration of a loop whose hooks the question skips,
  // and skip the question's second asking: pipeline's payload loops, +13%
  // instructions), and not of a local or global variable, which is no heap
  // block (the group's check asks remembered blocks only). At most
  // kMaxInlineRaceChecks groups a function, as the checks.
  void findGroups() {
    if (!RaceChecks.Groups || !RaceChecks.RememberedBlocks)
      return;
    LoopInfo *LI = FAM ? &FAM->getResult<LoopAnalysis>(F) : nullptr;
    DenseMap<const Instruction *, GroupCandidate> Candidates;
    for (const PlainAccess &Access : PlainAccesses) {
      if (Access.IsVolatile || Access.Redundant || Access.Skip || !Access.IsScalar ||
          !fixedSizeLog2(Access.Bytes) || isVtablePointerStore(*Access.Inst) ||
          !mayCheckInline(Access))
        continue;
      if (isLocalOrGlobal(Access.Addr))
        continue;
      const Loop *L = LI ? LI->getLoopFor(Access.Inst->getParent()) : nullptr;
      Candidates[Access.Inst] = GroupCandidate{Access.Addr, Access.Bytes, Access.IsWrite, L};
    }
    Groups = findAccessGroups(F, Candidates);
    if (Groups.Groups.size() > kMaxInlineRaceChecks) {
      Groups.Groups.resize(kMaxInlineRaceChecks);
      SmallVector<const Instruction *, 16> Dropped;
      for (const auto &Entry : Groups.GroupOf)
        if (Entry.second >= kMaxInlineRaceChecks)
          Dropped.push_back(Entry.first);
      for (const Instruction *Member : Dropped)
        Groups.GroupOf.erase(Member);
    }
    GroupAnswers.assign(Groups.Groups.size(), nullptr);
  }

  // The answer of the group `Access` belongs to (emitted before its head
  // the first time a member asks), or null when it belongs to none. Must be
  // called before anything is inserted at `Access`.
  Value *groupAnswer(const PlainAccess &Access) {
    auto It = Groups.GroupOf.find(Access.Inst);
    if (It == Groups.GroupOf.end())
      return nullptr;
    Value *&Answer = GroupAnswers[It->second];
    if (!Answer) {
      const AccessGroup &G = Groups.Groups[It->second];
      Answer = insertRaceGroupCheck(G.Head, G.Base, G.Offset, G.Bytes, G.AnyWrite);
    }
    return Answer;
  }

  // Whether a fixed-size hook gets the race engine's inline check before it
  // (RaceFastPath.h): not in a lean guard build (its own check), not at -O0,
  // only for accesses of one granule at most, aligned to their size (so
  // they stay inside one granule), and in loops if so asked.
  bool wantsRaceCheck(const PlainAccess &Access) const {
    return mayCheckInline(Access) && (!RaceChecks.LoopsOnly || Access.InLoop);
  }
  bool mayCheckInline(const PlainAccess &Access) const {
    if (!RaceChecks.any() || Guard || F.hasOptNone() || Access.Bytes > 8)
      return false;
    return getLoadStoreAlignment(Access.Inst).value() >= Access.Bytes;
  }

  // A local's or a global's address: no heap block holds it (a thread
  // stack the program allocated itself is a heap block, but the granule's
  // word then names the block and the hook answers).
  static bool isLocalOrGlobal(const Value *Addr) {
    const Value *Object = getUnderlyingObject(Addr);
    return isa<AllocaInst>(Object) || isa<GlobalVariable>(Object);
  }

  std::optional<MemOp> memOp(CallBase &Call) {
    std::optional<MemOpKind> Kind = memOpKind(Call);
    if (!Kind)
      return std::nullopt;
    Value *Dest = Call.getArgOperand(0);
    Value *Source = *Kind == MemOpKind::Copy ? Call.getArgOperand(1) : nullptr;
    if (Source && !isInterestingAddress(Source))
      Source = nullptr;
    if (!isInterestingAddress(Dest))
      Dest = nullptr;
    if (!Source && !Dest)
      return std::nullopt;
    return MemOp{&Call, Source, Dest};
  }

  // An earlier access covers a later one to the same address if it is at
  // least as large and it is a write or the later one is a read.
  static bool isVolatileAccess(const Instruction &I) {
    if (const auto *Load = dyn_cast<LoadInst>(&I))
      return Load->isVolatile();
    if (const auto *Store = dyn_cast<StoreInst>(&I))
      return Store->isVolatile();
    return false;
  }

  static bool isCovered(const PlainAccess &Access,
                        ArrayRef<PlainAccess> Covered) {
    return any_of(Covered, [&](const PlainAccess &Earlier) {
      return Earlier.Addr == Access.Addr && Earlier.Bytes >= Access.Bytes &&
             (Earlier.IsWrite || !Access.IsWrite);
    });
  }

  // False for memory no other thread can see or that never changes:
  // locals whose address does not escape, constant globals, and the
  // compiler's and snag's own globals.
  bool isInterestingAddress(Value *Addr) {
    if (Addr->getType()->getPointerAddressSpace() != 0)
      return false;
    const Value *Object = getUnderlyingObject(Addr);
    if (const auto *GV = dyn_cast<GlobalVariable>(Object))
      return !GV->isConstant() && !GV->getName().startswith("__llvm_") &&
             !RuntimeHooks::isHookName(GV->getName());
    if (isa<AllocaInst>(Object)) {
      auto [It, Inserted] = AllocaEscapes.try_emplace(Object, false);
      if (Inserted)
        It->second = PointerMayBeCaptured(Object, /*ReturnCaptures=*/true,
                                          /*StoreCaptures=*/true);
      return It->second;
    }
    return true;
  }

  bool isInstrumentableAtomic(Instruction &I) {
    if (auto *Fence = dyn_cast<FenceInst>(&I))
      // atomic_signal_fence orders against a signal handler on this thread
      // only; passing it on would invent inter-thread synchronization.
      return Fence->getSyncScopeID() != SyncScope::SingleThread;
    Value *Addr = getLoadStorePointerOperand(&I);
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Addr = RMW->getPointerOperand();
    else if (auto *CAS = dyn_cast<AtomicCmpXchgInst>(&I))
      Addr = CAS->getPointerOperand();
    return Addr && Addr->getType()->getPointerAddressSpace() == 0;
  }

  // A lean guard build checks the guard recorder's slot inline (its layout
  // and index are fixed in include/snag/abi.h): when the
  // newest access to the granule was this thread at this site, the access
  // changes nothing and the hook is skipped; otherwise the hook runs. Under
  // any other engine the runtime points the table at one empty slot with a
  // zero mask, so every access calls the hook as usual.
  void emitGuardFastPath(Instruction *Before, Value *Addr, uint64_t Site,
                         FunctionCallee Hook) {
    Module &M = *F.getParent();
    LLVMContext &C = M.getContext();
    Type *I64 = Type::getInt64Ty(C), *I32 = Type::getInt32Ty(C);
    PointerType *BytePtr = Hooks.bytePtrTy();
    auto *SlotsVar = cast<GlobalVariable>(M.getOrInsertGlobal("__snag_guard_slots", BytePtr));
    auto *MaskVar = cast<GlobalVariable>(M.getOrInsertGlobal("__snag_guard_mask", I64));
    auto *TidVar = cast<GlobalVariable>(M.getOrInsertGlobal("__snag_guard_tid", I32));
    TidVar->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
    IRBuilder<> IRB(Before);
    auto Relaxed = [&](Type *Ty, Value *Ptr, Align A) {
      LoadInst *L = IRB.CreateAlignedLoad(Ty, Ptr, A);
      L->setAtomic(AtomicOrdering::Monotonic);
      return L;
    };
    // The mask first, with acquire: the runtime stores the table before the
    // mask, so a large mask never indexes the one empty slot.
    LoadInst *Mask = IRB.CreateAlignedLoad(I64, MaskVar, Align(8));
    Mask->setAtomic(AtomicOrdering::Acquire);
    Value *Slots = Relaxed(BytePtr, SlotsVar, Align(8));
    Value *A = IRB.CreatePtrToInt(Addr, I64);
    Value *Granule = IRB.CreateAdd(IRB.CreateAnd(A, ConstantInt::get(I64, ~uint64_t{7})),
                                   ConstantInt::get(I64, 8));
    Value *Index = IRB.CreateAdd(
        IRB.CreateLShr(Granule, 3),
        IRB.CreateMul(IRB.CreateLShr(Granule, 3 + SNAG_GUARD_SLOTS_LOG2),
                      ConstantInt::get(I64, SNAG_GUARD_WINDOW_HASH)));
    Index = IRB.CreateAnd(Index, Mask);
    Value *Slot = IRB.CreateGEP(IRB.getInt8Ty(), Slots,
                                IRB.CreateMul(Index, ConstantInt::get(I64, SNAG_GUARD_SLOT_SIZE)));
    auto Field = [&](unsigned Offset, Type *Ty) {
      Value *P = IRB.CreateGEP(IRB.getInt8Ty(), Slot, ConstantInt::get(I64, Offset));
      return Relaxed(Ty, IRB.CreateBitCast(P, Ty->getPointerTo()), Align(Ty == I64 ? 8 : 4));
    };
    Value *Same = IRB.CreateAnd(
        IRB.CreateICmpEQ(Field(0, I64), Granule),
        IRB.CreateAnd(IRB.CreateICmpEQ(Field(SNAG_GUARD_SLOT_SITE_OFFSET, I64),
                                       ConstantInt::get(I64, Site)),
                      IRB.CreateICmpEQ(Field(SNAG_GUARD_SLOT_THREAD_OFFSET, I32),
                                       Relaxed(I32, TidVar, Align(4)))));
    Instruction *Then = SplitBlockAndInsertIfThen(IRB.CreateNot(Same), Before, false);
    IRBuilder<> Call(Then);
    Call.CreateCall(Hook, {Addr, siteConstant(Site)});
  }

  // A constructor or destructor stores the object's vtable pointer (clang
  // tags that store's TBAA "vtable pointer"). A derived class's destructor
  // stores the value the pointer already has, while another thread may still
  // make virtual calls through it: the memory does not change, so this is no
  // write to race with (ThreadSanitizer's __tsan_vptr_update counts it only
  // when the value changes, too).
  static bool isVtablePointerStore(const Instruction &I) {
    const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa);
    return isa<StoreInst>(I) && Tag && Tag->isTBAAVtableAccess();
  }

  void emitVtablePointerWrite(StoreInst *Store, Value *Addr, uint64_t Site,
                              FunctionCallee Hook) {
    IRBuilder<> IRB(Store);
    Value *New = Store->getValueOperand();
    Value *Old = IRB.CreateLoad(New->getType(), Store->getPointerOperand());
    Instruction *Then =
        SplitBlockAndInsertIfThen(IRB.CreateICmpNE(Old, New), Store, false);
    IRBuilder<> Call(Then);
    Call.CreateCall(Hook, {Addr, siteConstant(Site)});
  }

  Value *siteConstant(uint64_t Site) {
    return ConstantInt::get(Hooks.siteTy(), Site);
  }

  Value *i32(uint32_t Value) { return ConstantInt::get(Hooks.i32Ty(), Value); }

  void instrumentPlain(const PlainAccess &Access) {
    // First: it may split the block of the group's head, this access's too.
    Value *GroupSaysDone = groupAnswer(Access);
    IRBuilder<> IRB(Access.Inst);
    uint64_t Site = Sites.addSite(
        F, Access.Inst, Access.IsWrite ? SNAG_SITE_WRITE : SNAG_SITE_READ);
    // A lean guard build: the site keeps its id (so ordinals, and with
    // them the ids of later sites, match the full build the invariants
    // were learned from) but gets no hook unless the invariants need it.
    if (Guard && !Guard->allows(Site))
      return;
    // The hook runs only when the question before the loop said no, and for
    // a covered access only while an engine wants every access.
    Value *RunHook = nullptr;
    if (Access.Skip)
      RunHook = IRB.CreateICmpNE(IRB.CreateLoad(IRB.getInt8Ty(), Access.Skip->Slot),
                                 ConstantInt::get(IRB.getInt8Ty(), LoopRanges::kSkip));
    if (Access.Redundant) {
      // A plain load: the runtime sets the flag before main and when a forked
      // child of snag explore changes engines, never while this code runs.
      Value *Every = IRB.CreateICmpNE(
          IRB.CreateAlignedLoad(Hooks.i32Ty(), Hooks.everyAccessFlag(), Align(4)),
          i32(0));
      RunHook = RunHook ? IRB.CreateAnd(RunHook, Every) : Every;
    }
    // The hook and its own check run only when the group's check said no.
    if (GroupSaysDone) {
      Value *GroupNo = IRB.CreateNot(GroupSaysDone, "snag.group.ask");
      RunHook = RunHook ? IRB.CreateAnd(RunHook, GroupNo) : GroupNo;
    }
    // The end of the code that runs when the hook may (RunHook): an inline
    // check and the hook's call go before it.
    Instruction *HookEnd = nullptr;
    if (RunHook) {
      HookEnd = SplitBlockAndInsertIfThen(RunHook, Access.Inst, false);
      IRB.SetInsertPoint(HookEnd);
    }
    Value *Addr = IRB.CreatePointerCast(Access.Addr, Hooks.bytePtrTy());
    std::optional<unsigned> SizeLog2 =
        Access.IsScalar ? fixedSizeLog2(Access.Bytes) : std::nullopt;
    if (SizeLog2) {
      FunctionCallee Hook =
          Access.IsWrite ? Hooks.write(*SizeLog2) : Hooks.read(*SizeLog2);
      if (Guard) {
        emitGuardFastPath(Access.Inst, Addr, Site, Hook);
        return;
      }
      if (isVtablePointerStore(*Access.Inst)) {
        emitVtablePointerWrite(cast<StoreInst>(Access.Inst), Addr, Site, Hook);
        return;
      }
      if (wantsRaceCheck(Access))
        IRB.SetInsertPoint(insertRaceFastPath(RaceChecks, &*IRB.GetInsertPoint(), Addr,
                                              Access.Bytes, Access.IsWrite,
                                              isLocalOrGlobal(Access.Addr)));
      IRB.CreateCall(Hook, {Addr, siteConstant(Site)});
      askAgainBefore(HookEnd, Access);
      return;
    }
    FunctionCallee Hook = Access.IsWrite ? Hooks.writeRange() : Hooks.readRange();
    IRB.CreateCall(Hook, {Addr, ConstantInt::get(Hooks.sizeTy(), Access.Bytes),
                          siteConstant(Site)});
    askAgainBefore(HookEnd, Access);
  }

  // After the first access of a run of the loop whose loop-range question
  // said no (`End`: where its inline check and its hook, if either ran,
  // have done their work): the question once more. The no before the loop
  // is often only that first access's work -- a block the thread owned in
  // an earlier epoch, or a new block's first touch --, which its hook, or
  // another access's hook before it in the iteration, has just done; from
  // then on the loop's accesses to the range change nothing (pipeline's
  // item loops, a vector filled after its allocation), and the remaining
  // iterations skip their hooks. The answer holds for the rest of the loop
  // for the reason the first one would have: the loop cannot synchronize.
  // Once per run of the loop, so that a range that stays no (another
  // thread's data, an array of granules renewed one by one) costs one
  // question more, not one per iteration.
  void askAgainBefore(Instruction *End, const PlainAccess &Access) {
    if (!Access.Skip || !End)
      return;
    const LoopRanges::Question *Q = &*Access.Skip;
    IRBuilder<> IRB(End);
    IRB.SetCurrentDebugLocation(Access.Inst->getDebugLoc());
    Type *I8 = IRB.getInt8Ty();
    Value *First = IRB.CreateICmpEQ(IRB.CreateLoad(I8, Q->Slot),
                                    ConstantInt::get(I8, LoopRanges::kAskAgain));
    Instruction *Then = SplitBlockAndInsertIfThen(First, End, false);
    IRB.SetInsertPoint(Then);
    Value *Answer = IRB.CreateCall(Q->Callee, Q->Args);
    IRB.CreateStore(IRB.CreateSelect(IRB.CreateICmpNE(Answer, i32(0)),
                                     ConstantInt::get(I8, LoopRanges::kSkip),
                                     ConstantInt::get(I8, LoopRanges::kNo)),
                    Q->Slot);
  }

  void instrumentAtomic(Instruction *I) {
    IRBuilder<> IRB(I);
    if (auto *Fence = dyn_cast<FenceInst>(I)) {
      uint64_t Site = Sites.addSite(F, I, SNAG_SITE_FENCE);
      IRB.CreateCall(Hooks.fence(), {i32(toSnagOrder(Fence->getOrdering())),
                                     siteConstant(Site)});
      return;
    }

    Value *Addr;
    Type *ValueTy;
    snag_atomic_op Op;
    AtomicOrdering Order, FailureOrder;
    if (auto *Load = dyn_cast<LoadInst>(I)) {
      Addr = Load->getPointerOperand();
      ValueTy = Load->getType();
      Op = SNAG_ATOMIC_LOAD;
      Order = FailureOrder = Load->getOrdering();
    } else if (auto *Store = dyn_cast<StoreInst>(I)) {
      Addr = Store->getPointerOperand();
      ValueTy = Store->getValueOperand()->getType();
      Op = SNAG_ATOMIC_STORE;
      Order = FailureOrder = Store->getOrdering();
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
      Addr = RMW->getPointerOperand();
      ValueTy = RMW->getValOperand()->getType();
      Op = SNAG_ATOMIC_RMW;
      Order = FailureOrder = RMW->getOrdering();
    } else {
      auto *CAS = cast<AtomicCmpXchgInst>(I);
      Addr = CAS->getPointerOperand();
      ValueTy = CAS->getCompareOperand()->getType();
      Op = SNAG_ATOMIC_CMPXCHG;
      Order = CAS->getSuccessOrdering();
      FailureOrder = CAS->getFailureOrdering();
    }

    uint64_t Site = Sites.addSite(F, I, SNAG_SITE_ATOMIC);
    Value *BytePtr = IRB.CreatePointerCast(Addr, Hooks.bytePtrTy());
    Value *Size = i32(DL.getTypeStoreSize(ValueTy).getFixedSize());
    IRB.CreateCall(Hooks.atomicBefore(), {BytePtr, Size, i32(Op),
                                          i32(toSnagOrder(Order)),
                                          siteConstant(Site)});
    if (Op == SNAG_ATOMIC_STORE)
      return;

    IRBuilder<> After(I->getNextNode());
    After.SetCurrentDebugLocation(I->getDebugLoc());
    Value *Succeeded = i32(1);
    if (Op == SNAG_ATOMIC_CMPXCHG)
      Succeeded = After.CreateZExt(After.CreateExtractValue(I, 1), Hooks.i32Ty());
    After.CreateCall(Hooks.atomicAfter(),
                     {BytePtr, Size, i32(Op), i32(toSnagOrder(Order)),
                      i32(toSnagOrder(FailureOrder)), Succeeded,
                      siteConstant(Site)});
  }

  // The original call stays; the hooks describe the ranges it touches.
  void instrumentMemOp(const MemOp &Op) {
    IRBuilder<> IRB(Op.Call);
    uint64_t Site = Sites.addSite(F, Op.Call, SNAG_SITE_MEMOP);
    Value *Length =
        IRB.CreateIntCast(Op.Call->getArgOperand(2), Hooks.sizeTy(), false);
    if (Op.Source)
      IRB.CreateCall(Hooks.readRange(),
                     {IRB.CreatePointerCast(Op.Source, Hooks.bytePtrTy()),
                      Length, siteConstant(Site)});
    if (Op.Dest)
      IRB.CreateCall(Hooks.writeRange(),
                     {IRB.CreatePointerCast(Op.Dest, Hooks.bytePtrTy()), Length,
                      siteConstant(Site)});
  }

  // __snag_func_exit runs before every `ret` and `resume`. Frames left by
  // other means (an exception unwinding through a call, longjmp) are dropped
  // by the runtime using the frame address given to __snag_func_entry, so
  // calls need not be wrapped in cleanup landing pads.
  // A versioned function's hand-over to its copy is no frame of its own:
  // the copy has its entry and exit hooks, and it keeps the call site the
  // caller stored (stacks showed the function twice, the second time at its
  // own first line). So the entry hook goes after the hand-over's branch,
  // and the hand-over gets no exit hook and no call-site store.
  void instrumentEntryAndExits(uint64_t FunctionSite) {
    BasicBlock *EntryBlock = &F.getEntryBlock();
    if (HandOver)
      for (BasicBlock *Next : successors(EntryBlock))
        if (Next != HandOver)
          EntryBlock = Next;
    IRBuilder<> Entry(&*EntryBlock->getFirstInsertionPt());
    Function *FrameAddress = Intrinsic::getDeclaration(
        F.getParent(), Intrinsic::frameaddress, {Hooks.bytePtrTy()});
    Value *Frame = Entry.CreateCall(FrameAddress, {i32(0)});
    Entry.CreateCall(Hooks.funcEntry(), {siteConstant(FunctionSite), Frame});

    for (BasicBlock &BB : F) {
      Instruction *Exit = BB.getTerminator();
      if ((!isa<ReturnInst>(Exit) && !isa<ResumeInst>(Exit)) || &BB == HandOver)
        continue;
      // Nothing may come between a musttail call and its return.
      if (CallInst *TailCall = BB.getTerminatingMustTailCall())
        Exit = TailCall;
      IRBuilder<>(Exit).CreateCall(Hooks.funcExit(), {});
    }
  }

  // One thread-local store, so that the callee's __snag_func_entry and the
  // runtime's interceptors know the caller's line.
  void storeCallSite(CallBase &Call) {
    uint64_t Site = Sites.addSite(F, &Call, SNAG_SITE_CALL);
    IRBuilder<>(&Call).CreateStore(siteConstant(Site), Hooks.callSiteSlot());
  }

  Function &F;
  const DataLayout &DL;
  const InstrumentKinds &Kinds;
  RuntimeHooks &Hooks;
  SiteTable &Sites;
  const GuardSites *Guard;
  FunctionAnalysisManager *FAM;
  const RaceFastPathChecks &RaceChecks;
  AccessGroups Groups;
  std::vector<Value *> GroupAnswers; // per group, once emitted

  SmallVector<PlainAccess, 32> PlainAccesses;
  SmallVector<Instruction *, 8> Atomics;
  SmallVector<MemOp, 8> MemOps;
  SmallVector<CallBase *, 16> Calls;
  BasicBlock *HandOver = copyHandOver(F);
  DenseMap<const Value *, bool> AllocaEscapes;
};

// The hooks touch memory the optimizer cannot see. Memory attributes that
// were inferred before instrumentation (readnone, readonly, argmemonly, ...)
// would now be false, and code generation may still act on them, e.g. by
// reordering a call to a readonly function with the hooks around it. Drop
// them from the function and from the calls to it.
void dropMemoryAttributes(Function &F) {
  AttributeMask Attrs;
  for (Attribute::AttrKind Kind :
       {Attribute::ReadNone, Attribute::ReadOnly, Attribute::WriteOnly,
        Attribute::ArgMemOnly, Attribute::InaccessibleMemOnly,
        Attribute::InaccessibleMemOrArgMemOnly, Attribute::Speculatable})
    Attrs.addAttribute(Kind);
  F.removeFnAttrs(Attrs);
  for (User *U : F.users())
    if (auto *Call = dyn_cast<CallBase>(U); Call && Call->getCalledOperand() == &F)
      Call->removeFnAttrs(Attrs);
}

} // namespace

bool instrumentMemory(Module &M, const InstrumentKinds &Kinds,
                      SiteTable &Sites, const GuardSites *Guard,
                      const IgnoreList *Ignore,
                      FunctionAnalysisManager *FAM) {
  if (!Kinds.anyLate())
    return false;
  RuntimeHooks Hooks(M);
  OptOut Exclusions(M);
  RaceFastPathChecks RaceChecks = RaceFastPathChecks::fromEnvironment();
  // Collected first: instrumenting adds hook declarations to the function
  // list.
  SmallVector<Function *, 32> Functions;
  for (Function &F : M)
    if (!Exclusions.isExcluded(F))
      Functions.push_back(&F);
  bool Changed = false;
  for (Function *F : Functions) {
    InstrumentKinds FunctionKinds = Kinds;
    if (Ignore && Ignore->ignoresMemory(*F))
      FunctionKinds.Memory = FunctionKinds.MemOps = false;
    if (FunctionInstrumenter(*F, FunctionKinds, Hooks, Sites, Guard, FAM, RaceChecks).run()) {
      dropMemoryAttributes(*F);
      Changed = true;
    }
  }
  return Changed;
}

} // namespace snag
