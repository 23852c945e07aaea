#include "temp_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <vector>

namespace snag::cli {

std::string temp_directory() {
  const char *dir = getenv("TMPDIR");
  if (dir && dir[0] == '/' && std::string(dir).find_first_of(": \t\n") == std::string::npos &&
      access(dir, W_OK | X_OK) == 0) {
    return dir;
  }
  return "/tmp";
}

TempFile::TempFile(const std::string &purpose, const std::string &suffix) {
  std::string pattern = temp_directory() + "/snag-" + purpose + "-XXXXXX" + suffix;
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  // O_CLOEXEC: the program must open the file itself (by name, from
  // SNAG_OPTIONS), not inherit our descriptor.
  int fd = mkostemps(buffer.data(), static_cast<int>(suffix.size()), O_CLOEXEC);
  if (fd < 0) {
    throw std::system_error(errno, std::generic_category(),
                            "cannot create a temporary file in " + temp_directory());
  }
  close(fd);
  path_ = buffer.data();
}

TempFile::~TempFile() { unlink(path_.c_str()); }

}  // namespace snag::cli
