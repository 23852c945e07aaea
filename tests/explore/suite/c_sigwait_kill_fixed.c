// explore suite: c_sigwait_kill, fixed twin.
// A waiter thread blocks in sigwait until a sender thread sends it SIGUSR1 with pthread_kill;
// both parts are added with an atomic fetch_add, so every schedule sums to 1100. The waiter's
// sigwait must not keep the scheduler's control while the sender cannot run (not a hang).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

static atomic_int total;
static sigset_t usr1;

static void *waiter(void *arg) {
  (void)arg;
  int sig = 0;
  sigwait(&usr1, &sig);
  atomic_fetch_add(&total, 100);
  return 0;
}

static void *sender(void *arg) {
  pthread_kill(*(pthread_t *)arg, SIGUSR1);
  return 0;
}

int main(void) {
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, 0);  // every thread inherits the mask: sigwait receives it
  pthread_t w, s;
  pthread_create(&w, 0, waiter, 0);
  pthread_create(&s, 0, sender, &w);
  atomic_fetch_add(&total, 1000);
  pthread_join(w, 0);
  pthread_join(s, 0);
  assert(atomic_load(&total) == 1100);
  return 0;
}
