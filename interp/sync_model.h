// The interpreter's synchronization model: which model thread knows what
// (vector clocks) and who holds which mutex. The interpreter calls it for the
// operations it models (pthread_create/join, pthread_mutex_lock/unlock and
// what std::thread / std::mutex reach through __gthread_*, atomics) and for
// every plain load and store; it forwards accesses to the race detector and
// acquisitions to the lock-order graph. Atomics are treated as sequentially
// consistent, as paper 001 does: every atomic store releases into the
// location's clock, every atomic load acquires from it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "interp/lock_order_graph.h"
#include "interp/race_detector.h"
#include "interp/vector_clock.h"

namespace snag::interp {

class SyncModel {
 public:
  SyncModel();  // thread 0 (main) exists from the start

  // Returns the new thread's id; the child starts after everything the parent did.
  ThreadId Fork(ThreadId parent);
  // `parent` now knows everything `child` did (call when the child has ended).
  void Join(ThreadId parent, ThreadId child);

  // False when another thread holds the mutex: the caller blocks the thread
  // and retries later. Self-deadlock and lock-order cycles are recorded here,
  // unless `record_order` is false (try_lock never waits, so it cannot close a
  // deadlock cycle; std::lock relies on that).
  bool TryLock(ThreadId thread, uint64_t mutex, bool recursive, const SourceSite& site,
               bool record_order = true);
  void Unlock(ThreadId thread, uint64_t mutex);
  std::optional<ThreadId> Owner(uint64_t mutex) const;

  // Locks whose blocking the interpreter models itself (reader-writer
  // locks): only their place in the lock order, so a cycle through a
  // shared_mutex is a deadlock like any other.
  void OrderAcquire(ThreadId thread, uint64_t lock, const SourceSite& site);
  void OrderRelease(ThreadId thread, uint64_t lock);

  void AtomicStore(ThreadId thread, uint64_t address);
  void AtomicLoad(ThreadId thread, uint64_t address);

  void Access(ThreadId thread, uint64_t address, uint64_t size, bool is_write,
              const SourceSite& site, const std::string& variable = {});
  // With a site interned once by InternSite (the interpreter's hot path).
  void Access(ThreadId thread, uint64_t address, uint64_t size, bool is_write, uint32_t site,
              const std::string& variable);
  uint32_t InternSite(const SourceSite& site) { return races_.InternSite(site); }
  void Forget(uint64_t address, uint64_t size) { races_.Forget(address, size); }

  size_t thread_count() const { return clocks_.size(); }
  const VectorClock& clock(ThreadId t) const { return clocks_.at(t); }
  const RaceDetector& races() const { return races_; }
  const LockOrderGraph& lock_order() const { return lock_order_; }

 private:
  struct Mutex {
    std::optional<ThreadId> owner;
    unsigned depth = 0;  // recursive acquisitions
    VectorClock released;
  };

  std::vector<VectorClock> clocks_;
  std::vector<std::vector<LockOrderGraph::Held>> held_;  // per thread, in order
  std::map<uint64_t, Mutex> mutexes_;
  std::map<uint64_t, VectorClock> atomics_;
  RaceDetector races_;
  LockOrderGraph lock_order_;
};

}  // namespace snag::interp
