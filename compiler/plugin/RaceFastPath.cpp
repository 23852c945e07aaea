#include "RaceFastPath.h"

#include "snag/race_fast_path.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

using namespace llvm;

namespace snag {

RaceFastPathChecks RaceFastPathChecks::fromEnvironment() {
  RaceFastPathChecks Checks;
  const char *Spec = std::getenv("SNAG_RACE_INLINE");
  // The default, from bench/results/race_bench.txt §19: blocks first (an
  // owner check first reads the shadow of large blocks, which has none),
  // in loops only (the same speed, half the code); groups from §71.
  if (!Spec)
    Spec = "blocks,owner,loops,groups";
  SmallVector<StringRef, 4> Words;
  StringRef(Spec).split(Words, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Word : Words) {
    Word = Word.trim();
    if (Word == "blocks")
      Checks.RememberedBlocks = true;
    else if (Word == "owner") {
      Checks.OwnerFirst = !Checks.RememberedBlocks;
      Checks.OwnerWord = true;
    }
    else if (Word == "loops")
      Checks.LoopsOnly = true;
    else if (Word == "groups")
      Checks.Groups = true;
    else if (Word == "none")
      Checks = RaceFastPathChecks();
    else if (!Word.empty())
      report_fatal_error("snag: SNAG_RACE_INLINE: unknown word '" + Word +
                             "' (expected a comma-separated list of blocks, "
                             "owner, loops, groups, none)",
                         /*gen_crash_diag=*/false);
  }
  return Checks;
}

namespace {

// Builds the check as a chain of blocks: each test branches to `Done` (no
// hook needed), to the next test, or to `Hook`.
class CheckBuilder {
public:
  CheckBuilder(BasicBlock *Head, BasicBlock *Done, BasicBlock *Hook,
               const DebugLoc &Loc)
      : M(*Head->getModule()), C(M.getContext()), IRB(Head), Done(Done),
        Hook(Hook), I8(Type::getInt8Ty(C)), I64(Type::getInt64Ty(C)) {
    IRB.SetCurrentDebugLocation(Loc);
  }

  // `NotHeap`: the access is to a local or global variable, never inside a
  // heap block, so the remembered blocks (two range compares that always
  // fail, ~14 instructions) are not asked: the granule's word decides.
  void emit(const RaceFastPathChecks &Checks, Value *Addr, unsigned Bytes,
            bool IsWrite, bool NotHeap) {
    Value *A = IRB.CreatePtrToInt(Addr, I64, "snag.addr");
    FastPath = fastPathData();
    Write = IsWrite;
    // The epoch word: 0 while the fast path is off (another engine wants
    // the access). Not tested here: no Exclusive word has owner bits 0 (a
    // slot's clocks start at 1), so the owner test cannot pass with a zero
    // epoch word; only the Shared-Read compare, which does not involve it,
    // asks it first (decide). Two instructions off every check.
    Me = load(I64, byteAddress(FastPath, SNAG_RACE_FAST_PATH_EPOCH_OFFSET),
              AtomicOrdering::NotAtomic, "snag.epoch");
    bool Blocks = Checks.RememberedBlocks && !(NotHeap && Checks.OwnerWord);
    if (Checks.OwnerWord && (Checks.OwnerFirst || !Blocks))
      ownerWord(A, Bytes, /*Last=*/!Blocks);
    if (Blocks)
      for (unsigned I = 0; I < SNAG_RACE_REMEMBERED_COUNT; ++I)
        rememberedBlock(I, A, Bytes);
    if (Blocks && Checks.OwnerWord && !Checks.OwnerFirst)
      ownerWord(A, Bytes, /*Last=*/true);
    else if (Blocks)
      IRB.CreateBr(Hook);
  }

  // A group's range: the remembered blocks only (a range of several
  // granules has no one state word).
  void emitRange(Value *Lo, uint64_t Bytes, bool IsWrite) {
    FastPath = fastPathData();
    Write = IsWrite;
    Me = load(I64, byteAddress(FastPath, SNAG_RACE_FAST_PATH_EPOCH_OFFSET),
              AtomicOrdering::NotAtomic, "snag.epoch");
    for (unsigned I = 0; I < SNAG_RACE_REMEMBERED_COUNT; ++I)
      rememberedBlock(I, Lo, Bytes);
    IRB.CreateBr(Hook);
  }

private:
  // If `Cond` holds, go on in a new block; else to `Else`.
  void branch(Value *Cond, BasicBlock *Else) {
    BasicBlock *Next = BasicBlock::Create(C, "snag.check", Done->getParent(), Done);
    IRB.CreateCondBr(Cond, Next, Else);
    IRB.SetInsertPoint(Next);
  }

