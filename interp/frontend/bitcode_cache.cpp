#include "interp/frontend/bitcode_cache.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA1.h>

namespace snag::interp::frontend {

std::string content_key(const std::vector<std::string> &parts) {
  llvm::SHA1 hash;
  for (const std::string &part : parts) {
    std::string length = std::to_string(part.size()) + ":";
    hash.update(length);
    hash.update(part);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
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
  namespace fs = std::filesystem;
  std::string path = path_for(key);
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
