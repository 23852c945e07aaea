#include "GuardSites.h"

#include "engines/guard/invariants_file.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

using namespace llvm;

namespace snag {

namespace {

[[noreturn]] void fail(const Twine &Message) {
  report_fatal_error("snag: " + Message, /*gen_crash_diag=*/false);
}

struct Collected final : guard::InvariantsReader {
  std::unordered_set<uint64_t> Sites;
  std::vector<std::pair<uint64_t, uint64_t>> Edges;
  std::map<uint64_t, uint64_t> Counts;
  void entry(snag_site_t Site, snag_site_t Predecessor) override {
    Sites.insert(Site);
    if (Predecessor != guard::kNilPredecessor)
      Sites.insert(Predecessor);
  }
  void edge(snag_site_t A, snag_site_t B) override { Edges.emplace_back(A, B); }
  void count(snag_site_t Site, uint64_t N) override { Counts[Site] += N; }
};

// Union-find over site ids (paper 003, Algorithm 2), path halving.
struct Groups {
  std::map<uint64_t, uint64_t> Parent;
  uint64_t find(uint64_t X) {
    auto It = Parent.emplace(X, X).first;
    while (It->second != It->first) {
      auto Up = Parent.find(It->second);
      It->second = Parent[Up->second];
      It = Parent.find(It->second);
    }
    return It->first;
  }
  void unite(uint64_t A, uint64_t B) {
    uint64_t RA = find(A), RB = find(B);
    if (RA != RB)
      Parent[RA] = RB;
  }
};

} // namespace

GuardSites GuardSites::fromEnvironment() {
  const char *Path = std::getenv("SNAG_GUARD_INVARIANTS");
  if (!Path || !*Path)
    fail("-fsnag-instrument=guard needs -fsnag-invariants=FILE (the file 'snag learn' wrote)");
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    fail(Twine("cannot read invariants file ") + Path);
  std::ostringstream Text;
  Text << In.rdbuf();
  std::string Body = Text.str();
  Collected C;
  const char *Error = nullptr;
  int Line = 0;
  if (!guard::parse_invariants(Body.data(), Body.size(), C, &Error, &Line))
    fail(Twine("invariants file ") + Path + ": line " + Twine(Line) + ": " + Error);

  GuardSites Result;
  Result.Sites = std::move(C.Sites);
  unsigned Bias = 0;
  if (const char *B = std::getenv("SNAG_GUARD_BIAS"); B && *B)
    Bias = static_cast<unsigned>(std::strtoul(B, nullptr, 10));
  std::string Summary;
  raw_string_ostream OS(Summary);
  OS << "snag: guard build from " << Path << ": " << Result.Sites.size() << " sites";
  if (Bias > 0) {
    Groups G;
    for (uint64_t Site : Result.Sites)
      G.find(Site);
    for (auto [A, B] : C.Edges)
      G.unite(A, B);
    std::map<uint64_t, uint64_t> GroupCount;
    uint64_t Total = 0;
    for (auto [Site, N] : C.Counts) {
      GroupCount[G.find(Site)] += N;
      Total += N;
    }
    std::unordered_set<uint64_t> HotRoots;
    uint64_t HotAccesses = 0;
    for (auto [Root, N] : GroupCount)
      if (Total > 0 && N * 100 > uint64_t(Bias) * Total) {
        HotRoots.insert(Root);
        HotAccesses += N;
      }
    size_t Left = 0;
    for (auto It = Result.Sites.begin(); It != Result.Sites.end();) {
      if (HotRoots.count(G.find(*It))) {
        It = Result.Sites.erase(It);
        ++Left;
      } else {
        ++It;
      }
    }
    OS << "; --bias " << Bias << ": left out " << Left << " sites in " << HotRoots.size()
       << " group" << (HotRoots.size() == 1 ? "" : "s") << " carrying "
       << (Total ? HotAccesses * 100 / Total : 0) << "% of the " << Total
       << " accesses learned; " << Result.Sites.size() << " instrumented";
  }
  OS.flush();
  Result.Summary = Summary;
  return Result;
}

} // namespace snag