  static constexpr uint64_t sharedReadWord(uint64_t Lockset) {
    return SNAG_RACE_KIND_SHARED_READ | (Lockset << SNAG_RACE_LOCKSET_SHIFT);
  }

  // Whether Exclusive state word `W` is this thread's in its current epoch
  // (epoch word `Me`) with the `Need` bytes touched (a value in bits 4-11),
  // and written already for a write. The masked word, kind bits included,
  // xor-ed with what an owner's word would read: the owner bits match iff
  // no bit from 3 up is left, and then what is left is the kind. So the
  // word passes iff the result is 1 or 2 (Exclusive0/1: one compare after
  // a decrement) or 5 (Exclusive2). Asked as a masked compare and a bit
  // test of the kind apart, it took ~4 more instructions per check on every
  // hit (the sort of thread_local_heavy, race_bench §74) and as many on a
  // miss.
  Value *ownedByMe(Value *W, Value *Me, Value *Need, bool IsWrite) {
    static_assert(SNAG_RACE_KIND_EXCLUSIVE0 == 1 && SNAG_RACE_KIND_EXCLUSIVE1 == 2 &&
                      SNAG_RACE_KIND_EXCLUSIVE2 == 5,
                  "the compares below name the Exclusive kinds by value");
    Value *Extra = IsWrite ? IRB.CreateOr(Need, ConstantInt::get(I64, SNAG_RACE_WROTE_BIT))
                           : Need;
    Value *Mask = IRB.CreateOr(Extra, ConstantInt::get(I64, SNAG_RACE_OWNER_MASK | SNAG_RACE_KIND_MASK));
    Value *Left = IRB.CreateXor(IRB.CreateAnd(W, Mask), IRB.CreateOr(Me, Extra), "snag.left");
    Value *Exclusive01 = IRB.CreateICmpULT(IRB.CreateAdd(Left, ConstantInt::get(I64, -1)),
                                           ConstantInt::get(I64, 2));
    Value *Exclusive2 = IRB.CreateICmpEQ(Left, ConstantInt::get(I64, SNAG_RACE_KIND_EXCLUSIVE2));
    return IRB.CreateOr(Exclusive01, Exclusive2);
  }

  // Ends the current block: to `Done` when state word `W` needs no work
  // for this access (`Need`: the bytes it touches, in bits 4-11), else to
  // `Else`. The owner's own word is asked first, the commonest answer; only
  // a read that is not the owner's goes on to the Shared-Read words with no
  // lock or exactly the thread's locks. (Asked together, every read paid
  // the lockset's load and the two compares: ~10 instructions of a ~40
  // instruction check, task_graph's string sort.)
  void decide(Value *W, Value *Need, BasicBlock *Else) {
    Value *Mine = ownedByMe(W, Me, Need, Write);
    if (Write) {
      IRB.CreateCondBr(Mine, Done, Else);
      return;
    }
    BasicBlock *Shared = BasicBlock::Create(C, "snag.shared", Done->getParent(), Done);
    IRB.CreateCondBr(Mine, Done, Shared);
    IRB.SetInsertPoint(Shared);
    // A Shared-Read word passes whatever the epoch word: with the fast
    // path off (0), the hook.
    branch(IRB.CreateICmpNE(Me, ConstantInt::get(I64, 0)), Else);
    Value *Locks = load(Type::getInt32Ty(C),
                        byteAddress(FastPath, SNAG_RACE_FAST_PATH_LOCKSET_ALL_OFFSET),
                        AtomicOrdering::NotAtomic, "snag.locks");
    Value *SharedMine = IRB.CreateOr(IRB.CreateShl(IRB.CreateZExt(Locks, I64), SNAG_RACE_LOCKSET_SHIFT),
                                     ConstantInt::get(I64, SNAG_RACE_KIND_SHARED_READ));
    Value *NoLock = IRB.CreateICmpEQ(W, ConstantInt::get(I64, sharedReadWord(SNAG_RACE_EMPTY_LOCKSET)));
    Value *MyLocks = IRB.CreateICmpEQ(W, SharedMine);
    IRB.CreateCondBr(IRB.CreateOr(NoLock, MyLocks), Done, Else);
  }

