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

// An address in L that is a loop-invariant base plus Stride times an index
// that steps by one in a narrow integer and so wraps around a ring of
// 2^width elements (an index masked by a power of two less one, or taken
// modulo a power of two: a ring buffer's b[i & 31]). Sets Base (as an
// integer), Stride, and Index, the narrow recurrence; false for any other
// address. Asked over every offset the mask allows, such a loop's question
// covered slots it never reads, and the yes stretched the thread's
// remembered read of a coarse block over them (race_bench.txt section 89:
// a false race when another thread then wrote one); the ring question asks
// only about the slots its iterations reach (__snag_loop_ring_unchanged).
bool ringIndex(ScalarEvolution &SE, const Loop *L, const SCEV *Where, Type *IntPtr,
               const SCEV *&Base, uint64_t &Stride, const SCEVAddRecExpr *&Index) {
  const SCEV *Address = SE.getPtrToIntExpr(Where, IntPtr);
  const auto *Sum = dyn_cast<SCEVAddExpr>(Address);
  if (!Sum)
    return false;
  SmallVector<const SCEV *, 4> Invariant;
  const SCEV *Varying = nullptr;
  for (const SCEV *Op : Sum->operands()) {
    if (SE.isLoopInvariant(Op, L))
      Invariant.push_back(Op);
    else if (Varying)
      return false; // two varying terms
    else
      Varying = Op;
  }
  if (Invariant.empty() || !Varying)
    return false;
  Stride = 1;
  if (const auto *Product = dyn_cast<SCEVMulExpr>(Varying)) {
    const auto *Factor = Product->getNumOperands() == 2 ? dyn_cast<SCEVConstant>(Product->getOperand(0)) : nullptr;
    if (!Factor || Factor->getAPInt().isNegative() || Factor->getAPInt().uge(kWidestBoundedOffsets))
      return false;
    Stride = Factor->getAPInt().getZExtValue();
    Varying = Product->getOperand(1);
  }
  const auto *Widened = dyn_cast<SCEVZeroExtendExpr>(Varying);
  if (!Widened)
    return false;
  Index = dyn_cast<SCEVAddRecExpr>(Widened->getOperand());
  if (!Index || Index->getLoop() != L || !Index->isAffine())
    return false;
  const auto *Step = dyn_cast<SCEVConstant>(Index->getStepRecurrence(SE));
  const unsigned Width = SE.getTypeSizeInBits(Index->getType());
  if (!Step || !Step->getAPInt().isOne() || Width >= 32 || Stride == 0 ||
      (Stride << Width) > kWidestBoundedOffsets)
    return false;
  Base = SE.getAddExpr(Invariant);
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
Loop *LoopRanges::outermostAsker(Loop *L, ArrayRef<const SCEV *> Asked, BasicBlock *&Entering) {
  while (Loop *Outer = L->getParentLoop()) {
    BasicBlock *Before = Outer->getLoopPredecessor();
    const auto *Into = dyn_cast<BranchInst>(Outer->getHeader()->getTerminator());
    if (!Before || LI.getLoopFor(Before) != Outer->getParentLoop() ||
        L->getLoopPredecessor() != Outer->getHeader() || !Into || !Into->isUnconditional() ||
        Into->getSuccessor(0) != L->getHeader() || !neverSynchronizes(Outer) ||
        any_of(Asked, [&](const SCEV *S) { return !SE.isLoopInvariant(S, Outer); }))
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
  const SCEV *RingBase = nullptr;
  uint64_t Stride = 0;
  const SCEVAddRecExpr *Index = nullptr;
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
  } else if (ringIndex(SE, L, Where, IntPtr, RingBase, Stride, Index) &&
             !reachesWholeRing(Taken, SE.getTypeSizeInBits(Index->getType()))) {
    return ringQuestion(Access, L, Entering, RingBase, Stride, Index, Taken, Bytes, IsWrite);
  } else if (!boundedOffsets(SE, L, Where, Size, IntPtr, Lo, Hi)) {
    return nullptr;
  }
  if (isa<SCEVCouldNotCompute>(Lo) || isa<SCEVCouldNotCompute>(Hi))
    return nullptr;
  const SCEV *Length = SE.getMinusSCEV(Hi, Lo);
  if (isa<SCEVCouldNotCompute>(Length))
    return nullptr;
  L = outermostAsker(L, {Lo, Length}, Entering);
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
  IRBuilder<> IRB(At);
  // The entering block's terminator may carry the loop's own location; the
  // question belongs to no source line of its own.
  IRB.SetCurrentDebugLocation(Access->getDebugLoc());
  Q.Callee = Hooks.loopRangeUnchanged();
  Q.Args = {IRB.CreateIntToPtr(Begin, Hooks.bytePtrTy()), Count,
            ConstantInt::get(Hooks.i32Ty(), IsWrite ? 1 : 0)};
  return ask(Q, Access, L, IRB);
}

// Whether a loop whose backedge is taken `Taken` times at most reaches every
// element of a ring of 2^Width (known when the count is a constant): then
// the plain question over the whole ring asks the same, in one range.
bool LoopRanges::reachesWholeRing(const SCEV *Taken, unsigned Width) {
  const auto *Count = dyn_cast<SCEVConstant>(Taken);
  return Count && Count->getAPInt().uge((uint64_t(1) << Width) - 1);
}

// The question for an access at Base + Stride * Index, Index a narrow
// recurrence of L stepping by one (ringIndex): before the loop, the index's
// first value and the loop's backedge-taken count (at most) go to the
// runtime, which asks about the one or two runs of slots the iterations
// reach (fast_path.cpp, ring_needs_no_work).
const LoopRanges::Question *LoopRanges::ringQuestion(Instruction *Access, Loop *L, BasicBlock *Entering,
                                                     const SCEV *Base, uint64_t Stride,
                                                     const SCEVAddRecExpr *Index, const SCEV *Taken,
                                                     uint64_t Bytes, bool IsWrite) {
  Type *IntPtr = Hooks.sizeTy();
  const SCEV *First = SE.getZeroExtendExpr(Index->getStart(), IntPtr);
  const SCEV *Steps = SE.getTruncateOrZeroExtend(Taken, IntPtr);
  if (isa<SCEVCouldNotCompute>(First) || isa<SCEVCouldNotCompute>(Steps))
    return nullptr;
  L = outermostAsker(L, {Base, First, Steps}, Entering);
  Instruction *At = Entering->getTerminator();
  if (!isSafeToExpandAt(Base, At, SE) || !isSafeToExpandAt(First, At, SE) ||
      !isSafeToExpandAt(Steps, At, SE))
    return nullptr;
  // Keyed by the index, which no plain question's length can be.
  auto [It, Inserted] = Questions.try_emplace({L, Base, Index, IsWrite});
  Question &Q = It->second;
  if (!Inserted)
    return &Q;
  SCEVExpander Expander(SE, Access->getModule()->getDataLayout(), "snag.ring");
  Value *Begin = Expander.expandCodeFor(Base, IntPtr, At);
  Value *Start = Expander.expandCodeFor(First, IntPtr, At);
  Value *Count = Expander.expandCodeFor(Steps, IntPtr, At);
  IRBuilder<> IRB(At);
  IRB.SetCurrentDebugLocation(Access->getDebugLoc());
  auto Size = [&](uint64_t V) { return ConstantInt::get(Hooks.sizeTy(), V); };
  const unsigned Width = SE.getTypeSizeInBits(Index->getType());
  Q.Callee = Hooks.loopRingUnchanged();
  Q.Args = {IRB.CreateIntToPtr(Begin, Hooks.bytePtrTy()), Size(Stride), Size(uint64_t(1) << Width), Start,
            Count, Size(Bytes), ConstantInt::get(Hooks.i32Ty(), IsWrite ? 1 : 0)};
  return ask(Q, Access, L, IRB);
}

// Asks question Q (its callee and arguments set) at IRB's place, with its
// answer slot in the function's entry block.
const LoopRanges::Question *LoopRanges::ask(Question &Q, Instruction *Access, Loop *L, IRBuilder<> &IRB) {
  Function &F = *Access->getFunction();
  IntegerType *I8 = Type::getInt8Ty(F.getContext());
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  Q.Slot = Entry.CreateAlloca(I8, nullptr, "snag.skip.slot");
  Q.Asked = IRB.CreateCall(Q.Callee, Q.Args);
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
