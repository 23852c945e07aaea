// explore suite: c_deadlock_rwlock, fixed twin.
// The updater takes the table's write lock before the stats mutex, the same order in which
// the reader takes the table lock and the stats mutex.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
static int entries = 1;  // guarded by table
static int lookups;      // guarded by stats

static void* reader(void* arg) {
  (void)arg;
  pthread_rwlock_rdlock(&table);
  int n = entries;
  pthread_mutex_lock(&stats);
  lookups += n;
  pthread_mutex_unlock(&stats);
  pthread_rwlock_unlock(&table);
  return NULL;
}

static void* updater(void* arg) {
  (void)arg;
  pthread_rwlock_wrlock(&table);
  pthread_mutex_lock(&stats);
  lookups = 0;
  entries++;
  pthread_mutex_unlock(&stats);
  pthread_rwlock_unlock(&table);
  return NULL;
}

int main(void) {
  pthread_t r, u;
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&u, NULL, updater, NULL);
  pthread_join(r, NULL);
  pthread_join(u, NULL);
  return 0;
}