  // Remembered block `I`: when [A, A + Bytes) lies in its range, its
  // record's state decides (if the record still has that range and is not
  // fine; records are reused); otherwise the next check.
  void rememberedBlock(unsigned I, Value *A, uint64_t Bytes) {
    uint64_t Entry = SNAG_RACE_FAST_PATH_REMEMBERED_OFFSET + I * SNAG_RACE_REMEMBERED_SIZE;
    Value *Start = load(I64, byteAddress(FastPath, Entry + SNAG_RACE_REMEMBERED_START_OFFSET),
                        AtomicOrdering::NotAtomic, "snag.start");
    Value *End = load(I64, byteAddress(FastPath, Entry + SNAG_RACE_REMEMBERED_END_OFFSET),
                      AtomicOrdering::NotAtomic, "snag.end");
    Value *Inside = IRB.CreateAnd(
        IRB.CreateICmpUGE(A, Start),
        IRB.CreateICmpULE(IRB.CreateAdd(A, ConstantInt::get(I64, Bytes)), End));
    BasicBlock *NotInside = BasicBlock::Create(C, "snag.check", Done->getParent(), Done);
    branch(Inside, NotInside);
    Value *Block = load(IRB.getInt8PtrTy(),
                        byteAddress(FastPath, Entry + SNAG_RACE_REMEMBERED_BLOCK_OFFSET),
                        AtomicOrdering::NotAtomic, "snag.block");
    // The same order as the runtime's remembered_block_needs_no_work: the
    // fine flag, the state (acquire), then the range.
    Value *Fine = load(I8, byteAddress(Block, SNAG_RACE_BLOCK_FINE_OFFSET),
                       AtomicOrdering::Monotonic, "snag.fine");
    branch(IRB.CreateICmpEQ(Fine, ConstantInt::get(I8, 0)), Hook);
    Value *State = load(I64, byteAddress(Block, SNAG_RACE_BLOCK_STATE_OFFSET),
                        AtomicOrdering::Acquire, "snag.state");
    Value *BlockStart = load(I64, byteAddress(Block, SNAG_RACE_BLOCK_START_OFFSET),
                             AtomicOrdering::Monotonic, "snag.block.start");
    // 32 bits (race_fast_path.h): a block of 4 GiB or more never matches.
    Value *BlockSize = IRB.CreateZExt(load(Type::getInt32Ty(C), byteAddress(Block, SNAG_RACE_BLOCK_SIZE_OFFSET),
                                           AtomicOrdering::Monotonic, "snag.block.size"),
                                      I64);
    Value *SameRange = IRB.CreateAnd(IRB.CreateICmpEQ(BlockStart, Start),
                                     IRB.CreateICmpEQ(IRB.CreateAdd(BlockStart, BlockSize), End));
    branch(SameRange, Hook);
    // A block's state counts all bytes as touched.
    decide(State, ConstantInt::get(I64, SNAG_RACE_BYTES_MASK), Hook);
    IRB.SetInsertPoint(NotInside);
  }

  // The granule's direct-mapped state word (none yet: the hook). When not
  // `Last`, a word that does not answer goes on to the next check.
  void ownerWord(Value *A, unsigned Bytes, bool Last) {
    BasicBlock *Else = Last ? Hook : BasicBlock::Create(C, "snag.check", Done->getParent(), Done);
    Value *Slot = IRB.CreateLShr(A, SNAG_RACE_SLOT_BITS);
    branch(IRB.CreateICmpULT(Slot, ConstantInt::get(I64, SNAG_RACE_SLOT_COUNT)), Else);
    auto *Table = cast<GlobalVariable>(M.getOrInsertGlobal(
        "__snag_slot_offset", ArrayType::get(I64, SNAG_RACE_SLOT_COUNT)));
    Value *OffsetPtr = IRB.CreateInBoundsGEP(Table->getValueType(), Table,
                                             {ConstantInt::get(I64, 0), Slot});
    Value *Offset = load(I64, OffsetPtr, AtomicOrdering::Acquire, "snag.slot.offset");
    branch(IRB.CreateICmpNE(Offset, ConstantInt::get(I64, 0)), Else);
    Value *Granule = IRB.CreateAnd(A, ConstantInt::get(I64, ~uint64_t{7}));
    Value *Cell = IRB.CreateIntToPtr(IRB.CreateAdd(Granule, Offset), I64->getPointerTo());
    Value *W = load(I64, Cell, AtomicOrdering::Acquire, "snag.word");
    // The bytes of the granule the access touches, in bits 4-11 (an
    // aligned access stays inside its granule).
    Value *Need;
    if (Bytes == 8) {
      Need = ConstantInt::get(I64, SNAG_RACE_BYTES_MASK);
    } else {
      Value *Shift = IRB.CreateAdd(IRB.CreateAnd(A, ConstantInt::get(I64, 7)),
                                   ConstantInt::get(I64, SNAG_RACE_BYTES_SHIFT));
      Need = IRB.CreateShl(ConstantInt::get(I64, (1u << Bytes) - 1), Shift);
    }
    decide(W, Need, Else);
    if (!Last)
      IRB.SetInsertPoint(Else);
  }

