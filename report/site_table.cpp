#include "report/site_table.h"

#include <array>
#include <charconv>
#include <vector>

#include "report/elf_file.h"

namespace snag::report {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) {
      out.push_back(text.substr(start));
      return out;
    }
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

// A whole field as a number in `base`; a sign, spaces or trailing junk make it fail.
template <class T>
std::optional<T> parse_number(std::string_view field, int base = 10) {
  T value{};
  const char *end = field.data() + field.size();
  auto [ptr, ec] = std::from_chars(field.data(), end, value, base);
  if (field.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// The files and names of the module table being read; indices are local to it.
struct Module {
  std::unordered_map<uint64_t, std::string> files;
  std::unordered_map<uint64_t, std::pair<std::string, std::string>> names;  // demangled, linkage
};

}  // namespace

std::string site_kind_name(uint32_t kind) {
  static constexpr std::array<const char *, 8> kNames = {
      "read", "write", "atomic", "fence", "memop", "function", "call", "api"};
  return kind < kNames.size() ? kNames[kind] : "kind " + std::to_string(kind);
}

std::optional<uint64_t> parse_site_id(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  return parse_number<uint64_t>(text, 16);
}

SiteTable SiteTable::parse(std::string_view text) {
  SiteTable table;
  std::optional<Module> module;  // none until the first M line
  uint64_t last_site = 0;        // the latest S line's id, for its A line

  // Each record is checked completely before it is used, so a malformed line
  // never leaves half of its effect behind.
  auto handle = [&](std::string_view line) -> bool {
    std::vector<std::string_view> f = split(line, '\t');
    if (f[0] == "M") {
      if (f.size() != 3 || !parse_number<uint32_t>(f[1])) return false;
      module.emplace();
      ++table.modules_;
      return true;
    }
    if (!module) return false;  // F, N and S lines belong to a module table
    if (f[0] == "F") {
      auto index = f.size() == 3 ? parse_number<uint64_t>(f[1]) : std::nullopt;
      if (!index) return false;
      module->files[*index] = std::string(f[2]);
      return true;
    }
    if (f[0] == "N") {
      auto index = f.size() == 4 ? parse_number<uint64_t>(f[1]) : std::nullopt;
      if (!index) return false;
      module->names[*index] = {std::string(f[2]), std::string(f[3])};
      return true;
    }
    if (f[0] == "S") {
      // An optional 8th field names the inline site this one was inlined into.
      if (f.size() != 7 && f.size() != 8) return false;
      std::optional<uint64_t> parent = uint64_t{0};
      if (f.size() == 8) parent = parse_site_id(f[7]);
      if (!parent) return false;
      auto id = parse_site_id(f[1]);
      auto kind = parse_number<uint32_t>(f[2]);
      auto line_number = parse_number<uint32_t>(f[3]);
      auto column = parse_number<uint32_t>(f[4]);
      auto file_index = parse_number<uint64_t>(f[5]);
      auto name_index = parse_number<uint64_t>(f[6]);
      if (!id || !kind || !line_number || !column || !file_index || !name_index) return false;
      auto file = module->files.find(*file_index);
      auto name = module->names.find(*name_index);
      if (file == module->files.end() || name == module->names.end()) return false;
      // The same id in two modules (an inline function compiled into both) is
      // the same source position, so keeping the first is enough.
      table.sites_.try_emplace(*id, Site{*kind, name->second.first, name->second.second,
                                         file->second, *line_number, *column, *parent, {}});
      last_site = *id;
      return true;
    }
    if (f[0] == "A") {
      // Right after its API site's S line.
      auto id = f.size() == 5 ? parse_site_id(f[1]) : std::nullopt;
      if (!id || *id != last_site || (f[2] != "r" && f[2] != "w") || f[3].empty() || f[4].empty())
        return false;
      table.sites_[*id].api = ApiCall{f[2] == "w", std::string(f[3]), std::string(f[4])};
      return true;
    }
    return false;
  };

  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(std::string_view("\n\0", 2), start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && !handle(line)) ++table.malformed_lines_;
    start = end + 1;
  }
  return table;
}

SiteTable SiteTable::from_binary(const std::string &path) {
  std::optional<std::string> text = read_section(path, kSiteTableSection);
  return text ? parse(*text) : SiteTable();
}

void SiteTable::merge(const SiteTable &other) {
  for (const auto &[id, site] : other.sites_) sites_.try_emplace(id, site);
  modules_ += other.modules_;
  malformed_lines_ += other.malformed_lines_;
}

const Site *SiteTable::find(uint64_t id) const {
  auto it = sites_.find(id);
  return it == sites_.end() ? nullptr : &it->second;
}

const Site *SiteTable::find(std::string_view hex_id) const {
  std::optional<uint64_t> id = parse_site_id(hex_id);
  return id ? find(*id) : nullptr;
}

std::vector<const ApiCall *> SiteTable::api_calls_at(const std::string &file, int64_t line,
                                                     int64_t column) const {
  std::vector<const ApiCall *> calls;
  for (const auto &[id, site] : sites_)
    if (site.api && site.line == line && site.column == column && site.file == file)
      calls.push_back(&*site.api);
  return calls;
}

}  // namespace snag::report
