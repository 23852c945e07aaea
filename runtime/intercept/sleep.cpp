// Sleeps and yields: scheduling points for the controlled scheduler, and
// hints for engines that inject delays.
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "intercept/real.h"

using namespace snag;

SNAG_REAL(unsigned, sleep, (unsigned))
SNAG_REAL(int, usleep, (useconds_t))
SNAG_REAL(int, nanosleep, (const struct timespec *, struct timespec *))
SNAG_REAL(int, clock_nanosleep, (clockid_t, int, const struct timespec *, struct timespec *))
SNAG_REAL(int, sched_yield, ())

namespace {

// Returns true when the engine took over the call.
bool announce(EventKind kind, uint64_t microseconds, long *result) {
  ThreadState *t = observing_thread();
  if (!t) return false;
  Event e = make_event(kind);
  e.value = microseconds;
  Verdict v = emit(t, e);
  *result = v.result;
  return v.skip_real;
}

uint64_t to_microseconds(const struct timespec *ts) {
  if (!ts || ts->tv_sec < 0) return 0;
  return static_cast<uint64_t>(ts->tv_sec) * 1000000 + static_cast<uint64_t>(ts->tv_nsec) / 1000;
}

}  // namespace

SNAG_INTERCEPTOR unsigned sleep(unsigned seconds) {
  long result;
  if (announce(EventKind::kSleep, uint64_t(seconds) * 1000000, &result))
    return static_cast<unsigned>(result);
  return real_sleep()(seconds);
}

SNAG_INTERCEPTOR int usleep(useconds_t microseconds) {
  long result;
  if (announce(EventKind::kSleep, microseconds, &result)) return static_cast<int>(result);
  return real_usleep()(microseconds);
}

SNAG_INTERCEPTOR int nanosleep(const struct timespec *duration, struct timespec *remaining) {
  long result;
  if (announce(EventKind::kSleep, to_microseconds(duration), &result))
    return static_cast<int>(result);
  return real_nanosleep()(duration, remaining);
}

// std::this_thread::sleep_for and sleep_until end up here or in nanosleep.
SNAG_INTERCEPTOR int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request,
                                   struct timespec *remaining) {
  long result;
  uint64_t us = (flags & TIMER_ABSTIME) ? 0 : to_microseconds(request);
  if (announce(EventKind::kSleep, us, &result)) return static_cast<int>(result);
  return real_clock_nanosleep()(clock, flags, request, remaining);
}

SNAG_INTERCEPTOR int sched_yield() {
  long result;
  if (announce(EventKind::kYield, 0, &result)) return static_cast<int>(result);
  return real_sched_yield()();
}
