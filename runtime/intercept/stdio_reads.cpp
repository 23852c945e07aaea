// stdio input: fgetc, fgets, fread, getline and friends refill their buffer
// through glibc's internal read, which no interceptor sees. A refill from a
// pipe, a socket or a terminal may block; under the controlled scheduler the
// caller would then keep the baton while the writer it waits for can never
// run (a hang). So a refill that may block is announced first, like read()
// (blocking_call.h): the scheduler keeps the caller waiting in its model
// until the descriptor is readable, which a refill then reads without
// blocking.
//
// One refill is not always enough: fgets needs a whole line, fread all its
// bytes, and glibc refills again inside the call. When the buffer does not
// already hold what the call needs, and the leading engine models blocking
// calls, the call is done here one refill at a time (each one announced)
// under the stream's lock, which the scheduler models like any lock
// (file_lock.cpp). Everything else goes straight to glibc. What the scanf
// family needs is its format's business, so it reads through a stream of
// snag's own that takes one byte at a time from the real one (scanf_stepwise).
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/runtime.h"
#include "intercept/blocking_call.h"
#include "intercept/real.h"
#include "snag/abi.h"

using namespace snag;

SNAG_REAL(int, fgetc, (FILE *))
SNAG_REAL(int, getc, (FILE *))
SNAG_REAL(int, _IO_getc, (FILE *))
SNAG_REAL(int, fgetc_unlocked, (FILE *))
SNAG_REAL(int, getc_unlocked, (FILE *))
SNAG_REAL(int, __uflow, (FILE *))
SNAG_REAL(int, __underflow, (FILE *))
SNAG_REAL(char *, fgets, (char *, int, FILE *))
SNAG_REAL(char *, fgets_unlocked, (char *, int, FILE *))
SNAG_REAL(size_t, fread, (void *, size_t, size_t, FILE *))
SNAG_REAL(size_t, fread_unlocked, (void *, size_t, size_t, FILE *))
SNAG_REAL(ssize_t, getdelim, (char **, size_t *, int, FILE *))
SNAG_REAL(int, __isoc99_vfscanf, (FILE *, const char *, va_list))

