// snag-race-suite
// expect: clean
// why: C11 <threads.h>: both threads update the counter under the same mtx_t; main reads it after thrd_join
#include <stddef.h>
#include <threads.h>

mtx_t lock;
long counter;

__attribute__((noinline)) static int careful(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    mtx_lock(&lock);
    counter += 1;
    mtx_unlock(&lock);
  }
  return 0;
}

__attribute__((noinline)) static int careless(void* arg) {
  (void)arg;
  mtx_lock(&lock);
  counter += 100;
  mtx_unlock(&lock);
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
  return counter == 200 ? 0 : 1;
}
