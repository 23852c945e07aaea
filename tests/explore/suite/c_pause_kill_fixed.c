// explore suite: c_pause_kill, fixed twin.
// A waiter thread waits in pause until a SIGUSR1 handler has run on it; a sender thread
// sends it SIGUSR1 with pthread_kill until the waiter says it woke. Both
// parts are added with an atomic fetch_add, so every schedule sums to 1100. The waiter's
// pause must not keep the scheduler's control while the sender cannot run (not a hang).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
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
  atomic_fetch_add(&total, 100);
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
  atomic_fetch_add(&total, 1000);
  pthread_join(w, 0);
  pthread_join(s, 0);
  assert(atomic_load(&total) == 1100);
  return 0;
}
