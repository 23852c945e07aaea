// C11 <threads.h>. glibc implements thrd_create, mtx_lock, cnd_wait, ... by
// calling its pthread internals directly, so the pthread interceptors never
// see them; these forward to the pthread functions (ours, so the events
// happen) and translate the results. The C11 types share the pthread
// layouts in glibc.
#include <pthread.h>
#include <threads.h>

#include "core/internal_alloc.h"
#include "intercept/real.h"

using namespace snag;

namespace {

int to_c11(int rc) {
  if (rc == 0) return thrd_success;
  if (rc == EBUSY) return thrd_busy;
  if (rc == ETIMEDOUT) return thrd_timedout;
  if (rc == ENOMEM) return thrd_nomem;
  return thrd_error;
}

struct C11Start {
  thrd_start_t start;
  void *arg;
};

void *run_c11_thread(void *p) {
  C11Start s = *static_cast<C11Start *>(p);
  internal_free(p);
  return reinterpret_cast<void *>(static_cast<intptr_t>(s.start(s.arg)));
}

}  // namespace

SNAG_INTERCEPTOR int thrd_create(thrd_t *thread, thrd_start_t start, void *arg) {
  auto *s = static_cast<C11Start *>(internal_alloc(sizeof(C11Start)));
  *s = {start, arg};
  int rc = pthread_create(reinterpret_cast<pthread_t *>(thread), nullptr, run_c11_thread, s);
  if (rc != 0) internal_free(s);
  return to_c11(rc);
}

SNAG_INTERCEPTOR int thrd_join(thrd_t thread, int *result) {
  void *value = nullptr;
  int rc = pthread_join(static_cast<pthread_t>(thread), &value);
  if (rc == 0 && result) *result = static_cast<int>(reinterpret_cast<intptr_t>(value));
  return to_c11(rc);
}

SNAG_INTERCEPTOR int thrd_detach(thrd_t thread) { return to_c11(pthread_detach(static_cast<pthread_t>(thread))); }

SNAG_INTERCEPTOR void thrd_exit(int result) {
  pthread_exit(reinterpret_cast<void *>(static_cast<intptr_t>(result)));
}

SNAG_INTERCEPTOR int mtx_init(mtx_t *m, int type) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  if (type & mtx_recursive) pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  int rc = pthread_mutex_init(reinterpret_cast<pthread_mutex_t *>(m), &attr);
  pthread_mutexattr_destroy(&attr);
  return to_c11(rc);
}

SNAG_INTERCEPTOR void mtx_destroy(mtx_t *m) { pthread_mutex_destroy(reinterpret_cast<pthread_mutex_t *>(m)); }

SNAG_INTERCEPTOR int mtx_lock(mtx_t *m) { return to_c11(pthread_mutex_lock(reinterpret_cast<pthread_mutex_t *>(m))); }

SNAG_INTERCEPTOR int mtx_trylock(mtx_t *m) {
  return to_c11(pthread_mutex_trylock(reinterpret_cast<pthread_mutex_t *>(m)));
}

SNAG_INTERCEPTOR int mtx_timedlock(mtx_t *__restrict m, const struct timespec *__restrict deadline) {
  return to_c11(pthread_mutex_timedlock(reinterpret_cast<pthread_mutex_t *>(m), deadline));
}

SNAG_INTERCEPTOR int mtx_unlock(mtx_t *m) {
  return to_c11(pthread_mutex_unlock(reinterpret_cast<pthread_mutex_t *>(m)));
}

SNAG_INTERCEPTOR int cnd_init(cnd_t *c) { return to_c11(pthread_cond_init(reinterpret_cast<pthread_cond_t *>(c), nullptr)); }

SNAG_INTERCEPTOR void cnd_destroy(cnd_t *c) { pthread_cond_destroy(reinterpret_cast<pthread_cond_t *>(c)); }

SNAG_INTERCEPTOR int cnd_signal(cnd_t *c) { return to_c11(pthread_cond_signal(reinterpret_cast<pthread_cond_t *>(c))); }

SNAG_INTERCEPTOR int cnd_broadcast(cnd_t *c) {
  return to_c11(pthread_cond_broadcast(reinterpret_cast<pthread_cond_t *>(c)));
}

SNAG_INTERCEPTOR int cnd_wait(cnd_t *c, mtx_t *m) {
  return to_c11(pthread_cond_wait(reinterpret_cast<pthread_cond_t *>(c), reinterpret_cast<pthread_mutex_t *>(m)));
}

SNAG_INTERCEPTOR int cnd_timedwait(cnd_t *__restrict c, mtx_t *__restrict m,
                                 const struct timespec *__restrict deadline) {
  return to_c11(pthread_cond_timedwait(reinterpret_cast<pthread_cond_t *>(c),
                                       reinterpret_cast<pthread_mutex_t *>(m), deadline));
}

SNAG_INTERCEPTOR void call_once(once_flag *flag, void (*init)(void)) {
  pthread_once(reinterpret_cast<pthread_once_t *>(flag), init);
}
