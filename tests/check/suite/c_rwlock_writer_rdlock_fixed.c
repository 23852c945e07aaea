// snag-check-suite
// expect: clean
// why: set_route() takes the write side of the pthread rwlock, which excludes the readers
// check-flags: -D_POSIX_C_SOURCE=200809L
#include <pthread.h>

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
int next_hop[8];

static void *set_route(void *arg) {
  (void)arg;
  pthread_rwlock_wrlock(&table_lock);
  next_hop[3] = 42;
  pthread_rwlock_unlock(&table_lock);
  return NULL;
}

static int route(int dest) {
  pthread_rwlock_rdlock(&table_lock);
  int hop = next_hop[dest & 7];
  pthread_rwlock_unlock(&table_lock);
  return hop;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, set_route, NULL);
  int hop = route(3);
  pthread_join(t, NULL);
  return hop == 0 || hop == 42 ? 0 : 1;
}
