// snag-race-suite
// expect: clean
// why: the flusher counts only inside the trylock block, under the same mutex as the reset
// run: snag race --potential
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

pthread_mutex_t buffer_lock = PTHREAD_MUTEX_INITIALIZER;
int buffered;
int flushes;
atomic_int stage;

__attribute__((noinline)) static void* resetter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&buffer_lock);
  buffered = 3;
  flushes = 0;
  pthread_mutex_unlock(&buffer_lock);
  atomic_store_explicit(&stage, 1, memory_order_relaxed);
  return NULL;
}

__attribute__((noinline)) static void* flusher(void* arg) {
  (void)arg;
  while (atomic_load_explicit(&stage, memory_order_relaxed) != 1) sched_yield();
  if (pthread_mutex_trylock(&buffer_lock) == 0) {
    buffered = 0;
    flushes = flushes + 1;
    pthread_mutex_unlock(&buffer_lock);
  }
  return NULL;
}

int main(void) {
  pthread_t r, f;
  pthread_create(&r, NULL, resetter, NULL);
  pthread_create(&f, NULL, flusher, NULL);
  pthread_join(r, NULL);
  pthread_join(f, NULL);
  return flushes == 1 ? 0 : 1;
}
