// explore suite: c_sigsuspend_kill, fixed twin.
// A waiter thread, with SIGUSR1 blocked, waits in sigsuspend (SIGUSR1 let through) until a
// sender thread sends it SIGUSR1 with pthread_kill and the handler has set a flag; both
// parts are added with an atomic fetch_add, so every schedule sums to 1100. The waiter's
// sigsuspend must not keep the scheduler's control while the sender cannot run (not a hang).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

static atomic_int total;
static volatile sig_atomic_t woken;

static void on_usr1(int sig) {
  (void)sig;
  woken = 1;
}

static void *waiter(void *arg) {
  (void)arg;
  sigset_t during;
  pthread_sigmask(SIG_BLOCK, 0, &during);
  sigdelset(&during, SIGUSR1);
  while (!woken) sigsuspend(&during);  // SIGUSR1 is blocked outside: no wake-up is lost
  atomic_fetch_add(&total, 100);
  return 0;
}

static void *sender(void *arg) {
  pthread_kill(*(pthread_t *)arg, SIGUSR1);
  return 0;
}

int main(void) {
  signal(SIGUSR1, on_usr1);
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, 0);  // every thread inherits the mask
  pthread_t w, s;
  pthread_create(&w, 0, waiter, 0);
  pthread_create(&s, 0, sender, &w);
  atomic_fetch_add(&total, 1000);
  pthread_join(w, 0);
  pthread_join(s, 0);
  assert(atomic_load(&total) == 1100);
  return 0;
}
