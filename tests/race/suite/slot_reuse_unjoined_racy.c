// snag-race-suite
// expect: racy
// why: thread J joins thread A, then main starts thread B after only a relaxed flag from J: A happens before J, not before main or B, so B must not take A's vector-clock slot (it would look like A's own later self) and B's read races with A's write
#include <pthread.h>
#include <stdatomic.h>

static int g_shared;
static pthread_t g_a;
static atomic_int g_a_joined;

static void *thread_a(void *arg) {
  (void)arg;
  g_shared = 7;  // RACE:first
  return NULL;
}

static void *thread_j(void *arg) {
  (void)arg;
  pthread_join(g_a, NULL);
  atomic_store_explicit(&g_a_joined, 1, memory_order_relaxed);
  return NULL;
}

static void *thread_b(void *arg) {
  (void)arg;
  return (void *)(long)g_shared;  // RACE:second
}

int main(void) {
  pthread_t j, b;
  pthread_create(&g_a, NULL, thread_a, NULL);
  pthread_create(&j, NULL, thread_j, NULL);
  while (!atomic_load_explicit(&g_a_joined, memory_order_relaxed)) {
  }
  pthread_create(&b, NULL, thread_b, NULL);
  pthread_join(b, NULL);
  pthread_join(j, NULL);
  return 0;
}
