// explore suite: c_plain_two_counters, fixed twin.
// The auditor bumps the hit and miss counters under stats_lock, the
// counters' own lock, so no increment lands between the counter's
// increment and its re-read.
// explore-budget: 500
// explore-options: --strategy pct
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile long hits, misses;  // neighbours, 8 bytes apart

static void __attribute__((noinline)) bump(volatile long* c) { *c = *c + 1; }

static void __attribute__((noinline)) bump_checked(volatile long* c, int check) {
  long before = *c;
  *c = before + 1;
  if (check) assert(*c == before + 1);
}

static void* counter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&stats_lock);
  bump_checked(&hits, 0);
  bump_checked(&misses, 1);
  pthread_mutex_unlock(&stats_lock);
  return NULL;
}

static void* auditor(void* arg) {
  (void)arg;
  pthread_mutex_lock(&stats_lock);
  bump(&hits);
  bump(&misses);
  pthread_mutex_unlock(&stats_lock);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, counter, NULL);
  pthread_create(&b, NULL, auditor, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
