// explore suite: c_outside_state, fixed twin.
// The program fails on its 41st run ever (a count kept in a file): a failure that depends
// on earlier runs, not on the interleaving, so its replay does not fail; it is reported as
// not reproducible and does not count as a bug.
// explore-budget: 2000
// explore-expect-note: not reproducible
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
  atomic_fetch_add(&done, 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  if (runs_so_far() == 40) exit(3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&done) == 2);
  return 0;
}
