// flockfile/funlockfile: a stdio stream's own recursive lock, taken by the
// program around several stdio calls (or around its own data). It is a
// mutex like any other: code guarded by it is ordered and protected by it.
// (stdio's internal locking inside each call is libc's and stays unseen.)
#include <stdio.h>

#include "intercept/lock_events.h"

using namespace snag;

SNAG_REAL(void, flockfile, (FILE *))
SNAG_REAL(int, ftrylockfile, (FILE *))
SNAG_REAL(void, funlockfile, (FILE *))

SNAG_INTERCEPTOR void flockfile(FILE *f) {
  observed_acquire(f, kLockMutex | kLockRecursive, [&] {
    real_flockfile()(f);
    return 0;
  });
}

SNAG_INTERCEPTOR int ftrylockfile(FILE *f) {
  return observed_acquire(f, kLockMutex | kLockRecursive | kLockTry,
                          [&] { return real_ftrylockfile()(f); });
}

SNAG_INTERCEPTOR void funlockfile(FILE *f) {
  observed_release(f, kLockMutex | kLockRecursive, [&] {
    real_funlockfile()(f);
    return 0;
  });
}
