// A file the runtime keeps open for the whole run and writes to now and then
// (the findings file, the tsv trap file), in a program that may do anything
// to its descriptors. The descriptor is moved to a high number, close-on-exec,
// and checked (device and inode) before each write: a program that closed it
// (daemons close every descriptor) or whose own file now has its number gets
// the file reopened by path, never a line written into a file of its own.
#pragma once

#include <sys/types.h>

#include "core/spinlock.h"

namespace snag {

class KeptFile {
 public:
  // Opens `path` for appending (creating it with mode 0644 if `create`).
  // False when it cannot be opened.
  bool open(const char *path, bool create);

  // Adopts a descriptor the program inherited (findings_fd=N): it cannot be
  // reopened by path, but it is still moved out of the program's way and
  // checked before each write. False when `fd` is not open.
  bool adopt(int fd);

  // Writes all of [data, data+size) in one write(2) (O_APPEND keeps lines
  // whole between processes). False when the file is gone for good.
  bool write(const char *data, size_t size);

  bool is_open() const { return fd_ >= 0; }

 private:
  bool still_ours() const;
  bool take(int fd);  // moves `fd` high and remembers what it is; called with lock_ held

  SpinLock lock_;
  int fd_ = -1;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  char path_[4096] = {};
};

}  // namespace snag
