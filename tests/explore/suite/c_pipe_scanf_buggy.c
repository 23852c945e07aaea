// explore suite: c_pipe_scanf, buggy twin.
// A reader thread reads pairs of numbers from a pipe with fscanf (stdio reads through glibc's
// internal read, which no interceptor sees) while a writer thread writes each pair in two
// pieces, so fscanf needs a second refill inside one call; the reader adds each pair to the
// total with a separate load and store, and main adds its part the same way, so when main is
// preempted between its load and store a part is lost.
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];
static atomic_int total;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) {
    char first[8], second[8];
    int n1 = snprintf(first, sizeof first, "%d ", i);
    int n2 = snprintf(second, sizeof second, "%d\n", 10 * i);
    write(fds[1], first, (size_t)n1);  // the pair's second number comes in a second write
    write(fds[1], second, (size_t)n2);
  }
  close(fds[1]);
  return 0;
}

static void *reader(void *arg) {
  FILE *in = arg;
  int a, b;
  while (fscanf(in, "%d %d", &a, &b) == 2) {
    int t = atomic_load(&total);
    atomic_store(&total, t + a + b);
  }
  fclose(in);
  return 0;
}

int main(void) {
  pipe(fds);
  FILE *in = fdopen(fds[0], "r");
  pthread_t r, w;
  pthread_create(&r, 0, reader, in);
  pthread_create(&w, 0, writer, 0);
  int t = atomic_load(&total);
  atomic_store(&total, t + 1000);
  pthread_join(r, 0);
  pthread_join(w, 0);
  assert(atomic_load(&total) == 1165);  // BUG: assertion-failure
  return 0;
}
