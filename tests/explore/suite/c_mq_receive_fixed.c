// explore suite: c_mq_receive, fixed twin.
// A receiver thread waits in mq_receive on a POSIX message queue for the values a sender
// thread sends with mq_send.
// Both add with an atomic fetch_add, so every schedule sums to 1015; the receiver must not
// keep the scheduler's control while it waits (not a hang).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
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
    atomic_fetch_add(&total, value);
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
  atomic_fetch_add(&total, 1000);
  pthread_join(r, 0);
  pthread_join(s, 0);
  assert(atomic_load(&total) == 1015);
  return 0;
}
