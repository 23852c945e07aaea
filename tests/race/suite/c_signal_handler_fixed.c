// snag-race-suite
// expect: clean
// why: the limit is set before sigaction installs the handler, and every run of a handler is ordered after the sigaction that installed it
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>

int limit;
volatile sig_atomic_t seen;
atomic_int installed;

static void on_usr1(int sig) {
  (void)sig;
  seen = limit;
}

__attribute__((noinline)) static void* installer(void* arg) {
  (void)arg;
  struct sigaction act = {0};
  act.sa_handler = on_usr1;
  sigemptyset(&act.sa_mask);
  limit = 10;
  sigaction(SIGUSR1, &act, NULL);
  atomic_store_explicit(&installed, 1, memory_order_relaxed);
  return NULL;
}

__attribute__((noinline)) static void* raiser(void* arg) {
  (void)arg;
  while (atomic_load_explicit(&installed, memory_order_relaxed) == 0) sched_yield();
  raise(SIGUSR1);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, installer, NULL);
  pthread_create(&b, NULL, raiser, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return seen == 10 || seen == 0 ? 0 : 1;
}
