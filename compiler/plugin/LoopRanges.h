// Loop-range checks: one runtime question before a loop instead of one hook
// call per access in it.
//
// A loop that neither calls a function nor uses atomics cannot synchronize,
// so the calling thread's epoch and locks are the same in every iteration.
// For an access in such a loop whose address is loop-invariant or steps by a
// constant (a scalar-evolution recurrence), the bytes of all its iterations
// form a range computable before the loop. The block entering it asks the
// runtime once (__snag_loop_range_unchanged) whether every access to that
// range would change nothing; the access's hook then runs only when the
// answer is no. An address a bounded offset from a loop-invariant base (an
// index modulo a constant) is asked about over all the offsets it can take,
// except an index that steps by one and wraps around a power-of-two ring
// (b[i & 31]), asked about over the slots its iterations reach
// (__snag_loop_ring_unchanged: the slots from its first value, as many as
// the loop's count, one or two runs), and a range that outer quiet loops running the loop on every iteration do
// not move is asked about once, before the outermost of them. After the first such hook call in a run of the loop the
// question is asked once more (MemoryInstrumentation.cpp, askAgainBefore):
// the no was often the first access's own work, which the hook just did.
// The runtime says yes only to the race engine alone
// (runtime/engines/race/fast_path.cpp), so other engines see every access.
#ifndef SNAG_PLUGIN_LOOP_RANGES_H
#define SNAG_PLUGIN_LOOP_RANGES_H

#include "RuntimeHooks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instruction.h"

#include <map>
#include <tuple>
#include <vector>

namespace snag {

class LoopRanges {
public:
  LoopRanges(llvm::LoopInfo &LI, llvm::ScalarEvolution &SE, RuntimeHooks &Hooks)
      : LI(LI), SE(SE), Hooks(Hooks) {}

  // One loop-range question: where its answer lives while the loop runs, and
  // what it asked (so that it can be asked again inside the loop).
  struct Question {
    // An i8 in the function's entry block, set in the block entering the
    // loop: kSkip when the hook may be skipped, kAskAgain when the answer was
    // no, kNo when it was no also when asked again.
    llvm::AllocaInst *Slot;
    // The runtime call and its arguments (computed in the block entering
    // the loop): __snag_loop_range_unchanged(begin, bytes, write), or for an
    // index wrapping around a ring, __snag_loop_ring_unchanged(...).
    llvm::FunctionCallee Callee;
    llvm::SmallVector<llvm::Value *, 7> Args;
    // The question's code in the entering block, from the runtime call to
    // the store of its answer, and the loop's header.
    llvm::CallInst *Asked;
    llvm::StoreInst *Answered;
    llvm::BasicBlock *Header;
  };
  static constexpr uint8_t kAskAgain = 0, kSkip = 1, kNo = 2;

  // The question, asked in the block entering the innermost loop holding
  // `Access`, whose answer says when the access's hook may be skipped; null
  // when no such question can be asked. Valid while this object lives. Call
  // for every access before the function's blocks are split (the analyses
  // describe the function as it was).
  const Question *skipQuestion(llvm::Instruction *Access, llvm::Value *Addr,
                               uint64_t Bytes, bool IsWrite);

  // Moves each question whose block also branches around its loop onto the
  // edge into the loop, so that it is asked only when the loop runs. Call
  // once the function is instrumented (it changes the blocks the analyses
  // describe). A loop the entering block guards (std::mt19937's refill of
  // its 312-word state, every 312th call) asked about its whole range on
  // every call of the function: 38% of snag race's time in a thread pool's
  // test drawing random numbers.
  static void askOnEntryOnly(const std::vector<Question> &Questions);

private:
  bool neverSynchronizes(const llvm::Loop *L);
  llvm::Loop *outermostAsker(llvm::Loop *L, llvm::ArrayRef<const llvm::SCEV *> Asked,
                             llvm::BasicBlock *&Entering);
  static bool reachesWholeRing(const llvm::SCEV *Taken, unsigned Width);
  const Question *ringQuestion(llvm::Instruction *Access, llvm::Loop *L, llvm::BasicBlock *Entering,
                               const llvm::SCEV *Base, uint64_t Stride,
                               const llvm::SCEVAddRecExpr *Index, const llvm::SCEV *Taken,
                               uint64_t Bytes, bool IsWrite);
  const Question *ask(Question &Q, llvm::Instruction *Access, llvm::Loop *L,
                      llvm::IRBuilder<> &IRB);

  llvm::LoopInfo &LI;
  llvm::ScalarEvolution &SE;
  RuntimeHooks &Hooks;
  llvm::DenseMap<const llvm::Loop *, bool> Quiet;
  // One question per loop, range and kind. (The loop is part of the key: the
  // same range in a sibling loop is asked before that loop, where this
  // loop's answer is not defined.)
  std::map<std::tuple<const llvm::Loop *, const llvm::SCEV *, const llvm::SCEV *, bool>,
           Question>
      Questions;
};

} // namespace snag

#endif
