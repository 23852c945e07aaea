// Accesses that one inline race check can answer together: those through
// one base pointer (after stripping casts and constant offsets) that an
// earlier access through it, the group's head, precedes on every path with
// no call, atomic, fence or volatile access on any path between (so the
// thread's epoch and locks are those it had at the head).
//
// Before the head, the pass asks once whether the covering range of the
// group's bytes lies in a coarse heap block the thread remembers whose state
// needs no work for the strongest access (a write if any member writes);
// when it does, no member needs its own check or hook (RaceFastPath.h). A
// string's move in a sort touches six to eight fields of two strings of
// one vector: one check instead of a check each (race_bench.txt §71).
//
// The same forward "available" dataflow as RedundantAccesses.h, with a
// fact "base B was asked about at head H": facts die at anything that may
// synchronize and where B is defined again; a member is an access whose
// base has a fact at it. Availability on every path makes the head dominate
// its members, so the answer is an SSA value they can use.
#ifndef SNAG_PLUGIN_ACCESS_GROUPS_H
#define SNAG_PLUGIN_ACCESS_GROUPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

#include <vector>

#include <cstdint>

namespace snag {

// A candidate access: a plain load or store that would get an inline check.
struct GroupCandidate {
  llvm::Value *Addr;
  uint64_t Bytes;
  bool IsWrite;
  // The innermost loop holding it (null: none). Members share their head's:
  // a head in a loop whose other members are past the loop's exit would
  // ask on every iteration for one access after it.
  const void *Loop;
};

// A group of at least two accesses: its head, the base pointer and the
// byte range [Offset, Offset + Bytes) of it that covers every member.
struct AccessGroup {
  llvm::Instruction *Head;
  llvm::Value *Base;
  int64_t Offset;
  uint64_t Bytes;
  bool AnyWrite;
  llvm::SmallVector<llvm::Instruction *, 8> Members; // the head included
};

// The groups among `Candidates`, and for each member its group's index.
// Empty when the analysis does not settle within a few rounds.
struct AccessGroups {
  std::vector<AccessGroup> Groups;
  llvm::DenseMap<const llvm::Instruction *, unsigned> GroupOf;
};

AccessGroups findAccessGroups(
    llvm::Function &F,
    const llvm::DenseMap<const llvm::Instruction *, GroupCandidate> &Candidates);

} // namespace snag

#endif
