// explore suite: c_msgrcv_queue, fixed twin.
// A receiver thread waits in msgrcv on a System V message queue for the values a sender
// thread sends with msgsnd.
// Both add with an atomic fetch_add, so every schedule sums to 1015; the receiver must not
// keep the scheduler's control while it waits (not a hang).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/msg.h>

struct message {
  long type;
  int value;
};

static int queue;
static atomic_int total;

static void *nothing(void *arg) { return arg; }

static void *sender(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) {
    struct message m = {1, i};
    msgsnd(queue, &m, sizeof m.value, 0);
  }
  return 0;
}

static void *receiver(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) {
    struct message m;
    msgrcv(queue, &m, sizeof m.value, 0, 0);
    atomic_fetch_add(&total, m.value);
  }
  return 0;
}

int main(void) {
  // Every schedule starts at the first thread: created after it, the queue is the schedule's own.
  pthread_t first, r, s;
  pthread_create(&first, 0, nothing, 0);
  pthread_join(first, 0);
  queue = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
  assert(queue >= 0);
  pthread_create(&r, 0, receiver, 0);
  pthread_create(&s, 0, sender, 0);
  atomic_fetch_add(&total, 1000);
  pthread_join(r, 0);
  pthread_join(s, 0);
  msgctl(queue, IPC_RMID, 0);
  assert(atomic_load(&total) == 1015);
  return 0;
}
