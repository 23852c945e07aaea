#include "engines/explore/inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/internal_alloc.h"
#include "core/options.h"
#include "core/platform.h"

namespace snag::explore {

namespace {

// A descriptor the children get a private copy of: reopened by its
// /proc/self/fd path (a new open file description, so a new offset) with
// the same access mode, at the saved offset.
struct SavedFile {
  int fd;
  int flags;        // F_GETFL: access mode and status flags
  bool cloexec;
  long offset;
  int source;       // what to reopen: fd itself, or the stdin copy
};

constexpr int kMaxSaved = 256;
SavedFile g_saved[kMaxSaved];
int g_saved_count = 0;

// A pipe with both ends in the program at the fork point. The fork server
// holds its ends for later children, so a child's reader would never see
// end-of-file, and what one schedule left in it the next would read: each
// child gets a new pipe on the same descriptor numbers instead, holding the
// bytes that were waiting in it at the fork point.
struct SavedPipeEnd {
  uint64_t inode;
  int fd;
  bool write_end;
  int flags;
  bool cloexec;
};
constexpr int kMaxPipeEnds = 64;
SavedPipeEnd g_pipe_ends[kMaxPipeEnds];
int g_pipe_end_count = 0;
struct PendingBytes {
  uint64_t inode;
  char *data;
  long size;
};
PendingBytes g_pending[kMaxPipeEnds];
int g_pending_count = 0;
// Out of the program's way, like the runtime's kept files.
constexpr int kHighDescriptor = 900;

long sys(long n, long a = 0, long b = 0, long c = 0, long d = 0) {
  return raw_syscall(n, a, b, c, d);
}

void add_saved(int fd, int source, long offset) {
  if (g_saved_count == kMaxSaved) return;
  long flags = sys(SYS_fcntl, fd, F_GETFL);
  long fd_flags = sys(SYS_fcntl, fd, F_GETFD);
  if (flags < 0 || fd_flags < 0) return;
  g_saved[g_saved_count++] = {fd, int(flags), (fd_flags & FD_CLOEXEC) != 0, offset, source};
}

// stdin from a pipe, socket or FIFO: everything in it, read now, in a memfd.
void copy_piped_stdin() {
  int copy = static_cast<int>(sys(SYS_memfd_create, reinterpret_cast<long>("snag-stdin"), MFD_CLOEXEC));
  if (copy < 0) return;
  // The CLI replays a failure with the same input.
  int keep = -1;
  if (const char *path = options().text("stdin_copy"))
    keep = static_cast<int>(sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path),
                                O_WRONLY | O_TRUNC | O_CLOEXEC));
  char buffer[65536];
  for (;;) {
    long n = sys(SYS_read, 0, reinterpret_cast<long>(buffer), sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (long done = 0; done < n;) {
      long w = sys(SYS_write, copy, reinterpret_cast<long>(buffer + done), n - done);
      if (w <= 0) break;
      done += w;
    }
    if (keep >= 0) sys(SYS_write, keep, reinterpret_cast<long>(buffer), n);
  }
  if (keep >= 0) sys(SYS_close, keep);
  int high = static_cast<int>(sys(SYS_fcntl, copy, F_DUPFD_CLOEXEC, kHighDescriptor));
  sys(SYS_close, copy);
  if (high < 0) return;
  add_saved(0, high, 0);
  g_saved[g_saved_count - 1].flags = O_RDONLY;
}

// One descriptor of /proc/self/fd.
void consider(int fd) {
  struct stat st;
  if (sys(SYS_fstat, fd, reinterpret_cast<long>(&st)) != 0) return;
  if (fd == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    copy_piped_stdin();
    return;
  }
  // The program's output keeps one offset (schedules' output would otherwise
  // overwrite each other); files opened for appending do not depend on it
  // (the runtime's own files are among them).
  if (S_ISFIFO(st.st_mode) && g_pipe_end_count < kMaxPipeEnds) {
    long flags = sys(SYS_fcntl, fd, F_GETFL);
    long fd_flags = sys(SYS_fcntl, fd, F_GETFD);
    if (flags < 0 || fd_flags < 0 || (flags & O_ACCMODE) == O_RDWR) return;
    g_pipe_ends[g_pipe_end_count++] = {uint64_t(st.st_ino), fd, (flags & O_ACCMODE) == O_WRONLY,
                                       int(flags), (fd_flags & FD_CLOEXEC) != 0};
    return;
  }
  if (!S_ISREG(st.st_mode) || fd == 1 || fd == 2) return;
  long flags = sys(SYS_fcntl, fd, F_GETFL);
  if (flags < 0 || (flags & O_APPEND)) return;
  long offset = sys(SYS_lseek, fd, 0, SEEK_CUR);
  if (offset < 0) return;
  add_saved(fd, fd, offset);
}

struct LinuxDirent64 {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

void proc_fd_path(int fd, char *out) {
  copy_text(out, 32, "/proc/self/fd/");
  char digits[12];
  int n = 0;
  do digits[n++] = char('0' + fd % 10), fd /= 10; while (fd);
  char *p = out + cstr_len(out);
  while (n) *p++ = digits[--n];
  *p = '\0';
}

bool has_end(uint64_t inode, bool write_end) {
  for (int i = 0; i < g_pipe_end_count; ++i)
    if (g_pipe_ends[i].inode == inode && g_pipe_ends[i].write_end == write_end) return true;
  return false;
}

// Keeps only pipes with both ends here and takes what waits in them.
void keep_inner_pipes() {
  int kept = 0;
  for (int i = 0; i < g_pipe_end_count; ++i) {
    SavedPipeEnd e = g_pipe_ends[i];
    if (!has_end(e.inode, true) || !has_end(e.inode, false)) continue;
    g_pipe_ends[kept++] = e;
    if (e.write_end) continue;
    bool taken = false;
    for (int k = 0; k < g_pending_count; ++k) taken |= g_pending[k].inode == e.inode;
    int waiting = 0;
    if (taken || sys(SYS_ioctl, e.fd, FIONREAD, reinterpret_cast<long>(&waiting)) != 0 ||
        waiting <= 0)
      continue;
    char *data = static_cast<char *>(map_pages(size_t(waiting)));
    long got = sys(SYS_read, e.fd, reinterpret_cast<long>(data), waiting);
    g_pending[g_pending_count++] = {e.inode, data, got > 0 ? got : 0};
  }
  g_pipe_end_count = kept;
}

void give_pipes() {
  for (int i = 0; i < g_pipe_end_count; ++i) {
    uint64_t inode = g_pipe_ends[i].inode;
    bool first = true;
    for (int k = 0; k < i; ++k) first &= g_pipe_ends[k].inode != inode;
    if (!first) continue;
    int ends[2];
    if (sys(SYS_pipe2, reinterpret_cast<long>(ends), O_CLOEXEC) != 0) continue;
    for (int k = 0; k < g_pending_count; ++k)
      if (g_pending[k].inode == inode && g_pending[k].size > 0)
        sys(SYS_write, ends[1], reinterpret_cast<long>(g_pending[k].data), g_pending[k].size);
    for (int k = i; k < g_pipe_end_count; ++k) {
      const SavedPipeEnd &e = g_pipe_ends[k];
      if (e.inode != inode) continue;
      sys(SYS_dup3, ends[e.write_end ? 1 : 0], e.fd, e.cloexec ? O_CLOEXEC : 0);
      sys(SYS_fcntl, e.fd, F_SETFL, e.flags);
    }
    sys(SYS_close, ends[0]);
    sys(SYS_close, ends[1]);
  }
}

}  // namespace

void save_schedule_inputs() {
  int dir = static_cast<int>(sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>("/proc/self/fd"),
                                 O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir < 0) return;
  int fds[kMaxSaved];
  int count = 0;
  char buffer[4096];
  for (;;) {
    long n = sys(SYS_getdents64, dir, reinterpret_cast<long>(buffer), sizeof buffer);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      auto *entry = reinterpret_cast<LinuxDirent64 *>(buffer + at);
      at += entry->reclen;
      uint64_t fd;
      if (count < kMaxSaved && parse_u64(entry->name, cstr_len(entry->name), &fd) && int(fd) != dir)
        fds[count++] = int(fd);
    }
  }
  sys(SYS_close, dir);
  // Only now: stdin's copy adds a descriptor of its own.
  for (int i = 0; i < count; ++i) consider(fds[i]);
  keep_inner_pipes();
}

void give_schedule_inputs() {
  give_pipes();
  for (int i = 0; i < g_saved_count; ++i) {
    const SavedFile &s = g_saved[i];
    char path[32];
    proc_fd_path(s.source, path);
    int flags = s.flags & (O_ACCMODE | O_NONBLOCK | O_DIRECT | O_SYNC | O_DSYNC | O_NOATIME);
    int fd = static_cast<int>(sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path), flags));
    if (fd < 0) continue;  // the schedule shares the offset, as without snag
    sys(SYS_lseek, fd, s.offset, SEEK_SET);
    if (fd != s.fd) {
      sys(SYS_dup3, fd, s.fd, s.cloexec ? O_CLOEXEC : 0);
      sys(SYS_close, fd);
    }
  }
}

}  // namespace snag::explore
