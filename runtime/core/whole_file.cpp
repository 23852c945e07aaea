#include "core/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal_alloc.h"

namespace snag {

WholeFile::~WholeFile() {
  if (text_) unmap_pages(text_, mapped_);
}

WholeFile::Status WholeFile::read(const char *path, size_t max_size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return kCannotOpen;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > static_cast<off_t>(max_size)) {
    close(fd);
    return kNotRegular;
  }
  mapped_ = static_cast<size_t>(st.st_size) + 1;
  text_ = static_cast<char *>(map_pages(mapped_));  // zero-filled: the text ends in NUL
  while (size_ + 1 < mapped_) {
    ssize_t n = ::read(fd, text_ + size_, mapped_ - 1 - size_);
    if (n <= 0) break;
    size_ += static_cast<size_t>(n);
  }
  close(fd);
  return kRead;
}

}  // namespace snag
