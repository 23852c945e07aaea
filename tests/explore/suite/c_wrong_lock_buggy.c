// explore suite: c_wrong_lock, buggy twin.
// The depositors update the balance under balance_lock, the auditor under audit_lock (the
// wrong lock), so the auditor's plain increment can land between a depositor's load and
// store of the balance and be lost; only a scheduling point at those racy plain accesses
// (there is no synchronization between them) exposes it. pct alone has no such points:
// it finds the bug only through the race pass that explore runs first.
// explore-budget: 500
// explore-options: --strategy pct
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define DEPOSITORS 2

static pthread_mutex_t balance_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;
static int balance;

static void* depositor(void* arg) {
  (void)arg;
  pthread_mutex_lock(&balance_lock);
  balance += 10;
  pthread_mutex_unlock(&balance_lock);
  return NULL;
}

static void* auditor(void* arg) {
  (void)arg;
  pthread_mutex_lock(&audit_lock);
  balance += 1;  // the audit fee, under the audit log's lock instead of the balance's
  pthread_mutex_unlock(&audit_lock);
  return NULL;
}

int main(void) {
  pthread_t t[DEPOSITORS + 1];
  for (int i = 0; i < DEPOSITORS; i++)
    pthread_create(&t[i], NULL, depositor, NULL);
  pthread_create(&t[DEPOSITORS], NULL, auditor, NULL);
  for (int i = 0; i <= DEPOSITORS; i++)
    pthread_join(t[i], NULL);
  assert(balance == 10 * DEPOSITORS + 1);  // BUG: assertion-failure
  return 0;
}
