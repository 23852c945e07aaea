#include "LoopRanges.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace snag {

namespace {

// Loops that run only a few times gain less than the question costs.
constexpr uint64_t kFewestIterations = 8;

} // namespace

// Intrinsics (memcpy, lifetime markers, math) do not synchronize, nor do
// the API-call markers of thread-unsafe classes (ApiCallMarking.h), which
// only the tsv engine reads; any other call might (a lock, a thread start),
// and so might any atomic or fence.
static bool mayCallSynchronize(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call || isa<IntrinsicInst>(Call))
    return false;
  const Function *Callee = Call->getCalledFunction();
  return !Callee || !Callee->getName().startswith("__snag_api_");
}

bool LoopRanges::neverSynchronizes(const Loop *L) {
  auto [It, Inserted] = Quiet.try_emplace(L, true);
  if (!Inserted)
    return It->second;
  for (const BasicBlock *BB : L->blocks())
    for (const Instruction &I : *BB) {
      if (I.isAtomic() || isa<FenceInst>(I) || mayCallSynchronize(I))
        return It->second = false;
    }
  return true;
}

const LoopRanges::Question *LoopRanges::skipQuestion(Instruction *Access, Value *Addr,
                                                     uint64_t Bytes, bool IsWrite) {
  Loop *L = LI.getLoopFor(Access->getParent());
  if (!L || !neverSynchronizes(L))
    return nullptr;
  // At the end of the pipeline a loop often has no preheader of its own (its
  // entry block branches around it); the one block outside the loop that
  // enters it asks then, on both of its paths.
  // That block must not be in a loop of its own that L is not in: two loops
  // one after the other often leave the first loop's latch branching
  // straight into the second, and the question asked there ran on every
  // iteration of the first loop (a sum loop after a fill loop asked about
  // the whole buffer once per element filled).
  BasicBlock *Entering = L->getLoopPredecessor();
  if (!Entering || LI.getLoopFor(Entering) != L->getParentLoop() ||
      !SE.isSCEVable(Addr->getType()))
    return nullptr;
  const SCEV *Taken = SE.getSymbolicMaxBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Taken))
    return nullptr;
  if (auto *Count = dyn_cast<SCEVConstant>(Taken);
      Count && Count->getAPInt().ult(kFewestIterations))
    return nullptr;

  // The lowest and one past the highest byte any iteration touches.
  const SCEV *Where = SE.getSCEV(Addr);
  const SCEV *Lo, *Hi;
  const SCEV *Size = SE.getConstant(Hooks.sizeTy(), Bytes);
  Type *IntPtr = Hooks.sizeTy();
  if (SE.isLoopInvariant(Where, L)) {
    Lo = SE.getPtrToIntExpr(Where, IntPtr);
    Hi = SE.getAddExpr(Lo, Size);
  } else {
    auto *Rec = dyn_cast<SCEVAddRecExpr>(Where);
    if (!Rec || Rec->getLoop() != L || !Rec->isAffine())
      return nullptr;
    auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
    if (!Step)
      return nullptr;
    const SCEV *First = SE.getPtrToIntExpr(Rec->getStart(), IntPtr);
    if (isa<SCEVCouldNotCompute>(First))
      return nullptr;
    const SCEV *Steps = SE.getMulExpr(
        SE.getTruncateOrZeroExtend(Taken, IntPtr),
        SE.getTruncateOrSignExtend(Step, IntPtr));
    const SCEV *Last = SE.getAddExpr(First, Steps);
    if (Step->getAPInt().isNegative())
      std::swap(First, Last);
    Lo = First;
    Hi = SE.getAddExpr(Last, Size);
  }
  if (isa<SCEVCouldNotCompute>(Lo) || isa<SCEVCouldNotCompute>(Hi))
    return nullptr;
  const SCEV *Length = SE.getMinusSCEV(Hi, Lo);
  Instruction *At = Entering->getTerminator();
  if (isa<SCEVCouldNotCompute>(Length) || !isSafeToExpandAt(Lo, At, SE) ||
      !isSafeToExpandAt(Length, At, SE))
    return nullptr;

  auto [It, Inserted] = Questions.try_emplace({L, Lo, Length, IsWrite});
  Question &Q = It->second;
  if (!Inserted)
    return &Q;
  SCEVExpander Expander(SE, Access->getModule()->getDataLayout(), "snag.range");
  Value *Begin = Expander.expandCodeFor(Lo, IntPtr, At);
  Value *Count = Expander.expandCodeFor(Length, IntPtr, At);
  Function &F = *Access->getFunction();
  IntegerType *I8 = Type::getInt8Ty(F.getContext());
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  Q.Slot = Entry.CreateAlloca(I8, nullptr, "snag.skip.slot");
  IRBuilder<> IRB(At);
  // The entering block's terminator may carry the loop's own location; the
  // question belongs to no source line of its own.
  IRB.SetCurrentDebugLocation(Access->getDebugLoc());
  Q.Begin = IRB.CreateIntToPtr(Begin, Hooks.bytePtrTy());
  Q.Count = Count;
  Q.IsWrite = IsWrite;
  Q.Asked = IRB.CreateCall(Hooks.loopRangeUnchanged(),
                           {Q.Begin, Count, ConstantInt::get(Hooks.i32Ty(), IsWrite ? 1 : 0)});
  Q.Answered = IRB.CreateStore(IRB.CreateSelect(IRB.CreateICmpNE(Q.Asked, ConstantInt::get(Hooks.i32Ty(), 0)),
                                                ConstantInt::get(I8, kSkip),
                                                ConstantInt::get(I8, kAskAgain), "snag.skip"),
                               Q.Slot);
  Q.Header = L->getHeader();
  return &Q;
}

void LoopRanges::askOnEntryOnly(const std::vector<Question> &Questions) {
  // One new block per edge, for all the questions of its loop.
  DenseMap<std::pair<BasicBlock *, BasicBlock *>, BasicBlock *> Entries;
  for (const Question &Q : Questions) {
    BasicBlock *From = Q.Asked->getParent();
    BasicBlock *&Entry = Entries[{From, Q.Header}];
    if (!Entry) {
      if (From->getSingleSuccessor())
        continue;  // the block enters the loop only
      unsigned Edges = 0;
      for (BasicBlock *Succ : successors(From))
        Edges += Succ == Q.Header;
      // A switch with two cases into the loop, or an indirect branch, keeps
      // its question where it is.
      if (Edges != 1 || !isa<BranchInst>(From->getTerminator()))
        continue;
      Entry = SplitEdge(From, Q.Header);
      if (!Entry)
        continue;
    }
    // The call, the comparison and selection of its answer, the store:
    // made one after the other, before the terminator.
    SmallVector<Instruction *, 4> Code;
    for (Instruction *I = Q.Asked; I != Q.Answered; I = I->getNextNode())
      Code.push_back(I);
    Code.push_back(Q.Answered);
    for (Instruction *I : Code)
      I->moveBefore(Entry->getTerminator());
  }
}

} // namespace snag
