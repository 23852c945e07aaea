// explore suite: c_outside_state, buggy twin.
// The workers count themselves with a separate load and store, so a count can be lost.
// The program also fails on its 41st run ever (a count kept in a file), which depends on
// earlier runs, not on the interleaving: found before that, the real bug is reported.
// explore-budget: 2000
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int done;

// Runs of this program so far, in the current directory: each run appends
// one byte, and its offset after the append is its own number. A read and a
// write back would let two concurrent schedules take the same number (and a
// replay take a number a schedule had), failing the check by chance.
static int runs_so_far(void) {
  int fd = open("explore_outside_state.count", O_WRONLY | O_APPEND | O_CREAT, 0644);
  int n = write(fd, "+", 1) == 1 ? (int)lseek(fd, 0, SEEK_CUR) - 1 : 0;
  close(fd);
  return n;
}

static void *work(void *arg) {
  (void)arg;
  int seen = atomic_load(&done);
  atomic_store(&done, seen + 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  if (runs_so_far() == 40) exit(3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&done) == 2);  // BUG: assertion-failure
  return 0;
}
