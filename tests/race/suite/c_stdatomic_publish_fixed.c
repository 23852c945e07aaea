// snag-race-suite
// expect: clean
// why: C11 atomics: payload write, then release store of the flag; acquire load of the flag, then payload read
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

int payload;
int seen;
atomic_int ready;

__attribute__((noinline)) static void* producer(void* arg) {
  payload = *(int*)arg;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    sched_yield();
  seen = payload;
  return NULL;
}

int main(int argc, char** argv) {
  (void)argv;
  int v = argc + 41;
  pthread_t p, c;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, &v);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return seen == argc + 41 ? 0 : 1;
}
