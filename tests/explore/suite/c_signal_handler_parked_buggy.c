// explore suite: c_signal_handler_parked, buggy twin.
// main sends the worker SIGUSR1 with pthread_kill right after creating it. The handler runs
// on the worker and expects the worker to have set itself up, which it has not when the
// signal comes before the worker's first step (the handler then runs first, at the worker's
// first turn).
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

static volatile sig_atomic_t ready;
static sem_t handled, go;

static void on_usr1(int sig) {
  (void)sig;
  assert(ready == 1);  // BUG: assertion-failure
  sem_post(&handled);
}

static void *worker(void *arg) {
  (void)arg;
  ready = 1;
  sem_wait(&go);
  return 0;
}

int main(void) {
  sem_init(&handled, 0, 0);
  sem_init(&go, 0, 0);
  signal(SIGUSR1, on_usr1);
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  pthread_kill(w, SIGUSR1);
  sem_wait(&handled);
  sem_post(&go);
  pthread_join(w, 0);
  return 0;
}
