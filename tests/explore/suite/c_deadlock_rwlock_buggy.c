// explore suite: c_deadlock_rwlock, buggy twin.
// The reader holds the table's read lock while it takes the stats mutex, and the updater
// holds the stats mutex while it takes the table's write lock, so when each gets its
// first lock before the other's second (one preemption) they wait for each other.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
static int entries = 1;  // guarded by table
static int lookups;      // guarded by stats

static void* reader(void* arg) {
  (void)arg;
  pthread_rwlock_rdlock(&table);  // BUG: deadlock
  int n = entries;
  pthread_mutex_lock(&stats);  // BUG: deadlock
  lookups += n;
  pthread_mutex_unlock(&stats);
  pthread_rwlock_unlock(&table);
  return NULL;
}

static void* updater(void* arg) {
  (void)arg;
  pthread_mutex_lock(&stats);  // BUG: deadlock
  lookups = 0;
  pthread_rwlock_wrlock(&table);  // BUG: deadlock
  entries++;
  pthread_rwlock_unlock(&table);
  pthread_mutex_unlock(&stats);
  return NULL;
}

int main(void) {
  pthread_t r, u;
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&u, NULL, updater, NULL);
  pthread_join(r, NULL);  // BUG: deadlock
  pthread_join(u, NULL);  // BUG: deadlock
  return 0;
}
