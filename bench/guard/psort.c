// Compute kernel for bench/guard_bench.py: a parallel merge sort. Each
// thread sorts its slice of a shared array (bottom-up merge sort through a
// shared scratch array), then the main thread merges the sorted slices.
//
//   psort [THREADS] [N] [REPEATS]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int *g_data, *g_scratch;
static int g_n, g_threads;

static void merge(int *src, int *dst, int lo, int mid, int hi) {
  int i = lo, j = mid, k = lo;
  while (i < mid && j < hi) dst[k++] = src[i] <= src[j] ? src[i++] : src[j++];
  while (i < mid) dst[k++] = src[i++];
  while (j < hi) dst[k++] = src[j++];
}

static void sort_range(int lo, int hi) {
  int *src = g_data, *dst = g_scratch;
  for (int width = 1; width < hi - lo; width *= 2) {
    for (int start = lo; start < hi; start += 2 * width) {
      int mid = start + width < hi ? start + width : hi;
      int end = start + 2 * width < hi ? start + 2 * width : hi;
      merge(src, dst, start, mid, end);
    }
    int *t = src; src = dst; dst = t;
  }
  if (src != g_data) memcpy(g_data + lo, src + lo, (size_t)(hi - lo) * sizeof *g_data);
}

static void *worker(void *arg) {
  long id = (long)arg;
  int lo = (int)((long)g_n * id / g_threads), hi = (int)((long)g_n * (id + 1) / g_threads);
  sort_range(lo, hi);
  return NULL;
}

int main(int argc, char **argv) {
  g_threads = argc > 1 ? atoi(argv[1]) : 2;
  g_n = argc > 2 ? atoi(argv[2]) : 1 << 20;
  int repeats = argc > 3 ? atoi(argv[3]) : 3;
  g_data = malloc((size_t)g_n * sizeof *g_data);
  g_scratch = malloc((size_t)g_n * sizeof *g_scratch);
  pthread_t *t = calloc((size_t)g_threads, sizeof *t);
  unsigned seed = 12345;
  for (int r = 0; r < repeats; ++r) {
    for (int i = 0; i < g_n; ++i) g_data[i] = (int)((seed = seed * 1103515245 + 12345) >> 8);
    for (long i = 0; i < g_threads; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < g_threads; ++i) pthread_join(t[i], NULL);
    // Merge the sorted slices pairwise on the main thread.
    for (int width = (g_n + g_threads - 1) / g_threads; width < g_n; width *= 2) {
      for (int start = 0; start < g_n; start += 2 * width) {
        int mid = start + width < g_n ? start + width : g_n;
        int end = start + 2 * width < g_n ? start + 2 * width : g_n;
        merge(g_data, g_scratch, start, mid, end);
      }
      memcpy(g_data, g_scratch, (size_t)g_n * sizeof *g_data);
    }
  }
  for (int i = 1; i < g_n; ++i)
    if (g_data[i - 1] > g_data[i]) {
      fprintf(stderr, "psort: not sorted at %d\n", i);
      return 1;
    }
  printf("psort: %d numbers sorted\n", g_n);
  return 0;
}
