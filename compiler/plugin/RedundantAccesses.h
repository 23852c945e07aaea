// Redundant accesses across basic blocks: an access is covered when every
// path to it passes an earlier access to the same bytes (the same base
// pointer after stripping casts and constant offsets, an offset range that
// contains it; a write covers reads and writes, a read covers reads) with no
// call, atomic, fence or volatile access on any path between. Within a
// block, a read is also covered by a later write to the same bytes with
// nothing between that could synchronize (ThreadSanitizer's pass skips such
// reads too).
//
// The race engine gains nothing from a covered access: the thread's clock
// and locks are the same as at the earlier access, so the later one races
// with another thread's access exactly when the earlier one does (a report
// may then name the covering access's line). Engines
// that schedule or learn at each access (explore, guard, tsv) do need it,
// so the pass keeps a covered access's hook behind a load of
// __snag_every_access (include/snag/abi.h), which the runtime clears only
// while the race engine runs alone.
//
// A forward "available accesses" dataflow over the CFG: the facts at a
// block's start are those on every predecessor's end (intersection at
// merges; a loop's back edge keeps a fact only when the loop body cannot
// synchronize). A fact about a base pointer dies where that pointer is
// defined again (the next iteration's address is another address).
#ifndef SNAG_PLUGIN_REDUNDANT_ACCESSES_H
#define SNAG_PLUGIN_REDUNDANT_ACCESSES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"

#include <cstdint>

namespace snag {

// A plain load or store the analysis knows about.
struct TrackedAccess {
  llvm::Value *Addr;
  uint64_t Bytes;
  bool IsWrite;
  // Its hook runs whenever it executes, so it may cover later accesses (not
  // so for one whose hook a loop-range question may skip).
  bool MayCover;
  // It may itself be found covered.
  bool MayBeCovered;
};

// Whether `I` may order memory between threads or change the thread's
// locks: a call (not an intrinsic or snag hook), an atomic, a fence or a
// volatile access. Nothing an access check decided holds across one.
bool maySynchronize(const llvm::Instruction &I);

// The accesses among `Accesses` that are covered. Empty when the analysis
// does not settle within a few rounds (an unusual CFG): covering nothing is
// always correct.
llvm::DenseSet<const llvm::Instruction *>
findCoveredAccesses(llvm::Function &F,
                    const llvm::DenseMap<const llvm::Instruction *, TrackedAccess> &Accesses);

} // namespace snag

#endif
