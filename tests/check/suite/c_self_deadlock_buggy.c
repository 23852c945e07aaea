// snag-check-suite
// expect: deadlock
// why: table_grow() is called with table_lock held and locks the default (non-recursive) pthread mutex again: self-deadlock
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static int *slots;
static int capacity = 0, used = 0;

static void table_grow(void) {
  pthread_mutex_lock(&table_lock);  // DEADLOCK
  int *bigger = realloc(slots, sizeof *slots * (capacity * 2 + 4));
  if (bigger) {
    slots = bigger;
    capacity = capacity * 2 + 4;
  }
  pthread_mutex_unlock(&table_lock);
}

static void *insert(void *arg) {
  pthread_mutex_lock(&table_lock);  // DEADLOCK
  if (used == capacity) table_grow();
  if (used < capacity) slots[used++] = (int)(long)arg;
  pthread_mutex_unlock(&table_lock);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, insert, (void *)7L);
  pthread_join(t, NULL);
  free(slots);
  return used == 1 ? 0 : 1;
}
