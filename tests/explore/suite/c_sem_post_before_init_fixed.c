// explore suite: c_sem_post_before_init, fixed twin.
// The loader stores the table size before it posts the ready semaphore.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

static sem_t ready;
static int table_size;  // accessed with __atomic builtins

static void* loader(void* arg) {
  (void)arg;
  __atomic_store_n(&table_size, 64, __ATOMIC_RELAXED);
  sem_post(&ready);
  return NULL;
}

int main(void) {
  sem_init(&ready, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, loader, NULL);
  sem_wait(&ready);
  int n = __atomic_load_n(&table_size, __ATOMIC_RELAXED);
  assert(n == 64);
  pthread_join(t, NULL);
  sem_destroy(&ready);
  return 0;
}
