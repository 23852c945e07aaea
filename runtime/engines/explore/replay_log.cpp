#include "engines/explore/replay_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "core/internal_alloc.h"
#include "core/platform.h"

namespace snag::explore {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Parses "T" or "TpU" at `*p`, advancing past it.
bool parse_token(const char *&p, const char *end, Decision *out) {
  uint64_t chosen = 0, preempted = 0;
  const char *start = p;
  while (p < end && is_digit(*p)) chosen = chosen * 10 + uint64_t(*p++ - '0');
  if (p == start || chosen >= kNoThread) return false;
  out->chosen = static_cast<Tid>(chosen);
  out->preempted = kNoThread;
  if (p < end && *p == 'p') {
    start = ++p;
    while (p < end && is_digit(*p)) preempted = preempted * 10 + uint64_t(*p++ - '0');
    if (p == start || preempted >= kNoThread) return false;
    out->preempted = static_cast<Tid>(preempted);
  }
  return p == end || *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
}

}  // namespace

bool ReplayLog::load(const char *path, bool lenient) {
  lenient_ = lenient;
  int fd = static_cast<int>(raw_syscall(SYS_openat, AT_FDCWD, reinterpret_cast<long>(path),
                                        O_RDONLY | O_CLOEXEC));
  struct stat st;
  if (fd < 0 || raw_syscall(SYS_fstat, fd, reinterpret_cast<long>(&st)) != 0) {
    print_error("explore: cannot read the replay decisions file");
    return false;
  }
  size_t size = static_cast<size_t>(st.st_size);
  char *text = static_cast<char *>(map_pages(size + 1));
  size_t got = 0;
  while (got < size) {
    long n = raw_syscall(SYS_read, fd, reinterpret_cast<long>(text + got), long(size - got));
    if (n <= 0) break;
    got += size_t(n);
  }
  raw_syscall(SYS_close, fd);
  // At most one token per two bytes.
  decisions_ = static_cast<Decision *>(map_pages(sizeof(Decision) * (got / 2 + 1)));
  const char *p = text, *end = text + got;
  bool ok = true;
  while (ok) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
    if (p == end) break;
    ok = parse_token(p, end, &decisions_[count_]);
    if (ok) ++count_;
  }
  unmap_pages(text, size + 1);
  if (!ok) print_error("explore: the replay decisions file is malformed");
  return ok;
}

Tid ReplayLog::choose(const Tid *candidates, int n, ControlledThread &me, bool me_may_continue,
                      uint64_t choice) {
  if (choice < count_) {
    Tid wanted = decisions_[choice].chosen;
    for (int i = 0; i < n; ++i)
      if (candidates[i] == wanted) return wanted;
  }
  ScheduleResults &r = results();
  if (!lenient_ && !r.diverged && choice < count_) {
    r.diverged = true;
    r.diverged_at = choice;
  }
  return me_may_continue ? me.tid : candidates[0];
}

ReplayLog &replay_log() {
  static ReplayLog instance;
  return instance;
}

}  // namespace snag::explore
