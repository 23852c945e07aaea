// explore suite: c_deadlock_three_cycle, buggy twin.
// Three threads each lock their own mutex and then their neighbour's (a -> b, b -> c,
// c -> a), so when all three hold their first mutex at once (two preemptions) they wait
// in a cycle.
// explore-budget: 5000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t locks[3] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                   PTHREAD_MUTEX_INITIALIZER};
static int moved[3];  // moved[i] guarded by locks[i]

static void* mover(void* arg) {
  int i = (int)(long)arg;
  int next = (i + 1) % 3;
  pthread_mutex_lock(&locks[i]);     // BUG: deadlock
  pthread_mutex_lock(&locks[next]);  // BUG: deadlock
  moved[i]--;
  moved[next]++;
  pthread_mutex_unlock(&locks[next]);
  pthread_mutex_unlock(&locks[i]);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, mover, (void*)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);  // BUG: deadlock
  return 0;
}
