// explore suite: c_wrong_lock, fixed twin.
// The auditor also takes balance_lock, like the depositors, around its increment, so no
// update of the balance can be lost.
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
  pthread_mutex_lock(&balance_lock);
  balance += 1;  // the audit fee, under the balance's lock like every update
  pthread_mutex_unlock(&balance_lock);
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
  assert(balance == 10 * DEPOSITORS + 1);
  return 0;
}