namespace {

// Whether stdio calls are looked into at all: only when the leading engine
// keeps blocked calls in its model (explore, replay), under which one
// thread runs at a time, so the stream's buffer can be read unlocked.
bool modelled() { return observing_thread() && blocking_calls_modelled(); }

size_t buffered(FILE *f) {
  return f->_IO_read_ptr < f->_IO_read_end ? size_t(f->_IO_read_end - f->_IO_read_ptr) : 0;
}

// Before a refill of `f`'s empty buffer: waits (in the scheduler's model)
// until its descriptor is readable. Memory and cookie streams (no
// descriptor) never wait in the kernel.
void refill_wait(const char *name, FILE *f) {
  if (buffered(f) || f->_fileno < 0) return;
  pollfd p = {f->_fileno, POLLIN, 0};
  announce_blocking_call(name, &p, 1, -1, true);
}

// The buffer holds `delim` within its first `limit` bytes: a read up to it
// cannot block.
bool buffered_upto(FILE *f, int delim, size_t limit) {
  size_t n = buffered(f);
  if (n > limit) n = limit;
  for (size_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(f->_IO_read_ptr[i]) == static_cast<unsigned char>(delim))
      return true;
  return false;
}

// The next byte, refilling (announced) when the buffer is empty; EOF at end
// of input or on error. The caller holds the stream's lock.
int next_byte(const char *name, FILE *f) {
  if (buffered(f)) return static_cast<unsigned char>(*f->_IO_read_ptr++);
  refill_wait(name, f);
  return real___uflow()(f);
}

void written(void *data, size_t size) {
  if (size && g_access_hook && observing_thread()) __snag_write_range(data, size, caller_site());
}

// Stream locks through the interceptors (file_lock.cpp): the scheduler
// models them, so a second reader of the stream waits in the model.
struct StreamLock {
  explicit StreamLock(FILE *f) : f_(f) { flockfile(f_); }
  ~StreamLock() { funlockfile(f_); }
  FILE *f_;
};

// fgets, one refill at a time. glibc's rules: at most size - 1 bytes, up to
// and including a newline; NULL when nothing was read or a read error
// happened in this call.
char *fgets_stepwise(char *s, int size, FILE *f) {
  if (size <= 0) {
    errno = EINVAL;
    return nullptr;
  }
  int old_error = f->_flags & _IO_ERR_SEEN;
  f->_flags &= ~_IO_ERR_SEEN;
  int n = 0;
  while (n < size - 1) {
    int c = next_byte("fgets", f);
    if (c == EOF) break;
    s[n++] = static_cast<char>(c);
    if (c == '\n') break;
  }
  bool failed = (f->_flags & _IO_ERR_SEEN) && errno != EAGAIN;
  f->_flags |= old_error;
  if (n == 0 || failed) return nullptr;
  s[n] = '\0';
  written(s, size_t(n) + 1);
  return s;
}

size_t fread_stepwise(void *data, size_t size, size_t count, FILE *f) {
  size_t want = size * count;
  if (want == 0) return 0;
  auto *out = static_cast<unsigned char *>(data);
  size_t got = 0;
  while (got < want) {
    size_t n = buffered(f);
    if (n) {
      if (n > want - got) n = want - got;
      copy_bytes(out + got, f->_IO_read_ptr, n);
      f->_IO_read_ptr += n;
      got += n;
      continue;
    }
    int c = next_byte("fread", f);
    if (c == EOF) break;
    out[got++] = static_cast<unsigned char>(c);
  }
  written(data, got);
  return got / size;
}

ssize_t getdelim_stepwise(char **line, size_t *capacity, int delim, FILE *f) {
  if (!line || !capacity) {
    errno = EINVAL;
    return -1;
  }
  size_t n = 0;
  for (;;) {
    int c = next_byte("getdelim", f);
    if (c == EOF) break;
    if (!*line || n + 2 > *capacity) {
      size_t grown = *capacity < 120 ? 120 : *capacity * 2;
      char *bigger = static_cast<char *>(realloc(*line, grown));
      if (!bigger) {
        errno = ENOMEM;
        return -1;
      }
      *line = bigger;
      *capacity = grown;
    }
    (*line)[n++] = static_cast<char>(c);
    if (c == delim) break;
  }
  if (n == 0) return -1;  // end of input (or an error, which the stream records)
  (*line)[n] = '\0';
  written(*line, n + 1);
  return static_cast<ssize_t>(n);
}

// The scanf family, one refill at a time: scanf reads from an unbuffered
// stream (fopencookie) whose every read takes one byte of the real stream
// through next_byte, so each refill is announced whatever the format needs.
// scanf pushes its one byte of look-ahead back into that stream; the byte
// goes back into the real stream's buffer, where it still is (the byte
// before the read pointer, as glibc's ungetc of the byte just read).
// (glibc's __uflow marks the real stream at end of input or on error, as a
// native scanf's refill would.)
ssize_t scanf_source_read(void *cookie, char *buf, size_t size) {
  FILE *real = static_cast<FILE *>(cookie);
  if (size == 0) return 0;
  int c = next_byte("fscanf", real);
  if (c == EOF) return (real->_flags & _IO_ERR_SEEN) ? -1 : 0;
  buf[0] = static_cast<char>(c);
  return 1;
}

int scanf_stepwise(FILE *f, const char *format, va_list args) {
  cookie_io_functions_t io = {scanf_source_read, nullptr, nullptr, nullptr};
  FILE *bytes;
  {
    RuntimeScope scope(current_thread());
    bytes = fopencookie(f, "r", io);
    if (bytes) setvbuf(bytes, nullptr, _IONBF, 0);
  }
  if (!bytes) return real___isoc99_vfscanf()(f, format, args);
  int rc = real___isoc99_vfscanf()(bytes, format, args);
  // scanf's look-ahead byte, pushed back into `bytes`, goes back to `f`.
  if (bytes->_IO_read_ptr < bytes->_IO_read_end && f->_IO_read_ptr > f->_IO_read_base) --f->_IO_read_ptr;
  RuntimeScope scope(current_thread());
  fclose(bytes);
  return rc;
}

// Whether reading `f` can block: not a regular file, a memory or a cookie stream.
bool may_block(FILE *f) {
  struct stat st;
  return f->_fileno >= 0 && !(fstat(f->_fileno, &st) == 0 && S_ISREG(st.st_mode));
}

}  // namespace

// Under the scheduler, every call of the locking kind takes the stream's
// lock through the interceptor first (modelled; glibc's own acquisition
// inside the call is then a recursive one): a thread descheduled inside a
// stepwise call holds the real lock, and a second reader must wait for it
// in the model, not in the kernel with the baton.

