// snag-race-suite
// expect: racy
// why: C11 atomics: the flag is stored with memory_order_relaxed, so the consumer's acquire load does not synchronize with the payload write
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

int payload;
int seen;
atomic_int ready;

__attribute__((noinline)) static void* producer(void* arg) {
  payload = *(int*)arg;  // RACE:first
  atomic_store_explicit(&ready, 1, memory_order_relaxed);
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    sched_yield();
  seen = payload;  // RACE:second
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
  return seen >= 0 ? 0 : 1;
}
