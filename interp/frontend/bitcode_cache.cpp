#include "interp/frontend/bitcode_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA1.h>

namespace snag::interp::frontend {

// Writes through a temporary file and rename(2); false on any error.
bool write_atomically(const std::string &path, const std::string &bytes);

std::string content_key(const std::vector<std::string> &parts) {
  llvm::SHA1 hash;
  for (const std::string &part : parts) {
    std::string length = std::to_string(part.size()) + ":";
    hash.update(length);
    hash.update(part);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::vector<std::string> files_of_preprocessed(const std::string &preprocessed,
                                               const std::string &directory) {
  std::vector<std::string> files;
  std::set<std::string> seen;
  size_t at = 0;
  while (at < preprocessed.size()) {
    size_t end = preprocessed.find('\n', at);
    if (end == std::string::npos) end = preprocessed.size();
    // A line marker: '#', a space, digits, a space, a quoted name.
    if (end - at > 4 && preprocessed[at] == '#' && preprocessed[at + 1] == ' ' &&
        std::isdigit(static_cast<unsigned char>(preprocessed[at + 2]))) {
      size_t quote = preprocessed.find('"', at);
      if (quote < end) {
        std::string name;
        size_t i = quote + 1;
        for (; i < end && preprocessed[i] != '"'; ++i) {
          if (preprocessed[i] == '\\' && i + 1 < end) ++i;
          name.push_back(preprocessed[i]);
        }
        // <built-in>, <command line>: not files.
        if (i < end && !name.empty() && name[0] != '<' && seen.insert(name).second) {
          std::filesystem::path path(name);
          files.push_back(path.is_absolute() ? name : (std::filesystem::path(directory) / path).string());
        }
      }
    }
    at = end + 1;
  }
  return files;
}

namespace {

// size and modification time in nanoseconds, or nullopt when the file is gone.
std::optional<std::pair<uint64_t, int64_t>> stamp_of(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::make_pair(static_cast<uint64_t>(st.st_size),
                        static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec);
}

constexpr const char *kManifestHeader = "snag-check-manifest 1";

}  // namespace

std::optional<std::string> BitcodeCache::lookup_manifest(const std::string &command_key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(dir_ + "/manifests/" + command_key + ".txt");
  std::string header, content_key;
  if (!std::getline(in, header) || header != kManifestHeader || !std::getline(in, content_key) ||
      content_key.size() != 40) {
    return std::nullopt;
  }
  uint64_t size = 0;
  int64_t mtime = 0;
  std::string path;
  size_t files = 0;
  while (in >> size >> mtime && in.get() == ' ' && std::getline(in, path)) {
    std::optional<std::pair<uint64_t, int64_t>> now = stamp_of(path);
    if (!now || now->first != size || now->second != mtime) return std::nullopt;
    ++files;
  }
  if (files == 0 || !in.eof()) return std::nullopt;
  return content_key;
}

bool BitcodeCache::store_manifest(const std::string &command_key, const std::string &content_key,
                                  const std::vector<std::string> &files) const {
  if (!enabled() || files.empty()) return false;
  int64_t too_new = static_cast<int64_t>(std::time(nullptr) - 2) * 1'000'000'000;
  std::string text = std::string(kManifestHeader) + "\n" + content_key + "\n";
  for (const std::string &file : files) {
    std::optional<std::pair<uint64_t, int64_t>> stamp = stamp_of(file);
    if (!stamp || stamp->second >= too_new || file.find('\n') != std::string::npos) return false;
    text += std::to_string(stamp->first) + " " + std::to_string(stamp->second) + " " + file + "\n";
  }
  return write_atomically(dir_ + "/manifests/" + command_key + ".txt", text);
}

std::string BitcodeCache::path_for(const std::string &key) const {
  return dir_ + "/" + key.substr(0, 2) + "/" + key.substr(2) + ".bc";
}

std::optional<std::string> BitcodeCache::load(const std::string &key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(path_for(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof()) return std::nullopt;
  return std::move(bytes).str();
}

bool BitcodeCache::store(const std::string &key, const std::string &bitcode) const {
  if (!enabled()) return false;
  return write_atomically(path_for(key), bitcode);
}

bool write_atomically(const std::string &path, const std::string &bitcode) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(fs::path(path).parent_path(), error);
  if (error) return false;
  // Unique per process and per call, so two writers never share a temporary.
  static std::atomic<unsigned> counter{0};
  std::string temporary = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bitcode.data(), static_cast<std::streamsize>(bitcode.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      return false;
    }
  }
  fs::rename(temporary, path, error);
  if (error) {
    fs::remove(temporary, error);
    return false;
  }
  return true;
}

}  // namespace snag::interp::frontend
