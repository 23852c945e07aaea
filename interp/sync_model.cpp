#include "interp/sync_model.h"

#include <algorithm>

namespace snag::interp {

SyncModel::SyncModel() {
  clocks_.emplace_back();
  clocks_[0].Tick(0);
  held_.emplace_back();
}

ThreadId SyncModel::Fork(ThreadId parent) {
  const ThreadId child = static_cast<ThreadId>(clocks_.size());
  VectorClock start = clocks_[parent];
  start.Tick(child);
  clocks_.push_back(start);
  held_.emplace_back();
  // The parent's later actions are not visible to the child.
  clocks_[parent].Tick(parent);
  return child;
}

void SyncModel::Join(ThreadId parent, ThreadId child) {
  clocks_[parent].Join(clocks_[child]);
}

bool SyncModel::TryLock(ThreadId thread, uint64_t mutex, bool recursive, const SourceSite& site,
                        bool record_order) {
  Mutex& m = mutexes_[mutex];
  // Record order (and self-deadlock) before blocking: the report must exist
  // even if this schedule then hangs.
  if (record_order && !(recursive && m.owner == thread)) lock_order_.OnAcquire(thread, mutex, recursive, site, held_[thread]);
  if (m.owner && *m.owner != thread) return false;
  if (m.owner == thread) {
    if (!recursive) return false;  // self-deadlock: the thread blocks forever
    ++m.depth;
    return true;
  }
  m.owner = thread;
  m.depth = 1;
  clocks_[thread].Join(m.released);
  held_[thread].push_back({mutex, site});
  return true;
}

void SyncModel::Unlock(ThreadId thread, uint64_t mutex) {
  Mutex& m = mutexes_[mutex];
  if (m.owner != thread) return;  // unlock of a mutex not held: ignored, not modelled
  if (--m.depth > 0) return;
  m.owner.reset();
  m.released = clocks_[thread];
  clocks_[thread].Tick(thread);
  auto& held = held_[thread];
  held.erase(std::remove_if(held.begin(), held.end(),
                            [&](const LockOrderGraph::Held& h) { return h.mutex == mutex; }),
             held.end());
}

std::optional<ThreadId> SyncModel::Owner(uint64_t mutex) const {
  auto it = mutexes_.find(mutex);
  return it == mutexes_.end() ? std::nullopt : it->second.owner;
}

void SyncModel::OrderAcquire(ThreadId thread, uint64_t lock, const SourceSite& site) {
  // Re-acquiring a read lock is not a self-deadlock; a writer re-locking is
  // caught by the interpreter when every thread is blocked.
  lock_order_.OnAcquire(thread, lock, /*recursive=*/true, site, held_[thread]);
  held_[thread].push_back({lock, site});
}

void SyncModel::OrderRelease(ThreadId thread, uint64_t lock) {
  auto& held = held_[thread];
  for (auto it = held.rbegin(); it != held.rend(); ++it) {
    if (it->mutex == lock) {
      held.erase(std::next(it).base());
      return;
    }
  }
}

void SyncModel::AtomicStore(ThreadId thread, uint64_t address) {
  atomics_[address].Join(clocks_[thread]);
  clocks_[thread].Tick(thread);
}

void SyncModel::AtomicLoad(ThreadId thread, uint64_t address) {
  auto it = atomics_.find(address);
  if (it != atomics_.end()) clocks_[thread].Join(it->second);
}

void SyncModel::Access(ThreadId thread, uint64_t address, uint64_t size, bool is_write,
                       const SourceSite& site, const std::string& variable) {
  races_.OnAccess(thread, clocks_[thread], address, size, is_write, site, variable);
}

void SyncModel::Access(ThreadId thread, uint64_t address, uint64_t size, bool is_write,
                       uint32_t site, const std::string& variable) {
  races_.OnAccess(thread, clocks_[thread], address, size, is_write, site, variable);
}

}  // namespace snag::interp
