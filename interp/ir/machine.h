// The abstract machine of `snag check` (paper 001): interprets LLVM 14 IR as
// clang -O0 + mem2reg emits it, over the model memory, with model threads
// switched by a seeded random scheduler at every memory access and every
// synchronization operation. Values are concrete or unknown; a branch on
// unknown takes a random side. External functions are either modelled
// (threads, mutexes, condition variables, allocation, ...; models.cpp) or
// return unknown. One Machine is built per module; Run() interprets one entry
// with one seed and feeds races and deadlocks to the caller's Findings.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include "interp/ir/checker.h"
#include "interp/ir/memory.h"
#include "interp/sync_model.h"
#include "interp/value.h"

namespace llvm {
class BasicBlock;
class CallBase;
class Constant;
class DataLayout;
class DIType;
class Function;
class GlobalVariable;
class Instruction;
class Module;
class Type;
class Value;
}  // namespace llvm

namespace snag::interp::ir {

// A register value: a scalar Value, or the elements of an aggregate/vector.
struct RV {
  Value v = Value::Unknown();
  std::shared_ptr<std::vector<RV>> elems;
  static RV Of(Value v) { RV r; r.v = v; return r; }
  static RV Bits(uint64_t b) { return Of(Value::Concrete(b)); }
};

// What the thread does when its frame stack runs empty, in order.
struct Task {
  // kVirtual: calls slot `slot` of the vtable of the object in args[0] when
  // that function has a body (a GoogleTest fixture's SetUp/TearDown).
  enum class Kind { kCall, kSpawnPair, kJoinAll, kVirtual } kind = Kind::kCall;
  const llvm::Function* fn = nullptr;
  const llvm::Function* second = nullptr;  // kSpawnPair
  std::vector<RV> args;
  std::vector<RV> second_args;
  unsigned slot = 0;
};

struct Frame {
  const llvm::Function* fn = nullptr;
  const llvm::BasicBlock* bb = nullptr;
  const llvm::Instruction* pc = nullptr;
  const llvm::BasicBlock* prev = nullptr;
  std::vector<RV> regs;  // one slot per argument and value-producing instruction
  std::vector<uint64_t> allocas;
  bool system = false;  // body comes from a system header
  // Run when this frame returns (e.g. pthread_once marks the flag done).
  std::function<void(RV&)> on_return;
};

struct Thread {
  enum class State { kRunnable, kMutex, kRwRead, kRwWrite, kJoin, kJoinAll, kCond, kOnce, kSem, kDone };
  ThreadId id = 0;
  std::vector<Frame> frames;
  std::vector<Task> tasks;
  State state = State::kRunnable;
  uint64_t wait_on = 0;       // mutex / rwlock / thread id / cond var / once flag
  SourceSite wait_site;       // where it blocked (lock or join line)
  std::string wait_function;
  int call_phase = 0;         // multi-step models (cond wait: 1 = must relock)
  uint64_t cond_mutex = 0;
  bool woken = false;
  std::string description;
  bool ends_run = false;      // main thread: the run ends when it finishes
};

// Everything found over all runs, deduplicated by kind and site set.
class Findings {
 public:
  void Add(CheckFinding finding);
  void Note(const SourceSite& site, const std::string& message);
  CheckResult& result() { return result_; }

 private:
  CheckResult result_;
  std::set<std::pair<int, std::set<std::pair<std::string, unsigned>>>> seen_;
  std::set<std::pair<SourceSite, std::string>> noted_;
};

class Machine {
 public:
  Machine(llvm::Module& module, const CheckOptions& options, Findings& findings);
  ~Machine();

  // One run: thread 0 performs `tasks` (static constructors, then the entry).
  // Returns the steps taken.
  // `make_tasks` runs after the run's memory is set up, so it may allocate
  // the invented objects of in-the-middle starts.
  uint64_t Run(const std::string& entry_name,
               const std::function<std::vector<Task>(Machine&)>& make_tasks, uint64_t seed,
               uint64_t max_steps);

