// The race engine's commonest "nothing to do" answers, checked inline
// before an access hook, so that the program calls the hook only when the
// check fails (ThreadSanitizer inlines its whole fast path the same way).
//
// The check is a read-only subset of the hook's own fast path
// (runtime/engines/race/fast_path.h): an access by the Exclusive owner of
// its variable in the owner's current epoch (having written already, for a
// write), found either through a coarse heap block the thread remembers or
// through the granule's direct-mapped state word; or, for a read, a
// Shared-Read variable with no lockset or the thread's own. Everything else calls the
// hook, which answers as before, so behaviour does not change. The thread's
// epoch word is 0 unless the race engine is the only engine that wants
// accesses, and the check never passes then.
#ifndef SNAG_PLUGIN_RACE_FAST_PATH_H
#define SNAG_PLUGIN_RACE_FAST_PATH_H

#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

namespace snag {

// With LoopsOnly, the most checks one function gets: those of its most
// deeply nested loops (MemoryInstrumentation.cpp, findLoopAccesses).
constexpr unsigned kMaxInlineRaceChecks = 128;

// With LoopsOnly, a loop whose own blocks (not its subloops') hold more
// accesses than this is no tight loop (a test body's do { ... } while over
// configurations, leveldb's db_test.cc: hundreds of accesses around calls)
// and its accesses get no check; its subloops are counted on their own.
constexpr unsigned kMaxLoopAccessesChecked = 64;

// Which parts of the check to emit (SNAG_RACE_INLINE, for measuring; the
// default, blocks,owner,loops, is what bench/results/race_bench.txt §19
// found best).
struct RaceFastPathChecks {
  bool RememberedBlocks = false; // the thread's remembered coarse blocks
  bool OwnerWord = false;        // the granule's own state word
  bool LoopsOnly = false;        // only for accesses inside loops
  bool OwnerFirst = false;       // the state word before the blocks
  bool Groups = false;           // one check for a group (AccessGroups.h)

  bool any() const { return RememberedBlocks || OwnerWord; }
  // Reads SNAG_RACE_INLINE: a comma-separated list of blocks, owner, loops,
  // groups, none (unset: the default, blocks,owner,loops,groups); the checks run in the order named. Reports an unknown word with
  // llvm::report_fatal_error.
  static RaceFastPathChecks fromEnvironment();
};

// Emits the check before `Before` (which must not be a PHI) for an access
// of `Bytes` bytes (1, 2, 4 or 8, at an address aligned to `Bytes`) at
// `Addr`, and returns the instruction before which the hook call goes: in a
// new block taken only when the check fails. `NotHeap`: `Addr` is known to
// be a local's or a global's, never in a heap block, so the check asks the
// granule's word alone (when the checks include it).
llvm::Instruction *insertRaceFastPath(const RaceFastPathChecks &Checks,
                                      llvm::Instruction *Before,
                                      llvm::Value *Addr, unsigned Bytes,
                                      bool IsWrite, bool NotHeap = false);

// Emits before `Before` the check of a group of accesses (AccessGroups.h):
// whether bytes [Base + Offset, Base + Offset + Bytes) lie in a coarse
// block the thread remembers whose state needs no work for a write
// (`IsWrite`) or a read there. Returns the answer, an i1 that is true when
// no access of the group needs its check or hook.
llvm::Value *insertRaceGroupCheck(llvm::Instruction *Before, llvm::Value *Base,
                                  int64_t Offset, uint64_t Bytes, bool IsWrite);

} // namespace snag

#endif
