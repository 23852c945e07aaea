// explore suite: c_flock_two_fds, fixed twin.
// Two threads open the same file each (two open file descriptions, so their flock locks
// exclude each other) and count under flock(LOCK_EX). A thread waiting for the lock the other
// holds must let the holder run (not a hang).
// explore-budget: 2000
// explore-options: -j 1
// (one worker: schedules of two workers side by side would share this file; docs/explore.md)
// explore-min-rate: 5
// explore-complete
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <unistd.h>

static const char *path = "explore_flock.tmp";
static atomic_int counter;

static void *worker(void *arg) {
  (void)arg;
  int fd = open(path, O_RDWR);
  for (int i = 0; i < 2; i++) {
    flock(fd, LOCK_EX);
    int seen = atomic_load(&counter);
    atomic_store(&counter, seen + 1);
    flock(fd, LOCK_UN);
  }
  close(fd);
  return 0;
}

int main(void) {
  close(open(path, O_RDWR | O_CREAT, 0644));
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&counter) == 4);
  return 0;
}
