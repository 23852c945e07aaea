// explore suite: c_bounded_buffer_if, buggy twin.
// A consumer waits with `if` instead of `while`, so when the other consumer takes the item
// between the signal and the woken consumer's return from pthread_cond_wait (or the
// wake-up is spurious) the woken consumer takes from an empty buffer.
// explore-budget: 5000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define CAPACITY 1

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static int items[CAPACITY];  // guarded by m
static int count;            // guarded by m
static int taken_sum;        // guarded by m

static void* producer(void* arg) {
  (void)arg;
  for (int i = 1; i <= 2; i++) {
    pthread_mutex_lock(&m);
    while (count == CAPACITY)
      pthread_cond_wait(&not_full, &m);
    items[count++] = i;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&m);
  }
  return NULL;
}

static void* consumer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (count == 0)
    pthread_cond_wait(&not_empty, &m);
  assert(count > 0);  // BUG: assertion-failure
  taken_sum += items[--count];
  pthread_cond_signal(&not_full);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t c1, c2, p;
  pthread_create(&c1, NULL, consumer, NULL);
  pthread_create(&c2, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(c1, NULL);
  pthread_join(c2, NULL);
  pthread_join(p, NULL);
  return 0;
}
