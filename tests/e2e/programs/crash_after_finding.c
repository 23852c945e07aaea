/* Reports a finding (the record engine's report_on=thread-join) and crashes
   right after it: the finding must not be lost. */
#include <pthread.h>
#include <stdlib.h>

static void *worker(void *arg) { return arg; }

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL); /* MARK:create */
  pthread_join(t, NULL);                  /* MARK:join */
  abort();
}