  const llvm::Module& module() const { return module_; }
  // Blocks the last run entered.
  const llvm::DenseSet<const llvm::BasicBlock*>& covered() const { return covered_; }
  const llvm::DataLayout& layout() const { return *dl_; }
  uint64_t FunctionAddress(const llvm::Function* f) const;
  const llvm::Function* FunctionAt(uint64_t address) const;
  // A fresh zeroed heap object of `size` bytes in the current run (entries).
  uint64_t AllocateObject(uint64_t size, const std::string& name, const llvm::DIType* type = nullptr);
  RV UnknownOf(const llvm::Type* type) const;
  // For an invented object whose constructor is not in the module: marks the
  // std::recursive_mutex members recursive, as their constructor would.
  void InitRecursiveMutexes(uint64_t object, const llvm::Type* type, int depth = 0);
  bool IsSystemFunction(const llvm::Function* f) const;

 private:
  enum class CallOutcome { kDone, kPushed, kBlocked, kEndThread, kEndRun };

  void SetupGlobals();
  void ResetRun(uint64_t seed);
  bool Step(Thread& t);  // false when the run must end
  void Execute(Thread& t, Frame& f, const llvm::Instruction& inst);
  void JumpTo(Frame& f, const llvm::BasicBlock* target);
  void Advance(Frame& f);
  void FinishCall(Thread& t, Frame& caller, RV result);
  void Return(Thread& t, RV result);
  void StartTask(Thread& t);
  bool Runnable(Thread& t);
  Thread& NewThread(const llvm::Function* fn, std::vector<RV> args, const SourceSite& created_at,
                    ThreadId parent);
  void EndThread(Thread& t);
  void CheckAllBlocked();

  // Register slots: arguments and instructions of each function are numbered
  // once, so a frame's registers are a vector, not a hash map.
  RV& Reg(Frame& f, const llvm::Value* v) { return f.regs[slot_of_.find(v)->second]; }

  // Operands and constants.
  RV Eval(Frame& f, const llvm::Value* v);
  RV EvalConstant(const llvm::Constant* c);
  void WriteConstant(MemObject& o, uint64_t offset, const llvm::Constant* c);
  RV Gep(Frame* f, const llvm::Value* gep);
  RV Cast(unsigned opcode, const RV& v, const llvm::Type* from, const llvm::Type* to);
  RV Binary(unsigned opcode, const RV& a, const RV& b, const llvm::Type* type);
  RV Compare(unsigned predicate, const RV& a, const RV& b, const llvm::Type* operand_type);

  // Memory, with race detection at the innermost user frame.
  RV Load(Thread& t, const llvm::Instruction& at, const llvm::Type* type, Value address,
          bool atomic);
  void Store(Thread& t, const llvm::Instruction& at, const llvm::Type* type, Value address,
             const RV& value, bool atomic);
  RV LoadFrom(MemObject& o, uint64_t offset, const llvm::Type* type);
  void StoreTo(MemObject& o, uint64_t offset, const llvm::Type* type, const RV& value);
  void Touch(Thread& t, const llvm::Instruction& at, uint64_t address, uint64_t size,
             bool is_write, const MemObject& o);
  void CopyBytes(Thread& t, const llvm::Instruction& at, Value dst, Value src, Value size);
  void SetBytes(Thread& t, const llvm::Instruction& at, Value dst, Value byte, Value size);
  Value ReadWord(uint64_t address, unsigned bytes);  // no race check (model internals)
  void WriteWord(uint64_t address, unsigned bytes, uint64_t value);

  // Calls.
  CallOutcome Call(Thread& t, Frame& f, const llvm::CallBase& call);
  CallOutcome CallModel(Thread& t, Frame& f, const llvm::CallBase& call,
                        const llvm::Function* callee, std::vector<RV>& args, RV& result);
  CallOutcome CallIntrinsic(Thread& t, Frame& f, const llvm::CallBase& call,
                            const llvm::Function* callee, std::vector<RV>& args, RV& result);
  void PushFrame(Thread& t, const llvm::Function* fn, std::vector<RV> args);

  CallOutcome TreeModel(Thread& t, const llvm::Instruction& call, int which,
                        std::vector<RV>& args, RV& result);

  // Synchronization models (models.cpp).
  CallOutcome LockMutex(Thread& t, const llvm::Instruction& at, uint64_t mutex, bool try_only,
                        RV& result);
  void UnlockMutex(Thread& t, uint64_t mutex);
  bool MutexIsRecursive(uint64_t mutex);
  CallOutcome CondWait(Thread& t, const llvm::Instruction& at, uint64_t cond, uint64_t mutex,
                       bool timed, RV& result);
  void CondNotify(Thread& t, uint64_t cond, bool all);
  CallOutcome StartThread(Thread& t, const llvm::Instruction& at, const llvm::Function* fn,
                          std::vector<RV> args, uint64_t* id_out);
  CallOutcome JoinThread(Thread& t, const llvm::Instruction& at, uint64_t id);

