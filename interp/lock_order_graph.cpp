#include "interp/lock_order_graph.h"

namespace snag::interp {

void LockOrderGraph::OnAcquire(ThreadId thread, uint64_t mutex, bool recursive,
                               const SourceSite& site, const std::vector<Held>& held) {
  for (const Held& h : held) {
    if (h.mutex == mutex) {
      if (!recursive) ReportOnce(Deadlock{true, {LockEdge{mutex, mutex, thread, h.site, site, {}}}});
      continue;
    }
    auto& out = edges_[h.mutex];
    if (out.count(mutex)) continue;  // first sighting of an order is enough
    LockEdge edge{h.mutex, mutex, thread, h.site, site, {}};
    for (const Held& g : held)
      if (g.mutex != h.mutex) edge.guards.push_back(g.mutex);
    out.emplace(mutex, edge);
    // The new edge closes a cycle when `mutex` already reaches `h.mutex`.
    std::set<uint64_t> seen;
    std::vector<LockEdge> path;
    if (FindPath(mutex, h.mutex, seen, path)) {
      bool other_thread = false;
      for (const LockEdge& e : path) other_thread |= e.thread != thread;
      if (!other_thread) continue;  // one thread alone cannot deadlock by order
      path.insert(path.begin(), edge);
      // A gate lock every edge was taken under serializes the whole cycle.
      std::set<uint64_t> common(path[0].guards.begin(), path[0].guards.end());
      for (const LockEdge& e : path) {
        std::set<uint64_t> mine(e.guards.begin(), e.guards.end()), both;
        for (uint64_t g : common)
          if (mine.count(g)) both.insert(g);
        common = std::move(both);
      }
      if (!common.empty()) continue;
      ReportOnce(Deadlock{false, path});
    }
  }
}

bool LockOrderGraph::FindPath(uint64_t from, uint64_t to, std::set<uint64_t>& seen,
                              std::vector<LockEdge>& path) const {
  if (!seen.insert(from).second) return false;
  auto it = edges_.find(from);
  if (it == edges_.end()) return false;
  for (const auto& [next, edge] : it->second) {
    path.push_back(edge);
    if (next == to || FindPath(next, to, seen, path)) return true;
    path.pop_back();
  }
  return false;
}

void LockOrderGraph::ReportOnce(Deadlock d) {
  std::set<SourceSite> key;
  for (const LockEdge& e : d.cycle) {
    key.insert(e.held_site);
    key.insert(e.acquired_site);
  }
  if (!reported_.insert(key).second) return;
  deadlocks_.push_back(std::move(d));
}

}  // namespace snag::interp
