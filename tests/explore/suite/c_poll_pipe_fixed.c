// explore suite: c_poll_pipe, fixed twin.
// A reader thread waits in poll for a pipe to become readable before each read, while a
// writer thread writes the values; both add with an atomic fetch_add, so every schedule sums
// to 1015, and the reader's poll leaves the scheduler's control while it waits.
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
#include <assert.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static int fds[2];
static atomic_int total;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) write(fds[1], &i, sizeof i);
  close(fds[1]);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  struct pollfd p = {fds[0], POLLIN, 0};
  int v;
  while (poll(&p, 1, -1) == 1 && read(fds[0], &v, sizeof v) == (ssize_t)sizeof v)
    atomic_fetch_add(&total, v);
  return 0;
}

int main(void) {
  pipe(fds);
  pthread_t r, w;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  atomic_fetch_add(&total, 1000);
  pthread_join(r, 0);
  pthread_join(w, 0);
  assert(atomic_load(&total) == 1015);
  return 0;
}
