#include "report/elf_file.h"

#include <elf.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace snag::report {

// The headers are copied straight into <elf.h> structs, which is only right
// when the host has the file's byte order. snag runs on little-endian Linux
// (x86-64, AArch64) and only accepts little-endian files.
static_assert(std::endian::native == std::endian::little, "ElfFile assumes a little-endian host");

namespace {

class Reader {
 public:
  explicit Reader(const std::string &path) : path_(path) {
    // A directory or device would "open" as a stream but has no usable size.
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) {
      throw ElfError(path + ": not a regular file");
    }
    size_ = std::filesystem::file_size(path, error);
    in_.open(path, std::ios::binary);
    if (error || !in_) throw ElfError(path + ": cannot open: " + std::strerror(errno));
  }

  uint64_t size() const { return size_; }

  // True when [offset, offset + length) lies inside the file; written so that
  // huge values from a corrupt header cannot overflow.
  bool fits(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

  std::string read(uint64_t offset, uint64_t length, const char *what) {
    if (!fits(offset, length)) {
      throw ElfError(path_ + ": truncated or corrupt ELF file (" + what + " lies past the end of the file)");
    }
    std::string out(length, '\0');
    in_.seekg(static_cast<std::streamoff>(offset));
    if (length > 0 && !in_.read(out.data(), static_cast<std::streamsize>(length))) {
      throw ElfError(path_ + ": read error while reading " + what);
    }
    return out;
  }

  template <class T>
  T read_struct(uint64_t offset, const char *what) {
    std::string bytes = read(offset, sizeof(T), what);
    T out;
    std::memcpy(&out, bytes.data(), sizeof(T));
    return out;
  }

 private:
  std::string path_;
  std::ifstream in_;
  uint64_t size_ = 0;
};

bool has_elf_magic(const unsigned char *ident) {
  return std::memcmp(ident, ELFMAG, SELFMAG) == 0;
}

}  // namespace

bool is_elf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char ident[SELFMAG] = {};
  return in && in.read(reinterpret_cast<char *>(ident), SELFMAG) && has_elf_magic(ident);
}

ElfFile ElfFile::open(const std::string &path) {
  Reader file(path);
  if (file.size() < SELFMAG) throw ElfError(path + ": not an ELF file (too short)");
  std::string ident = file.read(0, SELFMAG, "the ELF magic");
  if (!has_elf_magic(reinterpret_cast<const unsigned char *>(ident.data()))) {
    throw ElfError(path + ": not an ELF file");
  }
  auto header = file.read_struct<Elf64_Ehdr>(0, "the ELF header");
  if (header.e_ident[EI_CLASS] != ELFCLASS64) {
    throw ElfError(path + ": only 64-bit ELF files are supported");
  }
  if (header.e_ident[EI_DATA] != ELFDATA2LSB) {
    throw ElfError(path + ": only little-endian ELF files are supported");
  }

  ElfFile elf;
  elf.path_ = path;
  if (header.e_shoff == 0) return elf;  // no section header table: no sections
  if (header.e_shentsize < sizeof(Elf64_Shdr)) {
    throw ElfError(path + ": corrupt ELF file (section header entry size " +
                   std::to_string(header.e_shentsize) + " is too small)");
  }

  auto section_header = [&](uint64_t index) {
    return file.read_struct<Elf64_Shdr>(header.e_shoff + index * header.e_shentsize,
                                        "a section header");
  };

  // With 0xff00 or more sections the real count and string-table index live in
  // section 0 (the ELF "extended numbering" convention).
  uint64_t count = header.e_shnum;
  uint64_t names_index = header.e_shstrndx;
  if (count == 0 || names_index == SHN_XINDEX) {
    Elf64_Shdr first = section_header(0);
    if (count == 0) count = first.sh_size;
    if (names_index == SHN_XINDEX) names_index = first.sh_link;
  }
  // The division first, so a huge count from a corrupt header cannot overflow.
  if (count > file.size() / header.e_shentsize ||
      !file.fits(header.e_shoff, count * uint64_t{header.e_shentsize})) {
    throw ElfError(path + ": truncated or corrupt ELF file (section headers lie past the end of the file)");
  }
  if (count == 0) return elf;
  if (names_index >= count) {
    throw ElfError(path + ": corrupt ELF file (section name table index out of range)");
  }

  std::vector<Elf64_Shdr> headers;
  headers.reserve(count);
  for (uint64_t i = 0; i < count; ++i) headers.push_back(section_header(i));

  const Elf64_Shdr &names_header = headers[names_index];
  std::string names = file.read(names_header.sh_offset, names_header.sh_size, "the section name table");

  for (const Elf64_Shdr &h : headers) {
    std::string name;
    if (h.sh_name != 0 || !names.empty()) {
      if (h.sh_name >= names.size()) {
        throw ElfError(path + ": corrupt ELF file (section name offset out of range)");
      }
      size_t end = names.find('\0', h.sh_name);
      if (end == std::string::npos) {
        throw ElfError(path + ": corrupt ELF file (section name runs past its table)");
      }
      name = names.substr(h.sh_name, end - h.sh_name);
    }
    elf.sections_.push_back({std::move(name), h.sh_type, h.sh_offset, h.sh_size});
  }
  return elf;
}

const ElfFile::Section *ElfFile::find(std::string_view name) const {
  for (const Section &s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

std::optional<std::string> ElfFile::section_data(std::string_view name) const {
  const Section *section = find(name);
  if (!section) return std::nullopt;
  if (section->type == SHT_NOBITS) return std::string();
  Reader file(path_);
  std::string what = "section " + std::string(name);
  return file.read(section->offset, section->size, what.c_str());
}

bool has_section(const std::string &path, std::string_view name) {
  return ElfFile::open(path).has_section(name);
}

std::optional<std::string> read_section(const std::string &path, std::string_view name) {
  return ElfFile::open(path).section_data(name);
}

}  // namespace snag::report
