// explore suite: c_signal_handler_parked, fixed twin.
// main sends the worker SIGUSR1 only once the worker has said it is set up; the worker then
// waits for a semaphore, parked by the scheduler, when the signal comes. Its handler must run
// on the worker at the worker's turn, not beside main while main holds the baton, and its
// sem_post must wake main (no false deadlock).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

static volatile sig_atomic_t ready;
static sem_t started, handled, go;

static void on_usr1(int sig) {
  (void)sig;
  assert(ready == 1);
  sem_post(&handled);
}

static void *worker(void *arg) {
  (void)arg;
  ready = 1;
  sem_post(&started);
  sem_wait(&go);
  return 0;
}

int main(void) {
  sem_init(&started, 0, 0);
  sem_init(&handled, 0, 0);
  sem_init(&go, 0, 0);
  signal(SIGUSR1, on_usr1);
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  sem_wait(&started);
  pthread_kill(w, SIGUSR1);
  sem_wait(&handled);
  sem_post(&go);
  pthread_join(w, 0);
  return 0;
}
