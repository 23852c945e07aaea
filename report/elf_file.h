// A minimal reader for the section headers of 64-bit little-endian ELF files,
// enough to find snag's own sections (`snag_sites`, `snag_runtime`) in a
// program without libelf. Every offset read from the file is checked against
// the file's size, so a truncated or corrupt file gives an ElfError with a
// clear message instead of a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace snag::report {

class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// True when the file exists, is readable and starts with the ELF magic bytes.
// Never throws.
bool is_elf(const std::string &path);

class ElfFile {
 public:
  struct Section {
    std::string name;
    uint32_t type = 0;  // SHT_*
    uint64_t offset = 0;
    uint64_t size = 0;
  };

  // Reads and checks the ELF and section headers. Throws ElfError when the
  // file cannot be read, is not ELF, is not 64-bit little-endian, or its
  // headers point outside the file.
  static ElfFile open(const std::string &path);

  const std::string &path() const { return path_; }
  const std::vector<Section> &sections() const { return sections_; }
  bool has_section(std::string_view name) const { return find(name) != nullptr; }
  const Section *find(std::string_view name) const;

  // The contents of the first section with this name; std::nullopt when
  // there is none. A section without file contents (SHT_NOBITS) is empty.
  // Throws ElfError when the file cannot be read.
  std::optional<std::string> section_data(std::string_view name) const;

 private:
  std::string path_;
  std::vector<Section> sections_;
};

// Shorthand for ElfFile::open(path).has_section(name); throws ElfError.
bool has_section(const std::string &path, std::string_view name);

// Shorthand for ElfFile::open(path).section_data(name); throws ElfError.
std::optional<std::string> read_section(const std::string &path, std::string_view name);

}  // namespace snag::report
