// libc functions that are not thread-safe (POSIX lists them; glibc's manual
// marks them MT-Unsafe): each keeps hidden state — a static buffer, the
// environment, a directory stream's position — that two threads may not use
// at once. They are TSVD points like the members of std:: containers: every
// family of functions is one hidden object, and each call is bracketed by
// kApiBegin/kApiEnd on it, with `value` naming the call (LibcCall,
// core/api_calls.h) since no site table describes libc.
//
// The interceptors are weak, so a program that defines a function of the
// same name keeps its own. Without an engine that wants API calls they cost
// one predictable branch.
#define _GNU_SOURCE 1
#include <dirent.h>
#include <grp.h>
#include <locale.h>
#include <netdb.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/api_calls.h"
#include "intercept/real.h"

using namespace snag;

namespace {

// The hidden objects: only their addresses matter.
struct HiddenState {
  char unused;
};
HiddenState g_strtok_state, g_time_buffers, g_strerror_buffer, g_environment, g_rand_state,
    g_netdb_buffers, g_passwd_buffers, g_group_buffers, g_cvt_buffer, g_locale,
    g_ttyname_buffer;

// Brackets one call: kApiBegin before it, kApiEnd after it, on `object`.
class UnsafeCall {
 public:
  UnsafeCall(const void *object, const LibcCall &call) {
    if (SNAG_LIKELY(!g_wants_api_calls)) return;
    thread_ = observing_thread();
    if (!thread_) return;
    object_ = reinterpret_cast<uintptr_t>(object);
    site_ = caller_site();
    Event e{EventKind::kApiBegin};
    e.addr = object_;
    e.flags = (call.write ? uint32_t(kApiWrite) : 0u) | kApiLibc;
    e.site = site_;
    e.value = reinterpret_cast<uintptr_t>(&call);
    emit(thread_, e);
  }
  ~UnsafeCall() {
    if (!thread_) return;
    Event e{EventKind::kApiEnd};
    e.addr = object_;
    e.site = site_;
    emit(thread_, e);
  }
  UnsafeCall(const UnsafeCall &) = delete;
  UnsafeCall &operator=(const UnsafeCall &) = delete;

 private:
  ThreadState *thread_ = nullptr;
  uintptr_t object_ = 0;
  snag_site_t site_ = 0;
};

}  // namespace

#define SNAG_UNSAFE_INTERCEPTOR SNAG_INTERCEPTOR

