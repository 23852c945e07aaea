// explore suite: c_pause_kill, buggy twin.
// A waiter thread waits in pause until a SIGUSR1 handler has run on it; a sender thread
// sends it SIGUSR1 with pthread_kill until the waiter says it woke (a signal that came
// before the pause is not lost: the next one ends it). Then the waiter
// adds its part to the total with a separate load and store. Main adds its part the same
// way, so when main is preempted between its load and store a part is lost.
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <stdatomic.h>

static atomic_int total;
static volatile sig_atomic_t woken;
static atomic_int acknowledged;

static void on_usr1(int sig) {
  (void)sig;
  woken = 1;
}

static void *waiter(void *arg) {
  (void)arg;
  pause();
  atomic_store(&acknowledged, 1);
  int t = atomic_load(&total);
  atomic_store(&total, t + 100);
  return 0;
}

static void *sender(void *arg) {
  while (!atomic_load(&acknowledged)) {
    pthread_kill(*(pthread_t *)arg, SIGUSR1);
    sched_yield();
  }
  return 0;
}

int main(void) {
  signal(SIGUSR1, on_usr1);
  pthread_t w, s;
  pthread_create(&w, 0, waiter, 0);
  pthread_create(&s, 0, sender, &w);
  int t = atomic_load(&total);
  atomic_store(&total, t + 1000);
  pthread_join(w, 0);
  pthread_join(s, 0);
  assert(atomic_load(&total) == 1100);  // BUG: assertion-failure
  return 0;
}
