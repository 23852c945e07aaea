// A forward "must" dataflow over a function's blocks, shared by the
// analyses that ask what every path to an access has done since the last
// synchronization (RedundantAccesses, AccessGroups).
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"

namespace snag {

// `Analysis` provides `FactSet transfer(BasicBlock &, FactSet, Sink *)` (the
// facts at the block's end given those at its start; `Sink` receives its
// results when given, and is null while settling) and
// `static FactSet meet(const FactSet &, const FactSet &)` (what holds on
// both of two paths).
template <typename Analysis, typename FactSet> class ForwardDataflow {
protected:
  explicit ForwardDataflow(llvm::Function &F) {
    for (llvm::BasicBlock *BB : llvm::ReversePostOrderTraversal<llvm::Function *>(&F))
      Order.push_back(BB);
  }

  // Iterates to the fixed point, giving up after `MaxRounds` rounds (a loop
  // nest of depth d settles in about d + 2). Blocks not reached yet count as
  // "anything holds" there, so that a loop header first takes what enters
  // the loop and then loses what its back edge does not keep.
  bool settle(int MaxRounds) {
    for (int Round = 0; Round < MaxRounds; ++Round) {
      bool Changed = false;
      for (llvm::BasicBlock *BB : Order) {
        FactSet End = self().transfer(*BB, factsAtStart(*BB), nullptr);
        auto [It, Inserted] = AtEnd.try_emplace(BB, End);
        if (Inserted || It->second != End) {
          It->second = std::move(End);
          Changed = true;
        }
      }
      if (!Changed)
        return true;
    }
    return false;
  }

  // What every predecessor reached so far holds at its end.
  FactSet factsAtStart(llvm::BasicBlock &BB) {
    FactSet Facts;
    bool First = true;
    for (llvm::BasicBlock *Pred : llvm::predecessors(&BB)) {
      auto It = AtEnd.find(Pred);
      if (It == AtEnd.end())
        continue;
      Facts = First ? It->second : Analysis::meet(Facts, It->second);
      First = false;
    }
    return Facts;
  }

  llvm::SmallVector<llvm::BasicBlock *, 32> Order; // reverse post-order
  llvm::DenseMap<const llvm::BasicBlock *, FactSet> AtEnd;

private:
  Analysis &self() { return static_cast<Analysis &>(*this); }
};

} // namespace snag