// One interceptor: calls the real `name` inside an UnsafeCall on `object`.
#define SNAG_UNSAFE(ret, name, params, args, object, object_name, is_write) \
  SNAG_REAL(ret, name, params)                                              \
  SNAG_UNSAFE_INTERCEPTOR ret name params {                                 \
    static const LibcCall call = {object_name, #name, is_write};            \
    UnsafeCall guard(object, call);                                         \
    return real_##name() args;                                              \
  }

SNAG_UNSAFE(char *, strtok, (char *s, const char *delim), (s, delim), &g_strtok_state,
            "libc strtok state", 1)

// localtime and gmtime share one struct tm, asctime and ctime one string
// (and ctime calls localtime): one object for all four.
SNAG_UNSAFE(struct tm *, localtime, (const time_t *t), (t), &g_time_buffers, "libc time buffers", 1)
SNAG_UNSAFE(struct tm *, gmtime, (const time_t *t), (t), &g_time_buffers, "libc time buffers", 1)
SNAG_UNSAFE(char *, ctime, (const time_t *t), (t), &g_time_buffers, "libc time buffers", 1)
SNAG_UNSAFE(char *, asctime, (const struct tm *tm), (tm), &g_time_buffers, "libc time buffers", 1)

SNAG_UNSAFE(char *, strerror, (int error), (error), &g_strerror_buffer, "libc strerror buffer", 1)

SNAG_UNSAFE(int, setenv, (const char *name, const char *value, int overwrite),
            (name, value, overwrite), &g_environment, "libc environment", 1)
SNAG_UNSAFE(int, unsetenv, (const char *name), (name), &g_environment, "libc environment", 1)
SNAG_UNSAFE(int, putenv, (char *text), (text), &g_environment, "libc environment", 1)
SNAG_UNSAFE(int, clearenv, (), (), &g_environment, "libc environment", 1)

// rand() changes the generator's state as much as srand() does. (glibc
// serializes them with a lock; POSIX does not require it, and other libcs
// do not.)
SNAG_UNSAFE(int, rand, (), (), &g_rand_state, "libc rand state", 1)
SNAG_UNSAFE(void, srand, (unsigned seed), (seed), &g_rand_state, "libc rand state", 1)
SNAG_UNSAFE(long, random, (), (), &g_rand_state, "libc rand state", 1)
SNAG_UNSAFE(void, srandom, (unsigned seed), (seed), &g_rand_state, "libc rand state", 1)

// Each directory stream is its own object.
SNAG_UNSAFE(struct dirent *, readdir, (DIR * dir), (dir), dir, "DIR stream", 1)
SNAG_UNSAFE(struct dirent64 *, readdir64, (DIR * dir), (dir), dir, "DIR stream", 1)

SNAG_UNSAFE(struct hostent *, gethostbyname, (const char *name), (name), &g_netdb_buffers,
            "libc netdb buffers", 1)
SNAG_UNSAFE(struct hostent *, gethostbyname2, (const char *name, int family), (name, family),
            &g_netdb_buffers, "libc netdb buffers", 1)
SNAG_UNSAFE(struct hostent *, gethostbyaddr, (const void *address, socklen_t length, int type),
            (address, length, type), &g_netdb_buffers, "libc netdb buffers", 1)

SNAG_UNSAFE(struct passwd *, getpwnam, (const char *name), (name), &g_passwd_buffers,
            "libc passwd buffers", 1)
SNAG_UNSAFE(struct passwd *, getpwuid, (uid_t uid), (uid), &g_passwd_buffers,
            "libc passwd buffers", 1)
SNAG_UNSAFE(struct passwd *, getpwent, (), (), &g_passwd_buffers, "libc passwd buffers", 1)
SNAG_UNSAFE(struct group *, getgrnam, (const char *name), (name), &g_group_buffers,
            "libc group buffers", 1)
SNAG_UNSAFE(struct group *, getgrgid, (gid_t gid), (gid), &g_group_buffers, "libc group buffers",
            1)
SNAG_UNSAFE(struct group *, getgrent, (), (), &g_group_buffers, "libc group buffers", 1)

SNAG_UNSAFE(char *, ecvt, (double value, int digits, int *point, int *negative),
            (value, digits, point, negative), &g_cvt_buffer, "libc ecvt/fcvt buffer", 1)
SNAG_UNSAFE(char *, fcvt, (double value, int digits, int *point, int *negative),
            (value, digits, point, negative), &g_cvt_buffer, "libc ecvt/fcvt buffer", 1)

SNAG_UNSAFE(struct lconv *, localeconv, (), (), &g_locale, "libc locale", 0)

SNAG_UNSAFE(char *, ttyname, (int fd), (fd), &g_ttyname_buffer, "libc ttyname buffer", 1)

// setlocale(category, NULL) only asks.
SNAG_REAL(char *, setlocale, (int, const char *))
SNAG_UNSAFE_INTERCEPTOR char *setlocale(int category, const char *locale) {
  static const LibcCall query = {"libc locale", "setlocale", 0};
  static const LibcCall change = {"libc locale", "setlocale", 1};
  UnsafeCall guard(&g_locale, locale ? change : query);
  return real_setlocale()(category, locale);
}

// getenv reads the environment. Looking up the real getenv must not come
// back here (the dynamic loader may read the environment itself), so a
// re-entered call reads `environ` directly, as glibc's getenv does.
SNAG_REAL(char *, getenv, (const char *))
namespace {
SNAG_TLS bool t_resolving_getenv;

char *scan_environment(const char *name) {
  size_t length = cstr_len(name);
  for (char **entry = environ; entry && *entry; ++entry)
    if (cstr_starts_with(*entry, name) && (*entry)[length] == '=') return *entry + length + 1;
  return nullptr;
}
}  // namespace

SNAG_UNSAFE_INTERCEPTOR char *getenv(const char *name) {
  if (t_resolving_getenv) return scan_environment(name);
  static const LibcCall call = {"libc environment", "getenv", 0};
  UnsafeCall guard(&g_environment, call);
  t_resolving_getenv = true;
  getenv_fn real = real_getenv();
  t_resolving_getenv = false;
  return real(name);
}
