// snag-race-suite
// expect: racy
// why: thread B starts after main joined thread A, so B takes A's vector-clock slot; B still races with thread C, which main started earlier and never synchronized with (the flag is relaxed): a reused slot must keep finding races with every other thread
#include <pthread.h>
#include <stdatomic.h>

static int g_a_data;
static int g_shared;
static atomic_int g_c_wrote;

static void *thread_a(void *arg) {
  (void)arg;
  g_a_data = 1;
  return NULL;
}

static void *thread_c(void *arg) {
  (void)arg;
  g_shared = 42;  // RACE:first
  atomic_store_explicit(&g_c_wrote, 1, memory_order_relaxed);
  return NULL;
}

static void *thread_b(void *arg) {
  (void)arg;
  while (!atomic_load_explicit(&g_c_wrote, memory_order_relaxed)) {
  }
  return (void *)(long)g_shared;  // RACE:second
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&c, NULL, thread_c, NULL);
  pthread_create(&a, NULL, thread_a, NULL);
  pthread_join(a, NULL);
  pthread_create(&b, NULL, thread_b, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  return g_a_data - 1;
}
