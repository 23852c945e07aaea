#include "AccessGroups.h"

#include "ForwardDataflow.h"
#include "RedundantAccesses.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>

using namespace llvm;

namespace snag {

namespace {

// Facts per program point and rounds before giving up, as RedundantAccesses.
constexpr size_t kMaxFacts = 32;
constexpr int kMaxRounds = 12;
// A range wider than this is no one object's fields (and no remembered
// block would hold it often): the group is not formed.
constexpr uint64_t kMaxGroupBytes = 256;

// "Base was asked about at Head, in loop Loop, since the last
// synchronization."
struct Fact {
  const Value *Base;
  const void *Loop;
  Instruction *Head;
  bool operator==(const Fact &O) const { return Base == O.Base && Head == O.Head; }
};

using FactSet = SmallVector<Fact, 8>;

class GroupAnalysis : public ForwardDataflow<GroupAnalysis, FactSet> {
public:
  GroupAnalysis(Function &F, const DenseMap<const Instruction *, GroupCandidate> &Candidates)
      : ForwardDataflow(F), DL(F.getParent()->getDataLayout()), Candidates(Candidates) {}

  AccessGroups run() {
    if (!settle(kMaxRounds))
      return AccessGroups();
    DenseMap<const Instruction *, Instruction *> HeadOf;
    for (BasicBlock *BB : Order)
      transfer(*BB, factsAtStart(*BB), &HeadOf);
    return collect(HeadOf);
  }

private:
  friend ForwardDataflow;
  static FactSet meet(const FactSet &A, const FactSet &B) {
    FactSet Both = A;
    erase_if(Both, [&](const Fact &F) { return !is_contained(B, F); });
    return Both;
  }

  // Records each candidate's head in `HeadOf` when given (a head is its own).
  FactSet transfer(BasicBlock &BB, FactSet Facts,
                   DenseMap<const Instruction *, Instruction *> *HeadOf) {
    for (Instruction &I : BB) {
      if (isa<DbgInfoIntrinsic>(I))
        continue;
      if (maySynchronize(I)) {
        Facts.clear();
        continue;
      }
      if (auto It = Candidates.find(&I); It != Candidates.end()) {
        const Value *Base = baseOf(It->second);
        const void *Loop = It->second.Loop;
        auto Found = find_if(Facts, [&](const Fact &F) { return F.Base == Base && F.Loop == Loop; });
        if (Found != Facts.end()) {
          if (HeadOf)
            (*HeadOf)[&I] = Found->Head;
        } else if (Facts.size() < kMaxFacts) {
          Facts.push_back(Fact{Base, Loop, &I});
          if (HeadOf)
            (*HeadOf)[&I] = &I;
        }
      }
      // A pointer defined again (a phi or address in a loop) is another
      // address from here on.
      if (I.getType()->isPointerTy())
        erase_if(Facts, [&](const Fact &F) { return F.Base == &I; });
    }
    return Facts;
  }

  const Value *baseOf(const GroupCandidate &C) {
    int64_t Offset = 0;
    return GetPointerBaseWithConstantOffset(C.Addr, Offset, DL);
  }

  // Groups of two or more members, in the order of their heads.
  AccessGroups collect(const DenseMap<const Instruction *, Instruction *> &HeadOf) {
    DenseMap<Instruction *, SmallVector<Instruction *, 8>> MembersOf;
    SmallVector<Instruction *, 16> Heads;
    for (BasicBlock *BB : Order)
      for (Instruction &I : *BB)
        if (auto It = HeadOf.find(&I); It != HeadOf.end()) {
          auto &Members = MembersOf[It->second];
          if (Members.empty())
            Heads.push_back(It->second);
          Members.push_back(&I);
        }
    AccessGroups Result;
    for (Instruction *Head : Heads) {
      auto &Members = MembersOf[Head];
      if (Members.size() < 2)
        continue;
      AccessGroup G{Head, nullptr, INT64_MAX, 0, false, {}};
      int64_t End = INT64_MIN;
      for (Instruction *M : Members) {
        const GroupCandidate &C = Candidates.find(M)->second;
        int64_t Offset = 0;
        G.Base = const_cast<Value *>(GetPointerBaseWithConstantOffset(C.Addr, Offset, DL));
        G.Offset = std::min(G.Offset, Offset);
        End = std::max(End, Offset + static_cast<int64_t>(C.Bytes));
        G.AnyWrite |= C.IsWrite;
      }
      G.Bytes = static_cast<uint64_t>(End - G.Offset);
      if (G.Bytes > kMaxGroupBytes)
        continue;
      G.Members.assign(Members.begin(), Members.end());
      for (Instruction *M : G.Members)
        Result.GroupOf[M] = Result.Groups.size();
      Result.Groups.push_back(std::move(G));
    }
    return Result;
  }

  const DataLayout &DL;
  const DenseMap<const Instruction *, GroupCandidate> &Candidates;
};

} // namespace

AccessGroups findAccessGroups(
    Function &F, const DenseMap<const Instruction *, GroupCandidate> &Candidates) {
  if (Candidates.size() < 2)
    return AccessGroups();
  return GroupAnalysis(F, Candidates).run();
}

} // namespace snag
