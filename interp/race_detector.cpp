#include "interp/race_detector.h"

namespace snag::interp {

namespace {
bool Ordered(uint64_t tick, ThreadId thread, const VectorClock& now) {
  return tick <= now.Get(thread);
}
}  // namespace

void RaceDetector::OnAccess(ThreadId thread, const VectorClock& clock, uint64_t address,
                            uint64_t size, bool is_write, const SourceSite& site,
                            const std::string& variable) {
  const Epoch mine{thread, clock.Get(thread), site};
  for (uint64_t a = address; a < address + size; ++a) {
    Cell& cell = shadow_[a];
    if (cell.written && cell.write.thread != thread &&
        !Ordered(cell.write.tick, cell.write.thread, clock)) {
      Report(address, variable, cell.write, true, thread, is_write, site);
    }
    if (is_write) {
      for (const auto& [reader, epoch] : cell.reads) {
        if (reader != thread && !Ordered(epoch.tick, reader, clock))
          Report(address, variable, epoch, false, thread, true, site);
      }
      cell.written = true;
      cell.write = mine;
      cell.reads.clear();
    } else {
      cell.reads[thread] = mine;
    }
  }
}

void RaceDetector::Forget(uint64_t address, uint64_t size) {
  shadow_.erase(shadow_.lower_bound(address), shadow_.lower_bound(address + size));
}

void RaceDetector::Report(uint64_t address, const std::string& variable, const Epoch& earlier,
                          bool earlier_write, ThreadId thread, bool is_write,
                          const SourceSite& site) {
  // One report per site pair, whichever order the schedule showed them in.
  auto key = earlier.site < site ? std::make_pair(earlier.site, site)
                                 : std::make_pair(site, earlier.site);
  if (!reported_pairs_.insert(key).second) return;
  races_.push_back(Race{address, variable, AccessSide{earlier.site, earlier.thread, earlier_write},
                        AccessSide{site, thread, is_write}});
}

}  // namespace snag::interp
