// explore suite: c_stdin_getline, fixed twin.
// Two threads read stdin line by line with getline and count the lines with an atomic
// fetch_add. getline on an empty buffer refills through glibc's internal read; the second
// reader waits for the stream's lock in the scheduler's model, not in the kernel.
// Every schedule sees the same three lines.
// explore-budget: 2000
// explore-stdin: alpha\nbeta\ngamma\n
// explore-complete
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int lines;

static void *count_lines(void *arg) {
  (void)arg;
  char *line = 0;
  size_t capacity = 0;
  while (getline(&line, &capacity, stdin) > 0) {
    atomic_fetch_add(&lines, 1);
  }
  free(line);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, count_lines, 0);
  pthread_create(&b, 0, count_lines, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&lines) == 3);
  return 0;
}
