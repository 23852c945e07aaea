// explore suite: c_deadlock_three_cycle, fixed twin.
// Each thread locks the lower-numbered of its two mutexes first, so no cycle can form.
// explore-budget: 5000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t locks[3] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                   PTHREAD_MUTEX_INITIALIZER};
static int moved[3];  // moved[i] guarded by locks[i]

static void* mover(void* arg) {
  int i = (int)(long)arg;
  int next = (i + 1) % 3;
  int low = i < next ? i : next;
  int high = i < next ? next : i;
  pthread_mutex_lock(&locks[low]);
  pthread_mutex_lock(&locks[high]);
  moved[i]--;
  moved[next]++;
  pthread_mutex_unlock(&locks[high]);
  pthread_mutex_unlock(&locks[low]);
  return NULL;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, mover, (void*)i);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  return 0;
}
