// Every kind of pthread mutex answers through snag's lock interceptor as
// glibc answers: the interceptor may try a held mutex a few times before it
// sleeps (the mutex_spin option), and none of those tries may change what
// the caller gets back or break mutual exclusion. Prints the number of
// wrong answers; exits 1 if any.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static int wrong;

static void expect(const char *what, int got, int want) {
  if (got == want) return;
  fprintf(stderr, "%s: got %d, want %d\n", what, got, want);
  ++wrong;
}

static pthread_mutex_t *make_mutex(pthread_mutex_t *m, int type, int robust) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, type);
  if (robust) pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(m, &attr);
  pthread_mutexattr_destroy(&attr);
  return m;
}

// A mutex another thread holds for a while: the main thread's lock must
// wait for it, and then see everything the holder wrote inside.
struct held {
  pthread_mutex_t *mutex;
  pthread_barrier_t holding;
  int written_inside;
};

static void *hold_for_a_while(void *arg) {
  struct held *h = arg;
  pthread_mutex_lock(h->mutex);
  pthread_barrier_wait(&h->holding);
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, 0);
  h->written_inside = 1;
  pthread_mutex_unlock(h->mutex);
  return 0;
}

static void check_held_by_another(const char *name, pthread_mutex_t *m) {
  struct held h;
  h.mutex = m;
  h.written_inside = 0;
  pthread_barrier_init(&h.holding, 0, 2);
  pthread_t holder;
  pthread_create(&holder, 0, hold_for_a_while, &h);
  pthread_barrier_wait(&h.holding);
  expect(name, pthread_mutex_trylock(m), EBUSY);
  expect(name, pthread_mutex_lock(m), 0);
  expect(name, h.written_inside, 1);
  expect(name, pthread_mutex_unlock(m), 0);
  pthread_join(holder, 0);
  pthread_barrier_destroy(&h.holding);
}

static void *lock_and_die(void *arg) {
  pthread_mutex_lock(arg);
  return 0;
}

int main(void) {
  pthread_mutex_t m;

  make_mutex(&m, PTHREAD_MUTEX_ERRORCHECK, 0);
  expect("errorcheck lock", pthread_mutex_lock(&m), 0);
  expect("errorcheck relock", pthread_mutex_lock(&m), EDEADLK);
  expect("errorcheck unlock", pthread_mutex_unlock(&m), 0);
  expect("errorcheck unlock unlocked", pthread_mutex_unlock(&m), EPERM);
  pthread_mutex_destroy(&m);

  make_mutex(&m, PTHREAD_MUTEX_RECURSIVE, 0);
  expect("recursive lock", pthread_mutex_lock(&m), 0);
  expect("recursive relock", pthread_mutex_lock(&m), 0);
  expect("recursive unlock", pthread_mutex_unlock(&m), 0);
  expect("recursive unlock again", pthread_mutex_unlock(&m), 0);
  check_held_by_another("recursive held by another", &m);
  pthread_mutex_destroy(&m);

  make_mutex(&m, PTHREAD_MUTEX_NORMAL, 0);
  check_held_by_another("normal held by another", &m);
  pthread_mutex_destroy(&m);

  make_mutex(&m, PTHREAD_MUTEX_NORMAL, 1);
  pthread_t owner;
  pthread_create(&owner, 0, lock_and_die, &m);
  pthread_join(owner, 0);
  expect("robust lock after owner died", pthread_mutex_lock(&m), EOWNERDEAD);
  expect("robust consistent", pthread_mutex_consistent(&m), 0);
  expect("robust unlock", pthread_mutex_unlock(&m), 0);
  expect("robust lock", pthread_mutex_lock(&m), 0);
  expect("robust unlock again", pthread_mutex_unlock(&m), 0);
  pthread_mutex_destroy(&m);

  printf("mutex answers: %d wrong\n", wrong);
  return wrong ? 1 : 0;
}
