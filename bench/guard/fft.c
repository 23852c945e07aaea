// Compute kernel for bench/guard_bench.py: an iterative radix-2 FFT over a
// shared array, the butterflies of each stage split between threads that
// meet at a barrier (SPLASH-2's FFT in miniature).
//
//   fft [THREADS] [LOG2_N] [REPEATS]
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static double *g_re, *g_im;
static int g_n, g_log2n, g_threads, g_repeats;
static pthread_barrier_t g_barrier;

static void bit_reverse(void) {
  for (int i = 1, j = 0; i < g_n; ++i) {
    int bit = g_n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = g_re[i]; g_re[i] = g_re[j]; g_re[j] = t;
      t = g_im[i]; g_im[i] = g_im[j]; g_im[j] = t;
    }
  }
}

static void *worker(void *arg) {
  long id = (long)arg;
  for (int r = 0; r < g_repeats; ++r) {
    if (id == 0) bit_reverse();
    pthread_barrier_wait(&g_barrier);
    for (int len = 2; len <= g_n; len <<= 1) {
      double angle = -2 * M_PI / len;
      int half = len / 2, groups = g_n / len;
      // Each thread takes whole groups of butterflies.
      for (int g = (int)id; g < groups; g += g_threads) {
        int base = g * len;
        for (int k = 0; k < half; ++k) {
          double wr = cos(angle * k), wi = sin(angle * k);
          int a = base + k, b = a + half;
          double xr = g_re[b] * wr - g_im[b] * wi, xi = g_re[b] * wi + g_im[b] * wr;
          g_re[b] = g_re[a] - xr; g_im[b] = g_im[a] - xi;
          g_re[a] += xr; g_im[a] += xi;
        }
      }
      pthread_barrier_wait(&g_barrier);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  g_threads = argc > 1 ? atoi(argv[1]) : 2;
  g_log2n = argc > 2 ? atoi(argv[2]) : 16;
  g_repeats = argc > 3 ? atoi(argv[3]) : 4;
  g_n = 1 << g_log2n;
  g_re = calloc((size_t)g_n, sizeof *g_re);
  g_im = calloc((size_t)g_n, sizeof *g_im);
  for (int i = 0; i < g_n; ++i) g_re[i] = sin(i * 0.01) + (i % 7) * 0.1;
  pthread_barrier_init(&g_barrier, NULL, (unsigned)g_threads);
  pthread_t *t = calloc((size_t)g_threads, sizeof *t);
  for (long i = 0; i < g_threads; ++i) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < g_threads; ++i) pthread_join(t[i], NULL);
  double sum = 0;
  for (int i = 0; i < g_n; ++i) sum += fabs(g_re[i]) + fabs(g_im[i]);
  printf("fft: n=%d checksum=%.3e\n", g_n, sum);
  return 0;
}
