// explore suite: c_sigchld_ignored, buggy twin.
// The program ignores SIGCHLD (its children reap themselves) and checks, after its workers
// ran, that it still does; the workers' check-then-increment of the slot count lets both
// take the last slot when one runs between the other's check and increment. The fork
// server waits for each schedule with SIGCHLD blocked: it must see each schedule end even
// though the program ignores SIGCHLD, and give the program its own disposition back.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int taken;  // slots taken, at most 1

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int free_slot = taken < 1;
  pthread_mutex_unlock(&lock);
  if (free_slot) {
    pthread_mutex_lock(&lock);
    taken++;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  signal(SIGCHLD, SIG_IGN);
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  struct sigaction sa;
  sigset_t mask;
  sigaction(SIGCHLD, NULL, &sa);
  sigprocmask(SIG_BLOCK, NULL, &mask);
  if (sa.sa_handler != SIG_IGN || sigismember(&mask, SIGCHLD)) abort();
  assert(taken <= 1);  // BUG: assertion-failure
  return 0;
}