  // Sites and names.
  const SourceSite& UserSite(Thread& t, const llvm::Instruction& at, std::string* function = nullptr);
  uint32_t UserSiteIndex(Thread& t, const llvm::Instruction& at);
  const SourceSite& SiteOf(const llvm::Instruction& at);
  void Note(const llvm::Instruction& at, const std::string& message);
  std::string VariableName(uint64_t address);
  // Class name and debug type of what a `new`/malloc call allocates, when
  // the result is cast to a user struct (heap objects have no variable).
  std::pair<std::string, const llvm::DIType*> HeapTypeOf(const llvm::Instruction& call);
  void IndexComposites();  // composite_by_name_, once
  void ReportRaces();
  void ReportLockOrder();
  std::string ThreadName(ThreadId id) const;

  bool Chance();  // a fair coin from the run's generator
  uint64_t Pick(uint64_t n);

  llvm::Module& module_;
  const llvm::DataLayout* dl_;
  CheckOptions options_;
  Findings& findings_;

  // Fixed per module.
  std::unordered_map<const llvm::Function*, uint64_t> function_address_;
  std::vector<const llvm::Function*> functions_by_index_;
  std::unordered_map<const llvm::GlobalVariable*, uint64_t> global_address_;
  std::vector<MemObject> global_images_;
  std::unordered_map<const llvm::GlobalVariable*, size_t> global_index_;
  std::unordered_map<const llvm::Value*, std::pair<std::string, const llvm::DIType*>> local_names_;
  std::unordered_map<const llvm::Function*, int> model_of_;
  mutable std::unordered_map<const llvm::Function*, bool> system_;
  llvm::DenseMap<const llvm::Value*, uint32_t> slot_of_;  // open addressing: the hottest lookup
  std::unordered_map<const llvm::Function*, uint32_t> slot_count_;
  // Sites of instructions, numbered once; per run, the detector's id of each
  // (-1 until first used), so a hot access looks nothing up by file name.
  std::deque<SourceSite> sites_;
  llvm::DenseMap<const llvm::Instruction*, uint32_t> site_index_;
  std::vector<int64_t> run_site_id_;
  uint32_t SiteIndex(const llvm::Instruction& at);
  llvm::DenseMap<const llvm::Constant*, RV> constant_cache_;
  std::unordered_map<const llvm::Function*, std::string> demangled_;
  std::unordered_map<std::string, const llvm::DIType*> composite_by_name_;  // "ns::Foo"
  bool composites_indexed_ = false;
  std::unordered_map<const llvm::Instruction*, std::pair<std::string, const llvm::DIType*>> heap_type_;

  // Per run.
  std::string entry_;
  Memory memory_;
  std::unique_ptr<SyncModel> sync_;
  std::vector<std::unique_ptr<Thread>> threads_;
  std::mt19937_64 rng_;
  uint64_t steps_ = 0;
  uint64_t max_steps_ = 0;
  bool run_over_ = false;
  bool preempt_ = false;
  bool multi_threaded_ = false;
  ThreadId current_ = 0;
  std::map<uint64_t, SourceSite> held_site_;  // mutex -> where its owner took it
  std::map<uint64_t, std::string> held_function_;
  struct RwLock {
    std::set<ThreadId> readers;
    bool writer = false;
    ThreadId writer_id = 0;
  };
  std::map<uint64_t, RwLock> rwlocks_;
  std::map<std::pair<uint64_t, ThreadId>, std::pair<SourceSite, std::string>> rw_site_;
  std::map<uint64_t, std::vector<ThreadId>> cond_waiters_;
  std::map<uint64_t, int> once_state_;  // 0 new, 1 running, 2 done
  std::map<uint64_t, int> guard_state_;
  std::map<std::pair<ThreadId, const llvm::GlobalVariable*>, uint64_t> tls_address_;
  llvm::DenseSet<const llvm::BasicBlock*> covered_;
  std::map<SourceSite, std::string> site_function_;
};

}  // namespace snag::interp::ir
