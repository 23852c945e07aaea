// Models of the external functions C and C++ code synchronizes and allocates
// with, chosen by (mangled) name: pthreads, what libstdc++ keeps out of line
// (std::thread::_M_start_thread/join/detach, std::condition_variable, the
// futex waits of futures), function-local statics (__cxa_guard_*),
// std::call_once (pthread_once + __once_proxy), malloc/new and the mem*
// functions. Everything else without a body returns unknown.
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <tuple>
#include <unordered_map>

#include "interp/ir/machine.h"

namespace snag::interp::ir {

namespace {

enum class Model {
  kNone,
  kPthreadCreate, kPthreadJoin, kPthreadDetach, kPthreadSelf, kPthreadEqual,
  kMutexLock, kMutexTryLock, kMutexTimedLock, kMutexUnlock, kMutexInit, kMutexAttrSetType, kMutexAttrInit,
  kRwRead, kRwWrite, kRwTryRead, kRwTryWrite, kRwUnlock,
  kCondWait, kCondTimedWait, kCondSignal, kCondBroadcast,
  kStdCondWait, kStdCondNotifyOne, kStdCondNotifyAll,
  kOnce, kStartThread, kThreadJoin, kThreadDetach,
  kMalloc, kCalloc, kRealloc, kFree, kNew, kDelete, kAlignedAlloc, kPosixMemalign,
  kMemcpy, kMemset, kStrlen,
  kGuardAcquire, kGuardRelease, kGuardAbort,
  kEndThread, kEndRun, kYield, kReturnZero, kReturnOne, kHashBytes,
  kThrdCreate, kThrdJoin, kMtxInit, kMtxTryLock, kSemInit, kSemWait, kSemTryWait, kSemPost,
  kRbInsert, kRbIncrement, kRbDecrement, kNeedRehash, kNextBucket, kMemcmp, kStrcmp,
};

Model ModelByName(const std::string& name) {
  static const std::unordered_map<std::string, Model> table = {
      {"pthread_create", Model::kPthreadCreate},
      {"pthread_join", Model::kPthreadJoin},
      {"pthread_detach", Model::kPthreadDetach},
      {"pthread_self", Model::kPthreadSelf},
      {"pthread_equal", Model::kPthreadEqual},
      {"pthread_mutex_lock", Model::kMutexLock},
      // A timed lock gives up instead of waiting forever: it never closes a
      // deadlock, so it is a try-lock that reports ETIMEDOUT.
      {"pthread_mutex_timedlock", Model::kMutexTimedLock},
      {"pthread_mutex_clocklock", Model::kMutexTimedLock},
      {"pthread_mutex_trylock", Model::kMutexTryLock},
      {"pthread_mutex_unlock", Model::kMutexUnlock},
      {"pthread_mutex_init", Model::kMutexInit},
      {"pthread_mutex_destroy", Model::kReturnZero},
      {"pthread_mutexattr_init", Model::kMutexAttrInit},
      {"pthread_mutexattr_settype", Model::kMutexAttrSetType},
      {"pthread_mutexattr_destroy", Model::kReturnZero},
      {"pthread_spin_lock", Model::kMutexLock},
      {"pthread_spin_trylock", Model::kMutexTryLock},
      {"pthread_spin_unlock", Model::kMutexUnlock},
      {"pthread_spin_init", Model::kReturnZero},
      {"pthread_rwlock_rdlock", Model::kRwRead},
      {"pthread_rwlock_timedrdlock", Model::kRwTryRead},
      {"pthread_rwlock_clockrdlock", Model::kRwTryRead},
      {"pthread_rwlock_wrlock", Model::kRwWrite},
      {"pthread_rwlock_timedwrlock", Model::kRwTryWrite},
      {"pthread_rwlock_clockwrlock", Model::kRwTryWrite},
      {"pthread_rwlock_tryrdlock", Model::kRwTryRead},
      {"pthread_rwlock_trywrlock", Model::kRwTryWrite},
      {"pthread_rwlock_unlock", Model::kRwUnlock},
      {"pthread_rwlock_init", Model::kReturnZero},
      {"pthread_rwlock_destroy", Model::kReturnZero},
      {"pthread_cond_wait", Model::kCondWait},
      {"pthread_cond_timedwait", Model::kCondTimedWait},
      {"pthread_cond_clockwait", Model::kCondTimedWait},
      {"pthread_cond_signal", Model::kCondSignal},
      {"pthread_cond_broadcast", Model::kCondBroadcast},
      {"pthread_cond_init", Model::kReturnZero},
      {"pthread_cond_destroy", Model::kReturnZero},
      {"pthread_once", Model::kOnce},
      // C11 <threads.h>: glibc builds them on the pthread objects.
      {"thrd_create", Model::kThrdCreate},
      {"thrd_join", Model::kThrdJoin},
      {"thrd_detach", Model::kPthreadDetach},
      {"thrd_yield", Model::kYield},
      {"thrd_sleep", Model::kYield},
      {"thrd_exit", Model::kEndThread},
      {"mtx_init", Model::kMtxInit},
      {"mtx_lock", Model::kMutexLock},
      {"mtx_timedlock", Model::kMtxTryLock},
      {"mtx_trylock", Model::kMtxTryLock},
      {"mtx_unlock", Model::kMutexUnlock},
      {"mtx_destroy", Model::kReturnZero},
      {"cnd_wait", Model::kCondWait},
      {"cnd_timedwait", Model::kCondTimedWait},
      {"cnd_signal", Model::kCondSignal},
      {"cnd_broadcast", Model::kCondBroadcast},
      {"cnd_init", Model::kReturnZero},
      {"cnd_destroy", Model::kReturnZero},
      {"call_once", Model::kOnce},
      // POSIX semaphores: the count lives in the sem_t's first word.
      {"sem_init", Model::kSemInit},
      {"sem_wait", Model::kSemWait},
      {"sem_timedwait", Model::kSemTryWait},
      {"sem_clockwait", Model::kSemTryWait},
      {"sem_trywait", Model::kSemTryWait},
      {"sem_post", Model::kSemPost},
      {"sem_destroy", Model::kReturnZero},
      {"_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE", Model::kStdCondWait},
      {"_ZNSt18condition_variable10notify_oneEv", Model::kStdCondNotifyOne},
      {"_ZNSt18condition_variable10notify_allEv", Model::kStdCondNotifyAll},
      {"_ZNSt18condition_variableC1Ev", Model::kReturnZero},
      {"_ZNSt18condition_variableD1Ev", Model::kReturnZero},
      {"_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
       Model::kStartThread},
      {"_ZNSt6thread4joinEv", Model::kThreadJoin},
      {"_ZNSt6thread6detachEv", Model::kThreadDetach},
      {"malloc", Model::kMalloc},
      {"calloc", Model::kCalloc},
      {"realloc", Model::kRealloc},
      {"free", Model::kFree},
      {"aligned_alloc", Model::kAlignedAlloc},
      {"posix_memalign", Model::kPosixMemalign},
      {"__cxa_allocate_exception", Model::kMalloc},
      {"_Znwm", Model::kNew},
      {"_Znam", Model::kNew},
      {"_ZnwmRKSt9nothrow_t", Model::kNew},
      {"_ZnamRKSt9nothrow_t", Model::kNew},
      {"_ZnwmSt11align_val_t", Model::kNew},
      {"_ZnamSt11align_val_t", Model::kNew},
      {"_ZdlPv", Model::kDelete},
      {"_ZdaPv", Model::kDelete},
      {"_ZdlPvm", Model::kDelete},
      {"_ZdaPvm", Model::kDelete},
      {"_ZdlPvSt11align_val_t", Model::kDelete},
      {"_ZdlPvmSt11align_val_t", Model::kDelete},
      {"memcpy", Model::kMemcpy},
      {"memmove", Model::kMemcpy},
      {"memset", Model::kMemset},
      {"strlen", Model::kStrlen},
      {"memcmp", Model::kMemcmp},
      {"bcmp", Model::kMemcmp},
      {"strcmp", Model::kStrcmp},
      {"__cxa_guard_acquire", Model::kGuardAcquire},
      {"__cxa_guard_release", Model::kGuardRelease},
      {"__cxa_guard_abort", Model::kGuardAbort},
      {"__cxa_throw", Model::kEndThread},
      {"__cxa_rethrow", Model::kEndThread},
      {"_ZSt9terminatev", Model::kEndThread},
      {"abort", Model::kEndThread},
      {"__assert_fail", Model::kEndThread},
      {"pthread_exit", Model::kEndThread},
      {"exit", Model::kEndRun},
      {"_Exit", Model::kEndRun},
      {"quick_exit", Model::kEndRun},
      {"sched_yield", Model::kYield},
      {"nanosleep", Model::kYield},
      {"usleep", Model::kYield},
      {"sleep", Model::kYield},
      {"clock_nanosleep", Model::kYield},
      {"syscall", Model::kYield},  // futex waits of atomic::wait, latch, semaphores
      {"__cxa_atexit", Model::kReturnZero},
      {"atexit", Model::kReturnZero},
      {"_ZNSt28__atomic_futex_unsigned_base19_M_futex_notify_allEPj", Model::kYield},
      {"_ZSt11_Hash_bytesPKvmm", Model::kHashBytes},
      // std::map/std::set keep their tree links out of line in libstdc++.so.
      {"_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_", Model::kRbInsert},
      {"_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base", Model::kRbIncrement},
      {"_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base", Model::kRbIncrement},
      {"_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base", Model::kRbDecrement},
      {"_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base", Model::kRbDecrement},
      // std::unordered_map sizes its buckets out of line.
      {"_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm", Model::kNeedRehash},
      {"_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm", Model::kNextBucket},
      {"_ZSt15_Fnv_hash_bytesPKvmm", Model::kHashBytes},
  };
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  // std::__throw_logic_error and friends never return.
  if (name.rfind("_ZSt", 0) == 0 && name.find("__throw_") != std::string::npos) return Model::kEndThread;
  // Futures wait on a futex; a wake-up that may be spurious is always allowed.
  if (name.rfind("_ZNSt28__atomic_futex_unsigned_base19_M_futex_wait_until", 0) == 0)
    return Model::kReturnOne;
  return Model::kNone;
}

constexpr uint64_t kBusy = 16;  // EBUSY

}  // namespace

Machine::CallOutcome Machine::CallModel(Thread& t, Frame& f, const llvm::CallBase& call,
                                        const llvm::Function* callee, std::vector<RV>& args,
                                        RV& result) {
  auto found = model_of_.find(callee);
  if (found == model_of_.end())
    found = model_of_.emplace(callee, static_cast<int>(ModelByName(callee->getName().str()))).first;
  const Model model = static_cast<Model>(found->second);
  auto word = [&](size_t i) { return i < args.size() && !args[i].elems ? args[i].v : Value::Unknown(); };
  auto known = [&](size_t i) { return !word(i).IsUnknown(); };
  auto at = [&](size_t i) { return word(i).Bits(); };
  if (model != Model::kNone) preempt_ = true;

  switch (model) {
    case Model::kNone:
      return CallOutcome::kDone;  // unknown result, nothing written
    case Model::kReturnZero:
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kReturnOne:
      result = RV::Bits(1);
      return CallOutcome::kDone;
    case Model::kYield:
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kEndThread:
      return CallOutcome::kEndThread;
    case Model::kEndRun:
      return CallOutcome::kEndRun;

    case Model::kPthreadCreate: {
      const llvm::Function* fn = known(2) ? FunctionAt(at(2)) : nullptr;
      uint64_t id = 0;
      CallOutcome o = StartThread(t, call, fn, {args.size() > 3 ? args[3] : RV()}, &id);
      if (id != 0 && known(0)) WriteWord(at(0), 8, id);
      result = RV::Bits(id != 0 ? 0 : 11);  // EAGAIN when no thread was made
      return o;
    }
    case Model::kThrdCreate: {  // (thrd_t*, int (*)(void*), void*)
      const llvm::Function* fn = known(1) ? FunctionAt(at(1)) : nullptr;
      uint64_t id = 0;
      CallOutcome o = StartThread(t, call, fn, {args.size() > 2 ? args[2] : RV()}, &id);
      if (id != 0 && known(0)) WriteWord(at(0), 8, id);
      result = RV::Bits(id != 0 ? 0 : 2);  // thrd_success / thrd_error
      return o;
    }
    case Model::kThrdJoin:
      result = RV::Bits(0);
      if (!known(0)) return CallOutcome::kDone;
      return JoinThread(t, call, at(0));
    case Model::kMtxInit:  // (mtx_t*, type): mtx_recursive is bit 1
      if (known(0)) WriteWord(at(0) + 16, 4, known(1) && (at(1) & 1) ? 1 : 0);
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kMtxTryLock: {
      if (!known(0)) return CallOutcome::kDone;
      CallOutcome o = LockMutex(t, call, at(0), true, result);
      if (!result.v.IsUnknown() && result.v.Bits() == kBusy) result = RV::Bits(1);  // thrd_busy
      return o;
    }
    case Model::kSemInit:  // (sem_t*, pshared, value)
      if (known(0)) WriteWord(at(0), 4, known(2) ? at(2) : 0);
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kSemWait:
    case Model::kSemTryWait: {
      result = RV::Bits(0);
      if (!known(0)) return CallOutcome::kDone;
      Value count = ReadWord(at(0), 4);
      if (count.IsUnknown()) return CallOutcome::kDone;
      if (count.Bits() == 0) {
        if (model == Model::kSemTryWait) {
          result = RV::Bits(static_cast<uint64_t>(-1) & 0xffffffff);
          return CallOutcome::kDone;
        }
        t.state = Thread::State::kSem;
        t.wait_on = at(0);
        return CallOutcome::kBlocked;
      }
      WriteWord(at(0), 4, count.Bits() - 1);
      sync_->AtomicLoad(t.id, at(0));  // learns what the posting thread did
      return CallOutcome::kDone;
    }
    case Model::kSemPost: {
      result = RV::Bits(0);
      if (!known(0)) return CallOutcome::kDone;
      Value count = ReadWord(at(0), 4);
      if (!count.IsUnknown()) WriteWord(at(0), 4, count.Bits() + 1);
      sync_->AtomicStore(t.id, at(0));
      return CallOutcome::kDone;
    }
    case Model::kPthreadJoin:
      if (!known(0)) {
        result = RV::Bits(0);
        return CallOutcome::kDone;
      }
      result = RV::Bits(0);
      return JoinThread(t, call, at(0));
    case Model::kPthreadDetach:
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kPthreadSelf:
      result = RV::Bits(t.id + 1);
      return CallOutcome::kDone;
    case Model::kPthreadEqual:
      if (known(0) && known(1)) result = RV::Bits(at(0) == at(1));
      return CallOutcome::kDone;

    case Model::kMutexLock:
      if (!known(0)) {
        result = RV::Bits(0);
        return CallOutcome::kDone;
      }
      return LockMutex(t, call, at(0), false, result);
    case Model::kMutexTryLock:
      if (!known(0)) return CallOutcome::kDone;
      return LockMutex(t, call, at(0), true, result);
    case Model::kMutexTimedLock: {
      if (!known(0)) return CallOutcome::kDone;
      CallOutcome o = LockMutex(t, call, at(0), true, result);
      if (!result.v.IsUnknown() && result.v.Bits() == kBusy) result = RV::Bits(110);  // ETIMEDOUT
      return o;
    }
    case Model::kMutexUnlock:
      if (known(0)) UnlockMutex(t, at(0));
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kMutexInit:
      if (known(0)) {
        // Only the kind matters to the model: recursive or not.
        uint64_t kind = 0;
        if (known(1) && at(1) != 0) {
          Value k = ReadWord(at(1), 4);
          if (!k.IsUnknown()) kind = k.Bits();
        }
        WriteWord(at(0) + 16, 4, kind);
      }
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kMutexAttrInit:
      if (known(0)) WriteWord(at(0), 4, 0);
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kMutexAttrSetType:
      if (known(0) && known(1)) WriteWord(at(0), 4, at(1));
      result = RV::Bits(0);
      return CallOutcome::kDone;

    case Model::kRwRead:
    case Model::kRwWrite:
    case Model::kRwTryRead:
    case Model::kRwTryWrite: {
      result = RV::Bits(0);
      if (!known(0)) return CallOutcome::kDone;
      const uint64_t lock = at(0);
      const bool write = model == Model::kRwWrite || model == Model::kRwTryWrite;
      const bool try_only = model == Model::kRwTryRead || model == Model::kRwTryWrite;
      RwLock& rw = rwlocks_[lock];
      const bool free = write ? (!rw.writer && rw.readers.empty()) : !rw.writer;
      if (!free) {
        if (try_only) {
          result = RV::Bits(kBusy);
          return CallOutcome::kDone;
        }
        t.state = write ? Thread::State::kRwWrite : Thread::State::kRwRead;
        t.wait_on = lock;
        t.wait_site = UserSite(t, call, &t.wait_function);
        return CallOutcome::kBlocked;
      }
      // Writers learn from every earlier holder, readers from earlier writers.
      std::string function;
      const SourceSite& site = UserSite(t, call, &function);
      if (!try_only) sync_->OrderAcquire(t.id, lock, site);  // a try never waits
      rw_site_[{lock, t.id}] = {site, function};
      sync_->AtomicLoad(t.id, lock);
      if (write) {
        sync_->AtomicLoad(t.id, lock + 1);
        rw.writer = true;
        rw.writer_id = t.id;
      } else {
        rw.readers.insert(t.id);
      }
      return CallOutcome::kDone;
    }
    case Model::kRwUnlock: {
      result = RV::Bits(0);
      if (!known(0)) return CallOutcome::kDone;
      RwLock& rw = rwlocks_[at(0)];
      if (rw.writer && rw.writer_id == t.id) {
        rw.writer = false;
        sync_->AtomicStore(t.id, at(0));
        sync_->OrderRelease(t.id, at(0));
      } else if (rw.readers.erase(t.id)) {
        sync_->AtomicStore(t.id, at(0) + 1);
        sync_->OrderRelease(t.id, at(0));
      }
      return CallOutcome::kDone;
    }

    case Model::kCondWait:
    case Model::kCondTimedWait:
      if (!known(0) || !known(1)) {
        result = RV::Bits(0);
        return CallOutcome::kDone;
      }
      return CondWait(t, call, at(0), at(1), model == Model::kCondTimedWait, result);
    case Model::kStdCondWait: {
      if (!known(0) || !known(1)) {
        result = RV::Bits(0);
        return CallOutcome::kDone;
      }
      Value mutex = ReadWord(at(1), 8);  // unique_lock's first member: the mutex
      if (mutex.IsUnknown()) return CallOutcome::kDone;
      return CondWait(t, call, at(0), mutex.Bits(), false, result);
    }
    case Model::kCondSignal:
    case Model::kStdCondNotifyOne:
      if (known(0)) CondNotify(t, at(0), false);
      result = RV::Bits(0);
      return CallOutcome::kDone;
    case Model::kCondBroadcast:
    case Model::kStdCondNotifyAll:
      if (known(0)) CondNotify(t, at(0), true);
      result = RV::Bits(0);
      return CallOutcome::kDone;

    case Model::kOnce: {
      result = RV::Bits(0);
      if (!known(0) || !known(1)) return CallOutcome::kDone;
      const uint64_t flag = at(0);
      int& state = once_state_[flag];
      if (state == 2) {
        sync_->AtomicLoad(t.id, flag);
        return CallOutcome::kDone;
      }
      if (state == 1) {
        t.state = Thread::State::kOnce;
        t.wait_on = flag;
        return CallOutcome::kBlocked;
      }
      const llvm::Function* fn = FunctionAt(at(1));
      if (fn && fn->isDeclaration() && fn->getName() == "__once_proxy") {
        // std::call_once stores its callable in the thread-local __once_call
        // and lets libstdc++'s __once_proxy call it.
        fn = nullptr;
        if (const llvm::GlobalVariable* g = module_.getGlobalVariable("_ZSt11__once_call")) {
          RV slot = EvalConstant(g);
          if (!slot.v.IsUnknown()) {
            Value p = ReadWord(slot.v.Bits(), 8);
            if (!p.IsUnknown()) fn = FunctionAt(p.Bits());
          }
        }
      }
      state = 2;
      if (!fn || fn->isDeclaration() || t.frames.size() >= options_.max_frames) {
        sync_->AtomicStore(t.id, flag);
        return CallOutcome::kDone;
      }
      state = 1;
      const ThreadId id = t.id;
      PushFrame(t, fn, {});  // invalidates `f`
      t.frames.back().on_return = [this, flag, id](RV& r) {
        once_state_[flag] = 2;
        sync_->AtomicStore(id, flag);
        r = RV::Bits(0);
      };
      return CallOutcome::kPushed;
    }

    case Model::kStartThread: {
      // libstdc++: _M_start_thread(unique_ptr<_State>, void(*)()) runs the
      // state's virtual _M_run (vtable slot 2, after the two destructors) in
      // the new thread and stores the id in the std::thread.
      result = RV();
      if (!known(0) || !known(1)) return CallOutcome::kDone;
      Value state = ReadWord(at(1), 8);
      if (state.IsUnknown()) return CallOutcome::kDone;
      WriteWord(at(1), 8, 0);  // ownership moves to the thread
      Value vptr = ReadWord(state.Bits(), 8);
      const llvm::Function* run = nullptr;
      if (!vptr.IsUnknown()) {
        Value slot = ReadWord(vptr.Bits() + 16, 8);
        if (!slot.IsUnknown()) run = FunctionAt(slot.Bits());
      }
      uint64_t id = 0;
      CallOutcome o = StartThread(t, call, run, {RV::Bits(state.Bits())}, &id);
      WriteWord(at(0), 8, id);
      return o;
    }
    case Model::kThreadJoin: {
      if (!known(0)) return CallOutcome::kDone;
      Value id = ReadWord(at(0), 8);
      if (id.IsUnknown() || id.Bits() == 0) return CallOutcome::kDone;
      CallOutcome o = JoinThread(t, call, id.Bits());
      if (o == CallOutcome::kDone) WriteWord(at(0), 8, 0);
      return o;
    }
    case Model::kThreadDetach:
      if (known(0)) WriteWord(at(0), 8, 0);
      return CallOutcome::kDone;

    case Model::kMalloc:
    case Model::kNew:
    case Model::kCalloc:
    case Model::kAlignedAlloc: {
      Value size = word(model == Model::kAlignedAlloc ? 1 : 0);
      if (model == Model::kCalloc)
        size = Value::Lift(word(0), word(1), [](uint64_t a, uint64_t b) { return a * b; });
      // Unknown sizes get a modest block so the object can still be used.
      const uint64_t n = size.IsUnknown() ? 256 : size.Bits();
      if (n > options_.heap_bytes || memory_.heap_bytes() + n > options_.heap_bytes) {
        result = RV::Bits(0);
        if (model == Model::kNew) return CallOutcome::kEndThread;  // bad_alloc
        return CallOutcome::kDone;
      }
      MemObject& o = memory_.Allocate(std::max<uint64_t>(n, 1), MemObject::Kind::kHeap,
                                      model == Model::kCalloc);
      std::tie(o.name, o.type) = HeapTypeOf(call);
      result = RV::Bits(o.base);
      return CallOutcome::kDone;
    }
    case Model::kPosixMemalign: {
      result = RV::Bits(12);
      if (!known(0) || !known(2)) return CallOutcome::kDone;
      if (memory_.heap_bytes() + at(2) > options_.heap_bytes) return CallOutcome::kDone;
      MemObject& o = memory_.Allocate(std::max<uint64_t>(at(2), 1), MemObject::Kind::kHeap, false);
      WriteWord(at(0), 8, o.base);
      result = RV::Bits(0);
      return CallOutcome::kDone;
    }
    case Model::kRealloc: {
      Value size = word(1);
      const uint64_t n = size.IsUnknown() ? 256 : size.Bits();
      if (memory_.heap_bytes() + n > options_.heap_bytes) {
        result = RV::Bits(0);
        return CallOutcome::kDone;
      }
      const uint64_t fresh = memory_.Allocate(std::max<uint64_t>(n, 1), MemObject::Kind::kHeap, false).base;
      if (known(0) && at(0) != 0) {
        if (const MemObject* old = memory_.FindAny(at(0))) {
          const uint64_t keep = std::min(old->size, n);
          CopyBytes(t, call, Value::Concrete(fresh), Value::Concrete(old->base), Value::Concrete(keep));
          const uint64_t base = old->base, old_size = old->size;
          memory_.Free(base);
          sync_->Forget(base, old_size);
        }
      }
      result = RV::Bits(fresh);
      return CallOutcome::kDone;
    }
    case Model::kFree:
    case Model::kDelete: {
      if (!known(0) || at(0) == 0) return CallOutcome::kDone;
      const MemObject* o = memory_.FindAny(at(0));
      if (o && o->kind == MemObject::Kind::kHeap && o->base == at(0)) {
        // Freeing is a write to the whole block for the race detector.
        MemObject& w = *memory_.Find(o->base, 0);
        Touch(t, call, w.base, w.size, true, w);
        const uint64_t base = w.base, size = w.size;
        memory_.Free(base);
        sync_->Forget(base, size);
      }
      return CallOutcome::kDone;
    }
    case Model::kHashBytes: {
      // std::hash of strings and thread ids (std::barrier picks its slot by
      // it): any deterministic hash of known bytes will do.
      if (!known(0) || !known(1) || !known(2) || at(1) > 4096) return CallOutcome::kDone;
      MemObject* o = memory_.Find(at(0), at(1));
      if (!o) return CallOutcome::kDone;
      uint64_t h = 0xcbf29ce484222325ull ^ at(2);
      for (uint64_t i = 0; i < at(1); ++i) {
        if (!o->known[at(0) - o->base + i]) return CallOutcome::kDone;
        h = (h ^ o->data[at(0) - o->base + i]) * 0x100000001b3ull;
      }
      result = RV::Bits(h);
      return CallOutcome::kDone;
    }
    case Model::kRbInsert:
    case Model::kRbIncrement:
    case Model::kRbDecrement:
      return TreeModel(t, call, static_cast<int>(model) - static_cast<int>(Model::kRbInsert), args, result);
    case Model::kNeedRehash: {
      // (buckets, elements, inserting) -> {grow?, new bucket count}
      auto* st = llvm::dyn_cast<llvm::StructType>(call.getType());
      if (!st || st->getNumElements() != 2 || !result.elems || !known(1) || !known(2) || !known(3))
        return CallOutcome::kDone;
      const uint64_t needed = at(2) + at(3);
      const bool grow = needed > at(1);
      (*result.elems)[0] = RV::Bits(grow ? 1 : 0);
      (*result.elems)[1] = RV::Bits(grow ? std::max<uint64_t>(needed * 2, 13) : 0);
      return CallOutcome::kDone;
    }
    case Model::kNextBucket:
      if (known(1)) result = RV::Bits(std::max<uint64_t>(at(1), 13));
      return CallOutcome::kDone;
    case Model::kMemcpy:
      CopyBytes(t, call, word(0), word(1), word(2));
      result = args.empty() ? RV() : args[0];
      return CallOutcome::kDone;
    case Model::kMemset:
      SetBytes(t, call, word(0), word(1), word(2));
      result = args.empty() ? RV() : args[0];
      return CallOutcome::kDone;
    case Model::kMemcmp:
    case Model::kStrcmp: {
      // Compares known bytes (std::string keys of maps); unknown otherwise.
      if (!known(0) || !known(1)) return CallOutcome::kDone;
      const bool bounded = model == Model::kMemcmp;
      if (bounded && !known(2)) return CallOutcome::kDone;
      const uint64_t limit = bounded ? at(2) : 1u << 20;
      for (uint64_t i = 0; i < limit; ++i) {
        MemObject* a = memory_.Find(at(0) + i, 1);
        MemObject* b = memory_.Find(at(1) + i, 1);
        if (!a || !b || !a->known[at(0) + i - a->base] || !b->known[at(1) + i - b->base])
          return CallOutcome::kDone;
        const int x = a->data[at(0) + i - a->base], y = b->data[at(1) + i - b->base];
        if (x != y) {
          result = RV::Bits(static_cast<uint32_t>(x < y ? -1 : 1));
          return CallOutcome::kDone;
        }
        if (!bounded && x == 0) break;
      }
      result = RV::Bits(0);
      return CallOutcome::kDone;
    }
    case Model::kStrlen: {
      if (!known(0)) return CallOutcome::kDone;
      MemObject* o = memory_.Find(at(0), 1);
      if (!o) return CallOutcome::kDone;
      for (uint64_t i = at(0) - o->base; i < o->size; ++i) {
        if (!o->known[i]) return CallOutcome::kDone;
        if (o->data[i] == 0) {
          Touch(t, call, at(0), i - (at(0) - o->base) + 1, false, *o);
          result = RV::Bits(i - (at(0) - o->base));
          return CallOutcome::kDone;
        }
      }
      return CallOutcome::kDone;
    }

    case Model::kGuardAcquire: {
      // Function-local statics: the first thread initializes, others wait.
      result = RV::Bits(0);
      if (!known(0)) return CallOutcome::kDone;
      int& state = guard_state_[at(0)];
      if (state == 2) {
        sync_->AtomicLoad(t.id, at(0));
        return CallOutcome::kDone;
      }
      if (state == 1) {
        t.state = Thread::State::kOnce;
        t.wait_on = at(0);
        return CallOutcome::kBlocked;
      }
      state = 1;
      result = RV::Bits(1);
      return CallOutcome::kDone;
    }
    case Model::kGuardRelease:
      if (known(0)) {
        guard_state_[at(0)] = 2;
        WriteWord(at(0), 1, 1);
        sync_->AtomicStore(t.id, at(0));
      }
      return CallOutcome::kDone;
    case Model::kGuardAbort:
      if (known(0)) guard_state_[at(0)] = 0;
      return CallOutcome::kDone;
  }
  (void)f;
  return CallOutcome::kDone;
}

// std::_Rb_tree_node_base: color (int) at 0, then parent, left, right. The
// model links new nodes without rebalancing (an unbalanced tree orders the
// same keys), and reads and writes the links where the user called the map,
// so two threads changing one std::map race on its links.
Machine::CallOutcome Machine::TreeModel(Thread& t, const llvm::Instruction& call, int which,
                                        std::vector<RV>& args, RV& result) {
  constexpr uint64_t kParent = 8, kLeft = 16, kRight = 24;
  bool ok = true;
  auto read = [&](uint64_t node, uint64_t field) -> uint64_t {
    MemObject* o = ok ? memory_.Find(node + field, 8) : nullptr;
    if (!o) { ok = false; return 0; }
    Touch(t, call, node + field, 8, false, *o);
    Value v = ReadWord(node + field, 8);
    if (v.IsUnknown()) { ok = false; return 0; }
    return v.Bits();
  };
  auto write = [&](uint64_t node, uint64_t field, uint64_t value) {
    MemObject* o = ok ? memory_.Find(node + field, 8) : nullptr;
    if (!o) { ok = false; return; }
    Touch(t, call, node + field, 8, true, *o);
    WriteWord(node + field, 8, value);
  };
  auto word = [&](size_t i) { return i < args.size() && !args[i].elems ? args[i].v : Value::Unknown(); };
  if (which == 0) {  // insert_and_rebalance(left?, x, p, header)
    if (word(0).IsUnknown() || word(1).IsUnknown() || word(2).IsUnknown() || word(3).IsUnknown())
      return CallOutcome::kDone;
    const bool left = word(0).Bits() & 1;
    const uint64_t x = word(1).Bits(), p = word(2).Bits(), header = word(3).Bits();
    WriteWord(x, 4, 0);  // red; the node is not shared yet
    WriteWord(x + kParent, 8, p);
    WriteWord(x + kLeft, 8, 0);
    WriteWord(x + kRight, 8, 0);
    if (left) {
      write(p, kLeft, x);
      if (p == header) {
        write(header, kParent, x);
        write(header, kRight, x);
      } else if (p == read(header, kLeft)) {
        write(header, kLeft, x);
      }
    } else {
      write(p, kRight, x);
      if (p == read(header, kRight)) write(header, kRight, x);
    }
    return CallOutcome::kDone;
  }
  if (word(0).IsUnknown()) return CallOutcome::kDone;
  uint64_t x = word(0).Bits();
  if (which == 1) {  // increment: the in-order successor
    if (uint64_t r = read(x, kRight); ok && r != 0) {
      x = r;
      for (int i = 0; ok && i < 10000; ++i) {
        const uint64_t l = read(x, kLeft);
        if (!ok || l == 0) break;
        x = l;
      }
    } else if (ok) {
      uint64_t y = read(x, kParent);
      for (int i = 0; ok && i < 10000 && x == read(y, kRight); ++i) {
        x = y;
        y = read(y, kParent);
      }
      if (ok && read(x, kRight) != y) x = y;
    }
  } else {  // decrement: the in-order predecessor; the header's is the rightmost
    Value color = ReadWord(x, 4);
    const uint64_t parent = read(x, kParent);
    if (ok && !color.IsUnknown() && color.Bits() == 0 && read(parent, kParent) == x) {
      x = read(x, kRight);
    } else if (uint64_t l = ok ? read(x, kLeft) : 0; ok && l != 0) {
      uint64_t y = l;
      for (int i = 0; ok && i < 10000; ++i) {
        const uint64_t r = read(y, kRight);
        if (!ok || r == 0) break;
        y = r;
      }
      x = y;
    } else if (ok) {
      uint64_t y = parent;
      for (int i = 0; ok && i < 10000 && x == read(y, kLeft); ++i) {
        x = y;
        y = read(y, kParent);
      }
      x = y;
    }
  }
  if (ok) result = RV::Bits(x);
  return CallOutcome::kDone;
}

// ------------------------------------------------------------- sync models

bool Machine::MutexIsRecursive(uint64_t mutex) {
  // glibc's pthread_mutex_t keeps its kind at offset 16;
  // PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP (std::recursive_mutex) sets 1.
  Value kind = ReadWord(mutex + 16, 4);
  return !kind.IsUnknown() && (kind.Bits() & 3) == 1;
}

Machine::CallOutcome Machine::LockMutex(Thread& t, const llvm::Instruction& at, uint64_t mutex,
                                        bool try_only, RV& result) {
  const bool recursive = MutexIsRecursive(mutex);
  std::string function;
  const SourceSite& site = UserSite(t, at, &function);
  const auto owner = sync_->Owner(mutex);
  if (try_only && owner && !(recursive && *owner == t.id)) {
    result = RV::Bits(kBusy);
    return CallOutcome::kDone;
  }
  if (sync_->TryLock(t.id, mutex, recursive, site, !try_only)) {
    if (!owner) {
      held_site_[mutex] = site;
      held_function_[mutex] = function;
    }
    result = RV::Bits(0);
    return CallOutcome::kDone;
  }
  t.state = Thread::State::kMutex;
  t.wait_on = mutex;
  t.wait_site = site;
  t.wait_function = function;
  return CallOutcome::kBlocked;
}

void Machine::UnlockMutex(Thread& t, uint64_t mutex) {
  sync_->Unlock(t.id, mutex);
  if (!sync_->Owner(mutex)) {
    held_site_.erase(mutex);
    held_function_.erase(mutex);
  }
}

Machine::CallOutcome Machine::CondWait(Thread& t, const llvm::Instruction& at, uint64_t cond,
                                       uint64_t mutex, bool timed, RV& result) {
  if (t.call_phase == 0) {
    UnlockMutex(t, mutex);
    t.call_phase = 1;
    t.cond_mutex = mutex;
    t.state = Thread::State::kCond;
    t.wait_on = cond;
    t.wait_site = UserSite(t, at, &t.wait_function);
    // A timed wait may always time out; an untimed one waits for a notify.
    t.woken = timed;
    if (!timed) cond_waiters_[cond].push_back(t.id);
    return CallOutcome::kBlocked;
  }
  sync_->AtomicLoad(t.id, cond);
  CallOutcome o = LockMutex(t, at, mutex, false, result);
  if (o == CallOutcome::kDone) {
    t.call_phase = 0;
    result = RV::Bits(0);
  }
  return o;
}

void Machine::CondNotify(Thread& t, uint64_t cond, bool all) {
  sync_->AtomicStore(t.id, cond);
  auto it = cond_waiters_.find(cond);
  if (it == cond_waiters_.end() || it->second.empty()) return;
  std::vector<ThreadId>& waiters = it->second;
  const size_t wake = all ? waiters.size() : 1;
  for (size_t i = 0; i < wake; ++i) threads_[waiters[i]]->woken = true;
  waiters.erase(waiters.begin(), waiters.begin() + static_cast<long>(wake));
}

Machine::CallOutcome Machine::StartThread(Thread& t, const llvm::Instruction& at,
                                          const llvm::Function* fn, std::vector<RV> args,
                                          uint64_t* id_out) {
  *id_out = 0;
  if (!fn || fn->isDeclaration()) {
    Note(at, "thread start routine without a body: the thread is not interpreted");
    return CallOutcome::kDone;
  }
  if (threads_.size() >= options_.max_threads) return CallOutcome::kDone;
  const SourceSite site = UserSite(t, at);
  Thread& child = NewThread(fn, std::move(args), site, t.id);
  *id_out = child.id + 1;  // 0 means "no thread" in std::thread and here
  return CallOutcome::kDone;
}

Machine::CallOutcome Machine::JoinThread(Thread& t, const llvm::Instruction& at, uint64_t id) {
  if (id == 0 || id - 1 >= threads_.size() || id - 1 == t.id) return CallOutcome::kDone;
  Thread& child = *threads_[id - 1];
  if (child.state == Thread::State::kDone) {
    sync_->Join(t.id, child.id);
    return CallOutcome::kDone;
  }
  t.state = Thread::State::kJoin;
  t.wait_on = child.id;
  t.wait_site = UserSite(t, at, &t.wait_function);
  return CallOutcome::kBlocked;
}

}  // namespace snag::interp::ir
