// explore suite: c_mq_receive, buggy twin.
// A receiver thread waits in mq_receive on a POSIX message queue for the values a sender
// thread sends with mq_send.
// The receiver adds each value with a separate load and store, and main adds its part the
// same way, so when main is preempted between its load and store a part is lost.
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static mqd_t queue;
static atomic_int total;

static void *nothing(void *arg) { return arg; }

static void *sender(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) mq_send(queue, (const char *)&i, sizeof i, 0);
  return 0;
}

static void *receiver(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) {
    int value = 0;
    mq_receive(queue, (char *)&value, sizeof value, 0);
    int t = atomic_load(&total);
    atomic_store(&total, t + value);
  }
  return 0;
}

int main(void) {
  // Every schedule starts at the first thread: opened after it, the queue is the schedule's own.
  pthread_t first, r, s;
  pthread_create(&first, 0, nothing, 0);
  pthread_join(first, 0);
  char name[32];
  snprintf(name, sizeof name, "/snag_explore_%d", (int)getpid());
  struct mq_attr attr = {.mq_maxmsg = 2, .mq_msgsize = sizeof(int)};
  queue = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
  assert(queue != (mqd_t)-1);
  mq_unlink(name);
  pthread_create(&r, 0, receiver, 0);
  pthread_create(&s, 0, sender, 0);
  int t = atomic_load(&total);
  atomic_store(&total, t + 1000);
  pthread_join(r, 0);
  pthread_join(s, 0);
  assert(atomic_load(&total) == 1015);  // BUG: assertion-failure
  return 0;
}
