// explore suite: c_pipe_reader_writer, fixed twin.
// A reader thread blocks in read() on a pipe until the writer thread has written; both
// add to the total with an atomic fetch_add, so every schedule sums to 1210. The reader's
// read() must leave the scheduler's control while it waits (not a hang) and run fast.
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static int fds[2];
static atomic_int total;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 20; ++i) write(fds[1], &i, sizeof i);
  close(fds[1]);
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  int v;
  while (read(fds[0], &v, sizeof v) == (ssize_t)sizeof v) atomic_fetch_add(&total, v);
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
  assert(atomic_load(&total) == 1210);
  return 0;
}
