// The race pass of `snag explore` (cli/race_points.cpp) on a race that a real run never
// shows. The auditor sleeps before it takes the lock, so in a real run main has taken it
// long before: main's update happens before the auditor's (main's unlock, the auditor's
// lock) and a race detector sees no race. Under the explore engine a sleep is a scheduling
// point that takes no time, so some of the pass's seeded schedules run the auditor's lock
// section first; its increment, after its unlock, then races with main's update, and the
// pass makes the accesses to `balance` scheduling points. Only with those points can pct
// put the auditor's increment between main's load and store: a lost update.
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int balance;

static void *auditor(void *arg) {
  (void)arg;
  usleep(200 * 1000);  // in a real run, main takes the lock first
  pthread_mutex_lock(&lock);
  pthread_mutex_unlock(&lock);
  balance += 1;  // the fee, outside the lock: races with main's update
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, auditor, NULL);
  pthread_mutex_lock(&lock);
  balance += 10;
  pthread_mutex_unlock(&lock);
  pthread_join(t, NULL);
  assert(balance == 11);  // BUG: assertion-failure
  return 0;
}
