#include "report/elf_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace snag::report {
namespace {

namespace fs = std::filesystem;

// A scratch copy of a binary, truncated or damaged by the test.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string &name)
      : path_((fs::temp_directory_path() / ("snag-elf-test-" + name)).string()) {}
  ~ScratchFile() { std::remove(path_.c_str()); }
  const std::string &path() const { return path_; }

  void write(const std::string &bytes) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

 private:
  std::string path_;
};

std::string read_all(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ElfFile, ReadsTheSectionsOfARealBinary) {
  ElfFile elf = ElfFile::open("/bin/true");
  EXPECT_TRUE(elf.has_section(".text"));
  EXPECT_TRUE(elf.has_section(".shstrtab"));
  EXPECT_FALSE(elf.has_section("snag_sites"));
  EXPECT_FALSE(elf.has_section("snag_runtime"));
  EXPECT_FALSE(elf.section_data("snag_sites"));
  EXPECT_TRUE(is_elf("/bin/true"));
  EXPECT_FALSE(has_section("/bin/true", "snag_runtime"));
}

TEST(ElfFile, FindsSnagSections) {
  EXPECT_TRUE(has_section(SNAG_TEST_ELF_FIXTURE, "snag_runtime"));
  std::optional<std::string> marker = read_section(SNAG_TEST_ELF_FIXTURE, "snag_runtime");
  ASSERT_TRUE(marker);
  EXPECT_EQ(marker->rfind("snag-runtime ", 0), 0u);
  std::optional<std::string> sites = read_section(SNAG_TEST_ELF_FIXTURE, "snag_sites");
  ASSERT_TRUE(sites);
  EXPECT_EQ(sites->rfind("M\t1\tfake.c\n", 0), 0u);
  EXPECT_EQ(sites->back(), '\n');  // not NUL-terminated
}

TEST(ElfFile, NonElfFilesAreRecognized) {
  EXPECT_FALSE(is_elf(SNAG_TEST_DATA_DIR "/hello.sh"));
  EXPECT_FALSE(is_elf("/no/such/file"));
  EXPECT_FALSE(is_elf("/"));
  EXPECT_THROW(ElfFile::open(SNAG_TEST_DATA_DIR "/hello.sh"), ElfError);
  EXPECT_THROW(ElfFile::open("/no/such/file"), ElfError);
  EXPECT_THROW(ElfFile::open("/"), ElfError);
}

// Every prefix of a real binary must give a clean error or, for prefixes
// long enough to hold all headers the reader needs, a result; never a crash.
TEST(ElfFile, TruncatedCopiesGiveErrorsNotCrashes) {
  std::string bytes = read_all(SNAG_TEST_ELF_FIXTURE);
  ASSERT_GT(bytes.size(), 4096u);
  ScratchFile copy("truncated");
  for (size_t size : {size_t{0}, size_t{3}, size_t{4}, size_t{16}, size_t{63}, size_t{64}, size_t{1000},
                      bytes.size() / 2, bytes.size() - 100, bytes.size() - 1}) {
    copy.write(bytes.substr(0, size));
    SCOPED_TRACE("size " + std::to_string(size));
    try {
      ElfFile elf = ElfFile::open(copy.path());
      (void)elf.section_data("snag_sites");
    } catch (const ElfError &e) {
      EXPECT_NE(std::string(e.what()).find(copy.path()), std::string::npos) << e.what();
    }
  }
  // Cutting the section headers off (they are at the end) is always an error.
  copy.write(bytes.substr(0, bytes.size() - 100));
  EXPECT_THROW(ElfFile::open(copy.path()), ElfError);
}

TEST(ElfFile, CorruptHeadersGiveErrors) {
  std::string bytes = read_all(SNAG_TEST_ELF_FIXTURE);
  ScratchFile copy("corrupt");
  auto patched = [&](size_t offset, std::string value) {
    std::string out = bytes;
    out.replace(offset, value.size(), value);
    return out;
  };
  // e_shoff (offset 0x28): far past the end of the file.
  copy.write(patched(0x28, std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8)));
  EXPECT_THROW(ElfFile::open(copy.path()), ElfError);
  // e_shnum (0x3c): more headers than the file can hold.
  copy.write(patched(0x3c, std::string("\xff\xfe", 2)));
  EXPECT_THROW(ElfFile::open(copy.path()), ElfError);
  // e_shstrndx (0x3e): out of range.
  copy.write(patched(0x3e, std::string("\xf0\xfe", 2)));
  EXPECT_THROW(ElfFile::open(copy.path()), ElfError);
  // e_shentsize (0x3a): too small for a section header.
  copy.write(patched(0x3a, std::string("\x08\x00", 2)));
  EXPECT_THROW(ElfFile::open(copy.path()), ElfError);
  // 32-bit class.
  copy.write(patched(4, std::string("\x01", 1)));
  EXPECT_THROW(ElfFile::open(copy.path()), ElfError);
}

TEST(ElfFile, RandomDamageNeverCrashes) {
  std::string bytes = read_all(SNAG_TEST_ELF_FIXTURE);
  ScratchFile copy("fuzz");
  uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (int round = 0; round < 200; ++round) {
    std::string damaged = bytes;
    for (int i = 0; i < 8; ++i) {
      // Mostly hit the ELF header and the section headers at the end.
      size_t offset = (i % 2 == 0) ? next() % 64 : damaged.size() - 1 - next() % 1024;
      damaged[offset] = static_cast<char>(next());
    }
    copy.write(damaged);
    try {
      ElfFile elf = ElfFile::open(copy.path());
      for (const ElfFile::Section &s : elf.sections()) (void)elf.section_data(s.name);
    } catch (const ElfError &) {
    }
  }
}

}  // namespace
}  // namespace snag::report
