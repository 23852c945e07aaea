// snag-race-suite
// expect: racy
// why: C11 <threads.h>: one thread updates the counter under an mtx_t, the other without it
#include <stddef.h>
#include <threads.h>

mtx_t lock;
long counter;

__attribute__((noinline)) static int careful(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    mtx_lock(&lock);
    counter += 1;  // RACE:first
    mtx_unlock(&lock);
  }
  return 0;
}

__attribute__((noinline)) static int careless(void* arg) {
  (void)arg;
  counter += 100;  // RACE:second
  return 0;
}

int main(void) {
  thrd_t a, b;
  if (mtx_init(&lock, mtx_plain) != thrd_success) return 1;
  thrd_create(&a, careful, NULL);
  thrd_create(&b, careless, NULL);
  thrd_join(a, NULL);
  thrd_join(b, NULL);
  mtx_destroy(&lock);
  return 0;
}
