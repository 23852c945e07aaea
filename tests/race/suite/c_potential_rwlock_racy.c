// snag-race-suite
// expect: potential
// why: the reader thread bumps a hit counter while holding the lock only for reading; this run orders it after the writer's update only because the writer released the lock first
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int table_version;
int hits;
atomic_int stage;

__attribute__((noinline)) static void* writer(void* arg) {
  (void)arg;
  pthread_rwlock_wrlock(&lock);
  table_version = 2;
  hits = 0;  // RACE:first
  pthread_rwlock_unlock(&lock);
  atomic_store_explicit(&stage, 1, memory_order_relaxed);
  return NULL;
}

__attribute__((noinline)) static void* reader(void* arg) {
  (void)arg;
  while (atomic_load_explicit(&stage, memory_order_relaxed) != 1) sched_yield();
  pthread_rwlock_rdlock(&lock);
  int v = table_version;
  hits = hits + v;  // RACE:second
  pthread_rwlock_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return hits == 2 ? 0 : 1;
}
