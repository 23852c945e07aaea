// snag-race-suite
// expect: clean
// why: a signal handler runs on the thread it interrupts; main signals a thread the moment it is created, so the handler may run before the thread's first instruction, and must still count as that thread (it did not: a false race, 1 run in 3)
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stddef.h>

static volatile sig_atomic_t in_section;
static volatile sig_atomic_t handled;

static void handler(int signum) {
  (void)signum;
  if (in_section) handled = handled + 1;
}

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 1000; i++) {
    in_section = 1;
    in_section = 0;
  }
  return NULL;
}

int main(void) {
  struct sigaction act;
  act.sa_handler = handler;
  act.sa_flags = 0;
  sigemptyset(&act.sa_mask);
  if (sigaction(SIGUSR1, &act, NULL) != 0) return 1;
  for (int round = 0; round < 20; round++) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_kill(t, SIGUSR1);
    pthread_join(t, NULL);
  }
  return 0;
}
