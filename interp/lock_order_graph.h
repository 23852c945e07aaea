// Potential-deadlock detection from lock order (lockdep style): every time a
// thread acquires mutex M while holding H, the edge H -> M is remembered with
// both acquisition sites. A cycle whose edges come from at least two threads
// is a deadlock some schedule can reach (ABBA and longer), even if this run's
// schedule did not hang. Acquiring a non-recursive mutex the thread already
// holds is reported at once as a self-deadlock. Mutexes are model addresses.
// A cycle whose edges were all taken under one common other mutex (a "gate
// lock") cannot close, so it is not reported.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "interp/site.h"
#include "interp/vector_clock.h"

namespace snag::interp {

struct LockEdge {
  uint64_t held = 0;
  uint64_t acquired = 0;
  ThreadId thread = 0;
  SourceSite held_site;      // where `held` was acquired
  SourceSite acquired_site;  // where `acquired` was acquired while holding it
  std::vector<uint64_t> guards;  // other mutexes the thread held meanwhile
};

struct Deadlock {
  bool self = false;           // one thread locking what it already holds
  std::vector<LockEdge> cycle;  // in order; for `self`, one edge M -> M
};

class LockOrderGraph {
 public:
  struct Held {
    uint64_t mutex;
    SourceSite site;
  };
  // Call before the thread blocks on or takes `mutex`; `held` is what the
  // thread holds right now, in acquisition order.
  void OnAcquire(ThreadId thread, uint64_t mutex, bool recursive, const SourceSite& site,
                 const std::vector<Held>& held);

  const std::vector<Deadlock>& deadlocks() const { return deadlocks_; }

 private:
  bool FindPath(uint64_t from, uint64_t to, std::set<uint64_t>& seen,
                std::vector<LockEdge>& path) const;
  void ReportOnce(Deadlock d);

  std::map<uint64_t, std::map<uint64_t, LockEdge>> edges_;  // held -> acquired -> first edge
  std::vector<Deadlock> deadlocks_;
  std::set<std::set<SourceSite>> reported_;
};

}  // namespace snag::interp
