#include "core/kept_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/platform.h"

namespace snag {

namespace {
// Above the descriptors programs usually use and close in loops (3..1023 is
// a common range), and no higher: the kernel's descriptor table grows to the
// highest open descriptor, and every fork copies it (at 10000, 16384 slots
// cost snag explore a 7th of each schedule's fork).
int high_descriptor_floor() {
  long limit = sysconf(_SC_OPEN_MAX);
  if (limit <= 0) limit = 1024;
  long floor = limit > 1024 + 64 ? 1024 : limit - 64;
  return floor > 100 ? static_cast<int>(floor) : 100;
}
}  // namespace

bool KeptFile::still_ours() const {
  struct stat st;
  return fd_ >= 0 && fstat(fd_, &st) == 0 && st.st_dev == device_ && st.st_ino == inode_;
}

bool KeptFile::take(int fd) {
  int high = fcntl(fd, F_DUPFD_CLOEXEC, high_descriptor_floor());
  if (high >= 0) {
    ::close(fd);
    fd = high;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    ::close(fd);
    return false;
  }
  fd_ = fd;
  device_ = st.st_dev;
  inode_ = st.st_ino;
  return true;
}

bool KeptFile::open(const char *path, bool create) {
  SpinLockGuard guard(lock_);
  if (still_ours()) ::close(fd_);
  fd_ = -1;
  copy_text(path_, sizeof path_, path);
  int fd = ::open(path, O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
  return fd >= 0 && take(fd);
}

bool KeptFile::adopt(int fd) {
  SpinLockGuard guard(lock_);
  path_[0] = 0;
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  return copy >= 0 && take(copy);
}

bool KeptFile::write(const char *data, size_t size) {
  SpinLockGuard guard(lock_);
  if (!still_ours()) {
    fd_ = -1;  // closed or reused by the program: leave that descriptor alone
    if (!path_[0]) return false;
    int fd = ::open(path_, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0 || !take(fd)) return false;
  }
  write_all(fd_, data, size);
  return true;
}

}  // namespace snag