  // `extern __thread char __snag_fast_path[]`, initial-exec: %fs-relative
  // loads, as the runtime (a static library) defines it in the executable.
  Value *fastPathData() {
    auto *Data = cast<GlobalVariable>(M.getOrInsertGlobal(
        "__snag_fast_path",
        ArrayType::get(I64, (SNAG_RACE_FAST_PATH_REMEMBERED_OFFSET +
                             SNAG_RACE_REMEMBERED_COUNT * SNAG_RACE_REMEMBERED_SIZE) / 8)));
    Data->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
    return Data;
  }

  Value *byteAddress(Value *Base, uint64_t Offset) {
    Value *Bytes = IRB.CreatePointerCast(Base, IRB.getInt8PtrTy());
    return IRB.CreateConstInBoundsGEP1_64(I8, Bytes, Offset);
  }

  Value *load(Type *Ty, Value *BytePtr, AtomicOrdering Order, const Twine &Name) {
    Value *Ptr = IRB.CreatePointerCast(BytePtr, Ty->getPointerTo());
    LoadInst *L = IRB.CreateAlignedLoad(Ty, Ptr, Align(Ty->isPointerTy() ? 8 : Ty->getPrimitiveSizeInBits() / 8), Name);
    if (Order != AtomicOrdering::NotAtomic)
      L->setAtomic(Order);
    return L;
  }

  Module &M;
  LLVMContext &C;
  IRBuilder<> IRB;
  BasicBlock *Done;
  BasicBlock *Hook;
  Type *I8;
  IntegerType *I64;
  // Of the access being checked (emit).
  Value *FastPath = nullptr; // the thread's __snag_fast_path
  Value *Me = nullptr;       // its epoch word
  bool Write = false;
};

} // namespace

Instruction *insertRaceFastPath(const RaceFastPathChecks &Checks,
                                Instruction *Before, Value *Addr,
                                unsigned Bytes, bool IsWrite, bool NotHeap) {
  BasicBlock *Head = Before->getParent();
  BasicBlock *Done = SplitBlock(Head, Before);
  LLVMContext &C = Head->getContext();
  BasicBlock *Hook = BasicBlock::Create(C, "snag.hook", Head->getParent(), Done);
  Instruction *HookEnd = BranchInst::Create(Done, Hook);
  HookEnd->setDebugLoc(Before->getDebugLoc());
  Head->getTerminator()->eraseFromParent();
  CheckBuilder(Head, Done, Hook, Before->getDebugLoc()).emit(Checks, Addr, Bytes, IsWrite, NotHeap);
  return HookEnd;
}

Value *insertRaceGroupCheck(Instruction *Before, Value *Base, int64_t Offset,
                            uint64_t Bytes, bool IsWrite) {
  BasicBlock *Head = Before->getParent();
  BasicBlock *Done = SplitBlock(Head, Before);
  LLVMContext &C = Head->getContext();
  // "No": each member checks for itself.
  BasicBlock *No = BasicBlock::Create(C, "snag.group.no", Head->getParent(), Done);
  BranchInst::Create(Done, No)->setDebugLoc(Before->getDebugLoc());
  Head->getTerminator()->eraseFromParent();
  IRBuilder<> IRB(Head);
  IRB.SetCurrentDebugLocation(Before->getDebugLoc());
  Type *I64 = Type::getInt64Ty(C);
  Value *Lo = IRB.CreateAdd(IRB.CreatePtrToInt(Base, I64),
                            ConstantInt::get(I64, static_cast<uint64_t>(Offset)), "snag.group.lo");
  CheckBuilder Builder(Head, Done, No, Before->getDebugLoc());
  Builder.emitRange(Lo, Bytes, IsWrite);
  PHINode *Yes = PHINode::Create(Type::getInt1Ty(C), 4, "snag.group.yes", &Done->front());
  for (BasicBlock *Pred : predecessors(Done))
    Yes->addIncoming(ConstantInt::getBool(C, Pred != No), Pred);
  return Yes;
}

} // namespace snag
