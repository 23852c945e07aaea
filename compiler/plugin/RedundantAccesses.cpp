#include "RedundantAccesses.h"

#include "ForwardDataflow.h"
#include "RuntimeHooks.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace snag {

namespace {

// Facts kept per program point: enough for the repeated fields of a few
// objects, small enough that a huge function stays linear.
constexpr size_t kMaxFacts = 32;
// Rounds over the blocks before giving up; a loop nest of depth d settles in
// about d + 2.
constexpr int kMaxRounds = 12;

// "Bytes [Offset, Offset + Bytes) of Base were accessed (written when
// IsWrite) since the last synchronization."
struct Fact {
  const Value *Base;
  int64_t Offset;
  uint64_t Bytes;
  bool IsWrite;

  bool covers(const Fact &Later) const {
    return Base == Later.Base && Offset <= Later.Offset &&
           Later.Offset + static_cast<int64_t>(Later.Bytes) <=
               Offset + static_cast<int64_t>(Bytes) &&
           (IsWrite || !Later.IsWrite);
  }
  bool operator==(const Fact &Other) const {
    return Base == Other.Base && Offset == Other.Offset &&
           Bytes == Other.Bytes && IsWrite == Other.IsWrite;
  }
};

using FactSet = SmallVector<Fact, 8>;

bool isCovered(const FactSet &Facts, const Fact &F) {
  return any_of(Facts, [&](const Fact &Earlier) { return Earlier.covers(F); });
}

// What holds on both of two paths: each fact one path covers and the other
// covers as well.
FactSet intersect(const FactSet &A, const FactSet &B) {
  FactSet Both;
  for (const Fact &F : A)
    if (isCovered(B, F))
      Both.push_back(F);
  for (const Fact &F : B)
    if (isCovered(A, F) && !isCovered(Both, F))
      Both.push_back(F);
  return Both;
}

} // namespace

// Calls may lock, unlock, start or join threads; atomics and fences order
// memory between threads. Intrinsics (memcpy, lifetime markers, math) and
// snag's own hooks (API markers, loop-range questions) do neither. The same
// rule as LoopRanges.cpp's loops that never synchronize.
bool maySynchronize(const Instruction &I) {
  if (I.isAtomic() || isa<FenceInst>(I))
    return true;
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isVolatile();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isVolatile();
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call || isa<IntrinsicInst>(Call))
    return false;
  const Function *Callee = Call->getCalledFunction();
  return !Callee || !RuntimeHooks::isHookName(Callee->getName());
}

namespace {

class CoverageAnalysis : public ForwardDataflow<CoverageAnalysis, FactSet> {
public:
  CoverageAnalysis(Function &F,
                   const DenseMap<const Instruction *, TrackedAccess> &Accesses)
      : ForwardDataflow(F), DL(F.getParent()->getDataLayout()), Accesses(Accesses) {}

  DenseSet<const Instruction *> run() {
    if (!settle(kMaxRounds))
      return {};
    DenseSet<const Instruction *> Covered;
    for (BasicBlock *BB : Order)
      transfer(*BB, factsAtStart(*BB), &Covered);
    for (BasicBlock *BB : Order)
      coverReadsByLaterWrites(*BB, Covered);
    return Covered;
  }

private:
  friend ForwardDataflow;
  static FactSet meet(const FactSet &A, const FactSet &B) { return intersect(A, B); }

  // The facts at the block's end, given those at its start; records the
  // covered accesses in `Covered` when given.
  FactSet transfer(BasicBlock &BB, FactSet Facts,
                   DenseSet<const Instruction *> *Covered) {
    for (Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (maySynchronize(I)) {
        Facts.clear();
        continue;
      }
      if (auto It = Accesses.find(&I); It != Accesses.end()) {
        const TrackedAccess &Access = It->second;
        Fact Here = factOf(Access);
        if (isCovered(Facts, Here)) {
          if (Covered && Access.MayBeCovered)
            Covered->insert(&I);
        } else if (Access.MayCover && Facts.size() < kMaxFacts) {
          Facts.push_back(Here);
        }
      }
      // A pointer defined again (a phi or address in a loop) is another
      // address from here on.
      if (I.getType()->isPointerTy())
        erase_if(Facts, [&](const Fact &F) { return F.Base == &I; });
    }
    return Facts;
  }

  Fact factOf(const TrackedAccess &Access) {
    int64_t Offset = 0;
    const Value *Base = GetPointerBaseWithConstantOffset(Access.Addr, Offset, DL);
    return Fact{Base, Offset, Access.Bytes, Access.IsWrite};
  }

  // Within a block, a read that a later write to the same bytes follows with
  // nothing between that could synchronize (so the write always runs when
  // the read did) is covered by that write, as ThreadSanitizer's pass does:
  // the write races with every access the read races with. Only writes that
  // keep their hook cover.
  void coverReadsByLaterWrites(BasicBlock &BB,
                               DenseSet<const Instruction *> &Covered) {
    FactSet Ahead;
    for (Instruction &I : reverse(BB)) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (maySynchronize(I)) {
        Ahead.clear();
        continue;
      }
      if (auto It = Accesses.find(&I); It != Accesses.end() && !Covered.count(&I)) {
        const TrackedAccess &Access = It->second;
        Fact Here = factOf(Access);
        if (!Access.IsWrite && Access.MayBeCovered && isCovered(Ahead, Here))
          Covered.insert(&I);
        else if (Access.IsWrite && Access.MayCover && Ahead.size() < kMaxFacts)
          Ahead.push_back(Here);
      }
      // Above its definition a pointer does not exist yet.
      if (I.getType()->isPointerTy())
        erase_if(Ahead, [&](const Fact &F) { return F.Base == &I; });
    }
  }

  const DataLayout &DL;
  const DenseMap<const Instruction *, TrackedAccess> &Accesses;
};

} // namespace

DenseSet<const Instruction *>
findCoveredAccesses(Function &F,
                    const DenseMap<const Instruction *, TrackedAccess> &Accesses) {
  if (Accesses.size() < 2)
    return {};
  return CoverageAnalysis(F, Accesses).run();
}

} // namespace snag
