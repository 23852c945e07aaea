// The site table (docs/site-table.md): maps stable site ids to source
// positions. Programs built with snag-c++ carry it in the ELF section
// `snag_sites`, one module table after another; the report pipeline uses it to
// resolve frames the runtime could not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace snag::report {

inline constexpr std::string_view kSiteTableSection = "snag_sites";

// What an API site's A line says: a call to a member of a thread-unsafe
// class (or a copy of such an object) at this site.
struct ApiCall {
  bool write = false;
  std::string object;     // the object's type as the user writes it: "std::vector<int>"
  std::string operation;  // "push_back"

  bool operator==(const ApiCall &) const = default;
};

struct Site {
  uint32_t kind = 0;  // enum snag_site_kind
  std::string function;      // demangled name
  std::string linkage_name;  // mangled name
  std::string file;
  int64_t line = 0;
  int64_t column = 0;
  uint64_t parent = 0;  // the inlined call this site sits in (0: none)
  std::optional<ApiCall> api;  // API sites only

  bool operator==(const Site &) const = default;
};

// The name of an `enum snag_site_kind` value ("read", "write", ..., "api"),
// or "kind N" for a number this build does not know.
std::string site_kind_name(uint32_t kind);

// Parses a 16-hex-digit site id (case-insensitive); std::nullopt otherwise.
std::optional<uint64_t> parse_site_id(std::string_view text);

class SiteTable {
 public:
  // Parses the text of one or more concatenated module tables. Lines that do
  // not follow the format (unknown record, wrong field count, bad number,
  // reference to an undefined file or name) are skipped and counted; NUL bytes
  // (padding a linker may put between modules) separate lines.
  static SiteTable parse(std::string_view text);

  // Reads the `snag_sites` section of an ELF file. A file without the section
  // gives an empty table. Throws ElfError when the file is unreadable or corrupt.
  static SiteTable from_binary(const std::string &path);

  // Adds the sites of another table (e.g. a shared library's); the first
  // definition of an id wins.
  void merge(const SiteTable &other);

  const Site *find(uint64_t id) const;
  const Site *find(std::string_view hex_id) const;

  // The API calls marked at this source position (several when a line holds
  // more than one call of a thread-unsafe member at the same column, as for
  // `a = b` of two containers).
  std::vector<const ApiCall *> api_calls_at(const std::string &file, int64_t line,
                                            int64_t column) const;

  size_t size() const { return sites_.size(); }
  bool empty() const { return sites_.empty(); }
  size_t modules() const { return modules_; }
  size_t malformed_lines() const { return malformed_lines_; }

 private:
  std::unordered_map<uint64_t, Site> sites_;
  size_t modules_ = 0;
  size_t malformed_lines_ = 0;
};

}  // namespace snag::report
