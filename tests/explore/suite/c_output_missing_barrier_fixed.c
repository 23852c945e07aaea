// explore suite: c_output_missing_barrier, fixed twin.
// Two workers each add up their half of an array into partial[id]; a barrier between the two
// phases makes worker 0 add the partial sums only after both are stored, so the printed total
// is the same under every schedule. With a path argument the total goes to that file;
// with a second argument "-" the workers read the values from stdin (check_output.py).
// explore-budget: 2000
// explore-options: --compare-output
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { kWorkers = 2, kValues = 8 };
static int values[kValues] = {1, 2, 3, 4, 5, 6, 7, 8};
static pthread_mutex_t input = PTHREAD_MUTEX_INITIALIZER;
static int from_stdin;
static atomic_int partial[kWorkers];
static pthread_barrier_t phases;
static const char *out_path;

static void *sum_half(void *arg) {
  int id = (int)(long)arg;
  int sum = 0;
  for (int i = id * kValues / kWorkers; i < (id + 1) * kValues / kWorkers; ++i) {
    if (from_stdin) {
      pthread_mutex_lock(&input);
      if (scanf("%d", &values[i]) != 1) values[i] = 0;
      pthread_mutex_unlock(&input);
    }
    sum += values[i];
  }
  atomic_store(&partial[id], sum);
  pthread_barrier_wait(&phases);
  if (id == 0) {
    int total = 0;
    for (int w = 0; w < kWorkers; ++w) total += atomic_load(&partial[w]);
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) return 0;
    fprintf(out, "total %d\n", total);
    if (out_path) fclose(out);
  }
  return 0;
}

int main(int argc, char **argv) {
  out_path = argc > 1 ? argv[1] : 0;
  from_stdin = argc > 2 && argv[2][0] == '-';
  pthread_barrier_init(&phases, 0, kWorkers);
  pthread_t threads[kWorkers];
  for (long w = 0; w < kWorkers; ++w) pthread_create(&threads[w], 0, sum_half, (void *)w);
  for (int w = 0; w < kWorkers; ++w) pthread_join(threads[w], 0);
  pthread_barrier_destroy(&phases);
  return 0;
}