// One byte: a refill reads whatever is there, so one announced wait is enough.
#define SNAG_GETC(fn, args, f, locking)   \
  SNAG_INTERCEPTOR int fn args {          \
    if (!modelled()) return real_##fn()(f); \
    if (locking) flockfile(f);            \
    refill_wait(#fn, f);                  \
    int c = real_##fn()(f);               \
    if (locking) funlockfile(f);          \
    return c;                             \
  }
SNAG_GETC(fgetc, (FILE * f), f, true)
SNAG_GETC(getc, (FILE * f), f, true)
SNAG_GETC(_IO_getc, (FILE * f), f, true)
SNAG_GETC(fgetc_unlocked, (FILE * f), f, false)
SNAG_GETC(getc_unlocked, (FILE * f), f, false)
SNAG_GETC(__uflow, (FILE * f), f, false)
SNAG_GETC(__underflow, (FILE * f), f, false)
#undef SNAG_GETC

SNAG_INTERCEPTOR int getchar() { return getc(stdin); }

SNAG_INTERCEPTOR int getchar_unlocked() { return getc_unlocked(stdin); }

SNAG_INTERCEPTOR char *fgets(char *s, int size, FILE *f) {
  if (!modelled()) return real_fgets()(s, size, f);
  StreamLock held(f);
  if (size <= 1 || buffered_upto(f, '\n', size_t(size) - 1)) return real_fgets()(s, size, f);
  return fgets_stepwise(s, size, f);
}

SNAG_INTERCEPTOR char *fgets_unlocked(char *s, int size, FILE *f) {
  if (!modelled() || size <= 1 || buffered_upto(f, '\n', size_t(size) - 1))
    return real_fgets_unlocked()(s, size, f);
  return fgets_stepwise(s, size, f);
}

SNAG_INTERCEPTOR size_t fread(void *data, size_t size, size_t count, FILE *f) {
  if (!modelled()) return real_fread()(data, size, count, f);
  StreamLock held(f);
  if (size == 0 || count == 0 || buffered(f) >= size * count)
    return real_fread()(data, size, count, f);
  return fread_stepwise(data, size, count, f);
}

SNAG_INTERCEPTOR size_t fread_unlocked(void *data, size_t size, size_t count, FILE *f) {
  if (!modelled() || size == 0 || count == 0 || buffered(f) >= size * count)
    return real_fread_unlocked()(data, size, count, f);
  return fread_stepwise(data, size, count, f);
}

// getdelim and getline lock the stream themselves, as glibc's do.
SNAG_INTERCEPTOR ssize_t getdelim(char **line, size_t *capacity, int delim, FILE *f) {
  if (!modelled()) return real_getdelim()(line, capacity, delim, f);
  StreamLock held(f);
  if (buffered_upto(f, delim, ~size_t(0))) return real_getdelim()(line, capacity, delim, f);
  return getdelim_stepwise(line, capacity, delim, f);
}

SNAG_INTERCEPTOR ssize_t __getdelim(char **line, size_t *capacity, int delim, FILE *f) {
  return getdelim(line, capacity, delim, f);
}

SNAG_INTERCEPTOR ssize_t getline(char **line, size_t *capacity, FILE *f) {
  return getdelim(line, capacity, '\n', f);
}

// The scanf family (<stdio.h> names it __isoc99_*): from a pipe, a socket
// or a terminal one refill at a time (scanf_stepwise); a regular file never
// blocks.
SNAG_INTERCEPTOR int __isoc99_vfscanf(FILE *f, const char *format, va_list args) {
  if (!modelled()) return real___isoc99_vfscanf()(f, format, args);
  StreamLock held(f);
  if (!may_block(f)) return real___isoc99_vfscanf()(f, format, args);
  return scanf_stepwise(f, format, args);
}

SNAG_INTERCEPTOR int __isoc99_fscanf(FILE *f, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int rc = __isoc99_vfscanf(f, format, args);
  va_end(args);
  return rc;
}

SNAG_INTERCEPTOR int __isoc99_vscanf(const char *format, va_list args) {
  return __isoc99_vfscanf(stdin, format, args);
}

SNAG_INTERCEPTOR int __isoc99_scanf(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int rc = __isoc99_vfscanf(stdin, format, args);
  va_end(args);
  return rc;
}
