// explore suite: c_stdin_getline, buggy twin.
// Two threads read stdin line by line with getline and count the lines with a separate load
// and store, so a thread preempted between them loses the other's count.
// Every schedule sees the same three lines.
// explore-budget: 2000
// explore-stdin: alpha\nbeta\ngamma\n
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
    int n = atomic_load(&lines);
    atomic_store(&lines, n + 1);
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
  assert(atomic_load(&lines) == 3);  // BUG: assertion-failure
  return 0;
}
