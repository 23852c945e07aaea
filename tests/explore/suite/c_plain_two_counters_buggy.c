// explore suite: c_plain_two_counters, buggy twin.
// The auditor bumps the hit and miss counters under audit_lock (the wrong
// lock), so its plain increment of `misses` can land between the counter's
// increment and its re-read of it. Both counters are raced on by the same
// two statements (bump's and bump_checked's), so their races have the same
// sites; the re-read is at a site no reported race names, and only a
// scheduling point at the racy address of `misses` (the second variable)
// splits it from the increment. pct alone has no such point: it finds the
// bug only through the race pass's addresses, every one of them.
// explore-budget: 500
// explore-options: --strategy pct
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile long hits, misses;  // neighbours, 8 bytes apart

static void __attribute__((noinline)) bump(volatile long* c) { *c = *c + 1; }

static void __attribute__((noinline)) bump_checked(volatile long* c, int check) {
  long before = *c;
  *c = before + 1;
  if (check) assert(*c == before + 1);  // BUG: assertion-failure
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
  pthread_mutex_lock(&audit_lock);  // the audit log's lock, not the counters'
  bump(&hits);
  bump(&misses);
  pthread_mutex_unlock(&audit_lock);
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
