#include "LoopRanges.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace snag {

namespace {

// Loops that run only a few times gain less than the question costs.
constexpr uint64_t kFewestIterations = 8;

// The widest range of offsets asked about for an address that does not step
// by a constant (boundedOffsets): the runtime answers a coarse heap block in
// one step but walks other memory granule by granule, and such a range can
// be wider than what the loop touches.
constexpr uint64_t kWidestBoundedOffsets = 4096;

// An address in L that is a loop-invariant base plus an offset whose values
// scalar evolution bounds, though they do not step by a constant: an index
// taken modulo a constant or masked (a ring's neighbour, b[(k + 1) % 32]).
// Every such address lies in [base + least offset, base + greatest offset];
// Lo and Hi (one past the last byte an access of Size bytes touches) are
// set to that range as integers. False when the address is not of that form
// or its offsets span more than kWidestBoundedOffsets.
bool boundedOffsets(ScalarEvolution &SE, const Loop *L, const SCEV *Where, const SCEV *Size,
                    Type *IntPtr, const SCEV *&Lo, const SCEV *&Hi) {
  const SCEV *Address = SE.getPtrToIntExpr(Where, IntPtr);
  const auto *Sum = dyn_cast<SCEVAddExpr>(Address);
  if (!Sum)
    return false;
  SmallVector<const SCEV *, 4> Invariant, Varying;
  for (const SCEV *Op : Sum->operands())
    (SE.isLoopInvariant(Op, L) ? Invariant : Varying).push_back(Op);
  if (Invariant.empty() || Varying.empty())
    return false;
  const SCEV *Base = SE.getAddExpr(Invariant);
  const SCEV *Offset = SE.getAddExpr(Varying);
  // The narrower of the offset's unsigned and signed ranges (b[k - 1] may
  // reach one element below b).
  const ConstantRange Unsigned = SE.getUnsignedRange(Offset), Signed = SE.getSignedRange(Offset);
  APInt Least, Greatest;
  if (!Unsigned.isFullSet() && !Unsigned.isWrappedSet() &&
      (Unsigned.getUnsignedMax() - Unsigned.getUnsignedMin()).ult(kWidestBoundedOffsets)) {
    Least = Unsigned.getUnsignedMin();
    Greatest = Unsigned.getUnsignedMax();
  } else if (!Signed.isFullSet() && !Signed.isSignWrappedSet() &&
             (Signed.getSignedMax() - Signed.getSignedMin()).ult(kWidestBoundedOffsets)) {
    Least = Signed.getSignedMin();
    Greatest = Signed.getSignedMax();
  } else {
    return false;
  }
  Lo = SE.getAddExpr(Base, SE.getConstant(Least));
  Hi = SE.getAddExpr(SE.getAddExpr(Base, SE.getConstant(Greatest)), Size);
  return true;
}

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

// A loop that runs its inner loop L on every iteration and cannot
// synchronize either (no call, atomic or fence anywhere in it) keeps the
// thread's epoch and locks for all of its iterations, so a range that does
// not change from one iteration to the next is asked about once before it,
// not once before every run of L (pipeline: four rounds over each item's
// payload asked ten questions an item, now four). "Every iteration": L is
// entered straight from the outer loop's header, whose one way out is into
// L, so the range asked about is one the nest touches whenever it runs (a
// question also stretches the thread's remembered access over its range,
// fast_path.cpp). Entering becomes the block that enters the outermost such
// loop.
Loop *LoopRanges::outermostAsker(Loop *L, const SCEV *Lo, const SCEV *Length,
                                 BasicBlock *&Entering) {
  while (Loop *Outer = L->getParentLoop()) {
    BasicBlock *Before = Outer->getLoopPredecessor();
    const auto *Into = dyn_cast<BranchInst>(Outer->getHeader()->getTerminator());
    if (!Before || LI.getLoopFor(Before) != Outer->getParentLoop() ||
        L->getLoopPredecessor() != Outer->getHeader() || !Into || !Into->isUnconditional() ||
        Into->getSuccessor(0) != L->getHeader() || !neverSynchronizes(Outer) ||
        !SE.isLoopInvariant(Lo, Outer) || !SE.isLoopInvariant(Length, Outer))
      break;
    L = Outer;
    Entering = Before;
  }
  return L;
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
  auto *Rec = dyn_cast<SCEVAddRecExpr>(Where);
  auto *Step = Rec && Rec->getLoop() == L && Rec->isAffine()
                   ? dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE))
                   : nullptr;
  if (SE.isLoopInvariant(Where, L)) {
    Lo = SE.getPtrToIntExpr(Where, IntPtr);
    Hi = SE.getAddExpr(Lo, Size);
  } else if (Step) {
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
  } else if (!boundedOffsets(SE, L, Where, Size, IntPtr, Lo, Hi)) {
    return nullptr;
  }
  if (isa<SCEVCouldNotCompute>(Lo) || isa<SCEVCouldNotCompute>(Hi))
    return nullptr;
  const SCEV *Length = SE.getMinusSCEV(Hi, Lo);
  if (isa<SCEVCouldNotCompute>(Length))
    return nullptr;
  L = outermostAsker(L, Lo, Length, Entering);
  Instruction *At = Entering->getTerminator();
  if (!isSafeToExpandAt(Lo, At, SE) || !isSafeToExpandAt(Length, At, SE))
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
