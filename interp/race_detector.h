// Happens-before race detection over model memory, one shadow cell per byte,
// kept in 64-byte pages found by hash (the interpreter touches the same few
// objects over and over; a per-byte ordered map was its hottest spot).
// Each byte remembers its last write and, per thread, its last read since that
// write, as (thread, that thread's own clock entry, site). A new access races
// with a remembered one from another thread when at least one of them writes
// and the remembered epoch is not covered by the accessing thread's vector
// clock. Races are deduplicated by the (unordered) pair of sites, so a loop
// reports once. Called by the interpreter on every load and store; it owns no
// clocks itself (the sync model does).
#pragma once

#include <cstdint>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "interp/site.h"
#include "interp/vector_clock.h"

namespace snag::interp {

struct AccessSide {
  SourceSite site;
  ThreadId thread = 0;
  bool is_write = false;
};

struct Race {
  uint64_t address = 0;   // first racing byte
  std::string variable;   // name the interpreter gave the memory, may be empty
  AccessSide earlier;     // the remembered access
  AccessSide later;       // the access that found the race
};

class RaceDetector {
 public:
  // `clock` is the accessing thread's current vector clock.
  void OnAccess(ThreadId thread, const VectorClock& clock, uint64_t address, uint64_t size,
                bool is_write, const SourceSite& site, const std::string& variable = {});
  // The same with a site from InternSite, so a hot access does not compare
  // file names.
  void OnAccess(ThreadId thread, const VectorClock& clock, uint64_t address, uint64_t size,
                bool is_write, uint32_t site, const std::string& variable = {});
  uint32_t InternSite(const SourceSite& site);
  // Memory freed or reused: forget its history so a new object does not race
  // with the old one.
  void Forget(uint64_t address, uint64_t size);

  const std::vector<Race>& races() const { return races_; }

 private:
  struct Epoch {
    ThreadId thread = 0;
    uint32_t site = 0;  // index into sites_
    uint64_t tick = 0;
  };
  struct Cell {
    bool written = false;
    Epoch write;
    std::vector<Epoch> reads;  // since the last write, at most one per thread
  };
  static constexpr unsigned kPageBits = 6;
  struct Page {
    std::array<Cell, size_t{1} << kPageBits> cells;
  };

  Cell& CellAt(uint64_t address);
  void Report(uint64_t address, const std::string& variable, const Epoch& earlier,
              bool earlier_write, ThreadId thread, bool is_write, uint32_t site);

  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  uint64_t last_page_number_ = ~uint64_t{0};
  Page* last_page_ = nullptr;
  std::vector<SourceSite> sites_;
  std::map<SourceSite, uint32_t> site_ids_;
  std::vector<Race> races_;
  std::set<std::pair<SourceSite, SourceSite>> reported_pairs_;
};

}  // namespace snag::interp
