#include "invariants_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "diagnostics.h"
#include "engines/guard/invariants_file.h"

namespace snag::cli {

namespace {

struct Collector final : guard::InvariantsReader {
  Invariants *out;
  explicit Collector(Invariants *target) : out(target) {}
  void entry(snag_site_t site, snag_site_t predecessor) override {
    out->bsets[site].insert(predecessor);
  }
  void lock(snag_site_t site, snag_site_t lock_site) override { out->locks.emplace(site, lock_site); }
  void edge(snag_site_t a, snag_site_t b) override { out->edges.emplace(a, b); }
  void count(snag_site_t site, uint64_t n) override { out->counts[site] += n; }
};

}  // namespace

Invariants parse_invariants_text(const std::string &text, const std::string &name) {
  Invariants result;
  Collector collector(&result);
  const char *error = nullptr;
  int line = 0;
  if (!guard::parse_invariants(text.data(), text.size(), collector, &error, &line)) {
    if (line > 0)
      throw UsageError(fmt::format("invariants file {}: line {}: {}", name, line, error));
    throw UsageError(fmt::format("invariants file {} {}", name, error));
  }
  // The program line is informational; the parser skips it, the CLI keeps it.
  std::istringstream in(text);
  std::string line_text;
  while (std::getline(in, line_text))
    if (line_text.rfind("program ", 0) == 0) {
      result.program = line_text.substr(8);
      break;
    }
  return result;
}

Invariants load_invariants_file(const std::string &path) {
  std::error_code code;
  if (!std::filesystem::exists(path, code)) return {};
  if (std::filesystem::is_directory(path, code))
    throw UsageError(fmt::format("invariants file {} is a directory", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("cannot read invariants file {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_invariants_text(text.str(), path);
}

std::string render_invariants(const Invariants &invariants) {
  std::string out = "snag-invariants 1\n";
  if (!invariants.program.empty()) out += fmt::format("program {}\n", invariants.program);
  for (const auto &[site, predecessors] : invariants.bsets)
    for (std::uint64_t predecessor : predecessors) {
      if (predecessor == 0) out += fmt::format("bset {:016x} nil\n", site);
      else out += fmt::format("bset {:016x} {:016x}\n", site, predecessor);
    }
  for (const auto &[site, lock] : invariants.locks) out += fmt::format("lock {:016x} {:016x}\n", site, lock);
  for (const auto &[a, b] : invariants.edges) out += fmt::format("edge {:016x} {:016x}\n", a, b);
  for (const auto &[site, n] : invariants.counts) out += fmt::format("count {:016x} {}\n", site, n);
  return out;
}

InvariantsChange merge_invariants(Invariants &into, const Invariants &learned) {
  InvariantsChange change;
  if (into.program.empty()) into.program = learned.program;
  for (const auto &[site, predecessors] : learned.bsets) {
    auto &known = into.bsets[site];
    int added = 0;
    for (std::uint64_t predecessor : predecessors) added += known.insert(predecessor).second;
    if (added > 0) {
      ++change.sites;
      change.entries += added;
    }
  }
  for (const auto &[site, lock] : learned.locks) into.locks.emplace(site, lock);
  into.edges.insert(learned.edges.begin(), learned.edges.end());
  for (const auto &[site, n] : learned.counts) into.counts[site] += n;
  return change;
}

void save_invariants_file(const std::string &path, const Invariants &invariants) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw UsageError(fmt::format("cannot write invariants file {}", path));
    out << render_invariants(invariants);
    if (!out.flush()) throw UsageError(fmt::format("cannot write invariants file {}", path));
  }
  std::error_code code;
  std::filesystem::rename(temporary, path, code);
  if (code) throw UsageError(fmt::format("cannot replace invariants file {}: {}", path, code.message()));
}

}  // namespace snag::cli
