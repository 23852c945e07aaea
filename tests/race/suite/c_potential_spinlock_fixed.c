// snag-race-suite
// expect: clean
// why: the monitor reads the counter while it holds the spin lock
// run: snag race --potential
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

pthread_spinlock_t spin;
int done_jobs;
int monitor_polls;
int last_seen;
atomic_int stage;

__attribute__((noinline)) static void* worker(void* arg) {
  (void)arg;
  pthread_spin_lock(&spin);
  done_jobs = done_jobs + 1;
  pthread_spin_unlock(&spin);
  atomic_store_explicit(&stage, 1, memory_order_relaxed);
  return NULL;
}

__attribute__((noinline)) static void* monitor(void* arg) {
  (void)arg;
  while (atomic_load_explicit(&stage, memory_order_relaxed) != 1) sched_yield();
  pthread_spin_lock(&spin);
  monitor_polls = monitor_polls + 1;
  last_seen = done_jobs;
  pthread_spin_unlock(&spin);
  return NULL;
}

int main(void) {
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  pthread_t w, m;
  pthread_create(&w, NULL, worker, NULL);
  pthread_create(&m, NULL, monitor, NULL);
  pthread_join(w, NULL);
  pthread_join(m, NULL);
  pthread_spin_destroy(&spin);
  return last_seen == 1 ? 0 : 1;
}
