#include "interp/race_detector.h"

#include <algorithm>

namespace snag::interp {

namespace {
bool Ordered(uint64_t tick, ThreadId thread, const VectorClock& now) {
  return tick <= now.Get(thread);
}
}  // namespace

uint32_t RaceDetector::InternSite(const SourceSite& site) {
  auto it = site_ids_.find(site);
  if (it != site_ids_.end()) return it->second;
  const uint32_t id = static_cast<uint32_t>(sites_.size());
  sites_.push_back(site);
  site_ids_.emplace(site, id);
  return id;
}

RaceDetector::Cell& RaceDetector::CellAt(uint64_t address) {
  const uint64_t number = address >> kPageBits;
  if (number != last_page_number_) {
    std::unique_ptr<Page>& page = pages_[number];
    if (!page) page = std::make_unique<Page>();
    last_page_ = page.get();
    last_page_number_ = number;
  }
  return last_page_->cells[address & ((uint64_t{1} << kPageBits) - 1)];
}

void RaceDetector::OnAccess(ThreadId thread, const VectorClock& clock, uint64_t address,
                            uint64_t size, bool is_write, const SourceSite& site,
                            const std::string& variable) {
  OnAccess(thread, clock, address, size, is_write, InternSite(site), variable);
}

void RaceDetector::OnAccess(ThreadId thread, const VectorClock& clock, uint64_t address,
                            uint64_t size, bool is_write, uint32_t site,
                            const std::string& variable) {
  const Epoch mine{thread, site, clock.Get(thread)};
  for (uint64_t a = address; a < address + size; ++a) {
    Cell& cell = CellAt(a);
    if (cell.written && cell.write.thread != thread &&
        !Ordered(cell.write.tick, cell.write.thread, clock)) {
      Report(address, variable, cell.write, true, thread, is_write, site);
    }
    if (is_write) {
      for (const Epoch& read : cell.reads) {
        if (read.thread != thread && !Ordered(read.tick, read.thread, clock))
          Report(address, variable, read, false, thread, true, site);
      }
      cell.written = true;
      cell.write = mine;
      cell.reads.clear();
    } else {
      bool replaced = false;
      for (Epoch& read : cell.reads) {
        if (read.thread == thread) {
          read = mine;
          replaced = true;
          break;
        }
      }
      if (!replaced) cell.reads.push_back(mine);
    }
  }
}

void RaceDetector::Forget(uint64_t address, uint64_t size) {
  if (pages_.empty()) return;
  const uint64_t page_size = uint64_t{1} << kPageBits;
  for (uint64_t a = address; a < address + size;) {
    const uint64_t number = a >> kPageBits;
    const uint64_t page_start = number << kPageBits;
    const uint64_t end = std::min(address + size, page_start + page_size);
    auto it = pages_.find(number);
    if (it != pages_.end()) {
      if (a == page_start && end == page_start + page_size) {
        if (last_page_ == it->second.get()) {
          last_page_ = nullptr;
          last_page_number_ = ~uint64_t{0};
        }
        pages_.erase(it);
      } else {
        for (uint64_t b = a; b < end; ++b) it->second->cells[b - page_start] = Cell{};
      }
    }
    a = end;
  }
}

void RaceDetector::Report(uint64_t address, const std::string& variable, const Epoch& earlier,
                          bool earlier_write, ThreadId thread, bool is_write, uint32_t site) {
  // One report per site pair, whichever order the schedule showed them in.
  const SourceSite& a = sites_[earlier.site];
  const SourceSite& b = sites_[site];
  auto key = a < b ? std::make_pair(a, b) : std::make_pair(b, a);
  if (!reported_pairs_.insert(key).second) return;
  races_.push_back(Race{address, variable, AccessSide{a, earlier.thread, earlier_write},
                        AccessSide{b, thread, is_write}});
}

}  // namespace snag::interp
